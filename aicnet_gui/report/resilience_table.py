"""The resilience table of the design report: the worst single switch and the worst single
cable failure, and whether any single failure partitions a workload.

Each row is the worst of a sweep (aicnet_gui/change/sweep.py: every failure of that kind,
one evaluation per structural class) over the document's workloads; the same numbers as
`aicnet whatif FILE --each KIND`.

The cable row counts *physical* cables, as the schedule and the BOM do: the sweep fails each
cable whole (a twin-port AOC or DAC or a splitter takes all its links down).  With the cable
plan, the worst cable is named by its cable number (`C000123`), which the schedule and the
labels print, not by an internal link id.
"""

from __future__ import annotations

from ..change.failures import Failure
from ..change.sweep import sweep
from ..change.whatif import WhatIf, WhatIfResult
from ..model.document import FabricDocument
from .cables import CablePlan
from .text_flow import Column, Flow

SWITCH_KINDS = ("leaf", "spine", "core")


def _allreduce(result: WhatIfResult) -> str:
    parts = []
    for w in result.workloads:
        before, after = w.before.allreduce_ms, w.after.allreduce_ms
        if before is None:
            continue
        parts.append(f"{before:.1f} -> {after:.1f} ms" if after is not None else f"{before:.1f} -> -")
    return "; ".join(parts) or "-"


def _bisection(result: WhatIfResult) -> str:
    """Per workload the max-flow bisection before -> after on its worst cut, naming the cut
    when the failure made it the cross-rail one (the rail-aligned cut of one SU does not see a
    lost spine)."""
    parts = []
    for w in result.workloads:
        before, after = w.before.bisection_gbps / 1000, w.after.bisection_gbps / 1000
        cut = w.after.worst_cut if after < before else w.before.worst_cut
        parts.append(f"{before:g} -> {after:g} Tb/s ({cut})")
    return "; ".join(parts) or "-"


def _cable_row(doc: FabricDocument, engine: WhatIf,
               plan: CablePlan | None) -> tuple[list[str] | None, bool]:
    """The cable row: every physical cable failed whole (the sweep's), named by its cable
    number when the plan is given."""
    entries = [e.result for e in sweep(doc, "cable", engine=engine).entries]
    if not entries:
        return None, False
    if plan is not None:
        number_of = {row.link_id: row.number for row in plan.rows}
        entries = [_numbered(r, number_of) for r in entries]
    worst = max(entries, key=lambda r: r.impact_key())
    return _row("single cable", len(entries), worst), any(r.partitioned for r in entries)


def _numbered(result: WhatIfResult, number_of: dict[str, str]) -> WhatIfResult:
    number = next((number_of[i] for i in sorted(result.failure.links) if i in number_of), None)
    if number is None:
        return result
    return WhatIfResult(Failure(number, result.failure.links), result.links, result.workloads,
                        result.like)


def _row(name: str, count: int, worst: WhatIfResult) -> list[str]:
    return [
        name, str(count), worst.failure.label,
        "yes" if worst.partitioned else "no", str(worst.gpus_lost), str(worst.gpus_reduced),
        f"{worst.worst_drop * 100:.1f} %", _bisection(worst), _allreduce(worst),
    ]


def resilience_rows(doc: FabricDocument,
                    plan: CablePlan | None = None) -> tuple[list[list[str]], bool]:
    """(table rows, does any single failure partition a workload); no rows without workloads.

    With `plan` the cable row names its worst cable by its cable number."""
    if not doc.workloads or not doc.links:
        return [], False
    engine = WhatIf(doc)
    kinds = [k for k in SWITCH_KINDS if any(doc.role_of(d).value == k for d in doc.devices.values())]
    rows: list[list[str]] = []
    partition = False
    for kind in kinds:
        result = sweep(doc, kind, engine=engine)
        worst = result.worst
        if worst is None:
            continue
        partition |= any(e.result.partitioned for e in result.entries)
        rows.append(_row(f"single {kind}", len(result.entries), worst))
    cable, cut = _cable_row(doc, engine, plan)
    if cable is not None:
        rows.append(cable)
        partition |= cut
    return rows, partition


def draw_resilience(flow: Flow, doc: FabricDocument, plan: CablePlan | None = None) -> None:
    flow.heading("Resilience (single failures)", 2)
    rows, partition = resilience_rows(doc, plan)
    if not rows:
        flow.para("No workload is defined: a failure's impact is measured on workloads.", size=8.5)
        return
    cables = "every physical cable (a twin-port or splitter cable with all its links)"
    flow.para(f"Every single switch and {cables} was failed in turn and every workload "
              "measured again; the worst failure of each kind is shown. GPUs cut off lose all "
              "their paths through the fabric; the bandwidth drop is the largest fall of a "
              "workload's per-GPU bandwidth (rail-aligned traffic). The bisection is the max-flow "
              "across the worst of two cuts of the workload's GPUs: the servers in halves "
              "(rail-aligned) and every server's GPUs in halves by rail (cross-rail, where all "
              "traffic crosses the spines).", size=8.5)
    flow.table([Column("Failure", 0.1), Column("Count", 0.07, "right"), Column("Worst", 0.13),
                Column("Partition", 0.09), Column("GPUs cut off", 0.1, "right"),
                Column("GPUs slower", 0.09, "right"), Column("Bandwidth drop", 0.1, "right"),
                Column("Bisection (worst cut)", 0.17), Column("All-reduce", 0.15)], rows, size=7.5)
    flow.para("A single failure partitions a workload: " + ("YES" if partition else "no") + ".",
              size=8.5, bold=partition)
