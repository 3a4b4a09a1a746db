"""CSV exports of the cable plan: the schedule, label data for label printers, the NVIDIA P2P sheet.

* `export_csv`: the cable schedule, one row per link, with the PDF schedule's columns spelled
  out (cabling.md §2.3), in schedule order.  UTF-8 with a byte-order mark so that spreadsheet
  programs read non-ASCII names right.
* `export_labels_csv`: one row per label (cable end) for Brother P-touch Editor, Brady Workstation
  and Dymo database merges (cabling.md §3.4, §7.8): cable number, this end, far end(s), the
  near/far label text, colour, media, length, the QR payload, and the rail and plane of the
  cable (blank when the legs of a splitter differ).  UTF-8 with BOM.
* `export_p2p`: the NVIDIA UFM Cable Validation Tool 1.4-1.6 P2P file, made in cvt_p2p.py
  (its columns and port conventions are documented there): Excel for `OUT.xlsx`, else CSV.

Every function takes the document (or a prebuilt `CablePlan`) and returns the rows written.

Cells are data, never formulas: a text cell a spreadsheet would read as a formula gets a
leading `'` (model/text_safety.py `spreadsheet_cell`: OWASP's `=`, `+`, `-`, `@`, tab and carriage
return, with line feed, NUL and the fullwidth forms), so a device named `=HYPERLINK(...)` shows
as that text in a spreadsheet instead of running.  Every CSV aicnet writes (these and the NetBox
files) goes through `write_csv`, which does this and writes the file atomically
(fileio/atomic.py: an exclusive temp file beside the target, removed on any failure).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..fileio.atomic import atomic_output
from ..model.document import FabricDocument
from ..model.rack_units import CSV_RU
from ..model.text_safety import FORMULA_STARTS as FORMULA_STARTS  # re-exported, as before
from ..model.text_safety import spreadsheet_cell
from .cables import CablePlan, CableRow, End, LabelEnd, build_plan
from .cvt_p2p import P2P_HEADER, export_p2p_xlsx, p2p_rows

SCHEDULE_HEADER: tuple[str, ...] = (
    "Cable", "Label text A", "Label text B", "Tier", "Rail", "Plane",
    "A site", "A rack", f"A {CSV_RU}", "A device", "A port", "A breakout leg", "A optic", "A connector",
    "B site", "B rack", f"B {CSV_RU}", "B device", "B port", "B breakout leg", "B optic", "B connector",
    "Media", "Speed Gb/s", "Cable part", "Cable type", "Fibre type", "Polarity",
    "Calculated length m", "Length source", "Ordered length m", "Colour", "Status", "Link id",
    "Assembly",
)
LABEL_HEADER: tuple[str, ...] = (
    "cable", "this_end", "this_device_port", "to_end", "to_device_port", "label_text",
    "colour", "media", "length_m", "qr_payload", "rail", "plane",
)


#: kept under its old name: other modules import the rule from here
neutralised = spreadsheet_cell


def write_csv(path: str | os.PathLike[str], header: Sequence[str], rows: Iterable[Sequence[object]],
              bom: bool = False) -> int:
    """Write `rows` under `header` atomically, every cell `neutralised`; return the row count."""
    count = 0
    with atomic_output(Path(path)) as raw:
        handle = io.TextIOWrapper(raw, encoding="utf-8-sig" if bom else "utf-8", newline="")
        try:
            writer = csv.writer(handle)
            writer.writerow(header)
            for row in rows:
                writer.writerow([spreadsheet_cell(v) for v in row])
                count += 1
            handle.flush()
        finally:
            handle.detach()  # the temp file is atomic_output's to close
    return count


def _plan(doc: FabricDocument, plan: CablePlan | None, profile: str | None) -> CablePlan:
    return plan if plan is not None else build_plan(doc, profile)


def _end_cells(site: str, end: End) -> list[object]:
    return [site, end.rack, end.dev.ru if end.dev.ru is not None else "", end.device,
            end.port, end.leg_text, end.optic, end.connector]


def schedule_row(site: str, row: CableRow) -> list[object]:
    """One CSV row of the schedule (columns of `SCHEDULE_HEADER`)."""
    part = row.part
    return [
        row.number, row.cable_id, row.label_b, row.tier,
        row.rail if row.rail is not None else "", row.plane,
        *_end_cells(site, row.a),
        *_end_cells(site, row.b),
        row.media, row.a.speed_gbps or "", row.part_name,
        (f"{part.type} 1:{part.legs}" if part is not None else ""),
        row.fibre, row.polarity,
        f"{row.length_m:.2f}" if row.length_m is not None else "",
        ("manual" if row.manual else "estimated") if row.length_m is not None else "unknown",
        f"{row.ordered_m:g}" if row.ordered_m is not None else "",
        row.colour, "planned", row.link_id, row.assembly or "",
    ]


def export_csv(doc: FabricDocument, out_path: str | os.PathLike[str],
               plan: CablePlan | None = None, profile: str | None = None) -> int:
    """The cable schedule as CSV; returns the number of rows (links)."""
    plan = _plan(doc, plan, profile)
    site = doc.settings.site
    rows = (schedule_row(site, r) for r in plan.rows)
    return write_csv(out_path, SCHEDULE_HEADER, rows, bom=True)


def export_labels_csv(doc: FabricDocument, out_path: str | os.PathLike[str],
                      plan: CablePlan | None = None, profile: str | None = None) -> int:
    """One row per label (cable end); returns the number of labels."""
    plan = _plan(doc, plan, profile)
    legs: dict[str, list[CableRow]] = {}
    for row in plan.rows:
        legs.setdefault(row.number, []).append(row)
    rows = []
    for label in plan.labels:
        far_ids = "; ".join(f[0] for f in label.far)
        far_text = "; ".join(f[1] for f in label.far)
        rows.append([
            label.number, label.this_id, label.this_text, far_ids, far_text,
            f"{label.this_id}/{far_ids}" if len(label.far) == 1 else label.this_id,
            label.colour, label.row.media, f"{label.length_m:g}" if label.length_m else "",
            label.qr_payload, *_rail_plane_cells(label, legs[label.number]),
        ])
    return write_csv(out_path, LABEL_HEADER, rows, bom=True)


def _rail_plane_cells(label: LabelEnd, rows: list[CableRow]) -> list[str]:
    """The label's rail and plane columns: blank where the legs of a splitter differ."""
    rails = {row.rail for row in rows}
    planes = {row.plane for row in rows}
    rail = rails.pop() if len(rails) == 1 else None
    return [str(rail) if rail is not None else "", planes.pop() if len(planes) == 1 else ""]


def export_p2p(doc: FabricDocument, out_path: str | os.PathLike[str],
               plan: CablePlan | None = None, profile: str | None = None) -> int:
    """The NVIDIA Cable Validation Tool 1.4-1.6 P2P file (cvt_p2p.py): the Excel file CVT
    documents for `OUT.xlsx`, the same rows as CSV otherwise; returns the number of links."""
    if Path(out_path).suffix.lower() == ".xlsx":
        return export_p2p_xlsx(doc, out_path, plan, profile)
    return write_csv(out_path, P2P_HEADER, p2p_rows(doc, _plan(doc, plan, profile)))
