"""Every generated fabric is one fat tree, checked on the graph and not on the sizing formulas.

Over a grid of template parameters (SUs 1-16, servers, switch models, oversubscription): the
switches form one connected component (networkx); in two tiers every leaf links to every spine;
in three tiers every leaf of a pod links to every spine of the pod, and each core group is
reached by exactly one spine of every pod; per-tier link counts follow from servers x NICs; the
analysis' rail-aligned bisection equals a max-flow computed independently with networkx on the
same halves, and its bisection (the worst cut) is no larger;
and the analysis reports no FABRIC-PARTITIONED finding.
"""

from __future__ import annotations

from collections import defaultdict

import networkx as nx
import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.generators import RailOptimizedParams, ThreeTierParams, TwoTierParams, generate
from aicnet_gui.model.document import FabricDocument
from tests.graph_oracle import bisection_halves, fabric_graph

DGX, HGX = "nvidia-dgx-h100", "generic-hgx-8-gpu-b3140h"
QM9700, SN5600, Q3400 = "nvidia-qm9700", "nvidia-sn5600", "nvidia-q3400-ra"
NICS = 8
RANK = {"gpu_server": 0, "storage": 0, "leaf": 1, "spine": 2, "core": 3}  # storage: UFM appliances

GRID = [
    RailOptimizedParams(sus=1, server=DGX, leaf=QM9700),
    RailOptimizedParams(sus=2, server=DGX, leaf=QM9700),
    RailOptimizedParams(sus=3, nodes_per_su=31, server=DGX, leaf=QM9700),
    RailOptimizedParams(sus=4, server=DGX, leaf=QM9700),
    RailOptimizedParams(sus=8, server=DGX, leaf=QM9700),
    RailOptimizedParams(sus=16, server=DGX, leaf=QM9700),
    RailOptimizedParams(sus=4, server=DGX, leaf=QM9700, core=QM9700),
    RailOptimizedParams(sus=5, nodes_per_su=16, server=HGX, leaf=SN5600),
    # 4 SUs: an SN5600 leaf carries the rail of two SUs, so 16 leaves in two pods (2 SUs are 8
    # leaves in one pod, refused: each core would link one spine)
    RailOptimizedParams(sus=4, server=HGX, leaf=SN5600, tiers="3"),
    RailOptimizedParams(sus=4, server=DGX, leaf=QM9700, spine=Q3400),
    TwoTierParams(servers=8, server=HGX, leaf=SN5600),
    TwoTierParams(servers=64, server=HGX, leaf=SN5600),
    TwoTierParams(servers=48, server=HGX, leaf=SN5600, oversubscription=3, attach="tor"),
    TwoTierParams(servers=100, server=DGX, leaf=QM9700, oversubscription=2),
    ThreeTierParams(servers=256, server=HGX, leaf=SN5600),
    ThreeTierParams(servers=600, server=DGX, leaf=QM9700, oversubscription=1.5),
]


def _upward(doc: FabricDocument, roles: dict[str, str]):  # noqa: ANN202
    """Each link as (link, lower end, upper end, their roles), the lower tier first."""
    for link in doc.links.values():
        a, b = link.a.device, link.b.device
        ra, rb = roles[a], roles[b]
        if RANK[ra] > RANK[rb]:
            a, b, ra, rb = b, a, rb, ra
        yield link, a, b, ra, rb


def _label(params) -> str:
    extra = {k: v for k, v in params.model_dump(exclude_defaults=True).items() if k != "template"}
    return params.template + ":" + ",".join(f"{k}={v}" for k, v in sorted(extra.items()))


def _networkx_bisection(doc: FabricDocument, servers: list[str]) -> float:
    """Max-flow between the same halves the analysis uses, by networkx on the document."""
    graph = fabric_graph(doc)
    first, second = bisection_halves(doc, servers)
    flow = nx.DiGraph()
    for a, b, data in graph.edges(data=True):
        flow.add_edge(a, b, capacity=data["capacity"])
        flow.add_edge(b, a, capacity=data["capacity"])
    for server in first:
        flow.add_edge("source", server, capacity=sum(graph[server][n]["capacity"] for n in graph[server]))
    for server in second:
        flow.add_edge(server, "sink", capacity=sum(graph[server][n]["capacity"] for n in graph[server]))
    return float(nx.maximum_flow_value(flow, "source", "sink"))


