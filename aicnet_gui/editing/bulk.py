"""Bulk wiring: full mesh between two tiers, rail wiring of servers, next free port (pure Python).

Each builder returns the operations of ONE edit, so the editor applies it as one undo step.
Ports are taken in a predictable order: a switch wiring to a higher tier takes its free ports
from the top of its port list (uplinks), everything else from the bottom (downlinks, NICs), so
that generated and hand-drawn fabrics look the same on the front panel.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..model.document import FabricDocument
from ..model.edits import AddLink, Operation
from ..model.fabric import Endpoint, Link
from ..model.ports import LogicalPort
from .compat import PortRef, connection_problem
from .units import counted, natural_key, speed_label


class BulkError(ValueError):
    """A bulk connection that cannot be made, with the reason in plain words."""


class LinkFactory:
    """Makes new links with fresh ids, oriented lower tier -> higher tier."""

    def __init__(self, doc: FabricDocument) -> None:
        self.doc = doc
        self.ids: set[str] = set()
        self.used: set[tuple[str, str]] = set()

    def is_free(self, device: str, port: str) -> bool:
        return (device, port) not in self.used and self.doc.link_at(device, port) is None

    def make(self, a: PortRef, b: PortRef, rail: int | None = None) -> AddLink:
        doc = self.doc
        if doc.tier_of(a.device) > doc.tier_of(b.device):
            a, b = b, a
        link_id = doc.new_id("link", self.ids)
        self.ids.add(link_id)
        self.used.update((a.key(), b.key()))
        link = Link(
            id=link_id,
            a=Endpoint(device=a.device, port=a.port),
            b=Endpoint(device=b.device, port=b.port),
            rail=rail,
        )
        return AddLink(link)


def fabric_ports(doc: FabricDocument, device_id: str) -> list[LogicalPort]:
    return [p for p in doc.ports(device_id).values() if p.group.fabric]


def _ordered_free(doc: FabricDocument, factory: LinkFactory, device_id: str, upward: bool,
                  speed: int | None = None) -> list[LogicalPort]:
    ports = [
        p for p in fabric_ports(doc, device_id)
        if factory.is_free(device_id, p.name) and (speed is None or p.speed_gbps == speed)
    ]
    if upward and doc.device_model(device_id).is_switch:
        ports.reverse()
    return ports


def _pair_ports(doc: FabricDocument, factory: LinkFactory, a: str, b: str) -> tuple[PortRef, PortRef] | None:
    """The next free pair of same-speed ports between devices a and b (fastest speed first)."""
    tier_a, tier_b = doc.tier_of(a), doc.tier_of(b)
    free_a = _ordered_free(doc, factory, a, upward=tier_a < tier_b)
    free_b = _ordered_free(doc, factory, b, upward=tier_b < tier_a)
    speeds = sorted({p.speed_gbps for p in free_a} & {p.speed_gbps for p in free_b}, reverse=True)
    for speed in speeds:
        candidates_b = [p for p in free_b if p.speed_gbps == speed]
        for pa in (p for p in free_a if p.speed_gbps == speed):
            for pb in candidates_b:
                ref_a, ref_b = PortRef(a, pa.name), PortRef(b, pb.name)
                if connection_problem(doc, ref_a, ref_b) is None:
                    return ref_a, ref_b
                break  # same speed, same devices: a problem here is a device-level problem
    return None


def connect_next_free(doc: FabricDocument, a: str, b: str, count: int = 1,
                      factory: LinkFactory | None = None) -> list[Operation]:
    """`count` cables between the next free same-speed ports of devices `a` and `b`."""
    factory = factory or LinkFactory(doc)
    ops: list[Operation] = []
    for made in range(count):
        pair = _pair_ports(doc, factory, a, b)
        if pair is None:
            name_a, name_b = doc.devices[a].name, doc.devices[b].name
            if made == 0:
                raise BulkError(_no_pair_reason(doc, factory, a, b))
            raise BulkError(
                f"only {made} of {counted(count, 'cable')} fit between {name_a} and {name_b}: "
                "no more free ports of the same speed"
            )
        ops.append(factory.make(*pair))
    return ops


def _no_pair_reason(doc: FabricDocument, factory: LinkFactory, a: str, b: str) -> str:
    name_a, name_b = doc.devices[a].name, doc.devices[b].name
    free_a = _ordered_free(doc, factory, a, upward=False)
    free_b = _ordered_free(doc, factory, b, upward=False)
    if not free_a:
        return f"{name_a} has no free fabric port"
    if not free_b:
        return f"{name_b} has no free fabric port"
    speeds_a = sorted({p.speed_gbps for p in free_a})
    speeds_b = sorted({p.speed_gbps for p in free_b})
    if not set(speeds_a) & set(speeds_b):
        return (
            f"no common speed: {name_a} has free {', '.join(map(speed_label, speeds_a))} ports, "
            f"{name_b} has free {', '.join(map(speed_label, speeds_b))} ports"
        )
    speed = max(set(speeds_a) & set(speeds_b))
    port_a = next(p for p in free_a if p.speed_gbps == speed)
    port_b = next(p for p in free_b if p.speed_gbps == speed)
    problem = connection_problem(doc, PortRef(a, port_a.name), PortRef(b, port_b.name))
    return problem or f"no compatible free ports between {name_a} and {name_b}"


def by_name(doc: FabricDocument, ids: Iterable[str]) -> list[str]:
    return sorted(ids, key=lambda i: natural_key(doc.devices[i].name))


def full_mesh(doc: FabricDocument, lower: Sequence[str], upper: Sequence[str], per_pair: int) -> list[Operation]:
    """Every device of `lower` to every device of `upper` with `per_pair` cables each."""
    if not lower or not upper:
        raise BulkError("a full mesh needs devices in two tiers (e.g. leaves and spines)")
    if per_pair < 1:
        raise BulkError("links per pair must be at least 1")
    factory = LinkFactory(doc)
    ops: list[Operation] = []
    for low in by_name(doc, lower):
        for high in by_name(doc, upper):
            if low == high:
                continue
            try:
                ops.extend(connect_next_free(doc, low, high, per_pair, factory))
            except BulkError as exc:
                raise BulkError(f"full mesh stops at {doc.devices[low].name} -> "
                                f"{doc.devices[high].name}: {exc}") from None
    return ops


def rail_ports(doc: FabricDocument, server_id: str) -> list[LogicalPort]:
    """A server's rail ports: the ports of its first fabric cage group (the GPU NICs), in rail
    order (rail i is GPU i-1's NIC, from the catalog's GPU-to-port map when the model has one)."""
    ports = fabric_ports(doc, server_id)
    if not ports:
        return []
    first_group = ports[0].group.name
    nics = [p for p in ports if p.group.name == first_group]
    group = nics[0].group
    order = sorted(range(len(nics)), key=lambda k: group.rail_of_position(k, len(nics)))
    return [nics[k] for k in order]


def rail_wiring(doc: FabricDocument, servers: Sequence[str], leaves: Sequence[str]) -> list[Operation]:
    """Rail-optimized wiring: NIC i of every server goes to the leaf that serves rail i.

    With R rails and L leaves each leaf serves ceil(R / L) consecutive rails (8 rails on 8 leaves:
    one rail each; on 2 leaves: rails 1-4 and 5-8).  Ports that are already wired are left alone.
    """
    if not servers or not leaves:
        raise BulkError("rail wiring needs GPU servers and leaf switches in the selection")
    leaves = by_name(doc, leaves)
    factory = LinkFactory(doc)
    ops: list[Operation] = []
    for server in by_name(doc, servers):
        rails = rail_ports(doc, server)
        if not rails:
            raise BulkError(f"{doc.devices[server].name} has no fabric ports")
        per_leaf = -(-len(rails) // len(leaves))
        for rail_index, port in enumerate(rails):
            if not factory.is_free(server, port.name):
                continue
            leaf = leaves[min(rail_index // per_leaf, len(leaves) - 1)]
            candidates = _ordered_free(doc, factory, leaf, upward=False, speed=port.speed_gbps)
            target = next(
                (p for p in candidates
                 if connection_problem(doc, PortRef(server, port.name), PortRef(leaf, p.name)) is None),
                None,
            )
            if target is None:
                problem = (
                    connection_problem(doc, PortRef(server, port.name), PortRef(leaf, candidates[0].name))
                    if candidates else None
                )
                raise BulkError(
                    f"rail {rail_index + 1}: {doc.devices[leaf].name} has no free "
                    f"{speed_label(port.speed_gbps)} port for {doc.devices[server].name}:{port.name}"
                    + (f" ({problem})" if problem else "")
                )
            ops.append(factory.make(PortRef(server, port.name), PortRef(leaf, target.name),
                                    rail=rail_index + 1))
    if not ops:
        raise BulkError("every rail port of the selected servers is already wired")
    return ops
