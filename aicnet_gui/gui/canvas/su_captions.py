"""`SU 3` above each scalable unit of the Topology canvas while its devices are drawn.

Far out the overview's blocks carry their SU titles (overview_layer.py); closer in the canvas
draws the devices in tier bands, and a design of two or more SUs showed two or more LEAF /
SERVERS band pairs with nothing saying which SU each was.  This item writes the SU's title in
the gap above its leaves, in device pixels on a light plate (cables pass through that gap), from
the overview's own blocks; it holds no truth and is hidden while the overview is drawn.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...model.edits import ChangeSet
from .. import theme

#: scene units above an SU's leaves that the caption may take (the layout's gap between tiers)
CAPTION_SPACE = 200.0
#: the caption is drawn only where its SU is at least this wide on screen
MIN_SU_PX = 60.0

Blocks = list[tuple[str, QRectF]]


class SuCaptions(QGraphicsItem):
    """The SU titles over the devices (see the module docstring)."""

    def __init__(self, blocks: Callable[[], Blocks], devices: Callable[[], QRectF]) -> None:
        super().__init__()
        self._source = blocks
        self._devices = devices
        self._blocks: Blocks | None = None
        self._bounds = QRectF()
        self.setZValue(7)  # over the cables and devices, under the overview
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # paint is told the part of the scene to draw: a pan or a drag redraws a strip, and
        # only the SUs whose caption falls in it are looked at
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._widths: dict[str, float] = {}
        self._height = 0.0

    def changed(self) -> None:
        """The devices changed or a document was opened: the blocks are read again when next
        drawn (the overview computes nothing before it is asked); the item covers the devices
        and the gap above them (an SU lies within its devices)."""
        bounds = self._devices().adjusted(0, -CAPTION_SPACE, 0, 0)
        if bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = bounds
        self._blocks = None
        self.update()

    # the canvas-layer contract (mirror.MirrorLayer): the Topology mirror tells these
    def mirror_reset(self, _data: object) -> None:
        self.changed()

    def mirror_changed(self, changes: ChangeSet) -> None:
        if changes.devices:
            self.changed()

    def mirror_scale(self, scale: float) -> None:
        """Nothing to do: the scene hides the captions while the overview is drawn."""

    def blocks(self) -> Blocks:
        """(title, where the SU's devices are) per SU, read from the overview when needed."""
        if self._blocks is None:
            self._blocks = self._source()
            metrics = QFontMetricsF(theme.font(9.0, True))
            self._widths = {t: metrics.horizontalAdvance(t) + 8 for t, _ in self._blocks}
            self._height = metrics.height() + 2
        return self._blocks

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def caption_rects(self, transform, visible: QRectF | None = None,  # noqa: ANN001
                      exposed: QRectF | None = None) -> list[tuple[str, QRectF]]:
        """Where each caption goes on screen under `transform` (scene to device): above the
        SU's top left corner, where the gap above it holds the text and the SU is wide
        enough to carry it; slid right into `visible` (the viewport) when the SU's left end is
        scrolled out, as far as the SU reaches; only SUs whose gap meets `exposed` (scene)."""
        blocks = self.blocks()
        if not blocks:
            return []
        height = self._height
        gap = transform.mapRect(QRectF(0, 0, 1, CAPTION_SPACE)).height()
        if gap < height + 4:
            return []
        out = []
        for title, rect in blocks:
            if exposed is not None and not exposed.intersects(
                    rect.adjusted(0, -CAPTION_SPACE, 0, 0)):
                continue
            box = transform.mapRect(rect)
            width = self._widths[title]
            if box.width() < max(MIN_SU_PX, width):
                continue
            left = box.left()
            if visible is not None and left < visible.left() + 4:
                left = min(visible.left() + 4, box.right() - width)
            out.append((title, QRectF(left, box.top() - height - 3, width, height)))
        return out

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        visible = QRectF(widget.rect()) if widget is not None else None
        placed = self.caption_rects(painter.worldTransform(), visible, option.exposedRect)
        if not placed:
            return
        painter.save()
        painter.resetTransform()
        painter.setFont(theme.font(9.0, True))
        pen = QPen(QColor("#8a96a3"), 1)
        for title, box in placed:
            painter.setPen(pen)
            painter.setBrush(QBrush(QColor(255, 255, 255, 230)))
            painter.drawRoundedRect(box, 3, 3)
            painter.setPen(theme.DEVICE_TEXT)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, title)
        painter.restore()
