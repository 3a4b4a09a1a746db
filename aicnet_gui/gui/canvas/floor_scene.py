"""The Floor scene: racks in rows on the floor grid, devices in their RU slots, cable runs.

Racks sit at their floor position (row and position, or x/y in metres) and show their RU
slots; each racked device fills its slots, and devices in no rack wait in a tray on the left.
Dragging a device into a rack places it at the RU under it (the slot lights green, or red with
the reason); dragging a rack moves it to another floor slot.  The cables of the selected devices
are drawn as routes over the cable tray with their estimated length: this view is where the
lengths come from.  Like the Topology scene it only mirrors the model.
"""

from __future__ import annotations

import itertools
from functools import partial

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ...analysis.lengths import link_length
from ...editing.units import counted, natural_key
from ...model.edits import ChangeSet
from ...model.fabric import Device, Rack
from ...model.floor import rack_floor_xy
from ...model.rounding import metres
from .. import theme
from ..editor import Editor
from . import lod
from .fabric_scene import FabricScene
from .floor_far_layer import FloorFarLayer, tint
from .hits import DeviceHit, RackHit
from .items import elide, static_text
from .rack_contents import RackContents, free_runs, rack_contents
from .rack_names import RackNames

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
MAX_ROUTES = 400
#: from this many devices the Floor tab's first showing makes the racked devices' items in
#: slices after the first frame (the far layer draws them from the model meanwhile): 18,624
#: items of a 12,800-server hall froze the window ~0.5 s when the tab was first shown
LAZY_FLOOR_DEVICES = 4000
ITEM_SLICE = 2500
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
        self.empty = False  # drawn by the far layer (FloorScene._far_flag)
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
        self.empty = False  # drawn by the far layer (FloorScene._far_flag)
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


