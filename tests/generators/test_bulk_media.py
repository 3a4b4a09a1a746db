"""The generator chooses media for the whole fabric at once; it must choose exactly what the
per-component chooser (used when re-choosing media in a document) chooses for the same links,
and its summary must count what the document holds."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from aicnet_gui.analysis.lengths import link_length
from aicnet_gui.generators import RailOptimizedParams, ThreeTierParams, TwoTierParams, plan
from aicnet_gui.generators.build import _assign_names
from aicnet_gui.generators.placement import place
from aicnet_gui.generators.plan_links import estimate_lengths, link_table
from aicnet_gui.generators.template_params import MediaParams
from aicnet_gui.media.bulk_choice import select_bulk
from aicnet_gui.media.rechoose import describe
from aicnet_gui.media.selector import (
    AssemblyIds,
    Cage,
    MediaLink,
    MediaSelector,
    fabric_technology,
)
from aicnet_gui.model.fabric import LengthEstimation

HGX, QM9700, SN5600 = "generic-hgx-8-gpu-b3140h", "nvidia-qm9700", "nvidia-sn5600"

CASES = {
    "three-tier rail-optimized": RailOptimizedParams(sus=4, leaf=QM9700, core=QM9700),
    "three-tier pods": ThreeTierParams(servers=512, leaf=QM9700),
    "copper and splitters in the rack": TwoTierParams(servers=4, server=HGX, leaf=SN5600,
                                                      attach="tor"),
    "splitter fibre at 200G": TwoTierParams(servers=16, server=HGX, leaf=SN5600, speed_gbps=200),
    "QSFP-DD leaves": TwoTierParams(servers=16, server=HGX, leaf="nvidia-sn5400"),
    "nothing reaches": RailOptimizedParams(sus=2, leaf=QM9700,
                                           media=MediaParams(allowed={"leaf-spine": ["dac"]})),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_generated_media_is_what_the_component_chooser_picks(name, make):
    params = CASES[name]
    doc, result = make(params)
    links, cages = describe(doc, list(doc.links))
    selector = MediaSelector(doc.catalog, fabric_technology(doc.settings.technology), params.media)
    selection = selector.select(links, cages, AssemblyIds())
    chosen = {x.id: (x.cable, x.assembly) for x in doc.links.values() if x.cable}
    assert selection.cables == chosen
    installed = {(c.device, c.number): doc.devices[c.device].cages.get(c.number) for c in cages}
    optics = {key: config.transceiver if config else None for key, config in installed.items()}
    picked = {(cages[i].device, cages[i].number): optic
              for i, optic in selection.transceivers.items()}
    assert {k: v for k, v in picked.items() if v} == {k: v for k, v in optics.items() if v}
    assert result.unresolved == selection.unresolved
    if name == "nothing reaches":
        assert result.unresolved and all("reaches" in u.reason for u in result.unresolved)


@pytest.mark.parametrize("name", sorted(CASES))
def test_summary_counts_what_the_document_holds(name, make):
    doc, result = make(CASES[name])
    lengths = {x.id: link_length(doc, x) for x in doc.links.values()}
    assert result.longest_link_m == max(x.length_m for x in lengths.values())
    longest: dict[str, tuple[str, float]] = {}
    for link in doc.links.values():
        if link.cable:
            key = link.assembly or link.id
            old = longest.get(key, (link.cable, 0.0))
            longest[key] = (link.cable, max(old[1], lengths[link.id].length_m))
    cables = Counter(f"{cable}@{doc.catalog.cables[cable].ordered_length(m):g}m"
                     for cable, m in longest.values())
    assert result.cables == dict(cables)
    optics = Counter(c.transceiver for d in doc.devices.values() for c in d.cages.values()
                     if c.transceiver)
    assert result.transceivers == dict(optics)
    power = sum(doc.catalog.transceivers[p].power_w * n for p, n in optics.items())
    assert result.optics_power_w == pytest.approx(power)


@pytest.mark.parametrize("params", [
    TwoTierParams(servers=4, server=HGX, leaf=SN5600, attach="tor"),
    TwoTierParams(servers=16, server=HGX, leaf=SN5600, speed_gbps=200),
    RailOptimizedParams(sus=2, leaf=QM9700),
])
def test_bulk_choice_agrees_at_any_lengths(params, catalog):
    """Stretched lengths (a few unknown) give many kinds of component; the bulk choice still
    matches the per-component chooser link for link, cage for cage, reason for reason."""
    fabric = plan(catalog, params)
    _assign_names(fabric, {})
    placement = place(fabric, params.floor, LengthEstimation())
    table = link_table(fabric)
    racks_by_id = {rack.id: rack for rack in placement.racks}
    rng = np.random.default_rng(7)
    stretch = rng.choice([1.0, 1.0, 1.3, 2.0, 5.0, 20.0], len(table.a))
    lengths = np.round(estimate_lengths(fabric, table, racks_by_id, LengthEstimation()) * stretch, 2)
    lengths[rng.choice(len(lengths), 3, replace=False)] = np.nan
    link_ids = [f"link-{n}" for n in range(1, len(lengths) + 1)]
    devices = [d.id for d in fabric.devices]
    racks = [d.rack for d in fabric.devices]
    selector = MediaSelector(catalog, "ethernet" if params.leaf == SN5600 else "infiniband")
    bulk = select_bulk(selector, table, lengths, link_ids, devices, racks)
    cages = [Cage(devices[int(d)], int(n), table.cages.specs[int(s)], racks[int(d)])
             for d, n, s in zip(table.cages.device, table.cages.number, table.cages.spec,
                                strict=True)]
    links = [MediaLink(link_ids[i], int(table.a_cage[i]), int(table.a_leg[i]),
                       int(table.b_cage[i]), int(table.b_leg[i]),
                       None if np.isnan(lengths[i]) else float(lengths[i]),
                       table.tiers[int(table.tier[i])]) for i in range(len(link_ids))]
    one_by_one = selector.select(links, cages, AssemblyIds())
    parts = [*bulk.parts, None]
    cables = {link_ids[i]: (parts[c], f"asm-{a}" if a else None)
              for i, (c, a) in enumerate(zip(bulk.cable.tolist(), bulk.assembly.tolist(),
                                             strict=True)) if c >= 0}
    assert cables == one_by_one.cables
    optics = {c: parts[o] for c, o in enumerate(bulk.optic.tolist()) if o >= 0}
    assert optics == {c: o for c, o in one_by_one.transceivers.items() if o}
    assert bulk.unresolved == one_by_one.unresolved
    assert len(bulk.unresolved) >= 1
