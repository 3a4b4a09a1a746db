"""The comparison report of a study (`aicnet compare --pdf`), drawn with reportlab.

Page by page: the requirement and one row per built candidate (counts, power, cost, collective
time under the candidate's own load balancing and the load balancing it ran, the even-spread
bound, bisection, the worst switch failure, growth when the requirement has a target, findings,
Pareto marks), the candidates that cannot be built with their reasons; cost against collective
time with the Pareto frontier (and power against time); cost and power stacked by part class;
counts per candidate.  Every number is the candidate's own (study/candidate.py); the charts draw
the same values the table prints.  Candidates carry the window's numbers (`#`, the study's
order, the same on every chart); a time that is the even-spread bound standing in for the
traffic model's is marked `*` in the table and on the charts (a hollow point).  Fonts are
aicnet's embedded DejaVu (report/fonts.py), so any name prints.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Group, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    KeepTogether,
    LongTable,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    TableStyle,
)

from ..model.catalog import Catalog
from ..model.fabric import Requirement
from ..study.candidate import EVEN_SPREAD, Candidate, StudyResult
from ..study.comparison_text import (
    FALLBACK_MARK,
    balancing_text,
    collective_text,
    kw,
    money,
    ms,
    no_power_comparison,
    pareto_text,
    power_left_out,
    power_lines,
)
from ..study.traffic_estimates import SEEDS, by_mode_line, fallback_lines
from .fonts import fonts
from .outfile import write_bytes

PAGE = landscape(A4)
MARGIN = 12 * mm
CLASS_COLOURS = {"servers": colors.HexColor("#4c72b0"), "switches": colors.HexColor("#dd8452"),
                 "optics": colors.HexColor("#55a868"), "cables": colors.HexColor("#8172b3")}
FRONTIER = colors.HexColor("#c44e52")
POINT = colors.HexColor("#4c72b0")
DOMINATED = colors.HexColor("#9a9a9a")
MAX_LABELLED = 40  # more candidates than this: charts label them by number


def _styles() -> dict[str, ParagraphStyle]:
    f = fonts()
    return {
        "title": ParagraphStyle("title", fontName=f.bold, fontSize=16, leading=20),
        "h2": ParagraphStyle("h2", fontName=f.bold, fontSize=11, leading=14, spaceBefore=6),
        "body": ParagraphStyle("body", fontName=f.regular, fontSize=8.5, leading=11),
        "item": ParagraphStyle("item", fontName=f.regular, fontSize=8.5, leading=11,
                               leftIndent=4 * mm),
        "cell": ParagraphStyle("cell", fontName=f.cond, fontSize=7, leading=8.5),
        "head": ParagraphStyle("head", fontName=f.cond_bold, fontSize=7, leading=8.5),
    }


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _requirement_lines(requirement: Requirement, result: StudyResult,
                       catalog: Catalog) -> list[str]:
    model = catalog.devices.get(requirement.server)
    server = model.model if model is not None else requirement.server
    size = (f"{requirement.servers} x {server}" if requirement.servers is not None
            else f"{requirement.gpus} GPUs on {server}")
    lines = [f"Cluster: {size}."]
    if requirement.workloads:
        lines.append("Workloads: " + "; ".join(
            f"{w.id} ({w.kind.value}, "
            + (f"{w.gpus} GPUs" if w.gpus else f"{w.servers} servers" if w.servers else
               "every server") + ")" for w in requirement.workloads) + ".")
    site = requirement.site
    lines.append(f"Site: {site.rack_power_kw:g} kW per rack, {site.rack_height_ru} RU, "
                 f"{site.racks_per_row} racks per row"
                 + (f", {site.rows} rows" if site.rows else "") + ".")
    if requirement.growth is not None:
        g = requirement.growth
        target = (f"{g.sus} SUs" if g.sus else f"{g.gpus} GPUs" if g.gpus else f"{g.servers} "
                  "servers")
        lines.append(f"Growth: to {target}" + (" within the same spines" if g.same_spines
                                                else "") + ".")
    lines.append(f"Prices: {result.price_list or 'no price list (aicnet ships no prices)'}.")
    lines.append(f"{len(result.candidates)} candidates, built in worker processes in "
                 f"{result.seconds:.1f} s" + (" (cancelled: "
                                              f"{len(result.not_run)} not run)"
                                              if result.cancelled else "") + ".")
    return lines + list(result.notes)


#: the candidate table's columns and their widths in mm (each as wide as its header's longest
#: word); the worst switch failure takes what is left of the page.  With a growth target the
#: Growth column takes GROWTH_MM, and the candidate's names NARROW_NAME_MM (broken at hyphens)
TABLE_HEAD = (("#", 5), ("Candidate", 33), ("Technology", 16), ("Leaf / spine / core", 13),
              ("Optics", 10), ("Cables", 10), ("Fibre km", 8), ("Racks", 9), ("kW", 12),
              ("Unverified kW", 15), ("Cost", 21), ("All-reduce ★", 15), ("Load balancing", 15),
              ("Bus GB/s", 9), ("Even spread ★", 12), ("Bisection", 14),
              ("Worst switch failure", None), ("Growth", None), ("Findings", 13), ("Pareto", 15))
GROWTH_MM, NARROW_NAME_MM = 21, 23
CELL_PADDING = 2  # points either side (_GRID)


def number(c: Candidate) -> str:
    """A candidate's number: the window's `#` (its place in the study), on every page."""
    return str(c.index + 1)


def name_lines(name: str, width: float, font: str, size: float) -> list[str]:
    """`name` in lines no wider than `width` points, broken after a hyphen
    (`infiniband-qm9700-` / `1to1-rail`), never inside a part unless one part alone is wider."""
    lines: list[str] = []
    line = ""
    for part in re.findall(r"[^-]*-|[^-]+$", name):
        if stringWidth(line + part, font, size) <= width:
            line += part
            continue
        if line:
            lines.append(line)
        line = ""
        for char in part:  # a part too wide for a line of its own: cut where it must be
            if line and stringWidth(line + char, font, size) > width:
                lines.append(line)
                line = ""
            line += char
    return [*lines, line] if line or not lines else lines


def _name_cell(c: Candidate, width: float, style: ParagraphStyle) -> Paragraph:
    lines = name_lines(c.name, width - 2 * CELL_PADDING, style.fontName, style.fontSize)
    text = "<br/>".join(_esc(line) for line in lines)
    if not c.feasible:
        text += f"<br/>(does not fit: {_esc(c.reason or '')})"
    return Paragraph(text, style)


def _with_growth(built: list[Candidate]) -> bool:
    return any(c.metrics is not None and c.metrics.growth is not None for c in built)


def _columns(built: list[Candidate]) -> list[tuple[str, float]]:
    """The table's columns (title, width in points) for `built`."""
    growth = _with_growth(built)
    widths = {h: w for h, w in TABLE_HEAD}
    if growth:
        widths.update({"Growth": GROWTH_MM, "Candidate": NARROW_NAME_MM})
    columns = [(h, widths[h]) for h, _w in TABLE_HEAD if h != "Growth" or growth]
    rest = (PAGE[0] - 2 * MARGIN) - sum(w * mm for _h, w in columns if w is not None)
    return [(h, rest if w is None else w * mm) for h, w in columns]


