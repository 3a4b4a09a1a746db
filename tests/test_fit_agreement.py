"""The inspector, the analysis and the generators agree on what physically fits.

For every catalog optic x cage group x breakout mode (both fabric technologies) and every
integrated cable x pair of cage kinds, "the inspector offers it" == "the analysis' optic/cable
check accepts it" == "a generator may choose it".  Each side is asked through the predicate it
really uses (gui/compat.py, analysis/rules_compat.py, media/selector.py); all three now ask
model/fit.py, and this test keeps it that way.

Each side judges in the technology of the link (`fit.link_family`), not the fabric's: a cage
whose port runs only Ethernet (a DGX in-band port, an Ethernet-only switch) is walked in an
InfiniBand fabric too, and the three must still agree.
"""

from __future__ import annotations

import numpy as np
import pytest

from aicnet_gui.analysis import Analyzer
from aicnet_gui.analysis.rules_compat import _optic_ok, fibre_cord, integrated_cable
from aicnet_gui.analysis.signatures import End, SigContext
from aicnet_gui.editing.compat import cable_fits, transceiver_fits
from aicnet_gui.media.selector import MediaSelector, cord_legs
from aicnet_gui.model.catalog_entities import BreakoutMode, Technology
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, FabricTechnology, Link
from aicnet_gui.model.fit import (
    CageSpec,
    cage_family,
    cage_spec,
    integrated_cable_between,
    link_family,
    mode_technology_problem,
    optic_in_cage,
    overlapping_racks,
    ru_overlap,
)
from aicnet_gui.model.ports import build_port_table
from tests.doc_edits import add_device, add_link, update_device, update_settings

FAMILIES = {Technology.INFINIBAND: FabricTechnology.INFINIBAND,
            Technology.ETHERNET: FabricTechnology.ETHERNET}


def _cage_kinds(catalog):
    """One (model, group, mode, first-leg port, spec) per distinct cage spec in the catalog."""
    kinds = {}
    for model in sorted(catalog.devices.values(), key=lambda m: m.id):
        for group in model.cages:
            for mode in group.breakouts:
                parsed = BreakoutMode.parse(mode)
                spec = cage_spec(group, parsed.legs, parsed.speed_gbps, model.is_switch)
                if spec in kinds:
                    continue
                port = next(p for p in build_port_table(model, ((group.first, mode),)).values()
                            if p.cage == group.first and p.leg == 1)
                kinds[spec] = (model, group, mode, port)
    return kinds


def _doc(catalog, family: Technology) -> FabricDocument:
    doc = FabricDocument(catalog)
    update_settings(doc, technology=FAMILIES[family])
    return doc


def _context(end_a: End, end_b: End, cable, fabric: Technology) -> SigContext:
    """The signature context as analysis/signatures.py builds it: the link's own family."""
    family = link_family(end_a.group, end_a.model, end_b.group, end_b.model, fabric)
    return SigContext(end_a, end_b, cable, family, (), (), fabric)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_optic_in_cage_inspector_analysis_and_generator_agree(catalog, family):
    fabric_selector = MediaSelector(catalog, family.value)
    kinds = _cage_kinds(catalog)
    doc = _doc(catalog, family)
    checked = offered = own = 0
    for spec, (model, group, mode, port) in kinds.items():
        device = _add(doc, model.id, group.first, mode)
        end = End("a", port, group, model, None)
        ctx = _context(end, end, None, family)
        own += ctx.family != family
        selector = fabric_selector.for_family(ctx.family)
        usable = {t.id for t in selector.optics}
        chosen = {o.optic.id for o in selector.options(spec)}
        for optic in sorted(catalog.transceivers.values(), key=lambda t: t.id):
            inspector = transceiver_fits(doc, device, group.first, optic)
            analysis = _optic_ok(ctx, end, optic)
            assert inspector == analysis, (optic.id, model.id, group.name, mode)
            # the generator only considers optics of the fabric's technology with a reach
            # over its default fibre grade: that is a choice among fitting parts, not a fit
            grade = selector._grade(optic.media)
            if optic.id in usable and getattr(optic.reach_m, grade):
                assert (optic.id in chosen) == inspector, (optic.id, model.id, group.name, mode)
            elif optic.id in chosen:
                pytest.fail(f"the generator chose {optic.id}, which it does not consider")
            checked += 1
            offered += inspector
    assert checked > 500 and 0 < offered < checked  # the catalog was really walked
    assert own > 0  # and cages whose port runs another technology than the fabric's


