"""Pareto marks: which candidates are dominated on (cost, collective time) and on (power,
collective time).

Candidate a dominates b on a pair of axes when a is no worse on both and better on at least
one (lower cost or power, shorter all-reduce of the study's primary workload under the
candidate's own load balancing: `CandidateMetrics.collective_ms`, the traffic model's time, the
even-spread bound where it gives none, labelled so).  Only built
candidates that fit the site and have both numbers are compared; a candidate without a cost
(no price list, a part without price) is not compared on cost, and one whose power total
leaves a device model without a figure out is not compared on power; each says so (None).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .candidate import Candidate, ParetoMark

Axis = Callable[[Candidate], float | None]


def _cost(c: Candidate) -> float | None:
    return c.metrics.cost if c.metrics is not None else None


def _power(c: Candidate) -> float | None:
    return c.metrics.comparable_power_kw if c.metrics is not None else None


def _time(c: Candidate) -> float | None:
    return c.metrics.collective_ms if c.metrics is not None else None


def dominates(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[0] and a[1] <= b[1] and (a[0] < b[0] or a[1] < b[1])


def _marks(candidates: list[Candidate], axis: Axis) -> dict[int, tuple[bool, tuple[str, ...]]]:
    """Per compared candidate (by index): on the frontier?, and the names dominating it."""
    points = {c.index: (axis(c), _time(c)) for c in candidates
              if c.feasible and axis(c) is not None and _time(c) is not None}
    names = {c.index: c.name for c in candidates}
    out = {}
    for index, point in points.items():
        by = tuple(names[o] for o, other in points.items()
                   if o != index and dominates(other, point))  # type: ignore[arg-type]
        out[index] = (not by, by)
    return out


def mark(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates with their Pareto marks."""
    cost = _marks(candidates, _cost)
    power = _marks(candidates, _power)
    marked = []
    for c in candidates:
        if c.metrics is None:
            marked.append(c)
            continue
        on_cost, by_cost = cost.get(c.index, (None, ()))
        on_power, by_power = power.get(c.index, (None, ()))
        dominated_by = {k: v for k, v in (("cost_time", by_cost), ("power_time", by_power)) if v}
        marked.append(replace(c, pareto=ParetoMark(on_cost, on_power, dominated_by)))
    return marked
