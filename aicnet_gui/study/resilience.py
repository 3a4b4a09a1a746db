"""The worst single-switch failure of a candidate, as `aicnet whatif FILE --each leaf|spine|core`
ranks them (change/sweep.py): every switch of each tier failed alone, one evaluation per
structural class (identical switches in identical places fail alike), worst first by the
what-if's own impact order (a partition, then GPUs cut off, then bandwidth lost ...).

The sweep is exact for every failure, big designs included: the classes are not a sample but
the failures the fabric's symmetry makes identical; the result says how many failures fell
into how many classes.
"""

from __future__ import annotations

from collections.abc import Callable

from ..change.sweep import sweep
from ..change.whatif import WhatIf, WhatIfResult
from ..model.document import FabricDocument
from .candidate import FailureResult

SWITCH_KINDS = ("leaf", "spine", "core")


def worst_switch_failure(doc: FabricDocument, primary: str | None,
                         checkpoint: Callable[[], None] = lambda: None) -> FailureResult | None:
    """The worst failure of one switch over the leaf, spine and core tiers; None for a design
    without switches.  `checkpoint` is called between tiers (a cancelled study stops there)."""
    engine = WhatIf(doc)
    worst: tuple[tuple, str, WhatIfResult] | None = None
    failures = classes = 0
    for kind in SWITCH_KINDS:
        checkpoint()
        ranked = sweep(doc, kind, engine=engine)
        if not ranked.entries:
            continue
        failures += len(ranked.entries)
        classes += ranked.classes
        result = ranked.entries[0].result
        key = result.impact_key()
        if worst is None or key > worst[0]:
            worst = (key, kind, result)
    if worst is None:
        return None
    _key, kind, result = worst
    impact = next((w for w in result.workloads if w.id == primary), None)
    return FailureResult(
        kind=kind, failed=result.failure.label, links_down=result.links,
        partitioned=result.partitioned, gpus_lost=result.gpus_lost,
        gpus_reduced=result.gpus_reduced, worst_drop=round(result.worst_drop, 4),
        allreduce_before_ms=impact.before.allreduce_ms if impact else None,
        allreduce_after_ms=impact.after.allreduce_ms if impact else None,
        evaluated=f"{failures} single-switch failures in {classes} structural classes, each "
                  "class evaluated once (aicnet whatif --each)")