_seq = iter(range(10**6))


def _add(doc: FabricDocument, model: str, cage: int, mode: str) -> str:
    n = next(_seq)
    add_device(doc, Device(id=f"d{n}", name=f"d{n}", model=model, cages={cage: CageConfig(mode=mode)}))
    return f"d{n}"


def _generator_shape(a: CageSpec, b: CageSpec):
    """The component shape in which the generator would join a cage of `a` to one of `b`."""
    if a.legs == 1 and b.legs == 1:
        return ("p2p", a, b)
    if a.legs == b.legs:
        return ("bundle", a.legs, a, b)
    if b.legs == 1:
        return ("star", a, (b,))
    if a.legs == 1:
        return ("star", b, (a,))
    return None


@pytest.mark.parametrize("family", list(FAMILIES))
def test_integrated_cable_between_cages_inspector_analysis_and_generator_agree(catalog, family):
    fabric_selector = MediaSelector(catalog, family.value)
    kinds = _cage_kinds(catalog)
    cables = sorted((c for c in catalog.cables.values() if c.type != "fibre"), key=lambda c: c.id)
    doc = _doc(catalog, family)
    specs = sorted(kinds)
    checked = offered = mixed = 0
    for i, a in enumerate(specs):
        for b in specs[i:]:
            if a.speed != b.speed:
                continue  # a speed mismatch is the ports' problem, refused before any cable
            model_a, group_a, mode_a, port_a = kinds[a]
            model_b, group_b, mode_b, port_b = kinds[b]
            da = _add(doc, model_a.id, group_a.first, mode_a)
            db = _add(doc, model_b.id, group_b.first, mode_b)
            link = Link(id=f"l-{da}-{db}", a=Endpoint(device=da, port=port_a.name),
                        b=Endpoint(device=db, port=port_b.name))
            add_link(doc, link)
            end_a = End("a", port_a, group_a, model_a, None)
            end_b = End("b", port_b, group_b, model_b, None)
            shape = _generator_shape(a, b)
            link_tech = link_family(group_a, model_a, group_b, model_b, family)
            mixed += link_tech != family
            selector = fabric_selector.for_family(link_tech)
            usable = {c.id for c in selector.integrated}
            chosen = ({c.cable for c in selector._cable_candidates(shape)}
                      if shape is not None else set())
            for cable in cables:
                inspector = cable_fits(doc, link, cable)
                ctx = _context(end_a, end_b, cable, family)
                analysis = not integrated_cable(ctx) and ctx.family in cable.technology
                assert inspector == analysis, (cable.id, a, b)
                if cable.id in usable:
                    assert (cable.id in chosen) == inspector, (cable.id, a, b)
                else:
                    assert cable.id not in chosen
                checked += 1
                offered += inspector
    assert checked > 500 and 0 < offered < checked
    assert mixed > 0  # links whose ends run another technology than the fabric's were walked
    # the family this test judged each link in is the one the analysis' signatures use
    analyzer = Analyzer(doc)
    analyzer.full()
    state = analyzer.state
    for link_id, row in state.store.link_row.items():
        link = doc.links[link_id]
        pa, pb = doc.port(link.a.device, link.a.port), doc.port(link.b.device, link.b.port)
        expect = link_family(pa.group, doc.device_model(link.a.device),
                             pb.group, doc.device_model(link.b.device), family)
        assert state.sigs.families[int(state.store.l["sig"][row])] == expect, link_id


def test_rack_overlap_columns_match_the_pairwise_rule():
    rng = np.random.default_rng(15)
    for _ in range(200):
        n = int(rng.integers(1, 12))
        rack = rng.integers(0, 3, n)
        ru = rng.integers(1, 40, n)
        height = rng.integers(1, 5, n)
        expect = {int(rack[i]) for i in range(n) for j in range(n)
                  if i != j and rack[i] == rack[j]
                  and ru_overlap(int(ru[i]), int(height[i]), int(ru[j]), int(height[j]))}
        assert set(overlapping_racks(rack, ru, height).tolist()) == expect


