"""Copy, paste, duplicate and delete as model operations (pure Python, no Qt).

A copied selection is a *fragment*: the devices and the links between them as plain JSON, so it
travels through the system clipboard between windows.  Pasting gives every device a new id and
a new name from the project's naming pattern, moves it by an offset on the topology canvas and
leaves it unracked (its old RU is taken); links between pasted devices are re-created.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from ..model.document import FabricDocument
from ..model.edits import AddDevice, AddLink, Operation, RemoveDevice, RemoveLink, RemoveRack
from ..model.fabric import Device, Endpoint, Link

FRAGMENT_MIME = "application/x-aicnet-fragment"
FRAGMENT_FORMAT = "aicnet.fragment"


class FragmentError(ValueError):
    """Clipboard content that is not an aicnet fragment."""


@dataclass
class Pasted:
    ops: list[Operation]
    device_ids: list[str]
    link_ids: list[str]


def make_fragment(doc: FabricDocument, device_ids: Iterable[str], link_ids: Iterable[str] = ()) -> dict[str, Any]:
    """The selected devices and every link whose two ends are among them."""
    devices = [doc.devices[i] for i in device_ids if i in doc.devices]
    chosen = {d.id for d in devices}
    links: dict[str, Link] = {}
    for device in devices:
        for link in doc.links_of(device.id):
            if link.a.device in chosen and link.b.device in chosen:
                links[link.id] = link
    for link_id in link_ids:
        link = doc.links.get(link_id)
        if link is not None and link.a.device in chosen and link.b.device in chosen:
            links[link.id] = link
    return {
        "format": FRAGMENT_FORMAT,
        "devices": [d.model_dump(mode="json") for d in devices],
        "links": [link.model_dump(mode="json") for link in links.values()],
    }


def fragment_bytes(fragment: dict[str, Any]) -> bytes:
    return orjson.dumps(fragment)


def parse_fragment(raw: bytes) -> dict[str, Any]:
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise FragmentError("the clipboard does not hold aicnet devices") from None
    if not isinstance(data, dict) or data.get("format") != FRAGMENT_FORMAT:
        raise FragmentError("the clipboard does not hold aicnet devices")
    return data


def paste_ops(doc: FabricDocument, fragment: dict[str, Any], offset: tuple[float, float]) -> Pasted:
    """Operations that add a copy of `fragment` to `doc` (new ids and names, moved by offset)."""
    try:
        devices = [Device.model_validate(d) for d in fragment.get("devices", [])]
        links = [Link.model_validate(x) for x in fragment.get("links", [])]
    except ValidationError as exc:
        raise FragmentError(f"the copied devices cannot be read: {exc.errors()[0]['msg']}") from None
    ids: set[str] = set()
    names: set[str] = set()
    new_id: dict[str, str] = {}
    ops: list[Operation] = []
    for device in devices:
        if device.model not in doc.catalog.devices:
            raise FragmentError(f"{device.name}: model {device.model} is not in this catalog")
        role = (device.role or doc.catalog.devices[device.model].role).value
        device_id = doc.new_id("dev", ids)
        ids.add(device_id)
        name = doc.next_name(role, names)
        names.add(name)
        new_id[device.id] = device_id
        x, y = device.position
        copy = device.model_copy(update={
            "id": device_id, "name": name, "rack": None, "ru": None,
            "position": (x + offset[0], y + offset[1]),
        })
        ops.append(AddDevice(copy))
    link_ids: list[str] = []
    for link in links:
        if link.a.device not in new_id or link.b.device not in new_id:
            continue
        link_id = doc.new_id("link", ids)
        ids.add(link_id)
        link_ids.append(link_id)
        ops.append(AddLink(link.model_copy(update={
            "id": link_id,
            "a": Endpoint(device=new_id[link.a.device], port=link.a.port),
            "b": Endpoint(device=new_id[link.b.device], port=link.b.port),
            "assembly": None,
        })))
    return Pasted(ops, list(new_id.values()), link_ids)


def delete_ops(doc: FabricDocument, device_ids: Iterable[str] = (), link_ids: Iterable[str] = (),
               rack_ids: Iterable[str] = ()) -> list[Operation]:
    """Remove links first (those not going away with their device), then devices, then racks."""
    devices = [i for i in device_ids if i in doc.devices]
    gone = set(devices)
    ops: list[Operation] = []
    for link_id in link_ids:
        link = doc.links.get(link_id)
        if link is not None and link.a.device not in gone and link.b.device not in gone:
            ops.append(RemoveLink(link_id))
    ops.extend(RemoveDevice(i) for i in devices)
    ops.extend(RemoveRack(i) for i in rack_ids if i in doc.racks)
    return ops
