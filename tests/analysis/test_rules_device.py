"""Per-device, per-group and fabric-wide rules on hand-made fabrics."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DAC800, HGX, MMF, NIC_OPTIC, SN5600, TWIN_SR4, ib, two_leaf_fabric

from aicnet_gui.analysis import Analyzer, analyze
from aicnet_gui.analysis.rules_device import _split_groups, cage_candidates, cage_check
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.document import FabricDocument
from tests.doc_edits import remove_link, update_settings

QM9700 = "nvidia-qm9700"
SPLIT_CORD = "nvidia-mfp7e20"  # 1:2 MPO splitter, OM4


def only(report, code):
    found = report.by_code(code)
    assert found, f"no {code} in {[f.code for f in report.findings]}"
    return found


# ---------------------------------------------------------------------------- ports and cages
def test_one_splitter_assembly_used_on_two_cages_is_a_port_used_twice(build):
    build.dev("leaf-1", SN5600)
    build.dev("gpu-1", HGX)
    build.dev("gpu-2", HGX)
    splitter = "nvidia-mcp7y10"  # 1 OSFP -> 2 QSFP112 legs
    build.link("c1", "leaf-1", "swp3s0", "gpu-1", "p1", cable=splitter, assembly="sp1", length_m=2)
    build.link("c2", "leaf-1", "swp4s1", "gpu-2", "p1", cable=splitter, assembly="sp1", length_m=2)
    found = only(analyze(build.doc), "PORT-DUPLICATE")
    assert any("start from different cages" in f.message and f.objects == ("c1", "c2") for f in found)


def test_splitter_legs_on_one_cage_are_fine_and_counted_once(build):
    build.dev("leaf-1", SN5600)
    build.dev("gpu-1", HGX)
    build.dev("gpu-2", HGX)
    splitter = "nvidia-mcp7y10"
    build.link("c1", "leaf-1", "swp3s0", "gpu-1", "p1", cable=splitter, assembly="sp1", length_m=2)
    build.link("c2", "leaf-1", "swp3s1", "gpu-2", "p1", cable=splitter, assembly="sp1", length_m=2)
    report = analyze(build.doc)
    assert not report.by_code("PORT-DUPLICATE") and not report.by_code("SPEED-MISMATCH")


def test_dac_and_another_cable_on_one_cage(build):
    build.dev("a", SN5600)
    build.dev("b", SN5600)
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC})
    build.link("c1", "a", "swp1s0", "b", "swp1s0", cable=DAC800, length_m=1)
    build.link("c2", "a", "swp1s1", "gpu-1", "p1", cable=MMF, length_m=3)
    found = only(analyze(build.doc), "PORT-DUPLICATE")
    assert any(f.objects == ("a", "c1", "c2") and "takes the whole cage" in f.message for f in found)


def test_two_cords_on_one_optical_port_and_mixed_fibres_on_a_twin_port_optic(build):
    ib(build)
    doc = build.doc
    # QM9700 cage 1 in 4x200G: legs 1-2 on optical port 1, legs 3-4 on optical port 2
    build.dev("leaf-1", QM9700, modes={1: "4x200G"}, optics={1: TWIN_SR4})
    for n in range(1, 4):
        build.dev(f"gpu-{n}", HGX, modes={1: "1x200G"}, optics={1: NIC_OPTIC})
    build.link("c1", "leaf-1", "1/1", "gpu-1", "p1", cable=SPLIT_CORD, assembly="s1", length_m=5)
    build.link("c2", "leaf-1", "1/2", "gpu-2", "p1", cable=SPLIT_CORD, assembly="s2", length_m=5)
    build.link("c3", "leaf-1", "1/3", "gpu-3", "p1", cable=MMF, length_m=5)
    report = analyze(doc)
    dup = [f for f in only(report, "PORT-DUPLICATE") if "optical port 1" in f.message]
    assert len(dup) == 1 and dup[0].objects == ("leaf-1", "c1", "c2")
    assert dup[0].fix.applicable  # both are splitter cords: give them one assembly id
    (mixed,) = only(report, "TWIN-PORT-MIXED-FIBRE")
    assert "straight cord on one optical port and a splitter cord on the other" in mixed.message
    doc.apply(list(dup[0].fix.ops))
    assert doc.links["c1"].assembly == doc.links["c2"].assembly
    assert not [f for f in analyze(doc).by_code("PORT-DUPLICATE") if "optical port 1" in f.message]


def test_the_full_run_prefilter_keeps_every_device_with_a_cage_finding(build):
    """The full run checks only `cage_candidates` (one numpy pass); a device it left out
    would lose its PORT-DUPLICATE / TWIN-PORT-MIXED-FIBRE findings."""
    ib(build)
    build.dev("leaf-1", QM9700, modes={1: "4x200G", 2: "4x200G"}, optics={1: TWIN_SR4, 2: TWIN_SR4})
    build.dev("a", SN5600)
    build.dev("b", SN5600)
    for n in range(1, 6):
        build.dev(f"gpu-{n}", HGX, modes={1: "1x200G"}, optics={1: NIC_OPTIC})
    build.link("c1", "leaf-1", "1/1", "gpu-1", "p1", cable=SPLIT_CORD, assembly="s1", length_m=5)
    build.link("c2", "leaf-1", "1/2", "gpu-2", "p1", cable=SPLIT_CORD, assembly="s2", length_m=5)
    build.link("c3", "leaf-1", "1/3", "gpu-3", "p1", cable=MMF, length_m=5)
    # cage 2: one splitter on both legs of optical port 1 is fine
    build.link("c4", "leaf-1", "2/1", "gpu-4", "p1", cable=SPLIT_CORD, assembly="s3", length_m=5)
    build.link("c5", "leaf-1", "2/2", "gpu-5", "p1", cable=SPLIT_CORD, assembly="s3", length_m=5)
    build.link("c6", "a", "swp1s0", "b", "swp1s0", cable=DAC800, length_m=1)
    build.link("c7", "a", "swp1s1", "b", "swp2s0", cable=DAC800, length_m=1)
    analyzer = Analyzer(build.doc)
    analyzer.full()
    state = analyzer.state
    reported = {row for row in state.store.device_rows().tolist() if list(cage_check(state, row))}
    assert {state.dev_id(row) for row in reported} == {"leaf-1", "a"}
    assert reported <= set(cage_candidates(state))


@pytest.mark.parametrize("seed", range(6))
def test_split_groups_are_the_groups_with_more_than_one_key(seed):
    """`_split_groups` (one sorted number per (group, key) pair, or np.lexsort when the pairs do
    not fit in 63 bits) against a dict of each group's keys."""
    rng = np.random.default_rng(seed)
    size = int(rng.integers(0, 400))
    big = seed % 3 == 2  # keys that do not fit beside the groups in one number: lexsort
    group = rng.integers(0, 60, size)
    key = rng.integers(0, 2**40 if big else 9, size) if size else np.zeros(0, dtype=np.int64)
    if big and size:
        group = group * 2**30
    keys: dict[int, set[int]] = {}
    for g, k in zip(group.tolist(), key.tolist(), strict=True):
        keys.setdefault(g, set()).add(k)
    expected = sorted(g for g, found in keys.items() if len(found) > 1)
    assert _split_groups(group, key).tolist() == expected


