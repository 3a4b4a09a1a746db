"""Pick a workload's servers by rule (pure Python): all servers, one scalable unit, one pod,
one rack, or the servers cabled to one rail.

Each rule lists the values it can take in the open fabric (`choices`), and `servers` returns the
member device ids in natural name order.  Only GPU servers and storage nodes (tier 0) are
members: a workload's traffic starts and ends at servers.
"""

from __future__ import annotations

from ..model.document import FabricDocument
from ..model.fabric import Device
from .units import counted, natural_key

RULES = {
    "all": "All servers",
    "su": "Scalable unit (tag su)",
    "pod": "Pod (tag pod)",
    "rack": "Rack",
    "rail": "Rail (servers cabled to it)",
}


def _servers(doc: FabricDocument) -> list[Device]:
    servers = [d for d in doc.devices.values() if doc.tier_of(d) == 0]
    servers.sort(key=lambda d: natural_key(d.name))
    return servers


def _rail_of_link_end(doc: FabricDocument, link_rail: int | None, switch: Device | None) -> str | None:
    if link_rail:
        return str(link_rail)
    if switch is not None:
        return switch.tags.get("rail")
    return None


def server_rails(doc: FabricDocument, server_id: str) -> set[str]:
    """The rails a server is cabled to (from the cable's rail, else the switch's `rail` tag)."""
    rails: set[str] = set()
    for link in doc.links_of(server_id):
        other = link.b if link.a.device == server_id else link.a
        rail = _rail_of_link_end(doc, link.rail, doc.devices.get(other.device))
        if rail:
            rails.add(rail)
    return rails


def choices(doc: FabricDocument, rule: str) -> list[tuple[str, str]]:
    """(value, label) pairs a rule can take in this fabric."""
    servers = _servers(doc)
    if rule == "all":
        return [("", counted(len(servers), "server"))]
    if rule in ("su", "pod"):
        values = {d.tags[rule] for d in servers if rule in d.tags}
        return [(v, f"{rule.upper() if rule == 'su' else 'Pod'} {v}") for v in sorted(values, key=natural_key)]
    if rule == "rack":
        racks = {d.rack for d in servers if d.rack in doc.racks}
        ordered = sorted(racks, key=lambda r: natural_key(doc.racks[r].name))  # type: ignore[arg-type, index]
        return [(r, doc.racks[r].name) for r in ordered]  # type: ignore[index, misc]
    if rule == "rail":
        rails = {str(rail) for rail in set(doc.links.column("rail")) if rail}
        if not rails:
            rails = {d.tags["rail"] for d in doc.devices.values() if "rail" in d.tags}
        return [(r, f"Rail {r}") for r in sorted(rails, key=natural_key)]
    raise ValueError(f"unknown rule {rule!r}")


def servers(doc: FabricDocument, rule: str, value: str) -> list[str]:
    """Device ids of the servers the rule selects."""
    candidates = _servers(doc)
    if rule == "all":
        return [d.id for d in candidates]
    if rule in ("su", "pod"):
        return [d.id for d in candidates if d.tags.get(rule) == value]
    if rule == "rack":
        return [d.id for d in candidates if d.rack == value]
    if rule == "rail":
        return [d.id for d in candidates if value in server_rails(doc, d.id)]
    raise ValueError(f"unknown rule {rule!r}")
