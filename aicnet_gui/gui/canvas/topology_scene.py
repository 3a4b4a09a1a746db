"""The Topology scene: devices in tier bands, cables between ports, wiring by drag.

The scene mirrors the model and never holds the truth: it keeps `device id -> DeviceItem` and a
`LinkLayer` with the cables, rebuilds on `reset`, and updates only the touched ids on `changed`.
A big document opened zoomed far out is first drawn by the batched layers alone: its device
items (for clicks, selection and drags; 6,656 of them cost ~0.1 s) are created after the first
frame, a slice per event-loop turn, or at once as soon as anything asks for them.
Gestures become requests to the `Editor` (a drop, a wire, a finished drag); the model's change
event then moves the items.  The item index is a BSP tree of depth 6 (never Qt's default depth
with long lines, shared/reference/performance.md §6).
"""

from __future__ import annotations

import math
import time
from collections import Counter

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QPixmapCache, QTransform
from PySide6.QtWidgets import (
    QGraphicsScene,
    QGraphicsSceneHelpEvent,
    QGraphicsSceneMouseEvent,
    QToolTip,
)

from ...editing import layout
from ...editing.compat import PortRef, connection_problem, port_title
from ...editing.units import counted, speed_label
from ...gc_control import freeze_survivors
from ...generators.layout import H_GAP
from ...model.edits import ChangeSet
from ...model.fabric import Device
from .. import theme
from ..editor import Editor
from . import groups, lod
from .device_layer import DeviceLayer
from .geometry import DeviceGeometry, device_geometry
from .groups import GroupItem, GroupKey
from .items import BAND_PAD, TITLE_MARGIN, DeviceItem, TierBands, WireState
from .link_layer import LinkLayer
from .overview_layer import OverviewLayer
from .scene_data import TopologyData, group_key, topology_data
from .view import FabricView
from .wire_preview import WirePreview

PIXMAP_CACHE_KB = 256 * 1024
BAND_MIN_H = 140.0
LAZY_MIN_DEVICES = 1000
"""From this many devices, a document opened zoomed far out gets its device items after the
first frame (the batched device layer draws the devices meanwhile)."""
ITEM_SLICE_MS = 12.0
"""Device items created per event-loop turn after the first frame, in milliseconds."""
FIRST_FRAME_WAIT_MS = 300
"""When no view paints a new document (hidden, another tab), its items are built after this."""
AFTER_FRAME_MS = 15
"""The items are built from this long after the first frame (it reaches the screen, input
waiting since the open is handled first)."""


def link_colour(link, ports_speed: int) -> str:  # noqa: ANN001
    return theme.link_colour_hex(link.colour) or theme.speed_colour_hex(ports_speed)


def _merge(tops: np.ndarray, bottoms: np.ndarray, gap: float) -> list[tuple[float, float]]:
    """Vertical extents (top, bottom) of one tier's devices merged where they are closer than
    `gap`: sorted by top, a new extent starts where a top lies more than `gap` below every
    bottom before it."""
    order = np.argsort(tops, kind="stable")
    tops, bottoms = tops[order], bottoms[order]
    reach = np.maximum.accumulate(bottoms)
    starts = np.flatnonzero(np.r_[True, tops[1:] - reach[:-1] > gap])
    ends = np.maximum.reduceat(bottoms, starts)
    return list(zip(tops[starts].tolist(), ends.tolist(), strict=True))


def tier_bands(tiers: np.ndarray, xs: np.ndarray, ys: np.ndarray, ws: np.ndarray,
               hs: np.ndarray) -> list[tuple[int, QRectF]]:
    """The horizontal band of each tier (split where its devices leave a wide gap)."""
    left = float(xs.min()) - TITLE_MARGIN
    right = float((xs + ws).max()) + 120
    bands = []
    for tier in np.unique(tiers).tolist():
        mask = tiers == tier
        for top, bottom in _merge(ys[mask], ys[mask] + hs[mask], gap=2 * BAND_PAD):
            height = max(bottom - top + 2 * BAND_PAD, BAND_MIN_H)
            centre = (top + bottom) / 2
            bands.append((tier, QRectF(left, centre - height / 2, right - left, height)))
    bands.sort(key=lambda band: band[1].top())
    return bands


