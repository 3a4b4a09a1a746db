"""The cable being drawn on the Topology canvas: a line from the fixed port to the cursor and a
label next to the cursor (the port it would connect to, or why it is refused).

The label ignores the view's zoom: it is laid out in pixels, as wide as its text up to
`MAX_LABEL_W` (and the view's width), wrapped onto more lines beyond that and elided only past
`MAX_LINES`; it is moved to stay inside the view.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QStyleOptionGraphicsItem, QWidget

from .. import theme

MAX_LABEL_W = 640.0
"""The widest a label gets, in pixels, before its text wraps."""
MAX_LINES = 4
PAD_X, PAD_Y = 8.0, 5.0
OFFSET = QPointF(14, 10)  # from the cursor to the label's corner
MARGIN = 8.0  # kept free between the label and the view's edges
FONT_SIZE = 9.0


def wrap_text(text: str, metrics: QFontMetricsF, max_width: float,
              max_lines: int = MAX_LINES) -> list[str]:
    """`text` in lines no wider than `max_width` pixels, broken between words; a word too wide
    for a line and the last line when more would follow are elided."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if not current or metrics.horizontalAdvance(candidate) <= max_width:
            current = candidate
            continue
        lines.append(current)
        current = word
    if current:
        lines.append(current)
    elide = Qt.TextElideMode.ElideRight
    if len(lines) > max_lines:
        rest = " ".join(lines[max_lines - 1:])
        lines = [*lines[: max_lines - 1], metrics.elidedText(rest + " …", elide, max_width)]
    return [metrics.elidedText(line, elide, max_width) for line in lines]


def place_box(anchor: QPointF, size: QSizeF, bounds: QRectF) -> QRectF:
    """Where a label of `size` goes for the cursor at `anchor`: below right of it, moved left
    and above it as needed to stay inside `bounds` (all in view pixels)."""
    box = QRectF(anchor + OFFSET, size)
    if box.right() > bounds.right() - MARGIN:
        box.moveRight(bounds.right() - MARGIN)
    if box.left() < bounds.left() + MARGIN:
        box.moveLeft(bounds.left() + MARGIN)
    if box.bottom() > bounds.bottom() - MARGIN:
        box.moveBottom(anchor.y() - OFFSET.y())
    return box


def view_of(item: QGraphicsItem) -> QGraphicsView | None:
    """The view showing `item`'s scene (the visible one first)."""
    scene = item.scene()
    views = scene.views() if scene is not None else []
    return next((v for v in views if v.isVisible()), views[0] if views else None)


class WireLabel(QGraphicsItem):
    """The label at the cursor, in pixels (it ignores the view's zoom), placed by `show_text`."""

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._lines: list[str] = []
        self._state = "none"
        self._box = QRectF()

    def lines(self) -> list[str]:
        """The text as drawn, line by line."""
        return list(self._lines)

    def box(self) -> QRectF:
        """The label's rectangle relative to the cursor, in view pixels."""
        return QRectF(self._box)

    def show_text(self, anchor: QPointF, text: str, state: str) -> None:
        """Show `text` for the cursor at scene point `anchor` (empty text: nothing)."""
        self.prepareGeometryChange()
        self.setPos(anchor)
        self._state = state
        view = view_of(self)
        if not text or view is None:
            self._lines, self._box = [], QRectF()
            return
        bounds = QRectF(view.viewport().rect())
        metrics = QFontMetricsF(theme.font(FONT_SIZE))
        max_width = max(min(MAX_LABEL_W, bounds.width() - 2 * MARGIN) - 2 * PAD_X, 40.0)
        self._lines = wrap_text(text, metrics, max_width)
        width = max(metrics.horizontalAdvance(line) for line in self._lines) + 2 * PAD_X
        size = QSizeF(width, len(self._lines) * metrics.lineSpacing() + 2 * PAD_Y)
        cursor = QPointF(view.mapFromScene(anchor))
        self._box = place_box(cursor, size, bounds).translated(-cursor)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._box.adjusted(-1, -1, 1, 1)

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if not self._lines:
            return
        colour = theme.TARGET_BAD if self._state == "bad" else theme.TARGET_OK
        painter.setPen(QPen(colour, 1))
        painter.setBrush(QBrush(QColor("#fff5f5") if self._state == "bad" else QColor("#ebfbee")))
        painter.drawRoundedRect(self._box, 4, 4)
        painter.setFont(theme.font(FONT_SIZE))
        painter.setPen(theme.DEVICE_TEXT)
        line_h = QFontMetricsF(theme.font(FONT_SIZE)).lineSpacing()
        top = self._box.top() + PAD_Y
        for line in self._lines:
            rect = QRectF(self._box.left() + PAD_X, top, self._box.width() - PAD_X, line_h)
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, line)
            top += line_h


class WirePreview(QGraphicsItem):
    """The cable being drawn: from the fixed port to the cursor, with the reason if refused."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(100)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._start = QPointF()
        self._end = QPointF()
        self._state = "none"  # none / ok / bad
        self._margin = 8.0  # scene units around the line: its cosmetic pen and end dot
        self.label = WireLabel(self)

    def set_line(self, start: QPointF, end: QPointF, state: str, text: str) -> None:
        self.prepareGeometryChange()
        self._start, self._end, self._state = start, end, state
        view = view_of(self)
        scale = view.transform().m11() if view is not None else 1.0
        self._margin = max(8.0, 6.0 / max(scale, 1e-3))
        self.label.show_text(end, text, state)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        m = self._margin
        return QRectF(self._start, self._end).normalized().adjusted(-m, -m, m, m)

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        colour = {"ok": theme.TARGET_OK, "bad": theme.TARGET_BAD}.get(self._state, theme.SOURCE_PORT)
        pen = QPen(colour, 2.2)
        pen.setCosmetic(True)
        if self._state == "none":
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLine(self._start, self._end)
        painter.setBrush(QBrush(colour))
        painter.drawEllipse(self._end, 3, 3)
