"""The comparison's charts, drawn with pyqtgraph: cost and power against collective time with the
Pareto frontier as steps, the network's cost and power stacked by part class, and the counts
per candidate.

The charts are the PDF's (report/compare_pdf.py: the same points, frontier, classes, counts and
colours), interactive: a point or a bar is numbered as the table's `#` column, hovering shows
the candidate, clicking it emits `picked(candidate index)`, and `highlight` rings the selected
candidate's points and outlines its bars.  pyqtgraph is imported when the charts are first
made (the comparison view is built on demand), not when the window starts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QPointF, Signal
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from ...report.compare_pdf import (
    CLASS_COLOURS,
    COUNTS,
    DOMINATED,
    FRONTIER,
    MAX_LABELLED,
    NETWORK,
    compact,
    free_label_spot,
    powered,
    priced,
    servers_caption,
    shared_labels,
    span,
    staircase,
    unpowered_caption,
    unpowered_switches,
)
from ...study.candidate import EVEN_SPREAD, Candidate
from ...study.comparison_text import FALLBACK_MARK, no_power_comparison, power_left_out

pg.setConfigOptions(antialias=True, background="w", foreground="#1f2933")

HIGHLIGHT = "#1f2933"
Split = Callable[[Candidate], dict[str, float] | None]


def _hex(colour: Any) -> str:
    """A reportlab colour as `#rrggbb`."""
    return "#" + colour.hexval()[2:]


def _number(c: Candidate) -> str:
    return str(c.index + 1)


def _stands_in(c: Candidate) -> bool:
    """The candidate's time is the even-spread bound, the traffic model giving none."""
    return c.metrics is not None and c.metrics.collective_basis == EVEN_SPREAD


def point_label(c: Candidate) -> str:
    """A point's number, `*` after it when its time is the even-spread bound standing in."""
    return _number(c) + (FALLBACK_MARK if _stands_in(c) else "")


def point_tip(c: Candidate, x: float, t: float) -> str:
    """What hovering over a candidate's point says."""
    tip = f"#{c.index + 1} {c.name}\n{x:,.4g} · {t:.3f} ms"
    if _stands_in(c):
        tip += (f"{FALLBACK_MARK}: the even-spread bound stands in (the traffic model gave no "
                "time); compared at it")
    return tip


class _CompactAxis(pg.AxisItem):
    """Tick labels as the PDF writes them (5.35M, 700k), never in exponent notation."""

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:  # noqa: N802
        """As few digits as write every tick as it is (10.5M, 10.55M, 10.6M: not 10.5M twice)."""
        shown = [v * scale for v in values]
        for digits in range(3, 8):
            if all(_lossless(v, digits) for v in shown):
                break
        return [compact(v, digits) if abs(v) >= 1000 else f"{v:.{digits + 1}g}" for v in shown]


def _lossless(value: float, digits: int) -> bool:
    """`value` written with `digits` significant digits loses nothing (up to three more)."""
    return float(f"{value:.{digits}g}") == float(f"{value:.{digits + 3}g}")


def _axes() -> dict[str, pg.AxisItem]:
    return {"bottom": _CompactAxis("bottom"), "left": _CompactAxis("left")}


class _Panel(QWidget):
    """A caption above a pyqtgraph widget."""

    def __init__(self, graphics: pg.GraphicsView | pg.PlotWidget) -> None:
        super().__init__()
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setStyleSheet("color: #52606d;")
        self.graphics = graphics
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.caption)
        layout.addWidget(graphics, 1)
        layout.addStretch(0)  # the caption stays on top while the chart is hidden

    def show_chart(self, shown: bool) -> None:
        """The chart, or only the caption (which says why there is nothing to draw): empty
        axes from 0 to 1 say nothing."""
        self.graphics.setVisible(shown)


