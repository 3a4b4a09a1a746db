"""`aicnet whatif FILE --fail ID... [--each leaf|spine|core|cable] [--exact] [--top N] [--json]`:
what failed devices, cables, optics or a rail do to every workload (aicnet_gui/change/whatif.py).

--fail takes a device id or name, a link id, optic:DEVICE:CAGE, rail:N or plane:NAME, and may be
repeated (all fail together).  --each runs every single failure of one kind and ranks them worst
first; identical failures of one structural class are evaluated once unless --exact.  The
design file is never changed.  Exit 0, 2 on bad input.
"""

from __future__ import annotations

import argparse

from ...change.failures import FailureError, resolve
from ...change.sweep import KINDS, Sweep, sweep
from ...change.whatif import WhatIf, WhatIfResult
from ..common import EXIT_OK, CliError, open_document, print_json


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("whatif", help="failure what-if: blast radius of failed parts, sweeps",
                            description="What failed devices, cables, optics or rails do to "
                                        "every workload; --each ranks single failures.")
    parser.add_argument("file", help="a .fabric file")
    parser.add_argument("--fail", action="append", default=[], metavar="ID",
                        help="device, link, optic:DEVICE:CAGE, rail:N or plane:NAME (repeatable)")
    parser.add_argument("--each", choices=KINDS, help="every single failure of this kind, ranked")
    parser.add_argument("--exact", action="store_true",
                        help="with --each: evaluate every failure (no structural classes)")
    parser.add_argument("--top", type=int, default=10, metavar="N",
                        help="with --each: show the N worst (default 10; 0 for all)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def _gbps(value: float) -> str:
    return f"{value:g}"


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
        lines.append(f"    bisection (max-flow): {b.bisection_gbps / 1000:g} -> "
                     f"{a.bisection_gbps / 1000:g} Tb/s")
        before_ms = "-" if b.allreduce_ms is None else f"{b.allreduce_ms:g} ms"
        after_ms = "-" if a.allreduce_ms is None else f"{a.allreduce_ms:g} ms"
        lines.append(f"    all-reduce estimate: {before_ms} -> {after_ms}")
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


def run(args: argparse.Namespace) -> int:
    if not args.fail and not args.each:
        raise CliError("whatif needs --fail ID (repeatable) or --each leaf|spine|core|cable")
    if args.fail and args.each:
        raise CliError("--fail and --each are separate questions: give one of them")
    doc = open_document(args.file)
    if args.each:
        result = sweep(doc, args.each, exact=args.exact)
        if args.json:
            print_json(result.to_json(None if args.top <= 0 else args.top))
        else:
            print("\n".join(render_sweep(result, args.top)))
        return EXIT_OK
    try:
        failure = resolve(doc, args.fail)
    except FailureError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    outcome = WhatIf(doc).run(failure)
    if args.json:
        print_json(outcome.to_json())
    else:
        print("\n".join(render_result(outcome)))
    return EXIT_OK
