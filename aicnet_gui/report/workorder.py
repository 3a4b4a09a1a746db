"""The MACD work order of a revision diff (`aicnet diff OLD NEW --pdf OUT`).

One section per rack, in the order an installer works: **remove** (cables pulled, devices taken
out), **move** (devices to another rack or RU, cable ends re-terminated on another port; both
listed in the rack they leave),
**change** (optics swapped, breakout modes, model swaps, firmware, cable ends that stay in
their cage on a swapped model's renamed port), **add** (devices racked,
new cables with their cable numbers).  Port identifiers are those of the printed cable plan
(identifiers.py): old places from the old revision, new places from the new one.  Label sheets
follow, for the new, the re-terminated and the renamed-port cables only (their labels changed); the
numbers are the new revision's cable plan numbers, so they match its schedule.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..change.diff import FabricDiff
from ..fileio.atomic import atomic_output
from ..model.document import FabricDocument
from ..model.fabric import Device, Link
from ..model.rack_units import position, ru_text
from .cables import CablePlan, build_plan
from .fonts import fonts
from .identifiers import Identifiers
from .label_layout import LabelStock
from .options import ExportOptions
from .pdfpage import DocInfo, PdfWriter
from .text_flow import Column, Flow

NO_RACK = "(no rack)"
ACTIONS = ("remove", "move", "change", "add")


@dataclass
class Step:
    what: str  # "cable", "device", "optic", ...
    item: str  # cable number / device name
    where: str  # from (remove, move) or place (change, add)
    to: str = ""
    note: str = ""


@dataclass
class RackOrder:
    rack: str
    steps: dict[str, list[Step]] = field(default_factory=lambda: {a: [] for a in ACTIONS})

    @property
    def count(self) -> int:
        return sum(len(s) for s in self.steps.values())


@dataclass
class WorkOrder:
    racks: list[RackOrder]
    plan: CablePlan  # the new revision's cable plan
    label_links: set[str]  # new-revision link ids whose labels are printed

    @property
    def labels(self) -> list:
        return [end for end in self.plan.labels if end.row.link_id in self.label_links]


def _rack_name(doc: FabricDocument, device: Device | None) -> str:
    if device is None or not device.rack or device.rack not in doc.racks:
        return NO_RACK
    return doc.racks[device.rack].name


def _place(doc: FabricDocument, device: Device) -> str:
    rack = _rack_name(doc, device)
    return f"{rack} {ru_text(position(device))}" if device.ru is not None else rack


def _lower_end(doc: FabricDocument, link: Link) -> str:
    """The device of the end an installer starts from (lower tier first), as the plan does."""
    a, b = link.a.device, link.b.device
    return b if doc.tier_of(b) < doc.tier_of(a) else a


def _cable_text(doc: FabricDocument, ids: Identifiers, link: Link) -> str:
    return ids.cable_id(ids.port_id(link.a.device, link.a.port), ids.port_id(link.b.device, link.b.port))


def build_work_order(diff: FabricDiff, plan: CablePlan | None = None) -> WorkOrder:
    old, new = diff.old, diff.new
    old_ids, new_ids = Identifiers(old), Identifiers(new)
    plan = plan or build_plan(new)
    number = {row.link_id: row.number for row in plan.rows}
    racks: dict[str, RackOrder] = {}

    def order(rack: str) -> RackOrder:
        if rack not in racks:
            racks[rack] = RackOrder(rack)
        return racks[rack]

    for link in diff.links_removed:
        rack = _rack_name(old, old.devices[_lower_end(old, link)])
        order(rack).steps["remove"].append(Step("cable", link.id, _cable_text(old, old_ids, link),
                                                note=link.cable or ""))
    for device in diff.devices_removed:
        order(_rack_name(old, device)).steps["remove"].append(
            Step("device", device.name, _place(old, device), note=device.model))
    _moves(diff, order, number, (old_ids, new_ids))
    _changes(diff, order)
    for device in diff.devices_added:
        order(_rack_name(new, device)).steps["add"].append(
            Step("device", device.name, _place(new, device), note=device.model))
    for link in diff.links_added:
        rack = _rack_name(new, new.devices[_lower_end(new, link)])
        order(rack).steps["add"].append(Step("cable", number.get(link.id, link.id),
                                             _cable_text(new, new_ids, link), note=link.cable or ""))
    ordered = sorted(racks.values(), key=lambda r: (r.rack == NO_RACK, r.rack))
    label_links = {lk.id for lk in diff.links_added} | {
        r.new.id for r in diff.links_reterminated + diff.ports_renamed}
    return WorkOrder(ordered, plan, label_links)


def _moves(diff: FabricDiff, order: Callable[[str], RackOrder], number: dict[str, str],
           ids: tuple[Identifiers, Identifiers]) -> None:
    """The devices that move (listed in the rack they leave) and the cable ends re-terminated
    (listed where the end is unplugged); `ids`: the old and the new design's identifiers."""
    old, new = diff.old, diff.new
    old_ids, new_ids = ids
    old_of = {new_id: old_id for old_id, new_id in diff.device_map.items()}
    for move in diff.devices_moved:
        before = old.devices[old_of[move.device]]
        after = new.devices[move.device]
        order(_rack_name(old, before)).steps["move"].append(
            Step("device", move.name, _place(old, before), _place(new, after)))
    for ret in diff.links_reterminated:
        for old_end, new_end in ret.moved:  # listed where the end is unplugged
            rack = _rack_name(old, old.devices.get(old_end.device))
            order(rack).steps["move"].append(Step(
                "cable end", number.get(ret.new.id, ret.new.id),
                old_ids.port_id(old_end.device, old_end.port),
                new_ids.port_id(new_end.device, new_end.port), note="re-label"))
    for ret in diff.ports_renamed:  # the cable stays in its cage: only its label changes
        for old_end, new_end in ret.moved:
            rack = _rack_name(new, new.devices.get(new_end.device))
            order(rack).steps["change"].append(Step(
                "cable end", number.get(ret.new.id, ret.new.id),
                new_ids.port_id(new_end.device, new_end.port),
                note=f"same cage, port renamed from {old_end.port}: re-label"))


