"""File > Verify Against As-Built…: the As Built dock lists each difference, both views draw the
overlay, and a row centres its objects; a bad file is one error dialog naming file and place."""

from __future__ import annotations

from aicnet_gui.model.port_names_os import PortNamer

from ..asbuilt import captures as sim


def _observe(window, tmp_path, seed=None):  # noqa: ANN001, ANN202
    doc = window.document.fabric
    namer = PortNamer(doc, fallback=window.catalog.devices)
    links = sim.planned_links(doc)
    if seed is not None:
        seed(doc, links)
    return sim.write_lldp_files(sim.lldp_outputs(doc, links, namer), tmp_path / "lldp")


def _faults(doc, links):  # noqa: ANN001, ANN202
    gone = doc.link_at("gpu-004", "p4")
    links[:] = [s for s in links if {s.a, s.b} != {tuple(gone.a), tuple(gone.b)}]
    links.append(sim.SimLink(("gpu-001", "ns1"), ("gpu-002", "ns1")))


def _verify(window, qtbot, paths) -> None:  # noqa: ANN001
    with qtbot.waitSignal(window.asbuilt.done, timeout=60_000):
        window.asbuilt.start(paths)


def test_verify_fills_the_dock_and_overlays_and_a_row_centres_it(window, qtbot, example_path,
                                                                 tmp_path):
    assert window.open_path(example_path, ask=False)
    files = _observe(window, tmp_path, _faults)
    _verify(window, qtbot, files)
    dock = window.asbuilt.dock
    assert dock.isVisible()
    assert dock.table.rowCount() == 2
    kinds = {dock.table.item(row, 1).text() for row in range(2)}
    assert kinds == {"missing cable", "unexpected cable"}
    assert window.asbuilt.topology_overlay.line_count == {"missing": 1, "unexpected": 1}
    assert window.asbuilt.floor_overlay.line_count == {"missing": 1, "unexpected": 1}
    missing = next(r for r in range(2) if dock.table.item(r, 1).text() == "missing cable")
    dock.select_row(missing)
    gone = window.document.fabric.link_at("gpu-004", "p4")
    assert gone.id in window.topology.selected_link_ids()
    assert "gpu-004" in window.topology.selected_device_ids()


def test_an_exact_observation_says_as_built_equals_as_designed(window, qtbot, example_path,
                                                               tmp_path):
    assert window.open_path(example_path, ask=False)
    _verify(window, qtbot, _observe(window, tmp_path))
    assert window.asbuilt.dock.table.rowCount() == 0
    assert "as built = as designed" in window.asbuilt.dock.summary.text()
    assert window.asbuilt.topology_overlay.line_count == {}


def test_bad_input_is_one_error_naming_file_and_place(window, qtbot, example_path, tmp_path,
                                                      dialogs):
    assert window.open_path(example_path, ask=False)
    bad = tmp_path / "leaf-01.json"
    bad.write_text('{"lldp": {"interface": {"swp1": {"chassis": {"x": {}}}}}}')
    _verify(window, qtbot, [bad])
    assert dialogs.errors == [("Cannot read the as-built data",
                               f"{bad}: $.lldp.interface.swp1.port: Field required")]



def test_the_inspector_shows_a_cables_os_port_names(window, example_path):
    from aicnet_gui.gui.panels.link_page import LinkPage

    assert window.open_path(example_path.parent / "superpod-1su.fabric", ask=False)
    page = LinkPage(window.editor)
    page.show_links([window.document.fabric.link_at("gpu-001", "p1").id])
    lines = page.os_names.text().splitlines()
    assert lines[0] == "A: linux-rdma mlx5_11 · linux-netdev ibp220s0 · panel OSFP1P1"
    assert lines[1] == "B: mlnx-os 1/1/1 · ib-port 1 · nvos sw1p1"


def test_fabric_settings_choose_the_port_names_per_model(qtbot, catalog):
    from aicnet_gui.fileio import load_fabric
    from aicnet_gui.gui.dialogs.settings_dialog import FabricSettingsDialog
    from aicnet_gui.model.edits import UpdateSettings

    from .conftest import EXAMPLE

    doc = load_fabric(EXAMPLE.parent / "roce-enterprise.fabric", catalog)
    dialog = FabricSettingsDialog(doc, doc.catalog)
    qtbot.addWidget(dialog)
    assert dialog.operations() == []
    box = dialog.port_os.boxes["nvidia-sn5600"]
    assert box.itemText(0) == "default: NVIDIA Cumulus Linux"
    box.setCurrentIndex(box.findData("sonic"))
    (op,) = dialog.operations()
    assert isinstance(op, UpdateSettings) and op.changes == {"port_os": {"nvidia-sn5600": "sonic"}}
    doc.apply([op])
    assert PortNamer(doc).name("leaf-01", "swp1s1") == "Ethernet4"
