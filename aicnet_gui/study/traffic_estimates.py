"""Each workload's all-reduce on a candidate's fabric by load-balancing mode (the traffic model,
`aicnet_gui/traffic`), as collective estimates beside the analysis' fluid one.

The analysis spreads traffic evenly over equal paths; the traffic model routes NCCL's flows as
the switches do: static ECMP hashing (a mean over `SEEDS` draws) and the fabric's own setting
as its switches and NICs run it (adaptive routing, flowlets, spraying; `runs` says what ran).
An InfiniBand fabric with adaptive routing, a Spectrum-X one that sprays and a RoCEv2 one on
static ECMP then differ where the fabric, not the NICs, sets the pace (oversubscribed or
top-of-rack designs whose collectives cross the spines).  The same numbers come out of
`aicnet traffic FILE --seeds 5` on the candidate's file.
"""

from __future__ import annotations

from collections.abc import Callable

from ..analysis.load_balancing import NAMES
from ..model.document import FabricDocument
from .candidate import CollectiveEstimate

#: ECMP draws per candidate (the study compares many designs; `aicnet traffic` draws 20)
SEEDS = 5


def _modes(doc: FabricDocument) -> tuple[str, ...]:
    """Static ECMP, and the fabric's own mode when it is another (flowlets are modelled as
    adaptive routing, the least-loaded next hop, as `aicnet traffic` does)."""
    own = doc.settings.load_balancing
    return tuple(dict.fromkeys(("ecmp", "adaptive" if own == "flowlet" else own)))


def traffic_estimates(doc: FabricDocument, checkpoint: Callable[[], None]
                      ) -> dict[str, tuple[CollectiveEstimate, ...]]:
    """Per all-reduce workload, one estimate per load-balancing mode; {} when the design is
    past the traffic model's limits (its refusal, TooLarge)."""
    from ..traffic import TrafficModel, TrafficParams
    from ..traffic.flows import TooLarge

    def cancel() -> bool:
        checkpoint()  # raises when the study is cancelled
        return False

    out: dict[str, tuple[CollectiveEstimate, ...]] = {}
    try:
        model = TrafficModel(doc, TrafficParams(seeds=SEEDS))
        for wl_id in sorted(doc.workloads):
            result = model.workload(wl_id, _modes(doc), cancel=cancel)
            if result.collective != "allreduce":
                continue
            out[wl_id] = tuple(
                CollectiveEstimate(
                    f"traffic: {mode} ({', '.join(NAMES[m] for m in r.runs)}"
                    + (f", mean of {r.seeds} draws" if r.seeds > 1 else "") + ")",
                    None if r.time_ms is None else round(r.time_ms, 4), round(r.busbw_gbps, 4))
                for mode, r in result.modes.items())
    except TooLarge:
        return {}
    return out


def by_mode_line(c) -> str | None:  # noqa: ANN001 - a built Candidate
    """`name: ecmp 11.56 ms, adaptive 7.42 ms (the analysis: 7.42 ms)` for the primary
    workload, when a mode's time differs from another's or from the analysis' (whose even
    spread over equal paths the table's all-reduce column shows)."""
    m = c.metrics
    primary = next((w for w in m.workloads if w.id == m.primary), None) if m else None
    if primary is None or primary.allreduce_ms is None:
        return None
    modes = [(e.model.split(" ")[1], e.allreduce_ms) for e in primary.estimates
             if e.model.startswith("traffic: ") and e.allreduce_ms is not None]
    times = [t for _m, t in modes] + [primary.allreduce_ms]
    if len(times) < 2 or max(times) - min(times) <= 0.01 * min(times):
        return None
    return (f"{c.name}: " + ", ".join(f"{mode} {t:.2f} ms" for mode, t in modes)
            + f" (the analysis: {primary.allreduce_ms:.2f} ms)")
