"""FEC and lane-rate compatibility (issue 21, item 6): FEC-MISMATCH against the line each end
runs (IEEE 802.3: RS(544,514) on PAM4 lanes, RS(528,514) on 25G NRZ optical lanes) and between
the two ends; optics whose optical lanes run at different rates cannot talk, with the numbers."""

from __future__ import annotations

import pytest
from conftest import SN5600

from aicnet_gui.analysis import analyze
from aicnet_gui.model.edits import UpdateDevice
from aicnet_gui.model.fabric import CageConfig, FabricTechnology
from aicnet_gui.model.fec import cable_line, optic_line, optical_lanes
from aicnet_gui.model.fit import optics_problem, pmds_link
from tests.doc_edits import update_settings

DR4 = "generic-800g-2xdr4-osfp"
OS2 = "nvidia-mfp7e30"
SN4600C = "nvidia-sn4600c"
SN5400 = "nvidia-sn5400"
SR4_100 = "generic-100gbase-sr4-qsfp28"
DAC_100 = "generic-100g-qsfp28-dac"


def fec(doc):
    return [f for f in analyze(doc).findings if f.code == "FEC-MISMATCH"]


def set_fec(doc, device, optic, value, cage=1):
    doc.apply([UpdateDevice(device, {"cages": {cage: CageConfig(transceiver=optic, fec=value)}})])


@pytest.fixture
def pam4(build):
    """Two SN5600s, 800G 2xDR4 optics: 400GBASE-DR4 per port, 4 x 100G PAM4 lanes."""
    build.rack("r1")
    build.dev("leaf-1", SN5600, rack="r1", ru=40, optics={1: DR4})
    build.dev("spine-1", SN5600, rack="r1", ru=42, role="spine", optics={1: DR4})
    build.link("u1", "leaf-1", "swp1s0", "spine-1", "swp1s0", cable=OS2)
    return build.doc


def test_the_line_of_each_pmd_and_cable(catalog):
    t, c = catalog.transceivers, catalog.cables
    assert (optical_lanes("400GBASE-DR4"), optical_lanes("100GBASE-DR"),
            optical_lanes("400GBASE-SR4.2"), optical_lanes("2xSR4")) == (4, 1, 8, 4)
    assert optic_line(t[SR4_100]).text() == "4 x 25G NRZ lanes with RS(528,514) KR4 FEC"
    assert optic_line(t["generic-100gbase-lr4-qsfp28"]).fec[0] == "off"  # clause 88
    # a 400G DR4 broken out in 4 x 100G: each leg is one 100G PAM4 lane
    assert optic_line(t["generic-400gbase-dr4-qsfp112"], 4).text() == (
        "1 x 100G PAM4 lane with RS(544,514) KP4 FEC")
    assert cable_line(c[DAC_100]).fec == ("rs528", "baser", "off")


def test_a_25g_nrz_sr4_and_a_100g_pam4_sr4_share_a_name_not_a_line(catalog):
    t = catalog.transceivers
    old, new = t[SR4_100], t["nvidia-mma1z00-ns400"]
    assert not pmds_link(old, new, breakout=False)
    assert optics_problem(old, new) == (
        "the 100GBASE-SR4 QSFP28 (100GBASE-SR4) runs 4 x 25G NRZ lanes with RS(528,514) KR4 "
        f"FEC, the {new.model} (SR4) 4 x 100G PAM4 lanes with RS(544,514) KP4 FEC: no gearbox "
        "in a fibre")
    # the standard breakouts keep one lane rate: 400G DR4 -> 100G DR, 800G DR8 -> 400G DR4
    assert pmds_link(t["generic-400gbase-dr4-qsfp112"], t["generic-100gbase-dr-qsfp28"], True)
    assert pmds_link(t["generic-800gbase-dr8-osfp"], t[DR4], True)


