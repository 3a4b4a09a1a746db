"""Issue #21's transport and cabling settings set where the architect looks at them: the
all-reduce algorithm of a workload (workloads dock), the FEC of a cage (device inspector), the
polarity of a patched channel (cable inspector).  Each is one undoable edit, and the live
validation's result follows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox

from aicnet_gui.editing.cage_fec import cage_line, fec_texts
from aicnet_gui.model.fabric import FabricTechnology

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SMALL = EXAMPLES / "small-hgx.fabric"  # RoCEv2; gpu-001 p1 (400G SR4) - leaf-01 swp1s0 (2xSR4)
SUPERPOD = EXAMPLES / "superpod-1su.fabric"  # InfiniBand NDR, 32 DGX H100
ETHERNET = EXAMPLES / "inference-ethernet.fabric"  # Ethernet; gpu-001 p1 - leaf-01 as SMALL


def report_after(window, qtbot, action):  # noqa: ANN001, ANN201
    """Do `action` (an edit) and return the live validation's report of the new revision."""
    with qtbot.waitSignal(window.live.shown, timeout=30000):
        action()
    report = window.validator.report
    assert report.revision == window.document.fabric.revision
    return report


def opened(window, qtbot, path: Path):  # noqa: ANN001, ANN201
    with qtbot.waitSignal(window.live.shown, timeout=30000):
        assert window.open_path(path, ask=False)
    return window.document.fabric


def choose(box: QComboBox, value: str) -> None:
    """What a user does: pick the entry whose data is `value` (the combo's `activated`)."""
    index = box.findData(value)
    assert index >= 0, f"{value!r} not offered"
    box.setCurrentIndex(index)
    box.activated.emit(index)


def codes(report, code: str, object_id: str) -> list:  # noqa: ANN001
    return [f for f in report.findings if f.code == code and object_id in f.objects]


# ---------------------------------------------------------------- all-reduce algorithm
def test_collnet_on_an_infiniband_superpod_is_one_undo_step_and_halves_the_fabric_stage(
        window, qtbot):
    doc = opened(window, qtbot, SUPERPOD)
    panel = window.workloads
    workload_id = panel.current_id()
    auto = panel.metrics()
    # the default is NCCL's own choice: the NVLS tree on 32 DGX H100 (analysis/nccl_tuning.py)
    assert auto.algorithm == "nvls_tree" and auto.allreduce_ms is not None
    assert panel.algorithm.currentData() == "auto"
    report_after(window, qtbot, lambda: panel.algorithm.setCurrentIndex(
        panel.algorithm.findData("collnet")))
    assert doc.workloads[workload_id].algorithm == "collnet"
    sharp = panel.metrics()
    assert sharp.algorithm == "collnet_chain"
    # IB SHARP reduces in the switches: faster than NCCL's choice without it
    assert sharp.allreduce_ms < auto.allreduce_ms
    text = panel.values["allreduce"].text()
    assert f"{sharp.allreduce_ms:.2f} ms" in text and "CollNetChain" in text
    assert f"{sharp.allreduce_bus_gbps / 8:,.0f} GB/s" in text
    assert not panel.algorithm_note.isVisibleTo(panel)  # InfiniBand runs SHARP: no fallback
    report_after(window, qtbot, window.document.undo_stack.undo)
    assert doc.workloads[workload_id].algorithm == "auto"
    assert panel.algorithm.currentData() == "auto"
    assert panel.metrics().allreduce_ms == auto.allreduce_ms


def test_sharp_on_rocev2_falls_back_to_the_ring_and_says_why_next_to_the_choice(window, qtbot):
    doc = opened(window, qtbot, SMALL)
    assert doc.settings.technology == FabricTechnology.ROCEV2
    panel = window.workloads
    workload_id = panel.current_id()
    ring = panel.metrics()
    report_after(window, qtbot, lambda: panel.algorithm.setCurrentIndex(
        panel.algorithm.findData("collnet")))
    assert doc.workloads[workload_id].algorithm == "collnet"
    metrics = panel.metrics()
    assert metrics.algorithm == "ring" and metrics.allreduce_ms == ring.allreduce_ms
    assert panel.algorithm_note.isVisibleTo(panel)
    note = panel.algorithm_note.text()
    assert "IB SHARP needs an InfiniBand fabric" in note and "NCCL's own choice assumed" in note
    assert note in metrics.assumptions and panel.algorithm.toolTip() == note
    # a tree runs anywhere: the note goes, the estimate is the tree's
    report_after(window, qtbot, lambda: panel.algorithm.setCurrentIndex(
        panel.algorithm.findData("tree")))
    assert panel.metrics().algorithm == "tree" and not panel.algorithm_note.isVisibleTo(panel)
    report_after(window, qtbot, window.document.undo_stack.undo)
    assert doc.workloads[workload_id].algorithm == "collnet"
    assert panel.algorithm.currentData() == "collnet" and panel.algorithm_note.isVisibleTo(panel)


