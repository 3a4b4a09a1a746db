"""The Topology scene: devices in tier bands, cables between ports, wiring by drag.

The scene shows the model and never holds the truth.  Helpers do the work:

- `TopologyMirror` (`topology_mirror.py`, the Topology's `SceneMirror`: mirror.py) owns the
  id -> item map and the batched device and link layers: it rebuilds on `reset`, applies each
  `ChangeSet` to the touched ids only, tells the items what they show (badges, colours,
  highlights, level of detail, the cable being drawn), and tells the canvas layers registered
  with it (the overview, the SU captions) each rebuild, edit and zoom after it;
- interactions (`interactions/`): the scene holds at most one active gesture (drawing a cable,
  moving devices) and hands it the mouse and key events; `PickInteraction` picks cables;
- `CollapsedGroups` (`collapsed.py`) keeps the boxes of collapsed groups;
- the plane filter (`set_plane`) shows one compute plane of a multi-plane fabric: a view
  setting like the collapsed groups (not an edit, not undone, not saved; a new document shows
  every plane), applied by the mirror to the items and layers and by the overview to its blocks;
- the tier bands, selection and the scene's timers stay here:
  a big document opened zoomed far out gets its device items after the first frame, a slice per
  event-loop turn; meanwhile a click or a frame zoomed in creates the items it reaches at once
  (`TopologyMirror.ensure_items_in`), and whatever needs every item gets them all
  (`ensure_items`).

Gestures become requests to the `Editor` (a drop, a wire, a finished drag); the model's change
event then moves the items.  The item index is a BSP tree of depth 6 (never Qt's default depth
with long lines, shared/reference/performance.md §6).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeyEvent, QPixmapCache, QTransform
from PySide6.QtWidgets import (
    QGraphicsScene,
    QGraphicsSceneHelpEvent,
    QGraphicsSceneMouseEvent,
    QGraphicsView,
    QToolTip,
)

from ...editing.compat import PortRef
from ...editing.units import natural_key
from ...gc_control import freeze_survivors
from ...model.edits import ChangeSet
from .. import theme
from ..editor import Editor
from . import lod
from .collapsed import CollapsedGroups
from .drops import drop_position
from .fabric_scene import FabricScene
from .geometry import DeviceGeometry, device_geometry
from .groups import GroupItem, GroupKey
from .hits import DeviceHit, GroupHit, LinkHit
from .interactions.base import Interaction
from .interactions.move import MoveInteraction, nudge
from .interactions.pick import PickInteraction
from .interactions.wire import WireInteraction
from .items import BAND_PAD, TITLE_MARGIN, DeviceItem, TierBands
from .link_layer import LinkLayer
from .overview_layer import OVERVIEW_MIN_DEVICES, OverviewLayer
from .scene_data import topology_data
from .su_captions import SuCaptions
from .tooltips import tooltip
from .topology_mirror import TopologyMirror, link_colour
from .traffic_layer import TrafficLayer
from .view import FabricView
from .wire_preview import WirePreview
from .wire_state import WireState

__all__ = ["TopologyScene", "link_colour", "tier_bands"]

PIXMAP_CACHE_KB = 256 * 1024
BAND_MIN_H = 140.0
LAZY_MIN_DEVICES = 1000
"""From this many devices, a document opened zoomed far out gets its device items after the
first frame (the batched device layer draws the devices meanwhile)."""
ITEM_SLICE_MS = 12.0
"""Device items created per event-loop turn after the first frame, in milliseconds."""
DEVICE_INDEX_ENDS = 100_000
"""Link ends entered into the document's device index per event-loop turn after the first
frame (~25 ms each; a 300k-link design has 600k ends)."""
LINK_ROWS = 100_000
"""Link ids entered into the cables' id index per event-loop turn after the first frame
(~25 ms each)."""
FIRST_FRAME_WAIT_MS = 300
"""When no view paints a new document (hidden, another tab), its items are built after this."""
PICK_MARGIN = 4.0
"""Scene units around a click in which pending device items are created (their selection halo
reaches 3 units beyond the panel)."""
AFTER_FRAME_MS = 15
"""The items are built from this long after the first frame (it reaches the screen, input
waiting since the open is handled first)."""


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



class TopologyScene(FabricScene):
    """The Topology canvas: a mirror of the document, the gestures on it, its view state."""

    #: the selection (devices or cables) changed
    selection_changed_ids = Signal()
    #: a hint for the status bar while drawing a cable ("" clears it)
    hint = Signal(str)
    #: the user double-clicked a device: edit it (its name) in the inspector
    edit_requested = Signal(str)
    #: a new document is drawn and every device has its item (after the first frame: the
    #: window starts the first full validation then, so the two do not compete for the GIL)
    built = Signal()
    #: the plane shown or the planes the document has changed (a choice, an open, an edit)
    planes_changed = Signal()

    def __init__(self, editor: Editor, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self.editor = editor
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.setBspTreeDepth(6)
        self.setBackgroundBrush(theme.CANVAS_BG)
        QPixmapCache.setCacheLimit(max(QPixmapCache.cacheLimit(), PIXMAP_CACHE_KB))
        self.snap = True
        self.mirror = TopologyMirror(self, lambda: self.editor.doc)
        self.links: LinkLayer = self.mirror.links
        self.device_layer = self.mirror.device_layer
        self._awaiting_frame = False
        self._device_index_built = False
        self._building = False
        self._build_timer = QTimer(self)
        self._build_timer.setSingleShot(True)
        self._build_timer.timeout.connect(self._build_slice)
        self.bands = TierBands()
        self.addItem(self.bands)
        self.preview = WirePreview()
        self.preview.setVisible(False)
        self.addItem(self.preview)
        #: the gesture in progress (at most one), see interactions/
        self.interaction: Interaction | None = None
        self.pick = PickInteraction(self)
        self.group_boxes = CollapsedGroups(self, self.mirror)
        # overview hook (#22): blocks per SU / pod / tier drawn instead of the devices far out
        self.overview = OverviewLayer(self)
        self.mirror.add_layer(self.overview)
        self.su_captions = SuCaptions(self.overview.su_blocks,  # `SU 3` closer in
                                      self.device_layer.boundingRect)
        self.mirror.add_layer(self.su_captions)
        # the traffic model's loads (gui/traffic_panel.py sets them): cables coloured by load
        self.traffic = TrafficLayer(self.links, self.mirror.link_line, lambda: self.overview.active)
        self.mirror.add_layer(self.traffic)
        #: collapsed groups (view state, not in the model)
        self.collapsed: dict[GroupKey, GroupItem] = self.group_boxes.boxes
        self.colour_mode = "cable"
        #: the compute planes of the document (switch planes, in natural order)
        self._planes: list[str] = []
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
        self.mirror.ensure_items()
        return self.mirror.items

    @property
    def far(self) -> bool:
        """Zoomed far out: the batched device layer draws the devices (see set_view_scale)."""
        return self.mirror.far

    @property
    def detail_scale(self) -> float:
        """Below this view scale ports are hidden and cables bundled (lower for small fabrics)."""
        return self.mirror.detail_scale

    @property
    def wire(self) -> WireState | None:
        """The cable being drawn, if any."""
        interaction = self.interaction
        return interaction.state if isinstance(interaction, WireInteraction) else None

    # ---------------------------------------------------------------- building from the model
    def rebuild(self) -> None:
        """Recreate every item from the model (new, open, revert).  A file opened in the
        background brings its `TopologyData` along (computed in the loader thread)."""
        if self.interaction is not None:
            self.interaction.cancel()
        self._build_timer.stop()
        self.blockSignals(True)
        self.group_boxes.clear()
        self.blockSignals(False)
        doc = self.doc
        data = self.editor.document.take_scene_data()
        if data is None or data.revision != doc.revision or len(data) != len(doc.devices):
            data = topology_data(doc)
        n = len(data)
        if n:
            self._expect_fit(float(data.x.min()), float(data.y.min()),
                             float((data.x + data.w).max()), float((data.y + data.h).max()))
        # the device items now, or after the first frame when the batched layer draws the
        # devices (`_lazy`); the overview and the SU captions are told by the mirror
        self.mirror.rebuild(data, items_now=not self._lazy(n))
        self._device_index_built = False
        self._building = True
        if n:
            self.bands.set_bands(tier_bands(data.tiers, data.x, data.y, data.w, data.h))
        # `built` follows the first frame (or FIRST_FRAME_WAIT_MS when no view paints)
        self._awaiting_frame = True
        self._build_timer.start(FIRST_FRAME_WAIT_MS)
        if not n:
            self.bands.set_bands([])
        self._update_scene_rect()
        self._planes = self._find_planes()
        self.selection_changed_ids.emit()
        self.planes_changed.emit()

    def _lazy(self, devices: int) -> bool:
        """Build the device items after the first frame?  Only when the device layer draws the
        devices (zoomed far out) and a view will paint that frame."""
        return (self.far and devices >= LAZY_MIN_DEVICES
                and any(view.isVisible() for view in self.views()))

    def before_frame(self, visible: QRectF) -> None:
        """Zoomed in while the device items are still being built: the devices in view get
        theirs before the frame (the device layer, which would draw them, is hidden)."""
        if self.links.cables_deferred() and self.links.isVisible():
            self.links.load_deferred()  # zoomed in before they came: the cables first
        if self.mirror.pending is not None and not self.far:
            self.mirror.ensure_items_in(visible)

    def view_painted(self) -> None:
        """A view painted a frame (FabricView.painted): after the first one, build the rest."""
        if self._awaiting_frame:
            self._awaiting_frame = False
            self._build_timer.start(AFTER_FRAME_MS)

    def _build_slice(self) -> None:
        """Create the pending device items for ITEM_SLICE_MS, then yield to the event loop;
        `built` when none is left."""
        self._awaiting_frame = False
        if self.links.cables_deferred():
            # a big file's cables (their ids, colours, rails, planes: scene_data.py
            # `complete_cables`), left to after its first frame, which drew the overview
            self.links.load_deferred()
            self._build_timer.start(0)
            return
        if self.links.index_pending():
            # the cables' id index: the document's id -> row map of its loaded links, made here
            # in parts of LINK_ROWS (~0.3 s in one piece at 1.2M links), not in the loader
            # before the first frame
            self.links.ensure_index(LINK_ROWS)
            self._build_timer.start(0)
            return
        if not self._device_index_built:
            # the editor's first edit (or drag) asks which links a device has: the document's
            # index is built here, after the first frame (~0.15 s at 300k links, in parts of
            # DEVICE_INDEX_ENDS link ends; nothing if it exists), not before that frame in the
            # loader, nor in the middle of that edit; a file just opened gets the index that
            # makes a device's entry when it is asked for (model/device_index.py), at once
            self._device_index_built = self.doc.build_device_index(DEVICE_INDEX_ENDS)
            self._build_timer.start(0)
            return
        if not self.mirror.build_slice(ITEM_SLICE_MS):
            self._build_timer.start(0)
            return
        # the items live as long as the document: keep them out of later collections, as the
        # document itself (EditorDocument freezes after a reset, before these items existed)
        freeze_survivors()
        self._building = False
        self.built.emit()

    def building(self) -> bool:
        """True from a new document until `built`: what follows its first frame (the device
        index, device items still to be created) is not done yet."""
        return self._building

    def items_pending(self) -> bool:
        """True while device items of a new document are still to be created."""
        return self.mirror.items_pending()

    def ensure_items(self) -> None:
        """Create every pending device item now (something needs them all: an edit, a selection
        by id, a rubber band; a click or a zoom in makes only the items it reaches)."""
        self.mirror.ensure_items()

    def panel_geometries(self) -> list[DeviceGeometry]:
        """The distinct panel geometries the document's devices have now (for the legend)."""
        return self.mirror.panel_geometries()

    def apply_changes(self, changes: ChangeSet) -> None:
        """Follow one applied edit: update only the touched devices and cables."""
        update = self.mirror.apply_changes(changes)  # then the overview and the SU captions
        self._update_detail_scale()
        if update.moved:
            self._band_timer.start()
        if changes.devices:
            self._planes_after_edit()
        if self.collapsed and changes.devices:
            self.refresh_groups()
        if update.links_gone:
            self.selection_changed_ids.emit()

    # ---------------------------------------------------------------- plane filter
    @property
    def plane(self) -> str | None:
        """The compute plane shown (None: every plane)."""
        return self.mirror.plane

    def planes(self) -> list[str]:
        """The compute planes of the document ("1", "2" ...): the planes of its switches."""
        return list(self._planes)

    def _find_planes(self) -> list[str]:
        found = {d.plane for d in self.doc.devices.values() if d.plane is not None}
        return sorted(found, key=natural_key)

    def _planes_after_edit(self) -> None:
        """An edit touched devices: a plane may have appeared or gone (the one shown: all are
        shown again)."""
        planes = self._find_planes()
        if planes == self._planes:
            return
        self._planes = planes
        if self.plane is not None and self.plane not in planes:
            self.set_plane(None)  # emits planes_changed
        else:
            self.planes_changed.emit()

    def set_plane(self, plane: str | None) -> None:
        """Show only the switches and cables of `plane` (servers stay), or every plane (None).
        A view setting: the document is not touched."""
        if plane is not None and plane not in self._planes:
            plane = None
        if plane == self.plane:
            return
        selected = bool(self.selectedItems()) or bool(self.links.selected_ids())
        self.blockSignals(True)  # hidden items lose their selection: one signal below
        self.mirror.set_plane(plane)
        self.blockSignals(False)
        self.overview.set_plane(plane, self.mirror.filtered)
        if self.collapsed:
            self.group_boxes.refresh()
        self.device_layer.set_selected(
            [i.device_id for i in self.selectedItems() if isinstance(i, DeviceItem)])
        if selected:
            self.selection_changed_ids.emit()
        self.planes_changed.emit()

    def plane_hidden(self, device_ids: list[str], link_ids: list[str]) -> bool:
        """True when the plane filter hides one of these devices or cables."""
        if self.plane is None:
            return False
        filtered = self.mirror.filtered
        if any(d in filtered for d in device_ids):
            return True
        doc, plane = self.doc, self.plane
        for link_id in link_ids:
            link = doc.links.get(link_id)
            if link is not None and (
                    (link.plane is not None and link.plane != plane)
                    or link.a.device in filtered or link.b.device in filtered):
                return True
        return False

    def plane_of(self, device_ids: list[str], link_ids: list[str]) -> str | None:
        """The one plane these objects are in (servers count for any), or None (several, or
        none)."""
        doc = self.doc
        planes = {doc.devices[d].plane for d in device_ids if d in doc.devices}
        planes |= {doc.links[i].plane for i in link_ids if i in doc.links}
        planes.discard(None)
        return planes.pop() if len(planes) == 1 else None

    # ---------------------------------------------------------------- validation and colour modes
    def show_badges(self, devices: dict[str, tuple[str, int]], link_errors: set[str],
                    link_warnings: set[str]) -> None:
        """Badges on devices (worst severity, number of findings) and halos on cables."""
        self.mirror.show_badges(devices, link_errors, link_warnings)
        self.group_boxes.show_badges()

    def badge_of(self, device_id: str) -> tuple[str, int] | None:
        return self.mirror.badges.get(device_id)

    def set_colour_mode(self, mode: str, accents: dict[str, QColor],
                        classes: dict[str, int] | None = None) -> None:
        """Colour cables by `mode` (link_layer.MODES); `accents` recolour device stripes."""
        self.colour_mode = mode
        if classes is not None:
            self.links.set_device_classes(classes)
        self.links.set_mode(mode)
        self.mirror.set_accents(accents)

    def set_highlight(self, members: set[str], bottleneck: str | None) -> None:
        """Show a workload: its servers and the switch that limits it."""
        wanted = {d: "member" for d in members}
        if bottleneck:
            wanted[bottleneck] = "bottleneck"
        self.mirror.set_highlight(wanted)

    def _expect_fit(self, left: float, top: float, right: float, bottom: float) -> None:
        """A new document is fitted to the view next: choose the representation fit will need
        before the items exist, instead of switching 6,656 items right after creating them."""
        views = self.views()
        if not views:
            return
        viewport = views[0].viewport().rect()
        width, height = right - left + 400, bottom - top + 400  # the bands' margins
        scale = min(viewport.width() / max(width, 1), viewport.height() / max(height, 1))
        self.mirror.far = scale * 0.97 < lod.FAR_SCALE
        self.device_layer.setVisible(self.mirror.far)
        self.mirror.scale_layers(scale * 0.97)  # the overview (#22)
        self.group_boxes.set_shown(not self.overview.active)
        self.su_captions.setVisible(not self.overview.active)

    def set_view_scale(self, scale: float) -> None:
        """The view zoomed: below lod.FAR_SCALE the batched layer draws the devices."""
        self.mirror.set_view_scale(scale)  # the overview (#22) may hide the device and link layers
        self.group_boxes.set_shown(not self.overview.active)
        self.su_captions.setVisible(not self.overview.active)

    def _update_detail_scale(self) -> None:
        if self.mirror.update_detail_scale():
            self.update()

    # ---------------------------------------------------------------- collapsed groups
    def collapse(self, keys: list[GroupKey]) -> int:
        """Collapse groups (SU, rack, rail) into boxes; returns how many were collapsed."""
        count = self.group_boxes.collapse(keys)
        if count:
            self.refresh_groups()
        return count

    def expand(self, keys: list[GroupKey]) -> None:
        self.group_boxes.expand(keys)
        self.refresh_groups()

    def expand_all(self) -> None:
        self.expand(list(self.collapsed))

    def hidden_devices(self) -> set[str]:
        return self.group_boxes.hidden()

    def refresh_groups(self) -> None:
        """Recompute members, boxes and visibility of the collapsed groups after an edit."""
        self.group_boxes.refresh()
        self.selection_changed_ids.emit()

    def group_at(self, pos: QPointF) -> GroupItem | None:
        return self.group_boxes.at(pos)

    # ---------------------------------------------------------------- geometry bookkeeping
    def device_item_moved(self, item: DeviceItem) -> None:
        """A device item moved (drag or sync): move its cable ends with it."""
        self.mirror.device_item_moved(item)

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

    def draws_far_out(self) -> bool:
        return len(self.doc.devices) >= OVERVIEW_MIN_DEVICES  # the overview's blocks (#38)

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

    def empty_hint(self) -> str:
        if self.mirror.items or self.mirror.pending is not None:
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
        filtered = self.mirror.filtered  # the plane filter's: never selected
        for device_id in device_ids:
            item = self.items_by_id.get(device_id)
            if item is not None and device_id not in hidden and device_id not in filtered:
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
        """Every device and cable drawn (not those the plane filter or a collapsed group hide:
        a collapsed group's box is selected instead)."""
        hidden = self.mirror.filtered
        devices = [d for d in self.items_by_id if d not in hidden]
        self.select_ids(devices, self.links.shown_link_ids())

    def select_links_in(self, rect: QRectF, add: bool) -> None:
        """The view's rubber band: the cables inside `rect` (see PickInteraction)."""
        self.pick.links_in(rect, add)

    # ---------------------------------------------------------------- what is where
    def device_item_at(self, pos: QPointF, transform: QTransform | None = None) -> DeviceItem | None:
        # the items of the devices at `pos` (not every pending one: a click right after an open
        # costs a few items, not 18,000)
        self.mirror.ensure_items_in(QRectF(pos.x() - PICK_MARGIN, pos.y() - PICK_MARGIN,
                                           2 * PICK_MARGIN, 2 * PICK_MARGIN))
        for item in self.items(pos, Qt.ItemSelectionMode.IntersectsItemShape,
                               Qt.SortOrder.DescendingOrder, transform or QTransform()):
            if isinstance(item, DeviceItem) and item.isVisible():
                return item
        return None

    def hit_at(self, pos: QPointF, scale: float) -> DeviceHit | GroupHit | LinkHit | None:
        """What is under scene `pos` in a view at `scale`: a device, else a collapsed group's
        box, else a cable (within a few pixels), else None."""
        item = self.device_item_at(pos)
        if item is not None:
            return DeviceHit(item.device_id, item.isSelected())
        group = self.group_at(pos)
        if group is not None:
            return GroupHit(group.key, group.title)
        link_id = self.links.link_at(pos.x(), pos.y(), 5.0 / max(scale, 1e-6))
        if link_id is not None:
            return LinkHit(link_id, link_id in self.links.selected_ids())
        return None

    # ---------------------------------------------------------------- the host of interactions
    def clear_item_selection(self) -> None:
        """Deselect every device and group without a signal (a cable is picked next)."""
        self.blockSignals(True)
        self.clearSelection()
        self.blockSignals(False)

    def emit_hint(self, text: str) -> None:
        self.hint.emit(text)

    def emit_selection_changed(self) -> None:
        self.selection_changed_ids.emit()

    def interaction_ended(self, interaction: Interaction) -> None:
        if self.interaction is interaction:
            self.interaction = None

    def default_mouse_move(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseMoveEvent(event)

    def default_mouse_release(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseReleaseEvent(event)

    def refresh_visible_devices(self) -> None:
        """Repaint the visible devices (their cached pixmaps show the wire targets)."""
        for view in self.views():
            visible = view.mapToScene(view.viewport().rect()).boundingRect()
            for item in self.items(visible):
                if isinstance(item, DeviceItem):
                    item.update()
            view.viewport().update()

    # ---------------------------------------------------------------- mouse and keys
    def _view_scale(self, event: QGraphicsSceneMouseEvent | QGraphicsSceneHelpEvent) -> float:
        """The scale of the view the event came from (1 without one)."""
        widget = event.widget()
        view = widget.parent() if widget is not None else None
        if isinstance(view, QGraphicsView):
            return max(view.transform().m11(), 1e-6)
        return 1.0

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        if self.interaction is not None:
            self.interaction.cancel()
        scale = self._view_scale(event)
        pos = event.scenePos()
        item = self.device_item_at(pos)
        if item is not None and scale >= self.detail_scale:
            port = item.port_at(item.mapFromScene(pos))
            if port is not None:
                self.start_wire(PortRef(item.device_id, port.name))
                event.accept()
                return
        if self.pick.press(event, item, scale):
            event.accept()
            return
        if item is None:
            self.ensure_items()  # a rubber band may start: Qt selects the items inside it
        super().mousePressEvent(event)  # Qt: device or group selection, a move, a rubber band
        if isinstance(self.mouseGrabberItem(), DeviceItem):
            self.interaction = MoveInteraction(self)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if self.interaction is not None and self.interaction.mouse_move(event):
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if self.interaction is not None and self.interaction.mouse_release(event):
            event.accept()
            return
        super().mouseReleaseEvent(event)

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

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if self.interaction is not None and self.interaction.key_press(event):
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.select_ids([], [])
            event.accept()
            return
        if nudge(self, event, self.selected_device_ids()):
            event.accept()
            return
        super().keyPressEvent(event)

    # ---------------------------------------------------------------- drawing a cable
    def start_wire(self, source: PortRef) -> None:
        """Begin drawing a cable from `source` (or moving the end of its cable)."""
        if self.interaction is not None:
            self.interaction.cancel()
        self.interaction = WireInteraction(self, source)

    # ---------------------------------------------------------------- drops and tooltips
    def drop_device(self, model_id: str, pos: QPointF) -> str | None:
        """A palette item dropped at `pos`: add the device centred there, snapped."""
        model = self.doc.catalog.devices.get(model_id)
        if model is None:
            self.editor.refuse(f"unknown device model {model_id}")
            return None
        geometry = device_geometry(model, {})
        self.content_rect()  # lays out pending moves
        where = drop_position(self.doc, self.editor.size_of, self.bands.bands(), model.tier,
                              (pos.x(), pos.y()), (geometry.width, geometry.height), self.snap)
        return self.editor.add_device(model_id, where)

    def helpEvent(self, event: QGraphicsSceneHelpEvent) -> None:  # noqa: N802
        text = self.tooltip_at(event.scenePos(), self._view_scale(event))
        if text:
            QToolTip.showText(event.screenPos(), text)
            event.accept()
        else:
            QToolTip.hideText()
            event.ignore()

    def tooltip_at(self, pos: QPointF, scale: float) -> str:
        if self.overview.active:  # overview hook (#22)
            return self.overview.tooltip_at(pos, scale)
        return tooltip(self.doc, self.device_item_at(pos), self.links, pos, scale,
                       self.detail_scale)

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