class _Scatter:
    """Collective time against cost or power: frontier steps, points, numbers, the ring."""

    def __init__(self, x_of: Callable[[Candidate], float | None],
                 on_frontier: Callable[[Candidate], bool], picked: Callable[[int], None]) -> None:
        self.x_of = x_of
        self.on_frontier = on_frontier
        self.widget = pg.PlotWidget(axisItems=_axes())
        self.plot = self.widget.getPlotItem()
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        self.plot.setMenuEnabled(False)
        self.panel = _Panel(self.widget)
        self._points: dict[int, tuple[float, float]] = {}
        self._labels: dict[int, str] = {}  # candidate index -> its number as drawn
        self._tips: dict[int, str] = {}
        self._texts: list[tuple[pg.TextItem, float, float]] = []  # a label, its point
        self._picked = picked
        self._ring = pg.ScatterPlotItem(size=18, pen=pg.mkPen(HIGHLIGHT, width=2), brush=None)
        self._ring.setZValue(10)
        # labels of points close on screen are stacked a line apart, again after a zoom or resize
        self.plot.vb.sigResized.connect(self.place_labels)
        self.plot.vb.sigRangeChanged.connect(self.place_labels)

    def show(self, candidates: Sequence[Candidate], x_title: str, y_title: str) -> int:
        """Draw the candidates that have both numbers; how many were drawn."""
        plot = self.plot
        self._texts = []
        plot.clear()
        drawn = [(c, self.x_of(c), c.metrics.collective_ms) for c in candidates  # type: ignore[union-attr]
                 if c.metrics is not None and c.feasible and self.x_of(c) is not None
                 and c.metrics.collective_ms is not None]
        self._points = {c.index: (x, t) for c, x, t in drawn}  # type: ignore[misc]
        plot.setLabel("bottom", x_title)
        plot.setLabel("left", y_title)
        front = staircase(sorted((x, t) for c, x, t in drawn if self.on_frontier(c)))  # type: ignore[misc]
        if front:
            xs, ts = zip(*front, strict=True)
            plot.addItem(pg.PlotDataItem(xs, ts, pen=pg.mkPen(_hex(FRONTIER), width=1.5)))
        spots = [self._spot(c, x, t) for c, x, t in drawn]  # type: ignore[arg-type]
        self._labels = {c.index: point_label(c) for c, _x, _t in drawn}
        self._tips = {c.index: point_tip(c, x, t) for c, x, t in drawn}  # type: ignore[arg-type]
        tips = self._tips
        points = pg.ScatterPlotItem(spots=spots, hoverable=True, hoverSize=13,
                                    tip=lambda _x, _y, data: tips[data])
        points.sigClicked.connect(lambda _item, hits, _ev: hits and self._picked(hits[0].data()))
        plot.addItem(points)
        if len(drawn) <= MAX_LABELLED:
            texts = shared_labels([(point_label(c), x, t) for c, x, t in drawn])  # type: ignore[misc]
            for (c, x, t), text in zip(drawn, texts, strict=True):
                if not text:
                    continue
                label = pg.TextItem(text, color=_hex(FRONTIER) if self.on_frontier(c)
                                    else "#1f2933", anchor=(-0.3, 1.1))
                label.setPos(x, t)
                plot.addItem(label)
                self._texts.append((label, x, t))  # type: ignore[arg-type]
        plot.addItem(self._ring)
        self._ring.setData([])
        if drawn:  # the PDF's ranges: equal times (or costs) still give a readable axis
            plot.setXRange(*span([x for _c, x, _t in drawn]), padding=0)  # type: ignore[misc]
            plot.setYRange(*span([t for _c, _x, t in drawn]), padding=0)  # type: ignore[misc]
        self.place_labels()
        return len(drawn)

    def place_labels(self, *_args: object) -> None:
        """Each label beside its point, a line higher where it would cover a label already
        placed (the PDF's free_label_spot, in pixels: points a few pixels apart at this size
        and zoom, such as 20.49M, 20.54M and 20.58M on a third of a window)."""
        vb = self.plot.vb
        placed: list[tuple[float, float, float]] = []
        for label, x, t in self._texts:
            size = label.textItem.boundingRect()
            width, height = size.width(), size.height()
            if not height:
                continue
            at = vb.mapViewToScene(QPointF(x, t))
            # the label's left edge is 0.3 of its width right of the point (its anchor); y up
            px, py = at.x() + 0.3 * width, -at.y()
            _lx, ly = free_label_spot(px, py, width, placed, line=height)
            label.setAnchor((-0.3, 1.1 + (ly - py) / height))

    def _spot(self, c: Candidate, x: float, t: float) -> dict[str, Any]:
        """A point: red on the frontier, grey dominated; hollow where the even-spread bound
        stands in for the traffic model's time."""
        colour = _hex(FRONTIER) if self.on_frontier(c) else _hex(DOMINATED)
        size = 10 if self.on_frontier(c) else 8
        if _stands_in(c):
            return {"pos": (x, t), "data": c.index, "size": size, "brush": pg.mkBrush("w"),
                    "pen": pg.mkPen(colour, width=2)}
        return {"pos": (x, t), "data": c.index, "size": size, "brush": pg.mkBrush(colour),
                "pen": None}

    def highlight(self, candidate_index: int | None) -> None:
        point = self._points.get(candidate_index) if candidate_index is not None else None
        self._ring.setData([] if point is None else [{"pos": point}])

    def label_of(self, candidate_index: int) -> str | None:
        """The number a drawn candidate's point carries (tests, screenshots)."""
        return self._labels.get(candidate_index)

    def tip_of(self, candidate_index: int) -> str | None:
        """What hovering over a drawn candidate's point says."""
        return self._tips.get(candidate_index)


