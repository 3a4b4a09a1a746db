"""`aicnet export --netbox DIR`: the NetBox 4.5+ import checked against NetBox's own import form
definitions and choice values (tests/data/netbox/netbox-v4.5.10.json, extracted from
netbox-community/netbox v4.5.10), the device-type YAML against the devicetype-library's JSON
Schema, and the whole folder for what an import into an empty NetBox needs: every cable end an
interface that a device type or interfaces.csv creates, no interface created twice."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric
from aicnet_gui.report import export_netbox

DATA = Path(__file__).resolve().parents[1] / "data" / "netbox"
ROOT = Path(__file__).resolve().parents[2]
NB45 = json.loads((DATA / "netbox-v4.5.10.json").read_text())
NB44 = json.loads((DATA / "netbox-v4.4.0.json").read_text())


def _csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)


def _check_columns(header: list[str], form: str, netbox: dict) -> None:
    fields = netbox["forms"][form]
    assert set(header) <= set(fields), set(header) - set(fields)
    required = set(netbox["forms"][f"{form}.declared_required"]) & set(fields)
    assert required <= set(header), required - set(header)


def _in_choices(rows: list[dict[str, str]], column: str, choices: str, netbox: dict) -> None:
    allowed = set(netbox["choices"][choices])
    values = {row[column] for row in rows if row[column]}
    assert values <= allowed, values - allowed


def _devicetype_validator() -> Draft202012Validator:
    """The library's schema; its generated part (NetBox's choices) built from the v4.5.10 data."""
    schema_dir = DATA / "devicetype-library-schema"
    choices = NB45["choices"]
    generated = {
        "$id": "urn:devicetype-library:generated-schema",
        "definitions": {
            "airflow": {"enum": choices["DeviceAirflowChoices"]},
            "weight-unit": {"enum": ["kg", "g", "lb", "oz"]},
            "subdevice-role": {"enum": ["parent", "child"]},
            "interface": {"properties": {"type": {"enum": choices["InterfaceTypeChoices"]}}},
            "power-port": {"properties": {"type": {"enum": choices["PowerPortTypeChoices"]}}},
            "console-port": {"properties": {"type": {"enum": choices["ConsolePortTypeChoices"]}}},
        },
    }
    resources = [DRAFT202012.create_resource(generated)]
    for name in ("components.json", "reusable.json"):
        contents = json.loads((schema_dir / name).read_text())
        contents.setdefault("$id", f"urn:devicetype-library:{name.removesuffix('.json')}")
        resources.append(DRAFT202012.create_resource(contents))
    registry = Registry().with_resources((r.id(), r) for r in resources)
    main_schema = json.loads((schema_dir / "devicetype.json").read_text())
    return Draft202012Validator(main_schema, registry=registry)


def _import_check(folder: Path) -> dict[tuple[str, str], str]:
    """Replay what NetBox's import would look up; return every interface -> where it comes from."""
    _, manufacturers = _csv(folder / "manufacturers.csv")
    _, roles = _csv(folder / "device_roles.csv")
    _, racks = _csv(folder / "racks.csv")
    _, devices = _csv(folder / "devices.csv")
    _, interfaces = _csv(folder / "interfaces.csv")
    _, cables = _csv(folder / "cables.csv")
    types = {}
    validator = _devicetype_validator()
    for path in sorted((folder / "device-types").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        errors = [e.message for e in validator.iter_errors(data)]
        assert errors == [], (path.name, errors[:3])
        types[(data["manufacturer"], data["model"])] = data
    assert {m for m, _ in types} <= {m["name"] for m in manufacturers}
    made: dict[tuple[str, str], str] = {}
    for device in devices:
        assert device["role"] in {r["name"] for r in roles}
        assert not device["rack"] or device["rack"] in {r["name"] for r in racks}
        template = types[(device["manufacturer"], device["device_type"])]
        for interface in template["interfaces"]:
            made[(device["name"], interface["name"])] = "device type"
    for row in interfaces:
        key = (row["device"], row["name"])
        assert key not in made, f"{key} would be created twice"
        assert not row.get("parent") or row["type"] == "virtual"  # Interface.clean(), 4.5
        made[key] = "interfaces.csv"
    used: Counter[tuple[str, str]] = Counter()
    for cable in cables:
        for side in "ab":
            key = (cable[f"side_{side}_device"], cable[f"side_{side}_name"])
            assert key in made, f"cable {cable['label']}: no interface {key}"
            used[key] += 1
    assert max(used.values()) == 1, [k for k, n in used.items() if n > 1]
    return made


@pytest.mark.parametrize("example", ["small-hgx", "superpod-1su", "inference-ethernet"])
def test_examples_import_into_an_empty_netbox_45(tmp_path, example):
    folder = tmp_path / "nb"
    assert main(["export", str(ROOT / "examples" / f"{example}.fabric"), "--netbox",
                 str(folder)]) == 0
    for name, form in (("cables.csv", "CableImportForm"), ("devices.csv", "DeviceImportForm"),
                       ("racks.csv", "RackImportForm"), ("interfaces.csv", "InterfaceImportForm"),
                       ("manufacturers.csv", "ManufacturerImportForm"),
                       ("device_roles.csv", "DeviceRoleImportForm")):
        header, rows = _csv(folder / name)
        _check_columns(header, form, NB45)
    _, cables = _csv(folder / "cables.csv")
    _in_choices(cables, "type", "CableTypeChoices", NB45)
    _in_choices(cables, "profile", "CableProfileChoices", NB45)
    _in_choices(cables, "status", "LinkStatusChoices", NB45)
    _in_choices(cables, "length_unit", "CableLengthUnitChoices", NB45)
    assert all(c["side_a_site"] == c["side_b_site"] == "1A" for c in cables)
    _, devices = _csv(folder / "devices.csv")
    _in_choices(devices, "status", "DeviceStatusChoices", NB45)
    _in_choices(devices, "face", "DeviceFaceChoices", NB45)
    _in_choices(devices, "airflow", "DeviceAirflowChoices", NB45)
    _, racks = _csv(folder / "racks.csv")
    _in_choices(racks, "width", "RackWidthChoices", NB45)
    _in_choices(racks, "status", "RackStatusChoices", NB45)
    _, interfaces = _csv(folder / "interfaces.csv")
    _in_choices(interfaces, "type", "InterfaceTypeChoices", NB45)
    _import_check(folder)


def test_twin_port_dac_is_one_cable_between_the_unsplit_ports(tmp_path):
    """small-hgx, hand-checked: C000001 is one MCP4Y10 DAC carrying leaf-01 swp9s0/swp9s1 to
    spine-01 swp1s0/swp1s1: one NetBox cable swp9 - swp1 of profile single-1c2p, 2 m."""
    folder = tmp_path / "nb"
    assert main(["export", str(ROOT / "examples" / "small-hgx.fabric"), "--netbox",
                 str(folder)]) == 0
    _, cables = _csv(folder / "cables.csv")
    first = cables[0]
    assert (first["side_a_device"], first["side_a_name"], first["side_b_device"],
            first["side_b_name"]) == ("leaf-01", "swp9", "spine-01", "swp1")
    assert (first["profile"], first["type"], first["label"], first["length"],
            first["length_unit"]) == ("single-1c2p", "dac-passive", "C000001", "2", "m")
    assert len({c["label"] for c in cables}) == len(cables)  # one row per physical cable
    sn5600 = yaml.safe_load((folder / "device-types" / "Nvidia" / "SN5600.yaml").read_text())
    names = [i["name"] for i in sn5600["interfaces"]]
    assert names[:2] == ["swp1", "swp2"] and "swp64" in names and "swp1s0" not in names
    assert sn5600["u_height"] == 2 and sn5600["slug"] == "nvidia-sn5600"
    validator = _devicetype_validator()
    assert list(validator.iter_errors(sn5600)) == []
    bogus = sn5600 | {"interfaces": [{"name": "swp1", "type": "800g-osfp-bogus"}]}
    assert list(validator.iter_errors(bogus)) and list(validator.iter_errors(sn5600 | {"weight": 2}))
    _, interfaces = _csv(folder / "interfaces.csv")
    made = {(i["device"], i["name"]) for i in interfaces}
    assert ("leaf-01", "swp9s0") not in made  # the twin-port cable ends on swp9, not on legs
    leg = next(i for i in interfaces if (i["device"], i["name"]) == ("leaf-01", "swp3s0"))
    assert "parent" not in leg and leg["speed"] == "400000000"
    assert leg["description"] == "breakout leg 1/2 of swp3, cage 3"


def test_breakout_legs_keep_one_label_and_readme_gives_the_profile(small, tmp_path):
    """The report fixture's MCP7Y00 splitter (leaf 3/1, 3/2 to two GB200 trays) cannot be one
    cable in a CSV import (one termination per side): two rows with its one label."""
    folder = tmp_path / "nb"
    export_netbox(small, folder)
    _, cables = _csv(folder / "cables.csv")
    split = [c for c in cables if "tray-a" in (c["side_b_device"], c["side_a_device"])
             or "tray-b" in (c["side_b_device"], c["side_a_device"])]
    assert len(split) == 2 and len({c["label"] for c in split}) == 1
    assert {c["profile"] for c in split} == {""}
    readme = (folder / "README.txt").read_text()
    label = split[0]["label"]
    assert f"{label}: profile trunk-2c1p" in readme or f"{label}: profile breakout" in readme
    _import_check(folder)


def test_older_layout_for_netbox_44(small, tmp_path):
    path = tmp_path / "small.fabric"
    save_fabric(small, path)
    folder = tmp_path / "nb44"
    assert main(["export", str(path), "--netbox", str(folder), "--netbox-layout", "4.4"]) == 0
    for name, form in (("cables.csv", "CableImportForm"), ("devices.csv", "DeviceImportForm"),
                       ("racks.csv", "RackImportForm"), ("interfaces.csv", "InterfaceImportForm"),
                       ("manufacturers.csv", "ManufacturerImportForm"),
                       ("device_roles.csv", "DeviceRoleImportForm")):
        _check_columns(_csv(folder / name)[0], form, NB44)
    header, cables = _csv(folder / "cables.csv")
    assert "profile" not in header and not (folder / "device-types").exists()
    _in_choices(cables, "type", "CableTypeChoices", NB44)
    assert len(cables) == len(small.links)


def test_every_catalog_device_has_a_valid_device_type(catalog):
    """Any model a design can use gets a device type the library's schema accepts, with one
    interface per unsplit port and no name twice."""
    from aicnet_gui.report.netbox_devicetypes import device_type

    validator = _devicetype_validator()
    for model in catalog.devices.values():
        data = device_type(model)
        assert list(validator.iter_errors(data)) == [], model.id
        names = [i["name"] for i in data["interfaces"]]
        assert len(names) == len(set(names)), model.id
