"""The Floor canvas's items: rack elevations, devices in RU slots, the tray, runs, drop marks.

`RackItem` draws a rack (frame, name, RU ruler, slots; the hatched space a rack system's trays
leave), `FloorDeviceItem` a device in its slots or as a chip in the tray, `Tray` the area of
devices in no rack, `RouteOverlay` the cable runs of the selected devices with their lengths,
`DropIndicator` the slots a dragged device would take.  The sizes here (RU_PX, RACK_W ...) are
the Floor's scale; floor_geometry.py places the racks with them.  Items hold what they draw and
never read the document: the Floor's mirror (floor_mirror.py) configures them.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...model.fabric import Rack
from .. import theme
from . import lod
from .floor_far_layer import tint
from .items import elide, static_text
from .rack_contents import RackContents, free_runs

RU_PX = 14.0
RACK_W = 166.0
RAIL = 18.0
HEADER = 30.0
FOOTER = 8.0
PITCH_X = RACK_W + 22.0
AISLE = 150.0
TRAY_W = 200.0
TRAY_GAP = 120.0
USED_INSET = 10.0  # "8/48 U" keeps this far from the rack's right edge
#: racks and devices can be selected and dragged (combined once: 20,000 items of a big hall
#: each combining enum flags cost ~70 ms)
_MOVABLE = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable | QGraphicsItem.GraphicsItemFlag.ItemIsMovable


class RackItem(QGraphicsItem):
    """A rack elevation: frame, name, RU ruler and slots."""

    def __init__(self, rack_id: str) -> None:
        super().__init__()
        self.rack_id = rack_id
        self.setFlags(_MOVABLE)
        self.setZValue(1)
        self.empty = False  # drawn by the far layer (FloorMirror.far_flag)
        self.name = ""
        self.subtitle = ""
        self.height_ru = 48
        self.used_ru = 0
        self.system = ""  # a rack-scale system (GB300 NVL72 rack): its trays leave no free slot
        self.free: list[tuple[int, int]] = []
        self._rect = QRectF()

    def configure(self, rack: Rack, contents: RackContents | None = None) -> None:
        contents = contents or RackContents()
        self.prepareGeometryChange()
        self.name = rack.name
        self.subtitle = (f"row {rack.row} · pos {rack.position}" if rack.x_m is None
                         else f"{rack.x_m:g} m, {rack.y_m or 0:g} m")
        self.height_ru = rack.height_ru
        self.used_ru = contents.used_ru
        self.system = contents.system
        self.free = free_runs(contents.occupied, rack.height_ru) if self.system else []
        self._rect = QRectF(0, 0, RACK_W, HEADER + rack.height_ru * RU_PX + FOOTER)
        self.update()

    def body_top(self) -> float:
        return self.pos().y() + HEADER

    def frame(self) -> QRectF:
        """The rack's frame in scene units (its header, RU slots and footer)."""
        return self._rect.translated(self.pos())

    def used_text(self) -> str:
        if self.system:  # "GB300 NVL72": the rack is the system, not 18 of 48 U
            return self.system.removesuffix(" rack")
        return f"{self.used_ru}/{self.height_ru} U"

    def system_text(self) -> str:
        """What the slots a rack system's trays leave hold ("" for a rack of its own devices)."""
        if not self.system:
            return ""
        return f"{self.system}: NVLink switch trays, power shelves (not drawn)"

    def run_rect(self, low: int, count: int) -> QRectF:
        """The slots of `count` RU from RU `low` up, in item coordinates."""
        top = HEADER + (self.height_ru - (low - 1) - count) * RU_PX
        return QRectF(RAIL, top, RACK_W - 2 * RAIL, count * RU_PX)

    def _paint_system(self, painter: QPainter, scale: float) -> None:
        """Hatch the slots the system's trays leave: the system's own, not free space."""
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(theme.RACK_FRAME, Qt.BrushStyle.BDiagPattern))
        for low, count in self.free:
            painter.drawRect(self.run_rect(low, count))
        if scale < lod.LABELS_MIN_SCALE or not self.free:
            return
        low, count = max(self.free, key=lambda run: run[1])
        if count < 4:
            return
        top = HEADER + (self.height_ru - (low - 1) - count) * RU_PX
        box = QRectF(RAIL + 6, top + count * RU_PX / 2 - 2 * RU_PX, RACK_W - 2 * RAIL - 12, 4 * RU_PX)
        painter.setBrush(QBrush(QColor("#f8f9fa")))
        painter.setPen(QPen(theme.RACK_FRAME, 0.8))
        painter.drawRect(box)
        painter.setPen(theme.DEVICE_SUBTEXT)
        painter.setFont(theme.font(7.0))
        painter.drawText(box.adjusted(3, 1, -3, -1), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                         self.system_text())

    def used_rect(self) -> QRectF:
        """Where "8/48 U" goes (item coordinates): right-aligned, USED_INSET inside the frame."""
        width = QFontMetricsF(theme.font(7.0)).horizontalAdvance(self.used_text()) + 2
        right = RACK_W - USED_INSET
        return QRectF(right - width, 15, width, 13)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect.adjusted(-3, -3, 3, 3)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        scale = painter.worldTransform().m11()
        rect = self._rect
        selected = self.isSelected()
        if selected:
            painter.setPen(QPen(theme.SELECTION_HALO, 6))
            painter.drawRect(rect)
        painter.setPen(QPen(theme.SELECTION if selected else theme.RACK_FRAME, 2 if selected else 1.4))
        painter.setBrush(QBrush(theme.RACK_FILL))
        painter.drawRect(rect)
        body = QRectF(RAIL, HEADER, RACK_W - 2 * RAIL, self.height_ru * RU_PX)
        painter.fillRect(body, QColor("#f8f9fa"))
        if scale >= lod.LABELS_MIN_SCALE:
            painter.setPen(QPen(theme.RACK_SLOT, 0))
            for ru in range(1, self.height_ru):
                y = HEADER + ru * RU_PX
                painter.drawLine(QPointF(RAIL, y), QPointF(RACK_W - RAIL, y))
        if self.system:
            self._paint_system(painter, scale)
        if scale >= lod.LABELS_MIN_SCALE:
            if scale >= lod.RACK_NAME_MIN_SCALE:  # below, RackNames writes it readably
                painter.setPen(theme.DEVICE_TEXT)
                painter.setFont(theme.font(9.0, True))  # static texts: drawn in the painter's font
                painter.drawStaticText(QPointF(8, 3), static_text(
                    elide(self.name, RACK_W - 16, 9.0, True), True, 9.0))
            painter.setPen(theme.DEVICE_SUBTEXT)
            painter.setFont(theme.font(7.0))
            used = self.used_rect()
            painter.drawText(used, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, self.used_text())
            painter.drawStaticText(QPointF(8, 16), static_text(
                elide(self.subtitle, used.left() - 14, 7.0), False, 7.0))
            if scale >= 0.6:
                painter.setFont(theme.font(6.0))
                for ru in range(1, self.height_ru + 1):
                    if ru % 5 and ru != 1:
                        continue
                    y = HEADER + (self.height_ru - ru) * RU_PX
                    painter.drawStaticText(QPointF(2, y + 1), static_text(str(ru), False, 6.0))
        painter.setPen(QPen(theme.RACK_FRAME, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(body)
        if selected and scale < lod.FAR_SCALE:  # the 6-unit halo is under a pixel far out
            outline = QPen(theme.SELECTION, 4)
            outline.setCosmetic(True)
            painter.setPen(outline)
            painter.drawRect(rect)


class FloorDeviceItem(QGraphicsItem):
    """A device in its RU slots (or waiting in the tray)."""

    def __init__(self, device_id: str) -> None:
        super().__init__()
        self.device_id = device_id
        self.setFlags(_MOVABLE)
        self.setZValue(5)
        self.empty = False  # drawn by the far layer (FloorMirror.far_flag)
        self.in_tray = False
        self.rack_id: str | None = None  # the rack it is drawn in (None: the tray)
        self.name = ""
        self.model_text = ""
        self.role = "leaf"
        self.height_ru = 1
        self.shown_ru = 1
        self._rect = QRectF()

    def configure(self, name: str, model_text: str, role: str, height_ru: int,
                  shown_ru: int | None = None) -> None:
        """`height_ru` is the device's height (what a slot must hold); `shown_ru` how tall it is
        drawn (a chip of 2 RU in the tray), by default its height."""
        self.prepareGeometryChange()
        self.name, self.model_text, self.role = name, model_text, role
        self.height_ru = max(height_ru, 1)
        self.shown_ru = max(shown_ru or self.height_ru, 1)
        self._rect = QRectF(0, 0, RACK_W - 2 * RAIL, self.shown_ru * RU_PX)
        self.update()

    def slots(self) -> QRectF:
        """The slots it is drawn in, in scene units."""
        return self._rect.translated(self.pos())

    def show_full_height(self) -> None:
        """Dragged out of the tray: drawn as tall as the slots it would take."""
        if self.shown_ru != self.height_ru:
            self.configure(self.name, self.model_text, self.role, self.height_ru)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect.adjusted(-3, -3, 3, 3)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self._rect)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        scale = painter.worldTransform().m11()
        rect = self._rect.adjusted(0.5, 0.5, -0.5, -0.5)
        selected = self.isSelected()
        if selected and scale < lod.FAR_SCALE:  # a 5-unit halo is under a pixel far out:
            painter.fillRect(rect, theme.SELECTION)  # filled, as the Topology's far layer does
            return
        colour = theme.role_colour(self.role)
        fill = tint(colour)
        if selected:
            painter.setPen(QPen(theme.SELECTION_HALO, 5))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect)
        painter.setPen(QPen(theme.SELECTION if selected else colour.darker(130), 1.6 if selected else 1))
        painter.setBrush(QBrush(fill))
        painter.drawRect(rect)
        painter.fillRect(QRectF(rect.x(), rect.y(), 4, rect.height()), colour)
        if scale < lod.LABELS_MIN_SCALE:
            return
        painter.setPen(theme.DEVICE_TEXT)
        painter.setFont(theme.font(7.5, True))
        painter.drawStaticText(QPointF(8, max(0.0, rect.height() / 2 - 7 - (5 if self.shown_ru >= 2 else 0))),
                               static_text(elide(self.name, rect.width() - 12, 7.5, True), True, 7.5))
        if self.shown_ru >= 2:
            painter.setPen(theme.DEVICE_SUBTEXT)
            painter.setFont(theme.font(6.5))
            painter.drawStaticText(QPointF(8, rect.height() / 2 + 1),
                                   static_text(elide(self.model_text, rect.width() - 12, 6.5), False, 6.5))


