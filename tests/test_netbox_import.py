"""`aicnet catalog import-netbox`: real NetBox device-type library files (tests/data/
netbox-devicetypes/, sources in tests/data/README.md) become catalog devices that work in a
design, say what they assumed and what the file lacks, and export back to the same YAML."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from aicnet_gui.catalog.netbox_import import (
    NetBoxImportError,
    import_device_type,
    import_device_type_file,
)
from aicnet_gui.cli import main
from aicnet_gui.report.netbox_devicetypes import device_type

DATA = Path(__file__).resolve().parent / "data" / "netbox-devicetypes" / "Nvidia"


def _source(name: str) -> dict:
    return yaml.safe_load((DATA / f"{name}.yaml").read_text())


def _ports(data: dict) -> list[tuple[str, str]]:
    return [(i["name"], i["type"]) for i in data["interfaces"] if not i.get("mgmt_only")]


def test_sn5600_round_trips():
    source = _source("SN5600")
    result = import_device_type_file(DATA / "SN5600.yaml")
    model = result.model
    assert (model.id, model.vendor, model.model, model.height_ru) == (
        "netbox-nvidia-sn5600", "Nvidia", "SN5600", 2)
    assert (model.airflow, model.weight_kg, model.verified) == ("rear-to-front", 23.5, False)
    (group,) = model.cages
    assert (group.first, group.count, group.form_factor, group.lanes, group.lane_gbps) == (
        1, 64, "OSFP", 8, 100)
    assert group.default_breakout == "1x800G" and group.interface_type == "800gbase-x-osfp"
    assert "eth0: management-only interface" in result.skipped
    assert any("2x400G" in line and "defaults" in line for line in result.assumed)
    back = device_type(model)
    assert _ports(back) == _ports(source)
    assert (back["u_height"], back["airflow"], back["weight"], back["weight_unit"]) == (
        source["u_height"], source["airflow"], source["weight"], source["weight_unit"])


def test_qm9700_reports_the_ports_the_library_file_lacks():
    """The stored QM9700 file lists 62 of its 64 ports (P22.1 and P23.0 are missing)."""
    source = _source("QM9700")
    result = import_device_type_file(DATA / "QM9700.yaml")
    (group,) = result.model.cages
    assert (group.first, group.count, group.default_breakout, group.lanes) == (0, 32, "2x400G", 8)
    assert [m.split(":")[0] for m in result.missing if m.startswith("P2")] == ["P22.1", "P23.0"]
    assert any(m.startswith("power: 2 power ports (iec-60320-c14)") for m in result.missing)
    back = _ports(device_type(result.model))
    assert len(_ports(source)) == 62 and len(back) == 64
    assert set(back) - set(_ports(source)) == {("P22.1", "400gbase-x-osfp"),
                                               ("P23.0", "400gbase-x-osfp")}


def test_sn2201_copper_and_qsfp28_runs():
    result = import_device_type_file(DATA / "SN2201.yaml")
    model = result.model
    assert [(g.first, g.count, g.form_factor, g.fabric) for g in model.cages] == [
        (0, 1, "RJ45", False), (1, 48, "RJ45", False), (49, 4, "QSFP28", True)]
    assert model.role.value == "mgmt" and "airflow: not in the file" in result.missing
    assert _ports(device_type(model)) == _ports(_source("SN2201"))


def test_bad_files_are_one_message(tmp_path):
    with pytest.raises(NetBoxImportError, match="no 'u_height'"):
        import_device_type({"manufacturer": "X", "model": "Y"}, "x.yaml")
    with pytest.raises(NetBoxImportError, match="no data interface"):
        import_device_type({"manufacturer": "X", "model": "Y", "u_height": 1,
                            "interfaces": [{"name": "ge0", "type": "other"}]}, "x.yaml")
    odd = import_device_type({"manufacturer": "X", "model": "Y", "u_height": 1, "weight": "heavy",
                              "interfaces": ["swp1", *({"name": f"swp{n}", "type": "100gbase-x-qsfp28"}
                                                      for n in range(1, 3))]}, "odd.yaml")
    assert "interfaces[0]: not a mapping with name and type" in odd.skipped
    assert "weight: 'heavy' is not a weight; not imported" in odd.missing
    assert odd.model.cages[0].count == 2
    broken = tmp_path / "broken.yaml"
    broken.write_text("manufacturer: [\n")
    with pytest.raises(NetBoxImportError, match=r"broken.yaml: line \d+, column \d+: not valid YAML"):
        import_device_type_file(broken)


def test_imported_models_land_in_the_user_catalog_and_work_in_a_design(capsys, tmp_path):
    code = main(["catalog", "import-netbox", str(DATA / "SN5600.yaml"), str(DATA / "QM9700.yaml"),
                 str(tmp_path / "missing.yaml")])
    out, err = capsys.readouterr()
    assert code == 2 and "missing.yaml: cannot read" in err
    assert "missing: P22.1: port 2 of cage 22" in out
    user = Path(os.environ["AICNET_USER_CATALOG_DIR"])
    assert sorted(p.name for p in user.iterdir()) == [
        "netbox-nvidia-qm9700.yaml", "netbox-nvidia-sn5600.yaml"]
    assert main(["catalog", "show", "netbox-nvidia-sn5600", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["airflow"] == "rear-to-front"
    fabric = tmp_path / "nb.fabric"
    assert main(["generate", "two-tier", "--servers", "4", "--server", "generic-hgx-8-gpu-b3140h",
                 "--leaf", "netbox-nvidia-sn5600", "-o", str(fabric)]) == 0
    assert main(["validate", str(fabric)]) == 0
    capsys.readouterr()
    folder = tmp_path / "netbox"
    assert main(["export", str(fabric), "--netbox", str(folder)]) == 0
    back = yaml.safe_load((folder / "device-types" / "Nvidia" / "SN5600.yaml").read_text())
    assert _ports(back) == _ports(_source("SN5600"))
