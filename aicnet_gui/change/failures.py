"""What a user marks as failed, resolved to the links that stop carrying traffic.

A failure is a set of links.  A failed device takes all its links down (the device itself stays
in the design, so a failed server is still a member of its workloads: its GPUs lose their paths
rather than leaving the job).  Accepted tokens (`aicnet whatif --fail TOKEN`):

- a device id or name (`leaf-03`), a link id (`c000123`): the cable that carries it fails,
  so every link of that cable goes down (the legs of a splitter and both links of a twin
  cable share an `assembly` id);
- `optic:DEVICE:CAGE` - the optic in that cage: every link on the cage's ports (both links of a
  twin-port optic);
- `laser:DEVICE:N` - external laser source module N (1-based) of a co-packaged optics switch:
  every link on the cages it feeds light to, as the catalog's `replaceable_parts` map says
  (refused, with the reason, for a model whose vendor publishes no such map: which ports one of
  a Q3450-LD's 18 modules takes down is not in any document found);
- `rail:N` - every link tagged with rail N (a whole rail);
- `plane:NAME` - every link tagged with that plane, and every link of a device tagged with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, repeat
from operator import eq

from ..media import assembly_groups
from ..model.document import FabricDocument


class FailureError(ValueError):
    """A token that names nothing in the design."""


@dataclass(frozen=True)
class Failure:
    label: str
    links: frozenset[str]
    devices: tuple[str, ...] = ()  # ids of the devices marked failed (their links are in `links`)


def _device(doc: FabricDocument, token: str) -> str | None:
    if token in doc.devices:
        return token
    device = doc.device_by_name(token)
    return device.id if device is not None else None


def _ids_where(doc: FabricDocument, field: str, value: object) -> set[str]:
    """The ids of the links whose `field` is `value` (from the link columns)."""
    ids, values = doc.links.columns("id", field)
    return set(compress(ids, map(eq, values, repeat(value))))


def resolve(doc: FabricDocument, tokens: list[str]) -> Failure:
    """The failure the tokens name together; FailureError for a token that names nothing."""
    links: set[str] = set()
    devices: list[str] = []
    for token in tokens:
        device = _device(doc, token)
        if device is not None:
            devices.append(device)
            links.update(doc.link_ids_of(device))
        elif token in doc.links:
            links.update(cable_of(doc, token))
        elif token.startswith("optic:"):
            links.update(_optic(doc, token))
        elif token.startswith("laser:"):
            links.update(_laser(doc, token))
        elif token.startswith("rail:"):
            try:
                rail = int(token[5:])
            except ValueError:
                raise FailureError(f"{token!r}: a rail is a number, e.g. rail:3") from None
            found = _ids_where(doc, "rail", rail)
            if not found:
                raise FailureError(f"{token!r}: no link is tagged with rail {rail}")
            links.update(found)
        elif token.startswith("plane:"):
            plane = token[6:]
            found = _ids_where(doc, "plane", plane)
            for dev in doc.devices.values():
                if dev.plane == plane or dev.tags.get("plane") == plane:
                    found.update(doc.link_ids_of(dev.id))
            if not found:
                raise FailureError(f"{token!r}: nothing is tagged with plane {plane!r}")
            links.update(found)
        else:
            raise FailureError(f"{token!r} is not a device, link, optic:DEVICE:CAGE, "
                               "laser:DEVICE:N, rail:N or plane:NAME of this design")
    return Failure(", ".join(tokens), frozenset(links), tuple(devices))


def cable_of(doc: FabricDocument, link_id: str) -> frozenset[str]:
    """Every link of the physical cable that carries `link_id` (its assembly), else itself."""
    assembly = doc.links[link_id].assembly
    return frozenset((link_id,)) if assembly is None else assembly_groups(doc)[assembly]


def cables(doc: FabricDocument) -> list[frozenset[str]]:
    """The design's physical cables as sets of link ids (a link without an assembly is a cable
    of its own), in the order of their first link id."""
    groups = assembly_groups(doc)
    out: dict[tuple[bool, str], frozenset[str]] = {}  # (of an assembly, id)
    for link_id in sorted(doc.links):
        assembly = doc.links[link_id].assembly
        if assembly is None:
            out[(False, link_id)] = frozenset((link_id,))
        else:
            out.setdefault((True, assembly), groups[assembly])
    return list(out.values())


def _device_number(doc: FabricDocument, token: str, example: str) -> tuple[str, str, int]:
    """(device id, its name as written, N) of a `KIND:DEVICE:N` token."""
    try:
        _, name, text = token.split(":")
        number = int(text)
    except ValueError:
        raise FailureError(f"{token!r}: write {example}") from None
    device = _device(doc, name)
    if device is None:
        raise FailureError(f"{token!r}: no device {name!r}")
    return device, name, number


def _links_on_cages(doc: FabricDocument, device: str, cages: set[int]) -> set[str]:
    ports = [p.name for p in doc.ports(device).values() if p.cage in cages]
    return {lk.id for p in ports if (lk := doc.link_at(device, p)) is not None}


def _optic(doc: FabricDocument, token: str) -> set[str]:
    device, name, cage = _device_number(doc, token, "optic:DEVICE:CAGE, e.g. optic:leaf-01:5")
    if not any(p.cage == cage for p in doc.ports(device).values()):
        raise FailureError(f"{token!r}: {name} has no cage {cage}")
    return _links_on_cages(doc, device, {cage})


def _laser(doc: FabricDocument, token: str) -> set[str]:
    """The links on the cages that laser source module N of a co-packaged optics switch feeds."""
    device, _name, unit = _device_number(doc, token, "laser:DEVICE:N, e.g. laser:spine-01:3")
    model = doc.device_model(device)
    lasers = model.laser_sources()
    if lasers is None:
        raise FailureError(f"{token!r}: the {model.model} has no external laser source modules")
    if not 1 <= unit <= lasers.count:
        raise FailureError(f"{token!r}: the {model.model} has laser modules 1 to {lasers.count}")
    if lasers.feeds is None:
        raise FailureError(
            f"{token!r}: which ports each of the {model.model}'s {lasers.count} laser modules "
            "feeds is not published, so the ports a failed module takes down are unknown "
            "(fail the ports' links or the switch instead)")
    return _links_on_cages(doc, device, set(lasers.feeds.get(unit, ())))
