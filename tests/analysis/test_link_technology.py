"""A link runs the technology of its ends, not only the fabric's (model/fit.link_family).

In the InfiniBand SuperPOD example a DGX H100's slot-3 100GbE system management port (an
Ethernet-only card, User Guide Table 5) wired to an Ethernet management switch (SN2201) runs
Ethernet: Ethernet optics and cords are offered, accepted by
the analysis and chosen by the media generator; an InfiniBand-only optic there is flagged; a
compute (fabric) port wired to an Ethernet switch still is, with both reasons.  The mirror in a
RoCE design: a VPI storage port wired to an InfiniBand switch runs InfiniBand; the VPI in-band
port (slot 1/2 port 2) may go to either kind of switch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Build

from aicnet_gui.analysis import Analyzer, analyze
from aicnet_gui.editing.compat import (
    PortRef,
    cage_technology,
    compatible_cables,
    compatible_transceivers,
    connection_problem,
)
from aicnet_gui.fileio import load_fabric
from aicnet_gui.media import choose_media
from aicnet_gui.model.catalog_entities import Technology
from aicnet_gui.model.edits import AddDevice, AddLink, UpdateDevice, UpdateLink
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, Link

SUPERPOD = Path(__file__).resolve().parents[2] / "examples" / "superpod-1su.fabric"
SR4_100G = "generic-100gbase-sr4-qsfp28"  # Ethernet only
MPO12_UPC_OM4 = "generic-mpo-12-upc-om4-trunk"  # Ethernet only
IB_ONLY_OPTIC = "nvidia-mms4a20"  # XDR InfiniBand only
TECH_CODES = {"TECH-MISMATCH", "MEDIA-MISMATCH"}


@pytest.fixture
def superpod(catalog):
    doc = load_fabric(SUPERPOD, catalog)
    assert doc.settings.technology.value == "infiniband"
    dgx = sorted(d.id for d in doc.devices.values() if d.model == "nvidia-dgx-h100")[0]
    doc.apply([AddDevice(Device(id="mgmt-1", name="mgmt-1", model="nvidia-sn2201"))])
    return doc, dgx


def _sysmgmt_link(doc, dgx: str, cable: str | None = MPO12_UPC_OM4, optic: str = SR4_100G):
    cages = dict(doc.devices[dgx].cages)
    cages[9] = CageConfig(transceiver=optic)
    return doc.apply([
        UpdateDevice(dgx, {"cages": cages}),
        UpdateDevice("mgmt-1", {"cages": {49: CageConfig(transceiver=SR4_100G)}}),
        AddLink(Link(id="ib-1", a=Endpoint(device=dgx, port="sysmgmt1"),
                     b=Endpoint(device="mgmt-1", port="swp49"), cable=cable, length_m=3.0)),
    ])


def _codes(report, *objects: str) -> set[str]:
    return {f.code for f in report.findings if set(objects) & set(f.objects)}


def test_sysmgmt_port_to_an_ethernet_management_switch_runs_ethernet(superpod):
    doc, dgx = superpod
    _sysmgmt_link(doc, dgx)
    report = analyze(doc)
    assert not _codes(report, "ib-1") & TECH_CODES, _codes(report, "ib-1")
    # the SN2201 is Ethernet only in an InfiniBand design, and legitimate: it carries in-band
    assert "TECH-MISMATCH" not in _codes(report, "mgmt-1")


def test_the_inspector_offers_ethernet_parts_for_the_sysmgmt_port(superpod, catalog):
    doc, dgx = superpod
    # before wiring, the slot-3 cage runs what its port runs: Ethernet (the catalog says so)
    assert cage_technology(doc, dgx, 9) == Technology.ETHERNET
    assert SR4_100G in {t.id for t in compatible_transceivers(doc, dgx, 9)}
    _sysmgmt_link(doc, dgx)
    assert cage_technology(doc, dgx, 9) == Technology.ETHERNET
    offered = {t.id for t in compatible_transceivers(doc, dgx, 9)}
    assert SR4_100G in offered and IB_ONLY_OPTIC not in offered
    assert MPO12_UPC_OM4 in {c.id for c in compatible_cables(doc, doc.links["ib-1"])}
    # a compute cage of the same DGX still gets the fabric's InfiniBand
    assert cage_technology(doc, dgx, 1) == Technology.INFINIBAND
    assert connection_problem(doc, PortRef(dgx, "sysmgmt2"), PortRef("mgmt-1", "swp50")) is None


def test_an_infiniband_optic_on_the_ethernet_link_is_flagged(superpod):
    doc, dgx = superpod
    _sysmgmt_link(doc, dgx, optic=IB_ONLY_OPTIC)
    messages = [f.message for f in analyze(doc).findings
                if f.code == "TECH-MISMATCH" and "ib-1" in f.objects]
    assert any("MMS4A20 is InfiniBand only; this link runs Ethernet" in m for m in messages), messages


def test_a_compute_port_on_an_ethernet_switch_is_still_flagged(superpod):
    doc, _ = superpod
    doc.apply([
        AddDevice(Device(id="dgx-x", name="dgx-x", model="nvidia-dgx-h100")),
        AddDevice(Device(id="eth-leaf", name="eth-leaf", model="nvidia-sn5600")),
        AddLink(Link(id="bad", a=Endpoint(device="dgx-x", port="p1"),
                     b=Endpoint(device="eth-leaf", port="swp1s0"))),
    ])
    findings = [f for f in analyze(doc).findings if f.code == "TECH-MISMATCH"]
    (link,) = [f for f in findings if "bad" in f.objects]
    assert ("at dgx-x (DGX H100) its compute ports are fabric ports and run the fabric's "
            "InfiniBand, at eth-leaf (SN5600) the SN5600 is Ethernet only") in link.message
    (device,) = [f for f in findings if f.objects == ("eth-leaf",)]
    assert "dgx-x:p1, which cannot run Ethernet, is wired to it" in device.message
    # the wire drag leaves it to the analysis (the project's technology may still change),
    # but refuses the Ethernet-only slot-3 port on an InfiniBand-only leaf: no setting makes
    # those talk; the VPI in-band port (ConnectX-7 slot 1 port 2) may go there
    assert connection_problem(doc, PortRef("dgx-x", "p2"), PortRef("eth-leaf", "swp2s0")) is None
    doc.apply([AddDevice(Device(id="ib-leaf", name="ib-leaf", model="nvidia-qm9700"))])
    assert connection_problem(doc, PortRef("dgx-x", "sysmgmt1"), PortRef("ib-leaf", "1/1")) == (
        "technology: at dgx-x:sysmgmt1 its sysmgmt ports run Ethernet, at ib-leaf:1/1 the QM9700 "
        "is InfiniBand only")
    # (the in-band cage runs at its card's 400G by default, as the QM9700's NDR port)
    assert connection_problem(doc, PortRef("dgx-x", "inband1"), PortRef("ib-leaf", "1/2")) is None


def test_the_media_generator_chooses_ethernet_parts_for_the_sysmgmt_link(superpod, catalog):
    doc, dgx = superpod
    _sysmgmt_link(doc, dgx, cable=None)
    result = choose_media(doc, ["ib-1"])
    assert not result.unresolved, result.unresolved
    doc.apply(result.ops)
    link = doc.links["ib-1"]
    assert link.cable is not None
    assert Technology.ETHERNET in catalog.cables[link.cable].technology
    for device, cage in ((dgx, 9), ("mgmt-1", 49)):
        optic = doc.devices[device].cages.get(cage)
        if optic is not None and optic.transceiver:
            assert Technology.ETHERNET in catalog.transceivers[optic.transceiver].technology
    assert not _codes(analyze(doc), "ib-1") & (TECH_CODES | {"CABLE-UNSET"})


def test_incremental_equals_full_across_mixed_technology_edits(superpod):
    doc, dgx = superpod
    analyzer = Analyzer(doc)
    analyzer.full()
    edits = [
        lambda: _sysmgmt_link(doc, dgx),
        lambda: doc.apply([UpdateLink("ib-1", {"cable": "nvidia-mfp7e10"})]),
        lambda: doc.apply([UpdateDevice("mgmt-1", {"cages": {49: CageConfig(
            transceiver=IB_ONLY_OPTIC)}})]),
        lambda: doc.apply([AddDevice(Device(id="eth-leaf", name="eth-leaf", model="nvidia-sn5600")),
                           AddLink(Link(id="bad", a=Endpoint(device=dgx, port="sysmgmt2"),
                                        b=Endpoint(device="eth-leaf", port="swp65")))]),
        # a compute link moved onto the Ethernet switch (no common technology), then the
        # slot-3 link moved there too: the far end decides the link's family and the switch's
        # device finding
        lambda: doc.apply([UpdateLink(doc.link_at(dgx, "p1").id, {
            "b": Endpoint(device="eth-leaf", port="swp1s0")})]),
        lambda: doc.apply([UpdateLink("ib-1", {"b": Endpoint(device="eth-leaf", port="swp2s0")})]),
    ]
    undo = []
    for make in edits:
        edit = make()
        undo.append(edit.inverse)
        assert analyzer.update(edit.changes) == Analyzer(doc).full()
    while undo:
        edit = doc.apply(undo.pop())
        assert analyzer.update(edit.changes) == Analyzer(doc).full()


def test_roce_design_storage_port_on_an_infiniband_switch_runs_infiniband(build: Build):
    # the mirror: a VPI storage port (InfiniBand or Ethernet) on a QM9700 in a RoCE design
    build.dev("dgx-1", "nvidia-dgx-h100")
    build.dev("ib-stor", "nvidia-qm9700")
    build.link("s1", "dgx-1", "s1", "ib-stor", "1/1")
    build.link("c1", "dgx-1", "p1", "ib-stor", "1/2")
    doc = build.doc
    assert cage_technology(doc, "dgx-1", 5) == Technology.INFINIBAND
    assert cage_technology(doc, "dgx-1", 6) == Technology.ETHERNET  # unwired: the fabric's
    findings = [f for f in analyze(doc).findings if f.code == "TECH-MISMATCH"]
    assert not [f for f in findings if "s1" in f.objects]
    # the compute port on the InfiniBand switch of a RoCE design is flagged, and so is the
    # switch, because a fabric port that must run Ethernet is wired to it
    assert [f for f in findings if "c1" in f.objects]
    (device,) = [f for f in findings if f.objects == ("ib-stor",)]
    assert "dgx-1:p1, which cannot run InfiniBand" in device.message
