"""Fast text output: columns of lines written straight into the page's content stream.

reportlab's text objects spend most of their time re-encoding every string for the embedded
TrueType font.  With `ttfAsciiReadable` (reportlab's default), printable ASCII keeps its own code
in subset 0 of the font, so an ASCII string can go into the stream as it is: we only escape
`\\ ( )`.  Strings with other characters go through the font's `splitString` (which also registers
the glyphs for embedding).  A line wider than its column is squeezed horizontally (`Tz`, down to
`MIN_SCALE`) and only then cut with an ellipsis.  One `BT .. ET` block per column and page keeps
the 100k-row schedule fast (shared/reference/performance.md §7).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from reportlab.lib.rl_accel import escapePDF
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

MIN_SCALE = 62.0
BLACK = (0.0, 0.0, 0.0)
_ESCAPE = str.maketrans({"\\": "\\\\", "(": "\\(", ")": "\\)"})


@lru_cache(maxsize=8192)
def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _rg(rgb: tuple[float, float, float]) -> str:
    return f"{_num(rgb[0])} {_num(rgb[1])} {_num(rgb[2])} rg"


class FastText:
    """Writes text lines in one font into the current page of `canvas`."""

    def __init__(self, canvas: Canvas, font_name: str) -> None:
        self.canvas = canvas
        self.font_name = font_name
        self.font = pdfmetrics.getFont(font_name)
        self._doc = canvas._doc
        self._dynamic = bool(getattr(self.font, "_dynamicFont", False))
        if self._dynamic:
            # Registers subset 0 for this document and checks that ASCII maps to itself.
            probe = "Az09 .-/:()"
            fast = self.font.splitString(probe, self._doc) in ([(0, probe)], [(0, probe.encode())])
            self._subset0 = self.font.getSubsetInternalName(0, self._doc)
        else:
            fast = False
            self._subset0 = self._doc.getInternalFontName(font_name)
        self._fast = fast
        self._max_advance = self._widest_ascii()
        self._cache: dict[tuple[float, float | None], dict[str, str]] = {}

    def _widest_ascii(self) -> float:
        widths = [pdfmetrics.stringWidth(ch, self.font_name, 1000) for ch in "MWm@%"]
        return max(widths) / 1000.0

    def width(self, text: str, size: float) -> float:
        return pdfmetrics.stringWidth(text, self.font_name, size)

    def _encode(self, text: str, size: float) -> str:
        """PDF operators showing `text` at the current point (font subset 0 is current)."""
        if self._fast and text.isascii() and text.isprintable():
            return f"({text.translate(_ESCAPE)}) Tj"
        if not self._dynamic:
            return f"({escapePDF(text)}) Tj"
        parts = []
        current = 0
        for subset, chunk in self.font.splitString(text, self._doc):
            if subset != current:
                name = self.font.getSubsetInternalName(subset, self._doc)
                parts.append(f"{name} {_num(size)} Tf")
                current = subset
            parts.append(f"({escapePDF(chunk)}) Tj")
        if current != 0:
            parts.append(f"{self._subset0} {_num(size)} Tf")
        return " ".join(parts)

    def fit(self, text: str, size: float, width: float | None) -> tuple[str, float]:
        """(text, horizontal scale %) so that `text` fits `width` points."""
        if width is None or not text or len(text) * size * self._max_advance <= width:
            return text, 100.0
        actual = self.width(text, size)
        if actual <= width:
            return text, 100.0
        scale = 100.0 * width / actual
        if scale >= MIN_SCALE:
            return text, max(int(scale * 10) / 10.0, MIN_SCALE)
        room = width * 100.0 / MIN_SCALE
        while len(text) > 1 and self.width(text + "…", size) > room:
            text = text[:-1]
        return text + "…", MIN_SCALE

    def line_ops(self, text: str, size: float, width: float | None) -> str:
        text, scale = self.fit(text, size, width)
        if not text:
            return ""
        ops = self._encode(text, size)
        if scale < 100.0:
            return f"{_num(scale)} Tz {ops} 100 Tz"
        return ops

    def column(
        self,
        x: float,
        y: float,
        lines: Sequence[str],
        size: float,
        leading: float,
        width: float | None = None,
        rgb: tuple[float, float, float] | None = None,
    ) -> None:
        """Lines from the baseline (x, y) down, `leading` apart, each fitted to `width`."""
        if not lines:
            return
        head = (f"q BT {_rg(rgb or BLACK)} {self._subset0} {_num(size)} Tf {_num(leading)} TL "
                f"1 0 0 1 {_num(x)} {_num(y)} Tm ")
        joined = "\n".join(lines)
        sure = width / (size * self._max_advance) if width is not None else float("inf")
        if (self._fast and joined.isascii() and joined.replace("\n", "").isprintable()
                and max(map(len, lines)) <= sure):
            # every line is printable ASCII that surely fits: escape and show them in one go
            body = "(" + joined.translate(_ESCAPE).replace("\n", ") Tj T* (") + ") Tj"
        else:
            body = " T* ".join(self._ops(lines, size, width))
        self.canvas.addLiteral(head + body + " ET Q")

    def _ops(self, lines: Sequence[str], size: float, width: float | None) -> list[str]:
        """The show-text operators of each line (fitted); measured lines are cached."""
        key = (size, width)
        cache = self._cache.get(key)
        if cache is None:
            if sum(len(c) for c in self._cache.values()) > 300_000:
                self._cache.clear()
            cache = self._cache[key] = {}
        sure = width / (size * self._max_advance) if width is not None else float("inf")
        fast = self._fast
        out = []
        for text in lines:
            if fast and len(text) <= sure and text.isascii() and text.isprintable():
                out.append(f"({text.translate(_ESCAPE)}) Tj")
                continue
            ops = cache.get(text)
            if ops is None:
                ops = cache[text] = self.line_ops(text, size, width)
            out.append(ops)
        return out

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        width: float | None = None,
        rgb: tuple[float, float, float] | None = None,
        align: str = "left",
    ) -> None:
        """One line at baseline (x, y); `align` right or centre measure the fitted text."""
        if align != "left":
            fitted, scale = self.fit(text, size, width)
            used = self.width(fitted, size) * scale / 100.0
            x = x - used if align == "right" else x - used / 2.0
            width = None if scale >= 100.0 else width
        self.column(x, y, [text], size, size * 1.2, width, rgb)

    def lines_at(
        self,
        items: Iterable[tuple[float, float, str]],
        size: float,
        width: float | None = None,
        rgb: tuple[float, float, float] | None = None,
    ) -> None:
        """Several single lines at their own (x, y) in one text block."""
        out = ["q BT", _rg(rgb or BLACK)]
        out.append(f"{self._subset0} {_num(size)} Tf")
        for x, y, text in items:
            ops = self.line_ops(text, size, width)
            if ops:
                out.append(f"1 0 0 1 {_num(x)} {_num(y)} Tm {ops}")
        out.append("ET Q")
        self.canvas.addLiteral(" ".join(out))
