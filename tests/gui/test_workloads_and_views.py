"""Workloads panel, collapsible groups, colour modes and opening big files in the background."""

from __future__ import annotations

from pathlib import Path

from aicnet_gui.editing import workload_rules
from aicnet_gui.gui.canvas.groups import GroupKey

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def validated(window, qtbot):  # noqa: ANN001, ANN201
    if not window.validator.current():
        with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
            pass
    return window.validator.report


def servers(doc) -> list[str]:  # noqa: ANN001
    return sorted(d.id for d in doc.devices.values() if doc.tier_of(d) == 0)


def test_creating_a_workload_from_the_selection_is_undoable_and_shows_its_metrics(window, qtbot, example_path):
    assert window.open_path(example_path, ask=False)
    validated(window, qtbot)
    doc = window.document.fabric
    picked = servers(doc)[:2]
    window.workloads.show()
    window.workloads.raise_()
    window.topology.select_ids(picked, [])
    before = set(doc.workloads)
    steps = window.document.undo_stack.count()
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        workload_id = window.workloads.create("training")
    assert workload_id is not None and set(doc.workloads) == before | {workload_id}
    workload = doc.workloads[workload_id]
    assert sorted(workload.members) == picked and workload.kind.value == "training"
    assert workload.pattern == "ring-allreduce"
    assert window.document.undo_stack.count() == steps + 1
    assert window.workloads.current_id() == workload_id
    metrics = window.workloads.metrics()
    assert metrics is not None and metrics.servers == 2
    # 2 HGX servers with 8 x 400G NICs each: 16 GPUs, 400 Gb/s injected per GPU
    assert metrics.gpus == 16
    assert window.workloads.members.text() == "2 servers, 16 GPUs"
    assert "Gb/s" in window.workloads.values["per_gpu"].text()
    assert window.workloads.values["bisection"].text().split("<br>")[0].endswith("b/s")
    # the workload's servers are highlighted on the canvas while the panel is shown
    assert {d for d, item in window.topology.items_by_id.items() if item.highlight == "member"} == set(picked)
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.document.undo_stack.undo()
    assert workload_id not in doc.workloads
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        window.document.undo_stack.redo()
    assert sorted(doc.workloads[workload_id].members) == picked


def test_workload_pattern_target_and_servers_by_rule_are_undoable_edits(window, qtbot, example_path):
    assert window.open_path(example_path, ask=False)
    validated(window, qtbot)
    doc = window.document.fabric
    window.workloads.show()
    window.workloads.raise_()
    workload_id = window.workloads.create("inference")
    assert doc.workloads[workload_id].pattern == "all-to-all"
    assert sorted(doc.workloads[workload_id].members) == servers(doc)  # nothing selected: all
    panel = window.workloads
    panel.pattern.setCurrentIndex(panel.pattern.findData("ring-allreduce"))
    assert doc.workloads[workload_id].pattern == "ring-allreduce"
    panel.target.setValue(300)
    assert doc.workloads[workload_id].target_gbps_per_gpu == 300
    # by rule: the servers of one rack
    rack = doc.devices[servers(doc)[0]].rack
    expected = sorted(d.id for d in doc.devices.values() if doc.tier_of(d) == 0 and d.rack == rack)
    panel.rule.setCurrentIndex(panel.rule.findData("rack"))
    panel.rule_value.setCurrentIndex(panel.rule_value.findData(rack))
    assert panel.apply_rule()
    assert sorted(doc.workloads[workload_id].members) == expected
    window.document.undo_stack.undo()
    assert sorted(doc.workloads[workload_id].members) == servers(doc)
    assert validated(window, qtbot).revision == doc.revision


def test_rules_pick_servers_by_su_and_rail(catalog):
    from aicnet_gui.fileio import load_fabric

    doc = load_fabric(EXAMPLES / "superpod-4su.fabric", catalog)
    su2 = workload_rules.servers(doc, "su", "2")
    assert len(su2) == 32 and all(doc.devices[d].tags["su"] == "2" for d in su2)
    assert [v for v, _label in workload_rules.choices(doc, "su")] == ["1", "2", "3", "4"]
    # every server of a rail-optimized fabric has a NIC on each of the 8 rails
    assert len(workload_rules.servers(doc, "rail", "3")) == 128
    assert [v for v, _label in workload_rules.choices(doc, "rail")] == [str(r) for r in range(1, 9)]


