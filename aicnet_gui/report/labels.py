"""Label sheets: one label per cable end, on Avery 5160 / L7651 or a custom grid.

Each label carries (cabling.md §1.4, §7.3): the cable number in bold, *this* end's identifier and
device/port, a `TO:` line with the far end's identifier and device/port (one `TO` line per leg at
the shared end of a splitter), the media, ordered length and colour name, the rail and plane
(which of a multi-plane server's ports goes where), a colour bar on the left edge, and optionally a QR code with `number|this end|far end(s)`.  The two labels of a cable
come one after the other, so a cable can be labelled at both ends before it is pulled.

Sheets have no running header or footer: the whole page belongs to the labels.  The calibration
page draws every label outline of the stock (with the printer offset applied), a centre cross in
each, and a 100 mm scale bar, with instructions for measuring the offset.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from .cables import LabelEnd
from .colour_rgb import colour_rgb
from .label_layout import MM, LabelStock, PlacedLabel, label_rects
from .pdfpage import PdfWriter
from .qr import place_qr
from .qr_pool import LabelQr

MUTED = (0.25, 0.25, 0.25)


@dataclass(frozen=True)
class LabelStyle:
    """Font sizes, padding, QR size and text width of one label size (points)."""

    pad: float
    bar: float
    qr: float
    text_w: float
    number: float
    ident: float
    human: float
    detail: float

    @classmethod
    def for_stock(cls, stock: LabelStock, qr: bool = True) -> LabelStyle:
        pad = max(3.0, min(stock.label_h, stock.label_w) * 0.055)
        bar = 2.5
        share = 0.30 if stock.label_w < 150 else 0.36
        qr_size = min(stock.label_h - 2 * pad, stock.label_w * share) if qr else 0.0
        # keep about three QR modules of quiet zone between the text and the code
        gap = pad + qr_size * 0.1 if qr_size else 0.0
        text_w = stock.label_w - 2 * pad - bar - 2.0 - qr_size - gap
        # Height: number + two ident and two device lines + detail at the base sizes take
        # 52.3 pt; width: a 20-character identifier must fit at 80 % horizontal scale.
        scale = min((stock.label_h - 2 * pad) / 52.3, text_w / 73.9, 1.3)
        scale = max(scale, 0.5)
        return cls(
            pad=pad,
            bar=bar,
            qr=qr_size,
            text_w=text_w,
            number=11.0 * scale,
            ident=8.4 * scale,
            human=7.6 * scale,
            detail=6.8 * scale,
        )


def number_origin(placed: PlacedLabel, style: LabelStyle) -> tuple[float, float]:
    """Where the cable number's baseline starts on a label (tests compare it with the grid)."""
    x = placed.x + style.pad + style.bar + 2.0
    return x, placed.y + placed.h - style.pad - style.number * 0.8


def _lines(label: LabelEnd) -> list[tuple[str, str]]:
    """(kind, text) lines under the number: ident, human, TO lines, detail."""
    lines = [("ident", label.this_id), ("human", label.this_text)]
    if len(label.far) == 1:
        far_id, far_text = label.far[0]
        lines += [("ident", f"TO: {far_id}"), ("human", far_text)]
    elif len(label.far) <= 4:
        lines += [("human", f"TO {i}: {far_id}") for i, (far_id, _) in enumerate(label.far, 1)]
    else:
        lines.append(("ident", f"TO: {len(label.far)} ends, see schedule"))
    detail = " ".join(x for x in (label.detail, label.colour) if x)
    lines.append(("detail", ", ".join(x for x in (detail, label.rail_plane) if x)))
    return lines


