"""Plain-text renderings of a revision diff and of failure what-ifs, shared by the command line
(`aicnet diff`, `aicnet whatif`) and the editor's Compare With... and What-If windows."""

from __future__ import annotations

from typing import Any

from ..model.rack_units import ru_text
from .diff import CageChange, FabricDiff, FieldChange
from .sweep import Sweep
from .whatif import WhatIfResult, WorkloadState


def _cable(link: Any) -> str:
    return f"cable {link.id} {link.a.device}:{link.a.port} - {link.b.device}:{link.b.port}"


def _ports(ends: tuple) -> str:
    return ", ".join(f"{a.device}:{a.port} -> {b.device}:{b.port}" for a, b in ends)


def render_diff(diff: FabricDiff, old: str, new: str) -> str:
    lines = [f"Diff: {old} -> {new}"]
    if diff.empty:
        lines.append("  no changes")
        return "\n".join(lines)
    lines += _device_lines(diff)
    lines += _cable_lines(diff)
    lines += [f"  - rack {rack.name}" for rack in diff.racks_removed]
    lines += [f"  + rack {rack.name}" for rack in diff.racks_added]
    lines += _changed("", diff.rack_changes + diff.workload_changes)
    lines += [f"  - workload {workload.name}" for workload in diff.workloads_removed]
    lines += [f"  + workload {workload.name}" for workload in diff.workloads_added]
    lines += [f"  ~ setting {change.field}: {change.before} -> {change.after}"
              for change in diff.settings]
    if diff.bom is not None and not diff.bom.empty:
        lines.append("BOM delta")
        lines += [f"  {line.section:<12} {line.part:<40} {line.before:>6} -> {line.after:<6}"
                  f" ({line.delta:+d})" for line in diff.bom.lines]
        lines.append(f"  power {diff.bom.power_delta_w:+.1f} W")
    counts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in diff.counts().items() if v)
    lines.append(f"Summary: {counts}")
    return "\n".join(lines)


def _changed(noun: str, changes: list[FieldChange]) -> list[str]:
    """`~ NOUN ID FIELD: BEFORE -> AFTER`, one line per changed field."""
    return [f"  ~ {noun}{change.what} {change.field}: {change.before} -> {change.after}"
            for change in changes]


def _device_lines(diff: FabricDiff) -> list[str]:
    lines = [f"  - device {device.name} ({device.model})" for device in diff.devices_removed]
    lines += [f"  + device {device.name} ({device.model}) rack {device.rack} {ru_text(device.ru)}"
              for device in diff.devices_added]
    lines += [f"  > device {move.name}: {move.rack_before} {ru_text(move.ru_before)} -> "
              f"{move.rack_after} {ru_text(move.ru_after)}" for move in diff.devices_moved]
    lines += _changed("device ", diff.device_changes)
    lines += [_cage_line(cage) for cage in diff.cage_changes]
    return lines


def _cage_line(cage: CageChange) -> str:
    what = []
    if cage.optic_before != cage.optic_after:
        what.append(f"optic {cage.optic_before} -> {cage.optic_after}")
    if cage.mode_before != cage.mode_after:
        what.append(f"breakout {cage.mode_before} -> {cage.mode_after}")
    return f"  ~ {cage.name} cage {cage.cage}: {'; '.join(what)}"


def _cable_lines(diff: FabricDiff) -> list[str]:
    lines = [f"  - {_cable(link)}" for link in diff.links_removed]
    lines += [f"  + {_cable(link)}" for link in diff.links_added]
    lines += [f"  > cable {ret.new.id} re-terminated: {_ports(ret.moved)}"
              for ret in diff.links_reterminated]
    lines += [f"  = cable {ret.new.id} stays, port renamed (same cage and leg): {_ports(ret.moved)}"
              for ret in diff.ports_renamed]
    lines += _changed("cable ", diff.link_changes)
    return lines


def _gbps(value: float) -> str:
    return f"{value:g}"


def _tbps(gbps: float | None) -> str:
    return "-" if gbps is None else f"{gbps / 1000:g}"


