"""Racks on the floor and devices in racks: every device gets a rack and an RU, servers per rack
follow from rack power and height, leaves sit in network racks in the middle of their SU."""

from __future__ import annotations

from collections import defaultdict

import pytest

from aicnet_gui.generators import GeneratorError, RailOptimizedParams, TwoTierParams, plan
from aicnet_gui.generators.naming import names, widened
from aicnet_gui.generators.placement import place, servers_per_rack
from aicnet_gui.generators.template_params import FloorParams
from aicnet_gui.model.fabric import LengthEstimation
from tests.doc_edits import update_settings

QM9700 = "nvidia-qm9700"


def occupancy(doc) -> dict[str, list[tuple[int, int]]]:
    used = defaultdict(list)
    for device in doc.devices.values():
        height = doc.device_model(device).height_ru
        used[device.rack].append((device.ru, device.ru + height - 1))
    return used


def test_every_device_has_a_rack_and_fits(make):
    doc, result = make(RailOptimizedParams(sus=2, leaf=QM9700, spine=QM9700))
    assert all(d.rack in doc.racks and d.ru is not None for d in doc.devices.values())
    for rack_id, spans in occupancy(doc).items():
        spans.sort()
        assert spans[-1][1] <= doc.racks[rack_id].height_ru - 2  # 2 U kept for the patch panel
        for (_, top), (bottom, _) in zip(spans, spans[1:], strict=False):
            assert top < bottom, f"devices overlap in {rack_id}"
    assert result.racks == len(doc.racks)


def test_four_dgx_h100_per_rack(catalog):
    """42 kW / 10.2 kW = 4 DGX H100 by power (46 U / 8 U = 5 by height): the SuperPOD layout."""
    fabric = plan(catalog, RailOptimizedParams(sus=1, leaf=QM9700))
    assert servers_per_rack(fabric, FloorParams())[0] == 4
    assert servers_per_rack(fabric, FloorParams(rack_power_kw=60))[0] == 5  # height limits now
    assert servers_per_rack(fabric, FloorParams(servers_per_rack=2))[0] == 2


def test_racks_also_power_the_optics(make):
    """At 41 kW four DGX H100 fit by their 10.2 kW maximum, but with four 15 W twin-port optics
    each they draw 41.04 kW: the generator puts three per rack and says why."""
    doc, result = make(RailOptimizedParams(sus=1, leaf=QM9700,
                                           floor=FloorParams(rack_power_kw=41)))
    assert result.servers_per_rack == 3
    assert any("power the optics" in note for note in result.notes)
    per_rack = {}
    for device in doc.devices.values():
        if device.role.value == "gpu_server":
            per_rack[device.rack] = per_rack.get(device.rack, 0) + 1
    assert max(per_rack.values()) == 3


def test_dgx_b200_two_per_rack(catalog):
    """DGX B200 draws 14.3 kW: 42 / 14.3 -> 2 per rack."""
    fabric = plan(catalog, RailOptimizedParams(sus=1, leaf=QM9700, server="nvidia-dgx-b200"))
    assert servers_per_rack(fabric, FloorParams())[0] == 2


def test_impossible_rack_budget(catalog):
    fabric = plan(catalog, RailOptimizedParams(sus=1, leaf=QM9700))
    with pytest.raises(GeneratorError, match="more than the 8 kW rack budget"):
        servers_per_rack(fabric, FloorParams(rack_power_kw=8))
    with pytest.raises(GeneratorError, match="do not fit"):
        servers_per_rack(fabric, FloorParams(servers_per_rack=6))


def test_su_layout_leaves_in_the_middle(catalog):
    """1 SU: 8 server racks of 4 DGX and a network rack with the 8 leaves in the middle of the
    row; the rack of the 4 spines joins the same row (10 racks <= 20), at its centre.  Racks
    600 mm apart on the tile grid."""
    fabric = plan(catalog, RailOptimizedParams(sus=1, leaf=QM9700))
    for index, device in enumerate(fabric.devices):
        device.name = f"d{index}"
    placement = place(fabric, FloorParams(), LengthEstimation())
    assert placement.server_racks == 8 and placement.network_racks == 2
    assert placement.rows == 1
    by_id = {rack.id: rack for rack in placement.racks}
    positions = {role: {by_id[d.rack].position for d in fabric.devices if d.role.value == role}
                 for role in ("gpu_server", "leaf", "spine")}
    assert positions == {"gpu_server": {1, 2, 3, 4, 7, 8, 9, 10}, "leaf": {6}, "spine": {5}}
    row1 = sorted(r.x_m for r in placement.racks if r.row == 1)
    assert [round(b - a, 3) for a, b in zip(row1, row1[1:], strict=False)] == [0.6] * 9


