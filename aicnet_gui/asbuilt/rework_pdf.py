"""The re-work list as a PDF for the installers: a summary, then one table per rack (cable
number, kind, label identifiers, what is wrong and what to do), in the cabling plan's fonts."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, TableStyle

from ..model.document import FabricDocument
from ..report.fonts import fonts
from .differences import KIND_TITLES, Comparison
from .rework import NO_RACK, ReworkItem

KIND_COLOURS = {
    "missing": "#c62828", "unexpected": "#6a1b9a", "wrong_port": "#ef6c00",
    "wrong_device": "#ef6c00", "swapped": "#1565c0", "wrong_rail": "#ad1457",
    "wrong_speed": "#2e7d32", "unknown_device": "#455a64",
}


def export_rework_pdf(doc: FabricDocument, comparison: Comparison, items: list[ReworkItem],
                      out_path: str | os.PathLike[str], source: str, observed: str) -> int:
    """Write the PDF; return the number of differences listed."""
    font = fonts()
    body = ParagraphStyle("body", fontName=font.regular, fontSize=8, leading=10)
    bold = ParagraphStyle("bold", parent=body, fontName=font.bold)
    title = ParagraphStyle("title", parent=body, fontName=font.bold, fontSize=15, leading=19)
    head = ParagraphStyle("head", parent=body, fontName=font.bold, fontSize=11, leading=14,
                          spaceBefore=8, spaceAfter=4)
    c = comparison
    story = [
        Paragraph(escape(f"As built vs as designed: {doc.metadata.name} "
                         f"(revision {doc.metadata.revision})"), title),
        Spacer(1, 3 * mm),
        Paragraph(escape(f"Design {source}; observed {observed}; "
                         f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"), body),
        Paragraph(escape(f"{c.checked} planned links checked, {c.matched} as planned, "
                         f"{len(c.differences)} differences"), bold),
    ]
    story += [Paragraph(escape(f"Note: {note}"), body) for note in c.notes]
    if not items:
        story.append(Paragraph("As built = as designed: nothing to re-work.", head))
    widths = [22 * mm, 30 * mm, 70 * mm, 80 * mm, 65 * mm]
    rack = None
    rows: list[list[object]] = []

    def flush() -> None:
        if not rows:
            return
        table = LongTable([[Paragraph(h, bold) for h in
                            ("Cable", "Kind", "Labels", "Difference", "Action")], *rows],
                          colWidths=widths, repeatRows=1)
        style = [("GRID", (0, 0), (-1, -1), 0.3, colors.grey),
                 ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
                 ("VALIGN", (0, 0), (-1, -1), "TOP")]
        story.append(table)
        table.setStyle(TableStyle(style))
        rows.clear()

    for item in items:
        if item.rack != rack:
            flush()
            rack = item.rack
            story.append(Paragraph(escape(f"Rack {rack}" if rack != NO_RACK
                                          else "Devices in no rack"), head))
        kind = (f'<font color="{KIND_COLOURS.get(item.kind, "#000000")}">'
                f"{escape(KIND_TITLES.get(item.kind, item.kind))}</font>")
        rows.append([Paragraph(escape(" ".join(item.cables) or "-"), body),
                     Paragraph(kind, bold),
                     Paragraph(escape("; ".join(item.labels)), body),
                     Paragraph(escape(item.diff.message), body),
                     Paragraph(escape(item.diff.action), body)])
    flush()
    document = SimpleDocTemplate(str(out_path), pagesize=landscape(A4), leftMargin=12 * mm,
                                 rightMargin=12 * mm, topMargin=12 * mm, bottomMargin=12 * mm,
                                 title=f"Re-work list: {doc.metadata.name}", author="aicnet")
    document.build(story)
    return len(items)