def bisection_lines(b: WorkloadState, a: WorkloadState) -> list[str]:
    """The max-flow bisection before -> after: the worst cut, and each cut beside it (the
    rail-aligned one alone hides a lost spine of one SU; the cross-rail one does not)."""
    worst = a.worst_cut if a.bisection_gbps < b.bisection_gbps else b.worst_cut
    lines = [f"    bisection (max-flow, worst cut: {worst}): {_tbps(b.bisection_gbps)} -> "
             f"{_tbps(a.bisection_gbps)} Tb/s"]
    lines.append(f"      rail-aligned (the servers in halves): {_tbps(b.rail_aligned_gbps)} -> "
                 f"{_tbps(a.rail_aligned_gbps)} Tb/s")
    if b.cross_rail_gbps is not None or a.cross_rail_gbps is not None:
        cut = a.cross_rail_cut or b.cross_rail_cut
        lines.append(f"      cross-rail ({cut}): {_tbps(b.cross_rail_gbps)} -> "
                     f"{_tbps(a.cross_rail_gbps)} Tb/s")
    return lines


def render_result(result: WhatIfResult, gpu_lines: int = 8) -> list[str]:
    lines = [f"Failed: {result.failure.label} ({result.links} link(s) down)"
             + (f" - same impact as {result.like}" if result.like else "")]
    for w in result.workloads:
        b, a = w.before, w.after
        lines.append(f"  workload {w.name} ({w.gpus} GPUs)"
                     + ("  PARTITIONED: its servers fall into "
                        f"{a.groups} groups" if w.partitioned else ""))
        lines.append(f"    GPUs that lose all paths: {len(w.lost)}")
        if not result.like:
            for g in w.lost[:gpu_lines]:
                lines.append(f"      {g.server} GPU {g.gpu} ({', '.join(g.ports)})")
            if len(w.lost) > gpu_lines:
                lines.append(f"      ... and {len(w.lost) - gpu_lines} more")
        lines.append(f"    GPUs with less bandwidth: {len(w.reduced)}")
        for before, after, n in w.reduced_summary()[:gpu_lines]:
            lines.append(f"      {n} GPU(s): {_gbps(before)} -> {_gbps(after)} Gb/s "
                         f"({after - before:+g})")
        lines.append(f"    per-GPU bandwidth ({w.id}): {_gbps(b.per_gpu_gbps)} -> "
                     f"{_gbps(a.per_gpu_gbps)} Gb/s; bottleneck {b.bottleneck} -> {a.bottleneck}")
        lines.extend(bisection_lines(b, a))
        before_ms = "-" if b.allreduce_ms is None else f"{b.allreduce_ms:g} ms"
        after_ms = "-" if a.allreduce_ms is None else f"{a.allreduce_ms:g} ms"
        who = "" if result.like else f", {a.slowest_server}"  # a copy: another failure's
        paced = (f" (at the pace of its slowest server{who}: {_gbps(a.slowest_gbps)} Gb/s per GPU)"
                 if a.slowest_server is not None and a.allreduce_ms is not None else "")
        lines.append(f"    all-reduce estimate: {before_ms} -> {after_ms}{paced}")
    if not result.workloads:
        lines.append("  the design has no workloads: nothing to measure (add one in the GUI)")
    return lines


def render_sweep(result: Sweep, top: int) -> list[str]:
    lines = [f"Every single {result.kind} failure: {len(result.entries)} "
             f"({result.classes} evaluated, the rest share a structural class), worst first",
             f"  any single {result.kind} failure partitions a workload: "
             f"{'YES' if any(e.result.partitioned for e in result.entries) else 'no'}",
             f"  {'failure':<24} {'links':>5} {'partition':>9} {'GPUs cut':>8} "
             f"{'GPUs slower':>11} {'worst bw drop':>13}"]
    chosen = result.entries if top <= 0 else result.entries[:top]
    for entry in chosen:
        r = entry.result
        lines.append(f"  {r.failure.label:<24} {r.links:>5} {('yes' if r.partitioned else 'no'):>9} "
                     f"{r.gpus_lost:>8} {r.gpus_reduced:>11} {r.worst_drop * 100:>12.1f}%")
    if top > 0 and len(result.entries) > top:
        lines.append(f"  ... {len(result.entries) - top} more (--top 0 for all)")
    if result.worst is not None:
        lines.append("")
        lines.append("Worst:")
        lines.extend(render_result(result.worst))
    return lines
