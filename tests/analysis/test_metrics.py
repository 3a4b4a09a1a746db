"""Metrics computed by hand: oversubscription, reach and ordered length, breakouts, bandwidth per
workload (both patterns, bottleneck, bisection, all-reduce time)."""

from __future__ import annotations

import pytest
from conftest import DAC800, HGX, MMF, NIC_OPTIC, SN5600, TWIN_SR4, two_leaf_fabric

from aicnet_gui.analysis import analyze
from tests.graph_oracle import bisection_maxflow, components, hops, path_diversity


def codes(report):
    return sorted({f.code for f in report.findings})


def test_leaf_with_32x400_down_and_16x400_up_is_2_to_1_and_warns_under_training(build):
    # 4 servers x 8 NICs = 32 x 400G on one leaf; 8 twin-port 800G DACs = 16 x 400G up
    doc = build.doc
    build.rack("r1")
    build.dev("spine-1", SN5600, rack="r1", ru=40, role="spine")
    build.dev("leaf-1", SN5600, rack="r1", ru=36, optics={c: TWIN_SR4 for c in range(1, 17)})
    for n in range(4):
        build.dev(f"gpu-{n}", HGX, rack="r1", ru=1 + 8 * n, optics={c: NIC_OPTIC for c in range(1, 9)})
        for r in range(8):
            port = 8 * n + r
            build.link(f"s{n}{r}", f"gpu-{n}", f"p{r + 1}", "leaf-1",
                       f"swp{port // 2 + 1}s{port % 2}", cable=MMF)
    for k in range(16):
        build.link(f"u{k}", "leaf-1", f"swp{33 + k // 2}s{k % 2}", "spine-1",
                   f"swp{1 + k // 2}s{k % 2}", cable=DAC800, assembly=f"dac{k // 2}")
    build.workload("train", [f"gpu-{n}" for n in range(4)])
    report = analyze(doc)
    over = report.metrics.oversubscription
    assert over.switches == {"leaf-1": 2.0}
    assert over.tiers == {"leaf": 2.0}
    assert over.effective == 2.0 and over.worst == ("leaf-1", 2.0)
    found = [f for f in report.by_code("OVERSUBSCRIBED") if f.objects == ("leaf-1",)]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "12.8 Tb/s down and 6.4 Tb/s up is 2:1" in found[0].message
    assert "1:1 target for training" in found[0].message