def test_a_qsfp28_module_fits_a_qsfp112_cage_at_its_own_rate(catalog):
    # QSFP cages are backward compatible (hardware.md §1.2); gui/compat.py used to demand the
    # same form factor.  No catalog QSFP112 cage has a 100G mode yet, so ask the rule itself.
    optic = catalog.transceivers["generic-100gbase-dr-qsfp28"]
    nic_cage = CageSpec("QSFP112", "none", 1, 100, 100, False)
    assert optic_in_cage(nic_cage, optic, Technology.ETHERNET) is None
    assert optic_in_cage(nic_cage._replace(speed=400), optic, Technology.ETHERNET) is not None
    assert optic_in_cage(nic_cage._replace(form_factor="OSFP"), optic, Technology.ETHERNET) == (
        "a QSFP28 plug does not go into a OSFP cage")


def test_a_nic_optic_runs_its_published_lower_rate(doc, catalog):
    # the MMA1Z00-NS400 lists 1x200G: the inspector used to refuse it in a 1x200G NIC cage
    update_settings(doc, technology=FabricTechnology.INFINIBAND)
    hgx = _add(doc, "generic-hgx-8-gpu-b3140h", 1, "1x200G")
    assert transceiver_fits(doc, hgx, 1, catalog.transceivers["nvidia-mma1z00-ns400"])
    assert not transceiver_fits(doc, hgx, 1, catalog.transceivers["generic-400gbase-dr4-qsfp112"])


@pytest.mark.parametrize("family", list(FAMILIES))
def test_fibre_cord_between_optics_inspector_analysis_and_generator_agree(catalog, family):
    selector = MediaSelector(catalog, family.value)
    doc = _doc(catalog, family)
    cords = sorted((c for c in catalog.cables.values() if c.type == "fibre"), key=lambda c: c.id)
    # (spec, device, port, End, generator option or None) per cage kind x fitting optic; a
    # cage whose port runs another technology than the fabric's (an InfiniBand-only switch in
    # an Ethernet walk) is equipped for its own (fit.cage_family), as a generator equips it
    ends = []
    for spec, (model, group, mode, port) in _cage_kinds(catalog).items():
        own = cage_family(group, model, family)
        options = {o.optic.id: o for o in selector.for_family(own).options(spec)} \
            if own == family else {}
        for optic in sorted(catalog.transceivers.values(), key=lambda t: t.id):
            if optic_in_cage(spec, optic, own) is not None:
                continue
            n = next(_seq)
            add_device(doc, Device(id=f"d{n}", name=f"d{n}", model=model.id, cages={
                group.first: CageConfig(mode=mode, transceiver=optic.id)}))
            ends.append((spec, f"d{n}", port, End("a", port, group, model, optic),
                         options.get(optic.id)))
    checked = offered = generated = split_both = 0
    for i, (spec_a, dev_a, port_a, end_a, opt_a) in enumerate(ends):
        for spec_b, dev_b, port_b, end_b, opt_b in ends[i:]:
            if spec_a.speed != spec_b.speed:
                continue
            link = Link(id="l", a=Endpoint(device=dev_a, port=port_a.name),
                        b=Endpoint(device=dev_b, port=port_b.name))
            ctx_end_b = End("b", end_b.port, end_b.group, end_b.model, end_b.optic)
            accepted = set()
            for cord in cords:
                inspector = cable_fits(doc, link, cord)
                ctx = _context(end_a, ctx_end_b, cord, family)
                analysis = not fibre_cord(ctx) and ctx.family in cord.technology
                assert inspector == analysis, (cord.id, dev_a, end_a.optic.id, end_b.optic.id)
                checked += 1
                if inspector:
                    offered += 1
                    accepted.add(cord.id)
            if opt_a is None or opt_b is None or opt_a.family != opt_b.family:
                continue  # the generator only pairs optics of one family it may choose
            _, media, connector = opt_a.family
            grade = selector._grade(media)
            # a straight cord between optical ports carrying as many ports each (both split
            # alike too: twin-port legs plane by plane), else a 1:n splitter
            legs = cord_legs(opt_a.split, opt_b.split)
            chosen = selector._cords(frozenset({(spec_a, spec_b)}), {spec_a: opt_a, spec_b: opt_b},
                                     connector, grade, 0.0)
            keyed = {c.id for c in selector.cords.get((connector, grade, legs or 0), ())}
            if chosen is None:
                assert not accepted & keyed, (end_a.optic.id, end_b.optic.id)
            else:
                assert chosen[(opt_a.split, opt_b.split)] in accepted
                generated += 1
                split_both += opt_a.split > 1 and opt_b.split > 1
    assert checked > 1000 and 0 < offered < checked and generated > 10
    assert split_both > 0  # straight cords between split optical ports are generated too


