"""The scale-up domain in the collective model (analysis/scaleup.py), checked against what this
code did not write: an explicit ring schedule run chunk by chunk, nccl-tests measurements
(field-2026.md anchors), and the rail-only paper's all-to-all overhead (Wang et al., arXiv
2307.12169v5: "only 8.2% to 11.2% completion time overhead for all-to-all traffic")."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.analysis.scaleup import hierarchical_allreduce, rail_only_alltoall
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument

PAPER = (0.082, 0.112)  # Wang et al. v5: all-to-all completion-time overhead of rail-only


def _ring_bytes(gpus: int, message: float) -> float:
    """Bytes one GPU sends in a ring reduce-scatter + all-gather, by running the schedule on
    numbers: GPU g holds the vector v_g in `gpus` chunks; in reduce-scatter step s it sends
    chunk (g - s) mod G to g + 1, which adds it to its own; after G - 1 steps GPU g holds the
    sum of chunk (g + 1) mod G; the all-gather passes the sums round the ring the same way.
    Every GPU must end with the whole sum."""
    if gpus == 1:
        return 0.0
    rng = np.random.default_rng(gpus)
    values = rng.integers(0, 100, size=(gpus, gpus)).astype(float)  # [gpu, chunk]
    want = values.sum(axis=0)
    held = values.copy()
    sent = np.zeros(gpus)
    chunk = message / gpus
    for step in range(gpus - 1):  # reduce-scatter
        outgoing = [(g, (g - step) % gpus, held[g, (g - step) % gpus]) for g in range(gpus)]
        for g, c, value in outgoing:
            held[(g + 1) % gpus, c] += value
            sent[g] += chunk
    for g in range(gpus):
        assert held[g, (g + 1) % gpus] == want[(g + 1) % gpus]
    for step in range(gpus - 1):  # all-gather
        outgoing = [(g, (g + 1 - step) % gpus, held[g, (g + 1 - step) % gpus])
                    for g in range(gpus)]
        for g, c, value in outgoing:
            held[(g + 1) % gpus, c] = value
            sent[g] += chunk
    assert np.array_equal(held, np.tile(want, (gpus, 1)))
    assert np.allclose(sent, sent[0])
    return float(sent[0])


@pytest.mark.parametrize(("ranks", "domain", "nvlink", "network"),
                         [(144, 72, 7200, 800), (256, 8, 3600, 400), (72, 72, 7200, 800),
                          (64, 8, 3600, 200)])
def test_hierarchical_allreduce_moves_what_the_ring_schedules_move(ranks, domain, nvlink,
                                                                   network):
    """Inside a domain a GPU sends what a ring reduce-scatter + all-gather of the message over
    G GPUs sends; across domains, what the same ring over M domains sends of its 1/G shard."""
    size = 1e9
    estimate = hierarchical_allreduce(ranks, domain, nvlink, network, size)
    domains = ranks // domain
    inside = _ring_bytes(domain, size) * 8 / (nvlink * 1e9) * 1000
    across = (_ring_bytes(domains, size / domain) * 8 / (network * 1e9) * 1000
              if domains > 1 else 0.0)
    assert estimate.nvlink_ms == pytest.approx(inside)
    assert estimate.network_ms == pytest.approx(across)
    assert estimate.time_ms == pytest.approx(max(inside, across))
    assert estimate.domains == domains


def test_an_nvl72_all_reduce_is_paced_by_nvlink_and_a_dgx_su_by_its_nics():
    """GB300 NVL72 (72 GPUs on 7,200 Gb/s NVLink, 800G NICs): the network carries 1/72 of the
    message per NIC, so NVLink sets the pace by far.  A DGX H100 SU (32 x 8 GPUs, 3,600 Gb/s
    NVLink) at nccl-tests' 48 GB/s per NDR NIC (nccl-tests issue 290) is network-paced and
    takes the 5.2 ms for 1 GB of field-2026.md's hand check (busBW 384 GB/s per node)."""
    nvl72 = hierarchical_allreduce(2 * 72, 72, 7200, 800, 1e9)
    assert nvl72.bottleneck == "nvlink" and nvl72.nvlink_ms > 8 * nvl72.network_ms
    assert nvl72.time_ms == nvl72.nvlink_ms
    dgx = hierarchical_allreduce(32 * 8, 8, 3600, 48 * 8, 1024 * 2**20)
    assert dgx.bottleneck == "network"
    assert dgx.time_ms == pytest.approx(5.2, rel=0.05)


