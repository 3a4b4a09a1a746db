"""Cage tables in files: a run of cages configured alike is one `"first-last"` entry, read back
as one entry per cage; a bad run is reported with the device's place in the file."""

from __future__ import annotations

import json

import pytest

from aicnet_gui.fileio import FabricFileError
from aicnet_gui.fileio.fabric_file import dumps_fabric, loads_fabric
from aicnet_gui.model.cage_tables import CageConfig, expanded, runs
from aicnet_gui.model.fabric import SCHEMA_VERSION, Device

SR4 = {"transceiver": "nvidia-mma4z00-ns"}
DR4 = {"transceiver": "nvidia-mms4x00-ns"}


def test_runs_join_consecutive_cages_configured_alike_in_cage_order():
    table = {"5": DR4, "1": SR4, "2": SR4, "3": SR4, "4": DR4, "7": DR4}
    assert runs(table) == {"1-3": SR4, "4-5": DR4, "7": DR4}
    assert list(runs(table)) == ["1-3", "4-5", "7"]
    assert runs({"9": SR4}) == {"9": SR4}
    assert expanded(runs(table)) == {"1": SR4, "2": SR4, "3": SR4, "4": DR4, "5": DR4, "7": DR4}


def test_a_device_reads_runs_as_cages_and_writes_them_back_as_runs():
    device = Device.model_validate({"id": "leaf-1", "name": "leaf-1", "model": "nvidia-qm9700",
                                    "cages": {"1-24": SR4, "25-32": DR4}})
    assert sorted(device.cages) == list(range(1, 33))
    assert device.cages[24] == CageConfig(transceiver="nvidia-mma4z00-ns")
    assert device.cages[25].transceiver == "nvidia-mms4x00-ns"
    assert device.model_dump(mode="json", exclude_defaults=True)["cages"] == {"1-24": SR4, "25-32": DR4}
    assert set(device.model_dump()["cages"]) == set(range(1, 33))  # Python dumps: one per cage


def _with_cages(small, cages) -> bytes:
    data = json.loads(dumps_fabric(small))
    data["devices"][0]["cages"] = cages
    return json.dumps(data).encode()


@pytest.mark.parametrize(("cages", "why"), [
    ({"1-4": SR4, "3": DR4}, "cage 3 is given twice: in '1-4' and in '3'"),
    ({"1-5000000": SR4}, "no device has more than 1024 cages"),
    ({"1-8": {"mode": 5}}, "cage range '1-8': mode: Input should be a valid string"),
    ({"8-3": SR4}, "the first cage must be below the last"),
    ({"1-x": SR4}, "write a run of cages as first-last"),
])
def test_a_bad_run_names_the_device_in_the_file(small, catalog, cages, why):
    with pytest.raises(FabricFileError) as info:
        loads_fabric(_with_cages(small, cages), catalog, "plan.fabric")
    assert info.value.json_path == "$.devices[0].cages"
    assert why in str(info.value) and str(info.value).startswith("plan.fabric")


def test_a_bad_single_cage_beside_a_run_is_named_by_its_number(small, catalog):
    with pytest.raises(FabricFileError) as info:
        loads_fabric(_with_cages(small, {"1-4": SR4, "9": {"mode": 5}}), catalog, "plan.fabric")
    assert info.value.json_path == "$.devices[0].cages.9.mode"


def test_a_version_2_file_with_a_cage_per_entry_opens_and_is_saved_in_runs(small, catalog):
    data = json.loads(dumps_fabric(small))
    leaf = next(d for d in data["devices"] if d["id"] == "leaf1")
    assert leaf["cages"] == {"5": SR4}  # the example fixture's one configured cage
    leaf["cages"] = {str(cage): SR4 for cage in range(1, 9)}
    data["schema_version"] = 2
    opened = loads_fabric(json.dumps(data).encode(), catalog)
    assert sorted(opened.devices["leaf1"].cages) == list(range(1, 9))
    saved = json.loads(dumps_fabric(opened))
    assert saved["schema_version"] == SCHEMA_VERSION
    assert next(d for d in saved["devices"] if d["id"] == "leaf1")["cages"] == {"1-8": SR4}


def test_a_design_whose_switches_count_cages_from_0_opens_after_it_is_saved(catalog, tmp_path):
    # the Juniper QFX5240-64OD numbers its cages 0-63 (et-0/0/0 ...): a generated design of
    # it is written with runs from cage 0 ("0-7": the leaves' down ports), which the reader
    # must take back
    from aicnet_gui.fileio import load_fabric, save_fabric
    from aicnet_gui.generators import TwoTierParams, generate
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(catalog)
    generate(doc, TwoTierParams(servers=8, leaf="juniper-qfx5240-64od"))
    path = tmp_path / "juniper.fabric"
    save_fabric(doc, path)
    assert b'"0-7"' in path.read_bytes()
    opened = load_fabric(path, catalog)
    assert {d.id: d.cages for d in opened.devices.values()} == \
        {d.id: d.cages for d in doc.devices.values()}
