"""The comparison PDF as a reader sees it (tests/look_study.py's study, one candidate's
all-reduce the even-spread bound standing in): candidates numbered as in the window, names
broken only after a hyphen, the load balancing in a column of its own, the stand-in marked in
the table and on the charts, the frontier's points the candidates' only (not the steps'
corners), the by-mode times one line each, and the power bars saying which switches they leave
out."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import String
from reportlab.lib.units import mm

from aicnet_gui.study.traffic_estimates import by_mode_line
from tests.look_study import REFUSED, pdf_row, refused_study


@pytest.fixture(scope="module")
def refused(catalog, tmp_path_factory):
    return refused_study(catalog, tmp_path_factory.mktemp("refused"))


@pytest.fixture(scope="module")
def pdf_text(refused, catalog, tmp_path_factory):
    from aicnet_gui.report.compare_pdf import write_comparison

    study, result = refused
    path = tmp_path_factory.mktemp("pdf") / "look.pdf"
    write_comparison(result, study.requirement, catalog, path)
    return [page.extract_text() for page in PdfReader(path).pages]


def _strings(drawing) -> list[str]:  # noqa: ANN001
    out = []

    def walk(node) -> None:  # noqa: ANN001
        if isinstance(node, String):
            out.append(node.text)
        for child in getattr(node, "contents", ()):
            walk(child)

    walk(drawing)
    return out


def _found(drawing, kind) -> list:  # noqa: ANN001
    """Every node of `kind` in a reportlab drawing's tree."""
    found = []

    def walk(node) -> None:  # noqa: ANN001
        if isinstance(node, kind):
            found.append(node)
        for child in getattr(node, "contents", ()):
            walk(child)

    walk(drawing)
    return found


def _plots(drawing) -> list[LinePlot]:  # noqa: ANN001
    return _found(drawing, LinePlot)


def test_a_name_breaks_only_after_a_hyphen():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from aicnet_gui.report.compare_pdf import name_lines
    from aicnet_gui.report.fonts import fonts

    font = fonts().cond
    for name in ("infiniband-qm9700-1to1-rail", "ethernet-cisco-n9364e-sg2-o-2to1-tor"):
        lines = name_lines(name, 25 * mm, font, 7)
        assert "".join(lines) == name
        assert len(lines) > 1
        assert all(line.endswith("-") for line in lines[:-1]), lines
        assert all(stringWidth(line, font, 7) <= 25 * mm for line in lines), lines
    assert name_lines("rail", 25 * mm, font, 7) == ["rail"]
    # a piece wider than the column is cut where it must be, nothing lost
    long = name_lines("x" * 80, 25 * mm, font, 7)
    assert "".join(long) == "x" * 80 and len(long) > 1


def test_candidates_are_numbered_as_in_the_window(refused, pdf_text):
    _study, result = refused
    built = [c for c in result.candidates if c.metrics is not None]
    assert any(c.index + 1 != n for n, c in enumerate(built, start=1))  # the study has gaps
    text = " ".join(" ".join(page.split()) for page in pdf_text)
    for c in built:
        row = pdf_row(pdf_text[0], c.name, [b.name for b in built])
        assert row[0] == str(c.index + 1), c.name  # the table
        assert f"{c.index + 1} {c.name};" in text or f"{c.index + 1} {c.name}." in text, c.name


def test_the_stand_in_is_marked_in_its_own_cells(refused, pdf_text):
    _study, result = refused
    built = [c for c in result.candidates if c.metrics is not None]
    (c,) = [c for c in built if c.name == REFUSED]
    first = pdf_text[0]
    row = pdf_row(first, c.name, [b.name for b in built])
    assert f"{c.metrics.even_spread_ms:.2f} ms*" in row  # a cell of its own
    assert f"{c.metrics.load_balancing} (not routed)" in " ".join(row)
    assert "((" not in first and "))" not in first  # "(adaptive (not routed))" no more
    for other in built:  # the others: their time and, in its own cell, what their switches ran
        if other is not c:
            cells = pdf_row(first, other.name, [b.name for b in built])
            assert f"{other.metrics.collective_ms:.2f} ms" in cells
            assert "+".join(other.metrics.primary_result.runs) in cells


