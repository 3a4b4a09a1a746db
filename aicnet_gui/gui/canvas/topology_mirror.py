"""The Topology canvas's picture of the model: the id -> item map and the batched layers.

`TopologyMirror` is the Topology's `SceneMirror` (mirror.py: the contract both canvases
implement): the one place that turns the document into graphics there: a bulk load from
`TopologyData` (`build`, the device items possibly later, `build_slice`), then only the ids a
`ChangeSet` names (`apply_changes`).  It owns the device items, the `DeviceLayer` (devices drawn
in one batch zoomed far out) and the `LinkLayer` (every cable), and tells the items what they
show beyond the model (badges, stripe accents, workload highlights, far or near, the scale
from which ports are drawn, the cable being drawn): items never read the scene.  Its canvas
layers (the overview, the SU captions) are told each rebuild, edit and zoom after it.

A big document opened zoomed far out is first drawn by the batched layers alone: its device
items (for clicks, selection and drags; 18,624 of them cost ~0.25 s) are created after the first
frame, a slice per event-loop turn (`build_slice`).  Meanwhile what the user reaches gets its
items at once and only those: the devices under a click, the devices in view when zoomed in
(`ensure_items_in`, a few dozen); anything that needs every item gets them all
(`ensure_items`).

A multi-plane fabric can be shown one compute plane at a time (`set_plane`, a view setting):
the switches of other planes (`filtered`) get no visible item and are left out of the device
layer, their cables and those of other planes out of the link layer; servers, which reach every
plane, stay.  Items created later (the slices, an edit) are hidden as they are made.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsScene

from ...model.document import FabricDocument
from ...model.edits import ChangeSet
from ...model.fabric import Device, Link
from .. import theme
from . import lod
from .device_layer import DeviceLayer
from .geometry import DeviceGeometry, device_geometry
from .items import DeviceItem
from .link_layer import LinkLayer
from .mirror import MirrorUpdate, SceneMirror
from .scene_data import TopologyData, group_key
from .wire_state import WireState

ITEM_ROWS = 100
"""Device items created between two looks at the clock while building in slices."""


def link_colour(link: Link, ports_speed: int) -> str:
    return theme.link_colour_hex(link.colour) or theme.speed_colour_hex(ports_speed)


class TopologyMirror(SceneMirror[TopologyData]):
    """Device items by id, the device layer and the link layer of one Topology scene."""

    items: dict[str, DeviceItem]

    def __init__(self, scene: QGraphicsScene, document: Callable[[], FabricDocument]) -> None:
        super().__init__(scene, document)
        #: the document whose device items are still to be created (the slices walk its rows
        #: from pending_next; `_made` marks the rows created out of turn, by ensure_items_in)
        self.pending: TopologyData | None = None
        self.pending_next = 0
        self._made: np.ndarray | None = None
        #: below this view scale ports are hidden and cables bundled (lower for small fabrics)
        self.detail_scale = lod.PORTS_MIN_SCALE
        self.wire: WireState | None = None
        #: the distinct panel geometries in use (for the legend) and how many devices use each
        self._geometries: dict[int, DeviceGeometry] = {}
        self._geometry_use: Counter[int] = Counter()
        self.badges: dict[str, tuple[str, int]] = {}
        self.highlighted: dict[str, str] = {}
        self.accents: dict[str, QColor] = {}
        #: the compute plane shown (None: every plane) and the devices it hides
        self.plane: str | None = None
        self.filtered: set[str] = set()
        #: devices inside collapsed groups (CollapsedGroups tells)
        self.grouped: set[str] = set()
        self.links = LinkLayer()
        scene.addItem(self.links)
        self.device_layer = DeviceLayer()
        self.device_layer.setVisible(False)
        scene.addItem(self.device_layer)

    # ---------------------------------------------------------------- bulk load
    def clear(self) -> None:
        """Forget every item and mark of the old document."""
        self.pending = self._made = None
        remove = self.scene.removeItem
        for item in self.items.values():
            remove(item)
        self.items.clear()
        self.badges.clear()
        self.highlighted.clear()
        self.accents.clear()
        self.plane = None
        self.filtered = set()
        self.grouped = set()
        self.wire = None
        self.links.clear()
        self.device_layer.clear()

    def build(self, data: TopologyData, items_now: bool) -> None:
        """One bulk load of the device layer and of every cable; the device items now
        (`items_now`) or later, by `build_slice` or `ensure_items`."""
        if self.update_detail_scale():  # before the items: each is created with it
            self.scene.update()
        self.device_layer.load(data.ids, data.x, data.y, data.w, data.h, data.roles, data.names)
        self.links.load_devices(data.ids, data.x + data.w / 2, data.y + data.h / 2, data.groups,
                                data.tiers)
        if data.cables_pending():  # a big file just opened: its cables after the first frame
            self.links.defer_load(data.coords, partial(self._load_cables, data))
        else:
            self._load_cables(data)
        self._geometries = {id(g): g for g in data.distinct_geometries()}
        self._geometry_use = Counter(map(id, data.geometries))
        self.pending, self.pending_next = data, 0
        self._made = np.zeros(len(data), dtype=np.bool_)
        if items_now:
            self.ensure_items()

    def _load_cables(self, data: TopologyData) -> None:
        """Give the link layer every cable of `data` (read now if they were left for later)."""
        data.complete_cables()
        if data.link_ids:
            self.links.load_coded(data.link_ids, data.coords, data.palette, data.pens,
                                  data.speed_pens, data.dev_a, data.dev_b, data.rails,
                                  data.link_planes, data.plane_names, data.link_rows)
            data.drop_cables()  # the items still to be made need the device columns only

    def items_pending(self) -> bool:
        return self.pending is not None

    def _unmade(self, start: int, stop: int) -> np.ndarray:
        """The rows in start..stop whose items are still to be created."""
        assert self._made is not None
        return np.flatnonzero(~self._made[start:stop]) + start

    def build_slice(self, budget_ms: float) -> bool:
        """Create pending device items for about `budget_ms`, at least one batch of rows (a
        busy machine still makes progress); True when none is left."""
        data = self.pending
        if data is None:
            return True
        deadline = time.perf_counter() + budget_ms / 1000
        data.list_used()
        first = True
        while self.pending_next < len(data) and (first or time.perf_counter() < deadline):
            first = False
            stop = min(self.pending_next + ITEM_ROWS, len(data))
            self._create_items(data, self._unmade(self.pending_next, stop))
            self._made[self.pending_next:stop] = True  # a click or zoom later must not remake them
            self.pending_next = stop
        if self.pending_next < len(data):
            return False
        self.pending = self._made = None
        return True

    def ensure_items(self) -> None:
        """Create every pending device item now (something needs them all: an edit, a
        selection by id, a rubber band)."""
        data = self.pending
        if data is not None:
            rows = self._unmade(self.pending_next, len(data))
            self.pending = self._made = None
            data.list_used()
            self._create_items(data, rows)

    def ensure_items_in(self, rect: QRectF) -> int:
        """Create the pending items of the devices whose panels meet scene `rect` (a click, the
        area in view): a few dozen rows out of turn, the slices skip them.  Returns how many."""
        data, made = self.pending, self._made
        if data is None or made is None:
            return 0
        x, y = data.x, data.y
        hit = ((x <= rect.right()) & (x + data.w >= rect.left()) & (y <= rect.bottom())
               & (y + data.h >= rect.top()) & ~made)
        rows = np.flatnonzero(hit)
        if len(rows):
            made[rows] = True
            self._create_items(data, rows)
        return len(rows)

    def _create_items(self, data: TopologyData, rows: np.ndarray) -> None:
        """Items for the devices in `rows`, with the marks the scene shows now."""
        far, add, items = self.far, self.scene.addItem, self.items
        badges, accents, highlighted = self.badges, self.accents, self.highlighted
        detail = self.detail_scale if self.detail_scale != DeviceItem.detail_scale else None
        wire = self.wire
        hidden = self.filtered | self.grouped
        xs, ys = data.x[rows].tolist(), data.y[rows].tolist()
        tiers = data.tiers[rows].tolist()
        for k, row in enumerate(rows.tolist()):
            device_id = data.ids[row]
            item = DeviceItem(device_id, far)
            item.configure(data.names[row], data.model_texts[row], data.roles[row],
                           data.geometries[row])
            item.tier = tiers[k]
            item.used = data.used_of(row)
            if device_id in badges:
                item.badge = badges[device_id]
            if device_id in accents:
                item.accent = accents[device_id]
            if device_id in highlighted:
                item.highlight = highlighted[device_id]
            if detail is not None:
                item.detail_scale = detail
            if wire is not None:
                item.wire = wire
            item.setPos(xs[k], ys[k])
            if device_id in hidden:
                item.setVisible(False)
            add(item)
            items[device_id] = item

    # ---------------------------------------------------------------- one edit
    def mirror_changes(self, changes: ChangeSet) -> MirrorUpdate:
        """Follow one applied edit: update only the touched devices and cables."""
        if changes.devices or changes.links:
            self.ensure_items()  # (a settings change leaves a lazy build alone)
        doc = self.doc
        relink: set[str] = set()
        bands = False
        for device_id in changes.devices:
            device = doc.devices.get(device_id)
            if device is None:
                self.filtered.discard(device_id)
                bands |= self._remove_device(device_id)
                continue
            moved, regeometried = self._sync_device(device)
            if self.plane is not None:  # a new device or one whose plane changed
                self._filter_one(device)
            bands |= moved
            if regeometried:
                relink.update(doc.link_ids_of(device_id))
        gone = [i for i in changes.links if i not in doc.links]
        if gone:
            self.links.remove_links(gone)
        relink.update(i for i in changes.links if i in doc.links)
        rows = [row for row in (self._link_row(doc.links[i]) for i in relink if i in doc.links) if row]
        self.links.set_links(rows)
        return MirrorUpdate(bands, bool(gone))

    def _remove_device(self, device_id: str) -> bool:
        item = self.items.pop(device_id, None)
        if item is None:
            return False
        self._count_geometry(item.geometry, -1)
        self.scene.removeItem(item)
        self.device_layer.remove(device_id)
        return True

    def _sync_device(self, device: Device) -> tuple[bool, bool]:
        """Create or update the item of `device`: (it appeared, moved or changed tier: the
        tier bands follow; its geometry changed)."""
        doc = self.doc
        used = {p for p in doc.ports(device) if doc.link_at(device.id, p) is not None}
        item = self.items.get(device.id)
        moved = regeometried = False
        if item is None:
            item = self._new_item(device, used)
            self._count_geometry(item.geometry, +1)
            moved = True
        else:
            old_geometry, old_tier = item.geometry, item.tier
            self._configure(item, device)
            item.set_used(used)
            if item.sync_pos(*device.position):
                self.device_item_moved(item)
                moved = True
            moved |= item.tier != old_tier
            if item.geometry is not old_geometry:
                self._count_geometry(old_geometry, -1)
                self._count_geometry(item.geometry, +1)
                regeometried = True
        self.links.set_device(*self._device_row(device, item))
        return moved, regeometried

    def _new_item(self, device: Device, used: set[str]) -> DeviceItem:
        item = DeviceItem(device.id)
        self._configure(item, device)
        item.used = used
        item.detail_scale = self.detail_scale
        item.wire = self.wire
        item.sync_pos(*device.position)
        if self.far:
            item.set_far(True)
        if device.id in self.filtered or device.id in self.grouped:
            item.setVisible(False)
        self.scene.addItem(item)
        self.items[device.id] = item
        return item

    def _configure(self, item: DeviceItem, device: Device) -> None:
        model = self.doc.device_model(device)
        geometry = device_geometry(model, device.cages)
        role = self.doc.role_of(device).value
        item.configure(device.name, model.model, role, geometry)
        item.tier = self.doc.tier_of(device)
        x, y = device.position
        self.device_layer.set_device(device.id, x, y, geometry.width, geometry.height, role,
                                     device.name)

    def _device_row(self, device: Device, item: DeviceItem) -> tuple[str, float, float, str | None, int]:
        w, h = item.size
        tier = self.doc.tier_of(device)
        return (device.id, device.position[0] + w / 2, device.position[1] + h / 2,
                group_key(device, tier), tier)

    def _link_row(self, link: Link) -> tuple | None:
        a_item = self.items.get(link.a.device)
        b_item = self.items.get(link.b.device)
        if a_item is None or b_item is None or a_item.geometry is None or b_item.geometry is None:
            return None
        pa = a_item.geometry.ports.get(link.a.port)
        pb = b_item.geometry.ports.get(link.b.port)
        if pa is None or pb is None:
            return None
        ax, ay = pa.centre
        bx, by = pb.centre
        pos_a, pos_b = a_item.pos(), b_item.pos()
        return (link.id, pos_a.x() + ax, pos_a.y() + ay, pos_b.x() + bx, pos_b.y() + by,
                link_colour(link, pa.speed_gbps), theme.speed_colour_hex(pa.speed_gbps),
                link.a.device, link.b.device, link.rail, link.plane)

    def device_item_moved(self, item: DeviceItem) -> None:
        """A device item moved (drag or sync): move its cable ends with it."""
        doc = self.doc
        if item.device_id not in doc.devices or item.geometry is None:
            return
        pos = item.pos()
        updates = []
        for link_id in doc.link_ids_of(item.device_id):
            link = doc.links[link_id]
            for end_name, end in (("a", link.a), ("b", link.b)):
                if end.device == item.device_id:
                    port = item.geometry.ports.get(end.port)
                    if port is not None:
                        cx, cy = port.centre
                        updates.append((link_id, end_name, pos.x() + cx, pos.y() + cy))
        if updates:
            self.links.move_ends(updates)
        w, h = item.size
        self.links.move_device(item.device_id, pos.x() + w / 2, pos.y() + h / 2)
        self.device_layer.move(item.device_id, pos.x(), pos.y())

    # ---------------------------------------------------------------- plane filter
    def hides(self, device: Device) -> bool:
        """The plane filter hides `device`: a switch of another plane (servers have none)."""
        return self.plane is not None and device.plane is not None and device.plane != self.plane

    def set_plane(self, plane: str | None) -> set[str]:
        """Show one compute plane (None: all): hide the switches of the others and their cables.
        Only the existing items whose visibility changes are touched; returns the device ids
        newly hidden (the caller deselects nothing: Qt drops a hidden item's selection)."""
        self.plane = plane
        before = self.filtered
        hides = self.hides
        self.filtered = {d.id for d in self.doc.devices.values() if hides(d)}
        newly = self.filtered - before
        items = self.items
        grouped = self.grouped
        for device_id in newly:
            item = items.get(device_id)
            if item is not None:
                item.setVisible(False)
        for device_id in before - self.filtered:
            item = items.get(device_id)
            if item is not None and device_id not in grouped:
                item.setVisible(True)
        self.device_layer.set_filtered(self.filtered)
        self.links.set_plane_filter(plane, self.filtered)
        return newly

    def _filter_one(self, device: Device) -> None:
        """An edit touched `device` while a plane is shown: hide or show it as its plane says."""
        hidden = self.hides(device)
        if hidden == (device.id in self.filtered):
            return
        if hidden:
            self.filtered.add(device.id)
        else:
            self.filtered.discard(device.id)
        item = self.items.get(device.id)
        if item is not None:
            item.setVisible(not hidden and device.id not in self.grouped)
        self.device_layer.set_device_filtered(device.id, hidden)
        self.links.set_device_hidden(device.id, hidden)

    def set_grouped(self, grouped: set[str]) -> None:
        """The devices inside collapsed groups: hidden like the filtered ones."""
        self.grouped = grouped
        hidden = grouped | self.filtered
        for device_id, item in self.items.items():
            visible = device_id not in hidden
            if item.isVisible() != visible:
                if not visible and item.isSelected():
                    item.setSelected(False)
                item.setVisible(visible)
        self.device_layer.set_hidden(grouped)

    # ---------------------------------------------------------------- legend
    def panel_geometries(self) -> list[DeviceGeometry]:
        """The distinct panel geometries the document's devices have now (for the legend)."""
        return list(self._geometries.values())

    def _count_geometry(self, geometry: DeviceGeometry | None, step: int) -> None:
        if geometry is None:
            return
        key = id(geometry)
        self._geometry_use[key] += step
        if self._geometry_use[key] > 0:
            self._geometries[key] = geometry
        else:
            del self._geometry_use[key]
            self._geometries.pop(key, None)

    # ---------------------------------------------------------------- marks told to the items
    def _tell_items(self, before: dict[str, Any], after: dict[str, Any], setter: str) -> None:
        """Tell the existing items a mark that changed from `before` to `after` (device id ->
        value): None to those that lost it, their value to the others (items still to be made
        take theirs when they are created)."""
        items = self.items
        for device_id in before.keys() - after.keys():
            item = items.get(device_id)
            if item is not None:
                getattr(item, setter)(None)
        for device_id, value in after.items():
            item = items.get(device_id)
            if item is not None:
                getattr(item, setter)(value)

    def show_badges(self, devices: dict[str, tuple[str, int]], link_errors: set[str],
                    link_warnings: set[str]) -> None:
        """Badges on devices (worst severity, number of findings) and halos on cables."""
        self._tell_items(self.badges, devices, "set_badge")
        self.badges = dict(devices)
        self.device_layer.set_badges(self.badges)
        self.links.set_marks(link_errors, link_warnings)

    def set_accents(self, accents: dict[str, QColor]) -> None:
        """A colour mode's stripe colours (devices not named: their role colour)."""
        self._tell_items(self.accents, accents, "set_accent")
        self.accents = dict(accents)
        self.device_layer.set_accents(self.accents)

    def set_highlight(self, wanted: dict[str, str]) -> None:
        """Device id -> "member" / "bottleneck" of the workload shown."""
        self._tell_items(self.highlighted, wanted, "set_highlight")
        self.highlighted = wanted
        self.device_layer.set_highlights(wanted)

    def set_far(self, far: bool) -> None:
        """Zoomed far out (the device layer draws the devices) or not (the items do)."""
        if far == self.far:
            return
        self.far = far
        existing = list(self.items.values())
        # from here on the items draw the devices: those still pending are created as they come
        # into view (the scene asks before each frame, `ensure_items_in`), the rest by the slices
        for item in existing:
            item.set_far(far)
        self.device_layer.setVisible(far)

    def update_detail_scale(self) -> bool:
        """Ports and single cables from lod.PORTS_MIN_SCALE, or lower on a small fabric (fewer
        than lod.SMALL_FABRIC_LINKS cables); True when the scale changed."""
        small = len(self.doc.links) < lod.SMALL_FABRIC_LINKS
        return self.set_detail_scale(lod.SMALL_PORTS_MIN_SCALE if small else lod.PORTS_MIN_SCALE)

    def set_detail_scale(self, scale: float) -> bool:
        """From which view scale ports are drawn; True when it changed."""
        if scale == self.detail_scale:
            return False
        self.detail_scale = scale
        self.links.detail_scale = scale
        for item in self.items.values():
            item.set_detail_scale(scale)
        return True

    def set_wire(self, wire: WireState | None) -> None:
        """The cable being drawn (None when it ends): every item marks its valid targets."""
        self.wire = wire
        for item in self.items.values():
            item.set_wire(wire)

    # ---------------------------------------------------------------- where things are
    def device_rect(self, device_id: str) -> QRectF | None:
        if device_id not in self.items:
            self.ensure_items()
        item = self.items.get(device_id)
        return item.sceneBoundingRect() if item is not None else None

    def link_line(self, link_id: str) -> QLineF | None:
        """The cable as the link layer draws it, port to port."""
        ends = self.links.endpoints(link_id)
        return QLineF(*ends) if ends is not None else super().link_line(link_id)
