"""The as-built overlay: what `aicnet verify` found, drawn over a canvas.

Missing cables are dashed red lines between the two planned devices; unexpected cables dotted
purple lines between the devices they were seen on; a cable on the wrong port, device or rail
(and a swapped pair) is a dash-dot orange line to where it really ends, and every design port
concerned is marked with an orange ring on its device.  Positions come from the scene's device
items (`items_by_id`), so one overlay class serves the Topology and the Floor views.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...asbuilt import Difference
from ...model.document import FabricDocument

STYLES: dict[str, tuple[str, Qt.PenStyle]] = {
    "missing": ("#e03131", Qt.PenStyle.DashLine),
    "unexpected": ("#7048e8", Qt.PenStyle.DotLine),
    "moved": ("#f76707", Qt.PenStyle.DashDotLine),
}
MARK = "#f76707"
RING = 9.0


def _style(kind: str) -> str:
    return kind if kind in ("missing", "unexpected") else "moved"


class AsBuiltOverlay(QGraphicsItem):
    """Lines and rings for a list of differences, above devices and cables."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(50)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._lines: list[tuple[str, QPointF, QPointF]] = []
        self._rings: list[QPointF] = []
        self._rect = QRectF()
        self.current: set[int] = set()

    def set_differences(self, doc: FabricDocument, differences: Iterable[Difference],
                        position: Callable[[str], QPointF | None]) -> None:
        """Draw `differences`; `position(device_id)` is a device's centre in this scene."""
        self.prepareGeometryChange()
        self._lines, self._rings = [], []
        for diff in differences:
            style = _style(diff.kind)
            if diff.kind == "missing":
                for link_id in diff.links:
                    link = doc.links.get(link_id)
                    if link is not None:
                        self._line(style, position(link.a.device), position(link.b.device))
                continue
            ends = [p for p in diff.ports if p[0] in doc.devices]
            if diff.kind == "unexpected" and len(ends) >= 2:
                self._line(style, position(ends[0][0]), position(ends[1][0]))
            elif diff.kind in ("wrong_port", "wrong_device", "wrong_rail") and len(ends) >= 3:
                self._line(style, position(ends[0][0]), position(ends[2][0]))
            elif diff.kind in ("swapped", "wrong_rail") and len(ends) == 4:
                self._line(style, position(ends[0][0]), position(ends[1][0]))
                self._line(style, position(ends[2][0]), position(ends[3][0]))
            for device in dict.fromkeys(p[0] for p in ends):
                point = position(device)
                if point is not None:
                    self._rings.append(point)
        points = [p for _, a, b in self._lines for p in (a, b)] + self._rings
        if points:
            xs, ys = [p.x() for p in points], [p.y() for p in points]
            self._rect = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(
                -RING * 2, -RING * 2, RING * 2, RING * 2)
        else:
            self._rect = QRectF()
        self.update()

    def _line(self, style: str, a: QPointF | None, b: QPointF | None) -> None:
        if a is not None and b is not None:
            self._lines.append((style, a, b))

    def clear(self) -> None:
        self.prepareGeometryChange()
        self._lines, self._rings, self._rect = [], [], QRectF()
        self.update()

    @property
    def line_count(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for style, _a, _b in self._lines:
            counts[style] = counts.get(style, 0) + 1
        return counts

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for style, a, b in self._lines:
            colour, dash = STYLES[style]
            pen = QPen(QColor(colour), 3.0, dash)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.drawLine(a, b)
        pen = QPen(QColor(MARK), 2.5)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for point in self._rings:
            painter.drawEllipse(point, RING, RING)
