"""NVLink domains: the scale-up domains of rack-scale systems (an NVL72 rack), with their
switch trays, derived from where the compute trays sit.

An NVL72 rack is one NVLink domain: its 18 compute trays' 72 GPUs reach each other through the
rack's 9 NVLink switch trays over the rack's copper NVLink spine ("9 NVSwitch trays for full
non-blocking P2P connectivity of all 72 Blackwell Ultra GPUs", NVL72 AI Factory RA; GB200: "18
compute trays and 9 NVLink switch trays", DGX SuperPOD GB200 RA).  An NVLink domain "represents
an NVLink fabric spanning one or more Racks" and has an id (NVIDIA Infra Controller API); the
software names it by the `ClusterUUID` that `nvidia-smi -q` reports (NVIDIA topograph).

Here a domain is the devices of a model with a `rack_system` whose NVLink domain spans several
devices (`nvlink_domain_gpus` above the device's own GPUs), grouped

- by the racks' `nvlink_domain` id when a rack states one (racks sharing an id are one domain:
  NVLink 5 allows domains of up to 576 GPUs across racks), else
- per rack, in groups of the system's device count (`rack_system.devices`, top RU first), named
  `nvl-<rack name>` (`-2`, `-3` ... for further groups in one rack; `nvl-no-rack` for trays in no
  rack).

Each domain lists its switch trays (`rack_system.switch_trays` per rack it spans), each carrying
the domain's id.  The Slurm export makes one block per domain (report/slurm.py); the collective
model can read a domain's GPU count here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .catalog_entities import DeviceModel
from .document import FabricDocument
from .fabric import Device

NO_RACK = "no-rack"


@dataclass(frozen=True)
class SwitchTray:
    """One NVLink switch tray of a domain: its place in the domain and the domain's id."""

    name: str
    index: int
    domain: str


@dataclass(frozen=True)
class NvlinkDomain:
    """One NVLink domain: its id, the racks it spans, its compute devices (ids, top RU first),
    their GPUs, the rack-scale system it is and its switch trays."""

    id: str
    racks: tuple[str, ...]
    devices: tuple[str, ...]
    gpus: int
    system: str
    switch_trays: tuple[SwitchTray, ...]


def spans_devices(model: DeviceModel) -> bool:
    """Does a device of `model` share an NVLink domain with other devices (an NVL72 tray), rather
    than being a domain of its own (an 8-GPU DGX)?"""
    return (model.rack_system is not None and model.gpus > 0
            and (model.nvlink_domain_gpus or 0) > model.gpus)


def _order(device: Device) -> tuple[int, str]:
    return (-(device.ru or 0), device.name)


def nvlink_domains(doc: FabricDocument) -> list[NvlinkDomain]:
    """The design's multi-device NVLink domains, in order of their ids."""
    explicit: dict[tuple[str, str], list[Device]] = defaultdict(list)  # (system, id) -> devices
    per_rack: dict[tuple[str, str], list[Device]] = defaultdict(list)  # (system, rack) -> devices
    models: dict[str, DeviceModel] = {}
    for device in doc.devices.values():
        model = doc.device_model(device)
        if not spans_devices(model):
            continue
        system = model.rack_system.name  # type: ignore[union-attr]
        models[system] = model
        rack = doc.racks.get(device.rack) if device.rack is not None else None
        if rack is not None and rack.nvlink_domain:
            explicit[(system, rack.nvlink_domain)].append(device)
        else:
            per_rack[(system, device.rack if rack is not None else NO_RACK)].append(device)
    found: list[NvlinkDomain] = []
    for (system, domain_id), devices in explicit.items():
        racks = tuple(sorted({d.rack for d in devices if d.rack is not None}))
        found.append(_domain(domain_id, racks, devices, models[system]))
    for (system, rack_id), devices in per_rack.items():
        model = models[system]
        size = model.rack_system.devices  # type: ignore[union-attr]
        devices.sort(key=_order)
        name = doc.racks[rack_id].name if rack_id in doc.racks else NO_RACK
        racks = (rack_id,) if rack_id in doc.racks else ()
        for start in range(0, len(devices), size):
            suffix = f"-{start // size + 1}" if start else ""
            found.append(_domain(f"nvl-{name}{suffix}", racks, devices[start:start + size], model))
    return sorted(found, key=lambda d: d.id)


def _domain(domain_id: str, racks: tuple[str, ...], devices: list[Device],
            model: DeviceModel) -> NvlinkDomain:
    system = model.rack_system
    assert system is not None
    devices = sorted(devices, key=lambda d: (d.rack or "", *_order(d)))
    trays = (system.switch_trays or 0) * max(len(racks), 1)
    return NvlinkDomain(
        id=domain_id, racks=racks, devices=tuple(d.id for d in devices),
        gpus=model.gpus * len(devices), system=system.name,
        switch_trays=tuple(SwitchTray(f"{domain_id}-nvsw{i}", i, domain_id)
                           for i in range(1, trays + 1)))