class FloorScene(FabricScene):
    """Mirror of the document on the Floor canvas."""

    selection_changed_ids = Signal()
    hint = Signal(str)

    def __init__(self, editor: Editor, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self.editor = editor
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.setBspTreeDepth(6)
        self.setBackgroundBrush(theme.CANVAS_BG)
        self._racks: dict[str, RackItem] = {}
        self._items: dict[str, FloorDeviceItem] = {}
        #: build and follow edits at once (the Floor tab is showing); otherwise only note that
        #: the scene is stale and rebuild when it is next looked at (opening a 4,096-server
        #: fabric need not lay out 6,656 rack slots nobody sees yet)
        self.eager = False
        self._stale = True
        self.tray = Tray()
        self.addItem(self.tray)
        self.routes = RouteOverlay()
        self.addItem(self.routes)
        self.indicator = DropIndicator()
        self.indicator.setVisible(False)
        self.addItem(self.indicator)
        self.rack_names = RackNames(  # the names fitted out, where the headers are too small
            lambda: ((item.name, item.frame()) for item in self._racks.values()), RACK_W,
            lambda transform: [box for box, _text in self.routes.label_rects(transform)])
        self.addItem(self.rack_names)
        #: zoomed far out one layer draws the racks and racked devices (floor_far_layer.py)
        self.far_layer = FloorFarLayer()
        self.far_layer.setVisible(False)
        self.addItem(self.far_layer)
        self._far = False
        self._far_dirty = True  # the layer's rectangles are older than the layout
        self._far_selected: set[QGraphicsItem] = set()  # selected: drawn by their own items
        #: racked devices whose items the first showing of a big hall has not made yet:
        #: id -> (slots, role colour) from the model, drawn by the far layer meanwhile
        self._pending: dict[str, tuple[QRectF, QColor]] = {}
        self._build_round = 0  # a rebuild cancels the slices of the one before
        self._dragging = False
        self._pitch = 0.0
        self._rows: list[float] = []
        self._row_index: dict[float, int] = {}
        self._pitch_key: tuple[int, int] | None = None
        self.selectionChanged.connect(self._on_selection)
        editor.document.changed.connect(self.apply_changes)
        editor.document.reset.connect(self._on_reset)
        self.rebuild()

    # ---------------------------------------------------------------- lazy building
    @property
    def items_by_id(self) -> dict[str, FloorDeviceItem]:
        self.ensure_current()
        self.finish_items()
        return self._items

    @property
    def racks_by_id(self) -> dict[str, RackItem]:
        self.ensure_current()
        return self._racks

    @property
    def stale(self) -> bool:
        """True while the scene waits to be rebuilt (edits or a new document it has not shown)."""
        return self._stale

    def ensure_current(self) -> None:
        """Rebuild now if edits or a new document arrived while the scene was not shown."""
        if self._stale:
            self.rebuild()

    def set_eager(self, eager: bool) -> None:
        self.eager = eager
        if eager:
            self.ensure_current()

    def _on_reset(self) -> None:
        self._stale = True
        self._pending.clear()  # another document: the slices of this one's items stop
        self._build_round += 1
        if self.eager:
            self.rebuild()

    @property
    def doc(self):  # noqa: ANN201
        return self.editor.doc

    # ---------------------------------------------------------------- geometry
    def _refresh_floor(self) -> None:
        """Row pitch (tallest rack plus an aisle) and the floor rows, cached per revision.

        Racks are drawn as elevations, so the rows are stacked on the page in floor order
        (each distinct floor y is one row) while x keeps the floor's scale (one tile per rack).
        """
        doc = self.doc
        if self._pitch_key == (id(doc), doc.revision):
            return
        tallest = max((r.height_ru for r in doc.racks.values()), default=48)
        self._pitch = HEADER + tallest * RU_PX + FOOTER + AISLE
        params = doc.settings.lengths
        self._rows = sorted({round(rack_floor_xy(r, params)[1], 3) for r in doc.racks.values()})
        self._row_index = {y: k for k, y in enumerate(self._rows)}
        self._pitch_key = (id(doc), doc.revision)

    def rack_origin(self, rack: Rack) -> QPointF:
        self._refresh_floor()
        params = self.doc.settings.lengths
        x_m, y_m = rack_floor_xy(rack, params)
        row = self._row_index.get(round(y_m, 3), 0)
        return QPointF(x_m / params.rack_width_m * PITCH_X, row * self._pitch)

    def floor_target(self, pos: QPointF) -> tuple[float, float]:
        """The floor position (x, y in metres) for a rack dropped with its top-left at `pos`:
        the nearest tile along the row, and the row under it (a new row past the last one)."""
        self._refresh_floor()
        params = self.doc.settings.lengths
        x_m = max(0, round(pos.x() / PITCH_X)) * params.rack_width_m
        k = max(0, round(pos.y() / self._pitch))
        rows = self._rows or [0.0]
        y_m = rows[k] if k < len(rows) else rows[-1] + (k - len(rows) + 1) * params.row_pitch_m
        return round(x_m, 3), round(y_m, 3)

    def device_slot_rect(self, rack: Rack, ru: int, height_ru: int,
                         origin: QPointF | None = None) -> QRectF:
        """The slots of a device of `height_ru` at `ru` in `rack` (whose origin the caller may
        already know: a relayout places 18,000 devices in 3,600 racks)."""
        origin = origin if origin is not None else self.rack_origin(rack)
        top = origin.y() + HEADER + (rack.height_ru - (ru - 1) - max(height_ru, 1)) * RU_PX
        return QRectF(origin.x() + RAIL, top, RACK_W - 2 * RAIL, max(height_ru, 1) * RU_PX)

    def rack_at(self, pos: QPointF) -> Rack | None:
        for rack_id, item in self._racks.items():
            rect = item.sceneBoundingRect()
            if rect.left() <= pos.x() <= rect.right() and rect.top() <= pos.y() <= rect.bottom():
                return self.doc.racks.get(rack_id)
        return None

    def ru_at(self, rack: Rack, y: float, height_ru: int) -> int:
        """The RU whose slot is at scene height `y` for a device whose top edge is at y."""
        body_top = self.rack_origin(rack).y() + HEADER
        slots_from_top = round((y - body_top) / RU_PX)
        return rack.height_ru - slots_from_top - max(height_ru, 1) + 1

    # ---------------------------------------------------------------- building
    def rebuild(self) -> None:
        self._stale = False
        self.blockSignals(True)
        for item in list(self._racks.values()) + list(self._items.values()):
            self.removeItem(item)
        self._racks.clear()
        self._items.clear()
        self._pending.clear()
        self._build_round += 1
        self.blockSignals(False)
        self._place(lazy=len(self.doc.devices) >= LAZY_FLOOR_DEVICES)
        if self._pending:
            QTimer.singleShot(0, self, partial(self._build_slice, self._build_round))
        self.selection_changed_ids.emit()

    @property
    def building(self) -> bool:
        """True while device items of the first showing are still being made in slices."""
        return bool(self._pending)

    def _build_slice(self, round_: int) -> None:
        """Make the next ITEM_SLICE pending device items (one turn of the event loop)."""
        if round_ != self._build_round or not self._pending:
            return
        ids = list(itertools.islice(self._pending, ITEM_SLICE))
        self._make_pending(ids)
        if self._pending:
            QTimer.singleShot(0, self, partial(self._build_slice, round_))

    def before_frame(self, visible: QRectF) -> None:
        """Zoomed in while a big hall's device items are still being made: the devices in view
        get theirs before the frame (the far layer, which draws them far out, is hidden)."""
        if self._pending and not self._far:
            self._make_pending([device_id for device_id, (slots, _c) in self._pending.items()
                                if slots.intersects(visible)])

    def finish_items(self) -> None:
        """Make every pending device item now (something is about to look at the items)."""
        if self._pending:
            self._make_pending(list(self._pending))

    def _make_pending(self, ids: list[str]) -> None:
        doc = self.doc
        for device_id in ids:
            slots, _colour = self._pending.pop(device_id)
            device = doc.devices.get(device_id)
            if device is None:
                continue  # deleted meanwhile: the edit's own update follows
            item = self._device_item(device)
            item.setPos(slots.topLeft())
            item.in_tray = False
            item.rack_id = device.rack
            self._far_flag(item)

    def _device_item(self, device: Device) -> FloorDeviceItem:
        """The device's item (made and added when it has none), configured from the model."""
        item = self._items.get(device.id)
        if item is None:
            item = FloorDeviceItem(device.id)
            self.addItem(item)
            self._items[device.id] = item
        model = self.doc.device_model(device)
        item.configure(device.name, model.model, self.doc.role_of(device).value, model.height_ru)
        return item

    def relayout(self) -> None:
        """Place every rack and device where the model says (racks are few; devices are cheap)."""
        self.finish_items()
        self._place(lazy=False)

    def _place(self, lazy: bool) -> None:
        """Place every rack and device where the model says; `lazy`: a racked device without
        an item gets none yet (pending, drawn by the far layer until its slice makes it)."""
        doc = self.doc
        contents = rack_contents(doc)
        for rack_id in [r for r in self._racks if r not in doc.racks]:
            self.removeItem(self._racks.pop(rack_id))
        origins: dict[str, QPointF] = {}
        for rack in doc.racks.values():
            item = self._racks.get(rack.id)
            if item is None:
                item = RackItem(rack.id)
                self.addItem(item)
                self._racks[rack.id] = item
            item.configure(rack, contents.get(rack.id))
            origins[rack.id] = origin = self.rack_origin(rack)
            item.setPos(origin)
        for device_id in [d for d in self._items if d not in doc.devices]:
            self.removeItem(self._items.pop(device_id))
        unplaced: list[Device] = []
        for device in doc.devices.values():
            racked = device.rack in doc.racks and device.ru is not None
            if lazy and racked and device.id not in self._items:
                model = doc.device_model(device)
                slots = self.device_slot_rect(doc.racks[device.rack], device.ru, model.height_ru,
                                              origins[device.rack])
                self._pending[device.id] = (slots, theme.role_colour(doc.role_of(device).value))
                continue
            item = self._device_item(device)
            if racked:
                item.setPos(self.device_slot_rect(doc.racks[device.rack], device.ru, item.height_ru,
                                                  origins[device.rack]).topLeft())
                item.in_tray = False
            else:
                unplaced.append(device)
            item.rack_id = device.rack if device.rack in doc.racks else None
        self._layout_tray(unplaced)
        self.update_routes()
        self._update_scene_rect()

    def _layout_tray(self, unplaced: list[Device]) -> None:
        unplaced.sort(key=lambda d: natural_key(d.name))
        left = -TRAY_W - TRAY_GAP
        if not unplaced:
            self.tray.set_rect(QRectF(left, 0, TRAY_W, 120), 0)
            return
        chip_h = 2 * RU_PX + 6
        per_col = 40
        cols = -(-len(unplaced) // per_col)
        width = TRAY_W + (cols - 1) * (RACK_W - 2 * RAIL + 12)
        left = -width - TRAY_GAP
        for index, device in enumerate(unplaced):
            col, row = divmod(index, per_col)
            item = self._items[device.id]
            item.configure(item.name, item.model_text, item.role, item.height_ru, shown_ru=2)
            item.in_tray = True
            item.setPos(left + 12 + col * (RACK_W - 2 * RAIL + 12), 44 + row * chip_h)
        rows = min(len(unplaced), per_col)
        self.tray.set_rect(QRectF(left, 0, width, 56 + rows * chip_h), len(unplaced))

    def _update_scene_rect(self, devices: set[str] | None = None) -> None:
        """After a layout (`devices`: only these devices changed): the scene's extent, the rack
        names' and, far out, the far layer's rectangles (close in it waits until it is needed)."""
        racks = QRectF()
        for item in self._racks.values():
            racks = racks.united(item.frame())
        self.rack_names.changed(racks)
        if not self._far:
            self._far_dirty = True
        elif devices is None or self._far_dirty or not self._patch_far_layer(devices):
            self._refresh_far_layer()
        rect = self.content_rect()
        margin = max(rect.width(), rect.height(), 1500) * 0.5
        self.setSceneRect(rect.adjusted(-margin, -margin, margin, margin))

    def content_rect(self) -> QRectF:
        """The tray and the racks; without racks, the tray and the place the first rack takes
        (where the empty hint is written)."""
        rect = self.tray.boundingRect()
        for item in self._racks.values():
            rect = rect.united(item.sceneBoundingRect())
        if not self._racks:
            rect = rect.united(QRectF(0, 0, 3 * PITCH_X, HEADER + 48 * RU_PX + FOOTER))
        return rect

    def hint_avoid(self) -> QRectF:
        """What the empty hint must not be written over: the "Not in a rack" tray."""
        return self.tray.boundingRect()

    def empty_hint(self) -> str:
        if self._racks:
            return ""
        return ("No racks yet. Add one with Arrange ▸ Add Rack (Ctrl+Shift+R),\n"
                "then drag devices into its RU slots: cable lengths come from here.")

    def apply_changes(self, changes: ChangeSet) -> None:
        if self._stale:
            return
        if changes.racks or changes.devices or changes.settings:
            self.finish_items()  # a layout edit during the first showing's slices: every item first
        if not self.eager:
            if changes.racks or changes.devices or changes.settings:
                self._stale = True
            elif changes.links:
                self.update_routes()
            return
        if changes.racks or changes.settings:
            self.relayout()
        elif changes.devices:
            self.update_devices(changes.devices)
        elif changes.links:
            self.update_routes()

    def update_devices(self, device_ids: set[str]) -> None:
        """Follow edits of a few devices without placing every other device again."""
        doc = self.doc
        tray = False
        racks: set[str] = set()  # the racks the devices were in and are in now
        for device_id in device_ids:
            device = doc.devices.get(device_id)
            item = self._items.get(device_id)
            if item is not None and item.rack_id:
                racks.add(item.rack_id)
            if device is None:
                if item is not None:
                    self.removeItem(self._items.pop(device_id))
                    tray = True
                continue
            was_in_tray = item.in_tray if item is not None else False
            item = self._device_item(device)
            racked = device.rack in doc.racks and device.ru is not None
            if racked:
                item.setPos(self.device_slot_rect(doc.racks[device.rack], device.ru, item.height_ru).topLeft())
                item.in_tray = False
            item.rack_id = device.rack if device.rack in doc.racks else None
            if item.rack_id:
                racks.add(item.rack_id)
            tray |= was_in_tray or not racked
        contents = rack_contents(doc, racks)
        for rack_id in racks:
            item = self._racks.get(rack_id)
            if item is not None and rack_id in doc.racks:
                item.configure(doc.racks[rack_id], contents.get(rack_id))
        if tray:
            self._layout_tray([d for d in doc.devices.values()
                               if not (d.rack in doc.racks and d.ru is not None)])
        self.update_routes()
        self._update_scene_rect(device_ids)

    # ---------------------------------------------------------------- far out
    @property
    def far(self) -> bool:
        """Zoomed far out: the far layer draws the racks and racked devices."""
        return self._far

    def set_view_scale(self, scale: float) -> None:
        """The view zoomed: below lod.FAR_SCALE one layer draws what the items drew."""
        far = scale < lod.FAR_SCALE
        if far == self._far:
            return
        self._far = far
        if far and self._far_dirty:
            self._refresh_far_layer()  # sets every item's flag too
        else:
            for item in list(self._racks.values()) + list(self._items.values()):
                self._far_flag(item)
        self.far_layer.setVisible(far)
        # far out the names go under a selected device (the layer draws the others below
        # them); closer in over the device items, which draw themselves
        self.rack_names.setZValue(4 if far else 6)

    def _far_flag(self, item: RackItem | FloorDeviceItem) -> None:
        """Far out a rack or racked device paints nothing (the layer draws it) unless it is
        selected or waits in the tray; it stays in the scene for clicks and drags."""
        in_tray = isinstance(item, FloorDeviceItem) and item.in_tray
        empty = self._far and not in_tray and not item.isSelected()
        if item.empty != empty:  # (reading flags() back costs 4 enum operations per item)
            item.empty = empty
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, empty)

    def _hatched(self) -> list[QRectF]:
        """The slots rack systems' trays leave (their NVLink switch trays and power shelves)."""
        return [item.run_rect(low, count).translated(item.pos())
                for item in self._racks.values() if item.free for low, count in item.free]

    def _patch_far_layer(self, device_ids: set[str]) -> bool:
        """Hand the far layer the new place of a few devices; False when it needs everything
        again (a device it never drew, a new colour)."""
        layer = self.far_layer
        for device_id in device_ids:
            item = self._items.get(device_id)
            if item is None or item.in_tray:
                layer.drop_device(device_id)
            elif not layer.set_device(device_id, item.slots(), theme.role_colour(item.role)):
                return False
            if item is not None:
                self._far_flag(item)
        layer.set_hatched(self._hatched())
        return True

    def _refresh_far_layer(self) -> None:
        racks = []
        for rack_id, item in self._racks.items():
            frame = item.frame()
            racks.append((rack_id, frame, QRectF(frame.x() + RAIL, frame.y() + HEADER,
                                                 RACK_W - 2 * RAIL, item.height_ru * RU_PX)))
        devices = [(device_id, item.slots(), theme.role_colour(item.role))
                   for device_id, item in self._items.items() if not item.in_tray]
        devices += [(device_id, slots, colour) for device_id, (slots, colour) in self._pending.items()]
        self.far_layer.set_contents(racks, self._hatched(), devices)
        self._far_dirty = False
        self._far_selected.clear()
        self._follow_selection()
        for item in list(self._racks.values()) + list(self._items.values()):  # new, or in/out of the tray
            self._far_flag(item)

    def _follow_selection(self) -> None:
        """Selected racks and devices draw themselves; the layer leaves them out."""
        selected = set(self.selectedItems())
        for item in selected ^ self._far_selected:
            if isinstance(item, RackItem | FloorDeviceItem):
                self._far_flag(item)
        self._far_selected = selected
        self.far_layer.set_selected({i.rack_id for i in selected if isinstance(i, RackItem)},
                                    {i.device_id for i in selected if isinstance(i, FloorDeviceItem)})

    # ---------------------------------------------------------------- selection and routes
    def _on_selection(self) -> None:
        self._follow_selection()
        self.update_routes()
        self.selection_changed_ids.emit()

    def selected_device_ids(self) -> list[str]:
        return [i.device_id for i in self.selectedItems() if isinstance(i, FloorDeviceItem)]

    def selected_rack_ids(self) -> list[str]:
        return [i.rack_id for i in self.selectedItems() if isinstance(i, RackItem)]

    def hit_at(self, pos: QPointF) -> DeviceHit | RackHit | None:
        """The device or rack under scene `pos` (the topmost), or None."""
        self.finish_items()
        for item in self.items(pos):
            if isinstance(item, FloorDeviceItem):
                return DeviceHit(item.device_id, item.isSelected())
            if isinstance(item, RackItem):
                return RackHit(item.rack_id, item.isSelected())
        return None

    def select_ids(self, device_ids, rack_ids=(), add: bool = False) -> None:  # noqa: ANN001
        waiting = [d for d in device_ids if d in self._pending]
        if waiting:  # a selection carried over from the Topology: only its items are needed
            self._make_pending(waiting)
        self.blockSignals(True)
        if not add:
            self.clearSelection()
        for device_id in device_ids:
            if device_id in self._items:
                self._items[device_id].setSelected(True)
        for rack_id in rack_ids:
            if rack_id in self._racks:
                self._racks[rack_id].setSelected(True)
        self.blockSignals(False)
        self._follow_selection()
        self.update_routes()
        self.selection_changed_ids.emit()

    def select_all(self) -> None:
        self.finish_items()
        self.select_ids(list(self._items), list(self._racks))

    def _port_height(self, device_id: str) -> QPointF | None:
        item = self._items.get(device_id)
        device = self.doc.devices.get(device_id)
        if item is None or device is None or device.rack is None:
            return None
        rect = item.sceneBoundingRect()
        return QPointF(rect.right() - 6, rect.center().y())

    def update_routes(self) -> None:
        """Draw the runs of the selected devices' cables; one length label per rack pair."""
        doc = self.doc
        selected = self.selected_device_ids()
        routes: list[tuple[list[QPointF], QColor]] = []
        groups: dict[tuple[str, str, str], list] = {}
        seen: set[str] = set()
        for device_id in selected:
            fan = 0
            for link in doc.links_of(device_id):
                if link.id in seen or len(routes) >= MAX_ROUTES:
                    continue
                seen.add(link.id)
                mine, other = (link.a, link.b) if link.a.device == device_id else (link.b, link.a)
                a = self._port_height(mine.device)
                b = self._port_height(other.device)
                if a is None or b is None:
                    continue
                rack_a = self._racks[doc.devices[mine.device].rack]
                rack_b = self._racks[doc.devices[other.device].rack]
                offset = (fan % 10) * 2.0
                fan += 1
                if rack_a is rack_b:
                    side = max(a.x(), b.x()) + 10 + offset
                    points = [a, QPointF(side, a.y()), QPointF(side, b.y()), b]
                    frame = rack_a.sceneBoundingRect()
                    anchor, where = QPointF(frame.center().x(), frame.bottom() + 6), "below"
                else:
                    # out of the rack on its right side first: the run passes beside the
                    # devices and the rack header ("16/48 U"), not over them
                    tray_a = rack_a.pos().y() - 12 - offset
                    tray_b = rack_b.pos().y() - 12 - offset
                    xa = rack_a.sceneBoundingRect().right() + offset
                    xb = rack_b.sceneBoundingRect().right() + offset
                    points = [a, QPointF(xa, a.y()), QPointF(xa, tray_a), QPointF(xb, tray_a),
                              QPointF(xb, tray_b), QPointF(xb, b.y()), b]
                    anchor, where = QPointF((xa + xb) / 2, min(tray_a, tray_b) - 12), "above"
                length = link_length(doc, link)
                port = doc.port(link.a.device, link.a.port)
                colour = QColor(theme.link_colour_hex(link.colour)
                                or theme.speed_colour_hex(port.speed_gbps if port else 0))
                text = "length unknown" if length.length_m is None else f"{metres(length.length_m)} m"
                if length.ordered_m is not None:
                    text += f" → {metres(length.ordered_m, 2)} m"
                if length.manual:
                    text += " (manual)"
                routes.append((points, colour))
                key = (rack_a.rack_id, rack_b.rack_id, text)
                groups.setdefault(key, [0, anchor, colour, where])[0] += 1
        labels = []
        for (_ra, _rb, text), (count, anchor, colour, where) in groups.items():
            labels.append((anchor, f"{count} × {text}" if count > 1 else text, colour, where))
        # the routes item stacks labels that would cover each other when it draws them
        labels.sort(key=lambda x: (round(x[0].x()), round(x[0].y())))
        self.routes.set_routes(routes, labels)
        self.rack_names.update()  # a name gives way to a run's length label
        if selected and routes:
            self.hint.emit(f"{counted(len(routes), 'cable run')} of the selection "
                           "shown with estimated and ordered length")

    # ---------------------------------------------------------------- dragging devices and racks
    def _dragged(self) -> list[QGraphicsItem]:
        return [i for i in self.selectedItems() if isinstance(i, FloorDeviceItem | RackItem)]

    def target_of(self, item: FloorDeviceItem) -> tuple[str | None, int | None, QRectF | None]:
        """Where a dragged device item would land: (rack id, RU, slot rect)."""
        rect = item.sceneBoundingRect().adjusted(3, 3, -3, -3)
        rack = self.rack_at(rect.center())
        if rack is None:
            return None, None, None
        ru = self.ru_at(rack, rect.top(), item.height_ru)
        ru = max(1, min(ru, rack.height_ru - item.height_ru + 1))
        return rack.id, ru, self.device_slot_rect(rack, ru, item.height_ru)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        self.finish_items()  # a click or a rubber band during the slices reaches every device
        super().mousePressEvent(event)
        self._dragging = event.button() == Qt.MouseButton.LeftButton and bool(self._dragged())

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        super().mouseMoveEvent(event)
        if not self._dragging or not (event.buttons() & Qt.MouseButton.LeftButton):
            return
        grabber = self.mouseGrabberItem()
        if isinstance(grabber, FloorDeviceItem):
            if grabber.in_tray and grabber.shown_ru != grabber.height_ru:
                centre = grabber.sceneBoundingRect().center()
                grabber.show_full_height()  # the preview is as tall as the device, centred
                grabber.setPos(grabber.pos() + centre - grabber.sceneBoundingRect().center())
            rack_id, ru, slot = self.target_of(grabber)
            if rack_id is None or slot is None or ru is None:
                self.indicator.setVisible(False)
                self.hint.emit("Release outside a rack to take the device out of its rack")
                return
            device = self.doc.devices[grabber.device_id]
            moving = {i.device_id for i in self.selectedItems() if isinstance(i, FloorDeviceItem)}
            problem = self.editor.rack_problem(device.id, device.model, rack_id, ru, ignore=moving)
            rack = self.doc.racks[rack_id]
            self.indicator.show_at(slot, problem is None, problem or f"{rack.name} · RU {ru}")
            self.hint.emit(problem or f"Place {device.name} in {rack.name} at RU {ru}")

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton or not self._dragging:
            return
        self._dragging = False
        self.indicator.setVisible(False)
        self.hint.emit("")
        self.commit_drag()

    def commit_drag(self) -> None:
        doc = self.doc
        placements: dict[str, tuple[str | None, int | None]] = {}
        racks_moved: list[tuple[str, float, float]] = []
        for item in self._dragged():
            if isinstance(item, FloorDeviceItem):
                device = doc.devices.get(item.device_id)
                if device is None:
                    continue
                rack_id, ru, _slot = self.target_of(item)
                if (rack_id, ru) != (device.rack, device.ru):
                    placements[device.id] = (rack_id, ru)
            elif isinstance(item, RackItem):
                rack = doc.racks.get(item.rack_id)
                if rack is None:
                    continue
                origin = self.rack_origin(rack)
                if (item.pos() - origin).manhattanLength() < 1:
                    continue
                racks_moved.append((rack.id, *self.floor_target(item.pos())))
        changed = False
        if placements:
            changed = self.editor.place_devices(placements)
        for rack_id, x_m, y_m in racks_moved:
            changed = self.editor.move_rack(rack_id, x_m, y_m) or changed
        if not changed:
            self.relayout()  # refused or nothing to do: back to where the model says

    # ---------------------------------------------------------------- drops
    def drop_device(self, model_id: str, pos: QPointF) -> str | None:
        model = self.doc.catalog.devices.get(model_id)
        if model is None:
            return None
        rack = self.rack_at(pos)
        if rack is None:
            return self.editor.add_device(model_id)
        ru = self.ru_at(rack, pos.y() - model.height_ru * RU_PX / 2, model.height_ru)
        ru = max(1, min(ru, rack.height_ru - model.height_ru + 1))
        return self.editor.add_device(model_id, rack=rack.id, ru=ru)