def _row(c: Candidate, styles: dict[str, ParagraphStyle], name_width: float,
         growth: bool) -> list[object]:
    m = c.metrics
    assert m is not None
    cell = styles["cell"]
    primary = m.primary_result
    bus = (primary.collective_bus_gbps / 8 if primary is not None and primary.collective_bus_gbps
           else None)
    switches = " / ".join(str(sum(m.switches[r].values())) for r in ("leaf", "spine", "core"))
    row: list[object] = [
        number(c), _name_cell(c, name_width, cell), m.technology, switches,
        f"{sum(m.optics.values()):,}", f"{sum(m.cables.values()):,}", f"{m.fibre_m / 1000:,.1f}",
        str(m.racks), kw(m),
        "-" if m.power_unverified_w is None else f"{m.power_unverified_w / 1000:,.1f}",
        Paragraph(_esc(money(m.cost, m.currency)), cell), collective_text(m),
        Paragraph(_esc(balancing_text(m)), cell),
        "-" if bus is None else f"{bus:,.0f}", ms(m.even_spread_ms),
        f"{m.bisection_gbps / 1000:g} Tb/s",
        Paragraph(_esc(m.failure.words() if m.failure else "-"), cell)]
    if growth:
        row.append(Paragraph(_esc(m.growth.verdict if m.growth is not None else "-"), cell))
    return row + [f"{m.findings['error']} E, {m.findings['warning']} W", pareto_text(c)]


