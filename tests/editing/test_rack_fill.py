"""Devices in no rack put into new racks as the templates fill racks (editing/rack_fill.py)."""

from __future__ import annotations

import pytest

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.editing.rack_fill import RackFillError, fill_new_racks, new_rack
from aicnet_gui.generators.template_params import FloorParams
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import AddDevice, AddRack, UpdateDevice, UpdateSettings
from aicnet_gui.model.fabric import Device


@pytest.fixture(scope="module")
def catalog():  # noqa: ANN201
    return builtin_catalog()


def _doc(catalog, servers: int, leaves: int) -> FabricDocument:  # noqa: ANN001
    doc = FabricDocument(catalog)
    ops = [AddDevice(Device(id=f"s{k}", name=f"gpu-{k:03d}", model="nvidia-dgx-h100"))
           for k in range(1, servers + 1)]
    ops += [AddDevice(Device(id=f"l{k}", name=f"leaf-{k:02d}", model="nvidia-qm9700"))
            for k in range(1, leaves + 1)]
    doc.apply(ops)
    return doc


def test_servers_fill_racks_by_power_and_switches_go_in_network_racks(catalog):
    doc = _doc(catalog, servers=9, leaves=20)
    fill = fill_new_racks(doc, list(doc.devices))
    doc.apply(list(fill.ops))
    racks: dict[str, list[Device]] = {}
    for device in doc.devices.values():
        racks.setdefault(device.rack, []).append(device)
    # 42 kW per rack (FloorParams) / 10.2 kW per DGX H100 (its maximum) = 4 servers a rack
    servers = sorted((len(v) for v in racks.values() if v[0].model == "nvidia-dgx-h100"),
                     reverse=True)
    assert servers == [4, 4, 1]
    # 16 switches at most in one network rack (FloorParams.switches_per_rack), never with servers
    switches = sorted(len(v) for v in racks.values() if v[0].model == "nvidia-qm9700")
    assert switches == [4, 16]
    assert all(len({d.model for d in v}) == 1 for v in racks.values())
    assert fill.placed == 29 and len(fill.racks) == 5
    # bottom up from RU 1, no overlap, the top 2 U kept free
    for devices in racks.values():
        used = sorted((d.ru, d.ru + catalog.devices[d.model].height_ru - 1) for d in devices)
        assert used[0][0] == 1 and used[-1][1] <= 46
        assert all(low > high for (_l, high), (low, _h) in zip(used, used[1:], strict=False))


def test_new_racks_follow_the_racks_of_row_one_and_their_names(catalog):
    doc = _doc(catalog, servers=1, leaves=0)
    first = new_rack(doc)
    doc.apply([AddRack(first)])
    assert (first.name, first.row, first.position) == ("R01", 1, 1)
    fill = fill_new_racks(doc, ["s1"])
    (rack,) = fill.racks
    assert (rack.name, rack.row, rack.position) == ("R02", 1, 2)


def test_a_smaller_power_feed_caps_the_rack_budget(catalog):
    doc = _doc(catalog, servers=4, leaves=0)
    doc.apply([UpdateSettings({"power_feed_kw": 21.0})])  # one A/B feed carries the rack
    fill = fill_new_racks(doc, list(doc.devices))
    assert len(fill.racks) == 2  # 2 x 10.2 kW per 21 kW rack


def test_racked_devices_stay_and_a_device_taller_than_a_rack_is_refused(catalog):
    doc = _doc(catalog, servers=2, leaves=0)
    rack = new_rack(doc)
    doc.apply([AddRack(rack), UpdateDevice("s1", {"rack": rack.id, "ru": 1})])
    fill = fill_new_racks(doc, list(doc.devices))
    assert fill.placed == 1 and [op.id for op in fill.ops if isinstance(op, UpdateDevice)] == ["s2"]
    with pytest.raises(RackFillError, match="does not fit a 8 U rack"):
        fill_new_racks(doc, ["s2"], FloorParams(rack_height_ru=8, reserved_top_ru=2))
