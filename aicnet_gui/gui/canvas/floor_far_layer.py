"""Every rack and racked device of the Floor canvas drawn by one item when zoomed far out.

A hall of 3,601 racks and 16,544 devices (the 100,000-GPU design of issue 22) fitted on screen
asked 20,000 Python items to paint a pixel or two each: 330 ms a frame.  Below `lod.FAR_SCALE`
(where racks and devices write no text) the Floor scene switches representation as the Topology
scene does (performance.md §6): the rack and device items stop painting (`ItemHasNoContents`) but
stay in the scene for clicks, rubber bands and drags, and this layer draws them with one
`drawRects` call per colour, culled with numpy: rack frames and bodies, the slots a rack
system's trays leave (hatched), devices in their role's colour with its edge bar.  Selected
racks and devices keep drawing themselves (with their selection halo, and while dragged), so
the layer skips them.  It holds no truth: the scene hands it the rectangles after each layout.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from .. import theme
from .device_layer import qrects

#: the device items' left edge bar, in scene units (FloorDeviceItem paints the same)
EDGE_BAR = 4.0
#: the items' pen widths in scene units: a rack's frame, a device's edge
RACK_PEN = 1.4
DEVICE_PEN = 1.0


def hairline(colour: QColor, width: float, scale: float) -> QPen:
    """A one-pixel pen as light as a `width`-unit line drawn at `scale` with antialiasing
    (what the items draw): the colour's alpha is the pixel the line covers."""
    shade = QColor(colour)
    shade.setAlphaF(min(1.0, width * scale))
    pen = QPen(shade, 1)
    pen.setCosmetic(True)
    return pen


def tint(colour: QColor) -> QColor:
    """A device's fill: its role colour at 22 % on white (FloorDeviceItem's own fill)."""
    return QColor.fromRgbF(1 - (1 - colour.redF()) * 0.22, 1 - (1 - colour.greenF()) * 0.22,
                           1 - (1 - colour.blueF()) * 0.22)


class _Rects:
    """Rectangles (x, y, w, h) with an id, a colour key and a selected flag per row."""

    def __init__(self, ids: list[str], rects: list[tuple[float, float, float, float]],
                 keys: list[int]) -> None:
        self.ids = ids
        self.row = {item_id: row for row, item_id in enumerate(ids)}
        box = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
        self.x, self.y, self.w, self.h = box[:, 0], box[:, 1], box[:, 2], box[:, 3]
        self.key = np.asarray(keys, dtype=np.int32)
        self.selected = np.zeros(len(ids), dtype=np.bool_)
        self.gone = np.zeros(len(ids), dtype=np.bool_)  # deleted or put in the tray since
        self._all: list[QRectF] | None = None
        self._bars: list[QRectF] | None = None

    def set_row(self, row: int, rect: QRectF) -> None:
        """Row `row` is at `rect` now (a device moved): its cached rectangles follow."""
        x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
        self.x[row], self.y[row], self.w[row], self.h[row] = x, y, w, h
        self.gone[row] = False
        if self._all is not None:
            self._all[row] = QRectF(x, y, w, h)
        if self._bars is not None:
            self._bars[row] = QRectF(x, y, min(w, EDGE_BAR), h)

    def __len__(self) -> int:
        return len(self.ids)

    def bounds(self) -> QRectF:
        if not len(self):
            return QRectF()
        left, top = float(self.x.min()), float(self.y.min())
        return QRectF(left, top, float((self.x + self.w).max()) - left,
                      float((self.y + self.h).max()) - top)

    def shown(self, exposed: QRectF) -> np.ndarray:
        """Rows meeting `exposed` that the layer draws (not selected)."""
        x, y = self.x, self.y
        return np.flatnonzero(~self.selected & ~self.gone & (x <= exposed.right()) & (x + self.w >= exposed.left())
                              & (y <= exposed.bottom()) & (y + self.h >= exposed.top()))

    def rects(self, rows: np.ndarray) -> list[QRectF]:
        """The rows' rectangles; every row's kept between frames (a fitted frame draws all)."""
        if self._all is None:
            self._all = qrects(self.x, self.y, self.w, self.h)
        every = self._all
        return [every[r] for r in rows.tolist()]

    def bars(self, rows: np.ndarray) -> list[QRectF]:
        """The rows' edge bars (EDGE_BAR wide at their left), kept between frames as `rects`."""
        if self._bars is None:
            self._bars = qrects(self.x, self.y, np.minimum(self.w, EDGE_BAR), self.h)
        every = self._bars
        return [every[r] for r in rows.tolist()]


