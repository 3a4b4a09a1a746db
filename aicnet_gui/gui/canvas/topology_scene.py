"""The Topology scene: devices in tier bands, cables between ports, wiring by drag.

The scene mirrors the model and never holds the truth: it keeps `device id -> DeviceItem` and a
`LinkLayer` with the cables, rebuilds on `reset`, and updates only the touched ids on `changed`.
Gestures become requests to the `Editor` (a drop, a wire, a finished drag); the model's change
event then moves the items.  The item index is a BSP tree of depth 6 (never Qt's default depth
with long lines, shared/reference/performance.md §6).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QPixmapCache, QTransform
from PySide6.QtWidgets import (
    QGraphicsScene,
    QGraphicsSceneHelpEvent,
    QGraphicsSceneMouseEvent,
    QToolTip,
)

from ...model.edits import ChangeSet
from ...model.fabric import Device
from .. import theme
from ..compat import PortRef, connection_problem, port_title
from ..editor import Editor
from ..units import speed_label
from . import lod
from .geometry import device_geometry
from .items import DeviceItem, TierBands, WirePreview, WireState
from .link_layer import LinkLayer

BAND_PAD = 50.0
PIXMAP_CACHE_KB = 256 * 1024
BAND_MIN_H = 140.0


def link_colour(link, ports_speed: int) -> str:  # noqa: ANN001
    return theme.link_colour_hex(link.colour) or theme.speed_colour_hex(ports_speed)


def group_key(device: Device, tier: int) -> str | None:
    """The bundle group of a device zoomed far out: servers of one SU (or pod, or rack), spines of
    one rail group (plane), cores of one group; leaves stay single.  Cables then become trunks
    SU -> leaf -> spine group -> core group (shared/reference/performance.md §6)."""
    tags = device.tags
    if tier == 0:
        for tag in ("su", "pod"):
            if tag in tags:
                return f"servers:{tag}:{tags[tag]}"
        return f"servers:rack:{device.rack}" if device.rack else None
    if tier == 2 and ("rail_group" in tags or "plane" in tags):
        return f"spines:{tags.get('pod', '')}:{tags.get('rail_group', tags.get('plane'))}"
    if tier == 3 and ("core_group" in tags or "group" in tags):
        return f"cores:{tags.get('core_group', tags.get('group'))}"
    return None


def _merge(spans: list[tuple[float, float]], gap: float) -> list[tuple[float, float]]:
    """Vertical extents of one tier's devices merged where they are closer than `gap`."""
    merged: list[list[float]] = []
    for top, bottom in sorted(spans):
        if merged and top - merged[-1][1] <= gap:
            merged[-1][1] = max(merged[-1][1], bottom)
        else:
            merged.append([top, bottom])
    return [(top, bottom) for top, bottom in merged]


