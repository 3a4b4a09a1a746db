"""The re-work list: the differences as installers act on them, rack by rack, with the cable
numbers and label identifiers printed on the cabling plan (`report.build_plan`), and its text,
JSON and CSV forms.

A difference about planned links is filed under the rack of its first link's A end (the rack
whose schedule lists the cable); one without planned links (an unexpected cable, an unknown
host) under the rack of the first design device it touches.  Within a rack: schedule order.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..model.document import FabricDocument
from ..report.cables import CablePlan, build_plan
from ..report.csv_exports import write_csv
from .differences import KIND_TITLES, Comparison, Difference

CSV_HEADER: tuple[str, ...] = (
    "Rack", "Kind", "Cables", "Labels", "Links", "Difference", "Action", "Observed", "Source",
)
NO_RACK = "(no rack)"


@dataclass(frozen=True)
class ReworkItem:
    rack: str
    kind: str
    cables: tuple[str, ...]
    labels: tuple[str, ...]
    diff: Difference
    order: tuple

    @property
    def title(self) -> str:
        return KIND_TITLES.get(self.kind, self.kind)

    def to_json(self) -> dict[str, Any]:
        data = self.diff.to_json()
        data.update(rack=self.rack, title=self.title, cables=list(self.cables),
                    labels=list(self.labels))
        return data

    def csv_row(self) -> list[str]:
        d = self.diff
        return [self.rack, self.kind, " ".join(self.cables), " ".join(self.labels),
                " ".join(d.links), d.message, d.action, " ".join(d.observed), d.where]


def rework_list(doc: FabricDocument, comparison: Comparison,
                plan: CablePlan | None = None) -> list[ReworkItem]:
    """The differences ordered by rack (as the cable schedule) and schedule position."""
    if not comparison.differences:
        return []
    plan = plan if plan is not None else build_plan(doc)
    rows = {row.link_id: (index, row) for index, row in enumerate(plan.rows)}
    rack_rank = {s.rack_id: i for i, s in enumerate(plan.sections)}
    racks = doc.racks
    items = []
    for diff in comparison.differences:
        found = [rows[link_id] for link_id in diff.links if link_id in rows]
        if found:
            index, first = min(found, key=lambda item: item[0])
            rack_id = first.a.dev.rack_id
            rack = first.a.dev.rack or NO_RACK
            cables = tuple(dict.fromkeys(row.number for _, row in sorted(found,
                                                                         key=lambda f: f[0])))
            labels = tuple(dict.fromkeys(row.cable_id for _, row in sorted(found,
                                                                           key=lambda f: f[0])))
        else:
            index, cables, labels = len(rows), (), ()
            device = doc.devices.get(diff.devices[0]) if diff.devices else None
            rack_id = device.rack if device is not None and device.rack in racks else ""
            rack = racks[rack_id].name if rack_id else NO_RACK
        order = (rack_rank.get(rack_id, len(rack_rank)), rack, index, diff.kind)
        items.append(ReworkItem(rack, diff.kind, cables, labels, diff, order))
    items.sort(key=lambda item: item.order)
    return items


def summary(comparison: Comparison, observed: str) -> dict[str, Any]:
    return {"observed": observed, "planned_links_checked": comparison.checked,
            "matched": comparison.matched, "unchecked": comparison.unchecked,
            "differences": len(comparison.differences), "by_kind": comparison.counts(),
            "notes": comparison.notes}


def to_json(comparison: Comparison, items: list[ReworkItem], observed: str) -> dict[str, Any]:
    return {"summary": summary(comparison, observed), "rework": [i.to_json() for i in items]}


def render_text(comparison: Comparison, items: list[ReworkItem], source: str,
                observed: str) -> str:
    c = comparison
    head = (f"{source} vs {observed}: {c.checked} planned links checked, {c.matched} as planned, "
            f"{len(c.differences)} difference{'s' if len(c.differences) != 1 else ''}")
    lines = [head]
    lines.extend(f"  note: {note}" for note in c.notes)
    if not items:
        lines.append("As built = as designed.")
        return "\n".join(lines)
    counts = ", ".join(f"{n} {KIND_TITLES.get(k, k)}" for k, n in sorted(c.counts().items()))
    lines.append(f"  {counts}")
    rack = None
    for item in items:
        if item.rack != rack:
            rack = item.rack
            lines.append("")
            lines.append(f"Rack {rack}" if rack != NO_RACK else "Devices in no rack")
        cable = ", ".join(item.cables) or "-"
        lines.append(f"  [{item.kind}] {cable}: {item.diff.message}")
        if item.labels:
            lines.append(f"      labels: {'; '.join(item.labels)}")
        lines.append(f"      -> {item.diff.action}")
    return "\n".join(lines)


def write_csv_list(items: list[ReworkItem], path: str | os.PathLike[str]) -> int:
    return write_csv(path, CSV_HEADER, (item.csv_row() for item in items), bom=True)