# ---------------------------------------------------------------- FEC per cage
def cage_card(page, top: int, child: int | None = None):  # noqa: ANN001, ANN201
    item = page.cages.topLevelItem(top)
    if child is not None:
        item.setExpanded(True)
        item = item.child(child)
    return page.cages.itemWidget(item, 0)


def select_device(window, qtbot, name: str) -> str:  # noqa: ANN001
    doc = window.document.fabric
    device_id = next(d.id for d in doc.devices.values() if d.name == name)
    window.topology.select_ids([device_id], [])
    page = window.inspector.device_page
    assert window.inspector.current_page() is page
    qtbot.waitUntil(lambda: page.cages.topLevelItemCount() > 0)
    return device_id


def test_rs528_on_one_end_of_a_400g_pam4_ethernet_link_raises_fec_mismatch_and_undo_clears_it(
        window, qtbot):
    doc = opened(window, qtbot, ETHERNET)
    assert doc.settings.technology == FabricTechnology.ETHERNET
    gpu = select_device(window, qtbot, "gpu-001")
    link = doc.link_at(gpu, "p1")
    cage = doc.port(gpu, "p1").cage
    page = window.inspector.device_page
    group = next(i for i in range(page.cages.topLevelItemCount())
                 if cage in doc.device_model(doc.devices[gpu]).cages[i].cage_numbers)
    card = cage_card(page, group, 0)  # cage p1 on its own
    fec = card.findChild(QComboBox, "fec")
    # not configured: the line's default is named (400G SR4: 4 x 100G PAM4, RS(544,514))
    assert fec.currentData() == "" and "RS(544,514) KP4 FEC" in fec.currentText()
    assert "4 x 100G PAM4" in fec.toolTip()
    assert not codes(window.validator.report, "FEC-MISMATCH", link.id)
    report = report_after(window, qtbot, lambda: choose(fec, "rs528"))
    assert doc.devices[gpu].cages[cage].fec == "rs528"
    found = codes(report, "FEC-MISMATCH", link.id)
    assert found and "RS(528,514) KR4 FEC configured on 4 x 100G PAM4" in found[0].message
    assert window.document.undo_stack.undoText() == "Set FEC of 1 cage"
    assert "FEC-MISMATCH" in page.findings.text()  # the device page lists it too
    report = report_after(window, qtbot, window.document.undo_stack.undo)
    assert doc.devices[gpu].cages.get(cage) is None or doc.devices[gpu].cages[cage].fec is None
    assert not codes(report, "FEC-MISMATCH", link.id)
    assert "FEC-MISMATCH" not in page.findings.text()


def test_fec_on_a_cage_group_of_several_devices_is_one_step_and_back_to_the_default(
        window, qtbot):
    doc = opened(window, qtbot, SMALL)
    leaves = sorted(d.id for d in doc.devices.values() if d.name.startswith("leaf-"))
    window.topology.select_ids(leaves, [])
    page = window.inspector.device_page
    qtbot.waitUntil(lambda: page.cages.topLevelItemCount() > 0)
    fec = cage_card(page, 0).findChild(QComboBox, "fec")  # all 64 OSFP cages of both leaves
    steps = window.document.undo_stack.count()
    report_after(window, qtbot, lambda: choose(fec, "rs544"))
    assert window.document.undo_stack.count() == steps + 1
    group = doc.device_model(doc.devices[leaves[0]]).cages[0]
    assert all(doc.devices[d].cages[c].fec == "rs544" for d in leaves for c in group.cage_numbers)
    # rs544 is what the line runs anyway: no finding on any leaf
    assert not [f for f in window.validator.report.findings if f.code == "FEC-MISMATCH"]
    qtbot.waitUntil(lambda: cage_card(page, 0).findChild(QComboBox, "fec").currentData() == "rs544")
    # one cage of the group set otherwise: the group row says so
    single = cage_card(page, 0, 0).findChild(QComboBox, "fec")
    report_after(window, qtbot, lambda: choose(single, "off"))
    qtbot.waitUntil(lambda: cage_card(page, 0).findChild(QComboBox, "fec").currentText()
                    == "FEC: (mixed)")
    window.document.undo_stack.undo()
    qtbot.waitUntil(lambda: cage_card(page, 0).findChild(QComboBox, "fec").currentData() == "rs544")
    choose(cage_card(page, 0).findChild(QComboBox, "fec"), "")  # back to the line's default
    assert all((doc.devices[d].cages.get(c) is None or doc.devices[d].cages[c].fec is None)
               for d in leaves for c in group.cage_numbers)
    window.document.undo_stack.undo()
    assert doc.devices[leaves[1]].cages[group.first].fec == "rs544"


