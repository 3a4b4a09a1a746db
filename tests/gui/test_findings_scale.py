"""The findings dock follows a new report by what changed: a finding that appears or goes is a
row inserted or removed (no model reset), the rows stay sorted by the chosen column, the
selection stays on its finding, and the counts, the rule filter, the status bar and the canvas
badges follow."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from aicnet_gui.analysis import Finding, Severity
from aicnet_gui.gui.panels.findings_model import FindingsModel

from .test_validation import codes, drift_firmware_and_turn_pfc_off, validated, visible_codes


def make(code: str, severity: Severity, objects: tuple[str, ...], message: str = "m") -> Finding:
    return Finding(code, severity, message, objects)


class Spy:
    """Which structural signals a model emitted."""

    def __init__(self, model) -> None:  # noqa: ANN001
        self.events: list[str] = []
        model.modelReset.connect(lambda: self.events.append("reset"))
        model.rowsInserted.connect(lambda _p, a, b: self.events.append(f"insert {a}-{b}"))
        model.rowsRemoved.connect(lambda _p, a, b: self.events.append(f"remove {a}-{b}"))
        model.layoutChanged.connect(lambda *_: self.events.append("layout"))


@pytest.fixture
def findings() -> list[Finding]:
    return sorted([make("CABLE-UNSET", Severity.WARNING, (f"l{i:02}",), f"cable {i:02} unset")
                   for i in range(20)]
                  + [make("ROCE-NO-PFC-ECN", Severity.ERROR, (), "PFC off"),
                     make("FIRMWARE-DRIFT", Severity.WARNING, ("d1", "d2"), "drift")],
                  key=Finding.sort_key)


def test_one_new_and_one_gone_finding_insert_and_remove_rows_without_a_reset(qtbot, findings):  # noqa: ANN001
    model = FindingsModel(lambda: None)
    model.set_findings(findings)
    spy = Spy(model)
    gone = findings[5]
    new = make("CABLE-UNSET", Severity.WARNING, ("l05b",), "cable 05b unset")
    report = sorted([f for f in findings if f is not gone] + [new], key=Finding.sort_key)
    change = model.set_findings(report)
    assert "reset" not in spy.events
    assert spy.events == ["remove 5-5", "insert 6-6"]  # l04 gone, l05b after l05
    assert change.removed == [gone] and change.added == [new] and not change.reset
    assert model.findings == report
    assert model.severity_counts == {Severity.ERROR: 1, Severity.WARNING: 21}
    assert model.code_counts["CABLE-UNSET"] == 20
    spy.events.clear()
    assert model.set_findings(list(report)).added == []  # the same findings: nothing happens
    assert spy.events == []


def test_rows_stay_sorted_by_the_chosen_column_through_updates(qtbot, findings):  # noqa: ANN001
    model = FindingsModel(lambda: None)
    model.set_findings(findings)
    model.sort(2, Qt.SortOrder.DescendingOrder)  # by message, last first
    def expected(items: list[Finding]) -> list[Finding]:
        return sorted(items, key=lambda f: (f.message, f.sort_key()), reverse=True)
    assert model.findings == expected(findings)
    spy = Spy(model)
    kept = [f for f in findings if f.message not in ("cable 03 unset", "drift")]
    new = [make("CABLE-UNSET", Severity.WARNING, ("l99",), "cable 99 unset"),
           make("CABLE-UNSET", Severity.WARNING, ("l07b",), "cable 07b unset"),
           make("LEAF-NO-UPLINK", Severity.ERROR, ("d3",), "a leaf without uplinks")]
    model.set_findings(sorted(kept + new, key=Finding.sort_key))
    assert "reset" not in spy.events
    assert model.findings == expected(kept + new)
    assert [model.index(r, 2).data() for r in range(3)] == [
        "cable 99 unset", "cable 19 unset", "cable 18 unset"]


def test_a_report_with_one_new_finding_inserts_its_row_and_keeps_the_selection(window, qtbot, example_path):  # noqa: ANN001
    assert window.open_path(example_path, ask=False)
    validated(window, qtbot)
    doc = window.document.fabric
    leaf1, leaf2 = sorted(d.id for d in doc.devices.values() if doc.role_of(d).value == "leaf")
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_devices([leaf1], {"firmware": "41.2010"}, "Set firmware")
        window.editor.update_devices([leaf2], {"firmware": "41.2012"}, "Set firmware")
    dock = window.findings
    dock.select_row(visible_codes(window).index("FIRMWARE-DRIFT"))
    selected = dock.selected_finding()
    assert selected is not None and selected.code == "FIRMWARE-DRIFT"
    before = dock.proxy.rowCount()
    spy = Spy(dock.model)
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_settings({"pfc": False, "ecn": False}, "Turn PFC and ECN off")
    assert "reset" not in spy.events
    assert any(event.startswith("insert") for event in spy.events)
    assert dock.proxy.rowCount() == before + 1
    assert ("ROCE-NO-PFC-ECN", "error") in codes(window)
    assert codes(window) == [(f.code, f.severity.value) for f in window.validator.report.findings]
    assert dock.selected_finding().code == "FIRMWARE-DRIFT"  # still the selected row
    assert dock.buttons[Severity.ERROR].text() == "1 error"
    assert dock.code.findText("ROCE-NO-PFC-ECN (1)") > 0
    assert "1 error" in window.live.status_label.text()
    for device_id in selected.objects:  # the badges came from the findings that changed
        assert window.topology.items_by_id[device_id].badge == ("warning", 1)


def test_badges_and_cable_marks_follow_the_findings_that_change(window, qtbot, example_path):  # noqa: ANN001
    assert window.open_path(example_path, ask=False)
    validated(window, qtbot)
    doc = window.document.fabric
    links = sorted(doc.links)[:2]
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_links(links, {"cable": None}, "Clear the cables")
    assert window.topology.links.marks() == {links[0]: 1, links[1]: 1}
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.document.undo_stack.undo()
    assert window.topology.links.marks() == {}
    assert all(item.badge is None for item in window.topology.items_by_id.values())


def test_sorting_by_a_header_keeps_the_selected_finding_and_the_filter(window, qtbot, example_path):  # noqa: ANN001
    assert window.open_path(example_path, ask=False)
    validated(window, qtbot)
    drift_firmware_and_turn_pfc_off(window, qtbot)
    dock = window.findings
    dock.select_row(visible_codes(window).index("FIRMWARE-DRIFT"))
    dock.table.horizontalHeader().setSortIndicator(1, Qt.SortOrder.DescendingOrder)  # a click on "Code"
    shown = visible_codes(window)
    assert shown == sorted(shown, reverse=True)
    assert dock.selected_finding().code == "FIRMWARE-DRIFT"
    dock.buttons[Severity.ERROR].setChecked(False)
    assert "ROCE-NO-PFC-ECN" not in visible_codes(window)
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_settings({"pfc": True, "ecn": True}, "on")  # the error goes
    dock.buttons[Severity.ERROR].setChecked(True)
    shown = visible_codes(window)
    assert "ROCE-NO-PFC-ECN" not in shown and shown == sorted(shown, reverse=True)


def test_the_rules_list_counts_each_rule_filters_the_table_and_fixes_all_of_one(window, qtbot):  # noqa: ANN001
    from .test_fix_at_scale import _unset, _validated

    _unset(window, qtbot, 12)
    dock = window.findings
    rules = dock.rules
    lines = {rules.tree.topLevelItem(i).text(0): rules.tree.topLevelItem(i).text(1)
             for i in range(rules.tree.topLevelItemCount())}
    assert lines["CABLE-UNSET"] == "12"
    assert lines["All rules"] == str(len(window.validator.report.findings))
    item = next(rules.tree.topLevelItem(i) for i in range(rules.tree.topLevelItemCount())
                if rules.tree.topLevelItem(i).text(0) == "CABLE-UNSET")
    rules.tree.setCurrentItem(item)  # a click on the line
    assert set(visible_codes(window)) == {"CABLE-UNSET"} and len(visible_codes(window)) == 12
    assert dock.code.currentData() == "CABLE-UNSET"
    assert rules.fix_button.text() == "Fix all 12 CABLE-UNSET" and rules.fix_button.isEnabled()
    steps = window.document.undo_stack.count()
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        rules.fix_button.click()
    assert window.document.undo_stack.count() == steps + 1  # one undo step
    assert _validated(window, qtbot).by_code("CABLE-UNSET") == []
    assert rules.chosen() is None and dock.code.currentData() is None  # gone: all rules again
    assert "CABLE-UNSET" not in visible_codes(window)
    assert len(visible_codes(window)) == len(window.validator.report.findings)
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.document.undo_stack.undo()
    assert len(window.validator.report.by_code("CABLE-UNSET")) == 12
    assert codes(window) == [(f.code, f.severity.value) for f in window.validator.report.findings]


def test_the_legend_is_redrawn_only_when_a_cable_colour_appears_or_goes(window, qtbot):  # noqa: ANN001
    from .test_fix_at_scale import SU1

    assert window.open_path(SU1, ask=False)
    drawn: list[str] = []
    legend_set = window.legend.set_spec
    window.legend.set_spec = lambda spec: (drawn.append(spec.title), legend_set(spec))
    doc = window.document.fabric
    first, second = sorted(doc.links)[:2]
    colour = doc.links[first].colour
    assert window.editor.update_links([first], {"colour": "violet"}, "a new colour")
    assert len(drawn) == 1 and "violet" in [n for n, _c in window.legend.colour_rows()]
    assert window.editor.update_links([second], {"colour": "violet"}, "a colour already used")
    assert len(drawn) == 1
    assert window.editor.update_links([first, second], {"colour": colour}, "violet goes")
    assert len(drawn) == 2 and "violet" not in [n for n, _c in window.legend.colour_rows()]
