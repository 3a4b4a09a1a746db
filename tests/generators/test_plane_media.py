"""Media for multi-plane fabrics: the chooser asks model/fit.py for every cord, so a straight
fibre joins two optical ports that carry as many ports each (twin-port optics split 2x400G at
both ends of a leaf-spine link, port k to port k, one cord per optical port: NVIDIA's XDR part
list, "the same single mode, straight and 1:2 splitter crossover fiber cables are used for
both XDR and NDR"); where the wiring sends the ports of one optical port to different cages
(one per plane) no catalog cord can carry them and the generator says so."""

from __future__ import annotations

from collections import defaultdict

import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.generators import GeneratorError, RailOptimizedParams
from aicnet_gui.media import choose_media
from aicnet_gui.media.selector import Cage, Candidate, MediaLink, _Option, wiring_fits
from aicnet_gui.model.fit import CageSpec

from .conftest import check_media

B300, GB300 = "nvidia-dgx-b300", "nvidia-gb300-nvl72-compute-tray"
NODES = {B300: 32, GB300: 36}  # GB300 trays come in NVL72 racks of 18: two racks
Q3400, SN5600 = "nvidia-q3400-ra", "nvidia-sn5600"
MEDIA_CODES = {"CABLE-UNSET", "MEDIA-MISMATCH", "REACH-EXCEEDED"}


def codes(doc) -> set[str]:
    return {f.code for f in analyze(doc).findings}


@pytest.mark.parametrize("server", [B300, GB300])
def test_spectrum_x_two_planes_have_media_that_reaches_and_per_plane_metrics(server, make):
    """Spectrum-X, 2 x 400G per GPU (B300 RA): every link equipped, nothing out of reach, and
    each plane keeps the whole leaf bandwidth."""
    doc, result = make(RailOptimizedParams(sus=1, nodes_per_su=NODES[server], planes=2, server=server,
                                           leaf=SN5600))
    assert result.unresolved == []
    check_media(doc)
    report = analyze(doc)
    found = {f.code for f in report.findings}
    assert not found & MEDIA_CODES
    assert not [f for f in report.findings if f.severity.value == "error"]
    over = report.metrics.oversubscription.to_json()
    assert over["planes"] == {"1": {"leaf": 1.0}, "2": {"leaf": 1.0}}
    (workload,) = report.metrics.workloads
    assert workload.per_gpu_gbps == 800
    one, two = workload.plane_bisection_gbps["1"], workload.plane_bisection_gbps["2"]
    assert one == two and one + two == workload.bisection_gbps


@pytest.mark.parametrize("server", [B300, GB300])
def test_xdr_two_planes_leaf_spine_gets_straight_cords_between_split_ports(server, make):
    """Q3400-RA cages in 4x400G with MMS4A00-XM (2 optical ports, 2 x 400G each) wired leg to
    leg: one straight MFP7E30 per optical port carries its two links (one assembly, the same
    two cages).  These links were left without media before."""
    doc, _ = make(RailOptimizedParams(sus=1, nodes_per_su=NODES[server], planes=2, server=server,
                                      leaf=Q3400, choose_media=False))
    switch_links = sorted(x.id for x in doc.links.values()
                          if doc.role_of(doc.devices[x.a.device]).value != "gpu_server"
                          and doc.role_of(doc.devices[x.b.device]).value != "gpu_server")
    chosen = choose_media(doc, switch_links)
    assert chosen.unresolved == []
    doc.apply(chosen.ops)
    links = [doc.links[i] for i in switch_links]
    assert all(x.cable == "nvidia-mfp7e30" for x in links)
    per_cord: dict[str, list] = defaultdict(list)
    for link in links:
        per_cord[link.assembly].append(link)
    assert all(len(legs) == 2 for legs in per_cord.values())
    for legs in per_cord.values():
        assert len({(x.a.device, x.b.device) for x in legs}) == 1
    report = analyze(doc)
    assert not [f for f in report.findings if f.code in MEDIA_CODES | {"PORT-DUPLICATE"}
                and set(f.objects) & set(switch_links)]


@pytest.mark.parametrize("server", [B300, GB300])
def test_xdr_two_planes_nic_side_is_refused_with_the_reason(server, make):
    """A ConnectX-8 cage split 2 x 400G toward two planes has no XDR part in the catalog
    (MMS4A20 runs 1x800G or 1x400G on one MPO; the flat twin-ports are NDR, 100G lanes, and
    NVIDIA's XDR list: 200G-PAM4 optics cannot downshift): the generator says so instead of
    writing a design whose server links have no media."""
    with pytest.raises(GeneratorError, match="cannot be joined by any catalog cable or cord"):
        make(RailOptimizedParams(sus=1, nodes_per_su=NODES[server], planes=2, server=server, leaf=Q3400))


def test_four_planes_say_why_the_nic_ports_cannot_be_cabled(make):
    """4 x 200G per NIC, each to its own plane: the two ports of one optical port of the NIC's
    twin-port module go to two switches; no catalog cord regroups them, and the reason says so
    instead of blaming the length."""
    with pytest.raises(GeneratorError, match="go to different cages"):
        make(RailOptimizedParams(sus=1, nodes_per_su=32, planes=4, server=B300, leaf=SN5600))


def test_the_fix_of_an_uncablable_four_plane_link_does_not_blame_the_distance(make):
    """Built without media, the same 4-plane SU flags every NIC link CABLE-UNSET; its fix says
    why no cord exists (no catalog cord regroups the fibres), not "move the devices closer"
    (moving the devices would not help)."""
    doc, _result = make(RailOptimizedParams(sus=1, nodes_per_su=32, planes=4, server=B300,
                                            leaf=SN5600, choose_media=False))
    from aicnet_gui.repair.media_fix import media_fix

    unset = [f for f in analyze(doc).findings if f.code == "CABLE-UNSET"]
    assert unset
    link_id = next(o for o in unset[0].objects if o in doc.links)
    fix = media_fix(doc, link_id).description
    assert "no catalog cord regroups them" in fix and "closer" not in fix, fix


SPLIT = CageSpec("OSFP", "finned", 4, 400, 200, True)


def _straight_between_split_ports() -> Candidate:
    from aicnet_gui.catalog import builtin_catalog

    optic = builtin_catalog().transceivers["nvidia-mms4a00-xm"]
    option = _Option(optic, 2, ("DR4", "SMF", "MPO-12/APC"), 500.0)
    return Candidate(5, 50.0, 500.0, "smf", optics={SPLIT: option},
                     cords={(2, 2): "nvidia-mfp7e30"})


def _links(pairs: list[tuple[int, int, int, int]]) -> list[MediaLink]:
    return [MediaLink(f"l{i}", a, al, b, bl, 10.0, "leaf-spine")
            for i, (a, al, b, bl) in enumerate(pairs)]


def test_a_straight_cord_needs_port_k_to_port_k_of_one_optical_port():
    cages = [Cage(f"d{i}", 1, SPLIT, "r") for i in range(3)]
    choice = _straight_between_split_ports()
    assert wiring_fits(choice, _links([(0, 1, 1, 1), (0, 2, 1, 2), (0, 3, 1, 3), (0, 4, 1, 4)]),
                       cages)
    # legs crossed inside an optical port: port 1 would meet port 2
    assert not wiring_fits(choice, _links([(0, 1, 1, 2), (0, 2, 1, 1)]), cages)
    # one optical port's two ports to two different cages (one per plane)
    assert not wiring_fits(choice, _links([(0, 1, 1, 1), (0, 2, 2, 2)]), cages)
