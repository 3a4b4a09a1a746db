"""Palette, inspector, template wizard and export: what a user sees and changes there."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from aicnet_gui.editing.compat import PortRef
from aicnet_gui.model.edits import AddDevice

LEAF = "nvidia-sn5600"
SERVER = "generic-hgx-8-gpu-b3140h"
DGX = "nvidia-dgx-h100"


def test_palette_search_and_filters_narrow_the_tree(window):
    palette = window.palette
    everything = set(palette.visible_model_ids())
    assert {LEAF, SERVER, DGX} <= everything
    palette.search.setText("sn5600")
    assert palette.visible_model_ids() == [LEAF]
    palette.search.setText("")
    palette.role.setCurrentIndex(palette.role.findData("gpu_server"))
    servers = set(palette.visible_model_ids())
    assert DGX in servers and LEAF not in servers
    palette.vendor.setCurrentIndex(palette.vendor.findData("Generic"))
    assert palette.visible_model_ids() == [SERVER]


def _ports_column_whole(tree) -> bool:  # noqa: ANN001
    """The Ports column is as wide as its widest text and both columns fit the tree."""
    widths = tree.columnWidth(0) + tree.columnWidth(1)
    return (tree.columnWidth(1) >= tree.sizeHintForColumn(1)
            and tree.columnWidth(1) >= tree.header().sectionSizeHint(1)
            and widths <= tree.viewport().width() and tree.horizontalScrollBar().maximum() == 0)


def test_palette_ports_column_is_never_cut_and_long_model_names_have_tooltips(window, qtbot):
    palette, tree = window.palette, window.palette.tree
    assert palette.row_for(SERVER).text(1) == "10× QSFP112 · 8U"  # 8 rail + 2 north-south cages
    # fabric cages only: 4 compute OSFP and the 2 storage QSFP112 (the in-band QSFP112 pair is a
    # management group, like the BMC)
    assert palette.row_for(DGX).text(1) == "4× OSFP, 2× QSFP112 · 8U"
    qtbot.waitUntil(lambda: _ports_column_whole(tree))  # at the width of a first start
    assert palette.width() >= 300
    # the user narrows the dock: the ports stay whole, model names give way (tooltip: whole)
    window.resizeDocks([palette], [260], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: palette.width() < 300)
    qtbot.waitUntil(lambda: _ports_column_whole(tree))
    for model_id in palette.model_ids():
        model = window.catalog.device(model_id)
        assert model.model in palette.row_for(model_id).toolTip(0)


def test_palette_double_click_adds_a_device_at_the_end_of_its_tier(window):
    window.palette.add_requested.emit(LEAF)
    window.palette.add_requested.emit(LEAF)
    doc = window.document.fabric
    first, second = sorted(doc.devices.values(), key=lambda d: d.name)
    assert (first.name, second.name) == ("leaf-01", "leaf-02")
    assert second.position[1] == first.position[1]
    assert second.position[0] > first.position[0] + window.topology.items_by_id[first.id].size[0] - 1


def select_devices(window, ids: list[str]) -> None:
    window.topology.select_ids(ids, [])


def test_inspector_renames_and_sets_firmware_on_several_devices_in_one_step(window, qtbot):
    a = window.editor.add_device(LEAF, (0, 0))
    b = window.editor.add_device(LEAF, (0, 200))
    select_devices(window, [a])
    page = window.inspector.device_page
    assert window.inspector.current_page() is page
    page.name.setFocus()
    page.name.selectAll()
    QTest.keyClicks(page.name, "tor-a")
    QTest.keyClick(page.name, Qt.Key.Key_Return)
    assert window.document.fabric.devices[a].name == "tor-a"
    select_devices(window, [a, b])
    assert not page.name.isEnabled()
    depth = window.document.undo_stack.count()
    page.firmware.setFocus()
    QTest.keyClicks(page.firmware, "5.9.1")
    QTest.keyClick(page.firmware, Qt.Key.Key_Return)
    doc = window.document.fabric
    assert doc.devices[a].firmware == doc.devices[b].firmware == "5.9.1"
    assert window.document.undo_stack.count() == depth + 1


def test_inspector_sets_the_compute_plane_of_switches_and_refuses_a_bad_name(window):
    a = window.editor.add_device(LEAF, (0, 0))
    b = window.editor.add_device(LEAF, (0, 200))
    select_devices(window, [a, b])
    page = window.inspector.device_page
    page.plane.setFocus()
    QTest.keyClicks(page.plane, "2")
    QTest.keyClick(page.plane, Qt.Key.Key_Return)
    doc = window.document.fabric
    assert doc.devices[a].plane == doc.devices[b].plane == "2"
    page.plane.setFocus()
    page.plane.selectAll()
    QTest.keyClicks(page.plane, "plane two")
    QTest.keyClick(page.plane, Qt.Key.Key_Return)
    assert doc.devices[a].plane == "2" and "a plane is a short name" in window.message_label.text()


def test_inspector_breakout_mode_refused_while_a_leg_carries_a_cable(window):
    server = window.editor.add_device(SERVER, (0, 400))
    leaf = window.editor.add_device(LEAF, (0, 0))
    assert window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp3s1"))
    doc = window.document.fabric
    # cage 3 of the SN5600 runs 2x400G; 1x800G would remove swp3s1, which carries the cable
    assert not window.editor.set_cages([leaf], [3], mode="1x800G")
    assert "swp3s1" in window.message_label.text()
    assert doc.devices[leaf].cages == {}
    # cage 4 is free: 1x800G is fine, the ports and the drawing follow
    assert window.editor.set_cages([leaf], [4], mode="1x800G")
    assert "swp4" in doc.ports(leaf) and "swp4s0" not in doc.ports(leaf)
    assert "swp4" in window.topology.items_by_id[leaf].geometry.ports
    window.document.undo_stack.undo()
    assert "swp4s0" in doc.ports(leaf)


def test_inspector_offers_only_optics_that_fit_the_cage(window, qtbot):
    leaf = window.editor.add_device("nvidia-qm9700", (0, 0))
    select_devices(window, [leaf])
    page = window.inspector.device_page
    qtbot.waitUntil(lambda: page.cages.topLevelItemCount() > 0)
    card = page.cages.itemWidget(page.cages.topLevelItem(0), 0)
    from PySide6.QtWidgets import QComboBox

    optic_box = card.findChildren(QComboBox)[1]
    offered = {optic_box.itemData(i) for i in range(optic_box.count())} - {""}
    catalog = window.catalog
    assert offered, "a QM9700 cage takes twin-port finned OSFP optics"
    for optic_id in offered:
        optic = catalog.transceivers[optic_id]
        assert optic.form_factor == "OSFP" and optic.top in ("finned", "none")
    assert "nvidia-mma1z00-ns400" not in offered  # a QSFP112 optic
    assert "nvidia-mma4z00-ns-flt" not in offered  # flat top: for NIC cages


def test_link_inspector_sets_a_manual_length_and_back_to_estimated(window, qtbot):
    server = window.editor.add_device(SERVER, (0, 400))
    leaf = window.editor.add_device(LEAF, (0, 0))
    window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    link_id = next(iter(window.document.fabric.links))
    window.topology.select_ids([], [link_id])
    page = window.inspector.link_page
    assert window.inspector.current_page() is page
    assert page.auto.isChecked()
    assert "unknown" in page.estimate.text()
    page.auto.setChecked(False)
    page.length.setValue(12.5)
    assert window.document.fabric.links[link_id].length_m == 12.5
    page.auto.setChecked(True)
    assert window.document.fabric.links[link_id].length_m is None


def test_a_generator_run_is_one_undo_step(window):
    from aicnet_gui.generators import TwoTierParams, build_ops
    from aicnet_gui.gui.dialogs.template_wizard import apply_template
    from aicnet_gui.model.document import FabricDocument

    params = TwoTierParams(servers=4, server=SERVER, leaf=LEAF, spine=LEAF, choose_media=False)
    ops, summary = build_ops(FabricDocument(window.catalog), params)
    assert apply_template(window, "two-tier", ops)
    doc = window.document.fabric
    devices = sum(1 for op in ops if isinstance(op, AddDevice))
    assert len(doc.devices) == devices and len(doc.links) == summary.links
    assert len(window.topology.items_by_id) == devices
    assert window.document.undo_stack.count() == 1
    assert window.document.dirty
    # the editor's tier layout: no two devices on top of each other
    from aicnet_gui.editing.layout import overlap_fraction

    boxes = {d.id: (*d.position, *window.editor.size_of(d)) for d in doc.devices.values()}
    assert overlap_fraction(boxes) == 0
    window.document.undo_stack.undo()
    assert doc.devices == {} and doc.links == {}
    assert len(window.topology.items_by_id) == 0


def test_the_wizard_form_validates_and_shows_the_generator_reason(window):
    from aicnet_gui.gui.dialogs.template_wizard import TemplateWizard

    wizard = TemplateWizard(window.catalog, window)
    wizard.templates.setCurrentRow(list(wizard._forms).index("two-tier"))
    form = wizard.form()
    form.set_values({"servers": 8, "server": SERVER, "leaf": LEAF, "spine": LEAF, "choose_media": False})
    wizard.check()
    assert "devices:" in wizard.preview.toPlainText()
    assert wizard.result_ops
    form.set_values({"servers": 20000})  # too many for two tiers: the generator says why
    wizard.check()
    text = wizard.preview.toPlainText()
    assert "three-tier" in text and "devices:" not in text
    wizard.reject()


def test_export_writes_the_cabling_plan_pdf_in_the_background(window, qtbot, example_path, tmp_path):
    from aicnet_gui import report
    from aicnet_gui.gui.dialogs.export_dialog import start_export

    assert window.open_path(example_path, ask=False)
    target = tmp_path / "plan.pdf"
    options = report.ExportOptions(sections=("cover", "schedule"), labels="none")
    job = start_export(window, "pdf", str(target), options)
    # the job reports back through queued signals; wait for the window to show the result
    qtbot.waitUntil(lambda: "plan.pdf" in window.message_label.text(), timeout=60_000)
    assert job.wait(10)
    assert target.read_bytes()[:5] == b"%PDF-"
    csv_target = tmp_path / "cables.csv"
    job = start_export(window, "csv", str(csv_target), None)
    qtbot.waitUntil(lambda: "cables.csv" in window.message_label.text(), timeout=60_000)
    assert "Wrote 64 cables" in window.message_label.text()
    assert len(Path(csv_target).read_text().splitlines()) == 1 + len(window.document.fabric.links)


def test_link_inspector_sets_patch_panels_and_removes_them(window):
    server = window.editor.add_device(SERVER, (0, 400))
    leaf = window.editor.add_device(LEAF, (0, 0))
    window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    link_id = next(iter(window.document.fabric.links))
    window.topology.select_ids([], [link_id])
    page = window.inspector.link_page
    assert not page.patched.isChecked() and not page.pairs.isEnabled()
    page.patched.setChecked(True)
    patch = window.document.fabric.links[link_id].patch
    assert (patch.mated_pairs, patch.loss_per_pair_db, patch.polish) == (2, None, None)
    page.pairs.setValue(4)
    page.pair_loss.setValue(0.35)
    page.polish.setCurrentIndex(page.polish.findData("APC"))
    page.polish.activated.emit(page.polish.currentIndex())
    patch = window.document.fabric.links[link_id].patch
    assert (patch.mated_pairs, patch.loss_per_pair_db, patch.polish) == (4, 0.35, "APC")
    page.patched.setChecked(False)
    assert window.document.fabric.links[link_id].patch is None
