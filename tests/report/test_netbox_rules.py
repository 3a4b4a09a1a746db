"""The rules a real NetBox 4.5 import enforced on `aicnet export --netbox` (tools/netbox_check.py
imported small-hgx, roce-enterprise and inference-ethernet into NetBox v4.5.10 through its bulk
import views), each encoded here so that CI catches a regression without a NetBox:

* `Interface.clean()` (dcim/models/device_components.py): "Only virtual interfaces may be
  assigned to a parent interface", and a virtual interface takes no cable;
* `CableImportForm._clean_side` (dcim/forms/bulk_import.py): one termination per side, found by
  device and name ("termination not found"), not already connected;
* the cable profile (dcim/cable_profiles.py, `BaseCableProfile.clean`): no more terminations
  per side than the profile has connectors;
* `DeviceImportForm` / `RackImportForm` need the site: sites.csv creates it;
* manufacturers as the device-type library names them (its folder `device-types/Nvidia/`, the
  `manufacturer: Nvidia` of tests/data/netbox-devicetypes), or a NetBox that loaded the library
  refuses the second manufacturer with slug `nvidia`.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
import yaml

from aicnet_gui.cli import main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
NB45 = json.loads((DATA / "netbox" / "netbox-v4.5.10.json").read_text())
PROFILE = re.compile(r"^(single|trunk|breakout)-(\d+)c(\d+)p")


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module", params=["small-hgx", "roce-enterprise", "inference-ethernet",
                                        "superpod-1su"])
def folder(request, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp(request.param) / "nb"
    assert main(["export", str(ROOT / "examples" / f"{request.param}.fabric"), "--netbox",
                 str(out)]) == 0
    return out


def _made(folder: Path) -> dict[tuple[str, str], str]:
    """(device, interface) -> its type, for every interface the import creates."""
    types = {}
    for path in (folder / "device-types").rglob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        types[(data["manufacturer"], data["model"])] = data
    made = {}
    for device in _rows(folder / "devices.csv"):
        template = types[(device["manufacturer"], device["device_type"])]
        for interface in template.get("interfaces", []):
            made[(device["name"], interface["name"])] = interface["type"]
    for row in _rows(folder / "interfaces.csv"):
        made[(row["device"], row["name"])] = row["type"]
    return made


def test_no_parent_on_a_physical_interface(folder):
    for row in _rows(folder / "interfaces.csv"):
        assert not row.get("parent") or row["type"] == "virtual", row


def test_every_cable_ends_on_one_existing_cabled_interface_once(folder):
    made = _made(folder)
    seen: set[tuple[str, str]] = set()
    for cable in _rows(folder / "cables.csv"):
        for side in "ab":
            name = cable[f"side_{side}_name"]
            assert "," not in name  # one termination per side in a CSV import
            key = (cable[f"side_{side}_device"], name)
            assert key in made, f"{cable['label']}: {key} termination not found"
            assert made[key] != "virtual"
            assert key not in seen, f"{key} is already connected"
            seen.add(key)


def test_profiles_exist_and_fit_their_terminations(folder):
    allowed = set(NB45["choices"]["CableProfileChoices"])
    for cable in _rows(folder / "cables.csv"):
        if not cable["profile"]:
            continue
        assert cable["profile"] in allowed
        connectors = int(PROFILE.match(cable["profile"]).group(2))
        assert connectors >= 1  # one termination a side, at most the profile's connectors


def test_the_site_every_row_names_is_in_sites_csv(folder):
    sites = {row["name"] for row in _rows(folder / "sites.csv")}
    assert sites
    for name in ("racks.csv", "devices.csv"):
        assert {row["site"] for row in _rows(folder / name)} <= sites
    for cable in _rows(folder / "cables.csv"):
        assert {cable["side_a_site"], cable["side_b_site"]} <= sites
    assert {row["status"] for row in _rows(folder / "sites.csv")} <= {"planned", "active"}


def test_manufacturers_are_spelled_as_the_device_type_library_spells_them(folder):
    library = {yaml.safe_load(p.read_text())["manufacturer"]
               for p in (DATA / "netbox-devicetypes").rglob("*.yaml")}
    assert library == {"Nvidia"}
    names = {row["name"] for row in _rows(folder / "manufacturers.csv")}
    assert "NVIDIA" not in names and "Nvidia" in names
    assert {p.name for p in (folder / "device-types").iterdir()} <= names
    for device in _rows(folder / "devices.csv"):
        assert device["manufacturer"] in names