def test_optic_above_the_cage_power_class(build, catalog):
    hot = catalog.transceiver(TWIN_SR4).model_copy(update={"id": "test-hot-optic", "power_w": 19.0})
    doc = FabricDocument(catalog.merged(Catalog([hot])))
    update_settings(doc, technology="rocev2", pfc=True, ecn=True, mtu=9000)
    from conftest import Build

    Build(doc).dev("leaf-1", SN5600, optics={1: "test-hot-optic", 2: TWIN_SR4})
    (finding,) = only(analyze(doc), "OPTIC-POWER-CLASS")
    assert "cage 1 holds an optic" in finding.message and "draws 19 W, the cage is rated 18 W" in finding.message


# ---------------------------------------------------------------------------- topology
def test_leaf_without_uplinks_while_spines_exist(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)
    for k in range(8):
        remove_link(build.doc, f"u2{k}")
    (finding,) = only(analyze(build.doc), "LEAF-NO-UPLINK")
    assert finding.objects == ("leaf-2",) and finding.severity == "error"


def test_unequal_links_to_the_spines_is_an_ecmp_imbalance(build):
    two_leaf_fabric(build, uplinks_per_leaf=6)  # leaf -> spine-1: 2 DACs (4 x 400G), spine-2: 1
    found = only(analyze(build.doc), "ECMP-IMBALANCE")
    by_leaf = {f.objects[0]: f for f in found}
    assert set(by_leaf) == {"leaf-1", "leaf-2"}
    assert "1.6 Tb/s to spine-1 but only 800 Gb/s to spine-2" in by_leaf["leaf-1"].message