def test_the_charts_mark_the_stand_in_and_draw_only_candidates_as_points(refused):
    from aicnet_gui.report.compare_pdf import _scatter

    _study, result = refused
    built = [c for c in result.candidates if c.metrics is not None]
    (c,) = [c for c in built if c.name == REFUSED]
    drawing = _scatter(built, lambda c: c.metrics.cost, lambda c: bool(c.pareto.cost_time),
                       "cost", "Cost against collective time")
    labels = [s for text in _strings(drawing) for s in text.split(", ")]
    assert f"{c.index + 1}*" in labels
    assert all("*" not in s for s in labels if s != f"{c.index + 1}*" and s[:1].isdigit())
    (plot,) = _plots(drawing)
    # markers sit on the candidates only: the steps between frontier points carry none
    marked = sorted(tuple(p) for series, line in zip(plot.data, [plot.lines[i] for i in
                                                                   range(len(plot.data))],
                                                       strict=True)
                    if line.symbol is not None for p in series)
    drawn = sorted((x.metrics.cost, x.metrics.collective_ms) for x in built
                   if x.feasible and x.metrics.cost is not None)
    assert marked == drawn


def test_the_by_mode_times_are_one_line_each(refused, pdf_text):
    _study, result = refused
    routed = [line for line in map(by_mode_line, result.candidates) if line]
    assert routed
    text = "\n".join(pdf_text)
    assert " | " not in text
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for line in routed:
        name = line.split(":")[0]
        assert any(x.startswith(f"{name}:") or x.startswith(f"- {name}:") or
                   x.startswith(f"• {name}:") for x in lines), name


def test_the_power_bars_say_which_switches_they_leave_out(refused, pdf_text):
    _study, result = refused
    left = [c for c in result.candidates if c.metrics is not None and c.metrics.power_unknown]
    assert left  # the SN5600 candidates
    text = " ".join(" ".join(page.split()) for page in pdf_text)
    assert "nvidia-sn5600" in text.split("Power by part class")[-1]
    assert "not in the bars" in text


def test_the_tallest_bar_ends_below_the_charts_edge(refused):
    from reportlab.graphics.charts.barcharts import VerticalBarChart

    from aicnet_gui.report.compare_pdf import _counts, _stacked, powered

    _study, result = refused
    built = [c for c in result.candidates if c.metrics is not None]
    charts = _found(_stacked(built, powered, 1000.0, "power"), VerticalBarChart)
    stacked = len(charts)
    charts += _found(_counts(built), VerticalBarChart)
    assert stacked == 1 and len(charts) == 5
    for n, chart in enumerate(charts):
        tallest = max(map(sum, zip(*chart.data, strict=True))) if n < stacked else max(
            chart.data[0])
        assert chart.valueAxis.valueMax is not None and chart.valueAxis.valueMax > tallest


def test_the_by_mode_lead_is_never_left_alone_at_the_foot_of_a_page(refused, catalog,
                                                                    monkeypatch):
    """Notes of every length above it (one more line at a time over a page's height): the
    page that has the lead sentence has the first line it leads to."""
    import io
    from dataclasses import replace

    from aicnet_gui.report import compare_pdf

    study, result = refused
    first = next(line for line in map(by_mode_line, result.candidates) if line)
    name = first.split(":")[0]
    monkeypatch.setattr(compare_pdf, "_charts", lambda _result, _styles: [])  # page 1 matters
    lead = "where the modes or the even spread differ:"
    for extra in range(0, 60, 2):
        padded = replace(result, notes=(*result.notes, *(f"note {k}" for k in range(extra))))
        pdf = compare_pdf.comparison_pdf(padded, study.requirement, catalog)
        pages = [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
        (with_lead,) = [p for p in pages if lead in p]
        assert f"{name}:" in with_lead.split(lead)[1], extra
