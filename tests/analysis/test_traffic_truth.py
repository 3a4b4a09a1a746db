"""The traffic model (aicnet_gui/traffic) against what it did not compute itself: spraying on a
non-blocking fabric against the collective model's ideal, the order of the modes, a
balls-into-bins expectation by exact enumeration, networkx max-flow on a failed spine, and
published nccl-tests figures (issue 35)."""

from __future__ import annotations

import itertools
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from conftest import HGX, SN5600

from aicnet_gui.analysis import analyze
from aicnet_gui.fileio.fabric_file import load_fabric
from aicnet_gui.generators import TwoTierParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateWorkload
from aicnet_gui.traffic import TrafficModel, TrafficParams
from aicnet_gui.traffic.flows import Classes, alltoall, nodes_of
from aicnet_gui.traffic.model import allocate, load_state
from aicnet_gui.traffic.network import Network
from aicnet_gui.traffic.routing import ECMP, LEAST_LOADED, SPRAY

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CISCO = "cisco-n9364e-sg2-o"  # documented for flowlet and per-packet (spray) DLB


def cisco_tor(catalog, ratio: float) -> FabricDocument:
    """64 HGX (BlueField-3 SuperNICs: they reorder) on N9364E-SG2 leaves and spines, every
    server's 8 NICs on its own top-of-rack leaf, so collectives cross the spines."""
    doc = FabricDocument(catalog)
    generate(doc, TwoTierParams(servers=64, oversubscription=ratio, attach="tor", server=HGX,
                                leaf=CISCO, spine=CISCO, technology="rocev2"))
    return doc


def _set(doc: FabricDocument, **changes) -> str:
    (wl_id,) = doc.workloads
    doc.apply([UpdateWorkload(wl_id, changes)])
    return wl_id


CASES = [{"pattern": "ring-allreduce", "algorithm": "ring", "placement": "scattered"},
         {"pattern": "ring-allreduce", "algorithm": "tree"},
         {"pattern": "all-to-all"}]


@pytest.mark.parametrize("case", CASES, ids=["ring-scattered", "tree", "all-to-all"])
def test_spraying_on_a_non_blocking_fabric_gives_exactly_the_collective_models_ideal(catalog,
                                                                                     case):
    doc = cisco_tor(catalog, 1.0)
    wl_id = _set(doc, **case)
    result = TrafficModel(doc, TrafficParams(seeds=4)).workload(wl_id, ("spray",))
    spray = result.modes["spray"]
    assert spray.runs == ("spray",) and not spray.notes
    assert spray.share == 1.0 and spray.share_p5 == 1.0
    assert spray.busbw_gbps == spray.ideal_busbw_gbps
    if case["pattern"] == "ring-allreduce" and case.get("placement") != "scattered":
        # the analysis' estimate is the same collective model on the same fabric
        (w,) = analyze(doc).metrics.workloads
        assert spray.time_ms == pytest.approx(w.allreduce_ms, abs=1e-3)


@pytest.mark.parametrize("ratio", [1.0, 2.0])
@pytest.mark.parametrize("case", CASES, ids=["ring-scattered", "tree", "all-to-all"])
def test_adaptive_is_never_below_ecmp_nor_above_spraying(catalog, ratio, case):
    doc = cisco_tor(catalog, ratio)
    wl_id = _set(doc, **case)
    modes = TrafficModel(doc, TrafficParams(seeds=8)).workload(wl_id).modes
    ecmp, adaptive, spray = modes["ecmp"], modes["adaptive"], modes["spray"]
    assert adaptive.runs == ("flowlet",)  # the N9364E's least-loaded mode
    assert ecmp.share <= adaptive.share + 1e-9 <= spray.share + 2e-9
    assert ecmp.busbw_gbps <= adaptive.busbw_gbps + 1e-6 <= spray.busbw_gbps + 2e-6
    assert ecmp.busbw_p5_gbps <= ecmp.busbw_gbps <= ecmp.busbw_p95_gbps