class LabelSheets:
    """Draws label sheets (and the calibration page) into a `PdfWriter`."""

    def __init__(
        self,
        writer: PdfWriter,
        stock: LabelStock,
        start: int = 0,
        offset_mm: tuple[float, float] = (0.0, 0.0),
        qr: bool = True,
    ) -> None:
        self.w = writer
        self.stock = stock
        self.start = start
        self.offset_mm = offset_mm
        self.qr = qr
        self.style = LabelStyle.for_stock(stock, qr)

    def layout(self, count: int) -> list[PlacedLabel]:
        return label_rects(self.stock, count, self.start, self.offset_mm)

    def draw(self, labels: list[LabelEnd], tick: Callable[[int], None] | None = None) -> None:
        placed = self.layout(len(labels))
        by_page: dict[int, list[PlacedLabel]] = defaultdict(list)
        for item in placed:
            by_page[item.page].append(item)
        pages = sorted(by_page)
        payloads = [labels[p.index].qr_payload for page in pages for p in by_page[page]] \
            if self.qr else []
        done = 0
        with LabelQr(payloads) as codes:  # the QR codes, in the order the pages draw them
            for page in pages:
                on_page = by_page[page]
                self.w.begin_page((self.stock.page_w, self.stock.page_h), "Labels", frame=False)
                if page == 0:
                    self.w.bookmark(f"Label sheets ({self.stock.title})", 0)
                self._page([(p, labels[p.index]) for p in on_page],
                           codes.take(len(on_page)) if self.qr else [])
                self.w.end_page()
                done += len(on_page)
                if tick is not None:
                    tick(done)

    def _page(self, items: list[tuple[PlacedLabel, LabelEnd]],
              codes: list[tuple[int, str]]) -> None:
        style = self.style
        fonts = self.w.fonts
        texts: dict[tuple[str, float, bool], list[tuple[float, float, str]]] = defaultdict(list)
        ops: list[str] = []
        bars: dict[tuple[float, float, float], list[str]] = defaultdict(list)
        qr = style.qr
        for number, (placed, label) in enumerate(items):
            x0 = placed.x + style.pad + style.bar + 2.0
            nx, ny = number_origin(placed, style)
            texts[(fonts.cond_bold, style.number, False)].append((nx, ny, label.number))
            y = ny
            for kind, text in _lines(label):
                size = {"ident": style.ident, "human": style.human, "detail": style.detail}[kind]
                y -= size * 1.12
                font = fonts.cond_bold if kind == "ident" else fonts.cond
                texts[(font, size, kind == "detail")].append((x0, y, text))
            rgb = colour_rgb(label.colour)
            bar = (f"{placed.x + style.pad:.2f} {placed.y + style.pad:.2f} {style.bar:.2f} "
                   f"{placed.h - 2 * style.pad:.2f} re")
            bars[rgb or (1.0, 1.0, 1.0)].append(bar)
            if qr:
                modules, rects = codes[number]
                ops.append(place_qr(modules, rects, placed.x + placed.w - style.pad - qr,
                                    placed.y + (placed.h - qr) / 2, qr))
        outline = ["q 0.3 w 0 G"]
        for rgb, rects in bars.items():
            ops.append(f"q {rgb[0]:.3f} {rgb[1]:.3f} {rgb[2]:.3f} rg " + " ".join(rects) + " f Q")
            outline.extend(rects)
        outline.append("S Q")
        self.w.canvas.addLiteral(" ".join(ops + outline))
        width = style.text_w
        for (font, size, muted), lines in texts.items():
            self.w.text(font).lines_at(lines, size, width=width, rgb=MUTED if muted else None)

    # ------------------------------------------------------------------ calibration
    def calibration_page(self) -> None:
        stock = self.stock
        self.w.begin_page((stock.page_w, stock.page_h), "Label calibration", frame=False)
        self.w.bookmark("Label calibration page", 0)
        canvas = self.w.canvas
        placed = label_rects(stock, stock.per_page, 0, self.offset_mm)
        ops = ["q 0.4 w 0.2 G"]
        for p in placed:
            if stock.radius:
                canvas.saveState()
                canvas.setLineWidth(0.4)
                canvas.setStrokeColorRGB(0.2, 0.2, 0.2)
                canvas.roundRect(p.x, p.y, p.w, p.h, stock.radius, stroke=1, fill=0)
                canvas.restoreState()
            else:
                ops.append(f"{p.x:.2f} {p.y:.2f} {p.w:.2f} {p.h:.2f} re")
            cx, cy = p.x + p.w / 2, p.y + p.h / 2
            ops.append(f"{cx - 4:.2f} {cy:.2f} m {cx + 4:.2f} {cy:.2f} l "
                       f"{cx:.2f} {cy - 4:.2f} m {cx:.2f} {cy + 4:.2f} l")
        ops.append("S Q")
        canvas.addLiteral(" ".join(ops))
        small = self.w.text(self.w.fonts.cond)
        small.lines_at([(p.x + 3, p.y + 3, str(p.slot + 1)) for p in placed], 6, rgb=MUTED)

        box_w, box_h = min(stock.page_w - 80, 420.0), 190.0
        bx, by = (stock.page_w - box_w) / 2, (stock.page_h - box_h) / 2
        canvas.saveState()
        canvas.setFillColorRGB(1, 1, 1)
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.rect(bx, by, box_w, box_h, stroke=1, fill=1)
        canvas.restoreState()
        dx, dy = self.offset_mm
        lines = [
            f"Calibration page - {stock.title}",
            "1. Print this page on plain paper at 100 % (no 'fit to page').",
            "2. Check the bar below: it must measure exactly 100 mm.",
            "3. Lay the print on a label sheet and hold both against the light.",
            "4. Measure how far the outlines sit from the die-cut labels.",
            "5. Export again with that shift: --label-offset X,Y (mm; +X moves",
            "    the print right, +Y moves it up).",
            f"Offset used on this page: X = {dx:+.1f} mm, Y = {dy:+.1f} mm.",
            "Skip used labels of a partly used sheet with --label-start N.",
        ]
        regular = self.w.text()
        bold = self.w.text(self.w.fonts.bold)
        bold.text(bx + 12, by + box_h - 20, lines[0], 10, width=box_w - 24)
        regular.column(bx + 12, by + box_h - 38, lines[1:], 8.5, 13, width=box_w - 24)
        bar_y = by + 22
        canvas.saveState()
        canvas.setLineWidth(1.2)
        x = bx + (box_w - 100 * MM) / 2
        canvas.line(x, bar_y, x + 100 * MM, bar_y)
        for tick in range(0, 101, 10):
            height = 6 if tick % 50 == 0 else 3
            canvas.line(x + tick * MM, bar_y, x + tick * MM, bar_y + height)
        canvas.restoreState()
        regular.text(x + 50 * MM, bar_y - 11, "100 mm", 7, align="center")
        self.w.end_page()
