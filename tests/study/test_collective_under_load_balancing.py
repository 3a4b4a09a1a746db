"""The comparison's collective time is the one under each candidate's own load balancing (the
traffic model's: static ECMP with its hash collisions, adaptive routing, spraying), not the
analysis' even spread, which stays beside it as the fabric's even-spread bound.

The candidates here are built by hand: one RoCEv2 top-of-rack design of 64 HGX B300 servers
on Cisco N9364E leaves at 2:1 (its all-reduce crosses the oversubscribed spines, so the fabric
sets the pace), measured once per load-balancing setting and nothing else changed, beside the
same design at 1:1.  Each time is checked against the traffic model run here on the design,
and the Pareto marks against a brute-force dominance check over the candidates.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.edits import UpdateSettings
from aicnet_gui.model.fabric import Requirement
from aicnet_gui.study import Candidate, Study, StudyResult, run_study
from aicnet_gui.study.candidate import EVEN_SPREAD, TRAFFIC
from aicnet_gui.study.comparison_text import render
from aicnet_gui.study.pareto import mark
from aicnet_gui.study.worker import measure
from aicnet_gui.traffic import TrafficModel, TrafficParams

#: the ECMP draws the study makes per candidate (traffic_estimates.SEEDS), written out here
DRAWS = 5
REQUIREMENT = Requirement(name="pace", servers=64, server="generic-hgx-8-gpu-b3140h",
                          technologies=["rocev2"], leaves=["cisco-n9364e-sg2-o"],
                          sweep={"layouts": ["tor"], "oversubscription": [1, 2]})


def _made_up_cost(m) -> float:  # noqa: ANN001
    """A cost for the cost axis (the catalog prices no HGX): the same hardware costs the same."""
    switches = sum(sum(by_model.values()) for by_model in m.switches.values())
    return 30_000.0 * switches + 700.0 * sum(m.optics.values())


def _traffic_time(doc, workload_id: str) -> float:  # noqa: ANN001
    """The traffic model's all-reduce under the design's own setting, run here (flowlets are
    routed as adaptive routing, the least-loaded next hop, as `aicnet traffic` does)."""
    own = doc.settings.load_balancing
    mode = "adaptive" if own == "flowlet" else own
    result = TrafficModel(doc, TrafficParams(seeds=DRAWS)).workload(workload_id, (mode,))
    assert result.collective == "allreduce"
    return result.modes[mode].time_ms


@pytest.fixture(scope="module")
def hand_built(catalog, tmp_path_factory):
    """{name: (candidate, its design)}: the study's 1:1 and 2:1 designs as generated, and the
    2:1 and 1:1 designs again with only their load balancing set to static ECMP, adaptive
    routing or packet spraying."""
    out = tmp_path_factory.mktemp("pace")
    built = run_study(Study.prepare(REQUIREMENT, catalog), out, workers=0).candidates
    by_ratio = {c.combination.oversubscription: c for c in built}
    designs = {}
    for ratio, modes in ((2.0, ("ecmp", "adaptive", "spray")), (1.0, ("ecmp",))):
        study_candidate = by_ratio[ratio]
        designs[study_candidate.name] = (study_candidate, load_fabric(study_candidate.file, catalog))
        for mode in modes:
            doc = load_fabric(study_candidate.file, catalog)
            doc.apply([UpdateSettings({"load_balancing": mode})])
            designs[f"{study_candidate.name}-{mode}"] = (study_candidate, doc)
    out_candidates = {}
    for index, (name, (source, doc)) in enumerate(designs.items()):
        m = source.metrics
        metrics = measure(doc, m.template, m.speed_gbps, REQUIREMENT)
        metrics = replace(metrics, cost=_made_up_cost(metrics))
        candidate = Candidate(index, name, source.combination, source.description, True, None,
                              None, metrics)
        out_candidates[name] = (candidate, doc)
    return out_candidates


def test_static_ecmp_and_adaptive_routing_differ_as_the_traffic_model_says(hand_built):
    ecmp, ecmp_doc = hand_built["cisco-n9364e-sg2-o-2to1-ecmp"]
    adaptive, adaptive_doc = hand_built["cisco-n9364e-sg2-o-2to1-adaptive"]
    assert ecmp.metrics.load_balancing == "ecmp" and adaptive.metrics.load_balancing == "adaptive"
    workload = ecmp.metrics.primary
    by_traffic = {"ecmp": _traffic_time(ecmp_doc, workload),
                  "adaptive": _traffic_time(adaptive_doc, workload)}
    # the fabric sets the pace: hash collisions on the oversubscribed spines cost ECMP time
    assert by_traffic["ecmp"] > 1.2 * by_traffic["adaptive"]
    for c, mode in ((ecmp, "ecmp"), (adaptive, "adaptive")):
        assert c.metrics.collective_basis == TRAFFIC
        assert c.metrics.collective_ms == pytest.approx(by_traffic[mode], abs=1e-4)
    assert ecmp.metrics.collective_ms > 1.2 * adaptive.metrics.collective_ms
    # the even-spread bound is kept, the same for both (the same fabric), and it flatters ECMP
    assert ecmp.metrics.even_spread_ms == adaptive.metrics.even_spread_ms
    assert ecmp.metrics.even_spread_ms < ecmp.metrics.collective_ms
    # the switches of the adaptive design run flowlets (the N9364E documents no adaptive
    # routing); the traffic model routes both as least-loaded next hops
    assert ecmp.metrics.primary_result.runs == ("ecmp",)
    assert adaptive.metrics.primary_result.runs == ("flowlet",)


def test_spraying_and_the_generated_setting_are_routed_too(hand_built):
    for name, (c, doc) in hand_built.items():
        assert c.metrics.collective_ms == pytest.approx(
            _traffic_time(doc, c.metrics.primary), abs=1e-4), name
    spray, _doc = hand_built["cisco-n9364e-sg2-o-2to1-spray"]
    assert spray.metrics.primary_result.runs == ("spray",)
    generated, _doc = hand_built["cisco-n9364e-sg2-o-2to1"]
    assert generated.metrics.load_balancing == "flowlet"


def _brute(points: dict[str, tuple[float, float]]) -> dict[str, bool]:
    """On the frontier: no other point is no worse on both and better on one."""
    return {name: not any(o[0] <= p[0] and o[1] <= p[1] and (o[0] < p[0] or o[1] < p[1])
                          for other, o in points.items() if other != name)
            for name, p in points.items()}


def test_the_pareto_marks_use_the_time_under_each_candidates_load_balancing(hand_built):
    marked = {c.name: c for c in mark([c for c, _doc in hand_built.values()])}
    times = {name: _traffic_time(doc, c.metrics.primary) for name, (c, doc) in hand_built.items()}
    for axis, value in (("cost_time", lambda m: m.cost),
                        ("power_time", lambda m: m.comparable_power_kw)):
        points = {name: (value(c.metrics), times[name]) for name, (c, _doc) in hand_built.items()}
        assert all(x is not None for x, _t in points.values())
        expected = _brute(points)
        assert {name: getattr(c.pareto, axis) for name, c in marked.items()} == expected, axis
        # ECMP on the oversubscribed fabric is dominated by the same fabric with adaptive
        # routing; under the even spread the two tied and both were on the frontier
        assert not expected["cisco-n9364e-sg2-o-2to1-ecmp"]
        assert expected["cisco-n9364e-sg2-o-2to1-adaptive"]
        dominating = marked["cisco-n9364e-sg2-o-2to1-ecmp"].pareto.dominated_by[axis]
        assert "cisco-n9364e-sg2-o-2to1-adaptive" in dominating


def _result(candidates: list[Candidate]) -> StudyResult:
    return StudyResult(name="pace", candidates=tuple(mark(candidates)), cancelled=False,
                       not_run=(), price_list=None, price_problems=(), notes=(), seconds=0.0,
                       workers=0)


def test_the_text_and_the_json_say_the_time_under_each_load_balancing(hand_built, catalog):
    names = ["cisco-n9364e-sg2-o-2to1-ecmp", "cisco-n9364e-sg2-o-2to1-adaptive"]
    result = _result([hand_built[n][0] for n in names])
    text = "\n".join(render(result, catalog))
    header = next(line for line in text.splitlines() if line.startswith("candidate "))
    assert re.search(r"all-reduce\s+load balancing\s+even spread", header)
    for name in names:
        m = hand_built[name][0].metrics
        row = next(line for line in text.splitlines() if line.startswith(name + " "))
        assert re.search(rf"{m.collective_ms:.2f} ms\s+{m.primary_result.runs[0]}\s+"
                         rf"{m.even_spread_ms:.2f} ms", row), row
    assert "under each candidate's own load balancing" in text
    assert "even spread: the fabric's even-spread bound" in text
    for entry in result.to_json()["candidates"]:
        metrics = entry["metrics"]
        m = hand_built[entry["name"]][0].metrics
        workload = metrics["primary_workload"]
        assert metrics["collective_ms"][workload] == m.collective_ms
        assert metrics["collective_basis"][workload] == TRAFFIC
        # the old key keeps its figure: the analysis' (the even-spread bound)
        assert metrics["allreduce_ms"][workload] == metrics["even_spread_ms"][workload] \
            == m.even_spread_ms
        (primary,) = [w for w in metrics["workloads"] if w["id"] == workload]
        assert primary["collective_ms"] == m.collective_ms
        assert primary["load_balancing"] == m.load_balancing


def test_without_a_traffic_figure_the_even_spread_bound_stands_in_and_says_so(
        hand_built, catalog, monkeypatch):
    from aicnet_gui.traffic.flows import TooLarge

    def too_large(*_args, **_kwargs):  # noqa: ANN002, ANN003, ANN202
        raise TooLarge("made too large for this test")

    source, doc = hand_built["cisco-n9364e-sg2-o-2to1-ecmp"]
    monkeypatch.setattr(TrafficModel, "workload", too_large)
    m = measure(doc, source.metrics.template, source.metrics.speed_gbps, REQUIREMENT)
    monkeypatch.undo()
    assert m.collective_basis == EVEN_SPREAD
    assert m.collective_ms == m.even_spread_ms == source.metrics.even_spread_ms
    note = m.primary_result.collective_note
    assert "past the traffic model's limits" in note and "made too large" in note
    fallback = replace(source, name="not-routed", metrics=m)
    other = hand_built["cisco-n9364e-sg2-o-2to1-adaptive"][0]
    result = _result([fallback, other])
    text = "\n".join(render(result, catalog))
    row = next(line for line in text.splitlines() if line.startswith("not-routed "))
    assert f"{m.even_spread_ms:.2f} ms*" in row and "ecmp (not routed)" in row
    assert "* no traffic-model time: the even-spread bound stands in" in text
    assert f"not-routed: {note}" in text
    data = result.to_json()["candidates"][0]["metrics"]
    assert data["collective_basis"][m.primary] == EVEN_SPREAD
    (primary,) = [w for w in data["workloads"] if w["id"] == m.primary]
    assert primary["collective_note"] == note


def test_the_comparison_pdf_says_it(hand_built, catalog, tmp_path):
    from pypdf import PdfReader

    from aicnet_gui.report.compare_pdf import comparison_pdf

    names = ["cisco-n9364e-sg2-o-2to1-ecmp", "cisco-n9364e-sg2-o-2to1-adaptive"]
    result = _result([hand_built[n][0] for n in names])
    path = tmp_path / "pace.pdf"
    path.write_bytes(comparison_pdf(result, REQUIREMENT, catalog))
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(path).pages)
    for name in names:
        m = hand_built[name][0].metrics
        # the time, then (its own column) what the switches ran
        assert f"{m.collective_ms:.2f} ms {'+'.join(m.primary_result.runs)}" in text, name
    assert "Even spread" in text and "even-spread bound" in text
    assert "under each candidate's own load balancing" in text
    assert "all-reduce under its load balancing, ms" in text
