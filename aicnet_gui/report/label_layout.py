"""Label sheet geometry: where each label of a sheet sits on the page (cabling.md §3.2).

Built in:

* **Avery 5160** (US Letter 8.5 x 11 in): 3 x 10 labels of 2.625 x 1 in, top margin 0.5 in,
  left margin 0.1875 in (3/16 in), horizontal pitch 2.75 in (1/8 in gap), vertical pitch 1 in.
  Right margin = left margin and bottom margin = 0.5 in, as cabling.md's check says.
* **Avery L7651** (A4 210 x 297 mm): 5 x 13 labels of 38.1 x 21.2 mm, top margin 10.7 mm, left
  margin 4.75 mm, pitch 40.6 mm (2.5 mm gap) x 21.2 mm.

A custom grid is parsed from `key=value` pairs (`parse_custom_stock`).  `label_rects` places a
run of labels on sheets after skipping `start` used labels on the first sheet and shifting
everything by the printer calibration offset (+x right, +y up, in mm).  All lengths in points.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, LETTER

MM = 72.0 / 25.4
INCH = 72.0


@dataclass(frozen=True, slots=True)
class LabelStock:
    """A sheet of identical labels in a regular grid; lengths in points."""

    name: str
    title: str
    page_w: float
    page_h: float
    label_w: float
    label_h: float
    cols: int
    rows: int
    left: float
    top: float
    pitch_x: float
    pitch_y: float
    radius: float = 0.0

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def check(self) -> None:
        """Raise ValueError when the grid does not fit its page or labels overlap."""
        if self.cols < 1 or self.rows < 1:
            raise ValueError("a label grid needs at least one column and one row")
        if self.label_w <= 0 or self.label_h <= 0:
            raise ValueError("label width and height must be positive")
        if self.cols > 1 and self.pitch_x + 1e-6 < self.label_w:
            raise ValueError("horizontal pitch is smaller than the label width: labels overlap")
        if self.rows > 1 and self.pitch_y + 1e-6 < self.label_h:
            raise ValueError("vertical pitch is smaller than the label height: labels overlap")
        right = self.left + (self.cols - 1) * self.pitch_x + self.label_w
        bottom = self.top + (self.rows - 1) * self.pitch_y + self.label_h
        outside = right > self.page_w + 0.01 or bottom > self.page_h + 0.01
        if self.left < 0 or self.top < 0 or outside:
            raise ValueError(
                f"the label grid ({right / MM:.1f} x {bottom / MM:.1f} mm from the top left) does "
                f"not fit the page ({self.page_w / MM:.1f} x {self.page_h / MM:.1f} mm)"
            )

    def slot_rect(self, slot: int) -> tuple[float, float, float, float]:
        """(x, y, w, h) of slot `slot` (0 = top left, row by row), PDF coordinates."""
        row, col = divmod(slot, self.cols)
        x = self.left + col * self.pitch_x
        y = self.page_h - self.top - row * self.pitch_y - self.label_h
        return x, y, self.label_w, self.label_h


AVERY_5160 = LabelStock(
    name="avery-5160",
    title="Avery 5160 (US Letter, 3 x 10, 2.625 x 1 in)",
    page_w=LETTER[0],
    page_h=LETTER[1],
    label_w=2.625 * INCH,
    label_h=1.0 * INCH,
    cols=3,
    rows=10,
    left=0.1875 * INCH,
    top=0.5 * INCH,
    pitch_x=2.75 * INCH,
    pitch_y=1.0 * INCH,
    radius=0.0625 * INCH,
)

AVERY_L7651 = LabelStock(
    name="avery-l7651",
    title="Avery L7651 (A4, 5 x 13, 38.1 x 21.2 mm)",
    page_w=A4[0],
    page_h=A4[1],
    label_w=38.1 * MM,
    label_h=21.2 * MM,
    cols=5,
    rows=13,
    left=4.75 * MM,
    top=10.7 * MM,
    pitch_x=40.6 * MM,
    pitch_y=21.2 * MM,
    radius=2.0 * MM,
)

STOCKS = {AVERY_5160.name: AVERY_5160, AVERY_L7651.name: AVERY_L7651}

_PAGES = {"a4": A4, "letter": LETTER}
_CUSTOM_KEYS = {"cols", "rows", "w", "h", "left", "top", "px", "py", "page", "unit"}


def parse_custom_stock(spec: str) -> LabelStock:
    """A custom grid from `cols=3,rows=10,w=66.7,h=25.4,left=4.8,top=12.7,px=69.9,py=25.4`.

    Optional: `page=a4|letter|WxH` (default a4; WxH in the unit), `unit=mm|in|pt` (default mm).
    `px`/`py` (pitch) default to the label size (no gap).  Raises ValueError naming the problem.
    """
    values: dict[str, str] = {}
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in _CUSTOM_KEYS:
            raise ValueError(
                f"custom label grid: {part!r} is not one of {', '.join(sorted(_CUSTOM_KEYS))} "
                "as key=value"
            )
        values[key] = value.strip()
    missing = [k for k in ("cols", "rows", "w", "h", "left", "top") if k not in values]
    if missing:
        raise ValueError(f"custom label grid: missing {', '.join(missing)}")
    unit = {"mm": MM, "in": INCH, "pt": 1.0}.get(values.get("unit", "mm").lower())
    if unit is None:
        raise ValueError("custom label grid: unit must be mm, in or pt")

    def number(key: str) -> float:
        try:
            return float(values[key])
        except ValueError:
            raise ValueError(f"custom label grid: {key}={values[key]!r} is not a number") from None

    def count(key: str) -> int:
        try:
            return int(values[key])
        except ValueError:
            raise ValueError(
                f"custom label grid: {key}={values[key]!r} is not a whole number"
            ) from None

    page = values.get("page", "a4").lower()
    if page in _PAGES:
        page_w, page_h = _PAGES[page]
    else:
        width, sep, height = page.partition("x")
        try:
            page_w, page_h = float(width) * unit, float(height) * unit
        except ValueError:
            raise ValueError("custom label grid: page must be a4, letter or WxH") from None
        if not sep:
            raise ValueError("custom label grid: page must be a4, letter or WxH")
    w, h = number("w") * unit, number("h") * unit
    stock = LabelStock(
        name="custom",
        title=f"custom grid {count('cols')} x {count('rows')}, {w / MM:.1f} x {h / MM:.1f} mm",
        page_w=page_w,
        page_h=page_h,
        label_w=w,
        label_h=h,
        cols=count("cols"),
        rows=count("rows"),
        left=number("left") * unit,
        top=number("top") * unit,
        pitch_x=number("px") * unit if "px" in values else w,
        pitch_y=number("py") * unit if "py" in values else h,
    )
    stock.check()
    return stock


@dataclass(frozen=True, slots=True)
class PlacedLabel:
    """Label number `index` of a run: on sheet `page` (0-based) at (x, y, w, h), PDF points."""

    index: int
    page: int
    slot: int
    x: float
    y: float
    w: float
    h: float


def label_rects(
    stock: LabelStock,
    count: int,
    start: int = 0,
    offset_mm: tuple[float, float] = (0.0, 0.0),
) -> list[PlacedLabel]:
    """Where `count` labels go: skip `start` slots of the first sheet, shift by the offset."""
    if not 0 <= start < stock.per_page:
        raise ValueError(
            f"label start position must be 0..{stock.per_page - 1} for {stock.title}"
        )
    dx, dy = offset_mm[0] * MM, offset_mm[1] * MM
    placed = []
    for index in range(count):
        page, slot = divmod(start + index, stock.per_page)
        x, y, w, h = stock.slot_rect(slot)
        placed.append(PlacedLabel(index, page, slot, x + dx, y + dy, w, h))
    return placed