def test_rows_pair_around_hot_aisles(catalog):
    """4 SUs: two SUs (2 x 9 racks) per row; the one rack of 16 spines joins the first row
    at its centre (19 racks <= 20).  The two rows share a hot aisle: centres 1.2 m (rack
    depth) + 1.2 m (aisle) apart."""
    fabric = plan(catalog, RailOptimizedParams(sus=4, leaf=QM9700))
    for index, device in enumerate(fabric.devices):
        device.name = f"d{index}"
    placement = place(fabric, FloorParams(), LengthEstimation())
    assert placement.rows == 2
    ys = sorted({r.y_m for r in placement.racks})
    assert [round(b - a, 3) for a, b in zip(ys, ys[1:], strict=False)] == [2.4]
    by_id = {rack.id: rack for rack in placement.racks}
    spine_racks = {(by_id[d.rack].row, by_id[d.rack].position)
                   for d in fabric.devices if d.role.value == "spine"}
    assert spine_racks == {(1, 10)}


def test_top_of_rack_when_a_group_fits_one_rack(make):
    """Four HGX (no power figure: 10.2 kW assumed each) and the SN5600 (940 W) with their
    optics fit a 45 kW rack: the leaf goes on top of its servers.  In a 42 kW rack they do
    not (40.8 + 0.94 kW + optics), so the leaf gets a network rack of its own."""
    def build(kw):
        doc, _ = make(TwoTierParams(servers=4, server="generic-hgx-8-gpu-b3140h",
                                    leaf="nvidia-sn5600", attach="tor",
                                    floor=FloorParams(rack_power_kw=kw)))
        leaf = next(d for d in doc.devices.values() if d.role.value == "leaf")
        servers = [d for d in doc.devices.values() if d.role.value == "gpu_server"]
        return leaf, servers

    leaf, servers = build(45)
    assert {s.rack for s in servers} == {leaf.rack}
    assert leaf.ru > max(s.ru for s in servers)
    leaf, servers = build(42)
    assert len({s.rack for s in servers}) == 1
    assert leaf.rack not in {s.rack for s in servers}


def test_names_widen_with_the_count():
    assert widened("gpu-{n:03d}", 999) == "gpu-{n:03d}"
    assert widened("gpu-{n:03d}", 4096) == "gpu-{n:04d}"
    assert names("leaf-{n:02d}", 3) == ["leaf-01", "leaf-02", "leaf-03"]
    assert names("leaf-{n:02d}", 128)[-1] == "leaf-128"
    with pytest.raises(GeneratorError, match="has no {n}"):
        names("leaf", 2)


def test_names_follow_the_project_patterns(catalog):
    from aicnet_gui.generators import generate
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(catalog)
    naming = dict(doc.settings.naming, gpu_server="dgx{n:03d}", leaf="ib-leaf-{n}")
    update_settings(doc, naming=naming)
    generate(doc, RailOptimizedParams(sus=1, leaf=QM9700))
    assert doc.device_by_name("dgx032") is not None
    assert doc.device_by_name("ib-leaf-8") is not None
    assert doc.device_by_name("spine-04") is not None


def test_a_pod_stays_in_one_column_and_the_cores_stand_in_the_middle(make):
    """A floor of several columns: a pod's leaves and spines are never split between two
    columns (at 32 SUs a split pod had 44 m leaf-spine runs across the floor), and the core
    rows stand in the middle column, so every spine reaches them over the shortest runs."""
    from aicnet_gui.analysis.lengths import link_length

    doc, _ = make(RailOptimizedParams(sus=32, leaf=QM9700))
    racks = doc.racks
    xs = sorted({r.x_m for r in racks.values()})
    gaps = [b - a for a, b in zip(xs, xs[1:], strict=False)]
    assert max(gaps) > 1.0  # several columns, an aisle between them
    column_starts = [xs[0]] + [b for a, b in zip(xs, xs[1:], strict=False) if b - a > 1.0]

    def column(device_id: str) -> int:
        x = racks[doc.devices[device_id].rack].x_m
        return sum(1 for start in column_starts if x >= start) - 1

    tiers = {d: doc.tier_of(d) for d in doc.devices}
    longest_up = 0.0
    for link in doc.links.values():
        low, high = sorted((tiers[link.a.device], tiers[link.b.device]))
        if (low, high) == (1, 2):
            assert column(link.a.device) == column(link.b.device)
            longest_up = max(longest_up, link_length(doc, link).length_m)
    assert longest_up < 15.0
    cores = {column(d) for d, tier in tiers.items() if tier == 3}
    assert cores == {(len(column_starts) - 1) // 2}
