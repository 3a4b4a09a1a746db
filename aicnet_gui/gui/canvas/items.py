"""Graphics items of the Topology canvas: devices, tier bands, the wire state of a drag.

Items hold ids and what they need to paint, never model objects they could change.  A device
paints its front panel: role stripe and icon, name and model, and each logical port coloured by
speed (filled when used, hollow when free).  While a cable is being drawn the scene's wire state
tells each port whether it is a valid target (green ring) or not (red, dimmed).  Items never
read the scene: what they show beyond the model (badge, stripe colour, highlight, the scale from
which ports are drawn, the cable being drawn) is set on them by the scene's mirror and
interactions.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QStaticText,
    QTransform,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ...model.memo import IdentityMemo
from .. import resources, theme
from . import lod
from .geometry import HEADER_W, DeviceGeometry, PortCell
from .wire_state import WireState

_STATIC: dict[tuple[str, bool, float], QStaticText] = {}


def static_text(text: str, bold: bool = False, size: float = 9.0) -> QStaticText:
    """A cached QStaticText (3.8 µs per label instead of 10 for drawText)."""
    key = (text, bold, size)
    hit = _STATIC.get(key)
    if hit is None:
        hit = QStaticText(text)
        hit.setTextFormat(Qt.TextFormat.PlainText)
        hit.prepare(font=theme.font(size, bold))
        _STATIC[key] = hit
        if len(_STATIC) > 50_000:
            _STATIC.clear()
    return hit


_ELIDED: dict[tuple[str, float, bool, float], str] = {}


def elide(text: str, width: float, size: float = 9.0, bold: bool = False) -> str:
    """`text` cut with an ellipsis to fit `width` pixels in the given font (cached)."""
    key = (text, width, bold, size)
    hit = _ELIDED.get(key)
    if hit is None:
        hit = QFontMetricsF(theme.font(size, bold)).elidedText(text, Qt.TextElideMode.ElideRight, width)
        _ELIDED[key] = hit
        if len(_ELIDED) > 50_000:
            _ELIDED.clear()
    return hit


_FLAGS = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable | QGraphicsItem.GraphicsItemFlag.ItemIsMovable
_FAR_FLAGS = _FLAGS | QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
_CACHE = QGraphicsItem.CacheMode.DeviceCoordinateCache
_NO_PEN = QPen(Qt.PenStyle.NoPen)
_RECTS: IdentityMemo[tuple[QRectF, QRectF]] = IdentityMemo(4096)


def _panel_rects(geometry: DeviceGeometry) -> tuple[QRectF, QRectF]:
    """The panel rectangle of a geometry and the item's rectangle (3 units more for the
    selection halo), shared by every device with that geometry (never changed in place)."""
    hit = _RECTS.get(geometry)
    if hit is None:
        panel = QRectF(0, 0, geometry.width, geometry.height)
        hit = _RECTS.put(geometry, (panel, panel.adjusted(-3, -3, 3, 3)))
    return hit


class DeviceItem(QGraphicsRectItem):
    """One device on the Topology canvas (top-left at its model position).

    A QGraphicsRectItem so that Qt computes the bounding rectangle in C++: a Python
    `boundingRect` override is called several times per item and frame (16 ms per frame for
    6,656 devices zoomed out).  The rectangle is the panel plus 3 units for the selection halo;
    the item's own pen and brush are never drawn (`paint` is ours).
    """

    # the state from the model and the marks, as class defaults: 6,656 items are created after
    # a file opens, so each sets only what differs
    geometry: DeviceGeometry | None = None
    role = "leaf"
    tier = 1
    name = ""
    model_text = ""
    used: set[str] | frozenset[str] = frozenset()
    _rect = QRectF()
    _size = (0.0, 0.0)
    #: (severity "error" / "warning", number of findings) from the live validation
    badge: tuple[str, int] | None = None
    #: a colour mode's colour for the stripe (None: the role colour)
    accent: QColor | None = None
    #: "member" / "bottleneck" of the workload shown in the workloads panel
    highlight: str | None = None
    #: from this view scale each port is drawn (below it one bar per cage row)
    detail_scale = lod.PORTS_MIN_SCALE
    #: the cable being drawn: its valid targets are marked
    wire: WireState | None = None

    def __init__(self, device_id: str, far: bool = False) -> None:
        super().__init__()
        self.setPen(_NO_PEN)
        self.device_id = device_id
        # no ItemSendsGeometryChanges and no itemChange override: with thousands of devices the
        # Python dispatch of every item change costs seconds; the scene snaps and moves the cable
        # ends itself while dragging
        self.setFlags(_FAR_FLAGS if far else _FLAGS)
        self.setZValue(10)
        if not far:
            # a front panel with 128 ports is ~300 draw calls: keep it as a pixmap at the current
            # zoom (the scene raises QPixmapCache to 256 MB, shared/reference/performance.md §9)
            self.setCacheMode(_CACHE)

    # ---------------------------------------------------------------- state from the model
    def configure(self, name: str, model_text: str, role: str, geometry: DeviceGeometry) -> None:
        if geometry is not self.geometry:
            self.geometry = geometry
            self._rect, outer = _panel_rects(geometry)
            self._size = (geometry.width, geometry.height)
            self.setRect(outer)
        self.name, self.model_text, self.role = name, model_text, role
        self.update()

    def set_far(self, far: bool) -> None:
        """Zoomed far out the scene's device layer draws this device: paint nothing, cache
        nothing (the item stays for clicks, rubber bands and drags)."""
        self.setFlags(_FAR_FLAGS if far else _FLAGS)
        self.setCacheMode(QGraphicsItem.CacheMode.NoCache if far else _CACHE)

    def set_badge(self, badge: tuple[str, int] | None) -> None:
        if badge != self.badge:
            self.badge = badge
            self.update()

    def set_accent(self, accent: QColor | None) -> None:
        if accent != self.accent:
            self.accent = accent
            self.update()

    def set_highlight(self, highlight: str | None) -> None:
        if highlight != self.highlight:
            self.highlight = highlight
            self.update()

    def set_detail_scale(self, scale: float) -> None:
        if scale != self.detail_scale:
            self.detail_scale = scale
            self.update()

    def set_wire(self, wire: WireState | None) -> None:
        """The cable being drawn (None: none); the caller repaints what is visible."""
        self.wire = wire

    def set_used(self, used: set[str]) -> None:
        if used != self.used:
            self.used = used
            self.update()

    def sync_pos(self, x: float, y: float) -> bool:
        """Move to the model position; True when the item really moved."""
        pos = self.pos()
        if pos.x() != x or pos.y() != y:
            self.setPos(x, y)
            return True
        return False

    @property
    def size(self) -> tuple[float, float]:
        return self._size

    def port_at(self, local: QPointF) -> PortCell | None:
        if self.geometry is None or local.x() < HEADER_W:
            return None
        return self.geometry.port_at(local.x(), local.y())

    def port_scene_pos(self, port: str) -> QPointF | None:
        if self.geometry is None or port not in self.geometry.ports:
            return None
        cx, cy = self.geometry.ports[port].centre
        return self.pos() + QPointF(cx, cy)

    # ---------------------------------------------------------------- Qt overrides
    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self._rect)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        scale = painter.worldTransform().m11()
        rect = self._rect
        selected = self.isSelected()
        role_colour = self.accent or theme.role_colour(self.role)
        if scale < lod.LABELS_MIN_SCALE:
            if self.highlight and not selected:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QBrush(theme.HIGHLIGHTS[self.highlight]))
                painter.drawRect(rect.adjusted(-3, -3, 3, 3))
            painter.setPen(QPen(theme.SELECTION, 0) if selected else Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(theme.SELECTION if selected else role_colour))
            painter.drawRect(rect)
            if self.badge is not None:
                # the right end of the bar in the severity colour: problems read from afar
                part = rect.adjusted(rect.width() * 0.72, 0, 0, 0)
                painter.fillRect(part, theme.SEVERITY_COLOURS[self.badge[0]])
            if rect.width() * scale >= 56 and rect.height() * scale >= 9:
                # the name in screen pixels, while it still fits on the bar
                painter.save()
                box = painter.worldTransform().mapRect(rect)
                painter.resetTransform()
                painter.setPen(QColor("#ffffff"))
                painter.setFont(theme.font(7.5, True))
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.name)
                painter.restore()
            return
        if selected or self.highlight:
            halo = theme.SELECTION_HALO if selected else theme.HIGHLIGHTS[self.highlight or "member"]
            painter.setPen(QPen(halo, 6))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect, 4, 4)
        painter.setPen(QPen(theme.SELECTION if selected else theme.DEVICE_BORDER, 1.6 if selected else 1.0))
        painter.setBrush(QBrush(theme.DEVICE_FILL))
        painter.drawRoundedRect(rect, 4, 4)
        painter.fillRect(QRectF(0.5, 0.5, 5, rect.height() - 1), role_colour)
        ratio = painter.device().devicePixelRatioF() if painter.device() else 1.0
        painter.drawPixmap(QPointF(11, rect.height() / 2 - 10),
                           resources.pixmap(f"role-{self.role}", 20, max(1.0, scale * ratio)))
        painter.setPen(theme.DEVICE_TEXT)
        top = rect.height() / 2 - 15
        painter.drawStaticText(QPointF(37, top), static_text(elide(self.name, HEADER_W - 40, 9.0, True), True, 9.0))
        painter.setPen(theme.DEVICE_SUBTEXT)
        painter.drawStaticText(QPointF(37, top + 16),
                               static_text(elide(self.model_text, HEADER_W - 40, 7.5), False, 7.5))
        if self.geometry is not None:
            if scale < self.detail_scale:
                self._paint_port_summary(painter)
            else:
                self._paint_ports(painter)
        if self.badge is not None:
            self._paint_badge(painter, scale)

    def _paint_badge(self, painter: QPainter, scale: float) -> None:
        """A round mark with the number of findings in the top-right corner of the panel."""
        assert self.badge is not None
        severity, count = self.badge
        text = str(count) if count < 100 else "99+"
        radius = 7.5 if count < 10 else 9.0
        centre = QPointF(self._rect.right() - radius - 2, radius + 2)
        painter.setPen(QPen(QColor("#ffffff"), 1.2))
        painter.setBrush(QBrush(theme.SEVERITY_COLOURS[severity]))
        painter.drawEllipse(centre, radius, radius)
        if scale * radius >= 4:
            painter.setPen(QColor("#ffffff"))
            painter.setFont(theme.font(6.5, True))
            painter.drawText(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius),
                             Qt.AlignmentFlag.AlignCenter, text)

    def _paint_port_summary(self, painter: QPainter) -> None:
        """Zoomed out: one bar per cage row, the used share filled."""
        geometry = self.geometry
        assert geometry is not None
        if not geometry.cages:
            return
        left = geometry.cages[0].rect[0]
        right = max(c.rect[0] + c.rect[2] for c in geometry.cages)
        total = max(1, sum(1 for p in geometry.ports.values() if p.fabric))
        used = sum(1 for name in self.used if name in geometry.ports and geometry.ports[name].fabric)
        bar = QRectF(left, self._rect.height() / 2 - 5, right - left, 10)
        painter.setPen(QPen(theme.DEVICE_BORDER, 1))
        painter.setBrush(QBrush(theme.PORT_FREE_FILL))
        painter.drawRect(bar)
        if used:
            painter.fillRect(QRectF(bar.x(), bar.y(), bar.width() * used / total, bar.height()),
                             theme.role_colour(self.role))

    def _paint_ports(self, painter: QPainter) -> None:
        geometry = self.geometry
        assert geometry is not None
        wire = self.wire
        cage_pen = QPen(QColor("#ced4da"), 1)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cage_pen)
        for cage in geometry.cages:
            x, y, w, h = cage.rect
            painter.drawRect(QRectF(x - 1, y - 1, w + 2, h + 2))
        used = self.used
        for port in geometry.ports.values():
            x, y, w, h = port.rect
            cell = QRectF(x + 0.6, y + 0.6, w - 1.2, h - 1.2)
            colour = theme.speed_colour(port.speed_gbps) if port.fabric else theme.PORT_NONFABRIC
            if port.name in used:
                painter.fillRect(cell, colour)
            else:
                painter.fillRect(cell, theme.speed_fill_light(port.speed_gbps) if port.fabric
                                 else theme.PORT_FREE_FILL)
                painter.setPen(QPen(colour, 1))
                painter.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5))
        if wire is not None:
            self._paint_wire_targets(painter, wire)

    def _paint_wire_targets(self, painter: QPainter, wire: WireState) -> None:
        geometry = self.geometry
        assert geometry is not None
        ok_pen = QPen(theme.TARGET_OK, 2.2)
        bad_pen = QPen(theme.TARGET_BAD, 1.2)
        for port in geometry.ports.values():
            x, y, w, h = port.rect
            key = (self.device_id, port.name)
            if key == wire.source_key:
                painter.setPen(QPen(theme.SOURCE_PORT, 2.4))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(QRectF(x - 1, y - 1, w + 2, h + 2))
                continue
            if not port.fabric and port.name not in self.used and not wire.includes_management:
                continue
            problem = wire.problem(self.device_id, port.name)
            if problem is None:
                painter.setPen(ok_pen)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(QRectF(x - 0.5, y - 0.5, w + 1, h + 1))
            elif (self.device_id, port.name) == wire.hover_key:
                painter.setPen(bad_pen)
                painter.setBrush(QBrush(theme.TARGET_BAD_FILL))
                painter.drawRect(QRectF(x, y, w, h))
                painter.drawLine(QPointF(x + 1, y + 1), QPointF(x + w - 1, y + h - 1))


TITLE_MARGIN = 220.0
"""Scene units left of a tier band's devices; with BAND_PAD above them, where the band's title
is written, never over a device: upright in the margin when it fits, else small along the top
padding, else upwards in the margin, else tiny and upright in the margin, else not at all."""
BAND_PAD = 50.0


def title_font(scale: float) -> QFont:
    return theme.font(10.0 if scale > 0.3 else 9.0, True)


def title_place(tier: int, rect: QRectF,
                transform: QTransform) -> tuple[str, QRectF, bool, QFont] | None:
    """Where the title of the band `rect` goes on screen (device pixels): (text, box, upright,
    font), in the band's left margin or top padding so it covers no device; None when it does
    not fit."""
    text = theme.TIER_TITLES.get(tier, f"Tier {tier}").upper()
    margin = transform.mapRect(QRectF(rect.left(), rect.top(), TITLE_MARGIN, rect.height()))
    font = title_font(transform.m11())
    metrics = QFontMetricsF(font)
    width, height = metrics.horizontalAdvance(text), metrics.height()
    if margin.width() >= width + 20 and margin.height() >= height + 12:
        return text, QRectF(margin.left() + 12, margin.top() + 6, width, height), True, font
    font = upward_font()
    small = QFontMetricsF(font)
    width, height = small.horizontalAdvance(text), small.height()
    if BAND_PAD * transform.m11() >= height + 1:  # along the top, above the devices
        return text, QRectF(margin.left() + 6, margin.top() + 1, width, height), True, font
    if margin.width() >= height + 6 and margin.height() >= width + 4:
        left = margin.left() + (margin.width() - height) / 2
        top = margin.top() + (margin.height() - width) / 2
        return text, QRectF(left, top, height, width), False, font
    font = tiny_font()  # a one-row band fitted small (a one- or two-SU design's spines, leaves)
    tiny = QFontMetricsF(font)
    width, height = tiny.horizontalAdvance(text), tiny.height()
    if margin.width() >= width + 2 and margin.height() >= height + 2:
        left = margin.left() + (margin.width() - width) / 2
        top = margin.top() + (margin.height() - height) / 2
        return text, QRectF(left, top, width, height), True, font
    return None


def tiny_font() -> QFont:
    """The font of a title written upright, small, in a margin too narrow and a band too low
    for the other places."""
    return theme.font(7.0, True)


def upward_font() -> QFont:
    """The font of a title written upwards in a narrow margin."""
    return theme.font(8.0, True)


class TierBands(QGraphicsItem):
    """The horizontal bands behind the devices of each tier, with their titles."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(-100)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._bands: list[tuple[int, QRectF]] = []
        self._bounds = QRectF()

    def set_bands(self, bands: list[tuple[int, QRectF]]) -> None:
        self.prepareGeometryChange()
        self._bands = bands
        bounds = QRectF()
        for _tier, rect in bands:
            bounds = rect if bounds.isNull() else bounds.united(rect)
        self._bounds = bounds
        self.update()

    def bands(self) -> list[tuple[int, QRectF]]:
        return list(self._bands)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._bounds

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        exposed = option.exposedRect
        for index, (tier, rect) in enumerate(self._bands):
            if not rect.intersects(exposed):
                continue
            painter.fillRect(rect, theme.BAND_FILLS[index % 2])
            painter.setPen(QPen(QColor("#e3e8ef"), 0))
            painter.drawLine(rect.topLeft(), rect.topRight())
            place = title_place(tier, rect, painter.worldTransform())
            if place is None:
                continue
            # the title stays readable at any zoom: draw it in device pixels
            text, box, upright, font = place
            painter.save()
            painter.resetTransform()
            painter.setPen(theme.BAND_TEXT)
            painter.setFont(font)
            if upright:
                painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, text)
            else:  # written upwards in the margin
                painter.translate(box.left(), box.bottom())
                painter.rotate(-90)
                painter.drawText(QRectF(0, 0, box.height(), box.width()),
                                 Qt.AlignmentFlag.AlignCenter, text)
            painter.restore()
