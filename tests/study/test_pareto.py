"""The Pareto marks agree with a brute-force dominance check written here: a candidate is on a
frontier exactly when no other compared candidate is at most as costly (or as power-hungry)
and at most as slow, and strictly better in one of the two."""

from __future__ import annotations

import random
from dataclasses import replace

from aicnet_gui.study.pareto import mark


def _brute(points: dict[str, tuple[float, float]]) -> dict[str, bool]:
    frontier = {}
    for name, (x, t) in points.items():
        beaten = False
        for other, (ox, ot) in points.items():
            if other == name:
                continue
            if (ox < x and ot <= t) or (ox <= x and ot < t):
                beaten = True
        frontier[name] = not beaten
    return frontier


def _timed(w, time):
    """`w` taking `time` under every model (the traffic model's under its own load balancing,
    the collective time the marks compare, and the even-spread bound)."""
    assert w.configured is not None  # the marks compare the traffic model's time
    return replace(w, allreduce_ms=time,
                   estimates=tuple(replace(e, allreduce_ms=time) for e in w.estimates))


def test_the_small_study_is_marked_as_brute_force_says(small_study):
    _study, result, _out = small_study
    built = [c for c in result.candidates if c.metrics is not None and c.feasible]
    assert len(built) == 4
    # power: only the totals on one basis with every switch counted (the SN5600 has no maximum
    # figure in the catalog: its candidates are not compared on power, None)
    for axis, value in (("cost_time", lambda m: m.cost),
                        ("power_time", lambda m: m.comparable_power_kw)):
        points = {c.name: (value(c.metrics), c.metrics.collective_ms) for c in built
                  if value(c.metrics) is not None}
        expected = {c.name: None for c in built} | _brute(points)
        assert {c.name: getattr(c.pareto, axis) for c in built} == expected
        assert any(expected.values())
    for c in result.candidates:
        if c.metrics is None:
            assert c.pareto is None


def test_random_points_with_ties_are_marked_as_brute_force_says(small_study):
    _study, result, _out = small_study
    template = next(c for c in result.candidates if c.metrics is not None)
    rng = random.Random(37)
    for _ in range(30):
        candidates, points = [], {}
        for i in range(rng.randint(1, 12)):
            cost = float(rng.choice([10, 20, 30, 40]))  # small sets: ties on purpose
            power = float(rng.choice([1, 2, 3]))
            time = float(rng.choice([1.0, 1.5, 2.0]))
            metrics = replace(template.metrics, cost=cost, power_w=power,
                              workloads=tuple(_timed(w, time)
                                              for w in template.metrics.workloads))
            candidates.append(replace(template, index=i, name=f"c{i}", metrics=metrics,
                                      pareto=None))
            points[f"c{i}"] = (cost, power, time)
        marked = {c.name: c.pareto for c in mark(candidates)}
        cost_front = _brute({n: (p[0], p[2]) for n, p in points.items()})
        power_front = _brute({n: (p[1], p[2]) for n, p in points.items()})
        assert {n: m.cost_time for n, m in marked.items()} == cost_front
        assert {n: m.power_time for n, m in marked.items()} == power_front
        for name, m in marked.items():  # the dominating candidates are named
            assert bool(m.dominated_by.get("cost_time")) == (not cost_front[name])


def test_a_candidate_without_cost_is_not_compared_on_cost(small_study):
    _study, result, _out = small_study
    built = [c for c in result.candidates if c.metrics is not None]
    unpriced = replace(built[0], metrics=replace(built[0].metrics, cost=None), pareto=None)
    marked = mark([unpriced, *[replace(c, pareto=None) for c in built[1:]]])
    assert marked[0].pareto.cost_time is None
    assert marked[0].pareto.power_time is not None


def test_a_candidate_with_a_device_of_unknown_power_is_not_compared_on_power(small_study):
    # the SN5610, the Arista 7060X6 and the QFX5240 have no power figure in the catalog: their
    # BOM counts them at 0 W, which made such candidates the coolest and put them on the power
    # frontier over ones whose switches have a figure; like a cost with unpriced parts, such a
    # power total is a lower bound and is not compared (None), and is drawn nowhere
    _study, result, _out = small_study
    built = [replace(c, pareto=None) for c in result.candidates if c.metrics is not None]
    first = built[0].metrics  # QM9700 leaves and spines
    unknown = replace(built[0], metrics=replace(first, power_unknown=("nvidia-qm9700",),
                                                power_w=1.0))
    marked = mark([unknown, *built[1:]])
    assert marked[0].pareto.power_time is None
    assert marked[0].pareto.cost_time is not None
    assert all("power_time" not in (m.pareto.dominated_by or {}) or
               built[0].name not in m.pareto.dominated_by["power_time"] for m in marked[1:])
    assert unknown.metrics.comparable_power_kw is None
    assert built[0].metrics.comparable_power_kw == built[0].metrics.power_kw
    from aicnet_gui.study.comparison_text import kw

    assert kw(unknown.metrics) == ">=0.0" and not kw(built[0].metrics).startswith(">=")
    # the servers are the same in every candidate: one without a figure leaves every total
    # short alike, and the candidates stay compared
    server_unknown = replace(first, power_unknown=("nvidia-dgx-h100",))
    assert server_unknown.comparable_power_kw == first.power_kw
    assert kw(server_unknown).startswith(">=")