class _Bars:
    """Bars per candidate (stacked parts, or one series), numbered, the selected one outlined."""

    def __init__(self, plot: pg.PlotItem, picked: Callable[[int], None]) -> None:
        self.plot = plot
        plot.showGrid(y=True, alpha=0.15)
        plot.setMenuEnabled(False)
        plot.setMouseEnabled(x=False, y=False)
        self._picked = picked
        self._tops: dict[int, tuple[float, float]] = {}  # candidate index -> (x, top)
        self._order: list[int] = []
        self._outline = pg.BarGraphItem(x=[], height=[], width=0.8, brush=None,
                                        pen=pg.mkPen(HIGHLIGHT, width=2))
        self._outline.setZValue(10)

    def show(self, candidates: Sequence[Candidate], series: Sequence[tuple[str, str, Callable[[Candidate], float]]],
             y_title: str, legend: bool, lower_bounds: frozenset[int] = frozenset()) -> None:
        """`lower_bounds`: the indexes of candidates whose bars leave a part out (numbered with
        "(>=)", as the PDF names them)."""
        plot = self.plot
        plot.clear()
        if plot.legend is not None:
            plot.legend.clear()
        elif legend:
            plot.addLegend(offset=(8, 8), brush=pg.mkBrush(255, 255, 255, 230))
        xs = list(range(1, len(candidates) + 1))
        bottom = [0.0] * len(candidates)
        for title, colour, value in series:
            heights = [value(c) for c in candidates]
            bars = pg.BarGraphItem(x=xs, height=heights, y0=list(bottom), width=0.62,
                                   brush=colour, pen=None)
            plot.addItem(bars)
            if legend and plot.legend is not None:
                plot.legend.addItem(bars, title)
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
        self._order = [c.index for c in candidates]
        self._tops = {c.index: (x, top) for c, x, top in zip(candidates, xs, bottom, strict=True)}
        many = len(candidates) > MAX_LABELLED
        plot.getAxis("bottom").setTicks([[
            (x, _number(c) + (" (>=)" if c.index in lower_bounds else ""))
            for x, c in zip(xs, candidates, strict=True) if not many or x % 5 == 0]])
        plot.setLabel("left", y_title)
        plot.setLabel("bottom", "candidate (#)" if legend else "")
        plot.addItem(self._outline)
        self._outline.setOpts(x=[], height=[])
        plot.setXRange(0.4, len(candidates) + 0.6, padding=0)
        top = max(bottom, default=0.0) or 1.0
        plot.setYRange(0, top * (1.35 if legend else 1.08), padding=0)  # room for the legend

    def highlight(self, candidate_index: int | None) -> None:
        top = self._tops.get(candidate_index) if candidate_index is not None else None
        if top is None:
            self._outline.setOpts(x=[], height=[])
        else:
            self._outline.setOpts(x=[top[0]], height=[top[1]], width=0.8)

    def clicked(self, scene_pos: Any) -> None:
        if not self.plot.sceneBoundingRect().contains(scene_pos):
            return
        x = self.plot.vb.mapSceneToView(scene_pos).x()
        position = round(x)
        if 1 <= position <= len(self._order) and abs(x - position) <= 0.4:
            self._picked(self._order[position - 1])


