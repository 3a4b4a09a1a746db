"""Per-link rules on hand-made links: each case and its expected finding, and one-click fixes."""

from __future__ import annotations

from conftest import DAC800, HGX, MMF, NIC_OPTIC, SN5600, TWIN_SR4, ib

from aicnet_gui.analysis import analyze

QM9700 = "nvidia-qm9700"


def only(report, code):
    found = report.by_code(code)
    assert found, f"no {code} in {[f.code for f in report.findings]}"
    return found


def apply_fix(doc, finding):
    assert finding.fix is not None and finding.fix.applicable, finding
    doc.apply(list(finding.fix.ops))


def test_clean_server_leaf_link(build):
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC})
    build.dev("leaf-1", SN5600, optics={1: TWIN_SR4})
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF, length_m=10)
    report = analyze(build.doc)
    assert not [f for f in report.findings if f.severity == "error"], report.findings


def test_800g_port_to_400g_nic_is_a_speed_mismatch_with_a_one_click_fix(build):
    doc = build.doc
    build.dev("leaf-1", SN5600, modes={3: "1x800G"}, optics={3: TWIN_SR4})
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC})
    build.link("c1", "leaf-1", "swp3", "gpu-1", "p1", cable=MMF, length_m=5)
    speed = only(analyze(doc), "SPEED-MISMATCH")
    assert any("runs at 800G (1x800G) but gpu-1:p1 at 400G" in f.message for f in speed)
    fix = next(f for f in speed if f.fix and f.fix.applicable)
    assert "set cage 3 of leaf-1 to 2x400G" in fix.fix.description
    apply_fix(doc, fix)
    assert doc.links["c1"].a.port == "swp3s0"  # the link moved to the renamed port
    assert not analyze(doc).by_code("SPEED-MISMATCH")


def test_osfp_optic_in_a_qsfp112_cage_is_a_form_factor_error(build):
    build.dev("gpu-1", HGX, optics={1: TWIN_SR4})
    build.dev("leaf-1", SN5600, optics={1: TWIN_SR4})
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF, length_m=5)
    (finding,) = only(analyze(build.doc), "FORM-FACTOR")
    assert "MMA4Z00-NS is a OSFP module; the cage is QSFP112" in finding.message
    assert finding.objects == ("c1", "gpu-1", "leaf-1")
    # the suggested optic fits the cage and talks SR4 to the leaf's 2xSR4
    assert finding.fix.applicable
    build.doc.apply(list(finding.fix.ops))
    assert build.doc.devices["gpu-1"].cages[1].transceiver == NIC_OPTIC


def test_flat_top_optic_in_a_finned_switch_cage(build):
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC})
    build.dev("leaf-1", SN5600, optics={1: "nvidia-mma4z00-ns-flt"})
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF, length_m=5)
    (finding,) = only(analyze(build.doc), "FORM-FACTOR")
    assert "flat-top but the cage is finned" in finding.message


def test_multimode_and_single_mode_ends_are_a_media_mismatch(build):
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC})
    build.dev("leaf-1", SN5600, optics={1: "nvidia-mms4x00-nm"})
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF, length_m=5)
    messages = [f.message for f in only(analyze(build.doc), "MEDIA-MISMATCH")]
    assert any("multimode and single-mode optics cannot link" in m for m in messages)
    assert any("OM4 MMF cord on the SMF MMS4X00-NM" in m for m in messages)


def test_sr4_against_dr4_of_the_same_media_family(build):
    build.dev("a", SN5600, optics={1: "nvidia-mms4x00-nm"})
    build.dev("b", HGX, optics={1: "generic-400gbase-dr4-qsfp112"})
    build.link("c1", "a", "swp1s0", "b", "p1", cable="nvidia-mfp7e30", length_m=5)
    assert not analyze(build.doc).by_code("MEDIA-MISMATCH")  # 2xDR4 talks to DR4


def test_ethernet_only_optic_in_an_infiniband_fabric(build):
    ib(build)
    build.dev("leaf-1", QM9700, optics={1: "nvidia-mma4z00-ns-t"})
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC})
    build.link("c1", "leaf-1", "1/1", "gpu-1", "p1", cable=MMF, length_m=5)
    report = analyze(build.doc)
    (finding,) = [f for f in only(report, "TECH-MISMATCH") if "c1" in f.objects]
    assert "MMA4Z00-NS-T is Ethernet only; this fabric runs InfiniBand" in finding.message
    assert finding.fix.applicable  # the IB-capable twin-port optic


