"""Automatic media choice: plausible media for every link, copper only inside a rack, optics that
reach, twin-port cages never mixed, splitter legs sharing an assembly, re-choosing after racks
move, pinned links and per-tier limits; orderable parts before generic ones."""

from __future__ import annotations

import pytest

from aicnet_gui.analysis.lengths import link_length
from aicnet_gui.generators import RailOptimizedParams, TwoTierParams
from aicnet_gui.generators.template_params import MediaParams
from aicnet_gui.media import choose_media
from aicnet_gui.model.edits import UpdateLink, UpdateRack
from tests.doc_edits import update_device, update_link

from .conftest import check_media

HGX, SN5600, QM9700 = "generic-hgx-8-gpu-b3140h", "nvidia-sn5600", "nvidia-qm9700"


def test_superpod_uses_twin_port_multimode_optics(make):
    """DGX compute cages take the flat-top twin-port 2xSR4, QM9700 cages the finned one, each
    link one straight OM4 MPO fibre: SU distances are well inside the 50 m of SR4."""
    doc, result = make(RailOptimizedParams(sus=1, leaf=QM9700, spine=QM9700))
    assert check_media(doc) == {"fibre": 512}
    assert result.transceivers == {"nvidia-mma4z00-ns": 8 * 32 + 4 * 32,
                                   "nvidia-mma4z00-ns-flt": 32 * 4}
    assert {link.cable for link in doc.links.values()} == {"nvidia-mfp7e10"}
    assert result.unresolved == []


def test_discontinued_splitters_are_never_chosen(make, catalog):
    """HGX servers with QSFP112 NICs and their SN5600 leaf in one rack: the QSFP112 splitter DAC
    and the 1:2 splitter ACCs that served them are discontinued (NVIDIA: "use transceivers"),
    so every link takes optics even inside the rack; the parts stay in the catalog for designs
    that already use them.  (Splitter copper inside a rack: tests/test_catalog_xdr.py.)"""
    gone = {"nvidia-mcp7y10", "nvidia-mca7j60", "nvidia-mca7j65"}
    assert all(catalog.cable(part).discontinued for part in gone)
    doc, result = make(TwoTierParams(servers=4, server=HGX, leaf=SN5600, attach="tor"))
    assert result.unresolved == []
    types = check_media(doc)
    assert not gone & {x.cable for x in doc.links.values()}
    assert types.get("DAC", 0) + types.get("ACC", 0) == 0  # before: MCP7Y10 and MCA7J65


def test_far_racks_get_single_mode(make):
    """Moving the spine rack 60 m away makes its links too long for multimode (50 m): the
    re-chosen media are 2xDR4 single-mode optics with OS2 fibre; the rest is unchanged."""
    doc, _ = make(RailOptimizedParams(sus=1, leaf=QM9700, spine=QM9700))
    spine = next(d for d in doc.devices.values() if d.role.value == "spine")
    rack = doc.racks[spine.rack]
    doc.apply([UpdateRack(rack.id, {"x_m": rack.x_m + 60})])
    moved = [x.id for x in doc.links.values() if spine.rack in
             (doc.devices[x.a.device].rack, doc.devices[x.b.device].rack)]
    result = choose_media(doc, moved)
    assert result.unresolved == [] and result.ops
    doc.apply(result.ops)
    check_media(doc)
    for link_id in moved:
        link = doc.links[link_id]
        assert link.cable == "nvidia-mfp7e30"
        assert link_length(doc, link).length_m > 50
    server_leaf = {x.cable for x in doc.links.values() if x.a.device.startswith("gpu")}
    assert server_leaf == {"nvidia-mfp7e10"}


def test_rechoosing_unchanged_fabric_changes_nothing(make):
    doc, _ = make(TwoTierParams(servers=4, server=HGX, leaf=SN5600, attach="tor"))
    result = choose_media(doc)
    assert result.ops == []
    assert result.links == len(doc.links)


def test_rechoosing_after_an_assembly_rename_keeps_the_new_name(make):
    """The assembly groups are worked out once per document revision (a fix checker asks for
    one link at a time): an edit in between must be seen."""
    # leaf-spine on twin-port AOCs (one assembly per two links): NVIDIA's optics are the default
    aoc = {"leaf-spine": ["aoc"]}
    doc, _ = make(TwoTierParams(servers=4, server=HGX, leaf=SN5600, attach="tor",
                                media=MediaParams(allowed=aoc)))
    assert choose_media(doc, allowed=aoc).ops == []
    old = next(x.assembly for x in doc.links.values() if x.assembly)
    legs = sorted(x.id for x in doc.links.values() if x.assembly == old)
    doc.apply([UpdateLink(leg, {"assembly": "renamed-1"}) for leg in legs])
    assert choose_media(doc, legs[:1], allowed=aoc).ops == []
    assert choose_media(doc, allowed=aoc).ops == []


def test_pinned_links_and_their_cage_partners_are_left_alone(make):
    """A pinned link holds its whole component: the other link of its twin-port cage must keep
    the same optic, so it is held too."""
    doc, _ = make(RailOptimizedParams(sus=1, leaf=QM9700, spine=QM9700))
    for rack in list(doc.racks.values()):
        doc.apply([UpdateRack(rack.id, {"x_m": (rack.x_m or 0) * 10})])
    pinned = next(iter(doc.links))
    result = choose_media(doc, pinned=[pinned])
    assert pinned in result.held
    assert len(result.held) >= 2
    touched = {op.id for op in result.ops if hasattr(op, "id")}
    assert not touched & set(result.held)