class FloorFarLayer(QGraphicsItem):
    """Racks, system slots and racked devices as batched rectangles (module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(2)  # over the tray, under the selected items that draw themselves
        self._racks = _Rects([], [], [])
        self._bodies: list[QRectF] = []
        self._hatched: list[QRectF] = []
        self._devices = _Rects([], [], [])
        self._colours: list[QColor] = []
        self._bounds = QRectF()

    def set_contents(self, racks: list[tuple[str, QRectF, QRectF]], hatched: list[QRectF],
                     devices: list[tuple[str, QRectF, QColor]]) -> None:
        """(rack id, frame, body) per rack, the slots of rack systems, (device id, slots,
        role colour) per racked device, all in scene units."""
        self.prepareGeometryChange()
        self._racks = _Rects([r for r, _f, _b in racks],
                             [(f.x(), f.y(), f.width(), f.height()) for _r, f, _b in racks],
                             [0] * len(racks))
        self._bodies = [body for _r, _f, body in racks]
        self._hatched = list(hatched)
        keys: dict[int, int] = {}
        colours: list[QColor] = []
        device_keys = []
        for _d, _s, colour in devices:
            key = keys.get(colour.rgba())
            if key is None:
                key = keys[colour.rgba()] = len(colours)
                colours.append(colour)
            device_keys.append(key)
        self._colours = colours
        self._devices = _Rects([d for d, _s, _c in devices],
                               [(s.x(), s.y(), s.width(), s.height()) for _d, s, _c in devices],
                               device_keys)
        self._bounds = self._racks.bounds().united(self._devices.bounds()).adjusted(-2, -2, 2, 2)
        self.update()

    def set_device(self, device_id: str, slots: QRectF, colour: QColor) -> bool:
        """A drawn device moved (or came back from the tray) to `slots`; False when the layer
        does not know it or its colour (the scene then hands over everything again)."""
        row = self._devices.row.get(device_id)
        key = next((k for k, c in enumerate(self._colours) if c.rgba() == colour.rgba()), None)
        if row is None or key is None:
            return False
        self._devices.set_row(row, slots)
        self._devices.key[row] = key
        self._bounds = self._bounds.united(slots)
        self.update()
        return True

    def drop_device(self, device_id: str) -> None:
        """A device was deleted or put in the tray: no longer drawn here."""
        row = self._devices.row.get(device_id)
        if row is not None:
            self._devices.gone[row] = True
            self.update()

    def set_hatched(self, hatched: list[QRectF]) -> None:
        """The slots the rack systems' trays leave, after their contents changed."""
        self._hatched = list(hatched)
        self.update()

    def set_selected(self, rack_ids: set[str], device_ids: set[str]) -> None:
        """The selected racks and devices draw themselves; the layer leaves them out."""
        for table, chosen in ((self._racks, rack_ids), (self._devices, device_ids)):
            table.selected[:] = False
            rows = [table.row[i] for i in chosen if i in table.row]
            table.selected[rows] = True
        self.update()

    def drawn(self) -> tuple[set[str], set[str]]:
        """(rack ids, device ids) this layer draws (everything not selected)."""
        racks, devices = self._racks, self._devices
        return ({i for i, s in zip(racks.ids, racks.selected | racks.gone, strict=True) if not s},
                {i for i, s in zip(devices.ids, devices.selected | devices.gone, strict=True) if not s})

    def device_rect(self, device_id: str) -> QRectF | None:
        """Where the layer draws a device (scene units); None when it does not draw it."""
        table = self._devices
        row = table.row.get(device_id)
        if row is None or table.gone[row] or table.selected[row]:
            return None
        return QRectF(float(table.x[row]), float(table.y[row]), float(table.w[row]),
                      float(table.h[row]))

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        exposed = option.exposedRect
        scale = painter.worldTransform().m11()
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        racks = self._racks.shown(exposed)
        if len(racks):
            painter.setPen(hairline(theme.RACK_FRAME, RACK_PEN, scale))
            painter.setBrush(QBrush(theme.RACK_FILL))
            painter.drawRects(self._racks.rects(racks))
            bodies = self._bodies
            painter.setBrush(QBrush(QColor("#f8f9fa")))
            painter.drawRects([bodies[r] for r in racks.tolist()])
        if self._hatched:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(theme.RACK_FRAME, Qt.BrushStyle.BDiagPattern))
            painter.drawRects([r for r in self._hatched if r.intersects(exposed)])
        devices = self._devices.shown(exposed)
        keys = self._devices.key[devices]
        for key in np.unique(keys).tolist():
            chosen = devices[keys == key]
            colour = self._colours[key]
            painter.setPen(hairline(colour.darker(130), DEVICE_PEN, scale))
            painter.setBrush(QBrush(tint(colour)))
            painter.drawRects(self._devices.rects(chosen))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(colour))
            painter.drawRects(self._devices.bars(chosen))
        painter.restore()
