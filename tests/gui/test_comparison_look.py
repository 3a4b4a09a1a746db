"""The comparison as a user sees it: in a 1600 x 1000 window the columns that decide (cost,
power, the all-reduce under each candidate's own load balancing, the load balancing, the
even-spread bound, the Pareto mark) show without scrolling and without being cut; every header
says what it is when hovered; a candidate whose all-reduce is the even-spread bound standing in
for the traffic model's is marked so in the table, on the charts and in the notes.

The study is tests/look_study.py's small real one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from aicnet_gui.study import Study
from aicnet_gui.study.candidate import EVEN_SPREAD
from tests.look_study import REFUSED, REQUIREMENT, TEST_PRICES, refused_study

WAIT_MS = 120_000
#: the columns a comparison is read by: they must show at once
DECIDING = ("name", "cost", "power", "allreduce", "load_balancing", "even_spread", "pareto")


def _key_column(model, key: str) -> int:  # noqa: ANN001
    return next(i for i, c in enumerate(model.columns)
                if c.key == key or c.key.startswith(key + ":"))


def _cells(dock, key: str, role=Qt.ItemDataRole.DisplayRole) -> dict[str, object]:  # noqa: ANN001
    model = dock.model
    column = _key_column(model, key)
    return {model.candidate(r).name: model.index(r, column).data(role)
            for r in range(model.rowCount())}


def _assert_deciding_columns_whole(dock) -> None:  # noqa: ANN001
    table, header = dock.table, dock.table.horizontalHeader()
    # what the columns get with the vertical scroll bar shown (a longer study shows it)
    shown = table.width() - 2 * table.frameWidth() - table.verticalScrollBar().sizeHint().width()
    for key in DECIDING:
        column = _key_column(dock.model, key)
        left = header.sectionViewportPosition(column)
        width = header.sectionSize(column)
        assert left >= 0 and left + width <= shown, (key, left, width, shown)
        # not cut: as wide as its header and its cells ask
        assert width >= header.sectionSizeHint(column), key
        assert width >= table.sizeHintForColumn(column), key


def test_the_deciding_columns_show_whole_in_a_1600_pixel_window(window, qtbot, tmp_path):
    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: window.width() == 1600)
    comparison = window.comparison
    study = Study.prepare(REQUIREMENT, window.catalog, prices=TEST_PRICES)
    with qtbot.waitSignal(comparison.finished, timeout=WAIT_MS):
        comparison.start(study, tmp_path / "candidates", workers=0)
    _assert_deciding_columns_whole(comparison.dock)


def test_they_show_whole_with_a_stand_in_time_too(window, qtbot, refused, catalog):
    """`adaptive (not routed)` is the widest load balancing the column shows."""
    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: window.width() == 1600)
    study, result = refused
    comparison = window.comparison
    comparison.study, comparison.result = study, result
    comparison.dock.show_study(result.name, len(result.candidates))
    comparison.show_dock()
    comparison.dock.show_result(result, comparison.notes(result, catalog))
    _assert_deciding_columns_whole(comparison.dock)


def test_every_header_says_what_it_is(window, qtbot, tmp_path):
    comparison = window.comparison
    study = Study.prepare(REQUIREMENT, window.catalog, prices=TEST_PRICES)
    with qtbot.waitSignal(comparison.finished, timeout=WAIT_MS):
        comparison.start(study, tmp_path / "candidates", workers=0)
    model = comparison.dock.model
    for column in range(model.columnCount()):
        tip = model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        assert tip and len(tip) > 10, model.columns[column].key
    tip = model.headerData(_key_column(model, "allreduce"), Qt.Orientation.Horizontal,
                           Qt.ItemDataRole.ToolTipRole)
    assert "load balancing" in tip and "even-spread bound" in tip


@pytest.fixture(scope="module")
def refused(catalog, tmp_path_factory):
    study, result = refused_study(catalog, tmp_path_factory.mktemp("refused"))
    (c,) = [c for c in result.candidates if c.name == REFUSED]
    assert c.metrics.collective_basis == EVEN_SPREAD
    return study, result


def test_a_stand_in_time_is_marked_in_the_table_the_charts_and_the_notes(qtbot, refused,
                                                                         catalog):
    from aicnet_gui.gui.compare.comparison import Comparison
    from aicnet_gui.gui.compare.comparison_dock import ComparisonDock

    _study, result = refused
    dock = ComparisonDock()
    qtbot.addWidget(dock)
    dock.show_study(result.name, len(result.candidates))
    dock.show_result(result, Comparison.notes(result, catalog))
    (c,) = [c for c in result.candidates if c.name == REFUSED]
    m = c.metrics
    assert _cells(dock, "allreduce")[REFUSED] == f"{m.even_spread_ms:.2f} ms*"
    assert _cells(dock, "load_balancing")[REFUSED].endswith("(not routed)")
    # the Pareto mark says what it was compared at
    assert "even-spread bound" in _cells(dock, "pareto", Qt.ItemDataRole.ToolTipRole)[REFUSED]
    # its points are numbered with the mark, and hovering says why
    for scatter in (dock.charts.cost_time, dock.charts.power_time):
        if c.index not in scatter._points:
            continue
        assert scatter.label_of(c.index) == f"{c.index + 1}*"
        assert "even-spread bound" in scatter.tip_of(c.index)
    others = [o for o in result.candidates if o.metrics is not None and o.name != REFUSED
              and o.index in dock.charts.cost_time._points]
    assert others and all("*" not in dock.charts.cost_time.label_of(o.index) for o in others)
    # the notes list the stand-ins as a sentence of their own, no stray ":;"
    notes = dock.notes.text()
    assert f"{REFUSED}: past the traffic model's limits" in notes
    assert ":;" not in notes and ";;" not in notes



def test_the_power_bars_say_which_switches_they_leave_out(qtbot, refused, catalog):
    from aicnet_gui.gui.compare.comparison_dock import ComparisonDock

    _study, result = refused
    dock = ComparisonDock()
    qtbot.addWidget(dock)
    dock.show_study(result.name, len(result.candidates))
    dock.show_candidates(result.candidates)
    left = [c for c in result.candidates if c.metrics is not None
            and "nvidia-sn5600" in c.metrics.power_unknown]
    assert left
    caption = dock.charts.power_bars[1].caption.text()
    assert "nvidia-sn5600 has no maximum power figure" in caption
    assert "not in the bars of " + ", ".join(f"#{c.index + 1}" for c in left) in caption
    # and the bars are numbered as lower bounds, as the PDF names them; the others are not
    ticks = dict(dock.charts.power_bars[0].plot.getAxis("bottom")._tickLevels[0])
    shown = [c for c in result.candidates if c.metrics is not None and c.metrics.power_by_class]
    lower = {c.index for c in left}
    assert ticks and set(ticks.values()) == {
        f"{c.index + 1}" + (" (>=)" if c.index in lower else "") for c in shown}
    cost_ticks = dock.charts.cost_bars[0].plot.getAxis("bottom")._tickLevels[0]
    assert not any("(>=)" in label for _x, label in cost_ticks)


def test_labels_of_points_close_on_screen_do_not_cover_each_other(qtbot, refused):
    """Three candidates a few pixels apart at the same time (20.49M, 20.54M, 20.58M on a third
    of a window in the hall-a study): each keeps its own label, none over another."""
    from dataclasses import replace

    from aicnet_gui.gui.compare.charts import ComparisonCharts

    _study, result = refused
    built = [c for c in result.candidates if c.metrics is not None and c.feasible]
    time = built[0].metrics.collective_ms
    same = [c for c in built if c.metrics.collective_ms == time][:4]
    assert len(same) == 4
    close = [replace(c, metrics=replace(c.metrics, cost=cost))
             for c, cost in zip(same, (1.0e6, 1.002e6, 1.004e6, 2.0e6), strict=True)]
    charts = ComparisonCharts()
    qtbot.addWidget(charts)
    charts.resize(500, 400)
    charts.show()
    qtbot.waitExposed(charts)
    charts.show_candidates(close)
    labels = [item for item, _x, _t in charts.cost_time._texts]
    assert len(labels) == 4
    # the plot laid out at its size (the labels are placed again when it is)
    qtbot.waitUntil(lambda: 0 < labels[-1].mapRectToScene(labels[-1].boundingRect()).x() < 500)
    rects = [item.mapRectToScene(item.boundingRect()) for item in labels]
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not a.intersects(b), (a, b)
    # and after a resize, too
    charts.resize(420, 400)
    qtbot.waitUntil(lambda: labels[-1].mapRectToScene(labels[-1].boundingRect()).x() < 420)
    rects = [item.mapRectToScene(item.boundingRect()) for item in labels]
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])
