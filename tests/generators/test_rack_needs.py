"""Generated racks state the cooling and power feeds their devices need, so RACK-COOLING and
RACK-POWER-FEED judge a generated design as it would be built: a GB300 NVL72 rack "is liquid
cooled" on its DC busbar (NVL72 AI Factory RA), a Quantum-X Photonics Q3450-LD has dual-loop
liquid cooling on a 48 V DC busbar, an SN5610 or Q3400-RA is air-cooled (docs/sources-2026.md)."""

from __future__ import annotations

from collections import Counter

from aicnet_gui.analysis import analyze
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.generators.rack_needs import rack_cooling, rack_feeds
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateRack

RACK_CODES = {"RACK-COOLING", "RACK-POWER-FEED"}


def _racks(doc: FabricDocument) -> Counter:
    """(models in the rack, cooling, feeds) per rack."""
    held: dict[str, set[str]] = {}
    for device in doc.devices.values():
        held.setdefault(device.rack, set()).add(device.model)
    return Counter((tuple(sorted(held.get(r.id, ()))), r.cooling, tuple(r.power_feeds or ()))
                   for r in doc.racks.values())


def test_gb300_racks_are_liquid_on_a_busbar_and_the_switch_racks_air(catalog):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, server="nvidia-gb300-nvl72-compute-tray",
                                      leaf="nvidia-sn5610", planes=2, technology="rocev2"))
    racks = _racks(doc)
    trays = ("nvidia-gb300-nvl72-compute-tray",)
    assert racks[(trays, "liquid", ("dc-busbar",))] == 3  # 54 trays: three NVL72 racks
    assert all(cooling == "air" for (models, cooling, _), _n in racks.items()
               if models == ("nvidia-sn5610",))
    assert not {f.code for f in analyze(doc).findings} & RACK_CODES


def test_cpo_switch_racks_are_liquid_on_a_busbar_and_the_rules_judge_them(catalog):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, server="nvidia-dgx-b300", leaf="nvidia-q3450-ld"))
    racks = _racks(doc)
    switch_racks = [(c, f) for (models, c, f), _n in racks.items() if models == ("nvidia-q3450-ld",)]
    assert switch_racks and set(switch_racks) == {("liquid", ("dc-busbar",))}
    assert not {f.code for f in analyze(doc).findings} & RACK_CODES
    # the rules judge what the generator wrote: an air-only AC rack cannot take the CPO switch
    rack = next(d.rack for d in doc.devices.values() if d.model == "nvidia-q3450-ld")
    doc.apply([UpdateRack(rack, {"cooling": "air", "power_feeds": ["ac"]})])
    assert {f.code for f in analyze(doc).findings} >= RACK_CODES


def test_a_rack_whose_devices_need_different_feeds_states_both(catalog):
    b300, q3450, gb300 = (catalog.device(m) for m in (
        "nvidia-dgx-b300", "nvidia-q3450-ld", "nvidia-gb300-nvl72-compute-tray"))
    assert rack_feeds([b300]) == ["ac"]  # either version; the first its model lists
    assert rack_feeds([b300, q3450]) == ["dc-busbar"]  # the one both take
    assert rack_cooling([q3450, catalog.device("nvidia-sn5610")]) == "air+liquid"
    assert rack_cooling([catalog.device("nvidia-dgx-h100")]) is None  # not stated: not judged
    assert rack_feeds([catalog.device("nvidia-qm9700")]) is None
    assert rack_feeds([gb300, q3450]) == ["dc-busbar"]
    ac_only = catalog.device("nvidia-q3400-ra").model_copy(update={"power_feeds": ["ac"]})
    assert rack_feeds([ac_only, q3450]) == ["ac", "dc-busbar"]  # a rack that delivers both
