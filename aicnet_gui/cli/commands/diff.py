"""`aicnet diff OLD.fabric NEW.fabric [--json] [--pdf OUT]`: what changed between two revisions.

Matching is semantic (ids first, then endpoints; see aicnet_gui/change/diff.py): devices added,
removed, moved (rack, RU); cables added, removed, re-terminated; optics and breakout changes;
settings; the BOM delta.  --pdf writes the MACD work order for the installers (per rack: remove,
move, change, add; labels for the new and re-terminated cables).  Exit 0 (also when the designs
differ), 2 on bad input.
"""

from __future__ import annotations

import argparse

from ...change.diff import FabricDiff, diff_documents
from ..common import EXIT_OK, CliError, open_document, print_json


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("diff", help="what changed between two revisions (and a work order)",
                            description="Semantic difference between two .fabric revisions.")
    parser.add_argument("old", help="the earlier .fabric file")
    parser.add_argument("new", help="the later .fabric file")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--pdf", metavar="OUT.pdf", help="write the MACD work order PDF")
    parser.add_argument("--paper", choices=["a4", "letter"], default="a4")
    parser.set_defaults(func=run)


def _ports(ends: tuple) -> str:
    return ", ".join(f"{a.device}:{a.port} -> {b.device}:{b.port}" for a, b in ends)


def render(diff: FabricDiff, old: str, new: str) -> str:
    lines = [f"Diff: {old} -> {new}"]
    if diff.empty:
        lines.append("  no changes")
        return "\n".join(lines)
    for device in diff.devices_removed:
        lines.append(f"  - device {device.name} ({device.model})")
    for device in diff.devices_added:
        lines.append(f"  + device {device.name} ({device.model}) rack {device.rack} U{device.ru}")
    for move in diff.devices_moved:
        lines.append(f"  > device {move.name}: {move.rack_before} U{move.ru_before} -> "
                     f"{move.rack_after} U{move.ru_after}")
    for change in diff.device_changes:
        lines.append(f"  ~ device {change.what} {change.field}: {change.before} -> {change.after}")
    for cage in diff.cage_changes:
        what = []
        if cage.optic_before != cage.optic_after:
            what.append(f"optic {cage.optic_before} -> {cage.optic_after}")
        if cage.mode_before != cage.mode_after:
            what.append(f"breakout {cage.mode_before} -> {cage.mode_after}")
        lines.append(f"  ~ {cage.name} cage {cage.cage}: {'; '.join(what)}")
    for link in diff.links_removed:
        lines.append(f"  - cable {link.id} {link.a.device}:{link.a.port} - {link.b.device}:{link.b.port}")
    for link in diff.links_added:
        lines.append(f"  + cable {link.id} {link.a.device}:{link.a.port} - {link.b.device}:{link.b.port}")
    for ret in diff.links_reterminated:
        lines.append(f"  > cable {ret.new.id} re-terminated: {_ports(ret.moved)}")
    for change in diff.link_changes:
        lines.append(f"  ~ cable {change.what} {change.field}: {change.before} -> {change.after}")
    for rack in diff.racks_removed:
        lines.append(f"  - rack {rack.name}")
    for rack in diff.racks_added:
        lines.append(f"  + rack {rack.name}")
    for change in diff.rack_changes + diff.workload_changes:
        lines.append(f"  ~ {change.what} {change.field}: {change.before} -> {change.after}")
    for workload in diff.workloads_removed:
        lines.append(f"  - workload {workload.name}")
    for workload in diff.workloads_added:
        lines.append(f"  + workload {workload.name}")
    for change in diff.settings:
        lines.append(f"  ~ setting {change.field}: {change.before} -> {change.after}")
    if diff.bom is not None and not diff.bom.empty:
        lines.append("BOM delta")
        for line in diff.bom.lines:
            lines.append(f"  {line.section:<12} {line.part:<40} {line.before:>6} -> {line.after:<6}"
                         f" ({line.delta:+d})")
        lines.append(f"  power {diff.bom.power_delta_w:+.1f} W")
    counts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in diff.counts().items() if v)
    lines.append(f"Summary: {counts}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    old = open_document(args.old)
    new = open_document(args.new)
    diff = diff_documents(old, new)
    if args.pdf:
        from ...report.options import ExportOptions
        from ...report.workorder import write_work_order

        try:
            pages = write_work_order(diff, args.pdf, ExportOptions(paper=args.paper))
        except OSError as exc:
            raise CliError(f"cannot write {args.pdf}: {exc.strerror or exc}") from None
    if args.json:
        print_json(diff.to_json())
    else:
        print(render(diff, args.old, args.new))
        if args.pdf:
            print(f"wrote {args.pdf} ({pages} pages)")
    return EXIT_OK
