"""Helpers for the generator tests: generate into a fresh document, check media plausibility."""

from __future__ import annotations

from collections import defaultdict

import pytest

from aicnet_gui.analysis.lengths import link_length
from aicnet_gui.generators import generate
from aicnet_gui.model.document import FabricDocument

COPPER = {"DAC", "ACC", "AEC"}


@pytest.fixture
def make(catalog):
    """make(params) -> (doc, result): the fabric generated into an empty document."""

    def build(params):
        doc = FabricDocument(catalog)
        result = generate(doc, params)
        return doc, result

    return build


def grade_reach(optic, grade: str) -> float:
    return getattr(optic.reach_m, grade) or 0.0


def check_media(doc: FabricDocument) -> dict[str, int]:
    """Assert that every link's media is plausible; return link counts per cable type."""
    catalog = doc.catalog
    by_type: dict[str, int] = defaultdict(int)
    per_cage: dict[tuple[str, int], set[str]] = defaultdict(set)
    assemblies: dict[str, list] = defaultdict(list)
    for link in doc.links.values():
        assert link.cable is not None, f"{link.id} has no media"
        cable = catalog.cable(link.cable)
        by_type[cable.type] += 1
        length = link_length(doc, link)
        assert length.length_m is not None
        assert length.ordered_m is not None and length.ordered_m >= length.length_m, link.id
        ends = []
        for end in (link.a, link.b):
            port = doc.port(end.device, end.port)
            config = doc.devices[end.device].cages.get(port.cage)
            optic = catalog.transceiver(config.transceiver) if config and config.transceiver else None
            ends.append((end.device, port, optic))
            per_cage[(end.device, port.cage)].add(f"{link.cable}/{cable.legs}")
        if link.assembly:
            assemblies[link.assembly].append((link, ends))
        if cable.type in COPPER:
            assert length.same_rack, f"copper {cable.id} on {link.id} leaves its rack"
            assert length.length_m <= cable.max_length_m
            assert all(optic is None for _, _, optic in ends), "a cable end and an optic share a cage"
        elif cable.type == "AOC":
            assert length.length_m <= cable.max_length_m
            assert all(optic is None for _, _, optic in ends)
        else:
            optics = [optic for _, _, optic in ends]
            assert all(optics), f"fibre {link.id} without an optic at each end"
            assert optics[0].media == optics[1].media == cable.media
            for optic in optics:
                assert grade_reach(optic, cable.fibre_grade) >= length.length_m, (link.id, optic.id)
    for cage, kinds in per_cage.items():
        assert len(kinds) == 1, f"cage {cage} mixes media {kinds}"
    for assembly, members in assemblies.items():
        cables = {link.cable for link, _ in members}
        assert len(cables) == 1, f"assembly {assembly} mixes parts"
        cable = catalog.cable(cables.pop())
        if cable.legs > 1:
            hubs = {(d, p.cage) for _, ends in members for d, p, _ in ends if p.legs > 1}
            assert len(hubs) == 1, f"splitter {assembly} legs are not on one cage"
            assert len(members) <= cable.legs
    return dict(by_type)