def test_the_default_of_a_cage_is_its_optics_or_its_copper_cables_line(window, qtbot):
    doc = opened(window, qtbot, SMALL)
    leaf = doc.device_by_name("leaf-01")
    uplink = doc.link_at(leaf.id, "swp9s0")  # a 2x400G DAC to spine-01: 4 x 100G PAM4 legs
    cable = doc.catalog.cables[uplink.cable]
    assert cable.type != "fibre" and cage_line(doc, leaf, 9).lane_gbps == 100
    default, line = fec_texts(doc, [leaf], [9])
    assert default == "line default: RS(544,514) KP4 FEC, negotiated on copper"
    assert "4 x 100G PAM4 lanes" in line and "mandatory" in line
    server_cage = doc.port(doc.device_by_name("gpu-001").id, "p1").cage
    default, _line = fec_texts(doc, [doc.device_by_name("gpu-001")], [server_cage])
    assert default == "line default: RS(544,514) KP4 FEC"  # the SR4 optic's
    assert fec_texts(doc, [leaf], [65]) == ("line default (no optic or cable yet)", "")


def test_infiniband_offers_no_fec_and_says_why(window, qtbot):
    opened(window, qtbot, SUPERPOD)
    select_device(window, qtbot, "leaf-01")
    page = window.inspector.device_page
    assert cage_card(page, 0).findChild(QComboBox, "fec") is None
    assert "InfiniBand ports negotiate their FEC" in page.cage_note.text()


# ---------------------------------------------------------------- polarity of a patched channel
@pytest.fixture
def patched_link(window, qtbot):  # noqa: ANN001, ANN201
    """gpu-001 p1 - leaf-01 swp1s0 (400G SR4 parallel MPO-12 optics, a Type B catalog cord)
    selected on the cable page, through two panels and a trunk."""
    doc = opened(window, qtbot, SMALL)
    gpu = next(d.id for d in doc.devices.values() if d.name == "gpu-001")
    link_id = doc.link_at(gpu, "p1").id
    window.topology.select_ids([], [link_id])
    page = window.inspector.link_page
    assert window.inspector.current_page() is page
    report_after(window, qtbot, lambda: page.patched.setChecked(True))
    return link_id


