"""The Floor scene: racks in rows on the floor grid, devices in their RU slots, cable runs.

Racks sit at their floor position (row and position, or x/y in metres) and show their RU
slots; each racked device fills its slots, and devices in no rack wait in a tray on the left.
Dragging a device into a rack places it at the RU under it (the slot lights green, or red with
the reason); dragging a rack moves it to another floor slot.  The cables of the selected devices
are drawn as routes over the cable tray with their estimated length: this view is where the
lengths come from.  A run takes its cable's jacket (else speed) colour, or what `run_colour`
gives (the Topology's traffic colours, while the canvas is coloured by load).

Like the Topology scene it only mirrors the model, through its `FloorMirror` (floor_mirror.py,
the Floor's `SceneMirror`: mirror.py): the rack and device items, the tray, the far layer and
the sliced first showing of a big hall are the mirror's; the scene keeps the view's own parts
(the selection and the runs it shows, the drag and its drop mark, the rack names written where
the headers are too small, the scene's extent) and drives the slices from the event loop.
The items are in floor_items.py, the floor grid in floor_geometry.py.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsSceneMouseEvent

from ...analysis.lengths import link_length
from ...editing.units import counted
from ...model.edits import ChangeSet
from ...model.fabric import Rack
from ...model.rounding import metres
from .. import theme
from ..editor import Editor
from .fabric_scene import FabricScene
from .floor_far_layer import FloorFarLayer
from .floor_geometry import FloorGrid
from .floor_items import (
    FOOTER,
    HEADER,
    PITCH_X,
    RACK_W,
    RU_PX,
    DropIndicator,
    FloorDeviceItem,
    RackItem,
    RouteOverlay,
    Tray,
)
from .floor_mirror import FloorMirror
from .hits import DeviceHit, RackHit
from .rack_names import RackNames

__all__ = ["RACK_W", "RU_PX", "FloorScene"]

MAX_ROUTES = 400
#: from this many devices the Floor tab's first showing makes the racked devices' items in
#: slices after the first frame (the far layer draws them from the model meanwhile): 18,624
#: items of a 12,800-server hall froze the window ~0.5 s when the tab was first shown
LAZY_FLOOR_DEVICES = 4000


class FloorScene(FabricScene):
    """Mirror of the document on the Floor canvas."""

    selection_changed_ids = Signal()
    hint = Signal(str)

    def __init__(self, editor: Editor, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self.editor = editor
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.setBspTreeDepth(6)
        self.setBackgroundBrush(theme.CANVAS_BG)
        self.grid = FloorGrid(lambda: self.editor.doc)
        self.tray = Tray()
        self.addItem(self.tray)
        self.routes = RouteOverlay()
        self.addItem(self.routes)
        self.indicator = DropIndicator()
        self.indicator.setVisible(False)
        self.addItem(self.indicator)
        self.rack_names = RackNames(  # the names fitted out, where the headers are too small
            lambda: ((item.name, item.frame()) for item in self.mirror.racks.values()), RACK_W,
            lambda transform: [box for box, _text in self.routes.label_rects(transform)])
        self.addItem(self.rack_names)
        #: zoomed far out one layer draws the racks and racked devices (floor_far_layer.py)
        self.far_layer = FloorFarLayer()
        self.far_layer.setVisible(False)
        self.addItem(self.far_layer)
        self.mirror = FloorMirror(self, lambda: self.editor.doc, self.grid, self.tray,
                                  self.far_layer, self.rebuild)
        self._dragging = False
        #: link id -> the colour of its run (None: its jacket or speed), while set
        self.run_colour: Callable[[str], str | None] | None = None
        self.selectionChanged.connect(self._on_selection)
        editor.document.changed.connect(self.apply_changes)
        editor.document.reset.connect(self._on_reset)
        self.rebuild()

    # ---------------------------------------------------------------- the mirror's items
    @property
    def items_by_id(self) -> dict[str, FloorDeviceItem]:
        self.ensure_current()
        self.finish_items()
        return self.mirror.items

    @property
    def racks_by_id(self) -> dict[str, RackItem]:
        self.ensure_current()
        return self.mirror.racks

    @property
    def _items(self) -> dict[str, FloorDeviceItem]:
        """The device items made so far (pending ones not yet: see `building`)."""
        return self.mirror.items

    @property
    def stale(self) -> bool:
        """True while the scene waits to be rebuilt (edits or a new document it has not shown)."""
        return self.mirror.stale

    @property
    def far(self) -> bool:
        """Zoomed far out: the far layer draws the racks and racked devices."""
        return self.mirror.far

    @property
    def building(self) -> bool:
        """True while device items of the first showing are still being made in slices."""
        return self.mirror.items_pending()

    def ensure_current(self) -> None:
        """Rebuild now if edits or a new document arrived while the scene was not shown."""
        self.mirror.ensure_current()

    def set_eager(self, eager: bool) -> None:
        self.mirror.eager = eager
        if eager:
            self.ensure_current()

    def _on_reset(self) -> None:
        self.mirror.forget()
        if self.mirror.eager:
            self.rebuild()

    @property
    def doc(self):  # noqa: ANN201
        return self.editor.doc

    # ---------------------------------------------------------------- geometry
    def rack_origin(self, rack: Rack) -> QPointF:
        return self.grid.rack_origin(rack)

    def floor_target(self, pos: QPointF) -> tuple[float, float]:
        return self.grid.floor_target(pos)

    def device_slot_rect(self, rack: Rack, ru: int, height_ru: int,
                         origin: QPointF | None = None) -> QRectF:
        return self.grid.device_slot_rect(rack, ru, height_ru, origin)

    def ru_at(self, rack: Rack, y: float, height_ru: int) -> int:
        return self.grid.ru_at(rack, y, height_ru)

    def rack_at(self, pos: QPointF) -> Rack | None:
        for rack_id, item in self.mirror.racks.items():
            rect = item.sceneBoundingRect()
            if rect.left() <= pos.x() <= rect.right() and rect.top() <= pos.y() <= rect.bottom():
                return self.doc.racks.get(rack_id)
        return None

    # ---------------------------------------------------------------- building
    def rebuild(self) -> None:
        mirror = self.mirror
        mirror.rebuild(None, items_now=len(self.doc.devices) < LAZY_FLOOR_DEVICES)
        self._laid_out()
        if mirror.items_pending():
            QTimer.singleShot(0, self, partial(self._build_slice, mirror.build_round))
        self.selection_changed_ids.emit()

    def _build_slice(self, round_: int) -> None:
        """Make the next batch of pending device items (one turn of the event loop)."""
        mirror = self.mirror
        if round_ != mirror.build_round or not mirror.items_pending():
            return
        if not mirror.build_slice(0.0):
            QTimer.singleShot(0, self, partial(self._build_slice, round_))

    def before_frame(self, visible: QRectF) -> None:
        """Zoomed in while a big hall's device items are still being made: the devices in view
        get theirs before the frame (the far layer, which draws them far out, is hidden)."""
        if not self.mirror.far:
            self.mirror.ensure_items_in(visible)

    def finish_items(self) -> None:
        """Make every pending device item now (something is about to look at the items)."""
        self.mirror.ensure_items()

    def relayout(self) -> None:
        """Place every rack and device where the model says (racks are few; devices are cheap)."""
        self.mirror.relayout()
        self._laid_out()

    def _laid_out(self) -> None:
        """After a layout: the runs shown, the rack names and the scene's extent follow."""
        self.update_routes()
        self._update_scene_rect()

    def _update_scene_rect(self) -> None:
        racks = QRectF()
        for item in self.mirror.racks.values():
            racks = racks.united(item.frame())
        self.rack_names.changed(racks)
        rect = self.content_rect()
        margin = max(rect.width(), rect.height(), 1500) * 0.5
        self.setSceneRect(rect.adjusted(-margin, -margin, margin, margin))

    def content_rect(self) -> QRectF:
        """The tray and the racks; without racks, the tray and the place the first rack takes
        (where the empty hint is written)."""
        rect = self.tray.boundingRect()
        racks = self.mirror.racks
        for item in racks.values():
            rect = rect.united(item.sceneBoundingRect())
        if not racks:
            rect = rect.united(QRectF(0, 0, 3 * PITCH_X, HEADER + 48 * RU_PX + FOOTER))
        return rect

    def hint_avoid(self) -> QRectF:
        """What the empty hint must not be written over: the "Not in a rack" tray."""
        return self.tray.boundingRect()

    def empty_hint(self) -> str:
        if self.mirror.racks:
            return ""
        return ("No racks yet. Add one with Arrange ▸ Add Rack (Ctrl+Shift+R),\n"
                "then drag devices into its RU slots: cable lengths come from here.")

    def apply_changes(self, changes: ChangeSet) -> None:
        update = self.mirror.apply_changes(changes)
        if update.routes:
            self.update_routes()
        if update.moved:
            self._update_scene_rect()

    # ---------------------------------------------------------------- far out
    def set_view_scale(self, scale: float) -> None:
        """The view zoomed: below lod.FAR_SCALE one layer draws what the items drew."""
        self.mirror.set_view_scale(scale)
        # far out the names go under a selected device (the layer draws the others below
        # them); closer in over the device items, which draw themselves
        self.rack_names.setZValue(4 if self.mirror.far else 6)

    # ---------------------------------------------------------------- selection and routes
    def _on_selection(self) -> None:
        self.mirror.follow_selection()
        self.update_routes()
        self.selection_changed_ids.emit()

    def selected_device_ids(self) -> list[str]:
        return [i.device_id for i in self.selectedItems() if isinstance(i, FloorDeviceItem)]

    def selected_rack_ids(self) -> list[str]:
        return [i.rack_id for i in self.selectedItems() if isinstance(i, RackItem)]

    def hit_at(self, pos: QPointF) -> DeviceHit | RackHit | None:
        """The device or rack under scene `pos` (the topmost), or None."""
        self.finish_items()
        for item in self.items(pos):
            if isinstance(item, FloorDeviceItem):
                return DeviceHit(item.device_id, item.isSelected())
            if isinstance(item, RackItem):
                return RackHit(item.rack_id, item.isSelected())
        return None

    def select_ids(self, device_ids, rack_ids=(), add: bool = False) -> None:  # noqa: ANN001
        waiting = [d for d in device_ids if d in self.mirror.pending]
        if waiting:  # a selection carried over from the Topology: only its items are needed
            self.mirror.make_items(waiting)
        self.blockSignals(True)
        if not add:
            self.clearSelection()
        items, racks = self.mirror.items, self.mirror.racks
        for device_id in device_ids:
            if device_id in items:
                items[device_id].setSelected(True)
        for rack_id in rack_ids:
            if rack_id in racks:
                racks[rack_id].setSelected(True)
        self.blockSignals(False)
        self.mirror.follow_selection()
        self.update_routes()
        self.selection_changed_ids.emit()

    def select_all(self) -> None:
        self.finish_items()
        self.select_ids(list(self.mirror.items), list(self.mirror.racks))

    def _port_height(self, device_id: str) -> QPointF | None:
        item = self.mirror.items.get(device_id)
        device = self.doc.devices.get(device_id)
        if item is None or device is None or device.rack is None:
            return None
        rect = item.sceneBoundingRect()
        return QPointF(rect.right() - 6, rect.center().y())

    def update_routes(self) -> None:
        """Draw the runs of the selected devices' cables; one length label per rack pair."""
        doc = self.doc
        selected = self.selected_device_ids()
        routes: list[tuple[list[QPointF], QColor]] = []
        groups: dict[tuple[str, str, str], list] = {}
        seen: set[str] = set()
        for device_id in selected:
            fan = 0
            for link in doc.links_of(device_id):
                if link.id in seen or len(routes) >= MAX_ROUTES:
                    continue
                seen.add(link.id)
                mine, other = (link.a, link.b) if link.a.device == device_id else (link.b, link.a)
                a = self._port_height(mine.device)
                b = self._port_height(other.device)
                if a is None or b is None:
                    continue
                rack_a = self.mirror.racks[doc.devices[mine.device].rack]
                rack_b = self.mirror.racks[doc.devices[other.device].rack]
                offset = (fan % 10) * 2.0
                fan += 1
                if rack_a is rack_b:
                    side = max(a.x(), b.x()) + 10 + offset
                    points = [a, QPointF(side, a.y()), QPointF(side, b.y()), b]
                    frame = rack_a.sceneBoundingRect()
                    anchor, where = QPointF(frame.center().x(), frame.bottom() + 6), "below"
                else:
                    # out of the rack on its right side first: the run passes beside the
                    # devices and the rack header ("16/48 U"), not over them
                    tray_a = rack_a.pos().y() - 12 - offset
                    tray_b = rack_b.pos().y() - 12 - offset
                    xa = rack_a.sceneBoundingRect().right() + offset
                    xb = rack_b.sceneBoundingRect().right() + offset
                    points = [a, QPointF(xa, a.y()), QPointF(xa, tray_a), QPointF(xb, tray_a),
                              QPointF(xb, tray_b), QPointF(xb, b.y()), b]
                    anchor, where = QPointF((xa + xb) / 2, min(tray_a, tray_b) - 12), "above"
                length = link_length(doc, link)
                port = doc.port(link.a.device, link.a.port)
                chosen = self.run_colour(link.id) if self.run_colour is not None else None
                colour = QColor(chosen or theme.link_colour_hex(link.colour)
                                or theme.speed_colour_hex(port.speed_gbps if port else 0))
                text = "length unknown" if length.length_m is None else f"{metres(length.length_m)} m"
                if length.ordered_m is not None:
                    text += f" → {metres(length.ordered_m, 2)} m"
                if length.manual:
                    text += " (manual)"
                routes.append((points, colour))
                key = (rack_a.rack_id, rack_b.rack_id, text)
                groups.setdefault(key, [0, anchor, colour, where])[0] += 1
        labels = []
        for (_ra, _rb, text), (count, anchor, colour, where) in groups.items():
            labels.append((anchor, f"{count} × {text}" if count > 1 else text, colour, where))
        # the routes item stacks labels that would cover each other when it draws them
        labels.sort(key=lambda x: (round(x[0].x()), round(x[0].y())))
        self.routes.set_routes(routes, labels)
        self.rack_names.update()  # a name gives way to a run's length label
        if selected and routes:
            self.hint.emit(f"{counted(len(routes), 'cable run')} of the selection "
                           "shown with estimated and ordered length")

    # ---------------------------------------------------------------- dragging devices and racks
    def _dragged(self) -> list[QGraphicsItem]:
        return [i for i in self.selectedItems() if isinstance(i, FloorDeviceItem | RackItem)]

    def target_of(self, item: FloorDeviceItem) -> tuple[str | None, int | None, QRectF | None]:
        """Where a dragged device item would land: (rack id, RU, slot rect)."""
        rect = item.sceneBoundingRect().adjusted(3, 3, -3, -3)
        rack = self.rack_at(rect.center())
        if rack is None:
            return None, None, None
        ru = self.ru_at(rack, rect.top(), item.height_ru)
        ru = max(1, min(ru, rack.height_ru - item.height_ru + 1))
        return rack.id, ru, self.device_slot_rect(rack, ru, item.height_ru)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        self.finish_items()  # a click or a rubber band during the slices reaches every device
        super().mousePressEvent(event)
        self._dragging = event.button() == Qt.MouseButton.LeftButton and bool(self._dragged())

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        super().mouseMoveEvent(event)
        if not self._dragging or not (event.buttons() & Qt.MouseButton.LeftButton):
            return
        grabber = self.mouseGrabberItem()
        if isinstance(grabber, FloorDeviceItem):
            if grabber.in_tray and grabber.shown_ru != grabber.height_ru:
                centre = grabber.sceneBoundingRect().center()
                grabber.show_full_height()  # the preview is as tall as the device, centred
                grabber.setPos(grabber.pos() + centre - grabber.sceneBoundingRect().center())
            rack_id, ru, slot = self.target_of(grabber)
            if rack_id is None or slot is None or ru is None:
                self.indicator.setVisible(False)
                self.hint.emit("Release outside a rack to take the device out of its rack")
                return
            device = self.doc.devices[grabber.device_id]
            moving = {i.device_id for i in self.selectedItems() if isinstance(i, FloorDeviceItem)}
            problem = self.editor.rack_problem(device.id, device.model, rack_id, ru, ignore=moving)
            rack = self.doc.racks[rack_id]
            self.indicator.show_at(slot, problem is None, problem or f"{rack.name} · RU {ru}")
            self.hint.emit(problem or f"Place {device.name} in {rack.name} at RU {ru}")

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton or not self._dragging:
            return
        self._dragging = False
        self.indicator.setVisible(False)
        self.hint.emit("")
        self.commit_drag()

    def commit_drag(self) -> None:
        doc = self.doc
        placements: dict[str, tuple[str | None, int | None]] = {}
        racks_moved: list[tuple[str, float, float]] = []
        for item in self._dragged():
            if isinstance(item, FloorDeviceItem):
                device = doc.devices.get(item.device_id)
                if device is None:
                    continue
                rack_id, ru, _slot = self.target_of(item)
                if (rack_id, ru) != (device.rack, device.ru):
                    placements[device.id] = (rack_id, ru)
            elif isinstance(item, RackItem):
                rack = doc.racks.get(item.rack_id)
                if rack is None:
                    continue
                origin = self.rack_origin(rack)
                if (item.pos() - origin).manhattanLength() < 1:
                    continue
                racks_moved.append((rack.id, *self.floor_target(item.pos())))
        changed = False
        if placements:
            changed = self.editor.place_devices(placements)
        for rack_id, x_m, y_m in racks_moved:
            changed = self.editor.move_rack(rack_id, x_m, y_m) or changed
        if not changed:
            self.relayout()  # refused or nothing to do: back to where the model says

    # ---------------------------------------------------------------- drops
    def drop_device(self, model_id: str, pos: QPointF) -> str | None:
        model = self.doc.catalog.devices.get(model_id)
        if model is None:
            return None
        rack = self.rack_at(pos)
        if rack is None:
            return self.editor.add_device(model_id)
        ru = self.ru_at(rack, pos.y() - model.height_ru * RU_PX / 2, model.height_ru)
        ru = max(1, min(ru, rack.height_ru - model.height_ru + 1))
        return self.editor.add_device(model_id, rack=rack.id, ru=ru)