_GRID = TableStyle([
    ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#bbbbbb")),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ("FONTSIZE", (0, 0), (-1, -1), 7),
    ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
    ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
])


def _table(rows: list[list[object]], widths: Sequence[float], font: str) -> LongTable:
    table = LongTable(rows, colWidths=list(widths), repeatRows=1)
    style = TableStyle(_GRID.getCommands() + [("FONTNAME", (0, 0), (-1, -1), font)])
    table.setStyle(style)
    return table


def _candidate_table(built: list[Candidate], styles: dict[str, ParagraphStyle]) -> LongTable:
    columns = _columns(built)
    head = [Paragraph(_esc(h), styles["head"]) for h, _w in columns]
    name_width = dict(columns)["Candidate"]
    growth = _with_growth(built)
    rows = [_row(c, styles, name_width, growth) for c in built]
    return _table([head, *rows], [w for _h, w in columns], fonts().cond)


def _axis_label(drawing: Drawing, text: str, x: float, y: float, vertical: bool = False) -> None:
    """`text` centred at (x, y); `vertical`: turned a quarter left, reading upwards."""
    if not vertical:
        drawing.add(String(x, y, text, fontName=fonts().regular, fontSize=7,
                           textAnchor="middle"))
        return
    group = Group(String(y, -x, text, fontName=fonts().regular, fontSize=7,
                         textAnchor="middle"))
    group.rotate(90)  # (u, v) -> (-v, u): the string's (y, -x) lands on (x, y)
    drawing.add(group)