def _changes(diff: FabricDiff, order: Callable[[str], RackOrder]) -> None:
    """The cages that get another optic or breakout, and the devices' other changed fields
    (a rename is no step: the labels say it)."""
    new = diff.new
    for cage in diff.cage_changes:
        device = new.devices[cage.device]
        parts = []
        if cage.optic_before != cage.optic_after:
            parts.append(f"optic {cage.optic_before or 'none'} -> {cage.optic_after or 'none'}")
        if cage.mode_before != cage.mode_after:
            parts.append(f"breakout {cage.mode_before} -> {cage.mode_after}")
        order(_rack_name(new, device)).steps["change"].append(
            Step("cage", f"{device.name} cage {cage.cage}", _place(new, device), note="; ".join(parts)))
    for change in diff.device_changes:
        if change.field == "name":
            continue
        device = new.devices[change.what]
        order(_rack_name(new, device)).steps["change"].append(Step(
            change.field, device.name, _place(new, device),
            note=f"{change.before or '-'} -> {change.after or '-'}"))


def _summary_rows(diff: FabricDiff) -> list[list[str]]:
    counts = diff.counts()
    return [[key.replace("_", " "), str(value)] for key, value in counts.items()]


def _bom_rows(diff: FabricDiff) -> list[list[str]]:
    if diff.bom is None:
        return []
    return [[line.section, line.part, str(line.before), str(line.after), f"{line.delta:+d}"]
            for line in diff.bom.lines]


def write_work_order(diff: FabricDiff, out_path: str | os.PathLike[str],
                     options: ExportOptions | None = None,
                     check: Callable[[], None] | None = None) -> int:
    """Write the work order PDF (atomically); returns the number of pages."""
    from .labels import LabelSheets

    options = options or ExportOptions()
    work = build_work_order(diff)
    new = diff.new
    generated = (options.generated or datetime.now(UTC)).strftime("%Y-%m-%d")
    info = DocInfo(new.metadata.name, f"{diff.old.metadata.revision} -> {new.metadata.revision}",
                   new.metadata.author, generated, work.plan.profile)
    target = Path(out_path)
    size = options.page_size
    with atomic_output(target) as handle:  # the old file, or none, until it is whole
        writer = PdfWriter(handle, info, fonts())
        flow = Flow(writer, "Work order", size, check).start()
        writer.bookmark("Work order", 0)
        flow.heading("MACD work order", 1)
        flow.para(f"From revision {diff.old.metadata.revision} to {new.metadata.revision} of "
                  f"{new.metadata.name}. Per rack: remove, then move, then change, then add. "
                  "Cable numbers of new and re-terminated cables are those of the new "
                  "revision's cable schedule; their labels follow.", size=9)
        flow.table([Column("Change", 0.7), Column("Count", 0.3, "right")], _summary_rows(diff))
        if diff.empty:
            flow.para("The two revisions are the same: nothing to do.", size=10, bold=True)
        for rack in work.racks:
            flow.heading(f"Rack {rack.rack}" if rack.rack != NO_RACK else "Devices in no rack",
                         2, bookmark=True)
            for action in ACTIONS:
                steps = rack.steps[action]
                if not steps:
                    continue
                flow.heading(f"{action.capitalize()} ({len(steps)})", 3)
                from_title = {"remove": "Where", "move": "From", "change": "Where",
                              "add": "Where"}[action]
                if action == "move":
                    columns = [Column("#", 24, "right"), Column("What", 52), Column("Item", 0.16),
                               Column(from_title, 0.32), Column("To", 0.32), Column("Note", 0.2)]
                    rows = [[str(i), s.what, s.item, s.where, s.to, s.note]
                            for i, s in enumerate(steps, 1)]
                else:
                    columns = [Column("#", 24, "right"), Column("What", 52), Column("Item", 0.2),
                               Column(from_title, 0.45), Column("Note", 0.35)]
                    rows = [[str(i), s.what, s.item, s.where, s.note]
                            for i, s in enumerate(steps, 1)]
                flow.table(columns, rows, size=7)
        if diff.settings:
            flow.heading("Settings", 2)
            flow.table([Column("Setting", 0.4), Column("Before", 0.3), Column("After", 0.3)],
                       [[c.field, str(c.before), str(c.after)] for c in diff.settings], size=7.5)
        bom = _bom_rows(diff)
        if bom:
            flow.heading("Bill of materials delta", 2)
            flow.table([Column("Section", 0.15), Column("Part", 0.45), Column("Before", 0.13, "right"),
                        Column("After", 0.13, "right"), Column("Delta", 0.14, "right")], bom, size=7.5)
        flow.close()
        stock: LabelStock | None = options.label_stock()
        labels = work.labels
        if stock is not None and labels:
            LabelSheets(writer, stock, options.label_start, options.label_offset_mm,
                        options.label_qr).draw(labels)
        writer.finish()
    return writer.pages


__all__ = ["RackOrder", "Step", "WorkOrder", "build_work_order", "write_work_order"]
