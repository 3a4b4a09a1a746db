"""What a network architect found opening the 2026-class designs (DGX B300 on Q3400-RA or on a
two-plane SN5610 fabric, GB300 NVL72 compute trays): each test fails without its fix."""

from __future__ import annotations

import pytest

from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument


def validated(window, qtbot):  # noqa: ANN001, ANN201
    """The window's current report, after waiting for the live validation."""
    if not window.validator.current():
        with qtbot.waitSignal(window.validator.report_ready, timeout=30000):
            pass
    return window.validator.report


def open_generated(window, tmp_path, **params):  # noqa: ANN001, ANN003, ANN201
    """Generate a rail-optimized fabric with `params`, save it and open it in `window`."""
    from aicnet_gui.fileio import save_fabric

    doc = FabricDocument(window.document.fabric.catalog)
    generate(doc, RailOptimizedParams(**params))
    path = tmp_path / "design.fabric"
    save_fabric(doc, path)
    assert window.open_path(path, ask=False)
    return window


@pytest.fixture
def twin_plane(window, tmp_path):  # noqa: ANN001, ANN201
    """One SU of DGX B300 on SN5610 leaves, two compute planes."""
    return open_generated(window, tmp_path, sus=1, server="nvidia-dgx-b300", leaf="nvidia-sn5610",
                          planes=2)


def test_metrics_dock_shows_each_planes_oversubscription_and_bisection(twin_plane, qtbot):  # noqa: ANN001
    """`aicnet validate` prints "plane 1: leaf 1:1 (its own fat tree)" and the bisection per plane;
    the Metrics dock showed neither, so the two-plane design read like a single fabric."""
    window = twin_plane
    report = validated(window, qtbot)
    assert set(report.metrics.oversubscription.planes) == {"1", "2"}
    window.metrics.show()
    window.metrics.raise_()
    window.metrics.refresh()
    rows = window.metrics.row_texts("Oversubscription")
    assert "Per plane" in rows
    assert rows["Plane 1 · leaf"] == "1.00:1" and rows["Plane 2 · leaf"] == "1.00:1"
    workload = report.metrics.workloads[0]
    halves = dict(workload.plane_bisection)
    assert set(halves) == {"1", "2"}
    work_rows = window.metrics.row_texts("Workloads")
    assert work_rows["Bisection, plane 1"].endswith("Tb/s")
    assert work_rows["Bisection, plane 2"].endswith("Tb/s")


def test_workloads_dock_shows_the_bisection_of_each_plane(twin_plane, qtbot):  # noqa: ANN001
    window = twin_plane
    validated(window, qtbot)
    window.workloads.show()
    window.workloads.raise_()
    window.workloads.select(next(iter(window.document.fabric.workloads)))
    qtbot.waitUntil(lambda: window.workloads.values["bisection"].text() not in ("–", "validating…"))
    text = window.workloads.values["bisection"].text()
    assert "per plane: plane 1 " in text and "plane 2 " in text


