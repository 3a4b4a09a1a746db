"""The resilience table of the design report: the worst single switch and the worst single
cable failure, and whether any single failure partitions a workload.

Each row is the worst of a sweep (aicnet_gui/change/sweep.py: every failure of that kind,
one evaluation per structural class) over the document's workloads; the same numbers as
`aicnet whatif FILE --each KIND`.
"""

from __future__ import annotations

from ..change.sweep import sweep
from ..change.whatif import WhatIf, WhatIfResult
from ..model.document import FabricDocument
from .flow import Column, Flow

SWITCH_KINDS = ("leaf", "spine", "core")


def _allreduce(result: WhatIfResult) -> str:
    parts = []
    for w in result.workloads:
        before, after = w.before.allreduce_ms, w.after.allreduce_ms
        if before is None:
            continue
        parts.append(f"{before:.1f} -> {after:.1f} ms" if after is not None else f"{before:.1f} -> -")
    return "; ".join(parts) or "-"


def resilience_rows(doc: FabricDocument) -> tuple[list[list[str]], bool]:
    """(table rows, does any single failure partition a workload); no rows without workloads."""
    if not doc.workloads or not doc.links:
        return [], False
    engine = WhatIf(doc)
    kinds = [k for k in SWITCH_KINDS if any(doc.role_of(d).value == k for d in doc.devices.values())]
    rows: list[list[str]] = []
    partition = False
    for kind in [*kinds, "cable"]:
        result = sweep(doc, kind, engine=engine)
        worst = result.worst
        if worst is None:
            continue
        partition |= any(e.result.partitioned for e in result.entries)
        rows.append([
            f"single {kind}", str(len(result.entries)), worst.failure.label,
            "yes" if worst.partitioned else "no", str(worst.gpus_lost), str(worst.gpus_reduced),
            f"{worst.worst_drop * 100:.1f} %", _allreduce(worst),
        ])
    return rows, partition


def draw_resilience(flow: Flow, doc: FabricDocument) -> None:
    flow.heading("Resilience (single failures)", 2)
    rows, partition = resilience_rows(doc)
    if not rows:
        flow.para("No workload is defined: a failure's impact is measured on workloads.", size=8.5)
        return
    flow.para("Every single switch and every single cable was failed in turn and every workload "
              "measured again; the worst failure of each kind is shown. GPUs cut off lose all "
              "their paths through the fabric; the bandwidth drop is the largest fall of a "
              "workload's per-GPU bandwidth.", size=8.5)
    flow.table([Column("Failure", 0.1), Column("Count", 0.07, "right"), Column("Worst", 0.13),
                Column("Partition", 0.09), Column("GPUs cut off", 0.1, "right"),
                Column("GPUs slower", 0.1, "right"), Column("Bandwidth drop", 0.11, "right"),
                Column("All-reduce", 0.3)], rows, size=7.5)
    flow.para("A single failure partitions a workload: " + ("YES" if partition else "no") + ".",
              size=8.5, bold=partition)
