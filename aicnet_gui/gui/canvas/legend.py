"""The legend in the corner of the canvas: what the colours of the current colour mode mean.

Ports are always coloured by speed; cables by the colour mode (their jacket colour by default,
else speed, tier pair, rail or the oversubscription of their switch).  `LegendSpec` says what a
mode shows: its cable colours first, then the speeds the open fabric uses (all of them when the
fabric is empty), then what a filled, hollow, green-ringed and crossed port means, how a bundle
of cables looks when zoomed out, and the marks of the live validation.  The widget is as wide as
its longest text.

The legend never covers the canvas: it sits in a strip on the left of its view, outside the
viewport (`QAbstractScrollArea.setViewportMargins`), so fitting, band titles and the empty-canvas
hint all use what is left.  Click it to fold it to a narrow chip ("Legend" written upwards),
which keeps a strip of CHIP_W pixels; click the chip to unfold it.  In a view narrower than
AUTO_FOLD_W the legend folds by itself until the user clicks it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontMetrics,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QWidget

from .. import theme

ROW_H = 18
WIDTH = 196  # the narrowest the legend gets
CHIP_W = 22  # the width of the folded legend (and of the strip it keeps)
CHIP_H = 84
GAP = 6  # between the legend and the viewport
AUTO_FOLD_W = 900  # a view narrower than this starts with the legend folded (until a click)
TEXT_X = 76  # where the label of a colour row starts
STATE_X = 40  # where the label of a port-state row starts


@dataclass(frozen=True)
class LegendSpec:
    """What the legend shows in a colour mode.

    `rows` (label, colour) are the cable colours of the mode, under `title`; the speed rows
    follow under `speed_title` (empty: the speed rows come first, under `title`), with a cable
    line next to each port swatch when `speed_cables` (cables drawn in their speed colour).
    `bundle` is the label of the bundle row (a bundle of cables drawn when zoomed out) and
    `bundle_colour` its colour (empty: a speed colour, as bundles are in the cable mode).
    """

    title: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    speed_title: str = ""
    speed_cables: bool = False
    bundle: str = "bundle of N cables"
    bundle_colour: str = ""


SPEED_SPEC = LegendSpec("Ports and cables by speed", speed_cables=True)


class Legend(QWidget):
    """A small overlay widget placed in the lower left corner of a view."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._speeds: list[tuple[str, str]] = [(label, colour) for _f, label, colour in theme.SPEED_COLOURS]
        self._spec = SPEED_SPEC
        self._folded = False
        self._wanted = True  # shown unless View > Legend is off
        self._chosen = False  # the user folded or unfolded it: no more folding by width
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Port and cable colours; click to fold")
        self._resize()

    # ---------------------------------------------------------------- content
    def set_speeds(self, speeds_gbps: set[int]) -> None:
        """The speeds the fabric's ports run at (none: every speed)."""
        rows = [(label, colour) for _floor, label, colour in theme.SPEED_COLOURS
                if not speeds_gbps or any(theme.speed_colour_hex(s) == colour for s in speeds_gbps)]
        if rows != self._speeds:
            self._speeds = rows
            self._changed()

    def set_spec(self, spec: LegendSpec) -> None:
        """Show what a colour mode draws (colouring.legend_spec)."""
        if spec != self._spec:
            self._spec = spec
            self._changed()

    def spec(self) -> LegendSpec:
        return self._spec

    def title(self) -> str:
        return self._spec.title

    def colour_rows(self) -> list[tuple[str, str]]:
        """(label, colour) of the cable colours of the mode (empty in the speed mode)."""
        return list(self._spec.rows)

    def speed_rows(self) -> list[tuple[str, str]]:
        """(label, colour) of the speeds shown."""
        return list(self._speeds)

    def texts(self) -> list[str]:
        """Every text of the legend, top to bottom (the folded legend: its title only)."""
        return [text for _kind, text, _colour in self._lines()]

    def _lines(self) -> list[tuple[str, str, str]]:
        """(kind, text, colour) per line: title, colour, heading, speed, gap, state."""
        spec = self._spec
        if self._folded:
            return [("title", "Legend  ▸", "")]
        lines = [("title", f"{spec.title}  ▾", "")]
        lines += [("colour", label, colour) for label, colour in spec.rows]
        if spec.speed_title:
            lines.append(("heading", spec.speed_title, ""))
        lines += [("speed", label, colour) for label, colour in self._speeds]
        lines.append(("gap", "", ""))
        lines += [("state", text, "") for text, _draw in self._states()]
        return lines

    def _states(self) -> list[tuple[str, Callable[[QPainter, float], None]]]:
        sample = QColor(theme.speed_colour_hex(400))
        return [
            ("used port", lambda p, y: self._swatch_used(p, y, sample)),
            ("free port", lambda p, y: self._swatch_free(p, y, sample)),
            ("fits the cable you draw", lambda p, y: self._swatch_ring(p, y, theme.TARGET_OK)),
            ("refused (hover: why)", lambda p, y: self._swatch_bad(p, y)),
            (self._spec.bundle, lambda p, y: self._swatch_bundle(p, y)),
            ("device with errors (count)", lambda p, y: self._swatch_badge(p, y, "error")),
            ("cable with a warning", lambda p, y: self._swatch_halo(p, y, theme.WARNING_HALO)),
        ]

    # ---------------------------------------------------------------- geometry
    def _changed(self) -> None:
        self._resize()
        self.update()

    def folded(self) -> bool:
        return self._folded

    def set_folded(self, folded: bool, chosen: bool = True) -> None:
        """Fold or unfold; `chosen` (a click, or a caller acting for the user) ends the folding
        by the view's width."""
        self._chosen = self._chosen or chosen
        if folded != self._folded:
            self._folded = folded
            self._changed()

    def reveal(self) -> None:
        """Unfold, unless the user folded it (a colour mode that means nothing without its
        legend was just chosen)."""
        if not self._chosen:
            self.set_folded(False, chosen=True)

    def _resize(self) -> None:
        if self._folded:
            self.resize(QSize(CHIP_W, CHIP_H))
        else:
            lines = self._lines()
            height = 8 + sum(4 if kind == "gap" else ROW_H for kind, _t, _c in lines) + 12
            self.resize(QSize(self._width(lines), height))
        self.reposition()

    def _width(self, lines: list[tuple[str, str, str]]) -> int:
        """Wide enough for the longest text (the title and headings are bold)."""
        bold, plain = QFontMetrics(theme.font(8.5, True)), QFontMetrics(theme.font(8.0))
        widest = WIDTH
        for kind, text, _colour in lines:
            if kind in ("title", "heading"):
                widest = max(widest, 12 + bold.horizontalAdvance(text) + 12)
            elif kind in ("colour", "speed", "state"):
                widest = max(widest, self._text_x(kind) + plain.horizontalAdvance(text) + 12)
        return widest

    def reposition(self) -> None:
        """Keep a strip on the left of the view as wide as the legend, and sit in it at the
        bottom (the viewport, and so the scene, starts right of it)."""
        parent = self.parentWidget()
        if parent is None:
            return
        if not self._chosen and parent.width() > 0 and self._folded != (parent.width() < AUTO_FOLD_W):
            self.set_folded(parent.width() < AUTO_FOLD_W, chosen=False)  # resizes, comes back here
            return
        strip = self.strip_width()
        if hasattr(parent, "setViewportMargins") and hasattr(parent, "viewportMargins") \
                and parent.viewportMargins().left() != strip:
            parent.setViewportMargins(strip, 0, 0, 0)
        bottom = parent.height() - _scrollbar_h(parent) - GAP
        self.move(GAP // 2, max(GAP // 2, bottom - self.height()))

    def strip_width(self) -> int:
        """The width of the strip the legend keeps on the left of its view (none when hidden)."""
        return self.width() + GAP if self._wanted else 0

    def setVisible(self, visible: bool) -> None:  # noqa: N802 (Qt override)
        """Show or hide the legend (View > Legend); hidden, it keeps no strip."""
        self._wanted = visible
        super().setVisible(visible)
        self.reposition()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self.set_folded(not self._folded)
        event.accept()

    # ---------------------------------------------------------------- painting
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#ced4da"), 1))
        painter.setBrush(QBrush(QColor("#ffffff")))
        painter.drawRoundedRect(QRectF(0.5, 0.5, self.width() - 1, self.height() - 1), 6, 6)
        if self._folded:
            self._paint_chip(painter)
            painter.end()
            return
        states = iter(self._states())
        y = 8.0
        for kind, text, colour in self._lines():
            if kind == "gap":
                y += 4
                continue
            if kind in ("title", "heading"):
                self._heading(painter, y, text)
            elif kind == "colour":
                self._colour_row(painter, y, text, colour)
            elif kind == "speed":
                self._speed_row(painter, y, text, colour)
            else:
                _label, draw = next(states)
                painter.setFont(theme.font(8.0))
                draw(painter, y)
                self._label(painter, STATE_X, y, text)
            y += ROW_H
        painter.end()

    def _paint_chip(self, painter: QPainter) -> None:
        """The folded legend: "Legend ▴" written upwards."""
        painter.save()
        painter.translate(0, self.height())
        painter.rotate(-90)
        painter.setFont(theme.font(8.5, True))
        painter.setPen(theme.DEVICE_TEXT)
        painter.drawText(QRectF(0, 0, self.height(), self.width()), Qt.AlignmentFlag.AlignCenter,
                         "Legend  ▸")
        painter.restore()

    def _heading(self, painter: QPainter, y: float, text: str) -> None:
        painter.setFont(theme.font(8.5, True))
        painter.setPen(theme.DEVICE_TEXT)
        painter.drawText(QRectF(12, y, self.width() - 24, ROW_H), Qt.AlignmentFlag.AlignVCenter, text)

    def _label(self, painter: QPainter, x: float, y: float, text: str) -> None:
        painter.setFont(theme.font(8.0))
        painter.setPen(theme.DEVICE_TEXT)
        painter.drawText(QRectF(x, y, self.width() - x - 4, ROW_H), Qt.AlignmentFlag.AlignVCenter, text)

    def _colour_row(self, painter: QPainter, y: float, text: str, colour: str) -> None:
        """A cable colour of the mode: a thick line, its name ("N more" rows have no colour)."""
        if colour:
            painter.setPen(QPen(QColor(colour), 3.0))
            painter.drawLine(QPointF(14, y + ROW_H / 2), QPointF(66, y + ROW_H / 2))
        self._label(painter, TEXT_X, y, text)

    def _speed_row(self, painter: QPainter, y: float, text: str, colour: str) -> None:
        """A speed: the port swatch and, where cables show their speed, a cable line."""
        self._swatch_used(painter, y, QColor(colour))
        if self._spec.speed_cables:
            painter.setPen(QPen(QColor(colour), 2.2))
            painter.drawLine(QPointF(40, y + ROW_H / 2), QPointF(66, y + ROW_H / 2))
        self._label(painter, self._text_x("speed"), y, text)

    def _text_x(self, kind: str) -> int:
        """Where the label of a row starts: after a line swatch, or after a port swatch."""
        if kind == "colour" or (kind == "speed" and self._spec.speed_cables):
            return TEXT_X
        return STATE_X

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
        colour = self._spec.bundle_colour or theme.speed_colour_hex(400)
        painter.setPen(QPen(QColor(colour), 4.5))
        painter.drawLine(QPointF(12, y + ROW_H / 2), QPointF(32, y + ROW_H / 2))


def _scrollbar_h(parent: QWidget) -> int:
    bar = getattr(parent, "horizontalScrollBar", None)
    if bar is None:
        return 0
    widget = bar()
    return widget.height() if widget.isVisible() else 0
