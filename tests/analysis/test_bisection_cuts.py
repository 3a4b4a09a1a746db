"""The bisection (and `whatif`'s) against a brute-force minimum over every balanced cut of the
GPUs, on small fabrics, computed here independently of the analysis.

The test builds its own flow graph from the design's links with networkx: one node per switch,
every switch-to-switch link in both directions at the slower port's speed; each GPU is its NIC
port (DGX H100: 8 compute ports, one per GPU) and reaches the fabric through that port's link
only (nothing is forwarded through a server).  A balanced cut puts half of all GPUs on each
side, GPUs whose link is down included; its value is the max-flow from the GPUs of one side to
those of the other (each GPU sends and receives at its link's speed).

Exhaustive but exact: in this graph a GPU has one edge, to its switch, so two GPUs on the same
switch at the same speed are interchangeable and a cut's flow depends only on how many GPUs of
each (switch, speed) class are on the first side (a dead GPU has no edge: one more class).  The
test enumerates every such vector of counts whose total is half the GPUs: every balanced cut.

The analysis' bisection must be that minimum: on the issue's 1-SU SuperPOD with spine-01
failed, the rail-aligned cut (the servers in halves) keeps 51.2 Tb/s while rails 1-4 against
5-8 fall to 38.4 Tb/s.
"""

from __future__ import annotations

import itertools
from collections import Counter

import networkx as nx
import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.change.failures import resolve
from aicnet_gui.change.whatif import what_if
from aicnet_gui.cli import main
from aicnet_gui.generators import RailOptimizedParams, TwoTierParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import AddDevice, UpdateLink
from aicnet_gui.model.fabric import Endpoint
from tests.doc_edits import remove_link


def _speed(doc: FabricDocument, end) -> int:  # noqa: ANN001
    return doc.port(end.device, end.port).speed_gbps


def _is_server(doc: FabricDocument, device_id: str) -> bool:
    return doc.devices[device_id].role.value == "gpu_server"


def _gpus(doc: FabricDocument) -> list[tuple[str, str]]:
    """Every GPU of the design: (server, its NIC port), whether the port is linked or not."""
    return [(d.id, p.name) for d in doc.devices.values() if _is_server(doc, d.id)
            for p in doc.ports(d.id).values() if p.group.name == "compute"]


def _switch_graph(doc: FabricDocument) -> nx.DiGraph:
    graph = nx.DiGraph()
    for link in doc.links.values():
        a, b = link.a.device, link.b.device
        if _is_server(doc, a) or _is_server(doc, b):
            continue
        gbps = min(_speed(doc, link.a), _speed(doc, link.b))
        for x, y in ((a, b), (b, a)):
            old = graph.get_edge_data(x, y, {"capacity": 0})["capacity"]
            graph.add_edge(x, y, capacity=old + gbps)
    return graph


def _gpu_classes(doc: FabricDocument) -> Counter:
    """GPUs per (switch, Gb/s) of their link; ("dead", 0) for a GPU whose link is down."""
    classes: Counter = Counter()
    for server, port in _gpus(doc):
        link = doc.link_at(server, port)
        if link is None:
            classes[("dead", 0)] += 1
            continue
        other = link.b if (link.a.device, link.a.port) == (server, port) else link.a
        classes[(other.device, min(_speed(doc, link.a), _speed(doc, link.b)))] += 1
    return classes


def _flow(base: nx.DiGraph, first: dict, classes: Counter) -> float:
    graph = base.copy()
    for (switch, gbps), n in classes.items():
        if switch == "dead":
            continue
        a = first.get((switch, gbps), 0)
        for x, y, cap in (("source", switch, a * gbps), (switch, "sink", (n - a) * gbps)):
            if cap:
                old = graph.get_edge_data(x, y, {"capacity": 0})["capacity"]
                graph.add_edge(x, y, capacity=old + cap)
    if "source" not in graph or "sink" not in graph:
        return 0.0
    return float(nx.maximum_flow_value(graph, "source", "sink"))


def brute_force_bisection(doc: FabricDocument) -> float:
    """The minimum over every balanced cut of the GPUs of the max-flow across it."""
    base = _switch_graph(doc)
    classes = _gpu_classes(doc)
    keys = sorted(classes, key=str)
    half = sum(classes.values()) // 2
    best = float("inf")
    for counts in itertools.product(*(range(classes[k] + 1) for k in keys)):
        if sum(counts) == half:
            best = min(best, _flow(base, dict(zip(keys, counts, strict=True)), classes))
    return best


def _rail_design(catalog, spines: int = 2) -> FabricDocument:
    """1 SU of 2 DGX H100 (16 GPUs, 8 rail leaves with 2 uplinks each).  The generator needs
    one spine for 16 uplinks; `spines` re-terminates each leaf's uplinks onto that many spines
    (one uplink each), so that a spine lost costs a share of the uplinks."""
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=2, choose_media=False))
    (spine,) = [d for d in doc.devices.values() if d.role.value == "spine"]
    extra = [spine.model_copy(update={"id": f"spine-{k:02d}", "name": f"spine-{k:02d}",
                                      "ru": None, "rack": None})
             for k in range(2, spines + 1)]
    ops: list = [AddDevice(d) for d in extra]
    ups = sorted((lk for lk in doc.links.values()
                  if spine.id in (lk.a.device, lk.b.device)), key=lambda lk: lk.id)
    by_leaf: dict[str, list] = {}
    for link in ups:
        leaf = link.a.device if link.b.device == spine.id else link.b.device
        by_leaf.setdefault(leaf, []).append(link)
    for links in by_leaf.values():
        for k, link in enumerate(links[1:spines], start=2):
            end = "a" if link.a.device == spine.id else "b"
            ops.append(UpdateLink(link.id, {end: Endpoint(f"spine-{k:02d}",
                                                           getattr(link, end).port)}))
    doc.apply(ops)
    return doc


