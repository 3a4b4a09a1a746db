"""Flowing content for the text sections (cover, analysis, findings, BOM, design report).

A `Flow` keeps a cursor on the current page of one section and breaks pages when the next item
does not fit: headings, wrapped paragraphs, key/value lists and tables whose header row repeats
on every page.  Tables wrap long cells; rows never split across pages.

The text sections run on from one to the next: a section that ends with at least SHARE_ROOM of
its last page free leaves the page open (`PdfWriter.hold`), and the next text section starts
there under its heading, the page header naming both; a page of any other kind (the topology,
the schedule, the labels) ends it first.  A short section no longer leaves half a page empty
before the next one, and the end of a long one no longer gets a page of its own.  Within a
section a heading keeps its first lines with it, and a paragraph leaves neither its first line
alone at the foot of a page nor its last line alone at the top of the next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib.utils import simpleSplit

from .pdfpage import Box, PdfWriter

INK = (0.0, 0.0, 0.0)
MUTED = (0.3, 0.3, 0.3)
HEAD_FILL = (0.85, 0.88, 0.92)
ZEBRA = (0.95, 0.95, 0.95)
LINE = (0.7, 0.7, 0.7)
SHARE_ROOM = 0.25
"""A section ending with at least this share of its page free leaves it to the next section."""
KEEP_LINES = 2
"""Body lines a heading keeps with it on its page."""
BODY_LEADING = 9.0 * 1.3
HEADING_SIZES = {1: 15.0, 2: 11.5, 3: 9.5}


@dataclass
class Column:
    title: str
    width: float
    """points, or a fraction of the box width when <= 1"""
    align: str = "left"


class _Grid:
    """The columns of one table as drawn: their x, width and alignment, the text size, the
    line height and the cells' padding."""

    def __init__(self, columns: Sequence[Column], widths: list[float], xs: list[float],
                 size: float) -> None:
        self.columns, self.widths, self.xs = columns, widths, xs
        self.size = size
        self.leading = size * 1.25
        self.pad = 2.5

    def wrapped(self, cells: Sequence[str], font: str) -> list[list[str]]:
        """Each cell's lines in `font`, wrapped within its column."""
        out = []
        for cell, width in zip(cells, self.widths, strict=False):
            lines: list[str] = []
            for part in str(cell).split("\n"):
                lines.extend(simpleSplit(part, font, self.size, width - 2 * self.pad) or [""])
            out.append(lines)
        return out

    def height(self, cells: list[list[str]]) -> float:
        """The height of a row of wrapped cells."""
        return max(len(x) for x in cells) * self.leading + 2 * self.pad