def test_a_lone_leaf_is_the_top_tier_and_a_leaf_cut_off_from_the_spines_is_not(build):
    build.rack("r1")
    build.dev("leaf-1", SN5600, rack="r1", ru=36)
    build.dev("gpu-1", HGX, rack="r1", ru=1, optics={c: NIC_OPTIC for c in range(1, 9)})
    build.link("s1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF)
    report = analyze(build.doc)
    assert report.metrics.oversubscription.switches == {}  # nothing to flag, no finding either
    assert not report.by_code("LEAF-NO-UPLINK") and not report.by_code("OVERSUBSCRIBED")
    build.dev("spine-1", SN5600, rack="r1", ru=40, role="spine")
    report = analyze(build.doc)
    assert report.metrics.oversubscription.switches == {"leaf-1": None}
    assert [f.objects for f in report.by_code("LEAF-NO-UPLINK")] == [("leaf-1",)]


def test_leaves_forming_islands_are_listed_and_an_uncabled_core_changes_nothing(build):
    build.rack("r1")
    for n in (1, 2):
        build.dev(f"leaf-{n}", SN5600, rack="r1", ru=30 + 2 * n)
        build.dev(f"gpu-{n}", HGX, rack="r1", ru=1 + 8 * n, optics={c: NIC_OPTIC for c in range(1, 9)})
        build.link(f"s{n}", f"gpu-{n}", "p1", f"leaf-{n}", "swp1s0", cable=MMF)
    report = analyze(build.doc)
    assert report.metrics.oversubscription.switches == {"leaf-1": None, "leaf-2": None}
    assert len(report.by_code("LEAF-NO-UPLINK")) == 2


def test_a_core_switch_not_cabled_yet_leaves_the_spines_out(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)
    before = analyze(build.doc).metrics.oversubscription.switches
    build.dev("core-1", SN5600, rack="rn", ru=30, role="core")
    assert analyze(build.doc).metrics.oversubscription.switches == before == {"leaf-1": 2.0, "leaf-2": 2.0}


def test_oversubscription_without_workload_is_a_note(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)
    report = analyze(build.doc)
    per_switch = [f for f in report.by_code("OVERSUBSCRIBED") if f.objects in (("leaf-1",), ("leaf-2",))]
    assert [f.severity for f in per_switch] == ["info", "info"]


def test_storage_target_four_to_three(build):
    two_leaf_fabric(build, uplinks_per_leaf=12)  # 16 down : 12 up = 1.33:1
    build.workload("stor", [f"gpu-{n}" for n in range(1, 5)], kind="storage")
    report = analyze(build.doc)
    assert report.metrics.oversubscription.switches["leaf-1"] == pytest.approx(1.3333, abs=1e-4)
    assert not [f for f in report.by_code("OVERSUBSCRIBED") if f.severity == "warning"]


def test_workload_bandwidth_by_pattern_bottleneck_bisection_and_allreduce(build):
    # hand computation in docs/rules.md: C_r = 4, c = 2 per leaf, up = 3200 Gb/s per leaf
    two_leaf_fabric(build, uplinks_per_leaf=8)
    build.workload("train", [f"gpu-{n}" for n in range(1, 5)], target_gbps_per_gpu=400,
                   pattern="all-to-all")
    report = analyze(build.doc)
    (w,) = report.metrics.workloads
    assert (w.servers, w.gpus, w.nics) == (4, 32, 32)
    assert w.injection_gbps_per_gpu == 400
    # all-to-all: D = 8 rails x 800 x (4-2)/(4-1) = 4266.7 -> phi = 3200/4266.7 = 0.75
    assert w.alltoall_gbps_per_gpu == 300
    assert dict(w.tiers) == {"server": 400, "leaf": 300, "spine": 400}
    # ring: D = 8 x 800 x 1/2 = 3200 -> phi = 1
    assert w.ring_gbps_per_gpu == 400
    assert (w.bottleneck_tier, w.bottleneck_name) == ("leaf", "leaf-1")
    # per rail min(1600/2, 2 leaves x 3200 x 1/8 / 2) = 400, x 8 rails
    assert w.bisection_gbps == 3200
    # NCCL's choice (tuning.cc) over 4 NVLink domains of 8 GPUs: the ring, 16 channels x 24 GB/s
    # (generic HGX: NCCL's generic arrays), algBW 384 x 32/62 GB/s; latency (8.4 + 56 x 3.4 +
    # 6 x 14) x 1.4 us; the ring gets 400 Gb/s per GPU through the fabric, every NIC's rate
    ring_us = (8.4 + 56 * 3.4 + 6 * 14) * 1.4 + 1.024e9 / (1000 * 384 * 32 / 62)
    assert (w.algorithm, w.allreduce_ms) == ("ring", pytest.approx(ring_us / 1000, abs=1e-4))
    (finding,) = report.by_code("WORKLOAD-BANDWIDTH")
    assert "300 Gb/s" in finding.message and "leaf tier at leaf-1" in finding.message
    assert finding.objects == ("train", "leaf-1")


def test_ring_workload_on_one_leaf_never_leaves_it(build):
    two_leaf_fabric(build, uplinks_per_leaf=2)
    build.workload("pair", ["gpu-1", "gpu-2"], target_gbps_per_gpu=400)
    (w,) = analyze(build.doc).metrics.workloads
    assert w.per_gpu_gbps == 400 and w.bottleneck_tier == "server"
    assert w.bisection_gbps == 16 * 400 / 2  # a single leaf holds every NIC: NICs bound it


def test_bisection_equals_maxflow_on_balanced_clos(catalog):
    from fabric_builder import build_rail_optimized

    doc = build_rail_optimized(catalog, 128)  # 4 SUs, 32 leaves, 16 spines, 1:1
    (w,) = analyze(doc).metrics.workloads
    assert w.bisection_gbps == bisection_maxflow(doc) == 128 * 8 * 400 / 2


def test_graph_metrics(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)
    doc = build.doc
    assert len(components(doc)) == 1
    assert hops(doc, "gpu-1", "gpu-3") == 4  # gpu - leaf - spine - leaf - gpu
    assert path_diversity(doc, "leaf-1", "leaf-2") == 2  # via spine-1 and spine-2


def test_reach_ordered_length_and_media_reach(build):
    # DESIGN.md case 1: 17.4 m -> 20 m of straight OM4 MPO; reach 50 m (SR4 over OM4)
    doc = build.doc
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC})
    build.dev("leaf-1", SN5600, optics={1: TWIN_SR4})
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF, length_m=17.4)
    reach = analyze(doc).metrics.reach
    assert reach.links["c1"] == {
        "length_m": 17.4, "manual": True, "ordered_m": 20.0, "max_reach_m": 50.0,
        "limited_by": "MFP7E10", "media": "fibre OM4", "cable": MMF,
    }
    assert reach.summary["longest_m"] == 17.4 and reach.summary["manual"] == 1


