"""The legend in the corner of the canvas: port and cable colours by speed, port states.

It lists the speeds the open fabric uses (all of them when the fabric is empty), then what a
filled, hollow, green-ringed and crossed port means, how a bundle of cables looks when zoomed
out, and the marks of the live validation.  In another colour mode (tier, rail,
oversubscription) the first rows show that mode's colours instead.  Click the title to fold it.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from .. import theme

ROW_H = 18
WIDTH = 196


class Legend(QWidget):
    """A small overlay widget placed in the lower left corner of a view."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._speeds: list[tuple[str, str]] = [(label, colour) for _f, label, colour in theme.SPEED_COLOURS]
        self._mode_title = ""
        self._mode_rows: list[tuple[str, str]] = []
        self._folded = False
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Port and cable colours; click to fold")
        self._resize()

    def set_speeds(self, speeds_gbps: set[int]) -> None:
        if speeds_gbps:
            labels: dict[str, str] = {}
            for floor, label, colour in theme.SPEED_COLOURS:
                if any(theme.speed_colour_hex(s) == colour for s in speeds_gbps):
                    labels[label] = colour
                del floor
            rows = list(labels.items())
        else:
            rows = [(label, colour) for _f, label, colour in theme.SPEED_COLOURS]
        if rows != self._speeds:
            self._speeds = rows
            self._resize()
            self.update()

    def set_mode(self, title: str, rows: list[tuple[str, str]]) -> None:
        """Show a colour mode's rows (label, colour) instead of speeds; no rows: speeds."""
        if (title, rows) != (self._mode_title, self._mode_rows):
            self._mode_title, self._mode_rows = title, list(rows)
            self._resize()
            self.update()

    def _top_rows(self) -> list[tuple[str, str]]:
        return self._mode_rows if self._mode_rows else self._speeds

    def _resize(self) -> None:
        rows = 1 if self._folded else 1 + len(self._top_rows()) + 7
        self.resize(QSize(WIDTH, 8 + rows * ROW_H + (12 if not self._folded else 8)))
        self.reposition()

    def reposition(self) -> None:
        parent = self.parentWidget()
        if parent is None:
            return
        self.move(12, parent.height() - self.height() - 12 - _scrollbar_h(parent))

    def reserved_width(self) -> int:
        """How much of the view's left edge fitting should keep clear (none when folded)."""
        return 0 if self._folded else self.width() + 16

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self._folded = not self._folded
        self._resize()
        self.update()
        event.accept()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#ced4da"), 1))
        painter.setBrush(QBrush(QColor("#ffffff")))
        painter.drawRoundedRect(QRectF(0.5, 0.5, self.width() - 1, self.height() - 1), 6, 6)
        painter.setFont(theme.font(8.5, True))
        painter.setPen(theme.DEVICE_TEXT)
        y = 8
        title = self._mode_title or "Ports and cables"
        painter.drawText(QRectF(12, y, WIDTH - 24, ROW_H), Qt.AlignmentFlag.AlignVCenter,
                         "Legend  ▸" if self._folded else f"{title}  ▾")
        if self._folded:
            return
        y += ROW_H
        painter.setFont(theme.font(8.0))
        for label, colour in self._top_rows():
            if not self._mode_rows:
                self._swatch_used(painter, y, QColor(colour))
            painter.setPen(QPen(QColor(colour), 2.2 if not self._mode_rows else 3.0))
            painter.drawLine(QPointF(40 if not self._mode_rows else 14, y + ROW_H / 2),
                             QPointF(66, y + ROW_H / 2))
            painter.setPen(theme.DEVICE_TEXT)
            painter.drawText(QRectF(76, y, 116, ROW_H), Qt.AlignmentFlag.AlignVCenter, label)
            y += ROW_H
        y += 4
        sample = QColor(theme.speed_colour_hex(400))
        rows = [
            ("used port", lambda yy: self._swatch_used(painter, yy, sample)),
            ("free port", lambda yy: self._swatch_free(painter, yy, sample)),
            ("fits the cable you draw", lambda yy: self._swatch_ring(painter, yy, theme.TARGET_OK)),
            ("refused (hover: why)", lambda yy: self._swatch_bad(painter, yy)),
            ("bundle of N cables", lambda yy: self._swatch_bundle(painter, yy)),
            ("device with errors (count)", lambda yy: self._swatch_badge(painter, yy, "error")),
            ("cable with a warning", lambda yy: self._swatch_halo(painter, yy, theme.WARNING_HALO)),
        ]
        for text, draw in rows:
            draw(y)
            painter.setPen(theme.DEVICE_TEXT)
            painter.drawText(QRectF(40, y, 150, ROW_H), Qt.AlignmentFlag.AlignVCenter, text)
            y += ROW_H
        painter.end()

    @staticmethod
    def _cell(y: float) -> QRectF:
        return QRectF(14, y + 3, 16, ROW_H - 6)

    def _swatch_used(self, painter: QPainter, y: float, colour: QColor) -> None:
        painter.fillRect(self._cell(y), colour)

    def _swatch_free(self, painter: QPainter, y: float, colour: QColor) -> None:
        cell = self._cell(y)
        painter.fillRect(cell, QColor("#f3ecfb"))
        painter.setPen(QPen(colour, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5))

    def _swatch_ring(self, painter: QPainter, y: float, colour: QColor) -> None:
        self._swatch_free(painter, y, QColor(theme.speed_colour_hex(400)))
        painter.setPen(QPen(colour, 2.2))
        painter.drawRect(self._cell(y).adjusted(-1, -1, 1, 1))

    def _swatch_bad(self, painter: QPainter, y: float) -> None:
        cell = self._cell(y)
        painter.setPen(QPen(theme.TARGET_BAD, 1.2))
        painter.setBrush(QBrush(theme.TARGET_BAD_FILL))
        painter.drawRect(cell)
        painter.drawLine(cell.topLeft() + QPointF(1, 1), cell.bottomRight() - QPointF(1, 1))

    def _swatch_badge(self, painter: QPainter, y: float, severity: str) -> None:
        painter.setPen(QPen(QColor("#ffffff"), 1))
        painter.setBrush(QBrush(theme.SEVERITY_COLOURS[severity]))
        painter.drawEllipse(QPointF(22, y + ROW_H / 2), 6, 6)
        painter.setPen(QColor("#ffffff"))
        painter.setFont(theme.font(6.5, True))
        painter.drawText(QRectF(16, y + ROW_H / 2 - 6, 12, 12), Qt.AlignmentFlag.AlignCenter, "2")
        painter.setFont(theme.font(8.0))

    def _swatch_halo(self, painter: QPainter, y: float, halo: QColor) -> None:
        painter.setPen(QPen(halo, 7))
        painter.drawLine(QPointF(12, y + ROW_H / 2), QPointF(32, y + ROW_H / 2))
        painter.setPen(QPen(QColor(theme.speed_colour_hex(400)), 1.6))
        painter.drawLine(QPointF(12, y + ROW_H / 2), QPointF(32, y + ROW_H / 2))

    def _swatch_bundle(self, painter: QPainter, y: float) -> None:
        painter.setPen(QPen(QColor(theme.speed_colour_hex(400)), 4.5))
        painter.drawLine(QPointF(12, y + ROW_H / 2), QPointF(32, y + ROW_H / 2))


def _scrollbar_h(parent: QWidget) -> int:
    bar = getattr(parent, "horizontalScrollBar", None)
    if bar is None:
        return 0
    widget = bar()
    return widget.height() if widget.isVisible() else 0
