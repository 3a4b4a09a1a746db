"""Each workload's all-reduce on a candidate's fabric by load-balancing mode (the traffic model,
`aicnet_gui/traffic`), as collective estimates beside the analysis' fluid one; the one under
the fabric's own setting is the candidate's collective time (candidate.py).

The analysis spreads traffic evenly over equal paths (the even-spread bound); the traffic model
routes NCCL's flows as the switches do: static ECMP hashing (a mean over `SEEDS` draws) and the
fabric's own setting as its switches and NICs run it (adaptive routing, flowlets, spraying;
`runs` says what ran).  An InfiniBand fabric with adaptive routing, a Spectrum-X one that
sprays and a RoCEv2 one on static ECMP then differ where the fabric, not the NICs, sets the
pace (oversubscribed or top-of-rack designs whose collectives cross the spines).

Every workload is routed as an all-reduce (the study's time is an all-reduce, as the
analysis' is, whatever the workload's own pattern); for a training job (ring-allreduce) the
same numbers come out of `aicnet traffic FILE --seeds 5` on the candidate's file, which routes
an inference pool's or a storage workload's all-to-all instead.  A workload the traffic model
cannot route (past its limits: `TooLarge`) has no traffic estimate and says why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..analysis.load_balancing import NAMES
from ..model.document import FabricDocument
from .candidate import EVEN_SPREAD, CollectiveEstimate

#: ECMP draws per candidate (the study compares many designs; `aicnet traffic` draws 20)
SEEDS = 5


def own_mode(doc: FabricDocument) -> str:
    """The fabric's own load balancing as the traffic model routes it (flowlets are modelled
    as adaptive routing, the least-loaded next hop, as `aicnet traffic` does)."""
    own = doc.settings.load_balancing
    return "adaptive" if own == "flowlet" else own


def _modes(doc: FabricDocument) -> tuple[str, ...]:
    """Static ECMP, and the fabric's own mode when it is another."""
    return tuple(dict.fromkeys(("ecmp", own_mode(doc))))


@dataclass(frozen=True)
class TrafficFigures:
    """What the traffic model says of one candidate: the mode it is configured to run (as
    routed), per workload its estimates, and why a workload has none."""

    mode: str
    estimates: dict[str, tuple[CollectiveEstimate, ...]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)


def _label(mode: str, runs: tuple[str, ...], seeds: int) -> str:
    return (f"traffic: {mode} ({', '.join(NAMES[m] for m in runs)}"
            + (f", mean of {seeds} draws" if seeds > 1 else "") + ")")


def traffic_estimates(doc: FabricDocument, checkpoint: Callable[[], None]) -> TrafficFigures:
    """Per workload, one all-reduce estimate per load-balancing mode; a workload past the
    traffic model's limits (its refusal, TooLarge) has none, and `missing` says why."""
    from ..traffic import TrafficModel, TrafficParams
    from ..traffic.flows import TooLarge

    def cancel() -> bool:
        checkpoint()  # raises when the study is cancelled
        return False

    figures = TrafficFigures(own_mode(doc))
    model = TrafficModel(doc, TrafficParams(seeds=SEEDS))
    for wl_id in sorted(doc.workloads):
        try:
            job = model.job(wl_id, collective="allreduce")
            result = model.workload(wl_id, _modes(doc), cancel=cancel, job=job)
        except TooLarge as exc:
            figures.missing[wl_id] = f"past the traffic model's limits ({exc})"
            continue
        figures.estimates[wl_id] = tuple(
            CollectiveEstimate(_label(mode, r.runs, r.seeds),
                               None if r.time_ms is None else round(r.time_ms, 4),
                               round(r.busbw_gbps, 4), mode=mode, runs=tuple(r.runs))
            for mode, r in result.modes.items())
        own = result.modes.get(figures.mode)
        if own is not None and own.time_ms is None:
            figures.missing[wl_id] = ("the traffic model finds flows with no path under "
                                      f"{NAMES[figures.mode]}: the collective cannot complete")
    return figures


def by_mode_line(c) -> str | None:  # noqa: ANN001 - a built Candidate
    """`name: ecmp 11.56 ms, adaptive 7.42 ms (its own); even spread 7.42 ms` for the primary
    workload, when a mode's time differs from another's or from the even-spread bound."""
    m = c.metrics
    primary = m.primary_result if m else None
    if primary is None or primary.allreduce_ms is None:
        return None
    modes = [(e.mode, e.allreduce_ms) for e in primary.estimates
             if e.mode is not None and e.allreduce_ms is not None]
    times = [t for _m, t in modes] + [primary.allreduce_ms]
    if len(times) < 2 or max(times) - min(times) <= 0.01 * min(times):
        return None
    return (f"{c.name}: " + ", ".join(
        f"{mode} {t:.2f} ms" + (" (its own)" if mode == primary.load_balancing else "")
        for mode, t in modes) + f"; even spread {primary.allreduce_ms:.2f} ms")


def fallback_lines(candidates) -> list[str]:  # noqa: ANN001 - built Candidates
    """`name: the even-spread bound stands in: why`, for each candidate whose collective time
    the traffic model could not give."""
    lines = []
    for c in candidates:
        w = c.metrics.primary_result if c.metrics is not None else None
        if w is not None and w.collective_basis == EVEN_SPREAD:
            lines.append(f"{c.name}: {w.collective_note}")
    return lines