def _failed(doc: FabricDocument, tokens: list[str]) -> FabricDocument:
    copy = doc.snapshot()
    for link_id in resolve(doc, tokens).links:
        remove_link(copy, link_id)
    return copy


def _tor_design(catalog) -> FabricDocument:
    """6 DGX H100 on ToR leaves at 3:1 (the inference shape): the servers' halves are the cut."""
    doc = FabricDocument(catalog)
    generate(doc, TwoTierParams(servers=6, attach="tor", oversubscription=3,
                                choose_media=False))
    return doc


CASES = [
    ("rail, intact", _rail_design, []),
    ("rail, spine-01 failed", _rail_design, ["spine-01"]),
    ("rail, leaf-03 failed", _rail_design, ["leaf-03"]),
    ("rail, one spine of one", lambda c: _rail_design(c, spines=1), ["spine-01"]),
    ("rail, server failed", _rail_design, ["gpu-001"]),
    ("ToR 3:1, intact", _tor_design, []),
    ("ToR 3:1, spine-01 failed", _tor_design, ["spine-01"]),
]


@pytest.mark.parametrize(("name", "design", "failed"), CASES, ids=[c[0] for c in CASES])
def test_bisection_and_whatif_are_the_minimum_over_every_balanced_cut(name, design, failed,
                                                                      catalog):
    doc = design(catalog)
    broken = _failed(doc, failed) if failed else doc
    truth = brute_force_bisection(broken)
    (workload,) = analyze(broken).metrics.workloads
    assert workload.bisection_gbps == pytest.approx(truth)
    if failed:
        (impact,) = what_if(doc, resolve(doc, failed)).workloads
        assert impact.after.bisection_gbps == pytest.approx(truth)
        assert impact.before.bisection_gbps == pytest.approx(brute_force_bisection(doc))


def test_a_spine_lost_in_a_rail_design_costs_the_cross_rail_cut_not_the_rail_aligned_one(catalog):
    """2 DGX, 8 rail leaves, each with one uplink to each of 2 spines.  spine-01 fails: the
    servers' halves (one DGX each) still meet on every rail leaf (8 x 400 = 3,200 Gb/s); rails
    1-4 against 5-8 cross the spines on the 4 uplinks left: 1,600 Gb/s."""
    doc = _rail_design(catalog)
    (w,) = what_if(doc, resolve(doc, ["spine-01"])).workloads
    assert (w.before.rail_aligned_gbps, w.after.rail_aligned_gbps) == (3200, 3200)
    assert (w.before.cross_rail_gbps, w.after.cross_rail_gbps) == (3200, 1600)
    assert w.after.bisection_gbps == 1600 and w.after.worst_cut == "cross-rail"
    assert w.after.cross_rail_cut == "rails 1-4 | 5-8"


def _tbps_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if "Tb/s" in line]


def test_whatif_on_the_issues_superpod_shows_the_worst_cut_beside_the_rail_aligned_one(
        capsys, catalog):
    """The issue's case: superpod-1su, spine-01 failed.  The test's own max-flow on the cut
    rails 1-4 (leaf-01..04) against rails 5-8 (leaf-05..08) says 38.4 Tb/s: 4 leaves x 24
    uplinks left x 400G.  The CLI, its --json and the analysis say it too."""
    import json

    from aicnet_gui.fileio import load_fabric

    path = "examples/superpod-1su.fabric"
    doc = load_fabric(path, catalog)
    broken = _failed(doc, ["spine-01"])
    classes = _gpu_classes(broken)
    first = {k: n for k, n in classes.items() if k[0] in {"leaf-01", "leaf-02", "leaf-03", "leaf-04"}}
    assert _flow(_switch_graph(broken), first, classes) == 38_400
    assert main(["whatif", path, "--fail", "spine-01"]) == 0
    assert _tbps_lines(capsys.readouterr().out) == [
        "bisection (max-flow, worst cut: cross-rail): 51.2 -> 38.4 Tb/s",
        "rail-aligned (the servers in halves): 51.2 -> 51.2 Tb/s",
        "cross-rail (rails 1-4 | 5-8): 51.2 -> 38.4 Tb/s"]
    assert main(["whatif", path, "--fail", "spine-01", "--json"]) == 0
    after = json.loads(capsys.readouterr().out)["workloads"][0]["after"]
    assert after["bisection_gbps"] == 38_400
    assert after["bisection"] == {"worst_cut": "cross-rail", "rail_aligned_gbps": 51_200,
                                  "cross_rail_gbps": 38_400, "cross_rail_cut": "rails 1-4 | 5-8"}
