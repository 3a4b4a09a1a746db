"""Counts that describe a fabric at a glance: devices by role and model, links by tier pair.

The one implementation of these counts: `summarize` (CLI `info`, the PDF cover) and the
status bar's cached counts (editing/counts.py) both count with `devices_by_role`,
`link_tier_pairs` and `links_by_tier`.  Each device's tier is looked up once, not once per link
end (asking the role of both ends of every link costs ~2.5 s on a 100k-link fabric).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from operator import itemgetter

from .catalog_entities import Role
from .document import FabricDocument

TIER_NAMES = {0: "server", 1: "leaf", 2: "spine", 3: "core"}


def tier_pair(doc: FabricDocument, device_a: str, device_b: str) -> str:
    """`server-leaf`, `leaf-spine`, `spine-core`, or `leaf-leaf` for a peer link."""
    tiers = sorted((doc.tier_of(device_a), doc.tier_of(device_b)))
    return f"{TIER_NAMES[tiers[0]]}-{TIER_NAMES[tiers[1]]}"


def devices_by_role(roles: Iterable[str]) -> dict[str, int]:
    """Role value -> devices, in the order of `Role`, roles without devices left out."""
    counted: Counter[str] = Counter(roles)
    return {r.value: counted[r.value] for r in Role if counted[r.value]}


def link_tier_pairs(doc: FabricDocument, tiers: Mapping[str, int]) -> Counter[tuple[int, int]]:
    """(lower tier, upper tier) -> links, given each device's tier by id (from the link
    columns: no Link object is made)."""
    ends_a, ends_b = doc.links.columns("a", "b")
    tier_a = map(tiers.__getitem__, map(_DEVICE, ends_a))
    tier_b = map(tiers.__getitem__, map(_DEVICE, ends_b))
    return Counter(map(_ordered, tier_a, tier_b))


def _ordered(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


_DEVICE = itemgetter(0)  # a link end is (device, port)


def links_by_tier(pairs: Mapping[tuple[int, int], int]) -> dict[str, int]:
    """`server-leaf` -> links ..., from the server tier up."""
    return {f"{TIER_NAMES[a]}-{TIER_NAMES[b]}": n for (a, b), n in sorted(pairs.items())}


@dataclass
class FabricSummary:
    name: str
    devices_by_role: dict[str, int] = field(default_factory=dict)
    devices_by_model: dict[str, int] = field(default_factory=dict)
    links_by_tier: dict[str, int] = field(default_factory=dict)
    links: int = 0
    racks: int = 0
    workloads: int = 0
    gpus: int = 0

    @property
    def devices(self) -> int:
        return sum(self.devices_by_role.values())


def summarize(doc: FabricDocument) -> FabricSummary:
    roles: list[str] = []
    models: Counter[str] = Counter()
    tiers: dict[str, int] = {}
    gpus = 0
    for device in doc.devices.values():
        model = doc.device_model(device)
        roles.append(doc.role_of(device).value)
        tiers[device.id] = doc.tier_of(device)
        models[model.id] += 1
        gpus += model.gpus
    return FabricSummary(
        name=doc.metadata.name,
        devices_by_role=devices_by_role(roles),
        devices_by_model=dict(sorted(models.items())),
        links_by_tier=links_by_tier(link_tier_pairs(doc, tiers)),
        links=len(doc.links),
        racks=len(doc.racks),
        workloads=len(doc.workloads),
        gpus=gpus,
    )
