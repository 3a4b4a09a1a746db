"""Random model edits for the incremental == full tests (a helper module, not a test file)."""

from __future__ import annotations

import random

from aicnet_gui.model.document import FabricDocument, ModelError
from aicnet_gui.model.edits import (
    AddDevice,
    AddLink,
    AddRack,
    AddWorkload,
    Operation,
    RemoveDevice,
    RemoveLink,
    RemoveRack,
    RemoveWorkload,
    UpdateDevice,
    UpdateLink,
    UpdateRack,
    UpdateSettings,
    UpdateWorkload,
)
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, Link, LinkPatch, Rack, Workload

#: the edit kinds `random_edit` picks from by default (the seeds of the tests depend on this list:
#: add a kind through the `kinds` argument, not here)
KINDS = (
    "remove-link", "link-length", "link-cable", "link-assembly", "link-rail", "move-end",
    "add-link", "firmware", "optic", "mode", "move-device", "remove-device", "rack",
    "workload", "mtu-tag", "role", "add-rack", "remove-rack", "new-workload",
    "drop-workload", "settings", "rename", "rename-workload", "airflow", "link-patch",
)
#: ... and the kinds added since, with their own seeds: a new device, wired in the same edit
MORE_KINDS = (*KINDS, "add-device")
#: ... and the 2026 rules' inputs: a rack's cooling and power feeds, a switch's plane, the
#: idle-port threshold
KINDS_2026 = (*MORE_KINDS, "rack-env", "plane", "idle-setting")


def random_edit(doc: FabricDocument, rng: random.Random,
                kinds: tuple[str, ...] = KINDS) -> list[Operation]:
    """One random edit (a list of ops) that may or may not be valid for the document."""
    links = sorted(doc.links)
    devices = sorted(doc.devices)
    kind = rng.choice(list(kinds))
    if kind == "remove-link" and links:
        return [RemoveLink(rng.choice(links))]
    if kind == "link-length" and links:
        return [UpdateLink(rng.choice(links), {"length_m": rng.choice([None, 0.5, 3.0, 12.0, 80.0])})]
    if kind == "link-patch" and links:
        patch = rng.choice([None, LinkPatch(mated_pairs=rng.choice([0, 2, 4, 6])),
                            LinkPatch(mated_pairs=2, loss_per_pair_db=0.35, polish="UPC")])
        return [UpdateLink(rng.choice(links), {"patch": patch})]
    if kind == "link-cable" and links:
        return [UpdateLink(rng.choice(links), {"cable": rng.choice([None, *sorted(doc.catalog.cables)])})]
    if kind == "link-assembly" and links:
        return [UpdateLink(rng.choice(links), {"assembly": rng.choice([None, "asm-1", "asm-2"])})]
    if kind == "link-rail" and links:
        return [UpdateLink(rng.choice(links), {"rail": rng.choice([None, 1, 2, 3])})]
    if kind in ("move-end", "add-link") and devices:
        dev = rng.choice(devices)
        free = doc.free_ports(dev)
        if not free:
            return []
        port = rng.choice(free)
        if kind == "move-end" and links:
            link_id = rng.choice(links)
            return [UpdateLink(link_id, {rng.choice(["a", "b"]): Endpoint(device=dev, port=port)})]
        other = rng.choice(devices)
        other_free = [p for p in doc.free_ports(other) if (other, p) != (dev, port)]
        if not other_free:
            return []
        return [AddLink(Link(
            id=doc.new_id("rnd"), a=Endpoint(device=dev, port=port),
            b=Endpoint(device=other, port=rng.choice(other_free)),
            cable=rng.choice([None, *sorted(doc.catalog.cables)]),
        ))]
    if kind == "add-rack":
        return [AddRack(Rack(id=doc.new_id("rack"), name=f"N{rng.randint(1, 999)}",
                             x_m=rng.uniform(0, 20), y_m=rng.uniform(0, 10),
                             power_kw=rng.choice([None, 10.0])))]
    if kind == "remove-rack" and doc.racks:
        return [RemoveRack(rng.choice(sorted(doc.racks)))]
    if kind == "new-workload" and devices:
        servers = [d for d in devices if doc.role_of(d).value == "gpu_server"]
        return [AddWorkload(Workload(
            id=doc.new_id("wl"), name=f"w{rng.randint(1, 99)}",
            kind=rng.choice(["training", "inference", "storage", "inference-wide-ep"]),
            members=sorted(rng.sample(servers, min(len(servers), rng.randint(1, 3)))),
            pattern=rng.choice(["ring-allreduce", "all-to-all"]),
            placement=rng.choice(["topology-aware", "scattered"]),
            target_gbps_per_gpu=rng.choice([None, 100.0, 400.0])))]
    if kind == "drop-workload" and doc.workloads:
        return [RemoveWorkload(rng.choice(sorted(doc.workloads)))]
    if kind == "settings":
        return [UpdateSettings(rng.choice([{"mtu": rng.choice([4096, 9000])}, {"pfc": rng.random() < 0.5},
                                           {"spares_percent": 10.0}]))]
    if kind == "idle-setting":
        return [UpdateSettings({"idle_ports_percent": rng.choice([None, 10.0, 25.0, 60.0])})]
    if kind == "rack-env" and doc.racks:
        rack = rng.choice(sorted(doc.racks))
        return [UpdateRack(rack, rng.choice([
            {"cooling": rng.choice([None, "air", "liquid", "air+liquid"])},
            {"power_feeds": rng.choice([None, ["ac"], ["dc-busbar"], ["ac", "dc-busbar"]])}]))]
    if kind == "rename-workload" and doc.workloads:
        return [UpdateWorkload(rng.choice(sorted(doc.workloads)), {"name": f"job-{rng.randint(1, 999)}"})]
    if not devices:
        return []
    if kind == "add-device":
        return _add_device(doc, rng, rng.choice(devices), devices)
    dev_id = rng.choice(devices)
    if kind == "rename":
        return [UpdateDevice(dev_id, {"name": f"n-{rng.randint(1, 99999)}"})]
    device = doc.devices[dev_id]
    if kind == "plane":
        return [UpdateDevice(dev_id, {"plane": rng.choice([None, "1", "2"])})]
    if kind == "firmware":
        return [UpdateDevice(dev_id, {"firmware": rng.choice(["", "fw-1", "fw-2", "fw-10"])})]
    if kind == "airflow":
        flow = rng.choice([None, "front-to-back", "back-to-front"])
        tags = {k: v for k, v in device.tags.items() if k != "airflow"}
        return [UpdateDevice(dev_id, {"tags": tags if flow is None else {**tags, "airflow": flow}})]
    if kind == "optic":
        cages = dict(device.cages)
        model = doc.catalog.device(device.model)
        cage = rng.choice(sorted(model.cage_group_of))
        old = cages.get(cage, CageConfig())
        cages[cage] = CageConfig(mode=old.mode,
                                 transceiver=rng.choice([None, *sorted(doc.catalog.transceivers)]))
        return [UpdateDevice(dev_id, {"cages": cages})]
    if kind == "mode":
        cages = dict(device.cages)
        model = doc.catalog.device(device.model)
        cage = rng.choice(sorted(model.cage_group_of))
        group = model.cage_group_of[cage]
        old = cages.get(cage, CageConfig())
        cages[cage] = CageConfig(mode=rng.choice(group.breakouts), transceiver=old.transceiver)
        return [UpdateDevice(dev_id, {"cages": cages})]
    if kind == "move-device":
        racks = sorted(doc.racks)
        if not racks:
            return [UpdateDevice(dev_id, {"rack": None, "ru": None})]
        return [UpdateDevice(dev_id, {"rack": rng.choice([None, *racks]), "ru": rng.choice([None, 1, 5, 20, 40])})]
    if kind == "remove-device":
        return [RemoveDevice(dev_id)]
    if kind == "rack" and doc.racks:
        rack = rng.choice(sorted(doc.racks))
        return [UpdateRack(rack, rng.choice([{"x_m": rng.uniform(0, 30)}, {"power_kw": rng.choice([None, 5.0, 60.0])},
                                               {"name": f"R{rng.randint(1, 99)}"}]))]
    if kind == "workload" and doc.workloads:
        wl = rng.choice(sorted(doc.workloads))
        members = sorted(doc.workloads[wl].members)
        servers = [d for d in devices if doc.role_of(d).value == "gpu_server"]
        if members and rng.random() < 0.5:
            members.remove(rng.choice(members))
        elif servers:
            members = sorted(set(members) | {rng.choice(servers)})
        return [UpdateWorkload(wl, {"members": members})]
    if kind == "mtu-tag":
        tags = dict(device.tags)
        value = rng.choice([None, "9000", "4096", "x"])
        if value is None:
            tags.pop("mtu", None)
        else:
            tags["mtu"] = value
        return [UpdateDevice(dev_id, {"tags": tags})]
    if kind == "role":
        return [UpdateDevice(dev_id, {"role": rng.choice([None, "leaf", "spine", "core", "mgmt"])})]
    return []


