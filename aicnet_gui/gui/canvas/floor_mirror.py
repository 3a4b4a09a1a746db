"""The Floor canvas's picture of the model: rack and device items by id, the tray, the far layer.

`FloorMirror` is the Floor's `SceneMirror` (mirror.py: the contract both canvases implement).
It places every rack at its floor position (floor_geometry.py), every racked device in its RU
slots and every other device in the tray, and follows each `ChangeSet`: a rack or settings edit
places everything again (racks are few, devices cheap), a device edit only those devices and
the racks they left or joined.

Speed (docs/architecture.md §4):

- **follow only when shown**: while the Floor tab is hidden (`eager` False) an edit or a new
  document only marks the mirror `stale`; it is rebuilt when next looked at (opening a
  4,096-server fabric need not lay out 6,656 rack slots nobody sees yet);
- **far layer**: below lod.FAR_SCALE the rack and device items paint nothing (kept for clicks
  and drags: `far_flag`) and one `FloorFarLayer` draws them, one `drawRects` per colour; an
  edit of a few devices moves their rectangles in it (`_patch_far_layer`) instead of handing it
  every rack and device again;
- **sliced first showing**: for a big hall (floor_scene.LAZY_FLOOR_DEVICES) the racked devices' items are made
  after the first frame, ITEM_SLICE per turn of the event loop (`build_slice`), the far layer
  drawing them from the model meanwhile (`pending`: their slots and colours); a frame zoomed in
  makes those in view first (`ensure_items_in`), anything that reads every item makes the rest
  (`ensure_items`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from ...editing.units import natural_key
from ...model.document import FabricDocument
from ...model.edits import ChangeSet
from ...model.fabric import Device
from .. import theme
from .floor_far_layer import FloorFarLayer
from .floor_geometry import FloorGrid
from .floor_items import (
    HEADER,
    RACK_W,
    RAIL,
    RU_PX,
    TRAY_GAP,
    TRAY_W,
    FloorDeviceItem,
    RackItem,
    Tray,
)
from .mirror import MirrorUpdate, SceneMirror
from .rack_contents import rack_contents

ITEM_SLICE = 2500
"""Device items made per batch of the slices (one batch per turn of the event loop)."""

NOTHING = MirrorUpdate(moved=False, links_gone=False)


class FloorMirror(SceneMirror[None]):
    """Rack and device items by id, the tray and the far layer of one Floor scene."""

    items: dict[str, FloorDeviceItem]

    def __init__(self, scene: QGraphicsScene, document: Callable[[], FabricDocument],
                 grid: FloorGrid, tray: Tray, far_layer: FloorFarLayer,
                 catch_up: Callable[[], None]) -> None:
        """`catch_up`: rebuild the scene (the mirror is stale and something reads it)."""
        super().__init__(scene, document)
        self.grid = grid
        self.tray = tray
        self.far_layer = far_layer
        self._catch_up = catch_up
        self.racks: dict[str, RackItem] = {}
        #: follow edits at once (the Floor tab is showing); else only note `stale`
        self.eager = False
        self.stale = True
        self.far_dirty = True  # the far layer's rectangles are older than the layout
        self._far_selected: set[QGraphicsItem] = set()  # selected: drawn by their own items
        #: racked devices whose items the first showing of a big hall has not made yet:
        #: id -> (slots, role colour) from the model, drawn by the far layer meanwhile
        self.pending: dict[str, tuple[QRectF, QColor]] = {}
        self.build_round = 0  # a rebuild cancels the slices of the one before

    # ---------------------------------------------------------------- a new document
    def clear(self) -> None:
        remove = self.scene.removeItem
        for item in list(self.racks.values()) + list(self.items.values()):
            remove(item)
        self.racks.clear()
        self.items.clear()
        self.pending.clear()
        self.build_round += 1

    def build(self, source: None, items_now: bool) -> None:
        """Place every rack and device; a big hall's racked devices get their items later
        (not `items_now`)."""
        self.stale = False
        self.place(lazy=not items_now)

    def forget(self) -> None:
        """Another document: stale until rebuilt; the slices of this one's items stop."""
        self.stale = True
        self.pending.clear()
        self.build_round += 1

    def following(self) -> bool:
        return not self.stale

    def ensure_current(self) -> None:
        """Rebuilt now if edits or a new document arrived while the Floor was not shown."""
        if self.stale:
            self._catch_up()

    # ---------------------------------------------------------------- items made later
    def items_pending(self) -> bool:
        return bool(self.pending)

    def build_slice(self, budget_ms: float) -> bool:
        deadline = time.perf_counter() + budget_ms / 1000
        first = True
        while self.pending and (first or time.perf_counter() < deadline):
            first = False
            self.make_items(list(itertools.islice(self.pending, ITEM_SLICE)))
        return not self.pending

    def ensure_items(self) -> None:
        if self.pending:
            self.make_items(list(self.pending))

    def ensure_items_in(self, rect: QRectF) -> int:
        ids = [device_id for device_id, (slots, _c) in self.pending.items() if slots.intersects(rect)]
        if ids:
            self.make_items(ids)
        return len(ids)

    def make_items(self, ids: list[str]) -> None:
        """The items of these pending devices, in the slots the far layer drew them in."""
        doc = self.doc
        for device_id in ids:
            slots, _colour = self.pending.pop(device_id)
            device = doc.devices.get(device_id)
            if device is None:
                continue  # deleted meanwhile: the edit's own update follows
            item = self._device_item(device)
            item.setPos(slots.topLeft())
            item.in_tray = False
            item.rack_id = device.rack
            self.far_flag(item)

    def _device_item(self, device: Device) -> FloorDeviceItem:
        """The device's item (made and added when it has none), configured from the model."""
        item = self.items.get(device.id)
        if item is None:
            item = FloorDeviceItem(device.id)
            self.scene.addItem(item)
            self.items[device.id] = item
        model = self.doc.device_model(device)
        item.configure(device.name, model.model, self.doc.role_of(device).value, model.height_ru)
        return item

    # ---------------------------------------------------------------- placing
    def relayout(self) -> None:
        """Place every rack and device where the model says (racks are few; devices are cheap)."""
        self.ensure_items()
        self.place(lazy=False)

    def place(self, lazy: bool) -> None:
        """Place every rack and device where the model says; `lazy`: a racked device without
        an item gets none yet (pending, drawn by the far layer until its slice makes it)."""
        doc = self.doc
        grid = self.grid
        contents = rack_contents(doc)
        for rack_id in [r for r in self.racks if r not in doc.racks]:
            self.scene.removeItem(self.racks.pop(rack_id))
        origins = {}
        for rack in doc.racks.values():
            item = self.racks.get(rack.id)
            if item is None:
                item = RackItem(rack.id)
                self.scene.addItem(item)
                self.racks[rack.id] = item
            item.configure(rack, contents.get(rack.id))
            origins[rack.id] = origin = grid.rack_origin(rack)
            item.setPos(origin)
        for device_id in [d for d in self.items if d not in doc.devices]:
            self.scene.removeItem(self.items.pop(device_id))
        unplaced: list[Device] = []
        for device in doc.devices.values():
            racked = device.rack in doc.racks and device.ru is not None
            if lazy and racked and device.id not in self.items:
                model = doc.device_model(device)
                slots = grid.device_slot_rect(doc.racks[device.rack], device.ru, model.height_ru,
                                              origins[device.rack])
                self.pending[device.id] = (slots, theme.role_colour(doc.role_of(device).value))
                continue
            item = self._device_item(device)
            if racked:
                item.setPos(grid.device_slot_rect(doc.racks[device.rack], device.ru, item.height_ru,
                                                  origins[device.rack]).topLeft())
                item.in_tray = False
            else:
                unplaced.append(device)
            item.rack_id = device.rack if device.rack in doc.racks else None
        self._layout_tray(unplaced)
        self.follow_far_layer(None)

    def _layout_tray(self, unplaced: list[Device]) -> None:
        unplaced.sort(key=lambda d: natural_key(d.name))
        left = -TRAY_W - TRAY_GAP
        if not unplaced:
            self.tray.set_rect(QRectF(left, 0, TRAY_W, 120), 0)
            return
        chip_h = 2 * RU_PX + 6
        per_col = 40
        cols = -(-len(unplaced) // per_col)
        width = TRAY_W + (cols - 1) * (RACK_W - 2 * RAIL + 12)
        left = -width - TRAY_GAP
        for index, device in enumerate(unplaced):
            col, row = divmod(index, per_col)
            item = self.items[device.id]
            item.configure(item.name, item.model_text, item.role, item.height_ru, shown_ru=2)
            item.in_tray = True
            item.setPos(left + 12 + col * (RACK_W - 2 * RAIL + 12), 44 + row * chip_h)
        rows = min(len(unplaced), per_col)
        self.tray.set_rect(QRectF(left, 0, width, 56 + rows * chip_h), len(unplaced))

    def update_devices(self, device_ids: set[str]) -> None:
        """Follow edits of a few devices without placing every other device again."""
        doc = self.doc
        tray = False
        racks: set[str] = set()  # the racks the devices were in and are in now
        for device_id in device_ids:
            device = doc.devices.get(device_id)
            item = self.items.get(device_id)
            if item is not None and item.rack_id:
                racks.add(item.rack_id)
            if device is None:
                if item is not None:
                    self.scene.removeItem(self.items.pop(device_id))
                    tray = True
                continue
            was_in_tray = item.in_tray if item is not None else False
            item = self._device_item(device)
            racked = device.rack in doc.racks and device.ru is not None
            if racked:
                item.setPos(self.grid.device_slot_rect(doc.racks[device.rack], device.ru,
                                                       item.height_ru).topLeft())
                item.in_tray = False
            item.rack_id = device.rack if device.rack in doc.racks else None
            if item.rack_id:
                racks.add(item.rack_id)
            tray |= was_in_tray or not racked
        contents = rack_contents(doc, racks)
        for rack_id in racks:
            item = self.racks.get(rack_id)
            if item is not None and rack_id in doc.racks:
                item.configure(doc.racks[rack_id], contents.get(rack_id))
        if tray:
            self._layout_tray([d for d in doc.devices.values()
                               if not (d.rack in doc.racks and d.ru is not None)])
        self.follow_far_layer(device_ids)

    # ---------------------------------------------------------------- one edit
    def mirror_changes(self, changes: ChangeSet) -> MirrorUpdate:
        """A rack or settings edit places everything again, a device edit only its devices, a
        cable edit only the runs shown; while hidden, a layout edit only marks it stale."""
        if self.stale:
            return NOTHING
        layout = bool(changes.racks or changes.devices or changes.settings)
        if layout:
            self.ensure_items()  # a layout edit during the first showing's slices: every item first
        if not self.eager:
            if layout:
                self.stale = True
                return NOTHING
            return MirrorUpdate(moved=False, links_gone=False, routes=bool(changes.links))
        if changes.racks or changes.settings:
            self.relayout()
        elif changes.devices:
            self.update_devices(changes.devices)
        elif not changes.links:
            return NOTHING
        return MirrorUpdate(moved=layout, links_gone=False, routes=True)

    # ---------------------------------------------------------------- far out
    def set_far(self, far: bool) -> None:
        """Below lod.FAR_SCALE one layer draws what the items drew."""
        if far == self.far:
            return
        self.far = far
        if far and self.far_dirty:
            self._refresh_far_layer()  # sets every item's flag too
        else:
            for item in list(self.racks.values()) + list(self.items.values()):
                self.far_flag(item)
        self.far_layer.setVisible(far)

    def far_flag(self, item: RackItem | FloorDeviceItem) -> None:
        """Far out a rack or racked device paints nothing (the layer draws it) unless it is
        selected or waits in the tray; it stays in the scene for clicks and drags."""
        in_tray = isinstance(item, FloorDeviceItem) and item.in_tray
        empty = self.far and not in_tray and not item.isSelected()
        if item.empty != empty:  # (reading flags() back costs 4 enum operations per item)
            item.empty = empty
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, empty)

    def follow_far_layer(self, devices: set[str] | None) -> None:
        """After a layout (`devices`: only these devices changed): far out the far layer's
        rectangles follow (a few devices patched, else all again); close in it waits until it
        is needed."""
        if not self.far:
            self.far_dirty = True
        elif devices is None or self.far_dirty or not self._patch_far_layer(devices):
            self._refresh_far_layer()

    def _hatched(self) -> list[QRectF]:
        """The slots rack systems' trays leave (their NVLink switch trays and power shelves)."""
        return [item.run_rect(low, count).translated(item.pos())
                for item in self.racks.values() if item.free for low, count in item.free]

    def _patch_far_layer(self, device_ids: set[str]) -> bool:
        """Hand the far layer the new place of a few devices; False when it needs everything
        again (a device it never drew, a new colour)."""
        layer = self.far_layer
        for device_id in device_ids:
            item = self.items.get(device_id)
            if item is None or item.in_tray:
                layer.drop_device(device_id)
            elif not layer.set_device(device_id, item.slots(), theme.role_colour(item.role)):
                return False
            if item is not None:
                self.far_flag(item)
        layer.set_hatched(self._hatched())
        return True

    def _refresh_far_layer(self) -> None:
        racks = []
        for rack_id, item in self.racks.items():
            frame = item.frame()
            racks.append((rack_id, frame, QRectF(frame.x() + RAIL, frame.y() + HEADER,
                                                 RACK_W - 2 * RAIL, item.height_ru * RU_PX)))
        devices = [(device_id, item.slots(), theme.role_colour(item.role))
                   for device_id, item in self.items.items() if not item.in_tray]
        devices += [(device_id, slots, colour) for device_id, (slots, colour) in self.pending.items()]
        self.far_layer.set_contents(racks, self._hatched(), devices)
        self.far_dirty = False
        self._far_selected.clear()
        self.follow_selection()
        for item in list(self.racks.values()) + list(self.items.values()):  # new, or in/out of the tray
            self.far_flag(item)

    def follow_selection(self) -> None:
        """Selected racks and devices draw themselves; the layer leaves them out."""
        selected = set(self.scene.selectedItems())
        for item in selected ^ self._far_selected:
            if isinstance(item, RackItem | FloorDeviceItem):
                self.far_flag(item)
        self._far_selected = selected
        self.far_layer.set_selected({i.rack_id for i in selected if isinstance(i, RackItem)},
                                    {i.device_id for i in selected if isinstance(i, FloorDeviceItem)})

    # ---------------------------------------------------------------- where things are
    def device_rect(self, device_id: str) -> QRectF | None:
        self.ensure_current()
        if device_id in self.pending:
            self.make_items([device_id])
        item = self.items.get(device_id)
        return item.sceneBoundingRect() if item is not None else None
