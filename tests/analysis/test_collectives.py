"""All-reduce time against NCCL's ring model and nccl-tests' definitions, NVLink domains from
the catalog, and the placement-aware vs best-case ring figures (issue 21)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DAC800, HGX, MMF, NIC_OPTIC, SN5600, TWIN_SR4

from aicnet_gui.analysis import analyze
from aicnet_gui.analysis.collectives import domain_count
from aicnet_gui.fileio.fabric_file import load_fabric

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


# NCCL's tuning model (NVIDIA/nccl src/graph/tuning.cc) by hand.  Constants quoted from
# ncclTunerConstantsDefaults: baseLatencies (us) Tree (6.8, 14, 8.4), Ring (6.6, 14, 8.4) for
# LL / LL128 / Simple; hwLatencies NVLINK Tree (0.6, 1.25, 4.0), Ring (0.6, 1.9, 3.4), NVLSTree
# Simple 25; NET Tree (5.0, 8.5, 14), Ring (2.7, 4.0, 14), NVLSTree Simple 20.9; Hopper
# perChMaxTreeBw (38.7, 41.4, 36.0), perChMaxNVLSTreeBw (0, 57.7, 45.5); nvlsEfficiency
# Hopper 0.85.  search.cc sm90SpeedArrayInter starts at 48 GB/s: an NDR NIC (400000 Mb/s /
# 8000 = 50 GB/s) carries one 48 GB/s channel, so a DGX H100 has 8 ring channels of 48 GB/s.
S_1G = 1.024e9  # the default 1024 MB message


def _nvls_tree_us(ranks: int, nodes: int, nbytes: float, share: float = 1.0) -> float:
    """NVLS tree on DGX H100 + NDR: 8 channels, bw min(48 x .85 x 7/8 x 2, 48, 45.5) = 45.5 per
    channel, bus 364 GB/s x ranks / (2 (ranks - 1)); latency NVLINK 25 + 2 log2(nodes) x 20.9."""
    algbw = 8 * min(48 * 0.85 * 7 / 8 * 2, 48, 45.5) * ranks / (2 * (ranks - 1))
    return 25 + 2 * (nodes.bit_length() - 1) * 20.9 + nbytes / (1000 * algbw * share)


def _busbw_gbps(nbytes: float, us: float, ranks: int) -> float:
    return nbytes * 8 / (us * 1e-6) / 1e9 * 2 * (ranks - 1) / ranks


def test_superpod_1su_all_reduce_is_what_nccl_picks_nvls_tree_not_the_ring(catalog):
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    (w,) = analyze(doc).metrics.workloads
    # 32 DGX H100 = N = 256 ranks in M = 32 NVLink domains (NCCL nodes) of 8.  NCCL's table:
    #   ring/Simple: bus 8 x 48 = 384 GB/s -> algBW 384 x 256/510; latency 8.4 + (510 - 62) x
    #     3.4 + 62 x 14 = 2399.6 us, x 1.4 ("plateau effect of ring") -> 8.67 ms in all
    #   tree/Simple: bus min(384 x .92, 8 x 36.0) = 288, algBW x .5 = 144; latency
    #     8.4 + 2 (7 x 4.0 + log2(32) x 14) = 204.4 us -> 7.32 ms
    #   NVLS tree/Simple (NVSwitch, Hopper): 5.84 ms, the fastest
    ring = 3359.44 + S_1G / (1000 * 384 * 256 / 510)
    tree = 204.4 + S_1G / (1000 * 144)
    nvls_tree = _nvls_tree_us(256, 32, S_1G)
    assert nvls_tree < tree < ring
    assert (w.gpus, w.domains, w.algorithm, w.protocol) == (256, 32, "nvls_tree", "Simple")
    assert w.allreduce_ms == pytest.approx(nvls_tree / 1000, abs=1e-4)
    assert w.allreduce_nccl_ms == w.allreduce_ms  # a 1:1 fabric delivers every NIC's rate
    assert w.allreduce_bus_gbps == pytest.approx(_busbw_gbps(S_1G, nvls_tree, 256), abs=1e-2)
    assert w.to_json()["allreduce"]["algorithm"] == "nvls_tree"
    assert any("NCCL NVLSTree/Simple over 32 NVLink domain(s) of 8 GPUs" in a
               for a in w.assumptions)


def test_4096_gpus_run_nvls_tree_in_6_ms_where_the_ring_takes_60(catalog):
    """Issue 35: at 4,096 GPUs the ring's 2 (N-1) steps cost more than its bandwidth saves.
    (The issue quoted the ring at 14.5 ms and the tree at ~5 ms from aicnet's old formulas;
    NCCL's own model says: the ring 24.7 ms at its best protocol, LL128 (59.5 ms with Simple),
    the NVLS tree 6.03 ms.)"""
    from aicnet_gui.analysis.collectives import allreduce
    from aicnet_gui.analysis.nccl_tuning import NcclSystem

    system = NcclSystem(4096, 512, 8, 400, "hopper", 18, nvswitch=True)
    est = allreduce(system, S_1G)
    # ring: 8.4 + (8190 - 1022) x 3.4 + 1022 x 14 = 38,688 us x 1.4 + 1.024e9 / (1000 x 192.05)
    ring_us = (8.4 + 7168 * 3.4 + 1022 * 14) * 1.4 + S_1G / (1000 * 384 * 4096 / 8190)
    assert ring_us / 1000 == pytest.approx(59.5, abs=0.5)
    assert est.algorithm == "nvls_tree"
    assert est.time_ms == pytest.approx(_nvls_tree_us(4096, 512, S_1G) / 1000, abs=1e-4)
    ringed = allreduce(system, S_1G, "ring")
    assert (ringed.algorithm, ringed.protocol) == ("ring", "LL128")
    assert ringed.time_ms == pytest.approx(24.7, abs=0.05) and ringed.time_ms > 4 * est.time_ms


def test_small_hgx_example_runs_the_ring_on_four_nodes(catalog):
    doc = load_fabric(EXAMPLES / "small-hgx.fabric", catalog)
    (w,) = analyze(doc).metrics.workloads
    assert (w.gpus, w.domains) == (32, 4)
    # GPU architecture not in the catalog (a generic HGX): NCCL's generic arrays and Ampere
    # constants; 8 channels of 48 GB/s doubled to 16 of 24 (ncclTopoDupChannels), bus 384 GB/s.
    #   ring/Simple: algBW 384 x 32/62; latency (8.4 + 56 x 3.4 + 6 x 14) x 1.4 = 395.92 us
    #   tree/Simple: bus min(384 x .92, 16 x 17.8) = 284.8, /2; 8.4 + 2 (7 x 4 + 2 x 14) us
    ring = (8.4 + 56 * 3.4 + 6 * 14) * 1.4 + S_1G / (1000 * 384 * 32 / 62)
    tree = 8.4 + 2 * (7 * 4 + 2 * 14) + S_1G / (1000 * 284.8 / 2)
    assert ring < tree
    assert (w.algorithm, w.protocol) == ("ring", "Simple")
    assert w.allreduce_ms == pytest.approx(ring / 1000, abs=1e-4)
    assert any("NCCL Ring/Simple over 4 NVLink domain(s) of 8 GPUs" in a for a in w.assumptions)
    assert any("GPU architecture not in the catalog" in a for a in w.assumptions)


def test_nvlink_domains_come_from_the_catalog():
    assert domain_count([(8, 8)] * 32) == 32  # HGX / DGX: one domain per server
    assert domain_count([(8, None)] * 3) == 3  # unknown: the server's own GPUs
    assert domain_count([(4, 72)] * 18) == 1  # one GB200 NVL72 rack of 18 trays
    assert domain_count([(4, 72)] * 19) == 2  # a partial second rack is a domain
    assert domain_count([]) == 0


def test_a_workload_inside_one_nvlink_domain_has_no_fabric_time(build):
    build.rack("r1")
    build.dev("leaf-1", SN5600, rack="r1", ru=40, optics={c: TWIN_SR4 for c in range(1, 5)})
    build.dev("gpu-1", HGX, rack="r1", ru=1, optics={c: NIC_OPTIC for c in range(1, 9)})
    for r in range(8):
        build.link(f"s{r}", "gpu-1", f"p{r + 1}", "leaf-1", f"swp{r // 2 + 1}s{r % 2}", cable=MMF)
    build.workload("one", ["gpu-1"])
    (w,) = analyze(build.doc).metrics.workloads
    assert (w.gpus, w.domains, w.allreduce_ms) == (8, 1, None)
    assert any("one NVLink domain" in a for a in w.assumptions)


def four_to_one(build, placement: str, target: float | None = None):
    """8 HGX servers, 4 per SN5600 leaf (32 x 400G down), each leaf 8 x 400G up to two spines
    (4:1): a variant of the small-hgx example with twice the servers and half the uplinks."""
    build.rack("rn", x=0.0)
    build.rack("rc", x=0.6)
    build.rack("rd", x=1.2)
    for s in (1, 2):
        build.dev(f"spine-{s}", SN5600, rack="rn", ru=38 + 2 * s, role="spine")
    for leaf in (1, 2):
        build.dev(f"leaf-{leaf}", SN5600, rack="rn", ru=32 + 2 * leaf,
                  optics={c: TWIN_SR4 for c in range(1, 17)})
    for n in range(8):
        leaf, slot = 1 + n // 4, n % 4
        build.dev(f"gpu-{n}", HGX, rack="rc" if n < 4 else "rd", ru=1 + 8 * slot,
                  optics={c: NIC_OPTIC for c in range(1, 9)})
        for r in range(8):
            port = 8 * slot + r
            build.link(f"s{n}{r}", f"gpu-{n}", f"p{r + 1}", f"leaf-{leaf}",
                       f"swp{port // 2 + 1}s{port % 2}", cable=MMF)
    for leaf in (1, 2):
        for k in range(8):
            j = k // 2
            build.link(f"u{leaf}{k}", f"leaf-{leaf}", f"swp{33 + j}s{k % 2}", f"spine-{1 + j % 2}",
                       f"swp{1 + (leaf - 1) * 8 + j // 2}s{k % 2}", cable=DAC800,
                       assembly=f"d{leaf}-{j}")
    build.workload("train", [f"gpu-{n}" for n in range(8)], placement=placement,
                   target_gbps_per_gpu=target)
    return analyze(build.doc)


def test_a_4_to_1_leaf_shows_the_scattered_ring_figure_next_to_the_best_case(build):
    report = four_to_one(build, "topology-aware", target=400)
    (w,) = report.metrics.workloads
    # per rail C = 8 NICs, c = 4 per leaf; up = 8 x 400 = 3200 Gb/s per leaf
    # topology order: one of the leaf's 4 ring streams per rail leaves: D = 8 x 1600 / 4 = 3200
    assert w.ring_gbps_per_gpu == 400 and w.per_gpu_gbps == 400
    # scattered: a neighbour is off-leaf with (8-4)/(8-1) = 4/7: D = 12800 x 4/7 = 7314.3,
    # phi = 3200 / 7314.3 = 0.4375 -> 175 Gb/s per GPU
    assert w.ring_scattered_gbps_per_gpu == 175
    assert w.placement == "topology-aware"
    assert any("topology order (best case)" in a for a in w.assumptions)
    assert not report.by_code("WORKLOAD-BANDWIDTH")
    as_json = w.to_json()
    assert as_json["ring_allreduce_scattered_gbps_per_gpu"] == 175
    assert as_json["assumptions"] == list(w.assumptions)


def test_a_workload_that_says_its_ranks_are_scattered_gets_the_oversubscribed_figure(build):
    report = four_to_one(build, "scattered", target=400)
    (w,) = report.metrics.workloads
    assert w.per_gpu_gbps == 175 and w.ring_gbps_per_gpu == 400
    assert (w.bottleneck_tier, w.bottleneck_name) == ("leaf", "leaf-1")
    # NCCL picks the ring on its own table (it does not know the fabric): 8 nodes x 8 GPUs,
    # generic arrays, 16 channels x 24 GB/s = 384 GB/s bus; latency (8.4 + 112 x 3.4 + 14 x 14)
    # x 1.4 us.  The network part then runs at the fabric's 175 / 400 of the NICs' rate.
    algbw = 384 * 64 / 126
    nccl_us = (8.4 + 112 * 3.4 + 14 * 14) * 1.4 + 1.024e9 / (1000 * algbw)
    actual_us = (8.4 + 112 * 3.4 + 14 * 14) * 1.4 + 1.024e9 / (1000 * algbw * 175 / 400)
    assert (w.algorithm, w.protocol) == ("ring", "Simple")
    assert w.allreduce_nccl_ms == pytest.approx(nccl_us / 1000, abs=1e-4)
    assert w.allreduce_ms == pytest.approx(actual_us / 1000, abs=1e-4)
    assert any("network part at 44% of the NICs' rate" in a for a in w.assumptions)
    (finding,) = report.by_code("WORKLOAD-BANDWIDTH")
    assert "175 Gb/s" in finding.message
    assert any("scattered" in a for a in w.assumptions)


def _with_algorithm(name: str, algorithm: str, catalog):
    from aicnet_gui.model.edits import UpdateWorkload

    doc = load_fabric(EXAMPLES / name, catalog)
    (workload,) = doc.workloads.values()
    doc.apply([UpdateWorkload(workload.id, {"algorithm": algorithm})])
    (w,) = analyze(doc).metrics.workloads
    return w


def test_ib_sharp_runs_collnet_chain_on_the_superpod(catalog):
    w = _with_algorithm("superpod-1su.fabric", "collnet", catalog)
    # CollNet (IB SHARP: InfiniBand, NVSwitch): Chain: bus 8 x 48 = 384 GB/s x .5 = 192;
    # latency 2 x (8 - 1) x 2.8 (NVLINK CollNetChain) + 30 (NET) = 69.2 us -> 5.4025 ms.
    # Direct: 384 x .85 x .5 = 163.2 GB/s, 2 (3.7 + 7 x 0.4) + 31 = 44 us -> 6.318 ms: slower.
    chain = 69.2 + 1.024e9 / (1000 * 192)
    direct = 44 + 1.024e9 / (1000 * 163.2)
    assert chain < direct
    assert (w.gpus, w.domains, w.algorithm) == (256, 32, "collnet_chain")
    assert w.allreduce_ms == pytest.approx(chain / 1000, abs=1e-4)
    # nccl-tests' busBW = algBW x 2(n-1)/n: above the node's 3200 Gb/s NIC total with SHARP
    assert w.allreduce_bus_gbps == pytest.approx(_busbw_gbps(1.024e9, chain, 256), abs=1e-2)
    assert 3000 < w.allreduce_bus_gbps < 3100
    assert w.to_json()["allreduce"]["algorithm"] == "collnet_chain"


def test_nvls_tree_and_ring_forced_on_the_superpod(catalog):
    nvls = _with_algorithm("superpod-1su.fabric", "nvls", catalog)
    # NVLS + IB SHARP across nodes: bw min(48 x .85 x 7/8 x 2, 48) = 48 per channel, bus 384 x
    # 256/510; latency 25 (NVLINK NVLS) + 18 (NET NVLS) = 43 us
    assert nvls.algorithm == "nvls"
    assert nvls.allreduce_ms == pytest.approx((43 + 1.024e9 / (1000 * 384 * 256 / 510)) / 1000,
                                              abs=1e-4)
    tree = _with_algorithm("superpod-1su.fabric", "tree", catalog)
    assert tree.algorithm == "tree"
    assert tree.allreduce_ms == pytest.approx((204.4 + 1.024e9 / (1000 * 144)) / 1000, abs=1e-4)
    ring = _with_algorithm("superpod-1su.fabric", "ring", catalog)
    # NCCL_ALGO=RING: LL128 beats Simple at 1 GB: bus min(384 x .92, 8 x 36.7) x 256/510;
    # latency 14 + 448 x 1.9 + 62 x 4.0 = 1113.2 us (no plateau factor: Simple only)
    assert (ring.algorithm, ring.protocol) == ("ring", "LL128")
    assert ring.allreduce_ms == pytest.approx(
        (1113.2 + 1.024e9 / (1000 * 293.6 * 256 / 510)) / 1000, abs=1e-4)


def test_sharp_on_a_rocev2_fabric_falls_back_to_nccls_choice_and_says_why(catalog):
    w = _with_algorithm("small-hgx.fabric", "collnet", catalog)
    auto = _with_algorithm("small-hgx.fabric", "auto", catalog)
    assert w.algorithm == auto.algorithm == "ring"
    assert w.allreduce_ms == auto.allreduce_ms
    assert any("IB SHARP needs an InfiniBand fabric" in a and "rocev2" in a for a in w.assumptions)


def test_the_all_reduce_waits_for_the_server_with_the_least_nic_bandwidth(catalog):
    """superpod-1su with one NIC cable of gpu-001 unplugged: gpu-001's 8 GPUs share
    7 x 400 Gb/s = 350 Gb/s each, and every step of the collective waits for it: NCCL still
    picks the NVLS tree (it does not see the cable), whose network part runs at 350 / 400."""
    from aicnet_gui.model.edits import RemoveLink

    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    (cable,) = [i for i, lk in doc.links.items() if ("gpu-001", "p8") in (lk.a, lk.b)]
    doc.apply([RemoveLink(cable)])
    (w,) = analyze(doc).metrics.workloads
    assert w.injection_gbps_per_gpu == pytest.approx(398.4375, abs=1e-3)
    assert (w.slowest_server, w.slowest_gbps_per_gpu) == ("gpu-001", 350.0)
    assert w.algorithm == "nvls_tree"
    assert w.allreduce_ms == pytest.approx(_nvls_tree_us(256, 32, 1.024e9, 350 / 400) / 1000,
                                           abs=1e-4)
    assert any("paced by the slowest member server (350 Gb/s per GPU, below the ring's 398.4"
               in a for a in w.assumptions)
    assert w.to_json()["allreduce"]["paced_by"] == {"server": "gpu-001", "gbps_per_gpu": 350.0}


def test_an_intact_design_is_paced_by_nobody(catalog):
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    (w,) = analyze(doc).metrics.workloads
    assert w.slowest_server is None and w.to_json()["allreduce"]["paced_by"] is None


def test_a_server_short_of_a_nic_does_not_pace_a_ring_the_fabric_holds_slower(build):
    """4:1 leaves with scattered ranks: the ring gets 175 Gb/s per GPU through the fabric.
    gpu-0 without one of its 8 NICs still gives its GPUs 7 x 400 / 8 = 350 Gb/s, faster than
    the fabric's 175: the fabric sets the pace, and the estimate stays the 175 one (the slower
    of the two, never their product: 175 x 350 / 393.75 would have claimed 155.6)."""
    from aicnet_gui.model.edits import RemoveLink

    report = four_to_one(build, "scattered")
    (before,) = report.metrics.workloads
    build.doc.apply([RemoveLink("s00")])
    (w,) = analyze(build.doc).metrics.workloads
    assert w.injection_gbps_per_gpu == pytest.approx(393.75)
    assert w.ring_scattered_gbps_per_gpu == pytest.approx(175, abs=1.0)
    assert w.slowest_server is None
    # the pace stays the fabric's 175 of NCCL's 400 per GPU: the same time as before
    assert w.allreduce_ms == pytest.approx(before.allreduce_ms, abs=1e-4)