def test_collapsing_a_scalable_unit_hides_its_devices_and_bundles_their_cables(window):
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    scene = window.topology
    doc = window.document.fabric
    key = GroupKey("su", "2")
    members = {d.id for d in doc.devices.values() if d.tags.get("su") == "2"}
    assert len(members) == 40  # 32 servers and their 8 rail leaves
    assert scene.collapse([key]) == 1
    group = scene.collapsed[key]
    assert set(group.members) == members and group.isVisible()
    assert all(not scene.items_by_id[d].isVisible() for d in members)
    assert all(scene.items_by_id[d].isVisible() for d in set(doc.devices) - members)
    # 256 server-leaf cables inside the SU and 8 leaves x 32 uplinks leave it: all become bundles
    touching = {link.id for link in doc.links.values() if link.a.device in members or link.b.device in members}
    assert scene.links.collapsed_links() == len(touching) == 512
    assert "32 servers, 8 leaves" in group.subtitle
    # selecting the box selects its devices; a finding's device inside selects the box
    group.setSelected(True)
    assert set(scene.selected_device_ids()) == members
    scene.expand([key])
    assert not scene.collapsed and all(scene.items_by_id[d].isVisible() for d in members)
    assert scene.links.collapsed_links() == 0


def test_collapse_all_from_the_view_menu_and_expand_all(window):
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    window.actions_by_name["collapse-su"].trigger()
    assert len(window.topology.collapsed) == 4
    window.actions_by_name["expand-all"].trigger()
    assert not window.topology.collapsed
    window.actions_by_name["collapse-rail"].trigger()
    assert len(window.topology.collapsed) == 8  # rails 1..8 (their leaves and spines)


def test_one_plane_of_a_multi_plane_fabric_is_shown_by_collapsing_the_other(window, tmp_path):
    from aicnet_gui.fileio import save_fabric
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(window.document.fabric.catalog)
    generate(doc, RailOptimizedParams(sus=1, planes=2, server="nvidia-dgx-b300",
                                      leaf="nvidia-sn5600", technology="rocev2",
                                      choose_media=False))
    path = tmp_path / "b300.fabric"
    save_fabric(doc, path)
    assert window.open_path(path, ask=False)
    window.actions_by_name["collapse-plane"].trigger()
    assert set(window.topology.collapsed) == {GroupKey("plane", "1"), GroupKey("plane", "2")}
    window.actions_by_name["expand-all"].trigger()
    window.collapse([GroupKey("plane", "2")])
    scene, fabric = window.topology, window.document.fabric
    for device in fabric.devices.values():
        assert scene.items_by_id[device.id].isVisible() == (device.plane != "2")
    assert "8 leaves, 4 spines" in scene.collapsed[GroupKey("plane", "2")].subtitle


def test_colour_modes_recolour_the_cables(window):
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    layer = window.topology.links
    for mode in ("speed", "tier", "rail", "oversubscription", "cable"):
        window.actions_by_name[f"colour-{mode}"].trigger()
        assert layer.mode == mode and window.colour_combo.currentData() == mode
    window.colour_combo.setCurrentIndex(window.colour_combo.findData("rail"))
    assert layer.mode == "rail"
    assert window.legend.title() == "Cables by rail" and len(window.legend.colour_rows()) == 8


def test_a_file_opens_in_the_background_with_a_progress_bar(window, qtbot):
    path = EXAMPLES / "superpod-4su.fabric"
    with qtbot.waitSignal(window.opened, timeout=60000) as opened:
        assert window.open_in_background(path, ask=False)
        assert window.loading() and window.progress.isVisibleTo(window)
        assert not window.tabs.isEnabled()  # the old document is not edited while replaced
    assert opened.args == [path.resolve()]
    assert not window.progress.isVisibleTo(window) and window.tabs.isEnabled()
    doc = window.document.fabric
    assert len(doc.devices) == 176 and len(doc.links) == 2048
    assert len(window.topology.items_by_id) == 176 and len(window.topology.links) == 2048
    assert window.message_label.text().startswith("Opened superpod-4su.fabric in ")
    assert validated(window, qtbot).revision == doc.revision


def test_a_broken_file_opened_in_the_background_reports_and_keeps_the_window(window, qtbot, dialogs, tmp_path):
    bad = tmp_path / "bad.fabric"
    bad.write_text("{ not json", encoding="utf-8")
    with qtbot.waitSignal(window.open_failed, timeout=30000) as failed:
        window.open_in_background(bad, ask=False)
    assert failed.args[0] == bad and "bad.fabric" in failed.args[1]
    assert dialogs.errors and dialogs.errors[0][0] == "Cannot open fabric"
    assert window.tabs.isEnabled() and not window.loading()


def test_clicking_a_collapsed_box_selects_it_and_a_double_click_opens_it(window):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    scene, view = window.topology, window.topology_view
    key = GroupKey("su", "1")
    scene.collapse([key])
    box = scene.collapsed[key].box()
    view.set_zoom(0.3)
    view.centerOn(box.center())
    point = view.mapFromScene(box.center())
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    assert scene.collapsed[key].isSelected()
    assert scene.selected_link_ids() == []  # not a cable that passes under the box
    assert len(scene.selected_device_ids()) == 40
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    assert key not in scene.collapsed


