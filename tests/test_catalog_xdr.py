"""XDR (Quantum-X800, ConnectX-8) and 2026-class switch entries of the built-in catalog: the
1.6T twin-port and 800G single-port optics fit the cages they are made for and no other, the
XDR copper orders by its own part numbers, and a generated XDR fabric gets media that reaches on
every link, two and three tiers, with the XDR parts in its bill of materials."""

from __future__ import annotations

from collections import Counter

import pytest

from aicnet_gui.analysis import analyze, compute_bom
from aicnet_gui.analysis.lengths import link_length
from aicnet_gui.generators import RailOptimizedParams, TwoTierParams, generate
from aicnet_gui.generators.template_params import FloorParams
from aicnet_gui.model.catalog_entities import Technology, length_of_part_number
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.fit import CageSpec, cage_spec, optic_in_cage

B300, Q3400, Q3200 = "nvidia-dgx-b300", "nvidia-q3400-ra", "nvidia-q3200-ra-half"
XDR_SWITCH_OPTIC, XDR_NIC_OPTIC = "nvidia-mms4a00-xm", "nvidia-mms4a20"
#: findings that mean a link has no media, the wrong media, or media that does not reach
MEDIA_CODES = {"CABLE-UNSET", "REACH-EXCEEDED", "MEDIA-MISMATCH", "OPTIC-MISSING",
               "FORM-FACTOR", "SPEED-MISMATCH", "TECH-MISMATCH", "TWIN-PORT-MIXED-FIBRE",
               "LENGTH-UNKNOWN", "DAC-ACROSS-RACKS"}


def _spec(catalog, device: str, mode: str) -> CageSpec:
    model = catalog.device(device)
    group = next(g for g in model.cages if g.fabric)
    legs, speed = mode.rstrip("G").split("x")
    return cage_spec(group, int(legs), int(speed), model.is_switch)


def _generate(catalog, params):
    doc = FabricDocument(catalog)
    result = generate(doc, params)
    return doc, result


def _media_problems(doc) -> list[str]:
    report = analyze(doc)
    return [f"{f.code}: {f.message}" for f in report.findings if f.code in MEDIA_CODES]


def test_xdr_optics_fit_only_xdr_cages(catalog):
    """The 1.6T twin-port goes into a Quantum-X800 cage, not a Quantum-2 one (200G lanes do not
    downshift); the NDR twin-port does not go into a Quantum-X800 cage; the 800G single-port
    goes into the ConnectX-8 cage of a DGX B300 and not into a switch."""
    ib = Technology("infiniband")
    mms4a00, mms4a20 = catalog.transceiver(XDR_SWITCH_OPTIC), catalog.transceiver(XDR_NIC_OPTIC)
    ndr = catalog.transceiver("nvidia-mms4x00-nm")
    q3400 = _spec(catalog, Q3400, "2x800G")
    assert optic_in_cage(q3400, mms4a00, ib) is None
    assert optic_in_cage(_spec(catalog, Q3200, "2x800G"), mms4a00, ib) is None
    assert optic_in_cage(_spec(catalog, "nvidia-qm9700", "2x400G"), mms4a00, ib) is not None
    assert optic_in_cage(q3400, ndr, ib) is not None
    b300 = _spec(catalog, B300, "1x800G")
    assert optic_in_cage(b300, mms4a20, ib) is None
    assert optic_in_cage(q3400, mms4a20, ib) is not None  # flat single-port: NIC side only
    assert optic_in_cage(b300, mms4a00, ib) is not None


def test_xdr_copper_orders_by_its_length_coded_numbers(catalog):
    """The XDR ordering numbers end in an `X` length code; the BOM orders the number of the
    stock length, and the ladder holds exactly those lengths."""
    assert length_of_part_number("980-9IAM3-00X02A") == 2.5
    assert length_of_part_number("980-9IAO5-00X001") == 1.0
    assert length_of_part_number("MCP4Y10-N01A") == 1.5  # the NDR code still reads
    assert length_of_part_number("980-9IAH1-00XM00") is None  # an optic, not a length
    acc = catalog.cable("nvidia-mca4k50")
    assert acc.order_number(1.5) == "980-9IAM5-00X01A"
    assert acc.order_number(3) == "980-9IAM3-00X003"
    assert acc.stock_lengths_m == [1, 1.5, 2, 2.5, 3]
    splitter = catalog.cable("nvidia-mca7k10")
    assert splitter.legs == 2 and splitter.max_length_m == 2
    assert splitter.order_number(2) == "980-9IAO5-00X002"


def test_xdr_entries_without_a_primary_power_figure_stay_unverified(catalog):
    """No NVIDIA document states the XDR optics' power: the entries carry a figure (the schema
    needs one), say where it comes from, and are not marked verified."""
    for part in (XDR_SWITCH_OPTIC, XDR_NIC_OPTIC, "nvidia-mca4k50", "nvidia-mca7k10", Q3200,
                 "nvidia-sn5610"):
        entry = catalog.get(part)
        assert entry is not None and entry.verified is False, part
    assert "not NVIDIA's number" in catalog.transceiver(XDR_SWITCH_OPTIC).notes
    assert "not NVIDIA's number" in catalog.transceiver(XDR_NIC_OPTIC).notes