def _scatter(candidates: list[Candidate], value: Callable[[Candidate], float | None],
             on_frontier: Callable[[Candidate], bool | None], x_title: str,
             title: str) -> Drawing | None:
    """Collective time against `value`, the frontier joined in a line, each point named."""
    points = [(c, value(c), c.metrics.collective_ms) for c in candidates
              if c.metrics is not None and c.feasible and value(c) is not None
              and c.metrics.collective_ms is not None]
    if not points:
        return None
    width, height = 125 * mm, 95 * mm
    drawing = Drawing(width, height)
    plot = LinePlot()
    plot.x, plot.y, plot.width, plot.height = 18 * mm, 14 * mm, width - 26 * mm, height - 26 * mm
    # the steps as a line without markers, then the points: solid, hollow where the
    # even-spread bound stands in (so no marker sits on a step's corner)
    steps = staircase(sorted((x, t) for c, x, t in points if on_frontier(c)))
    series: list[tuple[list[tuple[float, float]], object]] = []
    if len(steps) > 1:
        series.append((steps, None))
    for frontier in (True, False):
        colour = FRONTIER if frontier else DOMINATED
        size = 4 if frontier else 3.5
        for hollow in (False, True):
            data = [(x, t) for c, x, t in points
                    if bool(on_frontier(c)) == frontier and stands_in(c) == hollow]
            if data:
                symbol = (makeMarker("Circle", size=size + 0.5, fillColor=colors.white,
                                     strokeColor=colour, strokeWidth=0.9) if hollow
                          else makeMarker("FilledCircle", size=size, fillColor=colour))
                series.append((data, symbol))
    plot.data = [data for data, _symbol in series]
    for i, (_data, symbol) in enumerate(series):
        plot.lines[i].symbol = symbol
        plot.lines[i].strokeColor = FRONTIER if symbol is None else None
        plot.lines[i].strokeWidth = 1 if symbol is None else 0
    xs = [x for _c, x, _t in points]
    ts = [t for _c, _x, t in points]
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = span(xs)
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = span(ts)
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName = fonts().regular
        axis.labels.fontSize = 6.5
    plot.xValueAxis.labelTextFormat = tick_format(*span(xs))
    plot.yValueAxis.labelTextFormat = tick_format(*span(ts))
    drawing.add(plot)
    x_scale = plot.width / (plot.xValueAxis.valueMax - plot.xValueAxis.valueMin)
    t_scale = plot.height / (plot.yValueAxis.valueMax - plot.yValueAxis.valueMin)
    drawn = [(plot.x + (x - plot.xValueAxis.valueMin) * x_scale,
              plot.y + (t - plot.yValueAxis.valueMin) * t_scale, c) for c, x, t in points]
    placed: list[tuple[float, float, float]] = []
    for px, py, group in label_groups(drawn):
        text = ", ".join(point_label(c) for c in group)
        lx, ly = free_label_spot(px + 3, py + 2, stringWidth(text, fonts().cond, 5.5), placed)
        drawing.add(String(lx, ly, text, fontName=fonts().cond, fontSize=5.5,
                           fillColor=FRONTIER if any(on_frontier(c) for c in group)
                           else colors.black))
    drawing.add(String(width / 2, height - 6 * mm, title, fontName=fonts().bold, fontSize=8.5,
                       textAnchor="middle"))
    _axis_label(drawing, x_title, plot.x + plot.width / 2, 3 * mm)
    _axis_label(drawing, "all-reduce under its load balancing, ms", 5 * mm,
                plot.y + plot.height / 2, vertical=True)
    return drawing


def stands_in(c: Candidate) -> bool:
    """The candidate's collective time is the even-spread bound (the traffic model gave none)."""
    return c.metrics is not None and c.metrics.collective_basis == EVEN_SPREAD


def point_label(c: Candidate) -> str:
    """The number a candidate's point carries: `*` after it when its time is the even-spread
    bound standing in (as in the table)."""
    return number(c) + (FALLBACK_MARK if stands_in(c) else "")


def label_groups(drawn: list[tuple[float, float, Candidate]],
                 near: float = 4.0) -> list[tuple[float, float, list[Candidate]]]:
    """Points drawn within `near` points of each other share one label ("3, 5, 9") at the
    first one's place: candidates with the same power and time would print their numbers on
    top of each other."""
    groups: list[tuple[float, float, list[Candidate]]] = []
    for px, py, c in drawn:
        for gx, gy, members in groups:
            if abs(px - gx) <= near and abs(py - gy) <= near:
                members.append(c)
                break
        else:
            groups.append((px, py, [c]))
    return groups


def free_label_spot(x: float, y: float, width: float,
                    placed: list[tuple[float, float, float]],
                    line: float = 6.0) -> tuple[float, float]:
    """Where a label of `width` goes: at (x, y), or a line higher each time it would overlap
    a label already placed (`placed` holds (x, y, width) and gains this one)."""
    while any(abs(y - py) < line - 1e-6 and x < px + pw + 1 and px < x + width + 1
              for px, py, pw in placed):  # (a line apart is clear, after rounding too)
        y += line
    placed.append((x, y, width))
    return x, y


def shared_labels(points: Sequence[tuple[str, float, float]]) -> list[str]:
    """The label to print beside each of `points` (label, x, y): candidates at the same spot
    (the same parts on RoCEv2 and on Ethernet, say) share one label, "4, 6", on the first of
    them, so that their numbers are not printed over each other ("46").  The same spot is
    the same value to 4 significant digits (a cost or time that differs only by rounding is
    drawn on the same pixel)."""
    at: dict[tuple[str, str], list[int]] = {}
    for k, (_label, x, y) in enumerate(points):
        at.setdefault((f"{x:.4g}", f"{y:.4g}"), []).append(k)
    out = [""] * len(points)
    for ks in at.values():
        out[ks[0]] = ", ".join(points[k][0] for k in ks)
    return out