def test_a_type_a_trunk_in_a_method_b_channel_raises_channel_polarity_and_undo_clears_it(
        window, qtbot, patched_link):
    doc = window.document.fabric
    page = window.inspector.link_page
    boxes = page.polarity
    # the choices are model/polarity.py's values
    assert [boxes["method"].itemData(i) for i in range(boxes["method"].count())] == \
        ["", "A", "B", "C"]
    assert [boxes["trunk"].itemData(i) for i in range(boxes["trunk"].count())] == \
        ["", "A", "B", "C", "A-to-A", "A-to-B"]
    assert "not given" in page.verdict.text()
    # Method B: catalog Type B cords at both ends and the method's Type B trunk: works
    report = report_after(window, qtbot, lambda: choose(boxes["method"], "B"))
    assert doc.links[patched_link].patch.method == "B"
    assert doc.links[patched_link].patch.mated_pairs == 2  # the other patch fields stay
    assert not codes(report, "CHANNEL-POLARITY", patched_link)
    assert "every transmitter reaches a receiver of its own lane" in page.verdict.text()
    assert page.verdict.toolTip() == ("as checked: cord at a Type B, Type B trunk, cord at b "
                                      "Type B (parallel optics)")
    # a Type A trunk with the Type B cords: three parts, two reversals: transmit on transmit
    report = report_after(window, qtbot, lambda: choose(boxes["trunk"], "A"))
    patch = doc.links[patched_link].patch
    assert (patch.method, patch.trunk) == ("B", "A")
    found = codes(report, "CHANNEL-POLARITY", patched_link)
    assert found and found[0].severity.value == "error"
    assert "CHANNEL-POLARITY" in page.verdict.text() and "never comes up" in page.verdict.text()
    assert "CHANNEL-POLARITY" in page.findings.text()
    assert window.document.undo_stack.undoText() == "Set channel polarity"
    report = report_after(window, qtbot, window.document.undo_stack.undo)
    assert doc.links[patched_link].patch.trunk is None
    assert not codes(report, "CHANNEL-POLARITY", patched_link)
    qtbot.waitUntil(lambda: boxes["trunk"].currentData() == "")
    # the fix under the verdict changes the one part it names, as one step
    report_after(window, qtbot, window.document.undo_stack.redo)
    # (model/polarity.suggest: a standard method first, a cord before the trunk)
    assert "Fix:</b> make the cord at end b Type A (TIA-568.3-D Method A)" in page.verdict.text()
    assert page.polarity_fix.isVisibleTo(page)
    report = report_after(window, qtbot, page.polarity_fix.click)
    patch = doc.links[patched_link].patch
    assert (patch.method, patch.cord_a, patch.trunk, patch.cord_b) == ("B", None, "A", "A")
    assert not codes(report, "CHANNEL-POLARITY", patched_link)
    assert window.document.undo_stack.undoText().startswith("Make the cord at end b Type A")
    assert not page.polarity_fix.isVisibleTo(page)


def test_cords_are_set_per_end_and_kept_when_the_pairs_change(window, qtbot, patched_link):
    doc = window.document.fabric
    page = window.inspector.link_page
    report_after(window, qtbot, lambda: choose(page.polarity["method"], "A"))
    # Method A with the catalog Type B cord at both ends: B, A, B crosses nothing
    assert codes(window.validator.report, "CHANNEL-POLARITY", patched_link)
    report = report_after(window, qtbot, lambda: choose(page.polarity["cord_b"], "A"))
    assert doc.links[patched_link].patch.cord_b == "A"
    assert not codes(report, "CHANNEL-POLARITY", patched_link)
    page.pairs.setValue(4)
    patch = doc.links[patched_link].patch
    assert (patch.mated_pairs, patch.method, patch.cord_b) == (4, "A", "A")


def test_a_duplex_channel_offers_the_duplex_cords_and_is_judged_by_its_crossings(
        window, qtbot, patched_link):
    doc = window.document.fabric
    link = doc.links[patched_link]
    editor = window.editor
    # 400GBASE-FR4 on duplex LC at both ends, an A-to-B single-mode cord
    assert editor.set_cages([link.a.device], [doc.port(link.a.device, link.a.port).cage],
                            transceiver="generic-400gbase-fr4-qsfp112")
    assert editor.set_cages([link.b.device], [doc.port(link.b.device, link.b.port).cage],
                            transceiver="nvidia-mms4x50-nm")
    report_after(window, qtbot, lambda: editor.update_links(
        [patched_link], {"cable": "generic-duplex-lc-os2-patch-cord"}, "Set cable media"))
    page = window.inspector.link_page
    # Method A with the catalog's A-to-B cord at both ends: two crossings, transmit on transmit
    report = report_after(window, qtbot, lambda: choose(page.polarity["method"], "A"))
    found = codes(report, "CHANNEL-POLARITY", patched_link)
    assert found and "crosses the pair 2 time(s)" in found[0].message
    assert "crosses the pair 2 time(s)" in page.verdict.text()
    # an A-to-A cord at end b: Method A's parts, one crossing
    report = report_after(window, qtbot, lambda: choose(page.polarity["cord_b"], "A-to-A"))
    assert doc.links[patched_link].patch.cord_b == "A-to-A"
    assert not codes(report, "CHANNEL-POLARITY", patched_link)
    text = page.verdict.text()
    assert "every transmitter reaches a receiver" in text and "own lane" not in text
    assert page.verdict.toolTip().endswith("(duplex optics)")
