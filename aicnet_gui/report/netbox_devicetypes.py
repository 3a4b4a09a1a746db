"""NetBox device-type YAML (the `netbox-community/devicetype-library` format) for catalog models.

NetBox's CSV import cannot create device types; its Device Types > Import page takes this YAML
(manufacturer, model, slug, u_height, is_full_depth, airflow, weight, interfaces ...).  aicnet
writes one file per model a design uses, so that an import into an empty NetBox succeeds and the
interfaces the cables name exist.

A device type's interfaces are the cages' unsplit ports: each cage in its one-leg mode when it
has one (the fastest), else in its default mode (a QM9700 twin-port cage is always two ports).
Breakout legs (`swp3s0`) are not template interfaces: `interfaces.csv` adds the ones a cable
ends on, as physical interfaces of their own (NetBox 4.5 takes a `parent` only on a virtual
interface, `Interface.clean()` in `dcim/models/device_components.py`, and a virtual interface
cannot take a cable).

What the catalog does not know is not invented: power ports and console ports are left out;
`is_full_depth`, which the library's schema requires, is written as true (rack-mount switches
and GPU servers of the catalog are full-depth units) and said so in `comments`.
"""

from __future__ import annotations

import re

import yaml

from ..model.catalog_entities import BreakoutMode, DeviceModel, Role, airflow_direction
from ..model.port_names_os import PortNamer
from ..model.ports import LogicalPort, build_port_table

NETBOX_AIRFLOW = {"front-to-back": "front-to-rear", "back-to-front": "rear-to-front"}
"""aicnet's airflow directions in NetBox's words."""
LIBRARY_MANUFACTURERS = {"nvidia": "Nvidia"}
"""Vendor names as the device-type library spells its manufacturers (its folder and `manufacturer`
keys: `device-types/Nvidia/SN5600.yaml` has `manufacturer: Nvidia`; Arista, Cisco and Juniper are
spelled as aicnet spells them).  A NetBox that loaded the library has the manufacturer `Nvidia`
(slug `nvidia`): an import that names `NVIDIA` would make a second manufacturer with the same
slug, which NetBox refuses."""


def manufacturer(vendor: str) -> str:
    """The NetBox manufacturer name of a catalog vendor (the device-type library's spelling)."""
    return LIBRARY_MANUFACTURERS.get(vendor.lower(), vendor)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def template_ports(model: DeviceModel) -> list[LogicalPort]:
    """The ports a device type of `model` lists: every cage unsplit where it can be."""
    overrides: list[tuple[int, str]] = []
    for group in model.cages:
        single = [m for m in group.breakouts if BreakoutMode.parse(m).legs == 1]
        mode = max(single, key=lambda m: BreakoutMode.parse(m).speed_gbps) if single \
            else group.default_breakout
        overrides.extend((cage, mode) for cage in group.cage_numbers)
    return list(build_port_table(model, tuple(overrides)).values())


def template_names(model: DeviceModel, namer: PortNamer | None = None) -> dict[int, list[str]]:
    """cage -> the interface names the device type gives it (OS names with a `namer`)."""
    names: dict[int, list[str]] = {}
    for port in template_ports(model):
        name = namer.model_port(model, port) if namer is not None else port.name
        names.setdefault(port.cage, []).append(name)
    return names


def device_type(model: DeviceModel, namer: PortNamer | None = None) -> dict[str, object]:
    """The device-type YAML of `model` as a mapping in the library's key order."""
    data: dict[str, object] = {
        "manufacturer": manufacturer(model.vendor),
        "model": model.model,
        "slug": slug(f"{model.vendor}-{model.model}"),
    }
    if model.part_numbers:
        data["part_number"] = model.part_numbers[0][:50]
    data["u_height"] = model.height_ru
    data["is_full_depth"] = True
    if model.airflow:
        direction = airflow_direction(model.airflow)
        data["airflow"] = NETBOX_AIRFLOW.get(direction, model.airflow) if direction else model.airflow
    if model.weight_kg:
        data["weight"] = round(model.weight_kg, 2)
        data["weight_unit"] = "kg"
    data["comments"] = (
        f"Written by aicnet from its catalog entry {model.id} ({model.source}). "
        "is_full_depth is assumed; power and console ports are not in aicnet's catalog.")
    interfaces = []
    for port in template_ports(model):
        entry: dict[str, object] = {
            "name": namer.model_port(model, port) if namer is not None else port.name,
            "type": port.group.interface_type,
        }
        if not port.group.fabric and model.role != Role.MGMT:  # a switch's own OOB port
            entry["mgmt_only"] = True
        interfaces.append(entry)
    data["interfaces"] = interfaces
    return data


def device_type_yaml(model: DeviceModel, namer: PortNamer | None = None) -> str:
    return "---\n" + yaml.safe_dump(device_type(model, namer), sort_keys=False,
                                    allow_unicode=True, width=100)


def file_name(model: DeviceModel) -> str:
    """`device-types/<Vendor>/<Model>.yaml`, as the library lays its files out."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", model.model).strip("-") or model.id
    vendor = re.sub(r"[^A-Za-z0-9._-]+", "-", manufacturer(model.vendor)).strip("-") or "unknown"
    return f"device-types/{vendor}/{safe}.yaml"
