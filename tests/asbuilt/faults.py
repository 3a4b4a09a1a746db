"""Seeded faults on a list of planned links (`captures.SimLink`), as installers make them."""

from __future__ import annotations

from aicnet_gui.model.document import FabricDocument

from .captures import SimLink


def index_of(links: list[SimLink], link_id_end: tuple[str, str], doc: FabricDocument) -> int:
    """Position in `links` of the planned link at a (device, port)."""
    link = doc.link_at(*link_id_end)
    assert link is not None
    for i, sim in enumerate(links):
        if {sim.a, sim.b} == {tuple(link.a), tuple(link.b)}:
            return i
    raise AssertionError(link.id)


def swap_far_ends(links: list[SimLink], i: int, j: int) -> None:
    """Cables i and j exchanged at their B ends (two ports swapped)."""
    links[i].b, links[j].b = links[j].b, links[i].b


def move_end(links: list[SimLink], i: int, end: str, to: tuple[str, str]) -> None:
    setattr(links[i], end, to)


def drop(links: list[SimLink], i: int) -> None:
    del links[i]


def add(links: list[SimLink], a: tuple[str, str], b: tuple[str, str],
        speed: float | None = None) -> None:
    links.append(SimLink(a, b, speed))


def neighbour_free_port(doc: FabricDocument, device: str, port: str) -> str:
    """The free port of the same speed nearest to `port` in the device's port order."""
    ports = list(doc.ports(device))
    speed = doc.port(device, port).speed_gbps
    free = [p for p in doc.free_ports(device) if doc.port(device, p).speed_gbps == speed]
    assert free, f"{device} has no free {speed}G port"
    here = ports.index(port)
    return min(free, key=lambda p: abs(ports.index(p) - here))
