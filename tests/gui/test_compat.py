"""The physical rules checked while wiring and offered in the inspector (pure functions)."""

from __future__ import annotations

from aicnet_gui.editing.compat import (
    PortRef,
    cable_fits,
    compatible_transceivers,
    connection_problem,
    transceiver_fits,
)
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, FabricTechnology, Link
from tests.doc_edits import add_device, add_link, update_device, update_settings


def add(doc, device_id: str, model: str, **extra) -> str:
    add_device(doc, Device(id=device_id, name=device_id, model=model, **extra))
    return device_id


def test_speed_mismatch_names_both_ends_and_a_breakout_that_would_match(doc):
    leaf = add(doc, "leaf", "nvidia-sn5600")
    hgx = add(doc, "hgx", "generic-hgx-8-gpu-b3140h")
    problem = connection_problem(doc, PortRef(hgx, "ns1"), PortRef(leaf, "swp1s0"))
    assert problem == ("speed: hgx:ns1 runs at 200G, leaf:swp1s0 at 400G; "
                       "set cage 1 of leaf to 4x200G")
    assert connection_problem(doc, PortRef(hgx, "p1"), PortRef(leaf, "swp1s0")) is None


def test_used_port_same_device_and_technology_are_refused(doc):
    leaf = add(doc, "leaf", "nvidia-sn5600")
    ib = add(doc, "ib", "nvidia-qm9700")
    hgx = add(doc, "hgx", "generic-hgx-8-gpu-b3140h")
    add_link(doc, Link(id="l1", a=Endpoint(device=hgx, port="p1"), b=Endpoint(device=leaf, port="swp1s0")))
    assert connection_problem(doc, PortRef(hgx, "p2"), PortRef(leaf, "swp1s0")) == (
        "leaf:swp1s0 is already used (cable to hgx:p1)")
    assert connection_problem(doc, PortRef(leaf, "swp2s0"), PortRef(leaf, "swp3s0")) == (
        "both ends are on the same device")
    assert connection_problem(doc, PortRef(ib, "1/1"), PortRef(leaf, "swp2s0")).startswith("technology:")
    # moving the end of l1 to another port: its own ports count as free
    assert connection_problem(doc, PortRef(hgx, "p1"), PortRef(leaf, "swp2s0"), moving_link="l1") is None
    # a port the catalog says runs Ethernet (the B3220 north-south ports) on an InfiniBand-only
    # switch: no fabric setting makes them talk (a compute port on the SN5600 above is left to
    # the analysis: it runs the fabric's technology, which the project may still change)
    assert connection_problem(doc, PortRef(hgx, "ns1"), PortRef(ib, "1/2")) == (
        "technology: at hgx:ns1 its north-south ports run Ethernet, at ib:1/2 the QM9700 is "
        "InfiniBand only")


def test_optics_offered_for_a_cage_match_form_factor_top_and_breakout(doc, catalog):
    leaf = add(doc, "leaf", "nvidia-qm9700")
    dgx = add(doc, "dgx", "nvidia-dgx-h100")
    twin_finned = catalog.transceivers["nvidia-mma4z00-ns"]
    twin_flat = catalog.transceivers["nvidia-mma4z00-ns-flt"]
    assert transceiver_fits(doc, leaf, 5, twin_finned)
    assert not transceiver_fits(doc, leaf, 5, twin_flat)  # switch cages take finned tops
    assert transceiver_fits(doc, dgx, 1, twin_flat)  # the DGX NIC cage takes flat tops
    assert not transceiver_fits(doc, dgx, 1, twin_finned)
    offered = {t.id for t in compatible_transceivers(doc, leaf, 5)}
    assert "nvidia-mma4z00-ns" in offered and "nvidia-mma1z00-ns400" not in offered


def test_cables_fit_by_ends_rate_and_split(doc, catalog):
    a = add(doc, "sw-a", "nvidia-sn5600")
    b = add(doc, "sw-b", "nvidia-sn5600", role="spine")
    hgx = add(doc, "hgx", "generic-hgx-8-gpu-b3140h")
    twin = Link(id="t", a=Endpoint(device=a, port="swp1s0"), b=Endpoint(device=b, port="swp1s0"))
    add_link(doc, twin)
    # an 800G twin-port DAC joins two 2x400G cages (and carries both legs)
    assert cable_fits(doc, twin, catalog.cables["nvidia-mcp4y10"])
    # a 1:2 splitter joins a split switch cage to an unsplit NIC port
    split = Link(id="s", a=Endpoint(device=hgx, port="p1"), b=Endpoint(device=a, port="swp2s0"))
    add_link(doc, split)
    assert not cable_fits(doc, split, catalog.cables["nvidia-mcp4y10"])
    assert cable_fits(doc, split, catalog.cables["nvidia-mcp7y10"])  # OSFP -> 2x QSFP112 400G
    # with optics in both cages, only fibre cords fit, and no DAC
    update_device(doc, a, cages={2: CageConfig(transceiver="nvidia-mma4z00-ns")})
    update_device(doc, hgx, cages={1: CageConfig(transceiver="nvidia-mma1z00-ns400")})
    assert cable_fits(doc, doc.links["s"], catalog.cables["nvidia-mfp7e10"])
    assert not cable_fits(doc, doc.links["s"], catalog.cables["generic-400g-qsfp112-aoc"])


def test_a_split_dr4_port_may_be_wired_to_a_100g_dr_optic_and_takes_the_breakout_cord(doc, catalog):
    # 400GBASE-DR4 split 4x100G talks to 100G DR optics over an MPO-12 to 4x LC cord
    # (hardware.md breakout table); the wire drag used to refuse it by optical port rate
    update_settings(doc, technology=FabricTechnology.ETHERNET)
    a = add(doc, "leaf-a", "nvidia-sn5400",
            cages={1: CageConfig(mode="4x100G", transceiver="generic-400gbase-dr4-qsfp-dd")})
    b = add(doc, "leaf-b", "nvidia-sn4600c", role="spine",
            cages={1: CageConfig(transceiver="generic-100gbase-dr-qsfp28"),
                   2: CageConfig(transceiver="generic-100gbase-sr4-qsfp28")})
    assert connection_problem(doc, PortRef(a, "swp1s0"), PortRef(b, "swp1")) is None
    assert connection_problem(doc, PortRef(a, "swp1s1"), PortRef(b, "swp2")).startswith(
        "optics: ")  # single-mode DR4 to a multimode SR4: no cord joins them
    link = Link(id="x", a=Endpoint(device=a, port="swp1s0"), b=Endpoint(device=b, port="swp1"))
    add_link(doc, link)
    assert cable_fits(doc, link, catalog.cables["generic-mpo-12-apc-to-4x-lc-os2-breakout"])
    assert not cable_fits(doc, link, catalog.cables["generic-duplex-lc-os2-patch-cord"])
