"""Rack names on the Floor canvas while it is zoomed too far out for the racks' own headers.

A rack draws its 9 pt name in its header from `lod.RACK_NAME_MIN_SCALE` up; fitted, a floor of
two rows of 18 racks is drawn at ~15 % (a SuperPOD of 10 racks at 33 %) and showed rows of
nameless (or 3-pixel-named) frames.  This item writes each
rack's name in device pixels: across the rack's top where the rack is wide enough on screen,
else upright along the rack's body (a rack is tall and narrow), on a light plate; where neither
fits (a hall of thousands of racks fitted whole) nothing is written.  It reads the rack items the
scene placed, holds no truth, and looks only at the racks in the part of the scene being drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from .. import theme
from . import lod

FONT_PT = 8.0
#: below this many pixels of rack width nothing is written (a hall fitted whole)
MIN_RACK_PX = 9.0

#: (name, the rack's frame in scene units) of every rack
Racks = Callable[[], Iterable[tuple[str, QRectF]]]
#: what a name must not be written under, in device pixels, for a scene-to-device transform
#: (the length labels of the selected devices' cable runs)
Avoid = Callable[[QTransform], list[QRectF]]


class RackNames(QGraphicsItem):
    """The racks' names when they are drawn too small for their headers (module docstring)."""

    def __init__(self, racks: Racks, rack_width: float, avoid: Avoid | None = None) -> None:
        """`rack_width`: how wide every rack is drawn (scene units); `avoid`: labels drawn
        over this item that a name gives way to."""
        super().__init__()
        self._racks = racks
        self._avoid = avoid
        self._rack_width = rack_width
        self._bounds = QRectF()
        self._metrics = QFontMetricsF(theme.font(FONT_PT, True))
        self._widths: dict[str, float] = {}
        #: scene units above a rack a name across its top may reach: its plate's pixels at the
        #: smallest scale a name is written (a rack MIN_RACK_PX wide)
        self._above = (self._metrics.height() + 6) * rack_width / MIN_RACK_PX
        self.setZValue(6)  # over the device items; far out 4: under a selected one (FloorScene)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def changed(self, bounds: QRectF) -> None:
        """The racks were placed again: `bounds` covers them (the item also covers the space
        above them that a name may take)."""
        bounds = bounds.adjusted(0, -self._above, 0, 0) if not bounds.isNull() else QRectF()
        if bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = bounds
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def _width(self, name: str) -> float:
        width = self._widths.get(name)
        if width is None:
            width = self._widths[name] = self._metrics.horizontalAdvance(name) + 8
        return width

    def placements(self, transform: QTransform,
                   exposed: QRectF | None = None) -> list[tuple[str, QRectF, bool]]:
        """(name, plate in device pixels, upright) per rack whose name is written under
        `transform` (scene to device), only racks meeting `exposed` (scene units)."""
        scale = transform.m11()
        if scale >= lod.RACK_NAME_MIN_SCALE:
            return []  # the racks write their own names
        if self._rack_width * scale < MIN_RACK_PX:
            return []  # a hall fitted whole: no rack is wide enough
        height = self._metrics.height() + 2
        out: list[tuple[str, QRectF, bool]] = []
        for name, frame in self._racks():
            if exposed is not None and not exposed.intersects(frame.adjusted(0, -self._above, 0, 0)):
                continue
            box = transform.mapRect(frame)
            if box.width() < MIN_RACK_PX or not name:
                continue
            width = self._width(name)
            if box.width() >= width:  # across the top, into the aisle above it
                out.append((name, QRectF(box.center().x() - width / 2, box.top() - height - 2,
                                         width, height), False))
            elif box.height() >= width + 8 and box.width() >= height:
                out.append((name, QRectF(box.center().x() - height / 2,
                                         box.center().y() - width / 2, height, width), True))
        return out

    def shown(self, transform: QTransform,
              exposed: QRectF | None = None) -> list[tuple[str, QRectF, bool]]:
        """The placements drawn: those under no label to avoid (a run's length label wins over
        a rack's name)."""
        placed = self.placements(transform, exposed)
        if placed and self._avoid is not None:
            labels = self._avoid(transform)
            placed = [p for p in placed if not any(p[1].intersects(label) for label in labels)]
        return placed

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        placed = self.shown(painter.worldTransform(), option.exposedRect)
        if not placed:
            return
        painter.save()
        painter.resetTransform()
        painter.setFont(theme.font(FONT_PT, True))
        plate = QBrush(QColor(255, 255, 255, 225))
        edge = QPen(QColor("#8a96a3"), 1)
        for name, box, upright in placed:
            painter.setPen(edge)
            painter.setBrush(plate)
            painter.drawRoundedRect(box, 3, 3)
            painter.setPen(theme.DEVICE_TEXT)
            if not upright:
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, name)
                continue
            painter.save()  # read from the bottom up, as a label on a rack's side is
            painter.translate(box.center())
            painter.rotate(-90)
            painter.drawText(QRectF(QPointF(-box.height() / 2, -box.width() / 2),
                                    QPointF(box.height() / 2, box.width() / 2)),
                             Qt.AlignmentFlag.AlignCenter, name)
            painter.restore()
        painter.restore()