def test_a_link_pinned_in_the_model_is_left_alone(make):
    """`Link.pinned` (saved in the file) holds the link and its cage partner like `pinned=`."""
    doc, _ = make(RailOptimizedParams(sus=1, leaf=QM9700, spine=QM9700))
    for rack in list(doc.racks.values()):
        doc.apply([UpdateRack(rack.id, {"x_m": (rack.x_m or 0) * 10})])
    pinned = next(iter(doc.links))
    update_link(doc, pinned, pinned=True)
    result = choose_media(doc)
    assert pinned in result.held and len(result.held) >= 2
    touched = {op.id for op in result.ops if hasattr(op, "id")}
    assert not touched & set(result.held)


def test_per_tier_limit(make):
    """`allowed` restricts media classes per tier: leaf-spine forced to single-mode."""
    doc, _ = make(RailOptimizedParams(sus=1, leaf=QM9700, spine=QM9700))
    result = choose_media(doc, allowed={"leaf-spine": ["smf"]})
    doc.apply(result.ops)
    check_media(doc)
    leaf_spine = {x.cable for x in doc.links.values() if x.a.device.startswith("leaf")}
    server_leaf = {x.cable for x in doc.links.values() if x.a.device.startswith("gpu")}
    assert leaf_spine == {"nvidia-mfp7e30"} and server_leaf == {"nvidia-mfp7e10"}


def test_generator_media_limits_and_exclusions(make):
    """MediaParams in the template: leaf-spine single-mode, and a part excluded."""
    doc, result = make(RailOptimizedParams(
        sus=1, leaf=QM9700, spine=QM9700,
        media=MediaParams(allowed={"leaf-spine": ["smf"]}, excluded_parts=["nvidia-mms4x00-ns"]),
    ))
    check_media(doc)
    assert "nvidia-mms4x00-ns" not in result.transceivers
    assert result.transceivers.get("nvidia-mms4x00-nm") == 8 * 16 + 4 * 32


def test_no_media_reaches_is_reported_not_guessed(make):
    """A spine rack 600 m away: no cord in the catalog is stocked that long (the SMF MPO ladder
    ends at the 500 m limit of the cord), so those links keep their media and the result says
    why."""
    doc, _ = make(RailOptimizedParams(sus=1, leaf=QM9700, spine=QM9700))
    spine = next(d for d in doc.devices.values() if d.role.value == "spine")
    rack = doc.racks[spine.rack]
    doc.apply([UpdateRack(rack.id, {"x_m": rack.x_m + 600})])
    result = choose_media(doc)
    assert result.unresolved
    assert all("reaches" in u.reason for u in result.unresolved)
    unresolved = {link for u in result.unresolved for link in u.links}
    touched = {op.id for op in result.ops}
    assert not touched & unresolved
    assert all(link_length(doc, doc.links[x]).length_m > 500 for x in unresolved)


def test_an_equally_good_part_in_use_is_kept(make):
    """The IB+Ethernet MMA4Z00-NS is as cheap as the Ethernet-only -T the chooser prefers on
    Ethernet; where the user installed it, re-choosing proposes no change."""
    doc, _ = make(TwoTierParams(servers=8, server=HGX, leaf=SN5600))
    leaf = doc.device_by_name("leaf-01")
    cages = {n: c.model_copy(update={"transceiver": "nvidia-mma4z00-ns"})
             for n, c in leaf.cages.items()}
    update_device(doc, leaf.id, cages=cages)
    assert choose_media(doc).ops == []


@pytest.mark.parametrize("params", [
    RailOptimizedParams(sus=1, server="nvidia-dgx-b300", leaf="nvidia-sn5610", planes=2),
    TwoTierParams(servers=16, server=HGX, leaf=SN5600, attach="tor"),
], ids=["b300-two-plane-sn5610", "hgx-sn5600-tor"])
def test_orderable_parts_are_chosen_before_generic_ones(make, params):
    """A generic 800G OSFP AOC (no vendor, no part number, no power figure) used to win every
    short leaf-spine run over NVIDIA's twin-port SR4 optics and MFP7E10 fibres: 1,024 of them
    in two SUs of two-plane DGX B300, a BOM line nobody can order.  Now every part the
    generator chooses has a part number where one reaches."""
    doc, _ = make(params)
    used = {lk.cable for lk in doc.links.values()}
    used |= {c.transceiver for d in doc.devices.values() for c in d.cages.values()}
    used.discard(None)
    parts = [doc.catalog.cables.get(i) or doc.catalog.transceivers[i] for i in used]
    assert parts and all(part.part_numbers for part in parts), sorted(
        p.id for p in parts if not p.part_numbers)


def test_a_long_run_takes_the_vendors_optic_over_a_generic_one_of_the_same_family(make):
    """Leaf-spine runs of 400 m on SN5600: NVIDIA's MMS4X00-NM (2 x DR4, 500 m, 17 W) and the
    generic 800G 2 x DR4 OSFP tie on power and reach; the generic one won on being
    Ethernet-only, so the BOM had 64 optics nobody can order."""
    from aicnet_gui.model.edits import UpdateLink

    doc, _ = make(TwoTierParams(servers=4, server=HGX, leaf=SN5600, attach="tor"))
    up = [i for i, lk in doc.links.items()
          if {doc.tier_of(lk.a.device), doc.tier_of(lk.b.device)} == {1, 2}]
    doc.apply([UpdateLink(i, {"length_m": 400.0}) for i in up])
    doc.apply(choose_media(doc, up).ops)
    spines = [d for d in doc.devices.values() if doc.role_of(d).value == "spine"]
    optics = {c.transceiver for d in spines for c in d.cages.values() if c.transceiver}
    assert optics == {"nvidia-mms4x00-nm"}
