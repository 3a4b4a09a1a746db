"""Flowing content for the text sections (cover, analysis, findings, BOM, design report).

A `Flow` keeps a cursor on the current page of one section and breaks pages when the next item
does not fit: headings, wrapped paragraphs, key/value lists and tables whose header row repeats
on every page.  Tables wrap long cells; rows never split across pages.
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


@dataclass
class Column:
    title: str
    width: float
    """points, or a fraction of the box width when <= 1"""
    align: str = "left"


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

    # ------------------------------------------------------------------ pages
    def new_page(self) -> None:
        if self.box is not None:
            self.w.end_page()
        if self.check is not None:
            self.check()
        self.box = self.w.begin_page(self.size, self.section)
        self.y = self.box.top

    def start(self) -> Flow:
        self.new_page()
        return self

    def close(self) -> None:
        if self.box is not None:
            self.w.end_page()
            self.box = None

    def ensure(self, height: float) -> None:
        assert self.box is not None
        if self.y - height < self.box.bottom:
            self.new_page()

    def space(self, points: float) -> None:
        self.y -= points

    # ------------------------------------------------------------------ text
    def heading(self, text: str, level: int = 1, bookmark: bool = False) -> None:
        size = {1: 15.0, 2: 11.5, 3: 9.5}[level]
        self.ensure(size * 2.6)
        if level > 1 and self.box is not None and self.y < self.box.top - 1:
            self.y -= size * 0.6
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
            for line in lines:
                self.ensure(leading)
                self.y -= leading
                self.w.text(font).text(self.box.left + indent, self.y + size * 0.25, line, size,
                                       width=width, rgb=rgb)
        self.y -= gap

    def key_values(self, items: Sequence[tuple[str, str]], size: float = 9.0,
                   key_width: float = 150.0) -> None:
        assert self.box is not None
        leading = size * 1.35
        value_width = self.box.width - key_width
        for key, value in items:
            lines = []
            for paragraph in (value or "-").split("\n"):
                lines.extend(simpleSplit(paragraph, self.fonts.regular, size, value_width) or [""])
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
        leading = size * 1.25
        pad = 2.5
        regular, bold = self.fonts.regular, self.fonts.bold

        def wrapped(cells: Sequence[str], font: str) -> list[list[str]]:
            out = []
            for cell, width in zip(cells, widths, strict=False):
                lines: list[str] = []
                for part in str(cell).split("\n"):
                    lines.extend(simpleSplit(part, font, size, width - 2 * pad) or [""])
                out.append(lines)
            return out

        header = wrapped([c.title for c in columns], bold)
        header_h = max(len(x) for x in header) * leading + 2 * pad

        def draw_header() -> None:
            assert self.box is not None
            canvas = self.w.canvas
            canvas.setFillColorRGB(*HEAD_FILL)
            canvas.rect(self.box.left, self.y - header_h, self.box.width, header_h, stroke=0,
                        fill=1)
            for x, lines, column, width in zip(xs, header, columns, widths, strict=False):
                if column.align == "right":
                    for i, line in enumerate(lines):
                        self.w.text(bold).text(x + width - pad, self.y - pad - size - i * leading,
                                               line, size, align="right")
                else:
                    self.w.text(bold).column(x + pad, self.y - pad - size, lines, size, leading,
                                             width=width - 2 * pad)
            self.y -= header_h

        self.ensure(header_h + leading + 2 * pad)
        draw_header()
        bold_rows = bold_rows or set()
        for index, row in enumerate(rows):
            font = bold if index in bold_rows else regular
            cells = wrapped(row, font)
            height = max(len(x) for x in cells) * leading + 2 * pad
            if self.y - height < self.box.bottom:
                self.new_page()
                draw_header()
            fill = row_fills[index] if row_fills is not None else (ZEBRA if index % 2 else None)
            canvas = self.w.canvas
            if fill is not None:
                canvas.setFillColorRGB(*fill)
                canvas.rect(self.box.left, self.y - height, self.box.width, height, stroke=0,
                            fill=1)
            for x, lines, column, width in zip(xs, cells, columns, widths, strict=False):
                text = self.w.text(font)
                if column.align == "right":
                    for i, line in enumerate(lines):
                        text.text(x + width - pad, self.y - pad - size - i * leading, line, size,
                                  align="right")
                else:
                    text.column(x + pad, self.y - pad - size, lines, size, leading,
                                width=width - 2 * pad)
            self.y -= height
        canvas = self.w.canvas
        canvas.setStrokeColorRGB(*LINE)
        canvas.setLineWidth(0.5)
        canvas.line(self.box.left, self.y, self.box.right, self.y)
        self.y -= 8