def _colours(rows: list[tuple[str, str]]) -> set[str]:
    return {colour for _label, colour in rows}


def test_the_legend_names_the_jacket_colours_drawn_in_cable_mode_and_follows_edits(window):
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    legend, layer = window.legend, window.topology.links
    assert layer.mode == "cable"  # the default: every cable in its own jacket colour
    assert legend.title() == "Cables by jacket colour"
    # rails 1..8 wear the first eight TIA-598 colours, named as model/colours.py names them
    assert [name for name, _c in legend.colour_rows()] == [
        "blue", "orange", "green", "brown", "slate", "white", "red", "black"]
    assert ("blue", "#1c7ed6") in legend.colour_rows()
    assert _colours(legend.colour_rows()) == layer.line_colours()
    assert legend.spec().speed_title == "Ports by speed"  # ports still show their speed
    assert [label for label, _c in legend.speed_rows()] == ["400G"]
    doc = window.document.fabric
    first, second = sorted(doc.links)[:2]
    assert window.editor.update_links([first], {"colour": "violet"}, "Colour a cable")
    assert window.editor.update_links([second], {"colour": None}, "Take a colour off")
    assert "violet" in [name for name, _c in legend.colour_rows()]
    # the cable without a jacket colour is drawn in its speed colour (400G), as the legend says
    assert legend.spec().speed_title == "Ports, other cables by speed"
    assert legend.spec().speed_cables
    jackets = _colours(legend.colour_rows())
    assert layer.line_colours() == jackets | {"#7b2cbf"}
    assert ("400G", "#7b2cbf") in legend.speed_rows()
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert "violet" not in [name for name, _c in legend.colour_rows()]
    assert legend.spec().speed_title == "Ports by speed"


def test_the_legend_follows_the_colour_mode(window):
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    legend, layer = window.legend, window.topology.links
    window.actions_by_name["colour-speed"].trigger()
    assert legend.title() == "Ports and cables by speed" and legend.colour_rows() == []
    assert legend.spec().speed_cables
    assert layer.line_colours() <= _colours(legend.speed_rows())
    window.actions_by_name["colour-tier"].trigger()
    assert legend.title() == "Cables by tier"
    assert [label for label, _c in legend.colour_rows()] == ["server - leaf", "leaf - spine", "spine - core"]
    assert layer.line_colours() <= _colours(legend.colour_rows())
    assert legend.spec().speed_title == "Ports by speed" and not legend.spec().speed_cables
    window.actions_by_name["colour-cable"].trigger()
    assert legend.title() == "Cables by jacket colour"
    assert _colours(legend.colour_rows()) == layer.line_colours()


def test_in_cable_mode_a_fabric_without_jacket_colours_shows_the_speed_legend(window):
    # two devices wired by hand: no cable has a jacket colour, every one is drawn by its speed
    from aicnet_gui.editing.compat import PortRef

    server = window.editor.add_device("generic-hgx-8-gpu-b3140h", (0, 400))
    leaf = window.editor.add_device("nvidia-sn5600", (0, 0))
    assert window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    legend = window.legend
    assert window.topology.links.mode == "cable"
    assert legend.title() == "Ports and cables by speed" and legend.colour_rows() == []
    assert window.topology.links.line_colours() == {"#7b2cbf"}  # 400G
    assert ("400G", "#7b2cbf") in legend.speed_rows()


def test_workload_placement_is_an_undoable_edit_and_both_ring_figures_show(window, qtbot, example_path):
    assert window.open_path(example_path, ask=False)
    validated(window, qtbot)
    doc = window.document.fabric
    panel = window.workloads
    workload_id = panel.current_id()
    assert doc.workloads[workload_id].placement == "topology-aware"
    with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
        panel.placement.setCurrentIndex(panel.placement.findData("scattered"))
    assert doc.workloads[workload_id].placement == "scattered"
    text = panel.values["per_gpu"].text()
    assert "ring, ranks in topology order:" in text and "scattered:" in text
    assert "placement: ranks scattered" in panel.values["per_gpu"].toolTip()
    window.document.undo_stack.undo()
    assert doc.workloads[workload_id].placement == "topology-aware"


def test_a_wide_expert_parallel_serving_workload_starts_all_to_all_at_1_to_1(window, qtbot, example_path):
    assert window.open_path(example_path, ask=False)
    validated(window, qtbot)
    doc = window.document.fabric
    workload_id = window.workloads.create("inference-wide-ep")
    workload = doc.workloads[workload_id]
    assert (workload.kind.value, workload.pattern) == ("inference-wide-ep", "all-to-all")
    assert doc.settings.oversubscription.for_kind(workload.kind) == 1.0
    panel = window.workloads
    assert panel.kind.currentData() == "inference-wide-ep"