class DropIndicator(QGraphicsItem):
    """The RU slots a dragged device would take, green or red with the reason."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(50)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._rect = QRectF()
        self._ok = True
        self._text = ""

    def show_at(self, rect: QRectF, ok: bool, text: str) -> None:
        self.prepareGeometryChange()
        self._rect, self._ok, self._text = rect, ok, text
        self.setVisible(True)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect.adjusted(-4, -4, 600, 40)

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        colour = theme.TARGET_OK if self._ok else theme.TARGET_BAD
        painter.setPen(QPen(colour, 2.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self._rect)
        if self._text:
            painter.save()
            anchor = painter.worldTransform().map(self._rect.topRight())
            painter.resetTransform()
            painter.setFont(theme.font(8.5))
            width = painter.fontMetrics().horizontalAdvance(self._text) + 14
            box = QRectF(anchor.x() + 8, anchor.y(), width, 22)
            painter.setPen(QPen(colour, 1))
            painter.setBrush(QBrush(QColor("#ffffff")))
            painter.drawRoundedRect(box, 4, 4)
            painter.setPen(theme.DEVICE_TEXT)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self._text)
            painter.restore()


class RouteOverlay(QGraphicsItem):
    """Cable runs of the selected devices: up to the tray, across, down; length labels.

    A label never covers a device: the label of a run between racks sits above its tray line
    (over the racks' tops, not their headers), the label of a run inside one rack below the rack
    (in the aisle)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(20)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._routes: list[tuple[list[QPointF], QColor]] = []
        self._labels: list[tuple[QPointF, str, QColor, str]] = []
        self._bounds = QRectF()

    def set_routes(self, routes: list[tuple[list[QPointF], QColor]],
                   labels: list[tuple[QPointF, str, QColor, str]]) -> None:
        """`labels`: (anchor, text, colour, side), side "above" or "below" the anchor."""
        self.prepareGeometryChange()
        self._routes, self._labels = routes, labels
        bounds = QRectF()
        for points, _c in routes:
            for p in points:
                r = QRectF(p.x() - 80, p.y() - 30, 160, 60)
                bounds = r if bounds.isNull() else bounds.united(r)
        self._bounds = bounds.adjusted(-400, -400, 400, 400) if not bounds.isNull() else bounds
        self.update()

    def labels(self) -> list[tuple[QPointF, str, QColor, str]]:
        return list(self._labels)

    def routes(self) -> list[tuple[list[QPointF], QColor]]:
        return list(self._routes)

    def label_rects(self, transform: QTransform) -> list[tuple[QRectF, str]]:
        """The box of every label in device pixels under `transform` (scene -> view)."""
        metrics = QFontMetricsF(theme.font(7.5, True))
        out = []
        placed: list[QRectF] = []
        for anchor_scene, text, _colour, side in self._labels:
            anchor = transform.map(anchor_scene)
            w = metrics.horizontalAdvance(text) + 12
            if side == "below":
                box = QRectF(anchor.x() - w / 2, anchor.y() + 3, w, 20)
            else:
                box = QRectF(anchor.x() - w / 2, anchor.y() - 23, w, 20)
            # labels that would cover each other stack, in pixels (they keep their size at
            # every zoom): above the racks upwards, below a rack downwards
            step = 22 if side == "below" else -22
            while any(box.intersects(other) for other in placed):
                box.translate(0, step)
            placed.append(box)
            out.append((box, text))
        return out

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        for points, colour in self._routes:
            pen = QPen(colour, 1.8)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.drawPolyline(points)
        painter.save()
        transform = painter.worldTransform()
        painter.resetTransform()
        painter.setFont(theme.font(7.5, True))
        for (box, text), (_a, _t, colour, _s) in zip(self.label_rects(transform), self._labels, strict=True):
            painter.setPen(QPen(colour, 1.2))
            painter.setBrush(QBrush(QColor("#ffffff")))
            painter.drawRoundedRect(box, 4, 4)
            painter.setPen(theme.DEVICE_TEXT)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()


class Tray(QGraphicsItem):
    """The area on the left holding devices that are in no rack yet."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._rect = QRectF()
        self.count = 0

    def set_rect(self, rect: QRectF, count: int) -> None:
        self.prepareGeometryChange()
        self._rect = rect
        self.count = count
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        pen = QPen(QColor("#e0c36a"), 1.2)
        pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(theme.UNPLACED_FILL))
        painter.drawRoundedRect(self._rect, 8, 8)
        painter.setPen(theme.DEVICE_TEXT)
        painter.setFont(theme.font(9.0, True))
        painter.drawStaticText(self._rect.topLeft() + QPointF(12, 8),
                               static_text(f"Not in a rack ({self.count})", True, 9.0))
        painter.setPen(theme.DEVICE_SUBTEXT)
        painter.setFont(theme.font(7.5))
        painter.drawStaticText(self._rect.topLeft() + QPointF(12, 24),
                               static_text("drag into a rack slot", False, 7.5))
