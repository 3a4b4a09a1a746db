"""The schedule page of a rack where cables only end: spine and core racks, storage racks.

The schedule lists every cable once, in the section of the rack its A end is in.  A rack
that no cable starts from would get no page at all, and the installer working at it rack by
rack would find nothing to tick off.  This page names where its cables come from and lists, per
device (top of rack down), the numbers of the cables that end on it, as ranges
(`C000513-C000516`), so that the installer can find each in the other racks' sections and on
the labels.
"""

from __future__ import annotations

from .cables import RackSection
from .identifiers import cable_number
from .pdfpage import PdfWriter
from .pdftext import FastText

SIZE = 8.0
LEAD = 10.5
MUTED = (0.28, 0.28, 0.28)


def number_ranges(serials: list[int]) -> str:
    """`C000001-C000004, C000009`: cable serials as ranges of consecutive numbers."""
    runs: list[list[int]] = []
    for serial in sorted(set(serials)):
        if runs and serial == runs[-1][1] + 1:
            runs[-1][1] = serial
        else:
            runs.append([serial, serial])
    return ", ".join(cable_number(a) if a == b else f"{cable_number(a)}-{cable_number(b)}"
                     for a, b in runs)


def arrival_lines(section: RackSection) -> list[tuple[str, str]]:
    """(device with its position, cable number ranges) of every device the rack's arriving
    cables end on, top of rack down."""
    by_device: dict[str, list[int]] = {}
    top: dict[str, int] = {}
    for row in section.arrivals:
        name = f"{row.b.dev.name} ({row.b.ru_text})"
        by_device.setdefault(name, []).append(row.serial)
        top[name] = row.b.dev.ru or 0
    order = sorted(by_device, key=lambda name: (-top[name], name))
    return [(name, number_ranges(by_device[name])) for name in order]


def _wrap(font: FastText, text: str, size: float, width: float) -> list[str]:
    lines = [""]
    for word in text.split(" "):
        candidate = f"{lines[-1]} {word}".strip()
        if font.width(candidate, size) <= width or not lines[-1]:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def draw_arrivals(writer: PdfWriter, section: RackSection, title: list[str],
                  size: tuple[float, float], first: bool) -> None:
    """The page(s) of a rack that only receives cables; `title` as the schedule wraps it."""
    bold, regular = writer.text(writer.fonts.bold), writer.text(writer.fonts.cond)
    box = writer.begin_page(size, "Cable schedule")
    if first:
        writer.bookmark("Cable schedule", 0)
    writer.bookmark(section.title, 1)
    y = box.top - 11
    for line in title:
        bold.text(box.left, y, line, 10, width=box.width)
        y -= 12
    y -= 6
    note = ("No cable starts in this rack: each cable ending here is listed, with both ends and "
            "its label text, in the section of the rack it starts from (named above). The numbers "
            "of the cables that end on each device here, top of rack down:")
    for line in _wrap(regular, note, SIZE, box.width):
        regular.text(box.left, y, line, SIZE, rgb=MUTED)
        y -= LEAD
    y -= 4
    name_w = 110.0
    for name, ranges in arrival_lines(section):
        lines = _wrap(regular, ranges, SIZE, box.width - name_w)
        if y - LEAD * len(lines) < box.bottom + 10:
            writer.end_page()
            box = writer.begin_page(size, "Cable schedule")
            y = box.top - 11
            bold.text(box.left, y, f"{section.title} (continued)", 10, width=box.width)
            y -= 18
        bold.text(box.left, y, name, SIZE, width=name_w - 6)
        for line in lines:
            regular.text(box.left + name_w, y, line, SIZE)
            y -= LEAD
    writer.end_page()
