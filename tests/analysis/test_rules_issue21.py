"""Rules reviewed in issue 21 on small variants of the examples: MTU per technology, ECMP per
member speed, copper across racks, breakout cords, power class per cage, firmware baselines,
multi-node inference targets, and the new checks."""

from __future__ import annotations

from conftest import HGX, MMF, NIC_OPTIC, SN5600, ib, two_leaf_fabric

from aicnet_gui.analysis import analyze
from aicnet_gui.model.edits import UpdateWorkload
from aicnet_gui.model.fabric import WorkloadKind
from tests.doc_edits import remove_link, update_device, update_link, update_settings

QM9700 = "nvidia-qm9700"


def mtu_findings(doc):
    return {f.objects: f.severity for f in analyze(doc).by_code("MTU-MISMATCH") if f.objects}


# ---------------------------------------------------------------------------- MTU
def test_ethernet_switches_at_9216_over_hosts_at_9000_are_common_practice(build):
    two_leaf_fabric(build)  # RoCEv2 at MTU 9000
    doc = build.doc
    for switch in ("leaf-1", "leaf-2", "spine-1", "spine-2"):
        update_device(doc, switch, tags={"mtu": "9216"})
    assert mtu_findings(doc) == {}  # was 4 errors


def test_ethernet_transit_below_the_host_mtu_is_an_error_and_a_host_off_it_too(build):
    two_leaf_fabric(build)
    doc = build.doc
    update_device(doc, "spine-1", tags={"mtu": "1500"})
    update_device(doc, "gpu-1", tags={"mtu": "9216"})
    update_device(doc, "gpu-2", tags={"mtu": "1500"})
    assert mtu_findings(doc) == {("spine-1",): "error", ("gpu-1",): "error", ("gpu-2",): "warning"}


def test_infiniband_path_mtu_is_the_minimum_so_a_lower_port_only_warns(build):
    two_leaf_fabric(build)
    ib(build)
    doc = build.doc
    update_device(doc, "leaf-1", tags={"mtu": "2048"})
    update_device(doc, "gpu-3", tags={"mtu": "1024"})
    found = [f for f in analyze(doc).by_code("MTU-MISMATCH") if f.objects]
    assert {f.objects: f.severity for f in found} == {("leaf-1",): "warning", ("gpu-3",): "warning"}
    assert all("nothing is dropped" in f.message for f in found)


# ---------------------------------------------------------------------------- inference kinds
def test_multi_node_inference_kinds_default_to_1_to_1(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)  # 2:1 leaves
    build.workload("serve", [f"gpu-{n}" for n in range(1, 5)], kind="inference")
    report = analyze(build.doc)
    assert not [f for f in report.by_code("OVERSUBSCRIBED") if f.severity == "warning"]
    build.doc.apply([UpdateWorkload("serve", {"kind": WorkloadKind.INFERENCE_WIDE_EP})])
    warned = [f for f in analyze(build.doc).by_code("OVERSUBSCRIBED") if f.severity == "warning"]
    assert {f.objects for f in warned} >= {("leaf-1",), ("leaf-2",)}
    assert "1:1 target for inference-wide-ep" in warned[0].message


