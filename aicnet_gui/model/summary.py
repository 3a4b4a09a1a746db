"""Counts that describe a fabric at a glance: devices by role and model, links by tier pair."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .catalog_entities import Role
from .document import FabricDocument

TIER_NAMES = {0: "server", 1: "leaf", 2: "spine", 3: "core"}


def tier_pair(doc: FabricDocument, device_a: str, device_b: str) -> str:
    """`server-leaf`, `leaf-spine`, `spine-core`, or `leaf-leaf` for a peer link."""
    tiers = sorted((doc.tier_of(device_a), doc.tier_of(device_b)))
    return f"{TIER_NAMES[tiers[0]]}-{TIER_NAMES[tiers[1]]}"


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
    roles: Counter[str] = Counter()
    models: Counter[str] = Counter()
    gpus = 0
    for device in doc.devices.values():
        model = doc.device_model(device)
        roles[doc.role_of(device).value] += 1
        models[model.id] += 1
        gpus += model.gpus
    tiers: Counter[str] = Counter(tier_pair(doc, link.a.device, link.b.device) for link in doc.links.values())
    order = [r.value for r in Role]
    return FabricSummary(
        name=doc.metadata.name,
        devices_by_role={r: roles[r] for r in order if roles[r]},
        devices_by_model=dict(sorted(models.items())),
        links_by_tier=dict(sorted(tiers.items())),
        links=len(doc.links),
        racks=len(doc.racks),
        workloads=len(doc.workloads),
        gpus=gpus,
    )
