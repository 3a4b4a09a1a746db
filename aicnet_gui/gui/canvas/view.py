"""The canvas view used for both scenes: wheel zoom, pan, fit, rubber band, palette drops.

Wheel zooms around the cursor, Shift+wheel scrolls sideways, the middle button or Space+drag
pans.  A rubber band selects the devices it contains and, in the Topology scene, the cables with
both ends inside it.  Devices dragged from the palette are handed to the scene; files dropped on
the view go on to the window.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QLineF, QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import (
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import QApplication, QFrame, QGraphicsView, QWidget

from .. import theme
from .fabric_scene import FabricScene

DEVICE_MIME = "application/x-aicnet-device-model"
MIN_SCALE = 0.01
"""The least zoom, except where a scene draws far out (`FabricScene.draws_far_out`): there fit
shows the whole design down to FAR_MIN_SCALE, and the wheel zooms out as far as that fit."""
FAR_MIN_SCALE = 0.001
MAX_SCALE = 4.0
FIT_MARGIN = 0.03
FIT_MARGIN_UNITS = 20.0
"""Fit leaves a margin of FIT_MARGIN of the longer side of what it shows plus FIT_MARGIN_UNITS
(scene units) around it, and at least FIT_MARGIN_PX on screen."""
FIT_MARGIN_PX = 24.0
"""The least margin fit leaves on screen around what it shows, whatever the design's size (a
9-pt title is about 15 px high: a design fitted into a window kept 13 px under its last row's
title, the 3 % of a tall design)."""
FIT_ROUNDS = 4
"""Rounds of taking in what the scene draws past its content at the scale fitted (each one
shrinks the scale a little, which grows what is drawn in pixels a little in scene units)."""


class FabricView(QGraphicsView):
    """A zoomable, pannable view of a fabric scene."""

    #: the view scale changed (1.0 = 100 %)
    zoom_changed = Signal(float)
    #: a frame was painted (the scene builds what the first frame did not need after it)
    painted = Signal()

    def __init__(self, scene: FabricScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.ItemSelectionMode.ContainsItemShape)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAcceptDrops(True)
        self._pan_from: QPoint | None = None
        self._space = False
        self._band: QRectF | None = None
        self.rubberBandChanged.connect(self._on_rubber_band)
        self.painted.connect(scene.view_painted)
        self._scene = scene
        #: the least zoom now: MIN_SCALE, or lower after fitting a design drawn far out
        self._least = MIN_SCALE

    # ---------------------------------------------------------------- zoom
    def scale_factor(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float, anchor: QPoint | None = None) -> None:
        current = self.scale_factor()
        target = min(max(current * factor, self._least), MAX_SCALE)
        if math.isclose(target, current):
            return
        if anchor is None:
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.scale(target / current, target / current)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.zoom_changed.emit(self.scale_factor())

    def set_zoom(self, scale: float) -> None:
        self.zoom_by(scale / self.scale_factor())

    def fit_rect(self, rect: QRectF, max_scale: float = 1.5, min_scale: float = MIN_SCALE) -> None:
        """Show `rect` whole with a margin, at most at `max_scale`; never below `min_scale`
        (then its top left is shown, and the rest is a scroll or a zoom out away).  The legend
        sits outside the viewport, so the whole viewport is there to fit into."""
        if rect.isNull() or rect.isEmpty():
            return
        box, scale = self._fitting(rect, max_scale)
        self._show(box, max(scale, min_scale))

    def _show(self, box: QRectF, scale: float) -> None:
        """Zoom to `scale` centred on `box`, or on its top left where it does not fit."""
        viewport = self.viewport().rect()
        width, height = max(viewport.width(), 40), max(viewport.height(), 40)
        self.setTransform(QTransform.fromScale(scale, scale))
        centre = box.center()
        # held at the readable minimum, the design does not fit: show its top left (the first
        # devices of each tier, as a reader starts), the rest is a scroll or a zoom out away
        if box.height() * scale > height:
            centre.setY(box.top() + height / 2 / scale)
        if box.width() * scale > width:
            centre.setX(box.left() + width / 2 / scale)
        self.centerOn(centre)
        self.zoom_changed.emit(self.scale_factor())

    def _fitting(self, rect: QRectF, max_scale: float = 1.5,
                 drawn: Callable[[float], QRectF] | None = None) -> tuple[QRectF, float]:
        """(`rect` with its margin, the scale that shows it whole in the viewport).

        The margin is 3 % of the longer side, and at least FIT_MARGIN_PX on screen.  `drawn`
        says what the scene draws at a scale past `rect` (scene units): a caption or a block
        grown to a size on screen, whose size in the scene depends on the scale; it is taken
        in, at the scale it is shown at (a few rounds: the scale depends on it)."""
        viewport = self.viewport().rect()
        width, height = max(viewport.width(), 40), max(viewport.height(), 40)
        pixels = min(FIT_MARGIN_PX, width / 6, height / 6)
        whole = QRectF(rect)
        scale = _fit_scale(whole, width, height, pixels, max_scale)
        for _ in range(FIT_ROUNDS if drawn is not None else 0):
            extra = drawn(scale)
            if extra.isNull() or whole.contains(extra):
                break
            whole = whole.united(extra)
            scale = _fit_scale(whole, width, height, pixels, max_scale)
        margin = max(_scene_margin(whole), pixels / scale)
        return whole.adjusted(-margin, -margin, margin, margin), scale

    def fit_all(self) -> None:
        """Fit the scene's content: all of it, small or big (below FAR_SCALE the batched layers
        draw it, names where they fit; the user zooms in from there), with what the scene
        draws around it at that zoom (the overview's titles) and a margin.  A scene that draws
        far out is fitted whole however big (down to FAR_MIN_SCALE), and the wheel then zooms
        out as far as that; any other stops at MIN_SCALE, its top left shown."""
        rect = self._scene.content_rect()
        self._least = MIN_SCALE
        if rect.isNull() or rect.isEmpty():
            return
        box, scale = self._fitting(rect, drawn=self._scene.drawn_rect)
        if self._scene.draws_far_out():
            self._least = min(MIN_SCALE, max(FAR_MIN_SCALE, scale))
        self._show(box, max(scale, self._least))

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        delta = event.angleDelta()
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            bar = self.horizontalScrollBar()
            bar.setValue(bar.value() - (delta.y() or delta.x()))
            event.accept()
            return
        steps = delta.y() / 120.0 if delta.y() else event.pixelDelta().y() / 60.0
        if steps:
            self.zoom_by(1.18 ** steps, event.position().toPoint())
        event.accept()

    # ---------------------------------------------------------------- pan
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.MiddleButton or (
            self._space and event.button() == Qt.MouseButton.LeftButton
        ):
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan_from is not None:
            now = event.position().toPoint()
            delta = now - self._pan_from
            self._pan_from = now
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor if self._space else Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().setCursor(Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        super().keyReleaseEvent(event)

    # ---------------------------------------------------------------- rubber band for cables
    def _on_rubber_band(self, rect: QRect, _start: QPointF, _end: QPointF) -> None:
        # Qt reports the end point one move late; the viewport rectangle is exact
        if not rect.isNull():
            self._band = self.mapToScene(rect).boundingRect()
            return
        if self._band is None:
            return
        band, self._band = self._band, None
        add = bool(QApplication.keyboardModifiers() & Qt.KeyboardModifier.ControlModifier)
        self._scene.select_links_in(band, add)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        self._scene.before_frame(self.mapToScene(self.viewport().rect()).boundingRect())
        super().paintEvent(event)
        self.painted.emit()

    # ---------------------------------------------------------------- background grid
    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        painter.fillRect(rect, theme.CANVAS_BG)
        scale = self.scale_factor()
        if scale < 0.25:
            return
        step = theme.GRID_STEP * (1 if scale >= 0.7 else 5)
        left = math.floor(rect.left() / step) * step
        top = math.floor(rect.top() / step) * step
        minor: list[QLineF] = []
        major: list[QLineF] = []
        big = step * 5
        for x in _frange(left, rect.right(), step):
            (major if abs(round(x / big) * big - x) < 1e-6 else minor).append(
                QLineF(x, rect.top(), x, rect.bottom()))
        for y in _frange(top, rect.bottom(), step):
            (major if abs(round(y / big) * big - y) < 1e-6 else minor).append(
                QLineF(rect.left(), y, rect.right(), y))
        painter.setPen(QPen(theme.GRID_MINOR, 0))
        painter.drawLines(minor)
        painter.setPen(QPen(theme.GRID_MAJOR, 0))
        painter.drawLines(major)

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        hint = self._scene.empty_hint()
        if not hint:
            return
        painter.save()
        painter.resetTransform()
        area = self.hint_rect()
        painter.setPen(theme.BAND_TEXT)
        painter.setFont(theme.font(12.0))
        painter.drawText(area, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, hint)
        painter.restore()

    def hint_rect(self) -> QRectF:
        """Where the empty hint is written (viewport pixels): the viewport, or the largest part
        of it beside what the scene says the hint must not cover (`hint_avoid`)."""
        area = QRectF(self.viewport().rect()).adjusted(40, 40, -40, -40)
        avoid = self._scene.hint_avoid()
        if avoid.isNull():
            return area
        box = self.mapFromScene(avoid).boundingRect().adjusted(-16, -16, 16, 16)
        if not area.intersects(QRectF(box)):
            return area
        parts = [QRectF(QPointF(box.right(), area.top()), area.bottomRight()),
                 QRectF(area.topLeft(), QPointF(box.left(), area.bottom())),
                 QRectF(QPointF(area.left(), box.bottom()), area.bottomRight()),
                 QRectF(area.topLeft(), QPointF(area.right(), box.top()))]
        return max(parts, key=lambda r: max(r.width(), 0) * max(r.height(), 0))

    # ---------------------------------------------------------------- drops from the palette
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasFormat(DEVICE_MIME):
            event.acceptProposedAction()
            return
        event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802
        if event.mimeData().hasFormat(DEVICE_MIME):
            event.acceptProposedAction()
            return
        event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        data = event.mimeData()
        if not data.hasFormat(DEVICE_MIME):
            event.ignore()
            return
        model_id = bytes(data.data(DEVICE_MIME).data()).decode()
        self._scene.drop_device(model_id, self.mapToScene(event.position().toPoint()))
        event.acceptProposedAction()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        for child in self.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if hasattr(child, "reposition"):
                child.reposition()


def _frange(start: float, stop: float, step: float) -> list[float]:
    count = int((stop - start) / step) + 2
    return [start + i * step for i in range(min(count, 2000))]


def _scene_margin(rect: QRectF) -> float:
    """The margin in scene units around `rect` (before the FIT_MARGIN_PX minimum)."""
    return max(rect.width(), rect.height()) * FIT_MARGIN + FIT_MARGIN_UNITS


def _fit_scale(rect: QRectF, width: float, height: float, pixels: float,
               max_scale: float) -> float:
    """The largest scale (at most `max_scale`) at which `rect` with its margin fits into
    `width` x `height` pixels: the scene margin scaled, or `pixels`, whichever is more, on every
    side."""
    margin = _scene_margin(rect)
    scale = max_scale
    for room, size in ((width, rect.width()), (height, rect.height())):
        scale = min(scale, room / (size + 2 * margin))  # the scene margin is the larger one
        if size > 0:
            scale = min(scale, (room - 2 * pixels) / size)  # the pixel margin is
    return scale
