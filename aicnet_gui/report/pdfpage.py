"""The PDF being written: pages with a header and a `page X of Y` footer, bookmarks, fonts.

`PdfWriter` owns the reportlab canvas.  Each page starts with `begin_page(size, section)` which
draws the running header (project, revision, section) and footer (generation date, label
profile, `page X of Y`) and returns the content box.  Finished pages are compressed into a
temporary spool file at once (page_spool.py), so memory does not grow with the page count.  The total page count is not known while
pages are written, so the footer draws a form XObject named `total` that `finish()` defines once
the last page is done (reportlab resolves forward references to forms at save time).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from reportlab.pdfgen.canvas import Canvas

from .fonts import FontSet
from .page_spool import PageSpool, save_streaming
from .pdftext import FastText

MARGIN = 30.0
HEADER_H = 22.0
FOOTER_H = 20.0
GREY = (0.35, 0.35, 0.35)
RULE = (0.6, 0.6, 0.6)


@dataclass(frozen=True)
class DocInfo:
    """What the running header and footer print."""

    project: str
    revision: str
    author: str
    generated: str
    profile: str


@dataclass(frozen=True)
class Box:
    """The content area of a page, PDF points (origin bottom left)."""

    left: float
    bottom: float
    right: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom


class PdfWriter:
    def __init__(self, target: str | BinaryIO, info: DocInfo, fonts: FontSet) -> None:
        self.target = target
        self.canvas = Canvas(target, pageCompression=1)
        self.canvas.setTitle(f"{info.project} - cabling plan rev {info.revision}")
        self.canvas.setAuthor(info.author or "aicnet")
        self.canvas.setSubject("Cabling plan, label sheets, bill of materials and design report")
        self.canvas.setCreator("aicnet")
        self.info = info
        self.fonts = fonts
        self.pages = 0
        self._texts: dict[str, FastText] = {}
        self._bookmarks = 0
        self._forms: dict[tuple, str] = {}
        self.page_size: tuple[float, float] = (0.0, 0.0)
        #: finished pages go to a temporary file, not memory (page_spool.py), compressed by a
        #: thread while the next pages are drawn
        self.spool = PageSpool(threads=1)
        #: the header of the page being drawn: its size and the sections on it (drawn when the
        #: page ends, so a section that starts in the middle of the page is named too)
        self._frame: tuple[tuple[float, float], list[str]] | None = None
        #: a page a text section left with room below it: (its box, the height reached, its
        #: size); the next text section goes on there (text_flow.py), anything else ends it first
        self._held: tuple[Box, float, tuple[float, float]] | None = None

    def text(self, font: str | None = None) -> FastText:
        """The fast text writer for `font` (default: the regular face)."""
        name = font or self.fonts.regular
        writer = self._texts.get(name)
        if writer is None:
            writer = self._texts[name] = FastText(self.canvas, name)
        return writer

    def begin_page(self, size: tuple[float, float], section: str, frame: bool = True) -> Box:
        """Start a page; with `frame`, draw header and footer and return the box inside them.

        The header and footer are the same on every page of a section except the page number,
        so they are drawn once into a form XObject and reused (a 5,000-page schedule stays fast
        and small).
        """
        self.release()
        canvas = self.canvas
        canvas.setPageSize(size)
        self.page_size = size
        width, height = size
        if not frame:
            return Box(0.0, 0.0, width, height)
        self._frame = (size, [section])
        regular = self.text()
        bottom = MARGIN
        page_text = f"page {self.pages + 1} of "
        x = width - MARGIN - 70
        regular.text(x, bottom + 4, page_text, 8)
        canvas.saveState()
        canvas.translate(x + regular.width(page_text, 8), bottom + 4)
        canvas.doForm("total")
        canvas.restoreState()
        top = height - MARGIN
        return Box(MARGIN, bottom + FOOTER_H, width - MARGIN, top - HEADER_H - 6)

    def form(self, key: tuple, draw: Callable[[], None]) -> str:
        """The name of the form XObject for `key`, drawn by `draw()` the first time."""
        name = self._forms.get(key)
        if name is None:
            name = self._forms[key] = f"aicnet{len(self._forms)}"
            width, height = self.page_size
            self.canvas.beginForm(name, 0, 0, width, height)
            draw()
            self.canvas.endForm()
        return name

    def _draw_frame(self, size: tuple[float, float], section: str) -> None:
        canvas = self.canvas
        width, height = size
        top = height - MARGIN
        bold = self.text(self.fonts.bold)
        regular = self.text()
        bold.text(MARGIN, top - 9, self.info.project, 9, width=width * 0.45)
        regular.text(width - MARGIN, top - 9, section, 9, width=width * 0.45, align="right")
        regular.text(
            MARGIN, top - 19, f"revision {self.info.revision}", 7, width=width * 0.45, rgb=GREY
        )
        canvas.setStrokeColorRGB(*RULE)
        canvas.setLineWidth(0.5)
        canvas.line(MARGIN, top - HEADER_H, width - MARGIN, top - HEADER_H)
        bottom = MARGIN
        canvas.line(MARGIN, bottom + FOOTER_H - 6, width - MARGIN, bottom + FOOTER_H - 6)
        footer = (
            f"aicnet cabling plan - generated {self.info.generated} - "
            f"labels {self.info.profile}"
        )
        regular.text(MARGIN, bottom + 4, footer, 7, width=width * 0.6, rgb=GREY)

    def add_section(self, section: str) -> None:
        """A section starts on the page being drawn: the header names it too."""
        if self._frame is not None and section not in self._frame[1]:
            self._frame[1].append(section)

    def hold(self, box: Box, y: float) -> None:
        """Keep the page open: a text section ended at height `y` of `box`."""
        self._held = (box, y, self.page_size)

    def take_held(self, size: tuple[float, float]) -> tuple[Box, float] | None:
        """The page a text section left open, if it has `size` (it is no longer held)."""
        held, self._held = self._held, None
        if held is None:
            return None
        if held[2] != size:
            self._held = held
            self.release()
            return None
        return held[0], held[1]

    def release(self) -> None:
        """End the page a text section left open, if any."""
        if self._held is not None:
            self._held = None
            self.end_page()

    def end_page(self) -> None:
        if self._frame is not None:
            size, sections = self._frame
            self._frame = None
            title = " · ".join(sections)
            self.canvas.doForm(self.form(("frame", size, title),
                                         lambda: self._draw_frame(size, title)))
        self.canvas.showPage()
        self.spool.take(self.canvas)
        self.pages += 1

    def bookmark(self, title: str, level: int = 0) -> None:
        """An outline entry pointing at the current page."""
        key = f"b{self._bookmarks}"
        self._bookmarks += 1
        self.canvas.bookmarkPage(key)
        self.canvas.addOutlineEntry(title, key, level=level, closed=level > 0)

    def finish(self) -> None:
        """Define the page-count form and write the file."""
        self.release()
        canvas = self.canvas
        canvas.beginForm("total", 0, -3, 60, 12)
        self.text().text(0, 0, str(self.pages), 8)
        canvas.endForm()
        if self._bookmarks:
            canvas.showOutline()
        try:
            self.spool.flush()
            if isinstance(self.target, str):
                with open(self.target, "wb") as out:
                    save_streaming(canvas, out)
            else:
                save_streaming(canvas, self.target)
        finally:
            self.spool.close()

    def close(self) -> None:
        """Give up without saving (cancelled or failed): drop the spooled pages."""
        self.spool.close()