def test_infiniband_switch_wired_to_ethernet_switch(build):
    ib(build)
    build.dev("ib", QM9700)
    build.dev("eth", SN5600)
    build.link("c1", "ib", "1/1", "eth", "swp1s0", cable=DAC800, length_m=1)
    messages = [f.message for f in only(analyze(build.doc), "TECH-MISMATCH")]
    assert any("cannot talk" in m for m in messages)
    # and the Ethernet switch in the InfiniBand fabric, per device
    assert any("SN5600) is Ethernet only, but the fabric runs infiniband" in m for m in messages)


def test_fibre_cord_without_optic_and_link_without_cable(build):
    doc = build.doc
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC})
    build.dev("leaf-1", SN5600)
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF, length_m=5)
    build.link("c2", "gpu-1", "p2", "leaf-1", "swp2s0")
    report = analyze(doc)
    (missing,) = only(report, "OPTIC-MISSING")
    assert missing.objects[0] == "c1" and "leaf-1:swp1s0 (cage 1)" in missing.message
    (unset,) = only(report, "CABLE-UNSET")
    assert unset.objects[0] == "c2" and unset.severity == "warning"
    apply_fix(doc, missing)
    assert doc.devices["leaf-1"].cages[1].transceiver is not None
    assert not analyze(doc).by_code("OPTIC-MISSING")


def test_dac_plug_in_a_cage_that_holds_an_optic_is_a_port_used_twice(build):
    doc = build.doc
    build.dev("a", SN5600, optics={1: TWIN_SR4})
    build.dev("b", SN5600)
    build.link("c1", "a", "swp1s0", "b", "swp1s0", cable=DAC800, length_m=1)
    (finding,) = only(analyze(doc), "PORT-DUPLICATE")
    assert "holds the MMA4Z00-NS optic" in finding.message
    apply_fix(doc, finding)
    assert 1 not in doc.devices["a"].cages


def test_2m_dac_between_racks_6m_apart_is_an_error(build):
    build.rack("r1", x=0.0)
    build.rack("r2", x=6.0)
    build.dev("a", SN5600, rack="r1", ru=41)
    build.dev("b", SN5600, rack="r2", ru=1)
    build.link("c1", "a", "swp1s0", "b", "swp1s0", cable=DAC800)
    (finding,) = only(analyze(build.doc), "DAC-ACROSS-RACKS")
    assert finding.severity == "error"
    assert "reaches at most 2 m, but the run from rack R1 to rack R2 is 11.05 m" in finding.message
    assert not analyze(build.doc).by_code("REACH-EXCEEDED")  # one finding, not two


def test_dac_between_adjacent_racks_that_fits_is_a_warning(build):
    build.rack("r1", x=0.0)
    build.rack("r2", x=0.6)
    build.dev("a", SN5600, rack="r1", ru=44)
    build.dev("b", SN5600, rack="r2", ru=44)
    # passive DAC (2 m), typed in at 1.5 m; an ACC there is judged by its reach (issue 21)
    build.link("c1", "a", "swp1s0", "b", "swp1s0", cable="nvidia-mcp4y10", length_m=1.5)
    (finding,) = only(analyze(build.doc), "DAC-ACROSS-RACKS")
    assert finding.severity == "warning"


def test_reach_exceeded_and_no_stock_length(build):
    build.dev("gpu-1", HGX, optics={1: NIC_OPTIC, 2: NIC_OPTIC})
    build.dev("leaf-1", SN5600, optics={1: TWIN_SR4})
    build.dev("mgmt-1", "nvidia-sn2201", role="mgmt")
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF, length_m=60)
    # Cat6A carries 1000BASE-T 100 m, but the patch-cord ladder stops at 30 m
    build.link("c2", "gpu-1", "bmc", "mgmt-1", "swp1", cable="generic-cat6a-patch-cord",
               length_m=60)
    report = analyze(build.doc)
    by_link = {f.objects[0]: f.message for f in only(report, "REACH-EXCEEDED")}
    assert "60 m (typed-in) is longer than the 50 m reach of MFP7E10" in by_link["c1"]
    assert "no stock length of the Cat6A patch cord covers 60 m" in by_link["c2"]


def test_unplaced_device_has_unknown_lengths(build):
    build.rack("r1")
    build.dev("gpu-1", HGX, rack="r1", ru=1, optics={1: NIC_OPTIC})
    build.dev("leaf-1", SN5600, optics={1: TWIN_SR4})
    build.link("c1", "gpu-1", "p1", "leaf-1", "swp1s0", cable=MMF)
    (finding,) = only(analyze(build.doc), "LENGTH-UNKNOWN")
    assert finding.objects == ("leaf-1",) and "is not placed in a rack" in finding.message
