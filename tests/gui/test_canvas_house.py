"""The Topology canvas's parts: one gesture at a time (wire, move, pick), items told their state
by the mirror, and a typed answer to "what is under the mouse" for the context menu."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from aicnet_gui.editing.compat import PortRef
from aicnet_gui.gui import theme
from aicnet_gui.gui.canvas import lod
from aicnet_gui.gui.canvas.groups import GroupKey
from aicnet_gui.gui.canvas.hits import DeviceHit, GroupHit, LinkHit, RackHit
from aicnet_gui.gui.canvas.interactions.move import MoveInteraction
from aicnet_gui.gui.canvas.interactions.wire import WireInteraction
from aicnet_gui.gui.canvas.items import DeviceItem
from aicnet_gui.gui.canvas.wire_state import WireState

from .test_editing import LEAF, SERVER, add, hover_wire, wired_pair

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_drawing_a_cable_is_the_one_interaction_and_escape_ends_it_without_an_edit(window):
    server, leaf = wired_pair(window)
    scene, viewport = window.topology, window.topology_view.viewport()
    steps = window.document.undo_stack.count()
    hover_wire(window, PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    assert isinstance(scene.interaction, WireInteraction)
    wire = scene.wire
    assert wire is not None and wire.hover_key == (leaf, "swp1s0")
    assert all(item.wire is wire for item in scene.items_by_id.values())  # told, not read
    assert scene.preview.isVisible()
    QTest.keyClick(viewport, Qt.Key.Key_Escape)
    assert scene.interaction is None and scene.wire is None
    assert all(item.wire is None for item in scene.items_by_id.values())
    assert not scene.preview.isVisible()
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       window.topology_view.mapFromScene(
                           scene.items_by_id[leaf].port_scene_pos("swp1s0")))
    assert not window.document.fabric.links  # the release after Escape draws nothing
    assert window.document.undo_stack.count() == steps


def test_dragging_a_device_is_a_move_interaction_snapped_and_one_undo_step(window):
    server, _leaf = wired_pair(window)
    scene, view = window.topology, window.topology_view
    item = scene.items_by_id[server]
    before = tuple(window.document.fabric.devices[server].position)
    steps = window.document.undo_stack.count()
    start = view.mapFromScene(item.scenePos() + QPointF(20, item.size[1] / 2))  # the name, no port
    viewport = view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    assert isinstance(scene.interaction, MoveInteraction)
    for dx in (10, 30, 47):
        QTest.mouseMove(viewport, start + type(start)(dx, 33))
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       start + type(start)(47, 33))
    assert scene.interaction is None
    after = tuple(window.document.fabric.devices[server].position)
    assert after != before
    assert after[0] % theme.GRID_STEP == 0 and after[1] % theme.GRID_STEP == 0
    assert window.document.undo_stack.count() == steps + 1
    window.document.undo_stack.undo()
    assert tuple(window.document.fabric.devices[server].position) == before
    assert item.pos().x() == before[0] and item.pos().y() == before[1]


def _paint(item: DeviceItem) -> QImage:
    image = QImage(int(item.size[0]) + 8, int(item.size[1]) + 8, QImage.Format.Format_ARGB32)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    painter.translate(4, 4)
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    return image


def test_a_device_item_paints_what_it_is_told_without_a_scene(window):
    server, leaf = wired_pair(window)
    shown = window.topology.items_by_id[leaf]
    item = DeviceItem(leaf)  # in no scene: nothing to read but what it is given
    item.configure("leaf-01", "SN5600", "leaf", shown.geometry)
    assert item.scene() is None
    plain = _paint(item)
    assert _paint(item) == plain
    item.set_wire(WireState((server, "p1"), (server, "p1"), None, None, lambda _key: None))
    assert _paint(item) != plain  # every port marked as a valid target
    item.set_wire(None)
    item.set_badge(("error", 3))
    assert _paint(item) != plain
    item.set_badge(None)
    item.set_detail_scale(2.0)  # ports drawn only from scale 2: at 1, the summary bar
    assert _paint(item) != plain


def test_a_small_fabric_tells_every_item_to_draw_ports_from_the_lower_scale(window):
    leaf = add(window, LEAF, 0, 0)
    scene = window.topology
    assert scene.detail_scale == lod.SMALL_PORTS_MIN_SCALE
    assert scene.items_by_id[leaf].detail_scale == lod.SMALL_PORTS_MIN_SCALE
    server = add(window, SERVER, 0, 400)  # a later item is told too
    assert scene.items_by_id[server].detail_scale == lod.SMALL_PORTS_MIN_SCALE


def test_hit_at_names_the_device_the_cable_or_nothing(window):
    server, leaf = wired_pair(window)
    assert window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    scene, view = window.topology, window.topology_view
    (link_id,) = window.document.fabric.links
    scene.select_ids([], [])  # the new cable comes selected
    centre = scene.items_by_id[server].sceneBoundingRect().center()
    assert scene.hit_at(centre, view.scale_factor()) == DeviceHit(server, False)
    x1, y1, x2, y2 = scene.links.endpoints(link_id)
    middle = QPointF((x1 + x2) / 2, (y1 + y2) / 2)
    hit = scene.hit_at(middle, view.scale_factor())
    assert hit == LinkHit(link_id, False)
    window._select_hit(scene, hit)  # what a right-click on it does before the menu opens
    assert scene.selected_link_ids() == [link_id]
    assert scene.hit_at(middle, view.scale_factor()) == LinkHit(link_id, True)
    assert scene.hit_at(QPointF(-5000, -5000), view.scale_factor()) is None


def test_hit_at_names_a_collapsed_group(window):
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    scene = window.topology
    key = GroupKey("su", "1")
    scene.collapse([key])
    box = scene.collapsed[key].box()
    assert scene.hit_at(box.center(), 0.3) == GroupHit(key, scene.collapsed[key].title)


def test_floor_hit_at_names_a_rack_or_a_device(window):
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    floor = window.floor
    device_id, item = next(iter(floor.items_by_id.items()))
    assert floor.hit_at(item.sceneBoundingRect().center()) == DeviceHit(device_id, False)
    rack_id = window.editor.add_rack()
    assert rack_id is not None
    rack = floor.racks_by_id[rack_id]
    hit = floor.hit_at(rack.sceneBoundingRect().center())
    assert hit == RackHit(rack_id, False)
    window._select_hit(floor, hit)
    assert floor.selected_rack_ids() == [rack_id]
    assert floor.hit_at(QPointF(-1e6, -1e6)) is None


def test_a_new_document_ends_the_cable_being_drawn(window, qtbot):
    server, leaf = wired_pair(window)
    scene = window.topology
    hover_wire(window, PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    assert isinstance(scene.interaction, WireInteraction)
    with qtbot.waitSignal(scene.hint) as hint:
        window.document.new()
    assert hint.args == [""]  # the status bar hint is cleared
    assert scene.interaction is None and not scene.preview.isVisible()
    QTest.mouseRelease(window.topology_view.viewport(), Qt.MouseButton.LeftButton)
    assert not window.document.fabric.devices