@pytest.mark.parametrize("params", GRID, ids=_label)
def test_generated_fabric_is_one_fat_tree(params, catalog):
    doc = FabricDocument(catalog)
    generate(doc, params.model_copy(update={"choose_media": False}))
    roles = {d.id: d.role.value for d in doc.devices.values()}
    tags = {d.id: d.tags for d in doc.devices.values()}
    switches = {i for i, r in roles.items() if r in ("leaf", "spine", "core")}
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    tier_links: dict[tuple[str, str], int] = defaultdict(int)
    for _link, a, b, ra, rb in _upward(doc, roles):
        tier_links[(ra, rb)] += 1
        pairs[(a, b)] += 1
    graph = nx.Graph()
    graph.add_nodes_from(switches)
    graph.add_edges_from(p for p in pairs if p[0] in switches and p[1] in switches)
    assert nx.is_connected(graph), "the switches form separate islands"

    servers = [i for i, r in roles.items() if r == "gpu_server"]
    # both server models of the grid have 8 compute NICs (one per GPU)
    assert tier_links[("gpu_server", "leaf")] == NICS * len(servers)
    one_to_one = getattr(params, "oversubscription", 1.0) == 1.0
    if one_to_one:  # as many Gb/s up as down on every tier: the same count of links (31-node
        # SUs round a leaf's 31 uplinks up to 32 so that every spine gets the same share)
        exact = getattr(params, "nodes_per_su", 32) == 32
        for tier in (("leaf", "spine"), ("spine", "core")):
            if tier in tier_links:
                assert tier_links[tier] >= NICS * len(servers)
                assert tier_links[tier] == NICS * len(servers) or not exact
    leaves = [i for i in switches if roles[i] == "leaf"]
    spines = [i for i in switches if roles[i] == "spine"]
    cores = [i for i in switches if roles[i] == "core"]
    if not cores:
        for leaf in leaves:
            linked = {b for (a, b) in pairs if a == leaf and roles[b] == "spine"}
            assert linked == set(spines), f"{leaf} does not reach every spine"
        counts = {pairs[(leaf, s)] for leaf in leaves for s in spines}
        assert len(counts) == 1, "links per leaf-spine pair differ"
    else:
        pods = {tags[s]["pod"] for s in spines}
        for leaf in leaves:
            linked = {b for (a, b) in pairs if a == leaf and roles[b] == "spine"}
            assert linked == {s for s in spines if tags[s]["pod"] == tags[leaf]["pod"]}
        groups: dict[str, set[str]] = defaultdict(set)
        for core in cores:
            groups[tags[core]["core_group"]].add(core)
        for spine in spines:
            linked = {b for (a, b) in pairs if a == spine and roles[b] == "core"}
            assert linked in groups.values(), f"{spine} does not reach exactly one core group"
        for group in groups.values():
            reaching = {a for (a, b) in pairs if b in group and roles[a] == "spine"}
            assert sorted(tags[s]["pod"] for s in reaching) == sorted(pods)

    report = analyze(doc)
    assert not [f for f in report.findings if f.code == "FABRIC-PARTITIONED"]
    (workload,) = report.metrics.workloads
    assert workload.bisection_rail_aligned_gbps == pytest.approx(_networkx_bisection(doc, servers))
    assert workload.bisection_gbps <= workload.bisection_rail_aligned_gbps


@pytest.mark.parametrize("name", ["superpod-1su.fabric", "superpod-4su.fabric",
                                  "roce-enterprise.fabric", "inference-ethernet.fabric",
                                  "small-hgx.fabric"])
