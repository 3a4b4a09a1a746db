"""The cable schedule pages: one rack per section, landscape, two text lines per cable.

Columns follow cabling.md §2.3: cable number and tier; A and B ends (rack, RU, device, port with
breakout leg, optic part number, connector); media with fibre type and polarity; cable part;
ordered length (what the installer pulls, bold on the top line) over the calculated length
(small); colour and rail/plane; the label text printed at each end; and
tick boxes (installed, tested) for the installer.  Each column header holds the names of both
lines.  The header repeats on every page; every page carries the colour legend (swatches with
colour names) of its rack and the rack-unit convention (model/rack_units.py: U is the lowest unit
a device occupies, NetBox's position).  A rack where cables only end (spines, core) gets a page with the
numbers of the cables that end on each of its devices (`arrivals.py`).

Speed (performance.md §7): the page is drawn straight on the canvas, one text block per column
and line kind, zebra stripes, swatches and tick boxes as one path each.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..model.rack_units import CONVENTION
from .arrivals import draw_arrivals
from .cables import CablePlan, CableRow, End, RackSection, rail_plane
from .colour_rgb import colour_rgb
from .pdfpage import FOOTER_H, HEADER_H, MARGIN, Box, PdfWriter

TOP_SIZE = 7.0
BOTTOM_SIZE = 6.3
ROW_H = 18.0
HEAD_H = 20.0
GROUP_H = 10.0
LEGEND_H = 16.0
TITLE_H = 16.0
TITLE_LEAD = 12.0  # each further line of a wrapped section title
PAD = 2.5
MUTED = (0.28, 0.28, 0.28)
HEAD_FILL = "0.85 0.88 0.92 rg"
GROUP_FILL = "0.70 0.76 0.84 rg"
ZEBRA_FILL = "0.94 0.94 0.94 rg"


def _port(end: End) -> str:
    return f"{end.port}  (leg {end.leg_text})" if end.legs > 1 else end.port


def _media(row: CableRow) -> str:
    return row.media if not row.a.speed_gbps else f"{row.media} {row.a.speed_gbps}G"


def _fibre(row: CableRow) -> str:
    return " ".join(x for x in (row.fibre, row.polarity) if x)


def _family(row: CableRow, links: int = 1) -> str:
    """The cable's kind under its part: a splitter, a cable that carries `links` links (a
    twin-port AOC or DAC: its rows are one cable, pulled and labelled once), else its type."""
    if row.part is None:
        return ""
    if row.part.legs > 1:
        return f"splitter 1:{row.part.legs}"
    if links > 1:
        return f"{row.part.type}, {links} links"
    return f"{row.part.type} 1:1"


@dataclass(frozen=True)
class ScheduleColumn:
    top: str
    bottom: str
    width: float
    group: str = ""
    swatch: bool = False
    strong: bool = False  # the top line in bold


COLUMNS: tuple[ScheduleColumn, ...] = (
    ScheduleColumn("Cable", "Tier", 50, strong=True),
    ScheduleColumn("Rack", "RU", 32, "A END"),
    ScheduleColumn("Device", "Port", 72, "A END"),
    ScheduleColumn("Optic", "Connector", 62, "A END"),
    ScheduleColumn("Rack", "RU", 32, "B END"),
    ScheduleColumn("Device", "Port", 72, "B END"),
    ScheduleColumn("Optic", "Connector", 62, "B END"),
    ScheduleColumn("Media", "Fibre, polarity", 50),
    ScheduleColumn("Cable part", "Type", 52),
    ScheduleColumn("Order m", "Calc m", 34, strong=True),
    ScheduleColumn("Colour", "Rail, plane", 62, swatch=True),
    ScheduleColumn("Label text at A end", "Label text at B end", 0),
)


def row_cells(row: CableRow, planes: bool = True, links: int = 1) -> tuple[str, ...]:
    """The 24 strings of one schedule row: (top, bottom) of each column of `COLUMNS`.

    `planes`: the fabric has several planes; else the rail stands alone, as on the labels (a
    one-plane fabric's "plane compute" on every row says nothing and crowds its column).
    `links`: how many links the row's cable carries (rows that share its cable number)."""
    a, b = row.a, row.b
    return (
        row.number, row.tier,
        a.dev.rack, a.ru_text, a.dev.name, _port(a), a.optic, a.connector,
        b.dev.rack, b.ru_text, b.dev.name, _port(b), b.optic, b.connector,
        _media(row), _fibre(row), row.part_name, _family(row, links),
        row.ordered_text, row.length_text, row.colour or "-",
        row.rail_text if planes else rail_plane(row, False),
        row.cable_id, row.label_b,
    )


CHECK_W = 32.0
SWATCH = 6.0


@lru_cache(maxsize=8192)
def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


class SchedulePages:
    """Draws the schedule of a cable plan into a `PdfWriter`."""

    def __init__(self, writer: PdfWriter, plan: CablePlan, size: tuple[float, float]) -> None:
        self.w = writer
        self.plan = plan
        self.size = (max(size), min(size))  # landscape
        self.planes = plan.multi_plane
        self.links = Counter(row.number for row in plan.rows)
        self.regular = writer.text(writer.fonts.cond)
        self.bold = writer.text(writer.fonts.cond_bold)

    def rows_per_page(self) -> int:
        box_h = self.size[1] - 2 * MARGIN - HEADER_H - 6.0 - FOOTER_H
        return int((box_h - TITLE_H - GROUP_H - HEAD_H - LEGEND_H) // ROW_H)

    def draw(self, tick: Callable[[int], None] | None = None) -> None:
        """All rack sections; `tick(rows_done)` after each page (may raise to cancel)."""
        per = self.rows_per_page()
        done = 0
        first = True
        if not self.plan.rows:
            box = self.w.begin_page(self.size, "Cable schedule")
            self.w.bookmark("Cable schedule", 0)
            self.w.text(self.w.fonts.bold).text(box.left, box.top - 14, "Cable schedule", 15)
            self.w.text().text(box.left, box.top - 40, "The fabric has no links yet.", 10)
            self.w.end_page()
            return
        width = self.size[0] - 2 * MARGIN
        for section in self.plan.sections:
            if not section.rows:
                if section.arrivals:  # a spine or core rack: cables only end here
                    draw_arrivals(self.w, section, self._title_lines(section, width), self.size,
                                  first)
                    first = False
                continue
            # a long "arriving here" list wraps under the title: fewer rows on that page
            extra = (len(self._title_lines(section, width)) - 1) * TITLE_LEAD
            first_rows = max(per - math.ceil(extra / ROW_H), 1)
            starts = [0, *range(first_rows, len(section.rows), per)]
            ends = [*starts[1:], len(section.rows)]
            for page_no, (start, end) in enumerate(zip(starts, ends, strict=True)):
                box = self.w.begin_page(self.size, "Cable schedule")
                if first:
                    self.w.bookmark("Cable schedule", 0)
                    first = False
                if page_no == 0:
                    self.w.bookmark(section.title, 1)
                rows = section.rows[start:end]
                self._page(box, section, rows, page_no, len(starts))
                self.w.end_page()
                done += len(rows)
                if tick is not None:
                    tick(done)

    def _title_lines(self, section: RackSection, width: float) -> list[str]:
        """The first page's title of a rack section, wrapped to `width`: every rack the
        cables arriving here come from is named (none cut off)."""
        count, links = section.cables, len(section.rows)
        cables = "no cable" if count == 0 else "1 cable" if count == 1 else f"{count} cables"
        if links != count:  # twin-port cables and splitters: one cable, several rows
            cables += f" ({links} links)"
        verb = "starts" if count <= 1 else "start"
        title = f"{section.title} - {cables} {verb} here (A end)"
        parts = [f"{n} from {rack}" for rack, n in sorted(section.arriving.items())]
        if not parts:
            return [title]
        font = self.w.text(self.w.fonts.bold)
        lines = [f"{title}; arriving here:"]
        for i, part in enumerate(parts):
            piece = part + ("," if i < len(parts) - 1 else "")
            candidate = f"{lines[-1]} {piece}"
            if font.width(candidate, 10) <= width:
                lines[-1] = candidate
            else:
                lines.append(piece)
        return lines

    # ------------------------------------------------------------------ one page
    def _widths(self, box: Box) -> list[float]:
        fixed = sum(c.width for c in COLUMNS) + CHECK_W
        widths = [c.width for c in COLUMNS]
        widths[-1] = max(box.width - fixed, 60.0)
        return widths

    def _page(
        self, box: Box, section: RackSection, rows: list[CableRow], page_no: int, pages: int
    ) -> None:
        canvas = self.w.canvas
        widths = self._widths(box)
        xs = [box.left]
        for width in widths:
            xs.append(xs[-1] + width)
        right = xs[-1] + CHECK_W

        if page_no == 0:
            lines = self._title_lines(section, box.width)
        else:
            lines = [f"{section.title} (continued, {page_no + 1}/{pages})"]
        bold = self.w.text(self.w.fonts.bold)
        for i, line in enumerate(lines):
            bold.text(box.left, box.top - 11 - i * TITLE_LEAD, line, 10, width=box.width)

        y = box.top - TITLE_H - (len(lines) - 1) * TITLE_LEAD
        table_top = y - GROUP_H - HEAD_H
        canvas.doForm(self.w.form(("schedule-head", self.size, y),
                                  lambda: self._head(box, xs, widths, right, y)))
        ops = ["q", ZEBRA_FILL]
        for i in range(1, len(rows), 2):
            ops.append(f"{_n(box.left)} {_n(table_top - (i + 1) * ROW_H)} {_n(right - box.left)} "
                       f"{_n(ROW_H)} re")
        ops.append("f Q")
        canvas.addLiteral(" ".join(ops))

        first_top = table_top - PAD - TOP_SIZE
        first_bottom = first_top - TOP_SIZE * 1.2
        cells = list(zip(*(row_cells(r, self.planes, self.links[r.number]) for r in rows),
                         strict=True))
        for index, column in enumerate(COLUMNS):
            x = xs[index] + PAD
            width = widths[index] - 2 * PAD
            if column.swatch:
                x += SWATCH + 2
                width -= SWATCH + 2
            font = self.bold if column.strong else self.regular
            font.column(x, first_top, cells[2 * index], TOP_SIZE, ROW_H, width)
            self.regular.column(x, first_bottom, cells[2 * index + 1], BOTTOM_SIZE, ROW_H, width,
                                rgb=MUTED)
        self._swatches_and_boxes(rows, xs, table_top)
        self._rules(xs, right, y - GROUP_H, table_top - len(rows) * ROW_H)
        self._legend(box, section)

    def _head(self, box: Box, xs: list[float], widths: list[float], right: float,
              y: float) -> None:
        """The column header: A END / B END bands and both lines' names (a reused form)."""
        ops = ["q", GROUP_FILL]
        groups: dict[str, list[int]] = {}
        for index, column in enumerate(COLUMNS):
            if column.group:
                groups.setdefault(column.group, []).append(index)
        for indices in groups.values():
            x0, x1 = xs[indices[0]], xs[indices[-1] + 1]
            ops.append(f"{_n(x0)} {_n(y - GROUP_H)} {_n(x1 - x0 - 1)} {_n(GROUP_H)} re")
        ops.append("f")
        ops.append(HEAD_FILL)
        ops.append(f"{_n(box.left)} {_n(y - GROUP_H - HEAD_H)} {_n(right - box.left)} "
                   f"{_n(HEAD_H)} re f Q")
        self.w.canvas.addLiteral(" ".join(ops))
        for name, indices in groups.items():
            x0, x1 = xs[indices[0]], xs[indices[-1] + 1]
            self.bold.text((x0 + x1) / 2, y - GROUP_H + 2.5, name, 7, align="center")
        for index, column in enumerate(COLUMNS):
            self.bold.column(xs[index] + PAD, y - GROUP_H - 8, [column.top, column.bottom], 6.8,
                             8.5, width=widths[index] - 2 * PAD)
        self.bold.column(xs[-1] + PAD, y - GROUP_H - 8, ["Done", "inst. test"], 6.8, 8.5,
                         width=CHECK_W - PAD)

    def _swatches_and_boxes(self, rows: list[CableRow], xs: list[float], table_top: float) -> None:
        swatch_col = next(i for i, c in enumerate(COLUMNS) if c.swatch)
        by_colour: dict[tuple[float, float, float], list[str]] = {}
        outlines = []
        boxes = []
        for i, row in enumerate(rows):
            row_top = table_top - i * ROW_H
            rgb = colour_rgb(row.colour)
            sx, sy = xs[swatch_col] + PAD, row_top - PAD - SWATCH - 0.5
            if rgb is not None:
                rect = f"{_n(sx)} {_n(sy)} {_n(SWATCH)} {_n(SWATCH)} re"
                by_colour.setdefault(rgb, []).append(rect)
                outlines.append(rect)
            for k in range(2):
                bx = xs[-1] + PAD + k * 13
                boxes.append(f"{_n(bx)} {_n(row_top - ROW_H + 4)} 8 8 re")
        ops = ["q"]
        for rgb, rects in by_colour.items():
            ops.append(f"{_n(rgb[0])} {_n(rgb[1])} {_n(rgb[2])} rg")
            ops.extend(rects)
            ops.append("f")
        ops.append("0.3 w 0 G")
        ops.extend(outlines)
        ops.extend(boxes)
        ops.append("S Q")
        self.w.canvas.addLiteral(" ".join(ops))

    def _rules(self, xs: list[float], right: float, top: float, bottom: float) -> None:
        ops = ["q 0.4 w 0.55 G"]
        for x in (xs[1], xs[4], xs[7], xs[-1]):
            ops.append(f"{_n(x)} {_n(top)} m {_n(x)} {_n(bottom)} l")
        ops.append(f"{_n(xs[0])} {_n(bottom)} m {_n(right)} {_n(bottom)} l S Q")
        self.w.canvas.addLiteral(" ".join(ops))

    def _legend(self, box: Box, section: RackSection) -> None:
        colours = list(dict.fromkeys(r.colour for r in section.rows if r.colour))
        y = box.bottom + 4
        self.regular.text(box.right, y, CONVENTION, 7, rgb=MUTED, align="right")
        limit = box.right - self.regular.width(CONVENTION, 7) - 12
        self.bold.text(box.left, y, "Colour legend:", 7)
        x = box.left + 58
        if not colours:
            self.regular.text(x, y, "no cable colours set for this rack", 7, rgb=MUTED)
            return
        ops = ["q 0.3 w 0 G"]
        labels = []
        for name in colours:
            rgb = colour_rgb(name)
            text_w = self.regular.width(name, 7)
            if x + SWATCH + 3 + text_w > limit:
                labels.append((x, y, "…"))
                break
            if rgb is not None:
                ops.append(f"{_n(rgb[0])} {_n(rgb[1])} {_n(rgb[2])} rg "
                           f"{_n(x)} {_n(y - 0.5)} {_n(SWATCH)} {_n(SWATCH)} re b")
            else:
                ops.append(f"{_n(x)} {_n(y - 0.5)} {_n(SWATCH)} {_n(SWATCH)} re S")
            labels.append((x + SWATCH + 3, y, name))
            x += SWATCH + 3 + text_w + 10
        ops.append("Q")
        self.w.canvas.addLiteral(" ".join(ops))
        self.regular.lines_at(labels, 7)