class Flow:
    def __init__(
        self,
        writer: PdfWriter,
        section: str,
        size: tuple[float, float],
        check: Callable[[], None] | None = None,
    ) -> None:
        self.w = writer
        self.section = section
        self.size = size
        self.check = check
        self.box: Box | None = None
        self.y = 0.0
        self.fonts = writer.fonts
        #: a heading waiting for what follows it: (text, level, bookmark)
        self._pending: tuple[str, int, bool] | None = None

    # ------------------------------------------------------------------ pages
    def new_page(self) -> None:
        if self.box is not None:
            self.w.end_page()
        if self.check is not None:
            self.check()
        self.box = self.w.begin_page(self.size, self.section)
        self.y = self.box.top

    def start(self) -> Flow:
        """Begin the section: on the page the previous text section left open, when it has
        room, else on a new page."""
        held = self.w.take_held(self.size)
        if held is not None:
            box, y = held
            if y - box.bottom >= SHARE_ROOM * box.height:
                if self.check is not None:
                    self.check()
                self.box, self.y = box, y
                self.w.add_section(self.section)
                return self
            self.w.hold(box, y)
            self.w.release()
        self.new_page()
        return self

    def close(self) -> None:
        """End the section; its last page stays open for the next text section (any other
        page, or the end of the file, ends it)."""
        if self.box is not None:
            self._flush()
            self.w.hold(self.box, self.y)
            self.box = None

    def ensure(self, height: float) -> None:
        assert self.box is not None
        if self.y - height < self.box.bottom:
            self.new_page()

    def space(self, points: float) -> None:
        self._flush()
        self.y -= points

    # ------------------------------------------------------------------ text
    def heading(self, text: str, level: int = 1, bookmark: bool = False) -> None:
        """A heading; it is drawn with what follows it (the next paragraph's first lines, the
        next table's header and first row), on the next page when they do not fit here."""
        self._flush()
        self._pending = (text, level, bookmark)

    def _flush(self, needed: float = 0.0) -> None:
        """Draw the pending heading where the `needed` points of what follows fit under it."""
        pending, self._pending = self._pending, None
        if pending is None:
            return
        assert self.box is not None
        text, level, bookmark = pending
        size = HEADING_SIZES[level]
        gap = size * (1.2 if level == 1 else 0.6) if self.y < self.box.top - 1 else 0.0
        needed = min(max(needed, KEEP_LINES * BODY_LEADING), self.box.height / 2)
        if self.y - (gap + size * 1.55 + needed) < self.box.bottom:
            self.new_page()
            gap = 0.0
        self.y -= gap  # (a section run on, or a subsection: room above)
        if bookmark:
            self.w.bookmark(text, level=1)
        self.y -= size
        self.w.text(self.fonts.bold).text(self.box.left, self.y, text, size, width=self.box.width)
        self.y -= size * 0.55

    def para(
        self,
        text: str,
        size: float = 9.0,
        bold: bool = False,
        rgb: tuple[float, float, float] = INK,
        indent: float = 0.0,
        gap: float = 3.0,
    ) -> None:
        assert self.box is not None
        font = self.fonts.bold if bold else self.fonts.regular
        width = self.box.width - indent
        leading = size * 1.3
        for paragraph in text.split("\n"):
            lines = simpleSplit(paragraph, font, size, width) or [""]
            self._flush(leading * min(len(lines), KEEP_LINES))
            cut = self._cut(len(lines), leading)
            for k, line in enumerate(lines):
                if k == cut:
                    self.new_page()
                self.ensure(leading)
                self.y -= leading
                self.w.text(font).text(self.box.left + indent, self.y + size * 0.25, line, size,
                                       width=width, rgb=rgb)
        self.y -= gap

    def _cut(self, count: int, leading: float) -> int | None:
        """Where a paragraph of `count` lines breaks to the next page (None: it fits, or
        breaks where it must): never after its first line alone (orphan), never before its
        last line alone (widow)."""
        assert self.box is not None
        room = int((self.y - self.box.bottom) // leading)
        if room >= count or count < 2:
            return None
        if room <= 1:
            return 0
        if count - room == 1 and room >= 3:
            return room - 1
        return room

    def key_values(self, items: Sequence[tuple[str, str]], size: float = 9.0,
                   key_width: float = 150.0) -> None:
        assert self.box is not None
        leading = size * 1.35
        value_width = self.box.width - key_width
        for key, value in items:
            lines = []
            for paragraph in (value or "-").split("\n"):
                lines.extend(simpleSplit(paragraph, self.fonts.regular, size, value_width) or [""])
            self._flush(leading * len(lines))
            self.ensure(leading * len(lines))
            self.y -= leading
            self.w.text(self.fonts.bold).text(self.box.left, self.y + size * 0.25, key, size,
                                              width=key_width - 8, rgb=MUTED)
            self.w.text().column(self.box.left + key_width, self.y + size * 0.25, lines, size,
                                 leading, width=value_width)
            self.y -= leading * (len(lines) - 1)
        self.y -= 4

    # ------------------------------------------------------------------ tables
    def _widths(self, columns: Sequence[Column]) -> list[float]:
        assert self.box is not None
        fixed = sum(c.width for c in columns if c.width > 1)
        share = sum(c.width for c in columns if c.width <= 1) or 1.0
        rest = max(self.box.width - fixed, 0.0)
        return [c.width if c.width > 1 else rest * c.width / share for c in columns]

    def table(
        self,
        columns: Sequence[Column],
        rows: Sequence[Sequence[str]],
        size: float = 8.0,
        row_fills: Sequence[tuple[float, float, float] | None] | None = None,
        bold_rows: set[int] | None = None,
    ) -> None:
        """A table with a header repeated on each page; cells wrap within their column."""
        assert self.box is not None
        widths = self._widths(columns)
        xs = [self.box.left]
        for width in widths[:-1]:
            xs.append(xs[-1] + width)
        grid = _Grid(columns, widths, xs, size)
        regular, bold = self.fonts.regular, self.fonts.bold
        header = grid.wrapped([c.title for c in columns], bold)
        header_h = grid.height(header)
        first = (grid.height(grid.wrapped(rows[0], bold if 0 in (bold_rows or set())
                                          else regular))
                 if rows else grid.leading + 2 * grid.pad)
        self._flush(header_h + first)
        self.ensure(header_h + first)  # the header never alone at a page's foot
        self._table_header(grid, header, header_h)
        bold_rows = bold_rows or set()
        for index, row in enumerate(rows):
            font = bold if index in bold_rows else regular
            cells = grid.wrapped(row, font)
            height = grid.height(cells)
            if self.y - height < self.box.bottom:
                self.new_page()
                self._table_header(grid, header, header_h)
            fill = row_fills[index] if row_fills is not None else (ZEBRA if index % 2 else None)
            canvas = self.w.canvas
            if fill is not None:
                canvas.setFillColorRGB(*fill)
                canvas.rect(self.box.left, self.y - height, self.box.width, height, stroke=0,
                            fill=1)
            self._cells(grid, cells, font)
            self.y -= height
        canvas = self.w.canvas
        canvas.setStrokeColorRGB(*LINE)
        canvas.setLineWidth(0.5)
        canvas.line(self.box.left, self.y, self.box.right, self.y)
        self.y -= 8

    def _table_header(self, grid: _Grid, header: list[list[str]], header_h: float) -> None:
        """The table's header row on its fill, at the current height."""
        assert self.box is not None
        canvas = self.w.canvas
        canvas.setFillColorRGB(*HEAD_FILL)
        canvas.rect(self.box.left, self.y - header_h, self.box.width, header_h, stroke=0,
                    fill=1)
        self._cells(grid, header, self.fonts.bold)
        self.y -= header_h

    def _cells(self, grid: _Grid, cells: list[list[str]], font: str) -> None:
        """One row's wrapped cells in `font`, each aligned in its column."""
        size, leading, pad = grid.size, grid.leading, grid.pad
        text = self.w.text(font)
        for x, lines, column, width in zip(grid.xs, cells, grid.columns, grid.widths,
                                           strict=False):
            if column.align == "right":
                for i, line in enumerate(lines):
                    text.text(x + width - pad, self.y - pad - size - i * leading, line, size,
                              align="right")
            else:
                text.column(x + pad, self.y - pad - size, lines, size, leading,
                            width=width - 2 * pad)
