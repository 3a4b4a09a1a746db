"""The cabling plan PDF as a user reads it: text extracted with pypdf, label positions measured
in the page content, progress and cancellation as the GUI's export worker uses them."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from aicnet_gui.report import ExportCancelled, ExportOptions, build_plan, export_pdf
from aicnet_gui.report.label_layout import MM, STOCKS, label_rects, parse_custom_stock

LEAF = "leaf-Łódź-01"


def _text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def _drawn(page, reader) -> list[tuple[str, float, float]]:  # noqa: ANN001
    """(text, x, y) of every string shown right after a `Tm` (how label lines are drawn)."""
    out = []
    x = y = 0.0
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"Tm":
            x, y = float(operands[4]), float(operands[5])
        elif operator == b"Tj":
            value = operands[0]
            raw = value.original_bytes if hasattr(value, "original_bytes") else bytes(value)
            out.append((raw.decode("latin-1"), x, y))
    return out


def test_schedule_lists_every_link_with_its_cable_number_and_id(small, tmp_path):
    out = tmp_path / "schedule.pdf"
    export_pdf(small, out, ExportOptions(sections=("schedule",)))
    text = _text(out)
    plan = build_plan(small)
    for row in plan.rows:
        assert row.number in text
        assert row.cable_id in text
        assert row.label_b in text
    # a splitter and a twin-port DAC: 2 cables pulled, 4 links
    assert "Rack R1 - 2 cables (4 links) start here (A end); arriving here: 4 from R2" in text
    assert "Colour legend:" in text and "orange" in text
    assert LEAF in text


def test_iso_profile_changes_every_identifier(small, tmp_path):
    out = tmp_path / "iso.pdf"
    export_pdf(small, out, ExportOptions(sections=("schedule", "labels"), profile="iso-14763"))
    text = _text(out)
    assert "+1A.A02.U02:p1/+1A.A01.U40:1-1" in text
    assert "TO: +1A.A01.U40:1-1" in text
    assert "1A.A02-09:p1" not in text


def test_labels_carry_each_cable_number_once_per_end(small, tmp_path):
    out = tmp_path / "labels.pdf"
    result = export_pdf(small, out, ExportOptions(sections=("labels",), calibration_page=False))
    text = _text(out)
    counts = {number: text.count(number) for number in (f"C00000{i}" for i in range(1, 7))}
    # straight cables and the twin-port DAC: two ends; the 1:2 splitter: three
    assert counts == {"C000001": 3, "C000002": 2, "C000003": 2, "C000004": 2,
                      "C000005": 2, "C000006": 2}
    assert result.labels == 13
    assert "TO: 1A.A01-40:2-1" in text and "TO 2: 1A.A02-21:p1" in text


@pytest.mark.parametrize(
    ("stock", "page_h", "left", "top", "pitch_x", "pitch_y", "width", "height", "cols"),
    [
        # Avery 5160: Letter, 3/16 in side margin, 1/2 in top, 2.75 x 1 in pitch, 2.625 x 1 in
        ("avery-5160", 792.0, 13.5, 36.0, 198.0, 72.0, 189.0, 72.0, 3),
        # Avery L7651: A4, 4.75 mm side margin, 10.7 mm top, 40.6 x 21.2 mm pitch, 38.1 x 21.2 mm
        ("avery-l7651", 841.89, 4.75 * MM, 10.7 * MM, 40.6 * MM, 21.2 * MM, 38.1 * MM, 21.2 * MM,
         5),
    ],
)
def test_label_positions_match_the_avery_geometry(small, tmp_path, stock, page_h, left, top,
                                                  pitch_x, pitch_y, width, height, cols):
    start = 2
    out = tmp_path / "labels.pdf"
    export_pdf(small, out, ExportOptions(sections=("labels",), labels=stock, label_start=start,
                                         calibration_page=False))
    plan = build_plan(small)
    reader = PdfReader(out)
    numbers = [(t, x, y) for t, x, y in _drawn(reader.pages[0], reader)
               if t.startswith("C0000")]
    assert [t for t, _, _ in numbers] == [label.number for label in plan.labels]

    def expected_rect(index: int) -> tuple[float, float]:
        row, col = divmod(index + start, cols)
        return left + col * pitch_x, page_h - top - row * pitch_y - height

    # the computed rectangles are the Avery grid
    for placed in label_rects(STOCKS[stock], len(plan.labels), start):
        ex, ey = expected_rect(placed.index)
        assert placed.x == pytest.approx(ex, abs=0.5) and placed.y == pytest.approx(ey, abs=0.5)
        assert placed.w == pytest.approx(width, abs=0.5)
        assert placed.h == pytest.approx(height, abs=0.5)
    # every drawn number sits at the same spot of its own label, inside the label
    offsets = []
    for index, (_, x, y) in enumerate(numbers):
        ex, ey = expected_rect(index)
        assert ex < x < ex + width and ey < y < ey + height
        offsets.append((x - ex, y - ey))
    for dx, dy in offsets:
        assert dx == pytest.approx(offsets[0][0], abs=0.5)
        assert dy == pytest.approx(offsets[0][1], abs=0.5)


def test_printer_offset_shifts_every_label(small, tmp_path):
    plain, shifted = tmp_path / "a.pdf", tmp_path / "b.pdf"
    base = {"sections": ("labels",), "calibration_page": False, "label_qr": False}
    export_pdf(small, plain, ExportOptions(**base))
    export_pdf(small, shifted, ExportOptions(**base, label_offset_mm=(1.0, -2.0)))
    a_reader, b_reader = PdfReader(plain), PdfReader(shifted)
    a = _drawn(a_reader.pages[0], a_reader)
    b = _drawn(b_reader.pages[0], b_reader)
    assert len(a) == len(b) > 0
    for (ta, xa, ya), (tb, xb, yb) in zip(a, b, strict=True):
        assert ta == tb
        assert xb - xa == pytest.approx(1.0 * MM, abs=0.05)
        assert yb - ya == pytest.approx(-2.0 * MM, abs=0.05)


def test_custom_grid_and_calibration_page(small, tmp_path):
    grid = parse_custom_stock("cols=2,rows=5,w=90,h=50,left=10,top=15,px=100,py=52,page=a4")
    out = tmp_path / "custom.pdf"
    export_pdf(small, out, ExportOptions(sections=("labels",), labels="custom",
                                         custom_labels=grid))
    reader = PdfReader(out)
    # calibration page + 13 labels on 10-label sheets = 3 pages
    assert len(reader.pages) == 3
    calibration = reader.pages[0].extract_text()
    assert "Calibration page" in calibration and "100 mm" in calibration
    numbers = [(x, y) for t, x, y in _drawn(reader.pages[1], reader) if t.startswith("C0000")]
    first_x, first_y = numbers[0]
    second_x, _ = numbers[1]
    assert second_x - first_x == pytest.approx(100 * MM, abs=0.5)
    assert first_x > 10 * MM and first_y < 841.89 - 15 * MM


def test_whole_plan_keeps_non_ascii_names_and_counts(small, tmp_path):
    out = tmp_path / "plan.pdf"
    result = export_pdf(small, out, ExportOptions(paper="letter"))
    text = _text(out)
    assert LEAF in text and "Zoë Tester" in text
    assert "Cabling plan" in text and "Report test pod" in text
    assert "Validation: Errors found" in text  # the splitter runs across racks
    assert "DAC-ACROSS-RACKS" in text
    assert "Bill of materials" in text and "Design report" in text
    # "page X of Y": Y is a form drawn after the last page, extracted right after "of"
    assert re.search(rf"page 1 of\s*{result.pages}\b", text)
    assert re.search(rf"page 2 of\s*{result.pages}\b", text)
    assert result.pages == len(PdfReader(out).pages)
    assert (result.links, result.cables, result.labels) == (8, 6, 13)


def test_progress_is_monotonic_and_ends_at_one(small, tmp_path):
    seen: list[float] = []
    export_pdf(small, tmp_path / "p.pdf", progress=lambda fraction, message: seen.append(fraction))
    assert seen == sorted(seen)
    assert seen[-1] == 1.0 and len(seen) > 3


def test_cancel_stops_and_leaves_no_file(small, tmp_path):
    calls = Counter()

    def cancelled() -> bool:
        calls["n"] += 1
        return calls["n"] > 5

    out = tmp_path / "plan.pdf"
    with pytest.raises(ExportCancelled):
        export_pdf(small, out, cancelled=cancelled)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_bad_options_are_refused_before_writing(small, tmp_path):
    out = tmp_path / "x.pdf"
    with pytest.raises(ValueError, match="unknown section 'maps'"):
        export_pdf(small, out, ExportOptions(sections=("cover", "maps")))
    with pytest.raises(ValueError, match="label start must be 0..29"):
        export_pdf(small, out, ExportOptions(labels="avery-5160", label_start=30))
    assert not out.exists()


def test_an_empty_fabric_still_exports(doc, tmp_path):
    out = tmp_path / "empty.pdf"
    result = export_pdf(doc, out)
    text = _text(out)
    assert "The fabric has no links yet." in text and "The fabric has no devices yet." in text
    assert result.labels == 0 and "Calibration page" not in text
