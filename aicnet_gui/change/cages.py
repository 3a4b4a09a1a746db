"""What a growth or migration leaves in the cages of the devices it keeps, made right.

A change fitted onto a design keeps every cable it can on its own ports (growth.py), while a
design generated at the new size from scratch packs its cables into as few cages as it can.
Two things then cost optics that the generated design does not buy:

- a cage whose cables all moved to another switch still holds its optic (`vacated_optics`
  takes it out, as the OPTIC-UNLINKED fix does);
- a twin-port cage that kept one of its two cables while the other moved leaves half of its
  optic idle, and so does its neighbour (`paired_cages` re-plugs the cable of one such cage into
  the free leg of another on the same switch, same optic and same fibre part: the cable stays
  where it runs, one plug moves a few centimetres, and the emptied cage gives its optic back).

Both only touch what the change caused: a cage that held an optic without a link, or was half
used, in the design stays as the user made it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from ..analysis.rules_device import unlinked_optic_cages
from ..model.document import FabricDocument
from ..model.edits import Operation, UpdateDevice, UpdateLink
from ..model.fabric import Endpoint, Link

__all__ = ["CagePairing", "paired_cages", "vacated_optics"]


def vacated_optics(doc: FabricDocument, result: FabricDocument,
                   kept: Iterable[str]) -> list[Operation]:
    """Take the optic out of every cage of a kept device that carries no link in `result`,
    unless the design held the same optic there without a link (the user's own staged spare).
    The cage keeps its breakout mode."""
    ops: list[Operation] = []
    for device_id in sorted(kept):
        empty = unlinked_optic_cages(result, device_id)
        if not empty:
            continue
        staged = set(unlinked_optic_cages(doc, device_id))
        before, device = doc.devices[device_id], result.devices[device_id]
        freed = {c for c in empty
                 if not (c in staged and before.model == device.model
                         and before.cages[c].transceiver == device.cages[c].transceiver)}
        if not freed:
            continue
        cages = {n: (cfg.model_copy(update={"transceiver": None}) if n in freed else cfg)
                 for n, cfg in device.cages.items()}
        cages = {n: cfg for n, cfg in cages.items() if cfg.mode or cfg.transceiver or cfg.fec}
        ops.append(UpdateDevice(device_id, {"cages": cages}))
    return ops


def _cage_use(doc: FabricDocument, device_id: str) -> dict[int, list[tuple[str, Link]]]:
    """Per cage of the device, its linked ports and their links, in leg order."""
    ports = doc.ports(device_id)
    use: dict[int, list[tuple[str, Link]]] = defaultdict(list)
    for name in sorted(doc.linked_ports(device_id), key=lambda n: ports[n].leg if n in ports else 0):
        link = doc.link_at(device_id, name)
        if name in ports and link is not None:
            use[ports[name].cage].append((name, link))
    return use


def _legs(doc: FabricDocument, device_id: str) -> dict[int, list[str]]:
    legs: dict[int, list[str]] = defaultdict(list)
    for port in sorted(doc.ports(device_id).values(), key=lambda p: (p.cage, p.leg)):
        legs[port.cage].append(port.name)
    return legs


@dataclass
class CagePairing:
    """The re-plugs that empty half-used cages, and why each cable moves."""

    ops: list[Operation]
    reasons: dict[str, str]  # link id -> why


def paired_cages(doc: FabricDocument, result: FabricDocument, kept: Iterable[str]) -> CagePairing:
    """Re-plug cables so that the twin-port cages the change left half used on a kept device
    are filled in pairs: the cables of one cage move into the free legs of another of the same
    switch holding the same optic in the same mode, with cables of the same part (a twin-port
    optic takes one kind of fibre on both legs) and no assembly shared with other links."""
    ops: list[Operation] = []
    reasons: dict[str, str] = {}
    for device_id in sorted(kept):
        device = result.devices[device_id]
        before = doc.devices.get(device_id)
        legs = _legs(result, device_id)
        use = _cage_use(result, device_id)
        was = _cage_use(doc, device_id) if before is not None and before.model == device.model \
            else {}
        was_legs = _legs(doc, device_id) if was else {}
        ports = result.ports(device_id)
        groups: dict[tuple, list[int]] = defaultdict(list)
        for cage, used in use.items():
            config = device.cages.get(cage)
            if config is None or config.transceiver is None or len(used) >= len(legs[cage]):
                continue
            if 0 < len(was.get(cage, ())) < len(was_legs.get(cage, ())):
                continue  # half used in the design already: the user's choice
            if any(link.assembly is not None or link.pinned for _name, link in used):
                continue
            cables = {link.cable for _name, link in used}
            if len(cables) != 1:
                continue
            first = ports[legs[cage][0]]
            groups[(config.transceiver, config.mode, first.group.name, first.speed_gbps,
                    len(legs[cage]), cables.pop())].append(cage)
        for cages in groups.values():  # neighbours in cage order: a plug moves the least
            cages.sort()
            while len(cages) >= 2:
                receiver, donor = cages[0], cages[1]
                taken = {n for n, _ in use[receiver]}
                free = [p for p in legs[receiver] if p not in taken]
                moving = use[donor]
                if len(moving) > len(free):
                    cages.pop(0)  # the receiver cannot take the donor's cables: try the next
                    continue
                for (name, link), port in zip(moving, free, strict=False):
                    end = "a" if (link.a.device, link.a.port) == (device_id, name) else "b"
                    ops.append(UpdateLink(link.id, {end: Endpoint(device_id, port)}))
                    reasons[link.id] = (f"{device.name}: re-plugged from {name} into {port}, the free "
                                        f"leg of cage {receiver}: frees the optic of cage {donor}")
                    use[receiver].append((port, link))
                cages.pop(1)
                if len(use[receiver]) >= len(legs[receiver]):
                    cages.pop(0)
    return CagePairing(ops, reasons)