def test_example_bisection_is_the_max_flow(name, catalog):
    from pathlib import Path

    from aicnet_gui.fileio import load_fabric

    doc = load_fabric(Path(__file__).resolve().parents[2] / "examples" / name, catalog)
    report = analyze(doc)
    assert not [f for f in report.findings if f.code == "FABRIC-PARTITIONED"]
    for metrics in report.metrics.workloads:
        members = list(doc.workloads[metrics.id].members)
        assert metrics.bisection_rail_aligned_gbps == pytest.approx(_networkx_bisection(doc, members))


# The 2026 designs: DGX B300 on Quantum-X800 XDR (72-node SUs, one 800G port per GPU) and on
# Spectrum-X (64-node SUs, each GPU's ConnectX-8 as 2 x 400GbE, "twin-planar design ... Each GPU
# has 2x 400GbE connectivity through two different planes": DGX SuperPOD B300 RA, Network
# Fabrics, docs.nvidia.com/dgx-superpod/reference-architecture/scalable-infrastructure-b300/
# latest/network-fabrics.html), GB200 / GB300 NVL72 compute trays (4 GPUs, one NIC each; the
# GB300 NVL72 Enterprise RA runs "each compute networking plane [as] a separate fabric":
# docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/
# networking-physical-topologies.html, Multi-Plane Topology Approach).  Every plane is one fat
# tree on its own, no link joins two planes, leg k of every NIC goes to plane k and NIC i to a
# leaf of rail i; the switch counts against NVIDIA's tables are in test_counts.py.
B300, GB200, GB300 = "nvidia-dgx-b300", "nvidia-gb200-nvl72-compute-tray", \
    "nvidia-gb300-nvl72-compute-tray"
SN5610, SN5600_, Q3200 = "nvidia-sn5610", "nvidia-sn5600", "nvidia-q3200-ra-half"

GRID_2026 = [
    RailOptimizedParams(sus=1, server=B300, leaf=Q3400),
    RailOptimizedParams(sus=4, server=B300, leaf=Q3400),  # 18 spines, 4 links per pair
    RailOptimizedParams(sus=1, server=B300, leaf=Q3400, spine=Q3200),
    RailOptimizedParams(sus=2, server=B300, leaf=Q3400, tiers="3"),
    RailOptimizedParams(sus=1, server=B300, leaf=SN5610, planes=2),
    RailOptimizedParams(sus=2, server=B300, leaf=SN5600_, planes=2),
    RailOptimizedParams(sus=2, server=B300, leaf=SN5610, planes=2, tiers="3"),
    RailOptimizedParams(sus=1, server=B300, leaf=SN5610, planes=4),
    RailOptimizedParams(sus=2, server=GB200, leaf=QM9700),
    RailOptimizedParams(sus=2, server=GB300, leaf=Q3400),
    RailOptimizedParams(sus=2, server=GB300, leaf=SN5610, planes=2),
]


def _plane_of(doc: FabricDocument, device: str) -> str:
    """The switch's plane: "1".."P" in a multi-plane fabric, else the one compute plane."""
    found = doc.devices[device]
    return found.plane or found.tags["plane"]