@pytest.mark.parametrize("params", [
    RailOptimizedParams(sus=2, server=B300, leaf=Q3400),
    RailOptimizedParams(sus=4, server=B300, leaf=Q3400, core=Q3400, tiers="3", sus_per_pod=2),
    RailOptimizedParams(sus=1, nodes_per_su=16, server=B300, leaf=Q3200),
], ids=["two-tier-q3400", "three-tier-q3400", "two-tier-q3200"])
def test_generated_xdr_fabric_has_media_that_reaches(catalog, params):
    """Every link of a generated XDR fabric gets an XDR optic at each end (or XDR copper) and a
    cord stocked long enough; the validator finds nothing wrong with the media; the BOM lists
    the XDR parts."""
    doc, result = _generate(catalog, params)
    assert result.unresolved == []
    for link in doc.links.values():
        assert link.cable is not None, link.id
        length = link_length(doc, link)
        assert length.ordered_m is not None and length.ordered_m >= length.length_m, link.id
    assert _media_problems(doc) == []
    bom = compute_bom(doc)
    assert bom.links_without_cable == 0
    assert set(bom.transceivers) == {XDR_SWITCH_OPTIC, XDR_NIC_OPTIC}
    assert bom.transceivers[XDR_NIC_OPTIC] == sum(
        1 for d in doc.devices.values() if d.model == B300) * 8
    assert "MMS4A00-XM" in catalog.transceiver(XDR_SWITCH_OPTIC).part_numbers
    assert any(key.startswith("nvidia-mfp7e30@") for key in bom.cables)


def test_three_tier_xdr_core_links_use_the_twin_port_at_both_ends(catalog):
    """Spine-core links of an XDR fabric join two Quantum-X800 cages: a 1.6T twin-port at each
    end over straight single-mode cords (no splitter between switches)."""
    doc, _ = _generate(catalog, RailOptimizedParams(
        sus=4, server=B300, leaf=Q3400, core=Q3400, tiers="3", sus_per_pod=2))
    roles = {d.id: d.role.value for d in doc.devices.values()}
    core_links = [x for x in doc.links.values()
                  if {roles[x.a.device], roles[x.b.device]} == {"spine", "core"}]
    assert core_links
    assert Counter(x.cable for x in core_links) == {"nvidia-mfp7e30": len(core_links)}
    for link in core_links[:50]:
        for end in (link.a, link.b):
            port = doc.port(end.device, end.port)
            assert doc.devices[end.device].cages[port.cage].transceiver == XDR_SWITCH_OPTIC


def test_xdr_copper_inside_a_rack(catalog):
    """Switches on top of the servers' rack: the switch-to-NIC runs inside the rack take the
    XDR 1:2 splitter copper where it reaches; nothing is left without media.  The rack must
    power four DGX B300 at their 15 kW maximum (DGX B300 User Guide, Power Specifications), the
    Q3400-RA and the optics: 70 kW (the B300-XDR RA's ~56 kW for four is a rack figure, not the
    maximum the placement counts)."""
    doc, result = _generate(catalog, TwoTierParams(servers=4, server=B300, leaf=Q3400,
                                                   attach="tor",
                                                   floor=FloorParams(rack_power_kw=70)))
    assert result.unresolved == []
    cables = Counter(x.cable for x in doc.links.values())
    assert cables["nvidia-mca7k10"] > 0
    splitters = [x for x in doc.links.values() if x.cable == "nvidia-mca7k10"]
    assert set(Counter(x.assembly for x in splitters).values()) == {2}  # two legs, one cable
    for link in splitters:
        assert link_length(doc, link).same_rack and link_length(doc, link).length_m <= 2
    assert _media_problems(doc) == []


def test_q3200_is_one_switch_of_the_box(catalog):
    """The Q3200-RA entry is one of the two independent switches of the 2U box: 18 twin-port
    cages (36 ports of 800G), half the box's height."""
    model = catalog.device(Q3200)
    fabric = [g for g in model.cages if g.fabric]
    assert sum(g.count for g in fabric) == 18
    assert fabric[0].lanes * fabric[0].lane_gbps == 1600
    assert model.height_ru == 1
    assert model.switching_tbps == pytest.approx(28.8)


def test_sn5610_is_a_spectrum_4_800g_switch(catalog):
    model = catalog.device("nvidia-sn5610")
    fabric = next(g for g in model.cages if g.fabric)
    assert (fabric.count, fabric.form_factor, fabric.lanes, fabric.lane_gbps) == (64, "OSFP", 8, 100)
    assert model.height_ru == 2 and model.switching_tbps == pytest.approx(51.2)
    assert model.power_typical_w is None  # no public figure: left empty, not guessed
