"""Live validation in the editor: findings follow edits, fixes are one undo step, stale results
are dropped, a failing rule never stops validation, findings lead to their objects."""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.analysis import DEFAULT_RULES, Analyzer, Rule, Severity

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def validated(window, qtbot):  # noqa: ANN001, ANN201
    """The current report, waiting for the validator's signal if it is not there yet."""
    if not window.validator.current():
        with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
            pass
    assert window.validator.current()
    return window.validator.report


def codes(window) -> list[tuple[str, str]]:  # noqa: ANN001
    return [(f.code, f.severity.value) for f in window.findings.model.findings]


def visible_codes(window) -> list[str]:  # noqa: ANN001
    proxy = window.findings.proxy
    return [proxy.index(row, 1).data() for row in range(proxy.rowCount())]


def drift_firmware_and_turn_pfc_off(window, qtbot) -> tuple[str, str]:  # noqa: ANN001
    """Two findings of two severities in one validated report: PFC and ECN off (an error on a
    RoCEv2 fabric) and the two leaves on different firmware (a warning); returns the leaves."""
    doc = window.document.fabric
    leaf1, leaf2 = sorted(d.id for d in doc.devices.values() if doc.role_of(d).value == "leaf")
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_settings({"pfc": False, "ecn": False}, "off")
        window.editor.update_devices([leaf1], {"firmware": "1"}, "fw")
        window.editor.update_devices([leaf2], {"firmware": "2"}, "fw")
    return leaf1, leaf2


@pytest.fixture
def hgx(window, qtbot, example_path):  # noqa: ANN001, ANN201
    """small-hgx.fabric (RoCEv2 with PFC and ECN on) opened and validated."""
    assert window.open_path(example_path, ask=False)
    validated(window, qtbot)
    return window


def test_an_edit_that_makes_an_error_shows_the_finding_and_its_fix_removes_it(hgx, qtbot):
    window = hgx
    assert not any(code == "ROCE-NO-PFC-ECN" for code, _ in codes(window))
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_settings({"pfc": False, "ecn": False}, "Turn PFC and ECN off")
    assert ("ROCE-NO-PFC-ECN", "error") in codes(window)
    assert "1 error" in window.live.status_label.text()
    assert window.findings.buttons[Severity.ERROR].text() == "1 error"
    row = visible_codes(window).index("ROCE-NO-PFC-ECN")
    window.findings.select_row(row)
    assert window.findings.fix_button.isEnabled()
    steps = window.document.undo_stack.count()
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.findings.fix_button.click()
    assert window.document.undo_stack.count() == steps + 1  # the fix is one undo step
    settings = window.document.fabric.settings
    assert settings.pfc and settings.ecn
    assert not any(code == "ROCE-NO-PFC-ECN" for code, _ in codes(window))
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.document.undo_stack.undo()  # undoing the fix brings the error back
    assert ("ROCE-NO-PFC-ECN", "error") in codes(window)


def test_fixes_are_offered_only_while_the_report_is_current(hgx, qtbot):
    window = hgx
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_settings({"pfc": False, "ecn": False}, "off")
    window.findings.select_row(visible_codes(window).index("ROCE-NO-PFC-ECN"))
    assert window.findings.fix_button.isEnabled()
    window.editor.update_settings({"mtu": 9100}, "Set MTU")  # the document moves on
    assert not window.findings.fix_button.isEnabled()
    assert window.live.status_label.text() == "validating…"
    validated(window, qtbot)
    assert window.findings.fix_button.isEnabled()  # the same finding, selected again


def test_findings_badge_their_devices_and_selecting_one_selects_and_centres_them(hgx, qtbot):
    window = hgx
    doc = window.document.fabric
    leaf1, leaf2 = sorted(d.id for d in doc.devices.values() if doc.role_of(d).value == "leaf")
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_devices([leaf1], {"firmware": "41.2010"}, "Set firmware")
        window.editor.update_devices([leaf2], {"firmware": "41.2012"}, "Set firmware")
    drift = [f for f in window.validator.report.findings if f.code == "FIRMWARE-DRIFT"]
    assert len(drift) == 1 and drift[0].severity == Severity.WARNING
    objects = set(drift[0].objects)
    assert objects <= {leaf1, leaf2} and objects
    for device_id in objects:  # a warning badge with one finding on each device it names
        assert window.topology.items_by_id[device_id].badge == ("warning", 1)
    others = set(doc.devices) - objects
    assert all(window.topology.items_by_id[d].badge is None for d in others)
    window.topology_view.set_zoom(1.0)
    window.topology_view.centerOn(-5000, -5000)  # far away from everything
    window.findings.select_row(visible_codes(window).index("FIRMWARE-DRIFT"))
    assert set(window.topology.selected_device_ids()) == objects
    view = window.topology_view
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    for device_id in objects:
        assert shown.intersects(window.topology.items_by_id[device_id].sceneBoundingRect())


