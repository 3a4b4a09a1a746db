"""Machine-applicable fixes: model operations (aicnet_gui/model/edits.py) built for one finding.

Every builder returns ops that `FabricDocument.apply` accepts as one all-or-nothing edit, or
None when no mechanical repair exists (the finding then keeps a text-only `Fix`).  Changing a
cage's breakout mode renames its ports (`swp3` -> `swp3s0`), so `set_cage_mode` removes the
links on that cage, changes the mode and adds the links back on the renamed ports.
"""

from __future__ import annotations

from ..model.catalog_entities import BreakoutMode
from ..model.document import FabricDocument
from ..model.edits import AddLink, Operation, RemoveLink, UpdateDevice, UpdateLink
from ..model.fabric import CageConfig, Endpoint, Link


def _cages_with(doc: FabricDocument, device_id: str, cage: int, *, mode: str | None = ...,
                transceiver: str | None = ...) -> dict[int, CageConfig]:
    device = doc.devices[device_id]
    cages = dict(device.cages)
    old = cages.get(cage, CageConfig())
    new_mode = old.mode if mode is ... else mode
    new_optic = old.transceiver if transceiver is ... else transceiver
    if new_mode is None and new_optic is None and old.fec is None:
        cages.pop(cage, None)
    else:  # a copy keeps the cage's other settings (its FEC)
        cages[cage] = old.model_copy(update={"mode": new_mode, "transceiver": new_optic})
    return cages


def set_cage_optic(doc: FabricDocument, device_id: str, cage: int,
                   optic: str | None) -> list[Operation]:
    return [UpdateDevice(device_id, {"cages": _cages_with(doc, device_id, cage, transceiver=optic)})]


def set_cage_mode(doc: FabricDocument, device_id: str, cage: int, mode: str) -> list[Operation] | None:
    """Remove the cage's links, set the mode, re-add the links on the renamed ports."""
    device = doc.devices[device_id]
    model = doc.catalog.device(device.model)
    group = model.cage_group_of.get(cage)
    if group is None or mode not in group.breakouts:
        return None
    if cage in device.cages and device.cages[cage].mode == mode:
        return None
    default = group.default_breakout
    legs = BreakoutMode.parse(mode).legs
    ports = doc.ports(device_id)
    moved: list[tuple[Link, str, str]] = []  # (link, end, new port name)
    for link in doc.links_of(device_id):
        for end in ("a", "b"):
            endpoint: Endpoint = getattr(link, end)
            if endpoint.device != device_id:
                continue
            port = ports.get(endpoint.port)
            if port is None or port.cage != cage:
                continue
            if port.leg > legs:
                return None  # a link on a leg the new mode does not have
            moved.append((link, end, group.port_name(cage, port.leg, legs)))
    ops: list[Operation] = [RemoveLink(link.id) for link, _, _ in moved]
    ops.append(UpdateDevice(device_id, {
        "cages": _cages_with(doc, device_id, cage, mode=None if mode == default else mode)
    }))
    for link, end, name in moved:
        ops.append(AddLink(link.model_copy(update={end: Endpoint(device=device_id, port=name)})))
    return ops


def set_cable(link_ids: list[str], cable: str) -> list[Operation]:
    """Change the cable of a link and of the other legs of its assembly (`link_ids`)."""
    return [UpdateLink(i, {"cable": cable}) for i in sorted(link_ids)]


def set_assembly(link_ids: list[str], assembly: str) -> list[Operation]:
    return [UpdateLink(i, {"assembly": assembly}) for i in link_ids]