@pytest.mark.parametrize(("gpus", "nvlink_gbps", "measured_gbytes"), [
    (8, 3600, 370.0),  # H100 ring busBW ~370 GB/s (nccl-tests issue 212, field-2026.md)
    (4, 7200, 646.9),  # GB200 ring busBW 646.9 GB/s at 1 GB (Azure ND GB200 v6, field-2026.md)
])
def test_one_domain_bus_bandwidth_is_the_line_rate_nccl_tests_approach(gpus, nvlink_gbps,
                                                                       measured_gbytes):
    """In one domain the model's busBW is the NVLink line rate; the measured ring busBW is
    70-95 % of it (protocol efficiency, which the model does not count)."""
    estimate = hierarchical_allreduce(gpus, gpus, nvlink_gbps, 0.0, 1e9)
    assert estimate.network_ms == 0 and estimate.bus_gbps == pytest.approx(nvlink_gbps)
    assert 0.70 <= measured_gbytes * 8 / estimate.bus_gbps <= 0.95


def _forwarded_share(servers: int, rails: int) -> tuple[float, float]:
    """By enumeration of every (source GPU, destination GPU) pair of an all-to-all on a
    rail-only fabric: (bytes each GPU's NIC carries, bytes each GPU forwards over NVLink), per
    byte sent to every other GPU.  A pair on one server stays on NVLink (no NIC, no
    forwarding); a pair on another server and another rail goes source -> the source server's
    GPU of the destination's rail (NVLink) -> that rail's network."""
    nic = np.zeros((servers, rails))
    forward = np.zeros((servers, rails))
    for (s1, r1), (s2, r2) in itertools.permutations(itertools.product(range(servers),
                                                                       range(rails)), 2):
        if s1 == s2:
            continue
        if r1 != r2:
            forward[s1, r1] += 1
        nic[s1, r2] += 1  # the NIC of the rail the bytes cross
    assert np.allclose(nic, nic[0, 0]) and np.allclose(forward, forward[0, 0])
    return float(nic[0, 0]), float(forward[0, 0])


@pytest.mark.parametrize(("rails", "network", "nvlink"), [(8, 400, 3600), (8, 800, 7200)])
def test_rail_only_overhead_is_the_forwarded_share_and_in_the_papers_range(rails, network,
                                                                           nvlink):
    """The forwarding term against a pair-by-pair count of an all-to-all on 4 servers: the
    NVLink time of the forwarded bytes over the NIC time of the network bytes; DGX H100 (400G,
    NVLink 4) and DGX B300 (800G, NVLink 5) both land in the paper's 8.2-11.2 %."""
    nic, forward = _forwarded_share(4, rails)
    counted = (forward / nvlink) / (nic / network)
    term = rail_only_alltoall(rails, network, nvlink)
    assert term.overhead == pytest.approx(counted)
    assert PAPER[0] <= term.overhead <= PAPER[1]
    assert term.effective_gbps == pytest.approx(network / (1 + term.overhead))


@pytest.mark.parametrize(("server", "leaf", "planes"), [
    ("nvidia-dgx-h100", "nvidia-qm9700", 1), ("nvidia-dgx-b300", "nvidia-sn5610", 2)])
def test_a_rail_only_design_reports_the_forwarding_penalty(catalog, server, leaf, planes):
    """The workload metric of a generated rail-only design carries the term: its all-to-all is
    the rail-optimized design's divided by (1 + overhead), the overhead in the paper's range."""
    reports = {}
    for rail_only in (False, True):
        doc = FabricDocument(catalog)
        generate(doc, RailOptimizedParams(sus=2, server=server, leaf=leaf, planes=planes,
                                          rail_planes=rail_only, choose_media=False))
        (reports[rail_only],) = analyze(doc).metrics.workloads
    fat, rail = reports[False], reports[True]
    overhead = fat.alltoall_gbps_per_gpu / rail.alltoall_gbps_per_gpu - 1
    assert PAPER[0] <= overhead <= PAPER[1]
    assert any(a.startswith("rail-only all-to-all") and "+9.7% time" in a
               for a in rail.assumptions)
    assert not any(a.startswith("rail-only") for a in fat.assumptions)