def test_leaf_missing_a_spine_its_peers_reach(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)
    for k in (2, 3, 6, 7):  # leaf-2's DACs to spine-2
        remove_link(build.doc, f"u2{k}")
    found = only(analyze(build.doc), "ECMP-IMBALANCE")
    (missing,) = [f for f in found if "no link to" in f.message]
    assert missing.objects == ("leaf-2", "spine-2")
    assert "leaf-2 has no link to spine-2 although its peers reach 2 upper switches" in missing.message


def test_nic_of_the_wrong_rail_on_a_rail_leaf(build):
    doc = build.doc
    build.dev("leaf-r1", SN5600)
    build.dev("leaf-r2", SN5600)
    for n in range(1, 5):
        build.dev(f"gpu-{n}", HGX)
        build.link(f"a{n}", f"gpu-{n}", "p1", "leaf-r1", f"swp{n}s0")
        build.link(f"b{n}", f"gpu-{n}", "p2", "leaf-r2", f"swp{n}s0")
    # gpu-5's rail-2 NIC lands on the rail-1 leaf
    build.dev("gpu-5", HGX)
    build.link("x", "gpu-5", "p2", "leaf-r1", "swp5s0")
    (finding,) = only(analyze(doc), "RAIL-MISWIRED")
    assert finding.objects == ("x", "gpu-5", "leaf-r1")
    assert "gpu-5 NIC of rail 2 (x) lands on leaf-r1, which carries rail 1" in finding.message


def test_dgx_h100_rails_follow_the_gpu_to_port_map_not_port_order(build):
    """DGX H100 User Guide, Table 6: OSFP4P2 (p8) serves GPU 0 = rail 1, OSFP1P1 (p1) GPU 7 =
    rail 8.  Four servers put p8 on leaf-r1 (rail 1, correct); a fifth puts p1 there."""
    build.dev("leaf-r1", QM9700)
    for n in range(1, 5):
        build.dev(f"dgx-{n}", "nvidia-dgx-h100")
        build.link(f"a{n}", f"dgx-{n}", "p8", "leaf-r1", f"{n}/1")
    build.dev("dgx-5", "nvidia-dgx-h100")
    build.link("x", "dgx-5", "p1", "leaf-r1", "5/1")
    (finding,) = only(analyze(build.doc), "RAIL-MISWIRED")
    assert finding.objects == ("x", "dgx-5", "leaf-r1")
    assert "dgx-5 NIC of rail 8 (x) lands on leaf-r1, which carries rail 1" in finding.message


def test_top_of_rack_leaves_are_not_rail_miswired(build):
    build.dev("tor", SN5600)
    for n in range(1, 5):
        build.dev(f"gpu-{n}", HGX)
        for r in range(1, 9):
            build.link(f"l{n}{r}", f"gpu-{n}", f"p{r}", "tor", f"swp{(n - 1) * 8 + r}s0")
    assert not analyze(build.doc).by_code("RAIL-MISWIRED")