def staircase(front: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The frontier as steps: from each point across to the next one's cost, then down (the
    edge of what the frontier dominates)."""
    steps: list[tuple[float, float]] = []
    for point in front:
        if steps:
            steps.append((point[0], steps[-1][1]))
        steps.append(point)
    return steps


def span(values: list[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    pad = (high - low) * 0.08 or abs(high) * 0.05 or 1.0
    return low - pad, high + pad


def tick_format(low: float, high: float, ticks: int = 10) -> Callable[[float], str]:
    """An axis label format for values from `low` to `high`: as many significant digits as
    tell ticks `(high - low) / ticks` apart (costs of 20.49M to 21.04M: 20.5M, 20.6M, not
    21M twice), at least three; thousands and up as 5.35M, 700k."""
    step = (high - low) / ticks
    largest = max(abs(low), abs(high))
    digits = 3
    if step > 0 and largest > 0:
        digits = max(3, math.ceil(math.log10(largest / step)) + 1)
    return lambda value: compact(value, digits) if abs(value) >= 1000 else f"{value:.{digits}g}"


def compact(value: float, digits: int = 3) -> str:
    """5.35M, 700k: `digits` significant digits."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{value / size:.{digits}g}{suffix}"
    return f"{value:.{digits}g}"


def _bar_chart(labels: list[tuple[str, str]], data: list[list[float]], width: float,
               height: float, title: str, colours: list[object], legend: list[str] | None = None,
               stacked: bool = False) -> Drawing:
    """Bars per candidate (several series side by side, or stacked), named below by their
    (number, name) `labels`: `7 rocev2-sn5600-tor`, or the number alone when there are many."""
    drawing = Drawing(width, height)
    chart = VerticalBarChart()
    right = 38 * mm if legend else 6 * mm
    chart.x, chart.y = 16 * mm, 20 * mm
    chart.width, chart.height = width - chart.x - right, height - 30 * mm
    chart.data = data
    if stacked:
        chart.categoryAxis.style = "stacked"
    many = len(labels) > MAX_LABELLED
    chart.categoryAxis.categoryNames = [n if many else f"{n} {name}" for n, name in labels]
    chart.categoryAxis.labels.angle = 30
    chart.categoryAxis.labels.boxAnchor = "ne"
    chart.categoryAxis.labels.fontName = fonts().cond
    chart.categoryAxis.labels.fontSize = 5.5
    chart.valueAxis.labels.fontName = fonts().regular
    chart.valueAxis.labels.fontSize = 6.5
    chart.valueAxis.valueMin = 0
    tallest = max((sum(values) for values in zip(*data, strict=True)) if stacked
                  else (v for series in data for v in series), default=0.0)
    if tallest > 0:  # headroom, so that the tallest bar does not end on the chart's edge
        chart.valueAxis.valueMax = tallest * 1.08
    chart.valueAxis.labelTextFormat = compact
    for i, colour in enumerate(colours):
        chart.bars[i].fillColor = colour
        chart.bars[i].strokeColor = None
    drawing.add(chart)
    if legend:
        box = Legend()
        box.x, box.y = width - 34 * mm, height - 14 * mm
        box.fontName, box.fontSize, box.columnMaximum = fonts().regular, 7, len(legend)
        box.colorNamePairs = list(zip(colours, legend, strict=True))
        drawing.add(box)
    drawing.add(String(width / 2, height - 6 * mm, title, fontName=fonts().bold, fontSize=8.5,
                       textAnchor="middle"))
    return drawing


NETWORK = ("switches", "optics", "cables")


def priced(c: Candidate) -> dict[str, float] | None:
    return c.metrics.cost_by_class if c.metrics is not None else None