def test_estimated_length_between_racks(build):
    doc = build.doc
    build.rack("r1", x=0.0)
    build.rack("r2", x=6.0)
    build.dev("a", SN5600, rack="r1", ru=41)
    build.dev("b", SN5600, rack="r2", ru=1)
    build.link("c1", "a", "swp1s0", "b", "swp1s0", cable=DAC800)
    # h_a = 0.1 + 41 x 0.04445 = 1.92245; h_b = 0.1 + 1 x 0.04445 = 0.14445
    # route = (2.6 - 1.92245) + (2.6 - 0.14445) + 6 = 9.1331; x 1.1 + 1 = 11.05
    entry = analyze(doc).metrics.reach.links["c1"]
    assert entry["length_m"] == 11.05 and entry["manual"] is False
    assert entry["ordered_m"] is None  # the DAC ladder ends at 2 m


def test_breakouts_per_device_and_total(build):
    doc = build.doc
    build.dev("leaf-1", SN5600, modes={1: "1x800G", 2: "4x200G"})
    build.dev("gpu-1", HGX)
    build.link("c1", "leaf-1", "swp3s0", "gpu-1", "p1")  # cage 3: 2x400G, one leg used
    build.link("c2", "leaf-1", "swp2s1", "gpu-1", "p2")  # cage 2: 4x200G, one leg used
    report = analyze(doc)
    leaf = report.metrics.breakouts.devices["leaf-1"]
    assert leaf["cages_by_mode"] == {"1x25G": 1, "1x800G": 1, "2x400G": 62, "4x200G": 1}
    assert leaf["legs_used"] == 2
    assert leaf["legs_stranded"] == 1 + 3
    assert leaf["ports"] == 1 + 62 * 2 + 4 + 1 and leaf["free_ports"] == leaf["ports"] - 2
    total = report.metrics.breakouts.total
    assert total["legs_used"] == 4 and total["legs_stranded"] == 4


def test_rails_metric_for_rail_optimized_leaves(catalog):
    from fabric_builder import build_rail_optimized

    over = analyze(build_rail_optimized(catalog, 128)).metrics.oversubscription
    assert over.rails == {str(r): 1.0 for r in range(1, 9)}
    assert over.tiers == {"leaf": 1.0}


def test_report_json_shape(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)
    build.workload("train", [f"gpu-{n}" for n in range(1, 5)])
    data = analyze(build.doc).to_json()
    assert set(data) == {"findings", "metrics"}
    assert set(data["metrics"]) == {"oversubscription", "reach", "breakouts", "workloads"}
    over = data["metrics"]["oversubscription"]
    assert {"switches", "tiers", "worst"} <= set(over)
    finding = data["findings"][0]
    assert set(finding) == {"code", "severity", "message", "objects", "fix"}


def test_free_ports_say_how_many_are_on_switches(catalog):
    """superpod-1su: every leaf and spine port is cabled (PORTS-EXHAUSTED), the free ports are
    the DGX H100s' unwired storage, in-band and management ports; one leaf-spine cable removed
    frees one port on each of two switches."""
    from pathlib import Path

    from aicnet_gui.fileio import load_fabric
    from aicnet_gui.model.edits import RemoveLink

    doc = load_fabric(Path(__file__).resolve().parents[2] / "examples" / "superpod-1su.fabric",
                      catalog)
    total = analyze(doc).metrics.breakouts.total
    servers = [d.id for d in doc.devices.values() if doc.role_of(d).value == "gpu_server"]
    on_servers = sum(len(doc.free_ports(s)) for s in servers)
    assert total["free_switch_ports"] == 0 and total["free_ports"] == on_servers > 0
    uplink = next(i for i, lk in doc.links.items()
                  if {doc.tier_of(lk.a.device), doc.tier_of(lk.b.device)} == {1, 2})
    doc.apply([RemoveLink(uplink)])
    assert analyze(doc).metrics.breakouts.total["free_switch_ports"] == 2