def test_unconnected_gpu_nics(build):
    build.dev("gpu-1", HGX)
    build.dev("leaf-1", SN5600)
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0")
    (finding,) = only(analyze(build.doc), "NIC-UNCONNECTED")
    assert "p2, p3, p4, p5, p6, p7, p8 are not connected" in finding.message


def test_full_switches_are_summarised_once(catalog):
    from fabric_builder import build_rail_optimized

    report = analyze(build_rail_optimized(catalog, 128))
    (finding,) = only(report, "PORTS-EXHAUSTED")
    assert finding.severity == "info" and len(finding.objects) == 32 + 16
    assert finding.message.startswith("48 switches have no free fabric port")


def test_rail_optimized_reference_fabric_is_clean(catalog):
    from fabric_builder import build_rail_optimized

    doc = build_rail_optimized(catalog, 512)
    # the builder names no subnet manager (its spines and cores are externally managed QM9790)
    sm, ports = analyze(doc).findings
    assert (sm.code, sm.severity, ports.code) == ("IB-SUBNET-MANAGER", "warning", "PORTS-EXHAUSTED")
    doc.apply(list(sm.fix.ops))  # two of the internally managed QM9700 leaves
    report = analyze(doc)
    assert [f.code for f in report.findings] == ["PORTS-EXHAUSTED"]
    (w,) = report.metrics.workloads
    assert w.per_gpu_gbps == 400 and w.gpus == 4096


# ---------------------------------------------------------------------------- settings and groups
def test_roce_without_pfc_and_ecn(build):
    doc = build.doc
    update_settings(doc, pfc=False, ecn=False)
    (finding,) = only(analyze(doc), "ROCE-NO-PFC-ECN")
    assert finding.severity == "error"
    doc.apply(list(finding.fix.ops))
    assert not analyze(doc).by_code("ROCE-NO-PFC-ECN")
    update_settings(doc, ecn=False)
    assert only(analyze(doc), "ROCE-NO-PFC-ECN")[0].severity == "warning"


def test_mtu_of_the_fabric_and_of_a_device(build):
    doc = build.doc
    build.dev("leaf-1", SN5600, tags={"mtu": "1500"})
    (device,) = only(analyze(doc), "MTU-MISMATCH")
    assert device.objects == ("leaf-1",) and "sets MTU 1500 on a switch, below the hosts' MTU 9000" in device.message
    doc.apply(list(device.fix.ops))
    assert not analyze(doc).by_code("MTU-MISMATCH")
    update_settings(doc, mtu=2000)
    assert "RoCEv2 with an Ethernet MTU of 2000" in only(analyze(doc), "MTU-MISMATCH")[0].message
    update_settings(doc, technology="infiniband", mtu=9000)
    (fabric,) = [f for f in only(analyze(doc), "MTU-MISMATCH") if not f.objects]
    assert fabric.severity == "error" and "InfiniBand MTU 9000" in fabric.message


def test_firmware_drift_within_one_model(build):
    doc = build.doc
    for n, fw in ((1, "5.9.1"), (2, "5.9.1"), (3, "5.8.0"), (4, "")):
        build.dev(f"leaf-{n}", SN5600, firmware=fw)
    (finding,) = only(analyze(doc), "FIRMWARE-DRIFT")
    assert finding.objects == ("leaf-3",) and "baseline (newest seen) 5.9.1" in finding.message
    doc.apply(list(finding.fix.ops))
    assert not analyze(doc).by_code("FIRMWARE-DRIFT")


def test_rack_power_and_space(build):
    build.rack("r1", power_kw=15.0, height_ru=20)
    build.dev("dgx-1", "nvidia-dgx-h100", rack="r1", ru=1)
    build.dev("dgx-2", "nvidia-dgx-h100", rack="r1", ru=5)  # overlaps RU 5-8 of dgx-1
    report = analyze(build.doc)
    (power,) = only(report, "RACK-POWER")
    assert "draw up to 20.4 kW, above its 15 kW budget" in power.message
    (space,) = only(report, "RACK-SPACE")
    assert space.objects == ("r1", "dgx-1", "dgx-2") and "RU 1-8" in space.message