class TopologyScene(QGraphicsScene):
    """Mirror of the document on the Topology canvas."""

    #: the selection (devices or cables) changed
    selection_changed_ids = Signal()
    #: a hint for the status bar while drawing a cable ("" clears it)
    hint = Signal(str)
    #: the user double-clicked a device: edit it (its name) in the inspector
    edit_requested = Signal(str)
    #: a new document is drawn and every device has its item (after the first frame: the
    #: window starts the first full validation then, so the two do not compete for the GIL)
    built = Signal()

    def __init__(self, editor: Editor, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self.editor = editor
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.setBspTreeDepth(6)
        self.setBackgroundBrush(theme.CANVAS_BG)
        QPixmapCache.setCacheLimit(max(QPixmapCache.cacheLimit(), PIXMAP_CACHE_KB))
        self.snap = True
        #: below this view scale ports are hidden and cables bundled (lower for small fabrics)
        self.detail_scale = lod.PORTS_MIN_SCALE
        self._items: dict[str, DeviceItem] = {}
        #: the document whose device items are still to be created (from row _pending_next)
        self._pending: TopologyData | None = None
        self._pending_next = 0
        self._awaiting_frame = False
        #: the distinct panel geometries in use (for the legend) and how many devices use each
        self._geometries: dict[int, DeviceGeometry] = {}
        self._geometry_use: Counter[int] = Counter()
        self._build_timer = QTimer(self)
        self._build_timer.setSingleShot(True)
        self._build_timer.timeout.connect(self._build_slice)
        self.links = LinkLayer()
        self.addItem(self.links)
        self.device_layer = DeviceLayer()
        self.device_layer.setVisible(False)
        self.addItem(self.device_layer)
        #: devices drawn by the batched layer (zoomed far out), see set_view_scale
        self.far = False
        self.bands = TierBands()
        self.addItem(self.bands)
        self.preview = WirePreview()
        self.preview.setVisible(False)
        self.addItem(self.preview)
        # overview hook (#22): blocks per SU / pod / tier drawn instead of the devices far out
        self.overview = OverviewLayer(self)
        self.addItem(self.overview)
        self.wire: WireState | None = None
        #: collapsed groups (view state, not in the model)
        self.collapsed: dict[GroupKey, GroupItem] = {}
        self._badges: dict[str, tuple[str, int]] = {}
        self._highlighted: dict[str, str] = {}
        self._accents: dict[str, QColor] = {}
        self.colour_mode = "cable"
        self._band_timer = QTimer(self)
        self._band_timer.setSingleShot(True)
        self._band_timer.setInterval(0)
        self._band_timer.timeout.connect(self._after_moves)
        self.selectionChanged.connect(self._on_qt_selection)
        document = editor.document
        document.changed.connect(self.apply_changes)
        document.reset.connect(self.rebuild)
        self.rebuild()

    @property
    def doc(self):  # noqa: ANN201
        return self.editor.doc

    @property
    def items_by_id(self) -> dict[str, DeviceItem]:
        """Device id -> item for every device (items still pending are created first)."""
        if self._pending is not None:
            self.ensure_items()
        return self._items

    # ---------------------------------------------------------------- building from the model
    def rebuild(self) -> None:
        """Recreate every item from the model (new, open, revert).  A file opened in the
        background brings its `TopologyData` along (computed in the loader thread)."""
        self.cancel_wire()
        self._build_timer.stop()
        self._pending = None
        self.blockSignals(True)
        for item in self._items.values():
            self.removeItem(item)
        self._items.clear()
        for group in self.collapsed.values():
            self.removeItem(group)
        self.collapsed.clear()
        self._badges.clear()
        self._highlighted.clear()
        self._accents.clear()
        self.links.clear()
        self.device_layer.clear()
        self.blockSignals(False)
        doc = self.doc
        data = self.editor.document.take_scene_data()
        if data is None or data.revision != doc.revision or len(data) != len(doc.devices):
            data = topology_data(doc)
        self._build(data)
        self.overview.reset()  # overview hook (#22)
        self._update_detail_scale()
        if not len(data):
            self.bands.set_bands([])
        self._update_scene_rect()
        self.selection_changed_ids.emit()

    def _build(self, data: TopologyData) -> None:
        """One bulk load of the device layer and of every cable; the device items now, or after
        the first frame when the batched layer draws the devices (`_lazy`)."""
        n = len(data)
        if n:
            self._expect_fit(float(data.x.min()), float(data.y.min()),
                             float((data.x + data.w).max()), float((data.y + data.h).max()))
        self.device_layer.load(data.ids, data.x, data.y, data.w, data.h, data.roles, data.names)
        self.links.load_devices(data.ids, data.x + data.w / 2, data.y + data.h / 2, data.groups,
                                data.tiers)
        if data.link_ids:
            self.links.load_coded(data.link_ids, data.coords, data.palette, data.pens,
                                  data.speed_pens, data.dev_a, data.dev_b, data.rails)
        if n:
            self.bands.set_bands(tier_bands(data.tiers, data.x, data.y, data.w, data.h))
        self._geometries = {id(g): g for g in data.distinct_geometries()}
        self._geometry_use = Counter(map(id, data.geometries))
        self._pending, self._pending_next = data, 0
        if not self._lazy(n):
            self.ensure_items()
        # `built` follows the first frame (or FIRST_FRAME_WAIT_MS when no view paints)
        self._awaiting_frame = True
        self._build_timer.start(FIRST_FRAME_WAIT_MS)

    def _lazy(self, devices: int) -> bool:
        """Build the device items after the first frame?  Only when the device layer draws the
        devices (zoomed far out) and a view will paint that frame."""
        return (self.far and devices >= LAZY_MIN_DEVICES
                and any(view.isVisible() for view in self.views()))

    def view_painted(self) -> None:
        """A view painted a frame (FabricView.painted): after the first one, build the rest."""
        if self._awaiting_frame:
            self._awaiting_frame = False
            self._build_timer.start(AFTER_FRAME_MS)

    def _build_slice(self) -> None:
        """Create the pending device items for ITEM_SLICE_MS, then yield to the event loop;
        `built` when none is left."""
        self._awaiting_frame = False
        if self.links.index_pending():
            self.links.ensure_index()
            self._build_timer.start(0)
            return
        data = self._pending
        if data is not None:
            deadline = time.perf_counter() + ITEM_SLICE_MS / 1000
            while self._pending_next < len(data) and time.perf_counter() < deadline:
                stop = min(self._pending_next + 100, len(data))
                self._create_items(data, self._pending_next, stop)
                self._pending_next = stop
            if self._pending_next < len(data):
                self._build_timer.start(0)
                return
            self._pending = None
        # the items live as long as the document: keep them out of later collections, as the
        # document itself (EditorDocument freezes after a reset, before these items existed)
        freeze_survivors()
        self.built.emit()

    def building(self) -> bool:
        """True while device items of a new document are still to be created."""
        return self._pending is not None

    def ensure_items(self) -> None:
        """Create every pending device item now (something needs them: a click, an edit, a
        zoom in, a selection)."""
        data = self._pending
        if data is not None:
            self._pending = None
            self._create_items(data, self._pending_next, len(data))

    def _create_items(self, data: TopologyData, start: int, stop: int) -> None:
        """Items for the devices in rows start..stop, with the marks the scene shows now."""
        far, add, items = self.far, self.addItem, self._items
        badges, accents, highlighted = self._badges, self._accents, self._highlighted
        xs, ys = data.x[start:stop].tolist(), data.y[start:stop].tolist()
        tiers = data.tiers[start:stop].tolist()
        for k, row in enumerate(range(start, stop)):
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
            item.setPos(xs[k], ys[k])
            add(item)
            items[device_id] = item

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

    def _new_item(self, device: Device, used: set[str]) -> DeviceItem:
        item = DeviceItem(device.id)
        self._configure(item, device)
        item.used = used
        item.sync_pos(*device.position)
        if self.far:
            item.set_far(True)
        self.addItem(item)
        self._items[device.id] = item
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

    def _link_row(self, link) -> tuple | None:  # noqa: ANN001
        a_item = self.items_by_id.get(link.a.device)
        b_item = self.items_by_id.get(link.b.device)
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
                link.a.device, link.b.device, link.rail)

    def apply_changes(self, changes: ChangeSet) -> None:
        """Follow one applied edit: update only the touched devices and cables."""
        doc = self.doc
        relink: set[str] = set()
        bands = False
        for device_id in changes.devices:
            device = doc.devices.get(device_id)
            item = self.items_by_id.get(device_id)
            if device is None:
                if item is not None:
                    self._count_geometry(item.geometry, -1)
                    self.removeItem(item)
                    del self.items_by_id[device_id]
                    self.device_layer.remove(device_id)
                    bands = True
                continue
            used = {p for p in doc.ports(device) if doc.link_at(device_id, p) is not None}
            if item is None:
                item = self._new_item(device, used)
                self._count_geometry(item.geometry, +1)
                bands = True
            else:
                old_geometry = item.geometry
                self._configure(item, device)
                item.set_used(used)
                if item.sync_pos(*device.position):
                    self.device_item_moved(item)
                    bands = True
                if item.geometry is not old_geometry:
                    self._count_geometry(old_geometry, -1)
                    self._count_geometry(item.geometry, +1)
                    relink.update(doc.link_ids_of(device_id))
            self.links.set_device(*self._device_row(device, item))
        gone = [i for i in changes.links if i not in doc.links]
        if gone:
            self.links.remove_links(gone)
        self.overview.changed(changes)  # overview hook (#22)
        relink.update(i for i in changes.links if i in doc.links)
        rows = [row for row in (self._link_row(doc.links[i]) for i in relink if i in doc.links) if row]
        self.links.set_links(rows)
        self._update_detail_scale()
        if bands:
            self._band_timer.start()
        if self.collapsed and changes.devices:
            self.refresh_groups()
        if gone:
            self.selection_changed_ids.emit()

    # ---------------------------------------------------------------- validation and colour modes
    def show_badges(self, devices: dict[str, tuple[str, int]], link_errors: set[str],
                    link_warnings: set[str]) -> None:
        """Badges on devices (worst severity, number of findings) and halos on cables (items
        still to be created take theirs from `_badges`, like accents and highlights)."""
        for device_id in set(self._badges) - set(devices):
            item = self._items.get(device_id)
            if item is not None:
                item.set_badge(None)
        for device_id, badge in devices.items():
            item = self._items.get(device_id)
            if item is not None:
                item.set_badge(badge)
        self._badges = dict(devices)
        self.device_layer.set_badges(self._badges)
        self.links.set_marks(link_errors, link_warnings)
        self._group_badges()

    def badge_of(self, device_id: str) -> tuple[str, int] | None:
        return self._badges.get(device_id)

    def set_colour_mode(self, mode: str, accents: dict[str, QColor],
                        classes: dict[str, int] | None = None) -> None:
        """Colour cables by `mode` (link_layer.MODES); `accents` recolour device stripes."""
        self.colour_mode = mode
        if classes is not None:
            self.links.set_device_classes(classes)
        self.links.set_mode(mode)
        for device_id in set(self._accents) - set(accents):
            item = self._items.get(device_id)
            if item is not None:
                item.set_accent(None)
        for device_id, colour in accents.items():
            item = self._items.get(device_id)
            if item is not None:
                item.set_accent(colour)
        self._accents = dict(accents)
        self.device_layer.set_accents(self._accents)

    def set_highlight(self, members: set[str], bottleneck: str | None) -> None:
        """Show a workload: its servers and the switch that limits it."""
        wanted = {d: "member" for d in members}
        if bottleneck:
            wanted[bottleneck] = "bottleneck"
        for device_id in set(self._highlighted) - set(wanted):
            item = self._items.get(device_id)
            if item is not None:
                item.set_highlight(None)
        for device_id, kind in wanted.items():
            item = self._items.get(device_id)
            if item is not None:
                item.set_highlight(kind)
        self._highlighted = wanted
        self.device_layer.set_highlights(wanted)

    def _expect_fit(self, left: float, top: float, right: float, bottom: float) -> None:
        """A new document is fitted to the view next: choose the representation fit will need
        before the items exist, instead of switching 6,656 items right after creating them."""
        views = self.views()
        if not views:
            return
        viewport = views[0].viewport().rect()
        width, height = right - left + 400, bottom - top + 400  # the bands' margins
        scale = min(viewport.width() / max(width, 1), viewport.height() / max(height, 1))
        self.far = scale * 0.97 < lod.FAR_SCALE
        self.device_layer.setVisible(self.far)
        self.overview.set_scale(scale * 0.97)  # overview hook (#22)

    def set_view_scale(self, scale: float) -> None:
        """The view zoomed: below lod.FAR_SCALE the batched layer draws the devices."""
        far = scale < lod.FAR_SCALE
        if far != self.far:
            self.far = far
            existing = list(self._items.values())
            if not far:
                self.ensure_items()  # from here on the items draw the devices
            for item in existing:
                item.set_far(far)
            self.device_layer.setVisible(far)
        self.overview.set_scale(scale)  # overview hook (#22): may hide the device and link layers

    # ---------------------------------------------------------------- collapsed groups
    def collapse(self, keys: list[GroupKey]) -> int:
        """Collapse groups (SU, rack, rail) into boxes; returns how many were collapsed."""
        count = 0
        for key in keys:
            if key in self.collapsed or not groups.members(self.doc, key):
                continue
            item = GroupItem(key)
            self.addItem(item)
            self.collapsed[key] = item
            count += 1
        if count:
            self.refresh_groups()
        return count

    def expand(self, keys: list[GroupKey]) -> None:
        for key in keys:
            item = self.collapsed.pop(key, None)
            if item is not None:
                self.removeItem(item)
        self.refresh_groups()

    def expand_all(self) -> None:
        self.expand(list(self.collapsed))

    def hidden_devices(self) -> set[str]:
        hidden: set[str] = set()
        for item in self.collapsed.values():
            hidden.update(item.members)
        return hidden

    def refresh_groups(self) -> None:
        """Recompute members, boxes and visibility of the collapsed groups after an edit."""
        doc = self.doc
        hidden: set[str] = set()
        entries = []
        for key, group in list(self.collapsed.items()):
            ids = [d for d in groups.members(doc, key) if d not in hidden and d in self.items_by_id]
            if not ids:
                self.removeItem(self.collapsed.pop(key))
                continue
            hidden.update(ids)
            group.members = ids
            rects = [self.items_by_id[d].sceneBoundingRect() for d in ids]
            group.configure(groups.box_for(rects), key.title(doc), groups.describe(doc, ids))
            centre = group.centre()
            entries.append((ids, centre.x(), centre.y()))
        self.blockSignals(True)
        for device_id, item in self.items_by_id.items():
            visible = device_id not in hidden
            if item.isVisible() != visible:
                if not visible and item.isSelected():
                    item.setSelected(False)
                item.setVisible(visible)
        self.blockSignals(False)
        self.links.set_collapsed(entries)
        self.device_layer.set_hidden(hidden)
        self._group_badges()
        self.selection_changed_ids.emit()

    def _group_badges(self) -> None:
        for group in self.collapsed.values():
            worst: tuple[str, int] | None = None
            total = 0
            for device_id in group.members:
                badge = self._badges.get(device_id)
                if badge is not None:
                    total += badge[1]
                    if worst is None or badge[0] == "error":
                        worst = badge
            group.set_badge((worst[0], total) if worst else None)

    def group_at(self, pos: QPointF) -> GroupItem | None:
        for item in self.items(pos):
            if isinstance(item, GroupItem):
                return item
        return None

    def _update_detail_scale(self) -> None:
        small = len(self.doc.links) < lod.SMALL_FABRIC_LINKS
        scale = lod.SMALL_PORTS_MIN_SCALE if small else lod.PORTS_MIN_SCALE
        if scale != self.detail_scale:
            self.detail_scale = scale
            self.links.detail_scale = scale
            self.update()

    # ---------------------------------------------------------------- geometry bookkeeping
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

    def update_bands(self) -> None:
        """Recompute the tier bands from where the devices of each tier are."""
        items = list(self.items_by_id.values())
        if not items:
            self.bands.set_bands([])
            return
        n = len(items)
        pos = [item.pos() for item in items]
        sizes = [item.size for item in items]
        self.bands.set_bands(tier_bands(
            np.fromiter((item.tier for item in items), np.int64, n),
            np.fromiter((p.x() for p in pos), np.float64, n),
            np.fromiter((p.y() for p in pos), np.float64, n),
            np.fromiter((size[0] for size in sizes), np.float64, n),
            np.fromiter((size[1] for size in sizes), np.float64, n)))

    def _after_moves(self) -> None:
        self.update_bands()
        self._update_scene_rect()

    def _update_scene_rect(self) -> None:
        rect = self.content_rect()
        margin = max(rect.width(), rect.height(), 2000) * 0.5
        wanted = rect.adjusted(-margin, -margin, margin, margin)
        current = self.sceneRect()
        # grow at once; shrink only when the content is much smaller (no jumping scroll bars)
        if not current.contains(rect) or current.width() > 3 * wanted.width() \
                or current.height() > 3 * wanted.height():
            self.setSceneRect(wanted)

    def content_rect(self) -> QRectF:
        """The bounding box of every device and band (what "fit to view" shows): the bands
        enclose every device with a margin, so they are the box."""
        if self._band_timer.isActive():
            # pending moves: lay out the bands and grow the scene rect now (the timer would)
            self._band_timer.stop()
            self._after_moves()
        rect = self.bands.boundingRect()
        if rect.isNull():
            for item in self.items_by_id.values():
                r = item.sceneBoundingRect()
                rect = r if rect.isNull() else rect.united(r)
        if rect.isNull():
            rect = QRectF(-400, -300, 800, 600)
        return rect

    def fit_min_scale(self) -> float:
        """The least scale "fit to view" picks: readable names on a small design, else none."""
        if 0 < len(self.doc.devices) <= lod.READABLE_FIT_DEVICES:
            return lod.READABLE_SCALE
        return 0.0

    def empty_hint(self) -> str:
        if self._items or self._pending is not None:
            return ""
        return ("Drag a GPU server or a switch from the Catalog onto the canvas,\n"
                "or start from a template: File ▸ New from Template (Ctrl+Shift+N).\n\n"
                "Drag from a port to a port to draw a cable.")

    # ---------------------------------------------------------------- selection
    def selected_device_ids(self) -> list[str]:
        """Selected devices; a selected collapsed group counts as all of its members."""
        ids = []
        for item in self.selectedItems():
            if isinstance(item, DeviceItem):
                ids.append(item.device_id)
            elif isinstance(item, GroupItem):
                ids.extend(item.members)
        return ids

    def selected_link_ids(self) -> list[str]:
        return sorted(self.links.selected_ids())

    def _on_qt_selection(self) -> None:
        self.device_layer.set_selected(
            [i.device_id for i in self.selectedItems() if isinstance(i, DeviceItem)])
        self.selection_changed_ids.emit()

    def select_ids(self, device_ids, link_ids, add: bool = False) -> None:  # noqa: ANN001
        self.blockSignals(True)
        if not add:
            self.clearSelection()
        hidden = self.hidden_devices() if self.collapsed else set()
        for device_id in device_ids:
            item = self.items_by_id.get(device_id)
            if item is not None and device_id not in hidden:
                item.setSelected(True)
        for group in self.collapsed.values():  # a finding's device inside a collapsed group
            if any(d in hidden and d in group.members for d in device_ids):
                group.setSelected(True)
        self.blockSignals(False)
        self.device_layer.set_selected(
            [i.device_id for i in self.selectedItems() if isinstance(i, DeviceItem)])
        links = set(link_ids) | (self.links.selected_ids() if add else set())
        self.links.set_selected(links)
        self.selection_changed_ids.emit()

    def select_all(self) -> None:
        self.select_ids(list(self.items_by_id), self.links.link_ids())

    def select_links_in(self, rect: QRectF, add: bool) -> None:
        ids = set(self.links.links_in_rect(rect))
        if add:
            ids |= self.links.selected_ids()
        self.links.set_selected(ids)
        self.selection_changed_ids.emit()

    # ---------------------------------------------------------------- mouse: wiring, picking, moving
    def _view_scale(self, event: QGraphicsSceneMouseEvent) -> float:
        widget = event.widget()
        view = widget.parent() if widget is not None else None
        if view is not None and hasattr(view, "transform"):
            return max(view.transform().m11(), 1e-6)
        return 1.0

    def device_item_at(self, pos: QPointF, transform: QTransform | None = None) -> DeviceItem | None:
        self.ensure_items()
        for item in self.items(pos, Qt.ItemSelectionMode.IntersectsItemShape,
                               Qt.SortOrder.DescendingOrder, transform or QTransform()):
            if isinstance(item, DeviceItem) and item.isVisible():
                return item
        return None

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        scale = self._view_scale(event)
        pos = event.scenePos()
        item = self.device_item_at(pos)
        if item is not None and scale >= self.detail_scale:
            port = item.port_at(item.mapFromScene(pos))
            if port is not None:
                self.start_wire(PortRef(item.device_id, port.name))
                event.accept()
                return
        add = bool(event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier))
        if item is None and self.collapsed and self.group_at(pos) is not None:
            if not add and self.links.selected_ids():
                self.links.set_selected(set())
            super().mousePressEvent(event)  # a collapsed group's box takes the click
            return
        if item is None:
            link_id = self.links.link_at(pos.x(), pos.y(), 5.0 / scale)
            if link_id is not None:
                selected = self.links.selected_ids()
                if add:
                    selected ^= {link_id}
                    self.links.set_selected(selected)
                else:
                    self.blockSignals(True)
                    self.clearSelection()
                    self.blockSignals(False)
                    self.links.set_selected({link_id})
                self.selection_changed_ids.emit()
                event.accept()
                return
            if not add and self.links.selected_ids():
                self.links.set_selected(set())
                self.selection_changed_ids.emit()
        elif not add and not item.isSelected() and self.links.selected_ids():
            self.links.set_selected(set())
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if self.wire is not None:
            self.update_wire(event.scenePos())
            event.accept()
            return
        super().mouseMoveEvent(event)
        if event.buttons() & Qt.MouseButton.LeftButton and isinstance(self.mouseGrabberItem(), DeviceItem):
            self._follow_drag()

    def _follow_drag(self) -> None:
        """Qt moved the selected devices: snap them to the grid and bring their cables along."""
        step = theme.GRID_STEP
        for item in self.selectedItems():
            if not isinstance(item, DeviceItem):
                continue
            if self.snap:
                pos = item.pos()
                snapped = QPointF(round(pos.x() / step) * step, round(pos.y() / step) * step)
                if snapped != pos:
                    item.setPos(snapped)
            self.device_item_moved(item)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if self.wire is not None and event.button() == Qt.MouseButton.LeftButton:
            self.finish_wire(event.scenePos())
            event.accept()
            return
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton:
            self.commit_moves()

    def commit_moves(self) -> None:
        """After a drag: one undo step with every device whose position changed."""
        doc = self.doc
        moved = {}
        for item in self.selectedItems():
            if not isinstance(item, DeviceItem):
                continue
            device = doc.devices.get(item.device_id)
            if device is None:
                continue
            pos = (item.pos().x(), item.pos().y())
            if pos != tuple(device.position):
                moved[item.device_id] = pos
        if moved and not self.editor.move_devices(moved):
            for device_id in moved:  # refused: put the items back where the model has them
                item = self.items_by_id[device_id]
                item.sync_pos(*doc.devices[device_id].position)
                self.device_item_moved(item)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        widget = event.widget()
        view = widget.parent() if widget is not None else None
        if (self.overview.active and event.button() == Qt.MouseButton.LeftButton  # overview (#22)
                and isinstance(view, FabricView) and self.overview.zoom_into(event.scenePos(), view)):
            event.accept()
            return
        group = self.group_at(event.scenePos())
        if group is not None and event.button() == Qt.MouseButton.LeftButton:
            self.expand([group.key])
            event.accept()
            return
        item = self.device_item_at(event.scenePos())
        if item is not None and event.button() == Qt.MouseButton.LeftButton:
            self.select_ids([item.device_id], [])
            self.edit_requested.emit(item.device_id)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    _NUDGE = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, -1), Qt.Key.Key_Down: (0, 1)}

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Escape:
            if self.wire is not None:
                self.cancel_wire()
            else:
                self.select_ids([], [])
            event.accept()
            return
        step = self._NUDGE.get(Qt.Key(event.key()))
        devices = self.selected_device_ids()
        if step is not None and devices:
            distance = theme.GRID_STEP * (5 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1)
            doc = self.doc
            self.editor.move_devices({
                d: (doc.devices[d].position[0] + step[0] * distance, doc.devices[d].position[1] + step[1] * distance)
                for d in devices
            })
            event.accept()
            return
        super().keyPressEvent(event)

    # ---------------------------------------------------------------- drawing a cable
    def start_wire(self, source: PortRef) -> None:
        doc = self.doc
        link = doc.link_at(source.device, source.port)
        if link is not None:
            moving_end = "a" if link.a.key() == source.key() else "b"
            fixed = link.b if moving_end == "a" else link.a
            fixed_ref = PortRef(fixed.device, fixed.port)
            moving = link.id
        else:
            fixed_ref, moving_end, moving = source, None, None

        def check(key: tuple[str, str]) -> str | None:
            target = PortRef(*key)
            if moving is not None and key == source.key():
                return None
            return connection_problem(doc, fixed_ref, target, moving_link=moving)

        self.wire = WireState(source.key(), fixed_ref.key(), moving, moving_end, check)
        source_port = doc.port(source.device, source.port)
        self.wire.includes_management = source_port is not None and not source_port.group.fabric
        start = self._port_pos(fixed_ref)
        self.preview.set_line(start, start, "none", "")
        self.preview.setVisible(True)
        if moving:
            self.links.set_highlight({moving})
        verb = "Move the cable end" if moving else "Drag to a port"
        self.hint.emit(f"{verb} from {port_title(doc, fixed_ref)}; green ports fit; Esc cancels")
        self._refresh_devices()

    def _port_pos(self, ref: PortRef) -> QPointF:
        item = self.items_by_id.get(ref.device)
        pos = item.port_scene_pos(ref.port) if item else None
        return pos if pos is not None else QPointF()

    def _target_at(self, pos: QPointF) -> PortRef | None:
        item = self.device_item_at(pos)
        if item is None:
            return None
        port = item.port_at(item.mapFromScene(pos))
        return PortRef(item.device_id, port.name) if port else None

    def update_wire(self, pos: QPointF) -> None:
        wire = self.wire
        if wire is None:
            return
        target = self._target_at(pos)
        start = self._port_pos(PortRef(*wire.fixed_key))
        old_hover = wire.hover_key
        wire.hover_key = target.key() if target else None
        if target is None:
            self.preview.set_line(start, pos, "none", "")
        else:
            problem = wire.problem(target.device, target.port)
            end = self._port_pos(target)
            if problem is None:
                speed = self.doc.port(target.device, target.port)
                text = f"{port_title(self.doc, target)} · {speed_label(speed.speed_gbps) if speed else ''}"
                self.preview.set_line(start, end, "ok", text)
            else:
                self.preview.set_line(start, end, "bad", problem)
        if old_hover != wire.hover_key:
            for key in (old_hover, wire.hover_key):
                if key and key[0] in self.items_by_id:
                    self.items_by_id[key[0]].update()

    def finish_wire(self, pos: QPointF) -> bool:
        wire = self.wire
        if wire is None:
            return False
        target = self._target_at(pos)
        self.cancel_wire()
        if target is None or target.key() == wire.source_key:
            return False
        if wire.moving_link is not None:
            return self.editor.move_link_end(wire.moving_link, wire.moving_end or "b", target)
        return self.editor.connect(PortRef(*wire.fixed_key), target)

    def cancel_wire(self) -> None:
        if self.wire is None:
            return
        self.wire = None
        self.preview.setVisible(False)
        self.links.set_highlight(set())
        self.hint.emit("")
        self._refresh_devices()

    def _refresh_devices(self) -> None:
        """Repaint the visible devices (their cached pixmaps show the wire targets)."""
        for view in self.views():
            visible = view.mapToScene(view.viewport().rect()).boundingRect()
            for item in self.items(visible):
                if isinstance(item, DeviceItem):
                    item.update()
            view.viewport().update()

    # ---------------------------------------------------------------- drops and tooltips
    def drop_device(self, model_id: str, pos: QPointF) -> str | None:
        """A palette item dropped at `pos`: add the device centred there, snapped."""
        model = self.doc.catalog.devices.get(model_id)
        if model is None:
            self.editor.refuse(f"unknown device model {model_id}")
            return None
        geometry = device_geometry(model, {})
        x, y = pos.x() - geometry.width / 2, pos.y() - geometry.height / 2
        y = self._row_in_band(model.tier, y, geometry.height)
        if self.snap:
            step = theme.GRID_STEP
            x, y = round(x / step) * step, round(y / step) * step
        x = self._free_x(x, y, geometry.width, geometry.height)
        return self.editor.add_device(model_id, (x, y))

    def _free_x(self, x: float, y: float, width: float, height: float) -> float:
        """`x`, or further right until a device of `width` x `height` at (x, y) overlaps none."""
        doc, size_of = self.doc, self.editor.size_of
        boxes = sorted((d.position[0], d.position[0] + size_of(d)[0]) for d in doc.devices.values()
                       if d.position[1] < y + height and y < d.position[1] + size_of(d)[1])
        for left, right in boxes:
            if left < x + width and x < right:
                x = right + H_GAP
                if self.snap:
                    x = math.ceil(x / theme.GRID_STEP) * theme.GRID_STEP
        return x

    def _row_in_band(self, tier: int, y: float, height: float) -> float:
        """Where a device of `tier` dropped at `y` goes: where it is when that is inside a band of
        its tier, else on the top row of the nearest band of its tier; a tier without a band
        goes above or below the nearest tier (layout.tier_row_slot), never into another tier's
        band."""
        self.content_rect()  # lays out pending moves
        bands = self.bands.bands()
        centre = y + height / 2
        own = [rect for t, rect in bands if t == tier]
        if any(rect.top() <= centre <= rect.bottom() for rect in own):
            return y
        doc = self.doc
        if own:
            band = min(own, key=lambda r: min(abs(r.top() - centre), abs(r.bottom() - centre)))
            rows = [d.position[1] for d in doc.devices.values()
                    if doc.tier_of(d) == tier and band.top() <= d.position[1] <= band.bottom()]
            return min(rows) if rows else band.center().y() - height / 2
        if any(rect.top() <= centre <= rect.bottom() for _t, rect in bands):
            return layout.tier_row_slot(doc, tier, self.editor.size_of, 0.0)[1]
        return y

    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:  # noqa: N802
        pos = event.scenePos()
        text = self.tooltip_at(pos, self._help_scale(event))
        if text:
            QToolTip.showText(event.screenPos(), text)
            event.accept()
        else:
            QToolTip.hideText()
            event.ignore()

    def _help_scale(self, event: QGraphicsSceneHelpEvent) -> float:
        widget = event.widget()
        view = widget.parent() if widget is not None else None
        return view.transform().m11() if view is not None and hasattr(view, "transform") else 1.0

    def tooltip_at(self, pos: QPointF, scale: float) -> str:
        if self.overview.active:  # overview hook (#22)
            return self.overview.tooltip_at(pos, scale)
        doc = self.doc
        item = self.device_item_at(pos)
        if item is not None:
            device = doc.devices.get(item.device_id)
            if device is None:
                return ""
            model = doc.device_model(device)
            port = item.port_at(item.mapFromScene(pos)) if scale >= self.detail_scale else None
            if port is not None:
                logical = doc.port(device.id, port.name)
                link = doc.link_at(device.id, port.name)
                state = "free"
                if link is not None:
                    other = link.b if link.a.device == device.id and link.a.port == port.name else link.a
                    state = f"cable to {port_title(doc, PortRef(other.device, other.port))}"
                group = logical.group if logical else None
                mode = f"{port.legs}x{speed_label(port.speed_gbps)}"
                optic = device.cages.get(port.cage)
                optic_text = f"<br>optic: {optic.transceiver}" if optic and optic.transceiver else ""
                return (f"<b>{device.name}:{port.name}</b> · {speed_label(port.speed_gbps)}<br>"
                        f"cage {port.cage} ({group.form_factor if group else ''}, {mode}){optic_text}<br>{state}")
            free = len(doc.free_ports(device.id))
            rack = doc.racks[device.rack].name if device.rack in doc.racks else "not in a rack"
            ru = f", RU {device.ru}" if device.ru else ""
            return (f"<b>{device.name}</b><br>{model.vendor} {model.model} · {doc.role_of(device).value}<br>"
                    f"{rack}{ru}<br>{counted(len(doc.link_ids_of(device.id)), 'cable')}, "
                    f"{counted(free, 'free port')}")
        link_id = self.links.link_at(pos.x(), pos.y(), 5.0 / max(scale, 1e-6))
        if link_id is not None and link_id in doc.links:
            link = doc.links[link_id]
            port = doc.port(link.a.device, link.a.port)
            speed = speed_label(port.speed_gbps) if port else ""
            cable = link.cable or "media not chosen"
            return (f"<b>{port_title(doc, PortRef(link.a.device, link.a.port))} ⟷ "
                    f"{port_title(doc, PortRef(link.b.device, link.b.port))}</b><br>{speed} · {cable}")
        return ""

    def ensure_item_visible_rect(self, device_ids, link_ids) -> QRectF:  # noqa: ANN001
        rect = QRectF()
        boxes = {d: g.box() for g in self.collapsed.values() for d in g.members}
        for device_id in device_ids:
            item = self.items_by_id.get(device_id)
            if item is not None:
                r = boxes.get(device_id) or item.sceneBoundingRect()
                rect = r if rect.isNull() else rect.united(r)
        for link_id in link_ids:
            ends = self.links.endpoints(link_id)
            if ends:
                r = QRectF(QPointF(ends[0], ends[1]), QPointF(ends[2], ends[3])).normalized()
                rect = r if rect.isNull() else rect.united(r)
        return rect