def powered(c: Candidate) -> dict[str, float] | None:
    return c.metrics.power_by_class if c.metrics is not None else None


def _stacked(candidates: list[Candidate], split: Callable[[Candidate], dict[str, float] | None],
             scale: float, title: str, lower_bounds: frozenset[int] = frozenset()) -> Drawing | None:
    """The network's part classes stacked per candidate (the servers, the same hardware in
    every candidate, would flatten the differences: the caption gives them); the candidates
    in `lower_bounds` are named with `(>=)`."""
    shown = [c for c in candidates if split(c)]
    if not shown:
        return None
    data = [[split(c)[k] / scale for c in shown] for k in NETWORK]  # type: ignore[index]
    labels = [(number(c), c.name + (" (>=)" if c.index in lower_bounds else "")) for c in shown]
    return _bar_chart(labels, data, 260 * mm, 78 * mm, title,
                      [CLASS_COLOURS[k] for k in NETWORK], list(NETWORK), stacked=True)


def unpowered_switches(candidates: Sequence[Candidate]) -> dict[str, list[Candidate]]:
    """The switch models with no maximum power figure (counted at 0 W) and the candidates
    whose power bars therefore leave them out."""
    out: dict[str, list[Candidate]] = {}
    for c in candidates:
        m = c.metrics
        if m is None:
            continue
        for model in sorted({model for by_model in m.switches.values() for model in by_model
                             if model in m.power_unknown}):
            out.setdefault(model, []).append(c)
    return out


def unpowered_caption(candidates: Sequence[Candidate]) -> str:
    """What the power bars leave out: `nvidia-sn5600 has no maximum power figure: its switches
    are not in the bars of #7, #8 (lower bounds).` ("" when nothing)."""
    missing = unpowered_switches(candidates)
    if not missing:
        return ""
    return " ".join(
        f"{model} has no maximum power figure: its switches are not in the bars of #"
        + ", #".join(number(c) for c in cs) + " (lower bounds)."
        for model, cs in missing.items())


def servers_caption(candidates: list[Candidate],
                     split: Callable[[Candidate], dict[str, float] | None], scale: float,
                     unit: str, digits: int = 1) -> str:
    """What the servers add to every bar (left out of them); `digits` after the point (0 for a
    cost: 19,200,000 USD, not 19,200,000.0 USD)."""
    values = sorted({round(split(c)["servers"] / scale, digits)  # type: ignore[index]
                     for c in candidates if split(c)})
    if not values:
        return ""
    if len(values) == 1:
        return (f"Servers, left out of the bars: {values[0]:,.{digits}f} {unit} in every "
                "candidate.")
    return (f"Servers, left out of the bars: {values[0]:,.{digits}f} to "
            f"{values[-1]:,.{digits}f} {unit} (see the table).")


COUNTS: tuple[tuple[str, Callable[[Candidate], float]], ...] = (
    ("Switches", lambda c: sum(sum(v.values()) for v in c.metrics.switches.values())),  # type: ignore[union-attr]
    ("Optics", lambda c: sum(c.metrics.optics.values())),  # type: ignore[union-attr]
    ("Cables", lambda c: sum(c.metrics.cables.values())),  # type: ignore[union-attr]
    ("Racks", lambda c: c.metrics.racks),  # type: ignore[union-attr]
)


