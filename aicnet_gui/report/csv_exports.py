"""CSV exports of the cable plan: the schedule, label data for label printers, the NVIDIA P2P sheet.

* `export_csv`: the cable schedule, one row per link, with the PDF schedule's columns spelled
  out (cabling.md §2.3), in schedule order.  UTF-8 with a byte-order mark so that spreadsheet
  programs read non-ASCII names right.
* `export_labels_csv`: one row per label (cable end) for Brother P-touch Editor, Brady Workstation
  and Dymo database merges (cabling.md §3.4, §7.8): cable number, this end, far end(s), the
  near/far label text, colour, media, length, the QR payload, and the rail and plane of the
  cable (blank when the legs of a splitter differ).  UTF-8 with BOM.
* `export_p2p`: the NVIDIA UFM Cable Validation Tool P2P sheet with the columns
  `A-Node Name, A-Type, A-Port, Z-Node Name, Z-Type, Z-Port, Rack, U` (types Host / Switch;
  Rack and U are the A end's).  Plain UTF-8.

Every function takes the document (or a prebuilt `CablePlan`) and returns the rows written.

Cells are data, never formulas: a text cell that starts with `=`, `+`, `-`, `@`, a tab or a
carriage return gets a leading `'` (OWASP, "CSV Injection"), so a device named
`=HYPERLINK(...)` shows as that text in a spreadsheet instead of running.  Every CSV aicnet
writes (these and the NetBox files) goes through `write_csv`, which does this and writes the
file atomically (fileio/atomic.py: an exclusive temp file beside the target, removed on any
failure).
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
from .cables import CablePlan, CableRow, End, LabelEnd, build_plan

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
P2P_HEADER: tuple[str, ...] = (
    "A-Node Name", "A-Type", "A-Port", "Z-Node Name", "Z-Type", "Z-Port", "Rack", "U",
)


#: a text cell starting with one of these is a formula to a spreadsheet (OWASP CSV injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralised(value: object) -> object:
    """A cell value as data: `None` -> empty, text that a spreadsheet would run as a formula
    -> the same text after a `'`; numbers and other text unchanged."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


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
                writer.writerow([neutralised(v) for v in row])
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


def _node_type(end: End) -> str:
    return "Host" if end.dev.tier == 0 else "Switch"


def export_p2p(doc: FabricDocument, out_path: str | os.PathLike[str],
               plan: CablePlan | None = None, profile: str | None = None) -> int:
    """The NVIDIA Cable Validation Tool point-to-point sheet; returns the number of links."""
    plan = _plan(doc, plan, profile)
    rows = (
        [r.a.device, _node_type(r.a), r.a.port, r.b.device, _node_type(r.b), r.b.port,
         r.a.rack, r.a.dev.ru if r.a.dev.ru is not None else ""]
        for r in plan.rows
    )
    return write_csv(out_path, P2P_HEADER, rows)