def test_a_cable_with_a_finding_is_marked_in_the_cable_layer(hgx, qtbot):
    window = hgx
    link_id = sorted(window.document.fabric.links)[0]
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.update_links([link_id], {"cable": None}, "Clear the cable")
    unset = [f for f in window.validator.report.findings if f.code == "CABLE-UNSET"]
    assert unset and link_id in unset[0].objects
    assert window.topology.links.marks() == {link_id: 1}  # 1: warning halo
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.document.undo_stack.undo()
    assert window.topology.links.marks() == {}


def test_findings_filter_by_severity_code_and_text(hgx, qtbot):
    window = hgx
    doc = window.document.fabric
    leaf1, _leaf2 = drift_firmware_and_turn_pfc_off(window, qtbot)
    assert {"ROCE-NO-PFC-ECN", "FIRMWARE-DRIFT"} <= set(visible_codes(window))
    window.findings.buttons[Severity.ERROR].setChecked(False)
    assert "ROCE-NO-PFC-ECN" not in visible_codes(window)
    assert "FIRMWARE-DRIFT" in visible_codes(window)
    window.findings.buttons[Severity.ERROR].setChecked(True)
    combo = window.findings.code
    combo.setCurrentIndex(combo.findData("ROCE-NO-PFC-ECN"))
    assert visible_codes(window) == ["ROCE-NO-PFC-ECN"]
    combo.setCurrentIndex(0)
    window.findings.search.setText(doc.devices[leaf1].name)
    assert visible_codes(window) == ["FIRMWARE-DRIFT"]


def test_a_result_for_an_older_revision_is_dropped(hgx, qtbot):
    window = hgx
    validator = window.validator
    doc = window.document.fabric
    old = Analyzer(doc.snapshot()).full()  # computed for the current revision ...
    with qtbot.waitSignal(validator.report_ready, timeout=30000):
        window.editor.update_settings({"pfc": False, "ecn": False}, "off")  # ... which moves on
    shown = validator.report
    with qtbot.waitSignal(validator.dropped, timeout=1000) as dropped:
        assert validator.accept_report(old) is False
    assert dropped.args == [old.revision]
    assert validator.report is shown  # the newer findings stay
    assert ("ROCE-NO-PFC-ECN", "error") in codes(window)


def test_edits_during_a_background_run_drop_its_result_and_catch_up(hgx, qtbot):
    window = hgx
    validator = window.validator
    validator.revalidate()
    validator.run()  # the full run starts in the worker on a snapshot of this revision
    started_at = window.document.fabric.revision
    window.editor.update_settings({"pfc": False, "ecn": False}, "off")  # edit meanwhile
    with qtbot.waitSignal(validator.dropped, timeout=30000) as dropped:
        pass
    assert dropped.args == [started_at]
    report = validated(window, qtbot)
    assert report.revision == window.document.fabric.revision
    assert ("ROCE-NO-PFC-ECN", "error") in codes(window)


def broken_rule() -> Rule:
    def check(_state, _key):  # noqa: ANN001, ANN202
        raise ZeroDivisionError("a bug in a rule")

    return Rule("always-broken", "fabric", check)