# ---------------------------------------------------------------- balls into bins
def balls_into_bins(build, k: int, m: int):
    """One source leaf with k servers (one 400G NIC each) and m uplinks of 400G, one to each
    of m spines; k destination leaves, each with one server and a 400G link to every spine."""
    build.rack("r1")
    build.dev("src", SN5600, rack="r1", ru=40)
    for j in range(m):
        build.dev(f"spine-{j}", SN5600, rack="r1", ru=30 - j, role="spine")
        build.link(f"up{j}", "src", f"swp{33 + j}s0", f"spine-{j}", "swp1s0")
    for i in range(k):
        build.dev(f"s{i}", HGX, rack="r1", ru=1)
        build.link(f"n{i}", f"s{i}", "p1", "src", f"swp{1 + i}s0")
        build.dev(f"dst{i}", SN5600, rack="r1", ru=38 - i)
        build.dev(f"d{i}", HGX, rack="r1", ru=10)
        build.link(f"m{i}", f"d{i}", "p1", f"dst{i}", "swp1s0")
        for j in range(m):
            build.link(f"x{i}-{j}", f"dst{i}", f"swp{33 + j}s0", f"spine-{j}", f"swp{2 + i}s0")
    net = Network(load_state(build.doc))
    store = net.state.store
    nics = net.nics
    nic_of = {store.dev_ids[s]: i for i, s in enumerate(nics.server.tolist())}
    src = [nic_of[f"s{i}"] for i in range(k)]
    dst = [nic_of[f"d{i}"] for i in range(k)]
    idx = np.arange(k)
    classes = Classes(nics.switch[src], nics.switch[dst], np.ones(k, dtype=np.int64), idx, k,
                      np.concatenate([idx, idx]),
                      np.concatenate([nics.up[src], nics.down[dst]]), np.ones(2 * k))
    return net, classes


def expected_bottleneck_share(k: int, m: int) -> float:
    """E[1 / max bin load] for k balls thrown uniformly into m bins, by exact enumeration of
    the m^k throws (the slowest flow shares its uplink with max-load - 1 others)."""
    total = 0.0
    for throw in itertools.product(range(m), repeat=k):
        total += 1.0 / max(throw.count(b) for b in range(m))
    return total / m ** k