# ---------------------------------------------------------------------------- ECMP members
def mixed_uplinks(build):
    """leaf-1 with 6 x 400G + 1 x 800G to spine-1 and 8 x 400G to spine-2: 3.2 Tb/s to each."""
    build.rack("r1")
    for s in (1, 2):
        build.dev(f"spine-{s}", SN5600, rack="r1", ru=40 + 2 * s, role="spine",
                  modes={1: "1x800G"})
    build.dev("leaf-1", SN5600, rack="r1", ru=36, modes={40: "1x800G"})
    build.dev("gpu-1", HGX, rack="r1", ru=1, optics={c: NIC_OPTIC for c in range(1, 9)})
    build.link("s1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF)
    for k in range(6):
        build.link(f"a{k}", "leaf-1", f"swp{33 + k // 2}s{k % 2}", "spine-1", f"swp{2 + k // 2}s{k % 2}")
    build.link("a800", "leaf-1", "swp40", "spine-1", "swp1")
    for k in range(8):
        build.link(f"b{k}", "leaf-1", f"swp{50 + k // 2}s{k % 2}", "spine-2", f"swp{2 + k // 2}s{k % 2}")
    return build


def test_mixed_member_speeds_warn_although_each_spine_gets_the_same_bandwidth(build):
    mixed_uplinks(build)
    found = [f for f in analyze(build.doc).by_code("ECMP-IMBALANCE") if "mixes uplink speeds" in f.message]
    assert [f.objects for f in found] == [("leaf-1",)]
    assert "(1 x 800 Gb/s, 14 x 400 Gb/s)" in found[0].message
    update_settings(build.doc, weighted_ecmp=True)
    assert not analyze(build.doc).by_code("ECMP-IMBALANCE")
    ib(build)  # weighted ECMP is an Ethernet feature: InfiniBand still warns
    update_settings(build.doc, weighted_ecmp=True)
    assert [f.objects for f in analyze(build.doc).by_code("ECMP-IMBALANCE")
            if "mixes uplink speeds" in f.message] == [("leaf-1",)]


def test_uniform_member_speeds_do_not_warn(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)
    assert not analyze(build.doc).by_code("ECMP-IMBALANCE")


# ---------------------------------------------------------------------------- copper across racks
def adjacent_racks(build, cable, length_m=None):
    ib(build)
    build.rack("r1", x=0.0)
    build.rack("r2", x=0.6)
    build.dev("leaf-1", QM9700, rack="r1", ru=40)
    build.dev("spine-1", QM9700, rack="r2", ru=40, role="spine")
    build.link("u1", "leaf-1", "1/1", "spine-1", "1/1", cable=cable, length_m=length_m)
    return analyze(build.doc)


def test_active_copper_to_the_adjacent_rack_is_what_it_is_for(build):
    report = adjacent_racks(build, "nvidia-mca4j80")  # ACC, 4-5 m; the run is ~3.3 m
    assert not report.by_code("DAC-ACROSS-RACKS") and not report.by_code("REACH-EXCEEDED")


def test_active_copper_beyond_its_reach_is_a_reach_error(build):
    report = adjacent_racks(build, "nvidia-mca4j80", length_m=6.0)
    assert not report.by_code("DAC-ACROSS-RACKS")
    assert [f.objects[0] for f in report.by_code("REACH-EXCEEDED")] == ["u1"]


def test_passive_dac_between_racks_still_warns(build):
    report = adjacent_racks(build, "nvidia-mcp4y10", length_m=1.5)
    assert [f.severity for f in report.by_code("DAC-ACROSS-RACKS")] == ["warning"]


# ---------------------------------------------------------------------------- power class per cage
def test_sn5400_cages_1_5_9_take_21_w_and_the_others_12_w(build):
    hot = "generic-800g-2xfr4-osfp"  # 17 W
    build.dev("leaf-1", "nvidia-sn5400", optics={1: hot, 2: hot, 61: hot})
    (finding,) = analyze(build.doc).by_code("OPTIC-POWER-CLASS")
    assert finding.objects == ("leaf-1",)
    assert "cage 2 holds" in finding.message and "rated 12 W" in finding.message  # was 1, 2, 61


def test_a_power_class_for_a_cage_outside_its_group_is_refused():
    import pytest
    from pydantic import ValidationError

    from aicnet_gui.model.catalog_entities import CageGroup

    with pytest.raises(ValidationError, match="names cage 9"):
        CageGroup(name="x", count=4, form_factor="OSFP", lanes=8, lane_gbps=100,
                  power_class_w=12, power_class_by_cage={9: 21}, breakouts=["1x800G"],
                  default_breakout="1x800G", port_names={"1": "p{cage}"},
                  interface_type="800gbase-x-osfp")


# ---------------------------------------------------------------------------- firmware
def test_firmware_baseline_is_the_newest_seen_and_the_fix_never_downgrades(build):
    doc = build.doc
    for n, fw in ((1, "5.9.1"), (2, "5.9.1"), (3, "5.10.0"), (4, "")):
        build.dev(f"leaf-{n}", SN5600, firmware=fw)
    (finding,) = analyze(doc).by_code("FIRMWARE-DRIFT")
    # the most common (5.9.1) used to be the baseline: its fix downgraded leaf-3
    assert finding.objects == ("leaf-1", "leaf-2")
    assert "baseline (newest seen) 5.10.0" in finding.message
    doc.apply(list(finding.fix.ops))
    assert {doc.devices[f"leaf-{n}"].firmware for n in (1, 2, 3)} == {"5.10.0"}
    assert not analyze(doc).by_code("FIRMWARE-DRIFT")


def test_a_baseline_set_in_the_settings_wins_and_newer_devices_get_no_downgrade(build):
    doc = build.doc
    for n, fw in ((1, "5.9.1"), (2, "5.10.0"), (3, "5.8.0")):
        build.dev(f"leaf-{n}", SN5600, firmware=fw)
    update_settings(doc, firmware_baselines={"spectrum-4": "5.9.1"})
    (finding,) = analyze(doc).by_code("FIRMWARE-DRIFT")
    assert finding.objects == ("leaf-2", "leaf-3")
    assert [(op.id, op.changes) for op in finding.fix.ops] == [("leaf-3", {"firmware": "5.9.1"})]
    assert "newer firmware than the project's baseline 5.9.1" in finding.message


def test_qm9700_and_qm9790_share_the_quantum_2_firmware_line(build):
    ib(build)
    build.dev("leaf-1", QM9700, firmware="31.2012.1068")
    build.dev("spine-1", "nvidia-qm9790", role="spine", firmware="31.2010.2000")
    (finding,) = analyze(build.doc).by_code("FIRMWARE-DRIFT")
    assert finding.objects == ("spine-1",)
    assert finding.message.startswith("quantum-2 (QM9700, QM9790)")


# ---------------------------------------------------------------------------- breakout cords
DR4_DD = "generic-400gbase-dr4-qsfp-dd"
COMPAT = {"FORM-FACTOR", "MEDIA-MISMATCH", "SPEED-MISMATCH", "PORT-DUPLICATE", "OPTIC-MISSING",
          "TWIN-PORT-MIXED-FIBRE"}


def compat_codes(doc):
    return sorted({(f.code, f.message) for f in analyze(doc).findings if f.code in COMPAT})


def test_400g_dr4_breaks_out_to_four_100g_dr_over_an_mpo_to_lc_cord(build):
    build.dev("leaf-1", "nvidia-sn5400", optics={1: DR4_DD}, modes={1: "4x100G"})
    build.dev("sw-100", "nvidia-sn4600c", optics={c: "generic-100gbase-dr-qsfp28" for c in range(1, 5)})
    for leg in range(4):
        build.link(f"b{leg}", "leaf-1", f"swp1s{leg}", "sw-100", f"swp{leg + 1}",
                   cable="generic-mpo-12-apc-to-4x-lc-os2-breakout", assembly="bo-1")
    assert compat_codes(build.doc) == []  # was MEDIA-MISMATCH (DR4 vs DR) and FORM-FACTOR (LC)


def test_800g_dr8_and_sr8_break_out_to_two_400g_over_mpo_16_to_2x_mpo_12_cords(build):
    build.dev("leaf-1", SN5600, optics={1: "generic-800gbase-dr8-osfp", 2: "generic-800gbase-sr8-osfp"},
              modes={1: "2x400G", 2: "2x400G"})
    build.dev("leaf-2", "nvidia-sn5400", optics={1: DR4_DD, 2: DR4_DD})
    for leg in range(2):
        build.link(f"d{leg}", "leaf-1", f"swp1s{leg}", "leaf-2", f"swp{leg + 1}",
                   cable="generic-mpo-16-apc-to-2x-mpo-12-apc-os2-breakout", assembly="bo-dr8")
        build.dev(f"gpu-{leg}", HGX, optics={1: NIC_OPTIC})
        build.link(f"s{leg}", "leaf-1", f"swp2s{leg}", f"gpu-{leg}", "p1",
                   cable="generic-mpo-16-apc-to-2x-mpo-12-apc-om4-breakout", assembly="bo-sr8")
    assert compat_codes(build.doc) == []


def test_a_breakout_still_needs_matching_pmds_and_a_breakout_cord(build):
    build.dev("leaf-1", "nvidia-sn5400", optics={1: DR4_DD}, modes={1: "4x100G"})
    build.dev("sw-100", "nvidia-sn4600c", optics={1: "generic-100gbase-dr-qsfp28",
                                                 2: "generic-100gbase-fr1-qsfp28"})
    build.link("b0", "leaf-1", "swp1s0", "sw-100", "swp1",
               cable="generic-duplex-lc-os2-patch-cord")  # straight LC cord on an MPO optic
    build.link("b1", "leaf-1", "swp1s1", "sw-100", "swp2",
               cable="generic-mpo-12-apc-to-4x-lc-os2-breakout", assembly="bo-1")  # DR4 -> FR1
    found = analyze(build.doc)
    by_link = {(f.code, f.objects[0]) for f in found.findings if f.code in COMPAT}
    assert ("FORM-FACTOR", "b0") in by_link and ("MEDIA-MISMATCH", "b0") in by_link
    assert ("MEDIA-MISMATCH", "b1") in by_link and ("FORM-FACTOR", "b1") not in by_link


# ---------------------------------------------------------------------------- subnet manager
def ib_pair(build, switch_model):
    """An InfiniBand leaf and spine of `switch_model`, two DGX H100 on the leaf and a third
    DGX (the UFM host) not cabled yet."""
    ib(build)
    build.dev("leaf-1", switch_model)
    build.dev("spine-1", switch_model, role="spine")
    build.link("u1", "leaf-1", "1/1", "spine-1", "1/1")
    for n in (1, 2, 3):
        build.dev(f"dgx-{n}", "nvidia-dgx-h100")
    build.link("s1", "dgx-1", "p1", "leaf-1", "2/1")
    build.link("s2", "dgx-2", "p1", "leaf-1", "2/2")
    return build


def sm_findings(doc):
    return [(f.severity.value, f.objects) for f in analyze(doc).by_code("IB-SUBNET-MANAGER")]


def test_externally_managed_switches_without_an_sm_host_never_come_up(build):
    ib_pair(build, "nvidia-qm9790")
    doc = build.doc
    ((severity, _),) = sm_findings(doc)
    assert severity == "error"
    update_settings(doc, subnet_managers=["dgx-3"])  # the UFM host has no fabric port yet
    assert sm_findings(doc) == [("error", ("dgx-3",))]
    build.link("s3", "dgx-3", "p1", "leaf-1", "3/1")
    assert sm_findings(doc) == [("warning", ("dgx-3",))]  # master without a standby
    update_settings(doc, subnet_managers=["dgx-3", "spine-1"])  # a QM9790 cannot run it
    assert sm_findings(doc) == [("error", ("spine-1",)), ("warning", ("dgx-3",))]
    build.link("s4", "dgx-2", "p2", "leaf-1", "3/2")
    update_settings(doc, subnet_managers=["dgx-3", "dgx-2"])
    assert sm_findings(doc) == []


def test_internally_managed_switches_get_a_master_and_standby_in_one_click(build):
    ib_pair(build, QM9700)
    doc = build.doc
    (finding,) = analyze(doc).by_code("IB-SUBNET-MANAGER")
    assert finding.severity.value == "warning"
    assert finding.fix.description == "run the subnet manager on spine-1 (master) and leaf-1 (standby)"
    doc.apply(list(finding.fix.ops))
    assert doc.settings.subnet_managers == ["spine-1", "leaf-1"]
    assert sm_findings(doc) == []
    update_settings(doc, subnet_managers=["gone"])
    assert sm_findings(doc) == [("error", ())]


def test_ethernet_fabrics_have_no_subnet_manager(build):
    two_leaf_fabric(build)
    assert sm_findings(build.doc) == []


# ---------------------------------------------------------------------------- RoCEv2 transport
def test_cnps_need_their_own_dscp_and_a_priority_apart_from_the_lossless_one(build):
    two_leaf_fabric(build)  # RoCEv2, PFC + ECN, NVIDIA defaults: RoCE 26/prio 3, CNP 48/prio 6
    doc = build.doc
    assert not analyze(doc).by_code("ROCE-QOS")
    update_settings(doc, cnp_dscp=26, cnp_priority=3)
    found = analyze(doc).by_code("ROCE-QOS")
    assert [f.severity.value for f in found] == ["error", "error"]
    for finding in found:
        doc.apply(list(finding.fix.ops))
    assert (doc.settings.cnp_dscp, doc.settings.cnp_priority) == (48, 6)
    assert not analyze(doc).by_code("ROCE-QOS")
    update_settings(doc, pfc_priority=0)
    assert [f.severity.value for f in analyze(doc).by_code("ROCE-QOS")] == ["warning"]


def test_a_link_longer_than_the_pfc_headroom_is_sized_for_warns(build):
    two_leaf_fabric(build)
    doc = build.doc
    assert not analyze(doc).by_code("PFC-HEADROOM")
    update_link(doc, "u10", length_m=150.0)  # a leaf-1 uplink, 400G, at MTU 9000
    (finding,) = analyze(doc).by_code("PFC-HEADROOM")
    # 2 x 150 m / 2e8 m/s x 50e9 B/s = 75 kB in flight + 2 x 9000 B = 93 kB; sized for 100 m: 68 kB
    assert finding.objects == ("u10",)
    assert "needs about 93 kB" in finding.message and "sized for 100 m (68 kB)" in finding.message
    update_settings(doc, pfc_cable_length_m=200.0)
    assert not analyze(doc).by_code("PFC-HEADROOM")
    update_settings(doc, pfc_cable_length_m=100.0, technology="ethernet", pfc=False)
    assert not analyze(doc).by_code("PFC-HEADROOM")  # no lossless class, no headroom


def test_training_on_ethernet_with_plain_hashing_warns(build):
    two_leaf_fabric(build)
    doc = build.doc
    # the mode is the load_balancing setting (issue 35), no longer words in the ECMP policy
    update_settings(doc, load_balancing="ecmp", ecmp_policy="5-tuple hash")
    assert not analyze(doc).by_code("ECMP-POLICY")  # no training workload
    build.workload("train", ["gpu-1", "gpu-2"])
    (finding,) = analyze(doc).by_code("ECMP-POLICY")
    # the fix: the best mode every switch (SN5600: Spectrum-4 adaptive routing) and NIC (B3140H
    # SuperNIC: reorders) runs
    assert dict(finding.fix.ops[0].changes)["load_balancing"] == "adaptive"
    doc.apply(list(finding.fix.ops))
    assert not analyze(doc).by_code("ECMP-POLICY")
    for mode in ("flowlet", "spray", "adaptive"):
        update_settings(doc, load_balancing=mode)
        assert not analyze(doc).by_code("ECMP-POLICY")
    ib(build)
    update_settings(doc, load_balancing="ecmp")
    assert not analyze(doc).by_code("ECMP-POLICY")  # InfiniBand routing is the SM's


# ---------------------------------------------------------------------------- A/B power feeds
def test_each_feed_must_carry_the_whole_rack(build):
    build.rack("r1", power_kw=60)
    for n in range(4):  # DGX H100: 10.2 kW max each
        build.dev(f"dgx-{n}", "nvidia-dgx-h100", rack="r1", ru=1 + 8 * n)
    doc = build.doc
    assert not analyze(doc).by_code("POWER-FEED")  # no feed capacity set: not checked
    update_settings(doc, power_feed_kw=30.0)
    (finding,) = analyze(doc).by_code("POWER-FEED")
    assert finding.objects == ("r1",) and "draws up to 40.8 kW but one feed delivers 30 kW" in finding.message
    assert not analyze(doc).by_code("RACK-POWER")  # within the 60 kW of both feeds together
    update_settings(doc, power_feed_kw=41.0)
    assert not analyze(doc).by_code("POWER-FEED")


# ---------------------------------------------------------------------------- airflow
def test_a_switch_blowing_the_other_way_in_a_rack_warns(build):
    build.rack("r1")
    for n in range(3):
        build.dev(f"dgx-{n}", "nvidia-dgx-h100", rack="r1", ru=1 + 8 * n,
                  tags={"airflow": "front-to-back"})
    build.dev("leaf-1", SN5600, rack="r1", ru=40, tags={"airflow": "front-to-back"})
    doc = build.doc
    assert not analyze(doc).by_code("AIRFLOW-MIXED")
    update_device(doc, "leaf-1", tags={"airflow": "back-to-front"})  # the other PSU/fan version
    (finding,) = analyze(doc).by_code("AIRFLOW-MIXED")
    assert finding.objects == ("r1", "leaf-1")
    assert "leaf-1 blows back-to-front while 3 other device(s) blow front-to-back" in finding.message
    build.rack("r2", x=0.6)
    build.dev("leaf-2", SN5600, rack="r2", ru=40, tags={"airflow": "back-to-front"})
    assert [f.objects for f in analyze(doc).by_code("AIRFLOW-MIXED")] == [("r1", "leaf-1")]


def test_netbox_airflow_words_read_as_directions(build):
    """A device-type imported from NetBox says `front-to-rear`; a device tagged `rear-to-front`
    in the same rack blows the other way; a side-to-side switch is not judged."""
    from aicnet_gui.model.catalog_entities import airflow_direction

    assert airflow_direction("front-to-rear") == airflow_direction("front-to-back") == "front-to-back"
    assert airflow_direction("Rear-to-Front") == "back-to-front"
    assert airflow_direction("left-to-right") is None and airflow_direction(None) is None
    build.rack("r1")
    build.dev("dgx-0", "nvidia-dgx-h100", rack="r1", ru=1, tags={"airflow": "front-to-rear"})
    build.dev("leaf-1", SN5600, rack="r1", ru=40, tags={"airflow": "rear-to-front"})
    (finding,) = analyze(build.doc).by_code("AIRFLOW-MIXED")
    assert finding.objects[0] == "r1"


# ---------------------------------------------------------------------------- compute vs storage
def test_a_storage_nic_on_a_compute_leaf_warns(build):
    two_leaf_fabric(build)
    doc = build.doc
    assert not analyze(doc).by_code("NIC-PLANE-MIXED")
    build.link("ns", "gpu-1", "ns1", "leaf-1", "swp20s0")  # north-south NIC on the rail leaf
    (finding,) = analyze(doc).by_code("NIC-PLANE-MIXED")
    assert finding.objects == ("leaf-1", "ns")
    assert "16 GPU compute NIC(s) and 1 storage / front-end NIC(s)" in finding.message
    assert "storage / front-end: gpu-1:ns1" in finding.message
    remove_link(doc, "ns")
    build.dev("stor-leaf", SN5600)
    build.link("ns", "gpu-1", "ns1", "stor-leaf", "swp1s0")  # its own leaf: fine
    assert not analyze(doc).by_code("NIC-PLANE-MIXED")


# ---------------------------------------------------------------------------- scale limits
def test_the_two_tier_limit_is_stated_with_its_numbers(build):
    two_leaf_fabric(build)  # SN5600 leaves and spines at 2x400G: 128 ports each
    (finding,) = analyze(build.doc).by_code("SCALE-LIMIT")
    assert finding.severity.value == "info"
    assert "at most 128 x 64 = 8,192 NIC ports = 1,024 servers of 8 NICs" in finding.message
    assert "this design has 32 compute NIC links (0.4%)" in finding.message


def test_more_nics_than_a_two_tier_fabric_of_these_switches_carries_warns(build):
    # 32-port SN4700 leaves and spine: at most 32 leaves x 16 = 512 NIC ports at 1:1
    build.dev("spine-1", "nvidia-sn4700", role="spine")
    for leaf in range(17):
        build.dev(f"leaf-{leaf}", "nvidia-sn4700")
        build.link(f"u{leaf}", f"leaf-{leaf}", "swp32", "spine-1", f"swp{leaf + 1}")
    for n in range(65):  # 65 x 8 = 520 NICs, 31 per leaf
        build.dev(f"gpu-{n}", HGX)
        for r in range(8):
            k = 8 * n + r
            build.link(f"s{k}", f"gpu-{n}", f"p{r + 1}", f"leaf-{k // 31}", f"swp{k % 31 + 1}")
    (finding,) = analyze(build.doc).by_code("SCALE-LIMIT")
    assert finding.severity.value == "warning"
    assert "at most 32 x 16 = 512 NIC ports" in finding.message
    assert "520 compute NIC links (101.6%)" in finding.message


# ---------------------------------------------------------------------------- fibre polish, polarity
def test_apc_and_upc_connectors_are_named_as_such(build):
    two_leaf_fabric(build)  # SR4 optics with MPO-12/APC
    update_link(build.doc, "s11", cable="generic-mpo-12-upc-om4-trunk")
    found = [f for f in analyze(build.doc).by_code("FORM-FACTOR") if f.objects[0] == "s11"]
    assert len(found) == 2  # both ends
    assert all("an angled (APC) and a flat (UPC) ferrule do not mate" in f.message for f in found)


def test_a_straight_through_cord_between_two_transceivers_never_comes_up(catalog):
    from conftest import Build

    from aicnet_gui.model.catalog import Catalog
    from aicnet_gui.model.catalog_entities import CableAssembly
    from aicnet_gui.model.document import FabricDocument

    straight = CableAssembly.model_validate({
        **catalog.cables["nvidia-mfp7e10"].model_dump(),
        "id": "test-mpo-12-apc-type-a", "model": "MPO-12/APC Type A", "polarity": "Type A"})
    doc = FabricDocument(catalog.merged(Catalog([straight])))  # the session catalog stays as it is
    update_settings(doc, technology="rocev2", pfc=True, ecn=True, dcb=True, mtu=9000)
    two_leaf_fabric(Build(doc))
    assert not analyze(doc).by_code("FIBRE-POLARITY")  # MFP7E10 crossover cords
    update_link(doc, "s11", cable="test-mpo-12-apc-type-a")
    (finding,) = analyze(doc).by_code("FIBRE-POLARITY")
    assert finding.objects[0] == "s11" and "transmitter to transmitter" in finding.message


# ---------------------------------------------------------------------------- out-of-band management
def test_servers_without_a_management_link_warn_once_a_management_network_exists(build):
    two_leaf_fabric(build)
    doc = build.doc
    assert not analyze(doc).by_code("OOB-UNMANAGED")  # no management network drawn yet
    build.dev("mgmt-1", "nvidia-sn4600c", role="mgmt")
    (finding,) = analyze(doc).by_code("OOB-UNMANAGED")
    assert finding.objects == ("gpu-1", "gpu-2", "gpu-3", "gpu-4")
    assert finding.message.startswith("4 server(s) have management ports")
    for n in range(1, 4):
        build.link(f"m{n}", f"gpu-{n}", "bmc", "mgmt-1", f"swp{n}")
    (finding,) = analyze(doc).by_code("OOB-UNMANAGED")
    assert finding.objects == ("gpu-4",)
    build.link("m4", "gpu-4", "bmc", "mgmt-1", "swp4")
    assert not analyze(doc).by_code("OOB-UNMANAGED")
