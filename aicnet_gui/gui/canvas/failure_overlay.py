"""The failure overlay: devices and cables marked as failed by a what-if, greyed out on a canvas.

A failed device is covered with a grey hatch and crossed out; a failed cable is drawn over with
a thick grey dashed line and a cross at its middle.  The overlay only draws: the design is not
edited, so turning Failure Mode off (or opening another file) brings the canvas back as it was.
Positions come from the scene (device items' rectangles; cable ends from the topology's link
layer, else the two devices' centres), so one class serves the Topology and the Floor views.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

GREY = QColor(110, 118, 129)
COVER = QColor(222, 226, 230, 215)
CROSS = 6.0


class FailureOverlay(QGraphicsItem):
    """Grey covers over failed devices and grey dashes over failed cables, above both."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(60)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._rects: list[QRectF] = []
        self._lines: list[QLineF] = []
        self._bounds = QRectF()

    def set_failed(self, rects: Iterable[QRectF], lines: Iterable[QLineF]) -> None:
        self.prepareGeometryChange()
        self._rects, self._lines = list(rects), list(lines)
        bounds = QRectF()
        for rect in self._rects:
            bounds = bounds.united(rect)
        for line in self._lines:
            bounds = bounds.united(QRectF(line.p1(), line.p2()).normalized())
        self._bounds = bounds.adjusted(-CROSS * 2, -CROSS * 2, CROSS * 2, CROSS * 2)
        self.update()

    def clear(self) -> None:
        self.set_failed([], [])

    @property
    def counts(self) -> tuple[int, int]:
        """(devices, cables) drawn as failed."""
        return len(self._rects), len(self._lines)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(GREY, 4.0, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        for line in self._lines:
            painter.setPen(pen)
            painter.drawLine(line)
            mid = line.center()
            cross = QPen(GREY, 2.5)
            cross.setCosmetic(True)
            painter.setPen(cross)
            scale = max(painter.worldTransform().m11(), 1e-6)
            r = CROSS / scale
            painter.drawLine(QPointF(mid.x() - r, mid.y() - r), QPointF(mid.x() + r, mid.y() + r))
            painter.drawLine(QPointF(mid.x() - r, mid.y() + r), QPointF(mid.x() + r, mid.y() - r))
        outline = QPen(GREY, 2.0)
        outline.setCosmetic(True)
        painter.setPen(outline)
        painter.setBrush(QBrush(COVER))
        for rect in self._rects:
            painter.drawRect(rect)
        painter.setBrush(QBrush(GREY, Qt.BrushStyle.BDiagPattern))
        for rect in self._rects:
            painter.drawRect(rect)
            painter.drawLine(rect.topLeft(), rect.bottomRight())
            painter.drawLine(rect.bottomLeft(), rect.topRight())


def failed_geometry(device_ids: Iterable[str], link_ids: Iterable[str],
                    device_rect: Callable[[str], QRectF | None],
                    link_line: Callable[[str], QLineF | None]) -> tuple[list[QRectF], list[QLineF]]:
    """The rectangles of the failed devices and the lines of the failed cables that the scene
    can place (a device or cable not drawn there is left out)."""
    rects = [r for r in map(device_rect, device_ids) if r is not None]
    lines = [ln for ln in map(link_line, link_ids) if ln is not None]
    return rects, lines