def test_single_plane_metrics_have_no_plane_rows(window, qtbot, tmp_path):  # noqa: ANN001
    open_generated(window, tmp_path, sus=1, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra")
    validated(window, qtbot)
    window.metrics.show()
    window.metrics.raise_()
    window.metrics.refresh()
    assert "Per plane" not in window.metrics.row_texts("Oversubscription")


@pytest.mark.parametrize("server", ["nvidia-gb300-nvl72-compute-tray", "nvidia-dgx-b300"])
def test_every_tier_band_is_titled_when_a_two_su_design_is_fitted_small(window, tmp_path, server):  # noqa: ANN001
    """Fitted at 1440x900 (about 16 %), the one-row SPINE and LEAF bands of two SUs of GB300
    trays, and the SPINE band of DGX B300 on Q3400-RA, had no title: too low to write it
    upwards, too narrow to write it upright.  Now it goes small and upright in the margin,
    still over no device."""
    from aicnet_gui.gui.canvas.items import title_place

    open_generated(window, tmp_path, sus=2, server=server, leaf="nvidia-q3400-ra")
    scene, view = window.topology, window.topology_view
    scene.ensure_items()
    view.set_zoom(0.16)
    transform = view.viewportTransform()
    boxes = [transform.mapRect(item.sceneBoundingRect()) for item in scene.items_by_id.values()]
    titles = []
    for tier, rect in scene.bands.bands():
        place = title_place(tier, rect, transform)
        assert place is not None, (tier, rect)
        assert not any(place[1].intersects(box) for box in boxes)
        titles.append(place[0])
    assert {"SPINE", "LEAF", "SERVERS"} <= set(titles)


def test_an_nvl72_rack_on_the_floor_is_the_rack_system_not_30_free_units(window, tmp_path, qtbot):  # noqa: ANN001
    """A GB300 NVL72 rack holds 18 compute trays (the model's devices) and its NVLink switch trays
    and power shelves (not in the model).  The Floor view drew it as "18/48 U" with 30 empty
    slots, room an installer would fill; it now names the system and hatches those slots."""
    open_generated(window, tmp_path, sus=1, server="nvidia-gb300-nvl72-compute-tray",
                   leaf="nvidia-q3400-ra")
    window.tabs.setCurrentIndex(1)
    scene = window.floor
    scene.ensure_current()
    doc = window.document.fabric
    tray_racks = {d.rack for d in doc.devices.values() if d.model == "nvidia-gb300-nvl72-compute-tray"}
    network_racks = {d.rack for d in doc.devices.values() if d.rack and d.rack not in tray_racks}
    assert tray_racks and network_racks
    for rack_id in tray_racks:
        rack = scene.racks_by_id[rack_id]
        assert rack.system == "GB300 NVL72 rack"
        assert rack.used_text() == "GB300 NVL72"
        assert sum(count for _low, count in rack.free) == rack.height_ru - 18
        assert rack.used_rect().right() <= rack.boundingRect().right()
        assert "NVLink switch trays" in rack.system_text()
    for rack_id in network_racks:
        rack = scene.racks_by_id[rack_id]
        assert rack.system == "" and rack.free == [] and rack.used_text().endswith("/48 U")
    # moving a tray keeps the rack's hatching in step with its slots
    tray = next(d for d in doc.devices.values() if d.rack in tray_racks and d.ru == 1)
    rack_item = scene.racks_by_id[tray.rack]
    assert window.editor.update_devices([tray.id], {"ru": 30}, "Move tray")
    qtbot.waitUntil(lambda: (1, 1) in rack_item.free)
    assert all(not (low <= 30 < low + count) for low, count in rack_item.free)


def test_bom_power_says_at_least_while_a_model_has_no_power_figure(window, qtbot, tmp_path):  # noqa: ANN001
    """The SN5610 has no power figure in the catalog: `aicnet bom` says so, the Metrics dock
    showed "1,950.7 kW" as if it were the whole fabric's power."""
    open_generated(window, tmp_path, sus=1, server="nvidia-dgx-b300", leaf="nvidia-sn5610", planes=2)
    window.metrics.show()
    window.metrics.raise_()
    validated(window, qtbot)
    qtbot.waitUntil(lambda: window.validator.bom is not None, timeout=30000)
    bom = window.validator.bom
    assert "nvidia-sn5610" in bom.power_unknown
    qtbot.waitUntil(lambda: window.metrics.section_value("Bill of materials").startswith("at least "))
    rows = window.metrics.row_texts("Bill of materials")
    assert rows["Power"] == f"at least {bom.power_w / 1000:,.1f} kW"
    assert rows["No power figure"] == "NVIDIA SN5610"


def test_bom_power_is_plain_when_every_model_has_a_figure(window, qtbot, tmp_path):  # noqa: ANN001
    open_generated(window, tmp_path, sus=1, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra")
    window.metrics.show()
    window.metrics.raise_()
    validated(window, qtbot)
    qtbot.waitUntil(lambda: window.validator.bom is not None, timeout=30000)
    qtbot.waitUntil(lambda: window.metrics.section_value("Bill of materials").endswith(" kW"))
    assert not window.metrics.section_value("Bill of materials").startswith("at least")
    assert "No power figure" not in window.metrics.row_texts("Bill of materials")


def test_moving_a_device_to_another_rack_updates_both_racks_used_units(window, tmp_path, qtbot):  # noqa: ANN001
    """The Floor view refreshed the rack a device went to, not the one it left: after moving
    gpu-001 out of a 20/48 U rack that rack still said 20/48 U (and after undo, the other one)."""
    open_generated(window, tmp_path, sus=1, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra")
    window.tabs.setCurrentIndex(1)
    scene = window.floor
    scene.ensure_current()
    doc = window.document.fabric
    gpu = doc.device_by_name("gpu-001")
    home, away = gpu.rack, doc.device_by_name("gpu-072").rack
    assert home != away
    racks = scene.racks_by_id
    assert racks[home].used_text() == racks[away].used_text() == "20/48 U"
    assert window.editor.update_devices([gpu.id], {"rack": away, "ru": 21}, "Move gpu-001")
    qtbot.waitUntil(lambda: racks[away].used_text() == "30/48 U")
    assert racks[home].used_text() == "10/48 U"
    window.document.undo_stack.undo()
    qtbot.waitUntil(lambda: racks[home].used_text() == "20/48 U")
    assert racks[away].used_text() == "20/48 U"
    window.editor.delete([gpu.id], [], [])
    qtbot.waitUntil(lambda: racks[home].used_text() == "10/48 U")


def test_inspector_plane_field_says_why_a_server_has_no_plane(twin_plane, qtbot):  # noqa: ANN001
    """On the two-plane design the Plane field of a DGX B300 was blank: the field's hint was
    lost on the first fill, and a server is in no plane because its ports reach both."""
    window = twin_plane
    doc = window.document.fabric
    page = window.inspector.device_page
    server = doc.device_by_name("gpu-001")
    window.select_ids([server.id], [], [])
    qtbot.waitUntil(lambda: page.ids == [server.id])
    assert page.plane.text() == ""
    assert page.plane.placeholderText() == "none: a server's ports reach every plane (1, 2)"
    assert page.firmware.placeholderText() == "e.g. 31.2012.1010"
    leaf = doc.device_by_name("leaf-01")
    window.select_ids([leaf.id], [], [])
    qtbot.waitUntil(lambda: page.ids == [leaf.id])
    assert page.plane.text() == "1"
    assert page.plane.placeholderText() == "compute plane of a switch, e.g. 1"


def _visible_boxes(scene):  # noqa: ANN001, ANN202
    return [box for box in scene.collapsed.values() if box.isVisible()]


def _assert_boxes_clear(scene) -> None:  # noqa: ANN001
    """No box over another, none over the centre of a device drawn outside the boxes."""
    boxes = _visible_boxes(scene)
    inside = {d for box in boxes for d in box.members}
    for i, box in enumerate(boxes):
        for other in boxes[i + 1:]:
            assert not box.box().intersects(other.box()), (box.title, other.title)
        for device_id, item in scene.items_by_id.items():
            if device_id not in inside and item.isVisible():
                assert not box.box().contains(item.sceneBoundingRect().center()), (box.title, device_id)


def test_collapsed_rails_of_two_sus_cover_neither_each_other_nor_the_servers(window, tmp_path):  # noqa: ANN001
    """Collapse All Rails on two SUs of DGX B300: each rail's box was its leaves' bounding box,
    from SU 1's leaves down to SU 2's, over SU 1's servers; Rail 5 lay on Rail 1."""
    open_generated(window, tmp_path, sus=2, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra")
    scene = window.topology
    assert window.collapse_all("rail") == 8
    window.topology_view.set_zoom(0.2)
    assert len(_visible_boxes(scene)) == 8
    _assert_boxes_clear(scene)
    leaves = scene.bands.bands()[1][1]  # the first leaf band holds every rail box
    assert all(leaves.contains(box.box()) for box in _visible_boxes(scene))


def test_collapsed_planes_sit_side_by_side(twin_plane):  # noqa: ANN001
    """Collapse All Planes on an interleaved twin-plane design: the two boxes lay one over the
    other; now Plane 1 and Plane 2 share the spine band, in that order."""
    window = twin_plane
    scene = window.topology
    assert window.collapse_all("plane") == 2
    window.topology_view.set_zoom(0.2)
    _assert_boxes_clear(scene)
    boxes = {key.value: box.box() for key, box in scene.collapsed.items()}
    assert boxes["1"].right() < boxes["2"].left()


def test_collapsed_sus_keep_their_members_bounding_box(window, tmp_path):  # noqa: ANN001
    from aicnet_gui.gui.canvas.groups import box_for

    open_generated(window, tmp_path, sus=2, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra")
    scene = window.topology
    assert window.collapse_all("su") == 2
    for box in _visible_boxes(scene):
        rects = [scene.items_by_id[d].sceneBoundingRect() for d in box.members]
        assert box.box() == box_for(rects)


def test_a_narrow_group_box_keeps_the_number_of_its_title(qtbot):  # noqa: ANN001
    from PySide6.QtGui import QFontMetricsF

    from aicnet_gui.gui import theme
    from aicnet_gui.gui.canvas.groups import fitting_title

    metrics = QFontMetricsF(theme.font(9.5, True))
    assert fitting_title("Rail 5", metrics, 500) == "⊞ Rail 5"
    assert fitting_title("Rail 5", metrics, metrics.horizontalAdvance("Rail 5") + 1) == "Rail 5"
    assert fitting_title("Rail 5", metrics, 10) == "5"


def test_python_m_aicnet_gui_gui_app_runs_the_app(tmp_path):  # noqa: ANN001
    """`python -m aicnet_gui.gui.app --screenshot …` (how a checkout is run) did nothing and
    exited 0: the module had no main guard."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(root))
    done = subprocess.run([sys.executable, "-m", "aicnet_gui.gui.app", "--help"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "--screenshot" in done.stdout
