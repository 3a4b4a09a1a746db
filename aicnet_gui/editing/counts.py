"""Fast counts for the status bar and the fabric page, cached per document revision.

The numbers are counted by `model.summary` (the one implementation, shared with `aicnet info`
and the PDF cover); this module only keeps them per document revision, so they are recounted
only when the revision moves, and takes them from the loader's columns when a file is opened.
`carry_over(doc, changes)` keeps the numbers across an edit that cannot change them (a device
moved, renamed, given firmware: no link, rack or workload touched, no device's tier or GPUs
changed), so dragging a device in a 100k-cable fabric never recounts the cables.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..model.document import FabricDocument
from ..model.edits import ChangeSet
from ..model.summary import devices_by_role, link_tier_pairs, links_by_tier


@dataclass(frozen=True)
class Counts:
    """The status bar's part of `model.summary.FabricSummary` (no name or models: the loader's
    columns carry neither), counted by the same functions."""

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
    known = {device.id: _device_key(doc, device) for device in doc.devices.values()}
    tiers = {device_id: key[1] for device_id, key in known.items()}
    return _store(doc, known, link_tier_pairs(doc, tiers))


def prime_counts(doc: FabricDocument, ids: list[str], roles: list[str], tiers: list[int],
                 gpus: list[int], tier_pairs: dict[tuple[int, int], int]) -> Counts:
    """Cache the counts of `doc` from columns already computed for it (the file loader's scene
    data: each device's role, tier and GPUs; the cables per tier pair, lower tier first)."""
    known = {d: (r, t, g) for d, r, t, g in zip(ids, roles, tiers, gpus, strict=True)}
    return _store(doc, known, tier_pairs)


def _store(doc: FabricDocument, known: dict[str, tuple[str, int, int]],
           pairs: Mapping[tuple[int, int], int]) -> Counts:
    result = Counts(
        devices=len(doc.devices), links=len(doc.links), racks=len(doc.racks),
        workloads=len(doc.workloads), gpus=sum(key[2] for key in known.values()),
        devices_by_role=devices_by_role(key[0] for key in known.values()),
        links_by_tier=links_by_tier(pairs),
    )
    _CACHE[doc] = (doc.revision, result)
    _DEVICES[doc] = known
    return result
