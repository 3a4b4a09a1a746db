"""Servers that come in a rack-scale system (NVL72 compute trays) are placed as their racks:
exactly 18 trays to a rack of their own, whole racks only, the rack's stated power as its budget
(DGX SuperPOD GB200 RA, Network Fabrics: "Each DGX GB200 rack is built with 18 compute trays and
9 NVLink switch trays"; NVL72 AI Factory RA, Components: a GB300 NVL72 rack "up to 142 kW")."""

from __future__ import annotations

from collections import defaultdict

import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.generators import RailOptimizedParams, TwoTierParams
from aicnet_gui.generators.errors import GeneratorError
from aicnet_gui.generators.template_params import FloorParams

GB200, GB300 = "nvidia-gb200-nvl72-compute-tray", "nvidia-gb300-nvl72-compute-tray"
Q3400, QM9700 = "nvidia-q3400-ra", "nvidia-qm9700"


def racks_of(doc) -> dict[str, list]:  # noqa: ANN001
    """Rack id -> the devices in it."""
    members: dict[str, list] = defaultdict(list)
    for device in doc.devices.values():
        members[device.rack].append(device)
    return members


def test_gb300_trays_fill_nvl72_racks_of_eighteen_with_the_racks_power(make):
    doc, result = make(RailOptimizedParams(sus=2, nodes_per_su=72, server=GB300, leaf=Q3400))
    tray_racks = {rack: devices for rack, devices in racks_of(doc).items()
                  if any(d.model == GB300 for d in devices)}
    assert len(tray_racks) == 144 // 18
    for rack_id, devices in tray_racks.items():
        assert [d.model for d in devices] == [GB300] * 18, rack_id  # no switch among them
        assert sorted(d.ru for d in devices) == list(range(1, 19))
        assert doc.racks[rack_id].power_kw == 142
    report = analyze(doc)
    assert not [f for f in report.findings if f.code in {"RACK-POWER", "RACK-SPACE"}]
    workload = report.metrics.workloads[0]
    assert any("8 NVLink domain(s) of 72 GPUs" in a for a in workload.assumptions)
    assert any("GB300 NVL72 rack" in note for note in result.notes)


def test_a_rack_holds_trays_of_two_sus_when_the_su_is_not_whole_racks(make):
    doc, _ = make(RailOptimizedParams(sus=9, nodes_per_su=32, server=GB200, leaf=QM9700))
    tray_racks = [devices for devices in racks_of(doc).values()
                  if any(d.model == GB200 for d in devices)]
    assert len(tray_racks) == 9 * 32 // 18
    assert all(len(devices) == 18 for devices in tray_racks)
    assert any(len({d.tags["su"] for d in devices}) == 2 for devices in tray_racks)


def test_gb200_racks_get_no_invented_power_budget(make):
    doc, result = make(TwoTierParams(servers=72, server=GB200, leaf=QM9700))
    tray_racks = {rack for rack, devices in racks_of(doc).items()
                  if any(d.model == GB200 for d in devices)}
    assert len(tray_racks) == 4
    assert all(doc.racks[rack].power_kw is None for rack in tray_racks)
    assert any("no NVIDIA document found states the power of the DGX GB200 NVL72 rack" in note
               for note in result.notes)


@pytest.mark.parametrize(("params", "expected"), [
    (RailOptimizedParams(sus=1, nodes_per_su=30, server=GB200, leaf=QM9700),
     "1 SU x 30 = 30 do not fill whole racks; use --nodes-per-su 18, or --sus 3 with 30 per SU"),
    (RailOptimizedParams(sus=4, nodes_per_su=20, server=GB200, leaf=QM9700),  # 4 x 27 = 6 racks
     "4 SUs x 20 = 80 do not fill whole racks; use --nodes-per-su 18 or 27, or --sus 9 with 20"),
    (RailOptimizedParams(sus=1, nodes_per_su=16, server=GB200, leaf="nvidia-sn4700"),
     "1 SU x 16 = 16 do not fill whole racks; use --sus 9 with 16 per SU"),
    (TwoTierParams(servers=10, server=GB200, leaf=QM9700),
     "10 do not fill whole racks; 18 (1 rack) would"),
    (RailOptimizedParams(sus=1, nodes_per_su=18, server=GB200, leaf=QM9700,
                         floor=FloorParams(servers_per_rack=4)),
     "4 servers per rack cannot be built"),
])
def test_trays_that_cannot_make_whole_racks_are_refused_with_the_reason(make, params, expected):
    with pytest.raises(GeneratorError) as error:
        make(params)
    assert "GB200 NVL72 Compute Trays come in DGX GB200 NVL72 racks of 18" in str(error.value)
    assert expected in str(error.value)


