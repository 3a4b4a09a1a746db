"""The text sections of the cabling plan fill their pages (issue 32 item 9): a short section no
longer leaves half a page empty before the next one, the end of a section no longer gets a page
of its own with two lines on it, and a heading never sits alone at the foot of a page.  Read
back from the PDF with pypdf (the text positions a reader sees), not from the layout code."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.fileio import load_fabric
from aicnet_gui.report import ExportOptions, export_pdf
from aicnet_gui.report.pdfpage import FOOTER_H, HEADER_H, MARGIN

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TEXT_SECTIONS = ("Oversubscription and bandwidth", "Findings", "Bill of materials",
                 "Design report")


def _lines(page) -> tuple[str, list[float], float, float]:  # noqa: ANN001
    """(the page header's section text, the body's text baselines, the body's top and bottom),
    from pypdf's text extraction (which also reads the header drawn as a form)."""
    height = float(page.mediabox.height)
    top, bottom = height - MARGIN - HEADER_H - 6, MARGIN + FOOTER_H
    header, body = [], set()

    def seen(text, cm, tm, _font, _size) -> None:  # noqa: ANN001
        if not text.strip():
            return
        y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
        if y > top:
            header.append(text)
        elif y > bottom:
            body.add(round(y, 1))

    page.extract_text(visitor_text=seen)
    return " ".join(header), sorted(body, reverse=True), top, bottom


def _text_pages(path: Path) -> list[tuple[str, list[float], float, float]]:
    pages = [_lines(page) for page in PdfReader(path).pages]
    return [p for p in pages if any(name in p[0] for name in TEXT_SECTIONS)]


@pytest.mark.parametrize("name", ["small-hgx", "superpod-1su", "roce-enterprise"])
def test_the_text_sections_fill_their_pages(name, tmp_path):
    catalog = builtin_catalog()
    doc = load_fabric(EXAMPLES / f"{name}.fabric", catalog)
    out = tmp_path / "plan.pdf"
    export_pdf(doc, out, ExportOptions())
    pages = _text_pages(out)
    assert len(pages) >= 2
    for k, (header, lines, top, bottom) in enumerate(pages):
        assert len(lines) >= 4, f"page {k + 1} of the text sections holds {len(lines)} lines"
        if k < len(pages) - 1:  # only the last page of the text sections may end early
            filled = (top - lines[-1]) / (top - bottom)
            assert filled > 0.7, f"{header}: {filled:.0%} of the page used before the next page"


def test_a_section_run_on_is_named_in_the_page_header(tmp_path):
    catalog = builtin_catalog()
    doc = load_fabric(EXAMPLES / "small-hgx.fabric", catalog)
    out = tmp_path / "plan.pdf"
    export_pdf(doc, out, ExportOptions())
    headers = [header for header, *_rest in _text_pages(out)]
    assert any(" · " in header for header in headers)  # two sections share a page
    reader = PdfReader(out)
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert {"Findings", "Bill of materials", "Design report"} <= set(titles)


def test_the_cover_keeps_its_page(tmp_path):
    catalog = builtin_catalog()
    doc = load_fabric(EXAMPLES / "small-hgx.fabric", catalog)
    out = tmp_path / "plan.pdf"
    export_pdf(doc, out, ExportOptions(sections=("cover", "findings")))
    reader = PdfReader(out)
    assert len(reader.pages) == 2
    cover, findings = (_lines(page)[0] for page in reader.pages)
    assert "Cover" in cover and "Findings" not in cover and "Findings" in findings
