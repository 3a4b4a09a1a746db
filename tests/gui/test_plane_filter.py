"""View ▸ Plane: the Topology canvas shows one compute plane of a multi-plane fabric (issue #22).

A DGX B300 twin-plane design: each GPU's NIC splits 2 x 400G, port k to plane k, each plane its
own fat tree.  With plane 2 chosen, the switches of plane 1 and every plane-1 cable are not drawn
(items, the batched layers, the overview), cannot be hit or selected; servers stay.  A view
setting: edits and undo keep it right, a new document resets it, the file does not hold it.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainterPath

from aicnet_gui.gui.canvas.hits import DeviceHit


@pytest.fixture
def twin_plane(open_generated):  # noqa: ANN001, ANN201
    """A 2-SU DGX B300 rail-optimized fabric on SN5600 with 2 planes, open in the window."""
    from aicnet_gui.generators import RailOptimizedParams

    return open_generated(RailOptimizedParams(sus=2, server="nvidia-dgx-b300",
                                              leaf="nvidia-sn5600", planes=2, choose_media=False))


def _switches(doc, plane: str) -> list[str]:  # noqa: ANN001
    return [d.id for d in doc.devices.values() if d.plane == plane]


def _cables(doc, plane: str) -> set[str]:  # noqa: ANN001
    return {i for i, link in doc.links.items() if link.plane == plane}


def _choose_in_combo(window, plane: str | None) -> None:  # noqa: ANN001
    combo = window.plane_choice.combo
    combo.setCurrentIndex(combo.findData(plane))


def _painted_cables(scene, view) -> set[str]:  # noqa: ANN001
    """The cable ids the link layer draws in one repaint of `view` (its drawLines batches)."""
    links = scene.links
    drawn: set[int] = set()
    original = links._draw_groups

    def record(painter, idx, *args):  # noqa: ANN001, ANN202
        drawn.update(idx.tolist())
        return original(painter, idx, *args)

    links._draw_groups = record
    try:
        view.viewport().repaint()
    finally:
        del links._draw_groups
    return {links._ids[i] for i in drawn}


def test_plane_two_hides_every_plane_one_switch_and_cable(twin_plane, qtbot):
    window = twin_plane
    scene, view, doc = window.topology, window.topology_view, window.document.fabric
    one, two = _switches(doc, "1"), _switches(doc, "2")
    assert one and two
    assert [window.plane_choice.combo.itemText(i) for i in range(window.plane_choice.combo.count())] \
        == ["All planes", "Plane 1", "Plane 2"]
    with qtbot.waitSignal(scene.planes_changed):
        _choose_in_combo(window, "2")
    assert scene.plane == "2"
    assert window.plane_choice.label.text() == "Plane 2 of 2 shown"
    assert not window.plane_choice.label.isHidden()
    menu = {a.text(): a.isChecked() for a in window.plane_choice.menu.actions() if a.text()}
    assert menu == {"All planes": False, "Plane 1": False, "Plane 2": True}
    items = scene.items_by_id
    assert not any(items[d].isVisible() for d in one)
    assert all(items[d].isVisible() for d in two)
    servers = [d.id for d in doc.devices.values() if d.plane is None]
    assert all(items[d].isVisible() for d in servers)  # servers reach every plane
    drawn = scene.device_layer.drawn_ids()
    assert not drawn & set(one) and set(two) <= drawn
    # the cables the link layer paints: close up single cables, far out bundles
    plane_one, plane_two = _cables(doc, "1"), _cables(doc, "2")
    leaf = items[two[0]]
    view.set_zoom(1.0)
    view.centerOn(leaf.sceneBoundingRect().center())
    painted = _painted_cables(scene, view)
    assert painted and not painted & plane_one
    assert painted <= plane_two
    bundled = {scene.links._ids[r] for r in scene.links.bundles("pairs").rows.tolist()}
    assert bundled == plane_two
    # the overview far out: no plane-1 block, bundles count plane-2 cables only
    view.fit_all()
    scale = view.scale_factor()
    level, bundles = scene.overview.level(scale)
    shown = [b for b in level.blocks if scene.overview.block_shown(b)]
    assert {b.key.plane for b in shown} == {"", "2"}
    assert "1" in {b.key.plane for b in level.blocks}  # they exist, they are not drawn
    leaves_two = sum(1 for d in two if doc.role_of(doc.devices[d]).value == "leaf")
    pod_texts = [t for b, t in zip(level.blocks, scene.overview.texts(level), strict=True)
                 if b.key.kind in ("su", "pod")]
    assert pod_texts and all(f"{leaves_two // len(pod_texts)} leaves" in t for t in pod_texts)
    uplinks = sum(1 for i in plane_two
                  if {doc.role_of(doc.devices[e.device]).value for e in (doc.links[i].a, doc.links[i].b)}
                  == {"leaf", "spine"})
    assert sum(int(c) for c in bundles.counts) == uplinks


def test_hidden_switches_and_cables_cannot_be_hit_or_selected(twin_plane):
    window = twin_plane
    scene, view, doc = window.topology, window.topology_view, window.document.fabric
    one = _switches(doc, "1")
    window.plane_choice.choose("2")
    view.set_zoom(1.0)
    leaf = scene.items_by_id[one[0]]
    centre = leaf.sceneBoundingRect().center()
    view.centerOn(centre)
    hit = scene.hit_at(centre, 1.0)
    assert not (isinstance(hit, DeviceHit) and hit.device_id == one[0])
    plane_one = _cables(doc, "1")
    for link_id in list(plane_one)[:20]:
        ax, ay, bx, by = scene.links.endpoints(link_id)
        found = scene.links.link_at((ax + bx) / 2, (ay + by) / 2, 3.0)
        assert found not in plane_one
    window.select_all()
    devices, links = set(scene.selected_device_ids()), set(scene.selected_link_ids())
    assert devices and links
    assert not devices & set(one) and not links & plane_one
    # a rubber band over everything (Qt selects the items in the area, the scene the cables)
    scene.select_ids([], [])
    everything = scene.content_rect()
    path = QPainterPath()
    path.addRect(everything)
    scene.setSelectionArea(path)
    scene.select_links_in(everything, add=True)
    assert set(scene.selected_device_ids()) and not set(scene.selected_device_ids()) & set(one)
    assert scene.selected_link_ids() and not set(scene.selected_link_ids()) & plane_one
    # choosing plane 2 drops a plane-1 selection
    window.plane_choice.choose(None)
    scene.select_ids([one[0]], sorted(plane_one)[:3])
    window.plane_choice.choose("2")
    assert not scene.selected_device_ids() and not scene.selected_link_ids()


def test_an_edit_while_filtered_keeps_the_filter_right(twin_plane, qtbot):
    window = twin_plane
    scene, doc = window.topology, window.document.fabric
    window.plane_choice.choose("2")
    cable = sorted(_cables(doc, "2"))[0]
    assert cable in scene.links.shown_link_ids()
    window.editor.delete(link_ids=[cable])
    assert cable not in doc.links and cable not in scene.links.shown_link_ids()
    assert scene.plane == "2"
    window.document.undo_stack.undo()
    assert cable in doc.links
    shown = set(scene.links.shown_link_ids())
    assert cable in shown and not shown & _cables(doc, "1")
    assert scene.plane == "2"
    # a plane-1 leaf deleted and brought back by undo comes back hidden, with its cables
    leaf = next(d for d in _switches(doc, "1") if doc.role_of(doc.devices[d]).value == "leaf")
    window.editor.delete(device_ids=[leaf])
    window.document.undo_stack.undo()
    assert leaf in doc.devices
    assert not scene.items_by_id[leaf].isVisible()
    assert leaf not in scene.device_layer.drawn_ids()
    assert not set(scene.links.shown_link_ids()) & set(doc.link_ids_of(leaf))
    # an edit that adds a plane: offered at once; its switch is hidden while plane 2 is shown
    spine = next(d for d in _switches(doc, "2") if doc.role_of(doc.devices[d]).value == "spine")
    with qtbot.waitSignal(scene.planes_changed):
        window.editor.update_devices([spine], {"plane": "3"}, "Set plane")
    assert scene.planes() == ["1", "2", "3"]
    assert window.plane_choice.combo.findData("3") >= 0
    assert not scene.items_by_id[spine].isVisible()
    assert window.plane_choice.label.text() == "Plane 2 of 3 shown"
    window.plane_choice.choose("3")
    assert scene.items_by_id[spine].isVisible()
    # undo removes plane 3: the one shown is gone, every plane is shown
    with qtbot.waitSignal(scene.planes_changed):
        window.document.undo_stack.undo()
    assert scene.plane is None and scene.planes() == ["1", "2"]
    assert window.plane_choice.combo.currentData() is None
    assert window.plane_choice.label.isHidden()
    assert all(item.isVisible() for item in scene.items_by_id.values())
    assert len(scene.links.shown_link_ids()) == len(doc.links)


def test_the_filter_is_a_view_setting_a_new_document_resets(twin_plane):
    window = twin_plane
    scene = window.topology
    path = window.document.path
    window.plane_choice.choose("2")
    # not an edit: nothing to save, nothing to undo
    assert not window.document.dirty and window.document.undo_stack.count() == 0
    window.new_document()
    assert scene.plane is None and scene.planes() == []
    assert not window.plane_choice.menu.isEnabled()
    assert window.open_path(path, ask=False)
    assert scene.plane is None and scene.planes() == ["1", "2"]
    assert window.plane_choice.combo.currentData() is None
    assert window.plane_choice.label.isHidden()
    assert all(item.isVisible() for item in scene.items_by_id.values())


def test_a_fabric_without_planes_offers_no_choice(window, example_path):
    assert window.open_path(example_path, ask=False)
    scene = window.topology
    assert scene.planes() == []
    assert not window.plane_choice.menu.isEnabled()
    assert all(not a.isVisible() for a in window.plane_choice._toolbar_actions)
    scene.set_plane("1")
    assert scene.plane is None
    assert all(item.isVisible() for item in scene.items_by_id.values())


def test_a_finding_on_a_hidden_switch_shows_its_plane(twin_plane, qtbot):
    window = twin_plane
    scene, doc = window.topology, window.document.fabric
    qtbot.waitUntil(window.validator.current)
    rows = window.findings.proxy.rowCount()
    assert rows
    window.plane_choice.choose("2")
    assert window.findings.proxy.rowCount() == rows  # the findings dock lists every finding
    # a finding naming one plane-1 switch: plane 1 is shown and the switch selected
    leaf = _switches(doc, "1")[0]
    window.findings.show_objects.emit([leaf])
    assert scene.plane == "1"
    assert scene.selected_device_ids() == [leaf] and scene.items_by_id[leaf].isVisible()
    # a finding naming switches of both planes (no free fabric port on 48 switches): every plane
    window.plane_choice.choose("2")
    proxy = window.findings.proxy
    codes = [proxy.index(r, 1).data() for r in range(proxy.rowCount())]
    row = codes.index("PORTS-EXHAUSTED")
    window.findings.select_row(row)
    assert scene.plane is None
    selected = scene.selected_device_ids()
    assert set(selected) & set(_switches(doc, "1")) and set(selected) & set(_switches(doc, "2"))
    assert all(scene.items_by_id[d].isVisible() for d in selected)


def test_collapsed_groups_follow_the_filter(twin_plane):
    window = twin_plane
    scene, doc = window.topology, window.document.fabric
    window.collapse_all("plane")
    assert len(scene.collapsed) == 2
    window.topology_view.set_zoom(0.2)  # close enough for the boxes (far out: the overview's)
    window.plane_choice.choose("2")
    boxes = {key.value: box for key, box in scene.collapsed.items()}
    assert not boxes["1"].isVisible() and boxes["2"].isVisible()
    assert set(boxes["2"].members) == set(_switches(doc, "2"))
    hidden = QRectF(boxes["1"].box())
    assert scene.group_at(hidden.center()) is not boxes["1"]
    window.plane_choice.choose(None)
    assert boxes["1"].isVisible() and set(boxes["1"].members) == set(_switches(doc, "1"))


def test_items_made_after_the_first_frame_respect_the_plane_chosen_before(window, tmp_path, qtbot,
                                                                         monkeypatch):
    """A big file's device items are made after the first frame: a plane chosen meanwhile
    hides the items made later."""
    from aicnet_gui.fileio import save_fabric
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.gui.canvas import topology_scene
    from aicnet_gui.model.document import FabricDocument

    monkeypatch.setattr(topology_scene, "LAZY_MIN_DEVICES", 50)
    doc = FabricDocument(window.document.fabric.catalog)
    generate(doc, RailOptimizedParams(sus=2, server="nvidia-dgx-b300", leaf="nvidia-sn5600",
                                      planes=2, choose_media=False))
    path = tmp_path / "b300-2p.fabric"
    save_fabric(doc, path)
    scene = window.topology
    window.topology_view.set_zoom(0.01)  # far out: the next open builds its items lazily
    with qtbot.waitSignal(scene.built, timeout=20000):
        assert window.open_path(path, ask=False)
        assert scene.items_pending()
        window.plane_choice.choose("1")
    fabric = window.document.fabric
    items = scene.mirror.items
    assert len(items) == len(fabric.devices)
    assert not any(items[d].isVisible() for d in _switches(fabric, "2"))
    assert all(items[d].isVisible() for d in _switches(fabric, "1"))


def test_the_floor_view_is_not_filtered_and_says_nothing_of_a_plane(twin_plane):
    window = twin_plane
    window.plane_choice.choose("2")
    window.tabs.setCurrentIndex(1)
    floor = window.floor
    one = _switches(window.document.fabric, "1")
    assert all(floor.items_by_id[d].isVisible() for d in one if d in floor.items_by_id)
    assert any(d in floor.items_by_id for d in one)
    assert window.plane_choice.label.isHidden()
    window.tabs.setCurrentIndex(0)
    assert not window.plane_choice.label.isHidden()


def test_failure_mode_draws_nothing_over_what_the_plane_filter_hides(twin_plane):
    window = twin_plane
    doc = window.document.fabric
    tools = window.change_tools
    one, two = _switches(doc, "1")[:1], _switches(doc, "2")[:1]
    cables = [sorted(_cables(doc, "1"))[0], sorted(_cables(doc, "2"))[0]]
    tools.failed = (tuple(one + two), tuple(cables))
    tools.set_failure_mode(True)
    assert tools.topology_overlay.counts == (2, 2)
    window.plane_choice.choose("2")
    assert tools.topology_overlay.counts == (1, 1)
    assert tools.floor_overlay.counts == (2, 2)  # the Floor view is not filtered
    window.plane_choice.choose(None)
    assert tools.topology_overlay.counts == (2, 2)