def _counts(candidates: list[Candidate]) -> Drawing:
    """One small bar chart per count, each on its own scale."""
    names = [(number(c), c.name) for c in candidates]
    width, height = 130 * mm, 78 * mm
    grid = Drawing(2 * width, 2 * height)
    palette = [CLASS_COLOURS["switches"], CLASS_COLOURS["optics"], CLASS_COLOURS["cables"],
               CLASS_COLOURS["servers"]]
    for n, ((title, value), colour) in enumerate(zip(COUNTS, palette, strict=True)):
        chart = _bar_chart(names, [[value(c) for c in candidates]], width, height, title,
                           [colour])
        group = Group(*chart.contents)
        group.translate((n % 2) * width, (1 - n // 2) * height)
        grid.add(group)
    return grid


def _charts(result: StudyResult, styles: dict[str, ParagraphStyle]) -> list[object]:
    built = [c for c in result.candidates if c.metrics is not None]
    story: list[object] = [PageBreak(), Paragraph("Cost, power and collective time", styles["h2"])]
    first = built[0].metrics if built else None
    time_of = f"the all-reduce of workload {first.primary}" if first and first.primary else ""
    stand_in = [f"{point_label(c)} {c.name}" for c in built if stands_in(c)]
    story.append(Paragraph(_esc(
        f"Time is {time_of} under each candidate's own load balancing (the traffic model, as in "
        "the table)"
        + (f"; for {', '.join(stand_in)} (hollow points, numbered with {FALLBACK_MARK}) the "
           "even-spread bound, the traffic model giving no time" if stand_in else "")
        + ". Red points are on the Pareto "
        "frontier (no other candidate is both cheaper or cooler and faster), grey ones are "
        "dominated; candidates that do not fit the site are left out."), styles["body"]))
    currency = next((c.metrics.currency for c in built if c.metrics and c.metrics.currency), "")
    cost = _scatter(built, lambda c: c.metrics.cost,  # type: ignore[union-attr]
                    lambda c: bool(c.pareto and c.pareto.cost_time),
                    f"cost ({currency})", "Cost against collective time")
    power = _scatter(built, lambda c: c.metrics.comparable_power_kw,  # type: ignore[union-attr]
                     lambda c: bool(c.pareto and c.pareto.power_time),
                     "power, kW (every part at its maximum)", "Power against collective time")
    pair = [d for d in (cost, power) if d is not None]
    if cost is None:
        story.append(Paragraph("No candidate has a complete cost (no price list, or a part "
                               "without price): the cost chart is left out.", styles["body"]))
    if power is None:
        story.append(Paragraph(_esc(no_power_comparison(built) + " The power chart is left out."),
                               styles["body"]))
    if pair:
        story.append(_side_by_side(pair))
        left = [number(c) for c in power_left_out(built)] if power is not None else []
        story.append(Paragraph(_esc("Points are numbered as the table's #: " + "; ".join(
            f"{number(c)} {c.name}" for c in built) + "." + (
            f" Not on the power chart: {', '.join(left)} (a switch without a maximum power "
            "figure)." if left else "")), styles["body"]))
    story.append(PageBreak())
    story.append(Paragraph("Cost and power of the network by part class", styles["h2"]))
    cost_bars = _stacked(built, priced, 1.0,
                         f"Priced cost by part class, spares included ({currency or '-'})")
    if cost_bars is None:
        story.append(Paragraph("No part has a price: no cost bars.", styles["body"]))
    else:
        story += [cost_bars, Paragraph(_esc(servers_caption(built, priced, 1.0, currency, digits=0)),
                                       styles["body"])]
    unpowered = frozenset(c.index for cs in unpowered_switches(built).values() for c in cs)
    power_bars = _stacked(built, powered, 1000.0, "Power by part class (kW)", unpowered)
    if power_bars is None:
        story.append(Paragraph("The power split does not add up to the BOM's total: no power "
                               "bars.", styles["body"]))
    else:
        caption = " ".join(filter(None, (servers_caption(built, powered, 1000.0, "kW"),
                                         unpowered_caption(built))))
        story += [power_bars, Paragraph(_esc(caption), styles["body"])]
    story += [PageBreak(), Paragraph("Counts per candidate", styles["h2"]), _counts(built)]
    return story


def _time_notes(built: list[Candidate]) -> list[str]:
    """What the all-reduce and even-spread columns are, and the candidates whose all-reduce is
    the even-spread bound (the traffic model giving none)."""
    first = built[0].metrics if built else None
    if first is None or not first.primary:
        return []
    lines = [f"All-reduce: workload {first.primary} under each candidate's own load balancing "
             "(Load balancing: what its switches run), from the traffic model (NCCL's flows routed "
             f"as the switches route them; static ECMP the mean of {SEEDS} hash draws): the "
             "Pareto marks' time. Even spread: the fabric's even-spread bound (the analysis: its "
             "bandwidth spread evenly over the links, no hash collisions)."]
    missing = fallback_lines(built)
    if missing:
        lines.append(f"{FALLBACK_MARK} No traffic-model time: the even-spread bound stands in "
                     "(and is compared): " + "; ".join(missing) + ".")
    return lines


def _side_by_side(drawings: list[Drawing]) -> Drawing:
    width = sum(d.width for d in drawings) + 8 * mm * (len(drawings) - 1)
    height = max(d.height for d in drawings)
    joined = Drawing(width, height)
    x = 0.0
    for d in drawings:
        for item in d.contents:
            group = Group(item)
            group.translate(x, 0)
            joined.add(group)
        x += d.width + 8 * mm
    return joined


def comparison_pdf(result: StudyResult, requirement: Requirement, catalog: Catalog) -> bytes:
    """The comparison report as PDF bytes."""
    import io

    styles = _styles()
    buffer = io.BytesIO()
    document = SimpleDocTemplate(buffer, pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN,
                                 topMargin=MARGIN, bottomMargin=MARGIN,
                                 title=f"{result.name} - fabric comparison", author="aicnet",
                                 creator="aicnet", subject="Candidate fabrics side by side")
    built = [c for c in result.candidates if c.metrics is not None]
    refused = [c for c in result.candidates if c.metrics is None]
    story: list[object] = [
        Paragraph(_esc(f"Which fabric: {result.name}"), styles["title"]),
        Paragraph(_esc(f"aicnet compare, {dt.date.today().isoformat()}"), styles["body"]),
        Spacer(1, 3 * mm)]
    story += [Paragraph(_esc(line), styles["body"])
              for line in _requirement_lines(requirement, result, catalog)]
    if built:
        story += [Paragraph("Candidates", styles["h2"]), _candidate_table(built, styles)]
        power = "; ".join(line.strip() for line in power_lines(built, catalog))
        story.append(Paragraph(_esc(power + "."), styles["body"]))
        cost_note = built[0].metrics.cost_note  # type: ignore[union-attr]
        story.append(Paragraph(_esc("Cost: " + cost_note + "."), styles["body"]))
        story += [Paragraph(_esc(line), styles["body"]) for line in _time_notes(built)]
        routed = [line for line in map(by_mode_line, built) if line]
        if routed:
            lead = Paragraph(_esc(
                "All-reduce by load balancing (the traffic model: NCCL's flows routed as the "
                "switches route them), where the modes or the even spread differ:"),
                styles["body"])
            # the lead never alone at the foot of a page: it goes over with its first line
            items = [Paragraph(_esc(line), styles["item"]) for line in routed]
            story += [KeepTogether([lead, items[0]]), *items[1:]]
    if refused:
        head = [Paragraph(h, styles["head"]) for h in ("#", "Candidate", "Why it cannot be built")]
        rows = [[number(c), Paragraph(_esc(c.name), styles["cell"]),
                 Paragraph(_esc(c.reason or ""), styles["cell"])] for c in refused]
        story.append(KeepTogether([Paragraph("Cannot be built", styles["h2"])]))
        story.append(_table([head, *rows], [5 * mm, 50 * mm, PAGE[0] - 2 * MARGIN - 55 * mm],
                            fonts().cond))
    if result.price_problems:
        story.append(Paragraph("Price list problems (cost shown as incomplete)", styles["h2"]))
        story += [Paragraph(_esc(p), styles["body"]) for p in result.price_problems]
    if built:
        story += _charts(result, styles)
    document.build(story)
    return buffer.getvalue()


def write_comparison(result: StudyResult, requirement: Requirement, catalog: Catalog,
                     path: str | Path) -> None:
    """Write the comparison report to `path` (atomically)."""
    write_bytes(path, comparison_pdf(result, requirement, catalog))