def test_a_tray_moved_out_of_its_nvl72_rack_is_flagged_on_both_racks(make):
    from aicnet_gui.analysis import Analyzer
    from aicnet_gui.model.edits import UpdateDevice

    doc, _ = make(RailOptimizedParams(sus=1, nodes_per_su=36, server=GB300, leaf=Q3400))
    analyzer = Analyzer(doc)
    assert not [f for f in analyzer.full().findings if f.code == "RACK-SYSTEM"]
    racks = racks_of(doc)
    tray_racks = sorted(r for r, devices in racks.items() if any(d.model == GB300 for d in devices))
    network = next(r for r in sorted(racks) if r not in tray_racks)
    assert min(d.ru for d in racks[network]) > 1  # switches fill from the top: RU 1 is free
    moved = racks[tray_racks[0]][0]
    applied = doc.apply([UpdateDevice(moved.id, {"rack": network, "ru": 1})])
    report = analyzer.update(applied.changes)
    found = {f.objects[0]: f.message for f in report.findings if f.code == "RACK-SYSTEM"}
    assert sorted(found) == sorted([tray_racks[0], network])
    assert "holds 17 GB300 NVL72 Compute Trays; a GB300 NVL72 rack is 18 of them" in found[tray_racks[0]]
    assert "holds 1 GB300 NVL72 Compute Tray;" in found[network]
    again = {f.objects[0] for f in Analyzer(doc).full().findings if f.code == "RACK-SYSTEM"}
    assert again == set(found)  # the update agrees with a full run


def test_an_nvl72_rack_counts_its_stated_power_against_feeds_and_budgets(make):
    """A full GB300 NVL72 rack draws its stated 142 kW (optics included) in RACK-POWER and
    POWER-FEED: one A/B feed of 60 kW cannot carry it, and a rack budget of 42 kW is exceeded.
    Before, the trays counted 0 W and no rule said anything."""
    from aicnet_gui.model.edits import UpdateRack, UpdateSettings

    doc, _ = make(TwoTierParams(servers=36, server=GB300, leaf=Q3400))
    tray_racks = sorted(r for r, devices in racks_of(doc).items()
                        if any(d.model == GB300 for d in devices))
    doc.apply([UpdateSettings({"power_feed_kw": 60.0})])
    feeds = {f.objects[0]: f.message for f in analyze(doc).findings if f.code == "POWER-FEED"}
    assert sorted(feeds) == tray_racks
    assert "draws up to 142.0 kW" in feeds[tray_racks[0]]
    doc.apply([UpdateSettings({"power_feed_kw": None}),
               UpdateRack(tray_racks[0], {"power_kw": 42.0})])
    over = [f for f in analyze(doc).findings if f.code == "RACK-POWER"]
    assert [f.objects[0] for f in over] == [tray_racks[0]]


def test_a_rack_holding_two_rack_scale_systems_is_flagged(make):
    from aicnet_gui.model.edits import UpdateDevice

    doc, _ = make(TwoTierParams(servers=36, server=GB300, leaf=Q3400))
    first, second = sorted(r for r, devices in racks_of(doc).items()
                           if any(d.model == GB300 for d in devices))
    # the second rack's trays become GB200 trays moved into the first rack's free RUs
    moved = racks_of(doc)[second]
    doc.apply([UpdateDevice(d.id, {"model": GB200, "cages": {}, "rack": first, "ru": 19 + i})
               for i, d in enumerate(sorted(moved, key=lambda d: d.ru))])
    found = [f for f in analyze(doc).findings if f.code == "RACK-SYSTEM"]
    assert [f.objects for f in found] == [(first,)]
    assert "2 rack-scale systems (GB200 NVL72 Compute Tray, GB300 NVL72 Compute Tray)" in \
        found[0].message