def test_a_dr4_leg_to_a_100g_lr4_states_both_lines(build):
    build.rack("r1")
    build.dev("leaf-1", SN5400, rack="r1", ru=40, optics={1: "generic-400gbase-dr4-qsfp-dd"},
              modes={1: "4x100G"})
    build.dev("tor-1", SN4600C, rack="r1", ru=42, optics={1: "generic-100gbase-lr4-qsfp28"})
    build.link("b1", "leaf-1", "swp1s0", "tor-1", "swp1",
               cable="generic-mpo-12-apc-to-4x-lc-os2-breakout", assembly="bk1")
    [finding] = [f for f in analyze(build.doc).findings
                 if f.code == "MEDIA-MISMATCH" and "cannot talk" in f.message]
    assert ("(1 x 100G PAM4 lane with RS(544,514) KP4 FEC against 4 x 25G NRZ lanes with no "
            "FEC)") in finding.message
    # the leg's own PMD, 100GBASE-DR, is the standard breakout partner
    build.doc.apply([UpdateDevice("tor-1", {"cages": {1: CageConfig(
        transceiver="generic-100gbase-dr-qsfp28")}})])
    assert [f for f in analyze(build.doc).findings if f.code == "MEDIA-MISMATCH"] == []


def test_kr4_fec_on_pam4_lanes_is_an_error_with_a_one_click_fix(pam4):
    assert fec(pam4) == []
    set_fec(pam4, "leaf-1", DR4, "rs528")
    [finding] = fec(pam4)
    assert finding.severity == "error"
    assert finding.objects == ("u1", "leaf-1", "spine-1")
    assert ("RS(528,514) KR4 FEC configured on 4 x 100G PAM4 lanes: RS(544,514) "
            "(clauses 91/134/119) is mandatory on PAM4 lanes") in finding.message
    pam4.apply(list(finding.fix.ops))
    assert pam4.devices["leaf-1"].cages[1].fec == "rs544"
    assert pam4.devices["leaf-1"].cages[1].transceiver == DR4  # the optic stays
    assert fec(pam4) == []


def test_no_fec_on_a_400g_dr4_is_an_error(pam4):
    set_fec(pam4, "leaf-1", DR4, "rs544")  # the default, written out: fine
    assert fec(pam4) == []
    set_fec(pam4, "spine-1", DR4, "off")
    [finding] = fec(pam4)
    assert "no FEC configured on 4 x 100G PAM4 lanes" in finding.message


def test_infiniband_ports_are_not_judged(pam4):
    update_settings(pam4, technology=FabricTechnology.INFINIBAND)
    set_fec(pam4, "leaf-1", DR4, "rs528")
    assert fec(pam4) == []


@pytest.fixture
def nrz(build):
    """Two SN4600Cs (QSFP28, 25G lanes) joined by a 100G DAC and, on cage 2, SR4 optics."""
    build.rack("r1")
    build.dev("tor-1", SN4600C, rack="r1", ru=40, optics={2: SR4_100})
    build.dev("tor-2", SN4600C, rack="r1", ru=42, optics={2: SR4_100})
    build.link("d1", "tor-1", "swp1", "tor-2", "swp1", cable=DAC_100)
    build.link("o1", "tor-1", "swp2", "tor-2", "swp2", cable="generic-mpo-12-upc-om4-trunk")
    return build.doc


def test_two_configured_ends_of_a_25g_dac_must_agree(nrz):
    set_fec(nrz, "tor-1", None, "rs528")
    assert fec(nrz) == []  # the other end negotiates (clause 73)
    set_fec(nrz, "tor-2", None, "baser")
    [finding] = fec(nrz)
    assert finding.message.startswith(
        "tor-1:swp1 runs RS(528,514) KR4 FEC, tor-2:swp1 runs BASE-R FEC (clause 74): both "
        "ends of a link must run the same FEC")
    nrz.apply(list(finding.fix.ops))
    assert nrz.devices["tor-2"].cages[1].fec == "rs528"
    assert fec(nrz) == []


def test_100gbase_sr4_needs_rs_fec(nrz):
    set_fec(nrz, "tor-1", SR4_100, "off", cage=2)
    found = [f for f in fec(nrz) if f.objects[0] == "o1"]
    assert found and "is required on 25G NRZ optical lanes" in found[0].message
    set_fec(nrz, "tor-1", SR4_100, "rs528", cage=2)
    assert [f for f in fec(nrz) if f.objects[0] == "o1"] == []
