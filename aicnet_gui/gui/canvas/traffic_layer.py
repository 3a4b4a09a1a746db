"""Traffic on the Topology canvas: every cable coloured by its load, the hottest ones marked.

A canvas layer (mirror.py's `MirrorLayer`) for the result of the traffic model
(editing/traffic_run.py, computed in the background by gui/traffic_runner.py): `set_picture`
takes the load of every fabric link for the workload and mode chosen, and hands it to the
link layer, whose "traffic" colour mode draws each cable, each bundle (its most loaded cable)
and far out the overview's block-to-block trunks (overview_layer.py) in the colour of its load
(load_ramp.py).  The item itself draws what sits over the cables: a halo and the rank number
(1 = hottest, as the Workloads dock lists them) on the hottest links, at the positions the
mirror gives (`link_line`: port to port), in device pixels.  The links that set the
collective's pace are emphasised only when they are few: when hundreds of NIC links are all at
100 %, the NICs set the pace and no one link is to blame.

It holds no truth and follows the mirror: a new document forgets the result
(`mirror_reset`), an edit marks the cables it touched as pending (their load is the model's
next run's, `mirror_changed`), and the marks give way to the overview's blocks far out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...model.edits import ChangeSet
from .. import load_ramp, theme
from .link_layer import LinkLayer

#: the halo of a link that sets the pace (device pixels): teal, the hue the inferno ramp of the
#: loads does not have (blue against its yellow-red-purple reads for every colour vision),
#: edged white so that it stands off the cables around it
HALO = QColor("#0c8599")
HALO_PX = 7.0
EDGE_PX = 10.0
BADGE_PX = 15.0


class Mark(NamedTuple):
    """A marked link as drawn: where, its rank (0: none), whether it has a halo, its load."""

    line: QLineF
    rank: int
    halo: bool
    load: float


class TrafficLayer(QGraphicsItem):
    """The hottest links marked over the cables; the loads themselves go to the link layer."""

    def __init__(self, links: LinkLayer, link_line: Callable[[str], QLineF | None],
                 overview_active: Callable[[], bool]) -> None:
        super().__init__()
        self._links = links
        self._link_line = link_line
        self._overview_active = overview_active
        self.setZValue(6)  # over the cables and devices, under the SU captions and the overview
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        #: (link id, rank shown or 0) of the marked links, hottest first
        self._marked: list[tuple[str, int]] = []
        self._halo: set[str] = set()
        self._lines: list[Mark] | None = None
        self._bounds = QRectF()
        self._scale = 1.0
        self.has_result = False

    # ---------------------------------------------------------------- the result
    def set_picture(self, ids: list[str], loads: np.ndarray, ranked: list[str],
                    emphasised: list[str], column: tuple[int, np.ndarray] | None = None) -> None:
        """The load of every link the model names (others carry none); `ranked`: the hottest
        links in the dock's order (numbered on the canvas), `emphasised` the links to halo;
        `column`: (rows version, the same loads laid out in the link layer's rows by the
        worker), taken as it is while the rows are still those (300k ids looked up here would
        hold the window ~60 ms)."""
        if column is None or not self._links.set_load_column(column[1], column[0]):
            self._links.set_loads(ids, loads)
        self.has_result = True
        rank = {link_id: i + 1 for i, link_id in enumerate(ranked)}
        marked = list(dict.fromkeys([*emphasised, *ranked]))
        self._marked = [(link_id, rank.get(link_id, 0)) for link_id in marked]
        self._halo = set(emphasised)
        self._changed()

    def clear(self) -> None:
        if self.has_result:
            self._links.clear_loads()
        self.has_result = False
        self._marked = []
        self._halo = set()
        self._changed()

    def marked(self) -> list[tuple[str, int]]:
        """(link id, rank) of the links marked on the canvas."""
        return list(self._marked)

    def _changed(self) -> None:
        self._lines = None
        lines = self._geometry()
        bounds = QRectF()
        for mark in lines:
            bounds = bounds.united(QRectF(mark.line.p1(), mark.line.p2()).normalized())
        margin = max(EDGE_PX, BADGE_PX) / max(self._scale, 1e-6)  # the marks are device pixels
        bounds = bounds.adjusted(-margin, -margin, margin, margin) if not bounds.isNull() else bounds
        if bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = bounds
        self.update()

    def _geometry(self) -> list[Mark]:
        """The marks of the links still drawn with a load (an edited one waits for the model)."""
        if self._lines is None:
            out = []
            for link_id, rank in self._marked:
                line = self._link_line(link_id)
                load = self._links.load_of(link_id)
                if line is not None and load is not None:
                    out.append(Mark(line, rank, link_id in self._halo, load))
            self._lines = out
        return self._lines

    # the canvas-layer contract (mirror.MirrorLayer): the Topology mirror tells these
    def mirror_reset(self, _data: object) -> None:
        self.clear()

    def mirror_changed(self, changes: ChangeSet) -> None:
        if not self.has_result:
            return
        if changes.links:
            self._links.mark_pending(list(changes.links))
        if changes.links or changes.devices:
            self._changed()  # a marked cable moved with its device, or went

    def mirror_scale(self, scale: float) -> None:
        """The marks are drawn in device pixels: the item's margin follows the scale."""
        self._scale = scale
        if self._marked:
            self._changed()

    # ---------------------------------------------------------------- painting
    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if not self._marked or self._links.mode != "traffic" or self._overview_active():
            return
        lines = self._geometry()
        if not lines:
            return
        transform = painter.worldTransform()
        painter.save()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        on_screen = [mark._replace(line=transform.map(mark.line)) for mark in lines]
        edge = QPen(QColor("#ffffff"), EDGE_PX)
        halo = QPen(HALO, HALO_PX)
        for pen in (edge, halo):
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        for mark in on_screen:
            if mark.halo:  # a link that sets the pace: a halo under its own colour again
                for pen in (edge, halo, QPen(QColor(load_ramp.colour_of(mark.load)), 2.6)):
                    painter.setPen(pen)
                    painter.drawLine(mark.line)
        painter.setFont(theme.font(7.5, True))
        placed: list[QPointF] = []
        for mark in sorted(on_screen, key=lambda m: m.rank):
            if mark.rank:
                at = self._free_spot(mark.line, placed)
                placed.append(at)
                self._badge(painter, at, mark.rank, mark.load)
        painter.restore()

    @staticmethod
    def _free_spot(line: QLineF, placed: list[QPointF]) -> QPointF:
        """Where a badge goes on `line` (device pixels): its middle, else the first point along
        it, stepping out from the middle, that no badge placed before covers (parallel cables
        between the same switches share their middle far out)."""
        length = max(line.length(), 1.0)
        step = (BADGE_PX + 2) / length
        for k in range(12):
            t = 0.5 + (k + 1) // 2 * step * (1 if k % 2 else -1)
            if not 0.05 <= t <= 0.95:
                continue
            at = line.pointAt(t)
            if all(abs(at.x() - p.x()) > BADGE_PX or abs(at.y() - p.y()) > BADGE_PX
                   for p in placed):
                return at
        return line.center()

    @staticmethod
    def _badge(painter: QPainter, at: QPointF, rank: int, load: float) -> None:
        """The rank of a hot link at its middle: a disc in its load's colour."""
        r = BADGE_PX / 2
        box = QRectF(at.x() - r, at.y() - r, BADGE_PX, BADGE_PX)
        colour = QColor(load_ramp.colour_of(load))
        painter.setPen(QPen(QColor("#ffffff"), 1.5))
        painter.setBrush(QBrush(colour))
        painter.drawEllipse(box)
        light = colour.lightnessF() > 0.55
        painter.setPen(QColor("#1f2933") if light else QColor("#ffffff"))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, str(rank))
