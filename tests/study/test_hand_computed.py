"""Two candidates worked out by hand: 64 DGX H100 on QM9700 (InfiniBand) at 1:1, and the same
on SN5600 (RoCEv2), priced from the test price list (made-up round numbers: data/README.md).

The port counts are the catalog's, from the vendors' documents (shared/reference/hardware.md):
a DGX H100 has 8 compute NICs at 400G in 4 twin-port OSFP cages (DGX H100 User Guide); a
QM9700 has 32 OSFP cages of 2 x 400G = 64 ports (R14/R15); an SN5600 has 64 OSFP cages of
2 x 400G = 128 ports (R17).  NVIDIA's DGX SuperPOD H100 RA (R1) builds 2 SUs of 32 nodes on
QM9700 with 16 leaves (one per rail per SU, 32 ports down and 32 up) and 8 spines carrying 512
leaf-spine cables; its count table removes one node for UFM, this study does not.
"""

from __future__ import annotations

import math

import pytest

from aicnet_gui.model.fabric import Requirement
from aicnet_gui.study import Study, run_study

from .conftest import TEST_PRICES

# the test price list (USD): server, switches, optics; every MFP7E10 stock length its own price
DGX, QM9700, SN5600 = 300_000, 30_000, 40_000
NS, NS_FLT, NS_T = 1_000, 900, 1_100
MFP7E10 = {3: 30, 5: 50, 7: 70, 10: 100, 15: 150, 20: 200, 30: 300}
SPARES = 0.05  # the project's default spares: 5 % of each optic and each cable length, rounded up


def spares(n: int) -> int:
    return math.ceil(n * SPARES - 1e-9)


@pytest.fixture(scope="module")
def pair(catalog, tmp_path_factory):
    requirement = Requirement(servers=64, leaves=["nvidia-qm9700", "nvidia-sn5600"],
                              technologies=["infiniband", "rocev2"])
    study = Study.prepare(requirement, catalog, prices=TEST_PRICES)
    result = run_study(study, tmp_path_factory.mktemp("hand"), workers=0)
    by_name = {c.name: c for c in result.candidates}
    return by_name


def _cable_cost(cables: dict[str, int]) -> int:
    """Each MFP7E10 length ordered with its own spares (the lengths are the rack placement's)."""
    total = 0
    for key, n in cables.items():
        part, length = key.split("@")
        assert part == "nvidia-mfp7e10"
        total += (n + spares(n)) * MFP7E10[int(float(length))]
    return total


def test_qm9700_at_1_to_1(pair):
    c = pair["infiniband-qm9700"]
    assert c.feasible and pair["infiniband-sn5600"].reason  # SN5600 runs no InfiniBand
    m = c.metrics
    # 64 servers x 8 NICs = 512 NIC ports; a 1:1 leaf has 32 down: 512 / 32 = 16 leaves (8 rails
    # x 2 SUs); 16 leaves x 32 up = 512 uplinks over 64-port spines = 8 spines, 4 per pair
    assert m.switches == {"leaf": {"nvidia-qm9700": 16}, "spine": {"nvidia-qm9700": 8},
                          "core": {}}
    # one twin-port optic per cage: every cage of the 24 switches (32 each) holds a finned
    # MMA4Z00-NS = 768; each server's 4 compute cages a flat-top MMA4Z00-NS-FLT = 256
    assert m.optics == {"nvidia-mma4z00-ns": 768, "nvidia-mma4z00-ns-flt": 256}
    # one straight MPO fibre per link: 512 server-leaf + 512 leaf-spine
    assert sum(m.cables.values()) == 1024 and m.cables_by_type == {"fibre": 1024}
    assert m.links == 1024
    # devices are not spared; 768 optics + 39 spares (38.4 up), 256 + 13 (12.8 up)
    by_hand = (64 * DGX + 24 * QM9700 + (768 + 39) * NS + (256 + 13) * NS_FLT
               + _cable_cost(m.cables))
    assert by_hand == 19_200_000 + 720_000 + 807_000 + 242_100 + _cable_cost(m.cables)
    assert m.cost == by_hand and m.currency == "USD" and not m.cost_incomplete
    assert m.bisection_gbps == 256 * 400  # half the 512 NICs at 400G, the fabric is 1:1
    assert m.oversubscription == 1.0 and m.tiers == 2 and m.technology == "infiniband"