def _add_device(doc: FabricDocument, rng: random.Random, template: str,
                devices: list[str]) -> list[Operation]:
    """A new device like `template` (same model, role and cages), in a rack or not, and in
    the same edit maybe wired to a free port of another device."""
    like = doc.devices[template]
    new_id = doc.new_id("dev")
    racks = sorted(doc.racks)
    rack = rng.choice([None, *racks]) if racks else None
    ops: list[Operation] = [AddDevice(Device(
        id=new_id, name=f"new-{new_id}", model=like.model, role=like.role, rack=rack,
        ru=rng.choice([1, 20, 41]) if rack is not None else None, cages=like.cages,
        firmware=like.firmware, tags=like.tags))]
    ports = sorted(doc.ports(template))
    other = rng.choice(devices)
    free = doc.free_ports(other)
    if ports and free and rng.random() < 0.7:
        ops.append(AddLink(Link(
            id=doc.new_id("rnd"), a=Endpoint(device=new_id, port=rng.choice(ports)),
            b=Endpoint(device=other, port=rng.choice(free)),
            cable=rng.choice([None, *sorted(doc.catalog.cables)]))))
    return ops


def apply_random(doc: FabricDocument, rng: random.Random,  # noqa: ANN201
                 kinds: tuple[str, ...] = KINDS):
    """Apply random edits until one is accepted; returns the AppliedEdit."""
    for _ in range(50):
        ops = random_edit(doc, rng, kinds)
        if not ops:
            continue
        try:
            return doc.apply(ops)
        except ModelError:
            continue
    return None