@pytest.mark.parametrize(("k", "m"), [(4, 4), (5, 3)])
def test_k_flows_hashed_over_m_uplinks_match_balls_into_bins(build, k, m):
    net, classes = balls_into_bins(build, k, m)
    ecmp = np.full(net.n_devices, ECMP)
    draws = 3000
    shares = [allocate(net, classes, ecmp, np.random.default_rng(seed))[0].pace / 400.0
              for seed in range(draws)]
    expected = expected_bottleneck_share(k, m)
    # standard error of the mean: sd <= 0.5 / sqrt(3000) ~ 0.009; 3 sigma and a bit
    assert np.mean(shares) == pytest.approx(expected, abs=0.03)
    # least-loaded places whole flows: ceil(k/m) on the fullest uplink; spraying spreads every
    # flow over all m: k/m flows' worth per uplink
    for code, share in ((LEAST_LOADED, 1 / -(-k // m)), (SPRAY, min(1.0, m / k))):
        got = allocate(net, classes, np.full(net.n_devices, code), np.random.default_rng(0))
        assert got[0].pace / 400.0 == pytest.approx(share, abs=1e-9)


def test_the_many_flows_of_one_class_split_as_independent_hashes(build):
    """One class of k flows (the multinomial path of the router) against the same enumeration."""
    k, m = 4, 4
    net, single = balls_into_bins(build, k, m)
    # all k flows to the first destination leaf (its spine downlinks load as the uplinks do);
    # each starts on a NIC of its own, the destination NIC left out of the question
    pooled = Classes(single.src[:1], single.dst[:1], np.array([k]), np.zeros(1, np.int64), 1,
                     np.zeros(k, np.int64), single.nic_link[:k], np.ones(k))
    ecmp = np.full(net.n_devices, ECMP)
    shares = [allocate(net, pooled, ecmp, np.random.default_rng(seed))[0].pace / 400.0
              for seed in range(3000)]
    assert np.mean(shares) == pytest.approx(expected_bottleneck_share(k, m), abs=0.03)


# ---------------------------------------------------------------- failed spine vs max-flow
def cross_rail(build, servers: int, spines: int) -> None:
    """Two rail leaves (NIC p1 of every server on leaf A, p2 on leaf B) joined by `spines`
    spines, one 400G link from each leaf to each spine."""
    build.rack("r1")
    build.dev("leaf-a", SN5600, rack="r1", ru=40)
    build.dev("leaf-b", SN5600, rack="r1", ru=38)
    for j in range(spines):
        build.dev(f"spine-{j}", SN5600, rack="r1", ru=30 - j, role="spine")
        build.link(f"a{j}", "leaf-a", f"swp{33 + j}s0", f"spine-{j}", "swp1s0")
        build.link(f"b{j}", "leaf-b", f"swp{33 + j}s0", f"spine-{j}", "swp2s0")
    for i in range(servers):
        build.dev(f"gpu-{i}", HGX, rack="r1", ru=1)
        build.link(f"p{i}a", f"gpu-{i}", "p1", "leaf-a", f"swp{1 + i}s0")
        build.link(f"p{i}b", f"gpu-{i}", "p2", "leaf-b", f"swp{1 + i}s0")
    build.workload("moe", [f"gpu-{i}" for i in range(servers)], pattern="all-to-all")


def networkx_cross_rail_maxflow(doc: FabricDocument, failed: set[str]) -> float:
    """Max-flow from every rail-1 NIC to every rail-2 NIC over the links as drawn (networkx)."""
    graph = nx.DiGraph()
    for link in doc.links.values():
        if link.id in failed:
            continue
        ends = []
        for device, port in (link.a, link.b):
            server = doc.role_of(device).value == "gpu_server"
            ends.append(f"{device}:{port}" if server else device)
        for u, v in (ends, ends[::-1]):
            graph.add_edge(u, v, capacity=400.0)
    for name in list(graph.nodes):
        if name.endswith(":p1"):
            graph.add_edge("source", name, capacity=400.0)
        elif name.endswith(":p2"):
            graph.add_edge(name, "sink", capacity=400.0)
    return nx.maximum_flow_value(graph, "source", "sink")


def test_a_failed_spine_lowers_cross_rail_throughput_by_the_max_flow_amount(build):
    cross_rail(build, servers=8, spines=4)
    doc = build.doc
    spine_links = {lk.id for lk in doc.links.values() if "spine-2" in (lk.a.device, lk.b.device)}
    throughputs = []
    for failed in (set(), spine_links):
        net = Network(load_state(doc), failed)
        flows = alltoall(net, nodes_of(net, [doc_row(net, f"gpu-{i}") for i in range(8)], 1),
                         channels_per_peer=1, qps=1, pxn=False)
        a, b = doc_row(net, "leaf-a"), doc_row(net, "leaf-b")
        crossing = flows.take(np.flatnonzero((flows.src == a) & (flows.dst == b)))
        allocation, _routed, _incidence = allocate(net, crossing, np.full(net.n_devices, SPRAY),
                                                   np.random.default_rng(0))
        throughputs.append(float(crossing.n @ allocation.rates))
    intact, broken = (networkx_cross_rail_maxflow(doc, set()),
                      networkx_cross_rail_maxflow(doc, spine_links))
    assert (intact, broken) == (1600.0, 1200.0)
    assert throughputs == [pytest.approx(intact), pytest.approx(broken)]
    assert throughputs[0] - throughputs[1] == pytest.approx(intact - broken)


def doc_row(net: Network, device_id: str) -> int:
    return net.state.store.dev_row[device_id]


# ---------------------------------------------------------------- published anchors
def test_inter_node_ring_bus_bandwidth_per_ndr_nic_is_46_to_48_gb_s(catalog):
    """nccl-tests issue 290, NVIDIA maintainer AddyLaddy (2025-03-03): "we suggest passing
    NCCL_ALGO=RING when benchmarking just two nodes ... For NDR @ 400Gbps you should see
    46-48GB/s per NIC."  Two DGX H100 of the superpod example, ring forced, 8 GB."""
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    wl_id = _set(doc, algorithm="ring")
    model = TrafficModel(doc)
    whole = model.job(wl_id)
    job = model.job(wl_id, message_bytes=8 * 2 ** 30, servers=whole.servers[:2])
    result = model.workload(wl_id, ("adaptive",), job=job)
    assert (result.algorithm, result.gpus, result.nodes) == ("ring", 16, 2)
    per_nic = result.modes["adaptive"].busbw_gbps / 8 / 8  # GB/s, 8 NICs per node
    assert per_nic == pytest.approx(46, rel=0.10) and per_nic == pytest.approx(48, rel=0.10)


def test_h100_eight_gpu_nvls_all_reduce_reaches_about_480_gb_s(catalog):
    """nccl-tests issue 212, NVIDIA maintainer sjeaugey (2024-05-06): "allreduce uses NVLink
    SHARP by default ... On 8 GPUs, you should reach a peak busBw of ~480GB/s (algbw ~275GB/s).
    You need to run on larger sizes though; 256M is too small"."""
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    (wl_id,) = doc.workloads
    model = TrafficModel(doc)
    job = model.job(wl_id, message_bytes=8 * 2 ** 30, servers=model.job(wl_id).servers[:1])
    result = model.workload(wl_id, ("ecmp",), job=job)
    assert (result.algorithm, result.gpus, result.nodes) == ("nvls", 8, 1)
    assert result.modes["ecmp"].busbw_gbps / 8 == pytest.approx(480, rel=0.10)


def test_cross_rail_flows_with_every_spine_down_cannot_complete(build):
    """Without PXN an all-to-all crosses rails; with the spines failed no path joins the rail
    leaves: the model says the collective cannot complete instead of a figure."""
    cross_rail(build, servers=4, spines=2)
    doc = build.doc
    spines = {lk.id for lk in doc.links.values()
              if any(end.device.startswith("spine") for end in (lk.a, lk.b))}
    model = TrafficModel(doc, TrafficParams(pxn=False, seeds=1), failed=spines)
    spray = model.workload("moe", ("spray",)).modes["spray"]
    assert spray.busbw_gbps == 0 and spray.time_ms is None
    assert any("find no path" in note for note in spray.notes)
