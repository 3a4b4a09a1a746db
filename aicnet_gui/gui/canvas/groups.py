"""Collapsible groups of the Topology canvas: a scalable unit, a rack or a rail as one box.

Collapsing a group hides its devices and draws one box in their place; their cables end at the
box as one bundle per group and device (the link layer does that).  It is a view setting, not an
edit: nothing changes in the model and nothing goes on the undo stack.  Members are found from
the model each time (tags `su`, `rail` / `rail_group`, the device's rack), so a group follows
edits; a new document starts with every group expanded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QStyleOptionGraphicsItem, QWidget

from ...editing.units import counted, natural_key
from ...model.document import FabricDocument
from ...model.fabric import Device
from .. import theme

KINDS = ("su", "rack", "rail", "plane")
KIND_TITLES = {"su": "SU", "rack": "Rack", "rail": "Rail", "plane": "Plane"}
BOX_W = 320.0
BOX_H = 64.0
MAX_BOX_W = 9000.0
MAX_BOX_H = 4000.0


@dataclass(frozen=True, slots=True)
class GroupKey:
    kind: str
    value: str

    def title(self, doc: FabricDocument | None = None) -> str:
        if self.kind == "rack" and doc is not None and self.value in doc.racks:
            return f"Rack {doc.racks[self.value].name}"
        return f"{KIND_TITLES[self.kind]} {self.value}"


def group_value(doc: FabricDocument, device: Device, kind: str) -> str | None:
    """The group of `kind` the device belongs to, or None."""
    if kind == "su":
        return device.tags.get("su")
    if kind == "rack":
        return device.rack
    if kind == "plane":
        return device.plane  # a multi-plane fabric's switches; servers reach every plane
    if doc.tier_of(device) == 0:
        return None  # a server sits on every rail
    return device.tags.get("rail") or device.tags.get("rail_group")


def groups_of(doc: FabricDocument, device: Device) -> list[GroupKey]:
    """Every group the device could be collapsed with (for the context menu)."""
    keys = []
    for kind in KINDS:
        value = group_value(doc, device, kind)
        if value:
            keys.append(GroupKey(kind, value))
    return keys


def all_groups(doc: FabricDocument, kind: str) -> list[GroupKey]:
    values = {group_value(doc, d, kind) for d in doc.devices.values()} - {None}
    return [GroupKey(kind, v) for v in sorted(values, key=natural_key)]  # type: ignore[arg-type]


def members(doc: FabricDocument, key: GroupKey) -> list[str]:
    return [d.id for d in doc.devices.values() if group_value(doc, d, key.kind) == key.value]


def describe(doc: FabricDocument, device_ids: Iterable[str]) -> str:
    """`32 servers, 8 leaves`."""
    counts: dict[str, int] = {}
    for device_id in device_ids:
        device = doc.devices.get(device_id)
        if device is not None:
            role = doc.role_of(device).value
            counts[role] = counts.get(role, 0) + 1
    words = {"gpu_server": "server", "storage": "storage node", "leaf": "leaf", "spine": "spine",
             "core": "core", "mgmt": "mgmt switch"}
    parts = []
    for role in ("gpu_server", "storage", "leaf", "spine", "core", "mgmt"):
        n = counts.get(role, 0)
        if n:
            parts.append(counted(n, words[role]))
    return ", ".join(parts) or "empty"


def box_for(rects: list[QRectF]) -> QRectF:
    """The collapsed box: the members' bounding box when compact, else a box at their centre."""
    bounds = QRectF()
    cx = cy = 0.0
    for rect in rects:
        bounds = rect if bounds.isNull() else bounds.united(rect)
        cx += rect.center().x()
        cy += rect.center().y()
    if not rects:
        return QRectF(0, 0, BOX_W, BOX_H)
    cx, cy = cx / len(rects), cy / len(rects)
    if bounds.width() <= MAX_BOX_W and bounds.height() <= MAX_BOX_H:
        width, height = max(bounds.width(), BOX_W), max(bounds.height(), BOX_H)
        return QRectF(bounds.center().x() - width / 2, bounds.center().y() - height / 2, width, height)
    return QRectF(cx - BOX_W / 2, cy - BOX_H / 2, BOX_W, BOX_H)


def fitting_title(title: str, metrics: QFontMetricsF, width: float) -> str:
    """The box title that fits `width` pixels: "⊞ Rail 5", else "Rail 5", else "5" (a narrow
    box of eight rails side by side kept "⊞ Rail" and lost the number)."""
    for text in (f"⊞ {title}", title):
        if metrics.horizontalAdvance(text) <= width:
            return text
    return title.rsplit(" ", 1)[-1]


class GroupItem(QGraphicsRectItem):
    """A collapsed group on the canvas: title, what it holds, and how to open it again."""

    def __init__(self, key: GroupKey) -> None:
        super().__init__()
        self.key = key
        self.title = ""
        self.subtitle = ""
        self.badge: tuple[str, int] | None = None
        self.members: list[str] = []
        self._box = QRectF()
        self.setPen(Qt.PenStyle.NoPen)
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(9)
        self.setToolTip("Collapsed group: double-click (or right-click ▸ Expand) to show its devices")

    def configure(self, rect: QRectF, title: str, subtitle: str) -> None:
        self.setRect(rect.adjusted(-3, -3, 3, 3))
        self._box = rect
        self.title, self.subtitle = title, subtitle
        self.update()

    def set_badge(self, badge: tuple[str, int] | None) -> None:
        if badge != self.badge:
            self.badge = badge
            self.update()

    def box(self) -> QRectF:
        return self._box

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self._box)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        box = self._box
        scale = painter.worldTransform().m11()
        selected = self.isSelected()
        if selected:
            painter.setPen(QPen(theme.SELECTION_HALO, 6))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(box, 8, 8)
        pen = QPen(theme.SELECTION if selected else QColor("#7b8794"), 1.6)
        pen.setCosmetic(True)
        pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(QColor("#eef2f7")))
        painter.drawRoundedRect(box, 8, 8)
        if self.badge is not None:
            painter.fillRect(QRectF(box.right() - 10, box.top() + 1, 9, box.height() - 2),
                             theme.SEVERITY_COLOURS[self.badge[0]])
        # title and contents in screen pixels, readable at any zoom
        painter.save()
        screen = painter.worldTransform().mapRect(box)
        painter.resetTransform()
        if screen.width() >= 60 and screen.height() >= 14:
            painter.setPen(theme.DEVICE_TEXT)
            font = theme.font(9.5 if scale > 0.1 else 8.0, True)
            painter.setFont(font)
            top = QRectF(screen.left() + 8, screen.top() + 4, screen.width() - 16, 18)
            painter.drawText(top, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             fitting_title(self.title, QFontMetricsF(font), top.width()))
            if screen.height() >= 34:
                painter.setPen(theme.DEVICE_SUBTEXT)
                painter.setFont(theme.font(8.0))
                painter.drawText(QRectF(top.left(), top.bottom(), top.width(), 16),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                                 self.subtitle)
        painter.restore()

    def centre(self) -> QPointF:
        return self._box.center()