class ComparisonCharts(QTabWidget):
    """The charts of a comparison, one per tab."""

    #: a point or bar was clicked (the candidate's index)
    picked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        pick = self.picked.emit
        self.cost_time = _Scatter(lambda c: c.metrics.cost if c.metrics else None,
                                  lambda c: bool(c.pareto and c.pareto.cost_time), pick)
        self.power_time = _Scatter(lambda c: c.metrics.comparable_power_kw if c.metrics else None,
                                   lambda c: bool(c.pareto and c.pareto.power_time), pick)
        self.cost_bars = self._bar_panel()
        self.power_bars = self._bar_panel()
        self.counts_view = pg.GraphicsLayoutWidget()
        self.counts: list[_Bars] = []
        for n, (title, _value) in enumerate(COUNTS):
            plot = self.counts_view.addPlot(row=n // 2, col=n % 2, title=title,
                                            axisItems=_axes())
            self.counts.append(_Bars(plot, pick))
        self.counts_view.scene().sigMouseClicked.connect(
            lambda ev: [bars.clicked(ev.scenePos()) for bars in self.counts])
        self.counts_panel = _Panel(self.counts_view)
        self.counts_panel.caption.setText("Switches, optics, cables and racks of each candidate, "
                                          "each on its own scale.")
        self.addTab(self.cost_time.panel, "Cost × time")
        self.addTab(self.power_time.panel, "Power × time")
        self.addTab(self.cost_bars[1], "Cost by part")
        self.addTab(self.power_bars[1], "Power by part")
        self.addTab(self.counts_panel, "Counts")
        self._bars = [self.cost_bars[0], self.power_bars[0], *self.counts]
        self._scatters = [self.cost_time, self.power_time]

    def _bar_panel(self) -> tuple[_Bars, _Panel]:
        widget = pg.PlotWidget(axisItems=_axes())
        bars = _Bars(widget.getPlotItem(), self.picked.emit)
        widget.scene().sigMouseClicked.connect(lambda ev: bars.clicked(ev.scenePos()))
        return bars, _Panel(widget)

    # ---------------------------------------------------------------- contents
    def show_candidates(self, candidates: Sequence[Candidate]) -> None:
        """Draw the built candidates (in the order of their numbers)."""
        built = sorted((c for c in candidates if c.metrics is not None), key=lambda c: c.index)
        first = built[0].metrics if built else None
        primary = first.primary if first else None
        time_title = (f"all-reduce of {primary} under its load balancing, ms" if primary
                      else "all-reduce, ms")
        currency = next((c.metrics.currency for c in built if c.metrics and c.metrics.currency), "")
        frontier = ("Red: on the Pareto frontier (no other candidate is both {} and faster); grey: "
                    "dominated. Time: the traffic model's under each candidate's own load "
                    "balancing" + _stand_ins(built) + ". Candidates that do not fit the site "
                    "are left out.")
        drawn = self.cost_time.show(built, f"cost ({currency})" if currency else "cost",
                                    time_title)
        self.cost_time.panel.caption.setText(
            frontier.format("cheaper") if drawn else _no_cost(built))
        self.cost_time.panel.show_chart(drawn > 0)
        drawn = self.power_time.show(built, "power, kW (every part at its maximum)", time_title)
        self.power_time.panel.caption.setText(
            frontier.format("cooler") + _no_power_figure(built) if drawn
            else no_power_comparison(built))
        self.power_time.panel.show_chart(drawn > 0)
        self._stack(self.cost_bars, built, priced, 1.0,
                    f"priced cost, spares included ({currency or '-'})", currency,
                    "No part has a price: no cost bars.", digits=0)
        self._stack(self.power_bars, built, powered, 1000.0, "power, kW", "kW",
                    "The power split does not add up to the BOM's total: no power bars.",
                    also=unpowered_caption(built),
                    lower_bounds=frozenset(c.index for cs in unpowered_switches(built).values()
                                           for c in cs))
        self.counts_panel.show_chart(bool(built))
        colours = [CLASS_COLOURS["switches"], CLASS_COLOURS["optics"], CLASS_COLOURS["cables"],
                   CLASS_COLOURS["servers"]]
        for bars, (title, value), colour in zip(self.counts, COUNTS, colours, strict=True):
            bars.show(built, [(title, _hex(colour), value)], "", legend=False)

    def _stack(self, panel: tuple[_Bars, _Panel], built: list[Candidate], split: Split,
               scale: float, y_title: str, unit: str, empty: str, digits: int = 1,
               also: str = "", lower_bounds: frozenset[int] = frozenset()) -> None:
        bars, frame = panel
        shown = [c for c in built if split(c)]
        series = [(part, _hex(CLASS_COLOURS[part]),
                   lambda c, p=part: split(c)[p] / scale)  # type: ignore[index]
                  for part in NETWORK]
        bars.show(shown, series, y_title, legend=True, lower_bounds=lower_bounds)
        frame.caption.setText(" ".join(filter(None, (servers_caption(built, split, scale, unit,
                                                                     digits), also)))
                              if shown else empty)
        frame.show_chart(bool(shown))

    def highlight(self, candidate_index: int | None) -> None:
        """Ring the candidate's points and outline its bars (None: nothing)."""
        for chart in (*self._scatters, *self._bars):
            chart.highlight(candidate_index)

    def point_of(self, chart: str, candidate_index: int) -> tuple[float, float] | None:
        """Where a candidate is drawn on "cost_time" or "power_time" (tests, screenshots)."""
        return getattr(self, chart)._points.get(candidate_index)


def _stand_ins(built: Sequence[Candidate]) -> str:
    """The candidates drawn at their even-spread bound (no traffic-model time)."""
    numbers = [_number(c) for c in built
               if c.metrics is not None and c.metrics.collective_basis == EVEN_SPREAD]
    if not numbers:
        return ""
    return (" (#" + ", #".join(numbers) + f", drawn hollow and numbered with {FALLBACK_MARK}: the "
            "even-spread bound, the traffic model giving no time)")


def _no_power_figure(built: Sequence[Candidate]) -> str:
    """The candidates the power chart leaves out because a switch has no maximum figure."""
    left = [_number(c) for c in power_left_out(built)]
    if not left:
        return ""
    return " #" + ", #".join(left) + " not drawn: a switch without a maximum power figure."


def _no_cost(built: Sequence[Candidate]) -> str:
    notes = {c.metrics.cost_note for c in built if c.metrics is not None}
    why = "; ".join(sorted(notes)) if notes else "no candidate was built"
    return f"No candidate has a complete cost ({why}): nothing to draw."