@pytest.mark.parametrize("params", GRID_2026, ids=_label)
def test_2026_design_is_one_fat_tree_per_plane(params, catalog):
    doc = FabricDocument(catalog)
    generate(doc, params.model_copy(update={"choose_media": False}))
    planes = params.planes
    model = catalog.devices[params.server]
    nics = model.gpus  # one ConnectX per GPU on all three systems
    roles = {d.id: d.role.value for d in doc.devices.values()}
    tags = {d.id: d.tags for d in doc.devices.values()}
    servers = [i for i, r in roles.items() if r == "gpu_server"]
    switches = [i for i, r in roles.items() if r != "gpu_server"]
    plane_names = {_plane_of(doc, s) for s in switches}
    assert len(plane_names) == planes

    pairs: dict[tuple[str, str], int] = defaultdict(int)
    tier_links: dict[tuple[str, str], int] = defaultdict(int)
    legs_to: dict[tuple[str, str], set[str]] = defaultdict(set)  # (server, cage) -> leaf planes
    for link, a, b, ra, rb in _upward(doc, roles):
        tier_links[(ra, rb)] += 1
        pairs[(a, b)] += 1
        upper = _plane_of(doc, b)
        assert link.plane == upper, f"{link.id} is marked plane {link.plane}, joins {upper}"
        if ra == "gpu_server":
            port = link.a.port if link.a.device == a else link.b.port
            cage, _, leg = port[1:].partition("-")
            # NIC i goes to a leaf of rail i; leg k of the NIC to plane k (unsplit: one plane)
            assert tags[b]["rail"] == cage, f"{a} {port} lands on rail {tags[b]['rail']}"
            assert leg == ("" if planes == 1 else upper), f"{a} {port} lands in plane {upper}"
            legs_to[(a, cage)].add(upper)
        else:
            assert _plane_of(doc, a) == upper, f"{a} - {b} joins two planes"
    assert all(len(p) == planes for p in legs_to.values())
    assert len(legs_to) == nics * len(servers)

    # per tier at least as many links up as down, every one at the plane's speed: 1:1 or
    # better (a leaf's uplinks are rounded up to a multiple of its spines for ECMP balance: 54
    # GB300 trays per SU on SN5610 give 54 down and 56 up over 4 spines per plane)
    ports = nics * planes * len(servers)
    assert tier_links[("gpu_server", "leaf")] == ports
    for tier in (("leaf", "spine"), ("spine", "core")):
        assert ports <= tier_links.get(tier, ports) <= ports * 1.1

    for name in plane_names:
        own = {s for s in switches if _plane_of(doc, s) == name}
        graph = nx.Graph()
        graph.add_nodes_from(own)
        graph.add_edges_from(p for p in pairs if p[0] in own and p[1] in own)
        assert nx.is_connected(graph), f"plane {name} is split into islands"
        leaves = [s for s in own if roles[s] == "leaf"]
        spines = [s for s in own if roles[s] == "spine"]
        cores = [s for s in own if roles[s] == "core"]
        for leaf in leaves:
            linked = {b for (a, b) in pairs if a == leaf and roles[b] == "spine"}
            pod = {s for s in spines if not cores or tags[s]["pod"] == tags[leaf]["pod"]}
            assert linked == pod, f"{leaf} does not reach every spine of its plane and pod"
        counts = {pairs[(leaf, s)] for leaf in leaves for s in spines if (leaf, s) in pairs}
        assert len(counts) == 1, "links per leaf-spine pair differ"
        groups: dict[str, set[str]] = defaultdict(set)
        for core in cores:
            groups[tags[core]["core_group"]].add(core)
        for spine in spines if cores else ():
            linked = {b for (a, b) in pairs if a == spine and roles[b] == "core"}
            assert linked in groups.values(), f"{spine} does not reach exactly one core group"

    report = analyze(doc)
    partitioned = [f for f in report.findings if f.code == "FABRIC-PARTITIONED"]
    if planes == 1:
        assert not partitioned
    else:  # reported as the declared planes, not as a fault
        (finding,) = partitioned
        assert finding.severity.value == "info" and f"spans {planes} compute planes" in finding.message
    assert report.metrics.oversubscription.effective == pytest.approx(1.0)
    assert max(report.metrics.oversubscription.switches.values()) <= 1.0  # none above 1:1
    (workload,) = report.metrics.workloads
    assert workload.bisection_rail_aligned_gbps == pytest.approx(_networkx_bisection(doc, servers))
    assert workload.bisection_gbps <= workload.bisection_rail_aligned_gbps
    # full bisection: half of every GPU's injection bandwidth crosses the cut
    assert workload.bisection_gbps == pytest.approx(
        len(servers) * nics * model_speed(catalog, params) / 2)


def model_speed(catalog, params) -> int:
    """A GPU's injection bandwidth in Gb/s: its NIC's fastest unsplit compute mode."""
    from aicnet_gui.generators.hardware import compute_group
    from aicnet_gui.model.catalog_entities import BreakoutMode

    group = compute_group(catalog.devices[params.server])
    return max(m.speed_gbps * m.legs for m in map(BreakoutMode.parse, group.breakouts))
