"""A histogram of link loads, drawn with QPainter: how many links carry 0-10 %, ... 90-100 % of
their speed for the workload and mode the Workloads dock shows.

The bins are the traffic model's (aicnet_gui/traffic/result.py `histogram`: the links that
carry traffic, 10 bins over 0-100 %), each bar in the colour the canvas draws those links in
(load_ramp.py), its count above it; the links without traffic are counted in the caption.  A
plotting library for ten bars is not worth its weight (none is a dependency of aicnet).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...traffic.result import Bin
from .. import load_ramp, theme

AXIS = QColor("#9aa5b1")
TEXT = QColor("#52606d")


class LoadHistogram(QWidget):
    """Bars of links per load bin (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bins: tuple[Bin, ...] = ()
        self._idle = 0
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(132)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(300, 132)

    def set_bins(self, bins: Sequence[Bin], idle: int = 0) -> None:
        """The model's bins and how many fabric links carry nothing."""
        self._bins = tuple(bins)
        self._idle = idle
        self.setToolTip("\n".join(f"{load_ramp.bin_label(k)}: {b.links:,} links"
                                  for k, b in enumerate(self._bins))
                        + (f"\nno traffic: {idle:,} links" if idle else ""))
        self.update()

    def counts(self) -> list[int]:
        return [b.links for b in self._bins]

    def bar_rects(self) -> list[QRectF]:
        """Where each bar is drawn (widget pixels)."""
        plot = self._plot()
        if not self._bins:
            return []
        top = max(max(self.counts()), 1)
        width = plot.width() / len(self._bins)
        out = []
        for k, b in enumerate(self._bins):
            # a bin with links is at least 2 px high: a handful among hundreds still shows
            height = max(plot.height() * b.links / top, 2.0 if b.links else 0.0)
            out.append(QRectF(plot.left() + k * width + 1, plot.bottom() - height,
                              max(width - 2, 1), height))
        return out

    def _plot(self) -> QRectF:
        line = QFontMetricsF(theme.font(7.5)).height()
        # the counts above the bars, then the axis labels and the caption below them
        return QRectF(6, line + 4, self.width() - 12, self.height() - 3 * line - 12)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setFont(theme.font(7.5))
        metrics = QFontMetricsF(painter.font())
        plot = self._plot()
        if not self._bins or not sum(self.counts()):
            painter.setPen(TEXT)
            painter.drawText(QRectF(self.rect()), Qt.AlignmentFlag.AlignCenter,
                             "no link carries traffic")
            painter.end()
            return
        for k, rect in enumerate(self.bar_rects()):
            painter.fillRect(rect, QColor(load_ramp.RAMP[k]))
            count = self._bins[k].links
            if count:
                label = QRectF(rect.left() - 8, rect.top() - metrics.height() - 1,
                               rect.width() + 16, metrics.height())
                painter.setPen(TEXT)
                painter.drawText(label, Qt.AlignmentFlag.AlignCenter, f"{count:,}")
        painter.setPen(QPen(AXIS, 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        below = QRectF(plot.left(), plot.bottom() + 2, plot.width(), metrics.height())
        painter.setPen(TEXT)
        painter.drawText(below, Qt.AlignmentFlag.AlignLeft, "0 %")
        painter.drawText(below, Qt.AlignmentFlag.AlignHCenter, "50 %")
        painter.drawText(below, Qt.AlignmentFlag.AlignRight, "100 % of capacity")
        caption = QRectF(plot.left(), below.bottom(), plot.width(), metrics.height() + 2)
        idle = f" · {self._idle:,} idle" if self._idle else ""
        painter.drawText(caption, Qt.AlignmentFlag.AlignLeft,
                         f"{sum(self.counts()):,} links carry traffic{idle}")
        painter.end()