def test_a_rule_that_raises_is_an_internal_error_finding_and_validation_keeps_working(hgx, qtbot):
    window = hgx
    validator = window.validator
    validator.rules = (*DEFAULT_RULES, broken_rule())
    with qtbot.waitSignal(validator.report_ready, timeout=30000):
        validator.revalidate()
    internal = [f for f in validator.report.findings if f.code == "INTERNAL-ERROR"]
    assert len(internal) == 1 and "always-broken" in internal[0].message
    assert internal[0].severity == Severity.ERROR
    assert ("INTERNAL-ERROR", "error") in codes(window)
    # the other rules still run, incrementally, after the next edits
    doc = window.document.fabric
    leaf1, leaf2 = sorted(d.id for d in doc.devices.values() if doc.role_of(d).value == "leaf")
    with qtbot.waitSignal(validator.report_ready, timeout=30000):
        window.editor.update_devices([leaf1], {"firmware": "1"}, "fw")
        window.editor.update_devices([leaf2], {"firmware": "2"}, "fw")
    found = {code for code, _ in codes(window)}
    assert {"INTERNAL-ERROR", "FIRMWARE-DRIFT"} <= found
    assert window.validator.current()


def test_the_metrics_show_oversubscription_against_the_target_and_an_unknown_cost(window, qtbot):
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    window.metrics.show()
    window.metrics.raise_()
    validated(window, qtbot)
    doc = window.document.fabric
    leaf = doc.device_by_name("leaf-01")
    uplinks = sorted(link.id for link in doc.links_of(leaf.id)
                     if doc.tier_of(doc.devices[(link.b if link.a.device == leaf.id else link.a).device]) == 2)
    assert len(uplinks) == 32
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.delete(link_ids=uplinks[:2])
    # leaf-01: 32 x 400G down to its rail's servers, 30 x 400G up: 32/30 = 1.07:1
    rows = window.metrics.row_texts("Oversubscription")
    assert rows["leaf-01"] == "1.07:1"
    assert rows["leaf-02"] == "1.00:1"
    assert window.metrics.section_value("Oversubscription") == "target 1.00:1 (training)"
    if window.validator.bom is None or window.metrics.bom is None:
        with qtbot.waitSignal(window.validator.bom_ready, timeout=60000):
            pass
    bill = window.metrics.row_texts("Bill of materials")
    assert bill["Cost"] == "unknown"  # the catalog has no prices
    assert bill["Devices"] == "44"


def test_colouring_by_oversubscription_marks_the_switch_over_target(window, qtbot):
    from aicnet_gui.gui import theme

    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    validated(window, qtbot)
    doc = window.document.fabric
    leaf = doc.device_by_name("leaf-01")
    up = [link.id for link in doc.links_of(leaf.id)
          if doc.tier_of(doc.devices[(link.b if link.a.device == leaf.id else link.a).device]) == 2]
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.editor.delete(link_ids=up[:16])  # 32 down, 16 up: 2.0:1, twice the 1:1 target
    window.set_colour_mode("oversubscription")
    assert window.colour_combo.currentData() == "oversubscription"
    assert window.topology.links.mode == "oversubscription"
    red = theme.OVERSUB_CLASSES[2][1]
    green = theme.OVERSUB_CLASSES[0][1]
    assert window.topology.items_by_id[leaf.id].accent.name() == red
    assert window.topology.items_by_id[doc.device_by_name("leaf-02").id].accent.name() == green
    window.set_colour_mode("cable")
    assert window.topology.items_by_id[leaf.id].accent is None


def test_a_window_started_without_a_file_reports_validated(window, qtbot):
    """The empty document the window starts with is validated too: no endless 'validating…'."""
    label = window.live.status_label
    qtbot.waitUntil(lambda: label.text().startswith("validated"), timeout=10_000)


def test_the_synchronous_validator_has_a_current_report_after_every_edit(example_path, qtbot):
    """The mode tests use: no timer, no worker; open, edit and undo each leave a current report."""
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.gui.document import EditorDocument
    from aicnet_gui.gui.validation import LiveValidator
    from aicnet_gui.model.edits import UpdateSettings

    document = EditorDocument(builtin_catalog())
    validator = LiveValidator(document, synchronous=True)
    shown: list[int] = []
    validator.report_ready.connect(lambda report: shown.append(report.revision))
    document.open(example_path)
    assert validator.current() and shown == [document.fabric.revision]
    assert not any(f.code == "ROCE-NO-PFC-ECN" for f in validator.report.findings)
    assert document.execute([UpdateSettings({"pfc": False, "ecn": False})], "off")
    assert validator.current()
    assert any(f.code == "ROCE-NO-PFC-ECN" for f in validator.report.findings)
    document.undo_stack.undo()
    assert validator.current()
    assert not any(f.code == "ROCE-NO-PFC-ECN" for f in validator.report.findings)
    assert len(shown) == 3
