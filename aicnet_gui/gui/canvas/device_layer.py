"""Every device of the Topology canvas drawn by one item when zoomed far out.

Far out a device is a few pixels: its front panel is not readable, and asking 6,656 Python items
to paint themselves (and refill their pixmap caches after every zoom step) costs hundreds of
milliseconds.  Below `lod.FAR_SCALE` the scene switches representation (performance.md §6):
device items stop painting (`ItemHasNoContents`, no cache) but stay in the scene, so clicking,
rubber-band selection and dragging work as before, and this layer draws all devices as bars,
one `drawRects` call per colour, culled with numpy: selection, workload highlight, colour-mode
accents and the validation's severity mark included.
"""

from __future__ import annotations

from itertools import starmap

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from .. import theme

_GROW = 1.6
SEVERITY_INDEX = {"warning": 1, "error": 2}
HIGHLIGHT_INDEX = {"member": 1, "bottleneck": 2}


def qrects(x: np.ndarray, y: np.ndarray, w: np.ndarray, h: np.ndarray) -> list[QRectF]:
    """One QRectF per row of the columns, made in C (for a batched `drawRects`)."""
    return list(starmap(QRectF, np.column_stack((x, y, w, h)).tolist()))


class DeviceLayer(QGraphicsItem):
    """Bars for every device (x, y, w, h, colour) with marks; ids map to rows."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(10)
        self._rows: dict[str, int] = {}
        self._free: list[int] = []
        self._n = 0
        self._colours: list[QColor] = []
        self._colour_of: dict[str, int] = {}
        self._names: list[str] = []
        self._bounds = QRectF()
        #: every row's bar as a QRectF, kept between frames until a device moves or changes
        self._bar_rects: list[QRectF] | None = None
        self._alloc(256)

    def _alloc(self, cap: int) -> None:
        def grow(name: str, dtype: type) -> np.ndarray:
            old = getattr(self, name, None)
            new = np.zeros(cap, dtype=dtype)
            if old is not None:
                new[: len(old)] = old
            return new

        for name, dtype in (("_x", np.float64), ("_y", np.float64), ("_w", np.float64),
                            ("_h", np.float64), ("_colour", np.int32), ("_accent", np.int32),
                            ("_alive", np.bool_), ("_shown", np.bool_), ("_off", np.bool_),
                            ("_selected", np.bool_),
                            ("_sev", np.int8), ("_hl", np.int8)):
            setattr(self, name, grow(name, dtype))
        self._cap = cap

    def colour_index(self, colour: QColor) -> int:
        key = colour.name()
        index = self._colour_of.get(key)
        if index is None:
            index = self._colour_of[key] = len(self._colours)
            self._colours.append(QColor(colour))
        return index

    # ---------------------------------------------------------------- contents
    def clear(self) -> None:
        self.prepareGeometryChange()
        self._rows.clear()
        self._free.clear()
        self._names.clear()
        self._n = 0
        for name in ("_x", "_y", "_w", "_h", "_colour", "_accent", "_alive", "_shown", "_off",
                     "_selected", "_sev", "_hl"):
            setattr(self, name, None)
        self._alloc(256)
        self._bounds = QRectF()
        self._bar_rects = None
        self.update()

    def set_device(self, device_id: str, x: float, y: float, w: float, h: float, role: str,
                   name: str) -> None:
        row = self._rows.get(device_id)
        if row is None:
            if self._free:
                row = self._free.pop()
            else:
                if self._n >= self._cap:
                    self._alloc(int(self._cap * _GROW) + 256)
                row = self._n
                self._n += 1
                self._names.append("")
            self._rows[device_id] = row
            self._accent[row] = -1
            self._shown[row] = True
            self._off[row] = False
            self._selected[row] = False
            self._sev[row] = 0
            self._hl[row] = 0
        self._x[row], self._y[row], self._w[row], self._h[row] = x, y, w, h
        self._colour[row] = self.colour_index(theme.role_colour(role))
        self._alive[row] = True
        self._names[row] = name
        bars = self._bar_rects
        if bars is not None and row < len(bars):  # an edit changes a bar or two, not all
            bars[row] = QRectF(x, y, w, h)
        else:
            self._bar_rects = None
        self._grow(x, y, w, h)
        self.update()

    def load(self, ids: list[str], x: np.ndarray, y: np.ndarray, w: np.ndarray, h: np.ndarray,
             roles: list[str], names: list[str]) -> None:
        """Every device at once (after `clear`)."""
        n = len(ids)
        if not n:
            return
        if n > self._cap:
            self._alloc(n + 256)
        self._x[:n], self._y[:n], self._w[:n], self._h[:n] = x, y, w, h
        colours = {r: self.colour_index(theme.role_colour(r)) for r in set(roles)}
        self._colour[:n] = [colours[r] for r in roles]
        self._accent[:n] = -1
        self._alive[:n] = True
        self._shown[:n] = True
        self._off[:n] = False
        self._selected[:n] = False
        self._sev[:n] = 0
        self._hl[:n] = 0
        self._names = list(names)
        self._rows = dict(zip(ids, range(n), strict=True))
        self._n = n
        self._bar_rects = None
        self.prepareGeometryChange()
        self._bounds = QRectF(float(x.min()) - 4, float(y.min()) - 4,
                              float((x + w).max() - x.min()) + 8, float((y + h).max() - y.min()) + 8)
        self.update()

    def rects_of(self, device_ids: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """x, y, w, h of the bars of `device_ids` (the overview layer's blocks are made of them)."""
        rows = np.fromiter((self._rows[d] for d in device_ids), dtype=np.int64, count=len(device_ids))
        return self._x[rows], self._y[rows], self._w[rows], self._h[rows]

    def remove(self, device_id: str) -> None:
        row = self._rows.pop(device_id, None)
        if row is not None:
            self._alive[row] = False
            self._free.append(row)
            self.update()

    def move(self, device_id: str, x: float, y: float) -> None:
        row = self._rows.get(device_id)
        if row is not None:
            self._x[row], self._y[row] = x, y
            w, h = float(self._w[row]), float(self._h[row])
            if self._bar_rects is not None:  # one bar moved: rebuilding all 17k costs ~35 ms
                self._bar_rects[row] = QRectF(x, y, w, h)
            self._grow(x, y, w, h)
            self.update()

    def _grow(self, x: float, y: float, w: float, h: float) -> None:
        rect = QRectF(x - 4, y - 4, w + 8, h + 8)
        if not self._bounds.contains(rect):
            self.prepareGeometryChange()
            self._bounds = rect if self._bounds.isNull() else self._bounds.united(rect)

    # ---------------------------------------------------------------- marks
    def _set_flags(self, array: np.ndarray, values: dict[str, int]) -> None:
        array[: self._n] = 0
        rows = self._rows
        for device_id, value in values.items():
            row = rows.get(device_id)
            if row is not None:
                array[row] = value
        self.update()

    def set_selected(self, device_ids: list[str] | set[str]) -> None:
        self._set_flags(self._selected, {d: 1 for d in device_ids})

    def set_badges(self, badges: dict[str, tuple[str, int]]) -> None:
        self._set_flags(self._sev, {d: SEVERITY_INDEX.get(b[0], 0) for d, b in badges.items()})

    def set_highlights(self, highlights: dict[str, str]) -> None:
        self._set_flags(self._hl, {d: HIGHLIGHT_INDEX[k] for d, k in highlights.items()})

    def set_accents(self, accents: dict[str, QColor]) -> None:
        self._accent[: self._n] = -1
        for device_id, colour in accents.items():
            row = self._rows.get(device_id)
            if row is not None:
                self._accent[row] = self.colour_index(colour)
        self.update()

    def set_hidden(self, device_ids: set[str]) -> None:
        """Devices inside collapsed groups are not drawn."""
        self._shown[: self._n] = True
        for device_id in device_ids:
            row = self._rows.get(device_id)
            if row is not None:
                self._shown[row] = False
        self.update()

    def set_filtered(self, device_ids: set[str]) -> None:
        """Devices of other planes than the one shown (the plane filter) are not drawn."""
        self._off[: self._n] = False
        rows = self._rows
        for device_id in device_ids:
            row = rows.get(device_id)
            if row is not None:
                self._off[row] = True
        self.update()

    def set_device_filtered(self, device_id: str, hidden: bool) -> None:
        row = self._rows.get(device_id)
        if row is not None and bool(self._off[row]) != hidden:
            self._off[row] = hidden
            self.update()

    def drawn_ids(self) -> set[str]:
        """The devices this layer draws (alive, not in a collapsed group, not filtered)."""
        n = self._n
        drawn = self._alive[:n] & self._shown[:n] & ~self._off[:n]
        return {d for d, row in self._rows.items() if drawn[row]}

    # ---------------------------------------------------------------- painting
    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        n = self._n
        if not n:
            return
        exposed = option.exposedRect
        x, y, w, h = self._x[:n], self._y[:n], self._w[:n], self._h[:n]
        visible = (self._alive[:n] & self._shown[:n] & ~self._off[:n] & (x <= exposed.right()) & (x + w >= exposed.left())
                   & (y <= exposed.bottom()) & (y + h >= exposed.top()))
        rows = np.flatnonzero(visible)
        if not len(rows):
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        scale = painter.worldTransform().m11()
        pad = 3.0 / max(scale, 1e-6)  # highlights: 3 pixels around the bar
        highlighted = rows[self._hl[rows] > 0]
        for level, colour in ((1, theme.HIGHLIGHTS["member"]), (2, theme.HIGHLIGHTS["bottleneck"])):
            chosen = highlighted[self._hl[highlighted] == level]
            if len(chosen):
                painter.setBrush(QBrush(colour))
                painter.drawRects(self._rects(chosen, pad))
        colour = np.where(self._accent[rows] >= 0, self._accent[rows], self._colour[rows])
        colour = np.where(self._selected[rows], -2, colour)
        for key in np.unique(colour).tolist():
            chosen = rows[colour == key]
            painter.setBrush(QBrush(theme.SELECTION if key == -2 else self._colours[key]))
            painter.drawRects(self._rects(chosen, 0.0))
        marked = rows[self._sev[rows] > 0]
        for level, name in ((1, "warning"), (2, "error")):
            chosen = marked[self._sev[marked] == level]
            if len(chosen):
                painter.setBrush(QBrush(theme.SEVERITY_COLOURS[name]))
                painter.drawRects([QRectF(float(self._x[r] + self._w[r] * 0.72), float(self._y[r]),
                                          float(self._w[r] * 0.28), float(self._h[r]))
                                   for r in chosen.tolist()])
        self._paint_names(painter, rows, scale)
        painter.restore()

    def _rects(self, rows: np.ndarray, pad: float) -> list[QRectF]:
        if pad == 0.0:
            if self._bar_rects is None:
                self._bar_rects = self._make_rects(np.arange(self._n), 0.0)
            bars = self._bar_rects
            return [bars[r] for r in rows.tolist()]
        return self._make_rects(rows, pad)

    def _make_rects(self, rows: np.ndarray, pad: float) -> list[QRectF]:
        return qrects(self._x[rows] - pad, self._y[rows] - pad,
                      self._w[rows] + 2 * pad, self._h[rows] + 2 * pad)

    def _paint_names(self, painter: QPainter, rows: np.ndarray, scale: float) -> None:
        """Names on the bars that are wide enough on screen (a few at most this far out)."""
        wide = rows[(self._w[rows] * scale >= 56) & (self._h[rows] * scale >= 9)]
        if not len(wide) or len(wide) > 400:
            return
        transform = painter.worldTransform()
        painter.resetTransform()
        painter.setPen(QPen(QColor("#ffffff")))
        painter.setFont(theme.font(7.5, True))
        for row in wide.tolist():
            box = transform.mapRect(QRectF(float(self._x[row]), float(self._y[row]),
                                           float(self._w[row]), float(self._h[row])))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self._names[row])
        painter.setTransform(transform)
