"""All-reduce time against NCCL's ring model and nccl-tests' definitions, NVLink domains from
the catalog, and the placement-aware vs best-case ring figures (issue 21)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DAC800, HGX, MMF, NIC_OPTIC, SN5600, TWIN_SR4

from aicnet_gui.analysis import analyze
from aicnet_gui.analysis.collectives import bus_bandwidth, domain_count, ring_allreduce
from aicnet_gui.fileio.fabric_file import load_fabric

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_superpod_1su_allreduce_is_about_5_ms_and_its_bus_bandwidth_is_the_node_nic_total(catalog):
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    (w,) = analyze(doc).metrics.workloads
    # 32 DGX H100 = N = 256 ranks in M = 32 NVLink domains of G = 8; 8 x 400G NICs per node,
    # 1:1 fabric: B_domain = 8 x 400 Gb/s = 3200 Gb/s = 400e9 B/s.  S = 1024 MB = 1.024e9 B.
    #   bandwidth: 2 (N-1)/N x S / B_domain = 2 x 255/256 x 1.024e9 / 400e9 s = 5.1000 ms
    #   latency (NCCL ring, tuning.cc): 2 (M-1) = 62 network steps x 5 us (InfiniBand)
    #            + (2 (N-1) - 62) = 448 NVLink steps x 0.6 us = 0.3100 + 0.2688 ms
    #   T = 5.6788 ms  (the per-GPU-over-the-network model said 43.35 ms)
    assert (w.gpus, w.domains) == (256, 32)
    assert w.allreduce_ms == pytest.approx(5.1 + 0.31 + 0.2688, abs=1e-4)
    # nccl-tests: algBW = S / T, busBW = algBW x 2 (n-1)/n
    alg_gbps = 1.024e9 * 8 / (w.allreduce_ms * 1e-3) / 1e9
    assert w.allreduce_bus_gbps == pytest.approx(alg_gbps * 2 * 255 / 256, abs=1e-3)
    # without the latency term busBW is exactly the node's NIC total, 8 x 400 Gb/s
    bandwidth_only = ring_allreduce(256, 32, 400.0, 1.024e9, net_step_us=0.0)
    transfer_ms = 2 * 255 / 256 * 1.024e9 / 400e9 * 1e3
    assert bandwidth_only.time_ms == pytest.approx(transfer_ms + 448 * 0.6e-3, abs=1e-4)
    assert bus_bandwidth(1.024e9 * 8 / (transfer_ms * 1e-3) / 1e9, 256) == pytest.approx(3200)


def test_small_hgx_example_allreduce_counts_only_the_inter_node_steps_as_network(catalog):
    doc = load_fabric(EXAMPLES / "small-hgx.fabric", catalog)
    (w,) = analyze(doc).metrics.workloads
    assert (w.gpus, w.domains) == (32, 4)
    # RoCEv2 (8 us): 2 x 31/32 x 1.024e9 / 400e9 = 4.96 ms; 6 x 8 us + 56 x 0.6 us = 0.0816 ms
    assert w.allreduce_ms == pytest.approx(4.96 + 0.0816, abs=1e-4)
    assert any("NCCL ring over 4 NVLink domain(s) of 8 GPUs" in a for a in w.assumptions)


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
    # 8 domains of 8 GPUs at 175 Gb/s each: B_domain = 1400 Gb/s = 175e9 B/s
    transfer_ms = 2 * 63 / 64 * 1.024e9 / 175e9 * 1e3
    latency_ms = (14 * 8 + (126 - 14) * 0.6) * 1e-3  # RoCEv2: 8 us per network step
    assert w.allreduce_ms == pytest.approx(transfer_ms + latency_ms, abs=1e-4)
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


def test_ib_sharp_sends_each_byte_once_up_the_tree_instead_of_the_rings_2_n_1_over_n(catalog):
    w = _with_algorithm("superpod-1su.fabric", "collnet", catalog)
    # N = 256, M = 32, G = 8, B_domain = 8 x 400 Gb/s = 400e9 B/s, S = 1.024e9 B (InfiniBand)
    #   bandwidth: each domain's NICs send S once up the SHARP tree, receive the result once:
    #              S / B_domain = 1.024e9 / 400e9 s = 2.5600 ms   (ring: 2 x 255/256 x ... = 5.1 ms)
    #   latency (NCCL tuning.cc, CollNet Direct): 2 (min(1, G-1) x 0.6 + (G-1) x 0.4) + 5 us
    #            = 2 (0.6 + 2.8) + 5 = 11.8 us
    #   T = 2.5718 ms against the ring's 5.6788 ms
    assert (w.gpus, w.domains, w.algorithm) == (256, 32, "collnet")
    assert w.allreduce_ms == pytest.approx(2.56 + 0.0118, abs=1e-4)
    # nccl-tests' busBW = algBW x 2(n-1)/n: about twice the node's 3200 Gb/s NIC total
    alg_gbps = 1.024e9 * 8 / (w.allreduce_ms * 1e-3) / 1e9
    assert w.allreduce_bus_gbps == pytest.approx(alg_gbps * 2 * 255 / 256, abs=1e-3)
    assert 6300 < w.allreduce_bus_gbps < 6400
    assert any("IB SHARP (NCCL CollNet)" in a for a in w.assumptions)
    assert w.to_json()["allreduce"]["algorithm"] == "collnet"


def test_nvls_and_tree_on_the_superpod(catalog):
    nvls = _with_algorithm("superpod-1su.fabric", "nvls", catalog)
    # NVLS + IB SHARP: the same S / B_domain = 2.56 ms; latency 0.6 us (NVLink) + 5 us (one
    # network step)
    assert nvls.allreduce_ms == pytest.approx(2.56 + 0.0056, abs=1e-4)
    tree = _with_algorithm("superpod-1su.fabric", "tree", catalog)
    # double binary tree: NCCL rates it at half its bus bandwidth: 2 S / B_domain = 5.12 ms;
    # latency 2 ((G-1) x 0.6 + log2(32) x 5) = 2 (4.2 + 25) = 58.4 us: T = 5.1784 ms, no
    # bandwidth gain over the ring (5.1 ms of transfer), only fewer network steps
    assert tree.allreduce_ms == pytest.approx(5.12 + 0.0584, abs=1e-4)
    assert tree.algorithm == "tree"


def test_sharp_on_a_rocev2_fabric_falls_back_to_the_ring_and_says_why(catalog):
    w = _with_algorithm("small-hgx.fabric", "collnet", catalog)
    assert w.algorithm == "ring"
    assert w.allreduce_ms == pytest.approx(4.96 + 0.0816, abs=1e-4)  # the ring figure above
    assert any("IB SHARP needs an InfiniBand fabric" in a and "rocev2" in a for a in w.assumptions)


def test_the_all_reduce_waits_for_the_server_with_the_least_nic_bandwidth(catalog):
    """superpod-1su with one NIC cable of gpu-001 unplugged: the mean injection is
    (255 x 400) / 256 = 398.4 Gb/s per GPU, but every ring step waits for gpu-001, whose 8 GPUs
    share 7 x 400 Gb/s = 350 Gb/s each: the estimate is the one of 350 Gb/s per GPU,
    2 x 255/256 x 1.024e9 B / (8 x 350e9 / 8 B/s) = 5.8286 ms + 0.31 + 0.2688 ms = 6.4074 ms
    (the mean's 398.4 Gb/s gave 5.69 ms), and the assumptions say who paces it."""
    from aicnet_gui.model.edits import RemoveLink

    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    (cable,) = [i for i, lk in doc.links.items() if ("gpu-001", "p8") in (lk.a, lk.b)]
    doc.apply([RemoveLink(cable)])
    (w,) = analyze(doc).metrics.workloads
    assert w.injection_gbps_per_gpu == pytest.approx(398.4375, abs=1e-3)
    assert (w.slowest_server, w.slowest_gbps_per_gpu) == ("gpu-001", 350.0)
    assert w.allreduce_ms == pytest.approx(2 * 255 / 256 * 1.024e9 / 350e9 * 1e3 + 0.31 + 0.2688,
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
    transfer_ms = 2 * 63 / 64 * 1.024e9 / (w.ring_scattered_gbps_per_gpu * 1e9 / 8) / 8 * 1e3
    assert w.allreduce_ms == pytest.approx(transfer_ms + (14 * 8 + 112 * 0.6) * 1e-3, abs=1e-3)
    assert before.allreduce_ms <= w.allreduce_ms