def test_sn5600_rocev2_at_1_to_1(pair):
    c = pair["rocev2-sn5600"]
    assert c.feasible and pair["rocev2-qm9700"].reason  # QM9700 runs no Ethernet
    m = c.metrics
    # 512 NIC ports / 64 down ports of a 1:1 SN5600 leaf = 8 leaves (one per rail, all 64
    # servers under each); 8 x 64 = 512 uplinks over 128-port spines = 4 spines, 16 per pair
    assert m.switches == {"leaf": {"nvidia-sn5600": 8}, "spine": {"nvidia-sn5600": 4},
                          "core": {}}
    # 12 switches x 64 cages = 768 Ethernet twin-port MMA4Z00-NS-T (the Spectrum-4 part);
    # the servers' 256 compute cages take the flat-top MMA4Z00-NS-FLT as on InfiniBand
    assert m.optics == {"nvidia-mma4z00-ns-t": 768, "nvidia-mma4z00-ns-flt": 256}
    assert sum(m.cables.values()) == 1024 and m.cables_by_type == {"fibre": 1024}
    by_hand = (64 * DGX + 12 * SN5600 + (768 + 39) * NS_T + (256 + 13) * NS_FLT
               + _cable_cost(m.cables))
    assert by_hand == 19_200_000 + 480_000 + 887_700 + 242_100 + _cable_cost(m.cables)
    assert m.cost == by_hand and m.technology == "rocev2"
    # fewer, bigger switches: 12 x 2U against 24 x 1U, the same RU for the switches
    assert m.rack_units == pair["infiniband-qm9700"].metrics.rack_units


def test_infiniband_and_rocev2_run_the_same_all_reduce_nccl_predicts(pair):
    """The same 64 DGX H100 (8 x 400G ConnectX-7) on either fabric: NCCL's own model gives one
    time.  Its NET latency has no InfiniBand / RoCE entry (tuning.cc hwLatencies[NCCL_HW_NET]
    plus the NIC's reported latency, which the IB verbs plugin sets to 0 "Not set" on both link
    layers: src/transport/net_ib/init.cc), the NICs' rate is the same, and both 1:1 fabrics
    carry it (rail-aligned, 0 % lost under ECMP and adaptive routing alike).  An older
    screenshot's IB 5.68 ms / RoCE 5.86 ms came from aicnet's former per-step latency guess
    (5 us IB, 8 us RoCE, 15 us Ethernet, no source), replaced by NCCL's model."""
    # 512 ranks in 64 NVLink domains: NCCL picks the NVLS tree (Simple).  Per channel
    # min(48 x .85 x 7/8 x 2, 48, 45.5) = 45.5 GB/s, 8 channels: bus 364 GB/s, algBW
    # 364 x 512 / 1022; latency NVLINK 25 + 2 log2(64) x NET 20.9 = 275.8 us
    by_hand_ms = (25 + 2 * 6 * 20.9 + 1.024e9 / (1000 * 364 * 512 / 1022)) / 1000
    assert by_hand_ms == pytest.approx(5.8912, abs=1e-4)
    # the traffic model's static ECMP, and the fabric's own mode where it is another (the IB
    # fabric's adaptive routing; the RoCEv2 one runs ECMP): the fabric loses nothing
    for name, modes in (("infiniband-qm9700", ["ecmp", "adaptive"]), ("rocev2-sn5600", ["ecmp"])):
        (w,) = pair[name].metrics.workloads
        assert (w.gpus, w.algorithm) == (512, "nvls_tree")
        assert w.allreduce_ms == pytest.approx(by_hand_ms, abs=1e-4), name
        assert [e.model.split(" ")[1] for e in w.estimates[1:]] == modes
        assert [e.allreduce_ms for e in w.estimates] == [w.allreduce_ms] * (1 + len(modes))