class TopologyScene(QGraphicsScene):
    """Mirror of the document on the Topology canvas."""

    #: the selection (devices or cables) changed
    selection_changed_ids = Signal()
    #: a hint for the status bar while drawing a cable ("" clears it)
    hint = Signal(str)
    #: the user double-clicked a device: edit it (its name) in the inspector
    edit_requested = Signal(str)

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
        self.items_by_id: dict[str, DeviceItem] = {}
        self.links = LinkLayer()
        self.addItem(self.links)
        self.bands = TierBands()
        self.addItem(self.bands)
        self.preview = WirePreview()
        self.preview.setVisible(False)
        self.addItem(self.preview)
        self.wire: WireState | None = None
        self._band_timer = QTimer(self)
        self._band_timer.setSingleShot(True)
        self._band_timer.setInterval(0)
        self._band_timer.timeout.connect(self.update_bands)
        self.selectionChanged.connect(self._on_qt_selection)
        document = editor.document
        document.changed.connect(self.apply_changes)
        document.reset.connect(self.rebuild)
        self.rebuild()

    @property
    def doc(self):  # noqa: ANN201
        return self.editor.doc

    # ---------------------------------------------------------------- building from the model
    def rebuild(self) -> None:
        """Recreate every item from the model (new, open, revert)."""
        self.cancel_wire()
        self.blockSignals(True)
        for item in self.items_by_id.values():
            self.removeItem(item)
        self.items_by_id.clear()
        self.links.clear()
        self.blockSignals(False)
        doc = self.doc
        used: dict[str, set[str]] = {d: set() for d in doc.devices}
        for link in doc.links.values():
            used[link.a.device].add(link.a.port)
            used[link.b.device].add(link.b.port)
        device_rows = []
        for device in doc.devices.values():
            item = self._new_item(device, used[device.id])
            device_rows.append(self._device_row(device, item))
        self.links.set_devices(device_rows)
        self._load_links()
        self._update_detail_scale()
        self.update_bands()
        self._update_scene_rect()
        self.selection_changed_ids.emit()

    def _new_item(self, device: Device, used: set[str]) -> DeviceItem:
        item = DeviceItem(device.id)
        self._configure(item, device)
        item.used = used
        item.sync_pos(*device.position)
        self.addItem(item)
        self.items_by_id[device.id] = item
        return item

    def _configure(self, item: DeviceItem, device: Device) -> None:
        model = self.doc.device_model(device)
        item.configure(device.name, model.model, self.doc.role_of(device).value,
                       device_geometry(model, device.cages))

    def _device_row(self, device: Device, item: DeviceItem) -> tuple[str, float, float, str | None]:
        w, h = item.size
        tier = self.doc.tier_of(device)
        return (device.id, device.position[0] + w / 2, device.position[1] + h / 2, group_key(device, tier))

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
                link.a.device, link.b.device)

    def _load_links(self) -> None:
        """Every cable in one pass (the hot path of opening a 100k-cable file)."""
        origin: dict[str, tuple[float, float, dict]] = {}
        for device_id, item in self.items_by_id.items():
            if item.geometry is not None:
                pos = item.pos()
                origin[device_id] = (pos.x(), pos.y(), item.geometry.ports)
        ids: list[str] = []
        coords: list[tuple[float, float, float, float]] = []
        colours: list[str] = []
        speeds: list[str] = []
        dev_a: list[str] = []
        dev_b: list[str] = []
        speed_hex: dict[int, str] = {}
        named = theme.link_colour_hex
        for link in self.doc.links.values():
            a, b = link.a, link.b
            oa, ob = origin.get(a.device), origin.get(b.device)
            if oa is None or ob is None:
                continue
            pa, pb = oa[2].get(a.port), ob[2].get(b.port)
            if pa is None or pb is None:
                continue
            ax, ay = pa.centre
            bx, by = pb.centre
            speed = speed_hex.get(pa.speed_gbps)
            if speed is None:
                speed = speed_hex[pa.speed_gbps] = theme.speed_colour_hex(pa.speed_gbps)
            ids.append(link.id)
            coords.append((oa[0] + ax, oa[1] + ay, ob[0] + bx, ob[1] + by))
            colours.append((named(link.colour) if link.colour else None) or speed)
            speeds.append(speed)
            dev_a.append(a.device)
            dev_b.append(b.device)
        if ids:
            self.links.load(ids, np.array(coords, dtype=np.float64), colours, speeds, dev_a, dev_b)

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
                    self.removeItem(item)
                    del self.items_by_id[device_id]
                    bands = True
                continue
            used = {p for p in doc.ports(device) if doc.link_at(device_id, p) is not None}
            if item is None:
                item = self._new_item(device, used)
                bands = True
            else:
                old_geometry = item.geometry
                self._configure(item, device)
                item.set_used(used)
                if item.sync_pos(*device.position):
                    self.device_item_moved(item)
                    bands = True
                if item.geometry is not old_geometry:
                    relink.update(doc.link_ids_of(device_id))
            self.links.set_device(*self._device_row(device, item))
        gone = [i for i in changes.links if i not in doc.links]
        if gone:
            self.links.remove_links(gone)
        relink.update(i for i in changes.links if i in doc.links)
        rows = [row for row in (self._link_row(doc.links[i]) for i in relink if i in doc.links) if row]
        self.links.set_links(rows)
        self._update_detail_scale()
        if bands:
            self._band_timer.start()
        self._update_scene_rect()
        if gone:
            self.selection_changed_ids.emit()

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

    def update_bands(self) -> None:
        """Recompute the tier bands from where the devices of each tier are."""
        doc = self.doc
        extents: dict[int, list[float]] = {}
        spans_by_tier: dict[int, list[tuple[float, float]]] = {}
        for device_id, item in self.items_by_id.items():
            device = doc.devices.get(device_id)
            if device is None:
                continue
            tier = doc.tier_of(device)
            rect = item.sceneBoundingRect()
            spans_by_tier.setdefault(tier, []).append((rect.top(), rect.bottom()))
            ext = extents.setdefault(tier, [rect.left(), rect.top(), rect.right(), rect.bottom()])
            ext[0], ext[1] = min(ext[0], rect.left()), min(ext[1], rect.top())
            ext[2], ext[3] = max(ext[2], rect.right()), max(ext[3], rect.bottom())
        if not extents:
            self.bands.set_bands([])
            return
        left = min(e[0] for e in extents.values()) - 220
        right = max(e[2] for e in extents.values()) + 120
        bands = []
        for tier, spans in spans_by_tier.items():
            for top, bottom in _merge(spans, gap=2 * BAND_PAD):
                height = max(bottom - top + 2 * BAND_PAD, BAND_MIN_H)
                centre = (top + bottom) / 2
                bands.append((tier, QRectF(left, centre - height / 2, right - left, height)))
        bands.sort(key=lambda band: band[1].top())
        self.bands.set_bands(bands)

    def _update_scene_rect(self) -> None:
        rect = self.content_rect()
        margin = max(rect.width(), rect.height(), 2000) * 0.5
        self.setSceneRect(rect.adjusted(-margin, -margin, margin, margin))

    def content_rect(self) -> QRectF:
        """The bounding box of every device and band (what "fit to view" shows)."""
        if self._band_timer.isActive():
            self._band_timer.stop()
            self.update_bands()
        rect = QRectF()
        for item in self.items_by_id.values():
            r = item.sceneBoundingRect()
            rect = r if rect.isNull() else rect.united(r)
        if not self.bands.boundingRect().isNull():
            rect = self.bands.boundingRect() if rect.isNull() else rect.united(self.bands.boundingRect())
        if rect.isNull():
            rect = QRectF(-400, -300, 800, 600)
        return rect

    def empty_hint(self) -> str:
        if self.items_by_id:
            return ""
        return ("Drag a GPU server or a switch from the Catalog onto the canvas,\n"
                "or start from a template: File ▸ New from Template (Ctrl+Shift+N).\n\n"
                "Drag from a port to a port to draw a cable.")

    # ---------------------------------------------------------------- selection
    def selected_device_ids(self) -> list[str]:
        return [i.device_id for i in self.selectedItems() if isinstance(i, DeviceItem)]

    def selected_link_ids(self) -> list[str]:
        return sorted(self.links.selected_ids())

    def _on_qt_selection(self) -> None:
        self.selection_changed_ids.emit()

    def select_ids(self, device_ids, link_ids, add: bool = False) -> None:  # noqa: ANN001
        self.blockSignals(True)
        if not add:
            self.clearSelection()
        for device_id in device_ids:
            item = self.items_by_id.get(device_id)
            if item is not None:
                item.setSelected(True)
        self.blockSignals(False)
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
        for item in self.items(pos, Qt.ItemSelectionMode.IntersectsItemShape,
                               Qt.SortOrder.DescendingOrder, transform or QTransform()):
            if isinstance(item, DeviceItem):
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
        if self.snap:
            step = theme.GRID_STEP
            x, y = round(x / step) * step, round(y / step) * step
        return self.editor.add_device(model_id, (x, y))

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
                    f"{rack}{ru}<br>{len(doc.link_ids_of(device.id))} cables, {free} free ports")
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
        for device_id in device_ids:
            item = self.items_by_id.get(device_id)
            if item is not None:
                r = item.sceneBoundingRect()
                rect = r if rect.isNull() else rect.united(r)
        for link_id in link_ids:
            ends = self.links.endpoints(link_id)
            if ends:
                r = QRectF(QPointF(ends[0], ends[1]), QPointF(ends[2], ends[3])).normalized()
                rect = r if rect.isNull() else rect.united(r)
        return rect
