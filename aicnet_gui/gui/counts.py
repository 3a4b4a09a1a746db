"""Fast counts for the status bar and the fabric page, cached per document revision.

`model.summary.summarize` is the reference, but it asks the role of both ends of every link
(about 2.5 s on a 100k-link fabric); here each device's tier is looked up once, so the same
numbers cost a few tens of milliseconds and are recomputed only when the revision moves.
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass, field

from ..model.catalog_entities import Role
from ..model.document import FabricDocument
from ..model.summary import TIER_NAMES


@dataclass(frozen=True)
class Counts:
    devices: int
    links: int
    racks: int
    workloads: int
    gpus: int
    devices_by_role: dict[str, int] = field(default_factory=dict)
    links_by_tier: dict[str, int] = field(default_factory=dict)


_CACHE: weakref.WeakKeyDictionary[FabricDocument, tuple[int, Counts]] = weakref.WeakKeyDictionary()


def counts(doc: FabricDocument) -> Counts:
    """The counts of `doc` (cached until its revision changes)."""
    hit = _CACHE.get(doc)
    if hit is not None and hit[0] == doc.revision:
        return hit[1]
    roles: Counter[str] = Counter()
    tiers: dict[str, int] = {}
    gpus = 0
    for device in doc.devices.values():
        role = doc.role_of(device)
        roles[role.value] += 1
        tiers[device.id] = doc.tier_of(device)
        gpus += doc.device_model(device).gpus
    pairs: Counter[tuple[int, int]] = Counter()
    for link in doc.links.values():
        a, b = tiers[link.a.device], tiers[link.b.device]
        pairs[(a, b) if a <= b else (b, a)] += 1
    by_tier = {f"{TIER_NAMES[a]}-{TIER_NAMES[b]}": n for (a, b), n in sorted(pairs.items())}
    result = Counts(
        devices=len(doc.devices), links=len(doc.links), racks=len(doc.racks),
        workloads=len(doc.workloads), gpus=gpus,
        devices_by_role={r.value: roles[r.value] for r in Role if roles[r.value]},
        links_by_tier=by_tier,
    )
    _CACHE[doc] = (doc.revision, result)
    return result
