"""Findings at scale in the editor: many rows selected and fixed together, "fix all N like
this", the table's order stable across re-validation, the detail line following the
selection, and media chosen for a selection of cables - each one undo step."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelectionModel

from aicnet_gui.model.edits import UpdateLink

SU1 = Path(__file__).resolve().parents[2] / "examples" / "superpod-1su.fabric"


def _validated(window, qtbot):  # noqa: ANN001, ANN202
    if not window.validator.current():
        with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
            pass
    return window.validator.report


def _unset(window, qtbot, count: int) -> list[str]:  # noqa: ANN001
    assert window.open_path(SU1, ask=False)
    _validated(window, qtbot)
    doc = window.document.fabric
    ids = sorted(doc.links)[:count]
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.apply_fix([UpdateLink(i, {"cable": None}) for i in ids], "strip cables")
    return ids


def _rows_of(window, code: str) -> list[int]:  # noqa: ANN001
    dock = window.findings
    proxy = dock.proxy
    return [r for r in range(proxy.rowCount())
            if dock.model.findings[proxy.mapToSource(proxy.index(r, 0)).row()].code == code]


def test_fix_selected_rows_in_one_undo_step(window, qtbot):
    _unset(window, qtbot, 12)
    dock = window.findings
    rows = _rows_of(window, "CABLE-UNSET")[:5]
    selection = dock.table.selectionModel()
    for row in rows:
        selection.select(dock.proxy.index(row, 0),
                         QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)
    assert len(dock.selected_findings()) == 5
    assert dock.fix_button.text() == "Fix selected (5)" and dock.fix_button.isEnabled()
    assert "5 findings selected" in dock.detail.text()
    steps = window.document.undo_stack.count()
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        dock.fix_button.click()
    assert window.document.undo_stack.count() == steps + 1
    report = _validated(window, qtbot)
    assert len(report.by_code("CABLE-UNSET")) == 12 - 5
    assert report.errors == 0


def test_fix_all_of_a_rule_and_undo(window, qtbot):
    _unset(window, qtbot, 64)
    dock = window.findings
    report = _validated(window, qtbot)
    unset = report.by_code("CABLE-UNSET")
    assert len(unset) == 64
    alike, rule = dock.like_this(unset[0])
    assert len(rule) == 64
    steps = window.document.undo_stack.count()
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        dock.fix_many_requested.emit(rule)
    assert window.document.undo_stack.count() == steps + 1
    assert window.document.undo_stack.undoText() == "Fix 64 CABLE-UNSET findings"
    assert not _validated(window, qtbot).by_code("CABLE-UNSET")
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.document.undo_stack.undo()
    assert len(_validated(window, qtbot).by_code("CABLE-UNSET")) == 64


def test_order_is_stable_and_the_detail_follows_the_selection(window, qtbot):
    _unset(window, qtbot, 8)
    dock = window.findings
    order = [f.objects for f in dock.model.findings]
    shown = [dock.proxy.data(dock.proxy.index(r, 0), dock.proxy.sortRole()) for r in range(3)]
    dock.select_row(2)
    chosen = dock.selected_finding()
    assert chosen is not None and chosen.code in dock.detail.text()
    # an unrelated edit re-validates: the unchanged findings keep their rows and the selection
    doc = window.document.fabric
    spine = doc.device_by_name("spine-01").id
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_devices([spine], {"firmware": "31.2010.1000"}, "firmware")
    assert [f.objects for f in dock.model.findings if f.objects in order] == order
    assert [dock.proxy.data(dock.proxy.index(r, 0), dock.proxy.sortRole()) for r in range(3)] == shown
    still = dock.selected_finding()
    assert still is not None and (still.code, still.objects) == (chosen.code, chosen.objects)
    dock.table.clearSelection()
    assert dock.detail.text() == ""


def test_choose_media_for_the_selected_cables(window, qtbot):
    ids = _unset(window, qtbot, 6)
    window.topology.select_ids([], ids[:3])
    assert window.actions_by_name["choose-media"].isEnabled()
    steps = window.document.undo_stack.count()
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.actions_by_name["choose-media"].trigger()
    assert window.document.undo_stack.count() == steps + 1
    doc = window.document.fabric
    assert all(doc.links[i].cable is not None for i in ids[:3])
    assert sum(doc.links[i].cable is None for i in ids[3:]) >= 1
    assert _validated(window, qtbot).errors == 0
