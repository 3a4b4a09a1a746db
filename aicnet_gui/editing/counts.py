"""Fast counts for the status bar and the fabric page, cached per document revision.

`model.summary.summarize` is the reference, but it asks the role of both ends of every link
(about 2.5 s on a 100k-link fabric); here each device's tier is looked up once, so the same
numbers cost a few tens of milliseconds and are recomputed only when the revision moves.
`carry_over(doc, changes)` keeps the numbers across an edit that cannot change them (a device
moved, renamed, given firmware: no link, rack or workload touched, no device's tier or GPUs
changed), so dragging a device in a 100k-cable fabric never recounts the cables.
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass, field

from ..model.catalog_entities import Role
from ..model.document import FabricDocument
from ..model.edits import ChangeSet
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
_DEVICES: weakref.WeakKeyDictionary[FabricDocument, dict[str, tuple[str, int, int]]] = \
    weakref.WeakKeyDictionary()


def _device_key(doc: FabricDocument, device) -> tuple[str, int, int]:  # noqa: ANN001
    return doc.role_of(device).value, doc.tier_of(device), doc.device_model(device).gpus


def carry_over(doc: FabricDocument, changes: ChangeSet) -> bool:
    """After an edit: keep the cached counts if the edit cannot change them; True if kept."""
    hit = _CACHE.get(doc)
    known = _DEVICES.get(doc)
    if hit is None or known is None or changes.links or changes.racks or changes.workloads \
            or changes.reset:
        return False
    for device_id in changes.devices:
        device = doc.devices.get(device_id)
        if device is None or known.get(device_id) != _device_key(doc, device):
            return False
    _CACHE[doc] = (doc.revision, hit[1])
    return True


def counts(doc: FabricDocument) -> Counts:
    """The counts of `doc` (cached until its revision changes)."""
    hit = _CACHE.get(doc)
    if hit is not None and hit[0] == doc.revision:
        return hit[1]
    known: dict[str, tuple[str, int, int]] = {}
    tiers: dict[str, int] = {}
    for device in doc.devices.values():
        key = known[device.id] = _device_key(doc, device)
        tiers[device.id] = key[1]
    pairs: Counter[tuple[int, int]] = Counter()
    for link in doc.links.values():
        a, b = tiers[link.a.device], tiers[link.b.device]
        pairs[(a, b) if a <= b else (b, a)] += 1
    return _store(doc, known, pairs)


def prime_counts(doc: FabricDocument, ids: list[str], roles: list[str], tiers: list[int],
                 gpus: list[int], tier_pairs: dict[tuple[int, int], int]) -> Counts:
    """Cache the counts of `doc` from columns already computed for it (the file loader's scene
    data: each device's role, tier and GPUs; the cables per tier pair, lower tier first)."""
    known = {d: (r, t, g) for d, r, t, g in zip(ids, roles, tiers, gpus, strict=True)}
    return _store(doc, known, Counter(tier_pairs))


def _store(doc: FabricDocument, known: dict[str, tuple[str, int, int]],
           pairs: Counter[tuple[int, int]]) -> Counts:
    roles: Counter[str] = Counter(key[0] for key in known.values())
    by_tier = {f"{TIER_NAMES[a]}-{TIER_NAMES[b]}": n for (a, b), n in sorted(pairs.items())}
    result = Counts(
        devices=len(doc.devices), links=len(doc.links), racks=len(doc.racks),
        workloads=len(doc.workloads), gpus=sum(key[2] for key in known.values()),
        devices_by_role={r.value: roles[r.value] for r in Role if roles[r.value]},
        links_by_tier=by_tier,
    )
    _CACHE[doc] = (doc.revision, result)
    _DEVICES[doc] = known
    return result
