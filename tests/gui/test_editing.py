"""Placing, wiring and undo in the editor, driven the way a user drives it (drops, mouse drags)."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QFontMetricsF
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from aicnet_gui.editing.compat import PortRef, connection_problem
from aicnet_gui.gui import theme

LEAF = "nvidia-sn5600"
SERVER = "generic-hgx-8-gpu-b3140h"


def drop_model(window, model_id: str, scene_pos: QPointF) -> None:
    """Drop a palette row on the Topology view exactly as a drag from the palette does."""
    view = window.topology_view
    row = window.palette.row_for(model_id)
    data: QMimeData = window.palette.tree.mimeData([row])
    point = view.mapFromScene(scene_pos)
    enter = QDragEnterEvent(point, Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(point), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), drop)


def add(window, model_id: str, x: float, y: float) -> str:
    device_id = window.editor.add_device(model_id, (x, y))
    assert device_id is not None
    return device_id


def drag_wire(window, a: PortRef, b: PortRef) -> None:
    """Press on port a, move to port b, release: the gesture that draws a cable."""
    scene, view = window.topology, window.topology_view
    start = view.mapFromScene(scene.items_by_id[a.device].port_scene_pos(a.port))
    end = view.mapFromScene(scene.items_by_id[b.device].port_scene_pos(b.port))
    viewport = view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(viewport, (start + end) / 2)
    QTest.mouseMove(viewport, end)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def wired_pair(window) -> tuple[str, str]:
    server = add(window, SERVER, 0, 400)
    leaf = add(window, LEAF, 0, 0)
    window.topology_view.set_zoom(1.0)
    window.topology_view.centerOn(300, 200)
    return server, leaf


def test_dropping_a_palette_item_creates_a_named_device_in_model_and_both_views(window):
    drop_model(window, LEAF, QPointF(200, 100))
    doc = window.document.fabric
    assert len(doc.devices) == 1
    device = next(iter(doc.devices.values()))
    assert device.model == LEAF
    assert device.name == "leaf-01"  # Settings.naming: leaf-{n:02d}
    assert device.id in window.topology.items_by_id
    assert device.id in window.floor.items_by_id
    # dropped centred on the cursor, snapped to the 20-unit grid
    assert device.position[0] % 20 == 0 and device.position[1] % 20 == 0
    drop_model(window, LEAF, QPointF(200, 400))
    assert sorted(d.name for d in doc.devices.values()) == ["leaf-01", "leaf-02"]


def test_dragging_from_a_port_to_a_compatible_port_creates_a_link(window):
    server, leaf = wired_pair(window)
    drag_wire(window, PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    doc = window.document.fabric
    assert len(doc.links) == 1
    link = next(iter(doc.links.values()))
    assert (link.a.device, link.a.port) == (server, "p1")  # lower tier first
    assert (link.b.device, link.b.port) == (leaf, "swp1s0")
    assert window.topology.links.link_ids() == [link.id]
    assert window.topology.items_by_id[leaf].used == {"swp1s0"}


def test_an_incompatible_connection_is_refused_with_its_reason(window, qtbot):
    server, leaf = wired_pair(window)
    # SN5600 cages run 2x400G; the HGX north-south port runs at 200G
    with qtbot.waitSignal(window.editor.message) as blocker:
        drag_wire(window, PortRef(server, "ns1"), PortRef(leaf, "swp1s0"))
    text, level = blocker.args
    assert level == 1
    assert "speed" in text and "200G" in text and "400G" in text
    assert window.document.fabric.links == {}
    assert window.topology.links.link_ids() == []
    assert "speed" in window.message_label.text()


def test_a_port_already_used_is_refused_and_says_by_what(window):
    server, leaf = wired_pair(window)
    assert window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    assert not window.editor.connect(PortRef(server, "p2"), PortRef(leaf, "swp1s0"))
    assert "already used" in window.message_label.text()
    assert len(window.document.fabric.links) == 1


def test_dragging_a_used_port_moves_the_cable_end(window):
    server, leaf = wired_pair(window)
    assert window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    drag_wire(window, PortRef(leaf, "swp1s0"), PortRef(leaf, "swp2s0"))
    link = next(iter(window.document.fabric.links.values()))
    assert (link.b.device, link.b.port) == (leaf, "swp2s0")
    assert window.topology.items_by_id[leaf].used == {"swp2s0"}


def test_undo_and_redo_restore_model_and_scene_counts(window):
    server, leaf = wired_pair(window)
    window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    doc, stack = window.document.fabric, window.document.undo_stack

    def counts() -> tuple[int, int, int, int, int]:
        return (len(doc.devices), len(doc.links), len(window.topology.items_by_id),
                len(window.topology.links), len(window.floor.items_by_id))

    assert counts() == (2, 1, 2, 1, 2)
    window.editor.delete([leaf], [], [])  # removes the leaf and its cable
    assert counts() == (1, 0, 1, 0, 1)
    stack.undo()
    assert counts() == (2, 1, 2, 1, 2)
    stack.undo()  # the cable
    assert counts() == (2, 0, 2, 0, 2)
    stack.undo()
    stack.undo()
    assert counts() == (0, 0, 0, 0, 0)
    for _ in range(4):
        stack.redo()
    assert counts() == (1, 0, 1, 0, 1)
    assert server in doc.devices and leaf not in doc.devices


def test_a_device_drag_is_one_undo_step_and_snaps_to_the_grid(window):
    server, leaf = wired_pair(window)
    view, scene = window.topology_view, window.topology
    window.topology.select_ids([server, leaf], [])
    item = scene.items_by_id[leaf]
    start = view.mapFromScene(item.sceneBoundingRect().topLeft() + QPointF(40, 12))
    viewport = view.viewport()
    before = window.document.undo_stack.count()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, start)
    for step in (10, 30, 57):
        QTest.mouseMove(viewport, start + QPoint(step, step))
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                       start + QPoint(57, 57))
    doc = window.document.fabric
    assert window.document.undo_stack.count() == before + 1
    assert doc.devices[leaf].position != (0.0, 0.0)
    assert all(v % 20 == 0 for v in doc.devices[leaf].position)
    # both selected devices moved by the same amount
    dx = doc.devices[leaf].position[0] - 0.0
    assert doc.devices[server].position == (0.0 + dx, 400.0 + doc.devices[leaf].position[1])
    window.document.undo_stack.undo()
    assert doc.devices[leaf].position == (0.0, 0.0)
    assert scene.items_by_id[leaf].pos() == QPointF(0, 0)


def test_bulk_full_mesh_is_one_undo_step(window):
    doc = window.document.fabric
    leaves = [add(window, LEAF, 0, 300), add(window, LEAF, 800, 300)]
    spines = [add(window, LEAF, 0, 0), add(window, LEAF, 800, 0)]
    window.editor.set_role(spines, "spine")
    depth = window.document.undo_stack.count()
    assert window.editor.full_mesh(leaves, spines, per_pair=2)
    assert len(doc.links) == 2 * 2 * 2
    assert window.document.undo_stack.count() == depth + 1
    # uplinks come from the top of each leaf's port list, downlinks from the bottom of each spine's
    leaf_ports = {link.a.port for link in doc.links.values() if link.a.device == leaves[0]}
    assert leaf_ports == {"swp64s1", "swp64s0", "swp63s1", "swp63s0"}
    assert len(window.topology.links) == 8
    window.document.undo_stack.undo()
    assert doc.links == {} and len(window.topology.links) == 0


def test_rail_wiring_sends_nic_i_to_the_leaf_of_rail_i(window):
    doc = window.document.fabric
    servers = [add(window, SERVER, x, 600) for x in (0, 400)]
    leaves = [add(window, LEAF, x, 300) for x in (0, 800)]
    assert window.editor.rail_wiring(servers, leaves)
    # 8 rails on 2 leaves: rails 1-4 on leaf-01, 5-8 on leaf-02
    assert len(doc.links) == 16
    for link in doc.links.values():
        assert link.rail is not None
        expected = leaves[0] if link.rail <= 4 else leaves[1]
        assert link.b.device == expected
        assert link.a.port == f"p{link.rail}"


def test_copy_paste_duplicates_devices_and_their_cables_as_one_step(window):
    server, leaf = wired_pair(window)
    window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    window.topology.select_ids([server, leaf], [])
    assert window.copy()
    depth = window.document.undo_stack.count()
    window.paste()
    doc = window.document.fabric
    assert len(doc.devices) == 4 and len(doc.links) == 2
    assert window.document.undo_stack.count() == depth + 1
    names = sorted(d.name for d in doc.devices.values())
    assert names == ["gpu-001", "gpu-002", "leaf-01", "leaf-02"]
    pasted = set(window.topology.selected_device_ids())
    assert len(pasted) == 2 and not pasted & {server, leaf}


def test_rubber_band_selects_devices_and_the_cables_between_them(window):
    server, leaf = wired_pair(window)
    window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    rect = window.topology.content_rect()
    window.topology_view.fit_rect(rect)
    view = window.topology_view
    area = view.mapFromScene(rect).boundingRect()
    viewport = view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, area.topLeft() - QPoint(5, 5))
    QTest.mouseMove(viewport, area.center())
    QTest.mouseMove(viewport, area.bottomRight() + QPoint(5, 5))
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       area.bottomRight() + QPoint(5, 5))
    assert sorted(window.topology.selected_device_ids()) == sorted([server, leaf])
    assert len(window.topology.selected_link_ids()) == 1
    window.delete_selection()
    assert window.document.fabric.devices == {}


def test_auto_layout_puts_tiers_top_down_in_one_step(window):
    server, leaf = add(window, SERVER, 0, 0), add(window, LEAF, 0, 0)
    spine = add(window, LEAF, 0, 0)
    window.editor.set_role([spine], "spine")
    depth = window.document.undo_stack.count()
    assert window.editor.auto_layout()
    doc = window.document.fabric
    assert window.document.undo_stack.count() == depth + 1
    ys = [doc.devices[i].position[1] for i in (spine, leaf, server)]
    assert ys == sorted(ys) and len(set(ys)) == 3


def test_the_floor_view_places_devices_in_rack_slots_and_refuses_overlaps(window):
    doc = window.document.fabric
    rack = window.editor.add_rack()
    server = add(window, SERVER, 0, 0)
    other = add(window, SERVER, 400, 0)
    assert window.editor.place_devices({server: (rack, 1)})
    assert (doc.devices[server].rack, doc.devices[server].ru) == (rack, 1)
    item = window.floor.items_by_id[server]
    slot = window.floor.device_slot_rect(doc.racks[rack], 1, 8)
    assert item.pos() == slot.topLeft()
    # the HGX is 8U: RU 5 would overlap RU 1-8
    assert not window.editor.place_devices({other: (rack, 5)})
    assert "overlaps" in window.message_label.text()
    assert doc.devices[other].rack is None
    assert window.editor.place_devices({other: (rack, 9)})
    window.document.undo_stack.undo()
    assert doc.devices[other].rack is None


def test_moving_a_rack_on_the_floor_changes_cable_lengths_and_refuses_taken_spots(window):
    from aicnet_gui.analysis.lengths import link_length

    doc = window.document.fabric
    r1, r2 = window.editor.add_rack(), window.editor.add_rack()
    assert (doc.racks[r2].row, doc.racks[r2].position) == (1, 2)
    server, leaf = add(window, SERVER, 0, 400), add(window, LEAF, 0, 0)
    window.editor.place_devices({server: (r1, 1), leaf: (r2, 40)})
    window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    link = next(iter(doc.links.values()))
    before = link_length(doc, link).length_m
    # one tile further along the row: a row/position floor stays row/position
    assert window.editor.move_rack(r2, 1.2, 0.0)
    assert (doc.racks[r2].row, doc.racks[r2].position, doc.racks[r2].x_m) == (1, 3, None)
    assert link_length(doc, link).length_m == round(before + 0.6 * 1.1, 2)
    assert not window.editor.move_rack(r2, 0.0, 0.0)
    assert "taken by rack R01" in window.message_label.text()
    # the floor scene follows: R02 is two tiles right of R01
    item1, item2 = window.floor.racks_by_id[r1], window.floor.racks_by_id[r2]
    assert item2.pos().y() == item1.pos().y() and item2.pos().x() > item1.pos().x()


def hover_wire(window, a: PortRef, b: PortRef) -> None:
    """Press on port a and move onto port b without releasing: the label shows at b."""
    scene, view = window.topology, window.topology_view
    start = view.mapFromScene(scene.items_by_id[a.device].port_scene_pos(a.port))
    end = view.mapFromScene(scene.items_by_id[b.device].port_scene_pos(b.port))
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(view.viewport(), (start + end) / 2)
    QTest.mouseMove(view.viewport(), end)


def label_on_screen(window) -> QRectF:
    """The wire label's rectangle in the Topology view's pixels."""
    label = window.topology.preview.label
    anchor = QPointF(window.topology_view.mapFromScene(label.scenePos()))
    return label.box().translated(anchor)


def test_the_wire_label_shows_the_whole_reason_inside_the_view(window):
    server, leaf = wired_pair(window)
    # SN5600 cages run 2x400G; the HGX north-south port runs at 200G
    reason = connection_problem(window.document.fabric, PortRef(server, "ns1"), PortRef(leaf, "swp1s0"))
    assert reason is not None and len(reason) > 80
    hover_wire(window, PortRef(server, "ns1"), PortRef(leaf, "swp1s0"))
    label = window.topology.preview.label
    assert " ".join(label.lines()) == reason  # nothing cut off
    assert "…" not in reason and not any("…" in line for line in label.lines())
    viewport = QRectF(window.topology_view.viewport().rect())
    assert viewport.contains(label_on_screen(window))
    width = max(QFontMetricsF(theme.font(9.0)).horizontalAdvance(line) for line in label.lines())
    assert label.box().width() >= width  # the box is sized to its text
    QTest.mouseRelease(window.topology_view.viewport(), Qt.MouseButton.LeftButton)


def test_in_a_narrow_view_the_wire_label_wraps_instead_of_cutting_the_reason(window, qtbot):
    window.palette.hide()
    window.inspector.hide()
    window.resize(700, 900)
    qtbot.waitUntil(lambda: window.topology_view.viewport().width() < 700)
    server, leaf = wired_pair(window)
    reason = connection_problem(window.document.fabric, PortRef(server, "ns1"), PortRef(leaf, "swp1s0"))
    hover_wire(window, PortRef(server, "ns1"), PortRef(leaf, "swp1s0"))
    label = window.topology.preview.label
    assert len(label.lines()) >= 2
    assert " ".join(label.lines()) == reason
    assert QRectF(window.topology_view.viewport().rect()).contains(label_on_screen(window))
    QTest.mouseRelease(window.topology_view.viewport(), Qt.MouseButton.LeftButton)