def test_a_224g_lane_optic_in_a_112g_cage_is_refused_with_the_reason(doc, catalog):
    """A 1.6T DR8 (8 x 200G electrical lanes, 224G SerDes) does not go into an SN5600 cage (8 x
    100G lanes, 112G SerDes): a module has no gearbox to slower lanes (NVIDIA's XDR part list:
    "200G-PAM4-based transceivers cannot downshift").  The inspector, the analysis and the
    generator refuse it alike, and the reason names both lane rates; the same module fits a
    cage of 200G lanes, and a 100G-lane module still fits the 200G-lane cage's mode it serves."""
    dr8 = catalog.transceivers["generic-1-6tbase-dr8-osfp"]
    sn5600 = catalog.device("nvidia-sn5600").cages[0]
    spec = cage_spec(sn5600, 2, 400, True)
    reason = optic_in_cage(spec, dr8, Technology.ETHERNET)
    assert reason is not None
    assert "200G electrical lanes (224G SerDes)" in reason and "100G lanes (112G SerDes)" in reason
    update_settings(doc, technology=FabricTechnology.ETHERNET)
    leaf = _add(doc, "nvidia-sn5600", 1, "2x400G")
    assert not transceiver_fits(doc, leaf, 1, dr8)
    assert dr8.id not in {o.optic.id for o in MediaSelector(catalog, "ethernet").options(spec)}
    # the same module in a cage of 8 x 200G lanes running 2 x 800G
    fast = spec._replace(lane=200, legs=2, speed=800)
    assert optic_in_cage(fast, dr8, Technology.ETHERNET) is None
    # the analysis says the same, with the same reason, on a real link
    update_device(doc, leaf, cages={1: CageConfig(mode="2x400G", transceiver=dr8.id)})
    hgx = _add(doc, "generic-hgx-8-gpu-b3140h", 1, "1x400G")
    add_link(doc, Link(id="l224", a=Endpoint(device=leaf, port="swp1s0"),
                       b=Endpoint(device=hgx, port="p1"), cable="nvidia-mfp7e30"))
    report = Analyzer(doc).full()
    lane = [f for f in report.findings if f.code == "SPEED-MISMATCH" and "224G SerDes" in f.message]
    assert lane and "112G SerDes" in lane[0].message


def test_a_co_packaged_port_takes_only_its_engine_and_no_copper(catalog):
    """A Quantum-X Photonics port is a fibre adapter in front of a built-in engine: only that
    engine serves it, the engine fits no other cage, and no DAC/ACC plug goes in."""
    q3450 = catalog.device("nvidia-q3450-ld")
    group = q3450.cages[0]
    spec = cage_spec(group, 1, 800, True)
    engine = catalog.transceivers[group.optical_engine]
    ib = Technology.INFINIBAND
    assert engine.co_packaged and optic_in_cage(spec, engine, ib) is None
    assert "co-packaged" in optic_in_cage(spec, catalog.transceivers["nvidia-mms4a20"], ib)
    q3400 = cage_spec(catalog.device("nvidia-q3400-ra").cages[0], 2, 800, True)
    assert "built into its switch" in optic_in_cage(q3400, engine, ib)
    acc = catalog.cables["nvidia-mca4k50"]
    assert "takes a fibre" in integrated_cable_between(acc, spec, q3400, ib)


def test_connectx8_does_not_run_800gbe_on_one_port(catalog):
    """ConnectX-8: "800Gb/s or XDR IB or 2 x 400GbE"; "800GbE link speed is not supported on a
    single port" (firmware 40.44.0208 release notes): 1x800G is refused on Ethernet only."""
    group = catalog.device("nvidia-dgx-b300").cages[0]
    assert mode_technology_problem(group, 1, 800, Technology.INFINIBAND) is None
    assert "do not run 1x800G on Ethernet" in mode_technology_problem(group, 1, 800, Technology.ETHERNET)
    assert mode_technology_problem(group, 2, 400, Technology.ETHERNET) is None
    gb300 = catalog.device("nvidia-gb300-nvl72-compute-tray").cages[0]
    assert "4x200G" not in gb300.breakouts  # Quad-Plane is B300 only (Network Operator 26.4)
