"""PLANE-UNBALANCED: compute planes of a multi-plane fabric that are not built alike.

In NVIDIA's multi-plane designs each GPU's NIC splits into one port per plane and "the
resiliency and the load balancing between the two planes is handled by the NCCL on the host"
(NVL72 AI Factory RA, Networking Physical Topologies): traffic is spread evenly over the planes,
so the weakest plane sets the pace of all of them, and a plane with fewer spines, slower links
or other cabling leaves the others' extra capacity unused.  The B300 SuperPOD count table
builds every plane the same (8 leaves and 4 spines per plane per SU; docs/sources-2026.md §1.1).

Each plane is summarised by its switches per tier and model, its links per speed (server-leaf
and switch-switch links of the plane; a link between planes is PLANE-CROSSED's) and its links
per cable part and pair of optics; planes whose summaries differ are named with the difference.
Runs only on designs that declare planes (`Device.plane`).

Speed: a code per link row (plane x speed, plane x cable x optics; -1 when the row counts in
no plane) and the counts of the codes are kept between updates (`PlaneCounts`): an update
recomputes the codes in numpy and adjusts the counts by the rows whose code changed, and the
rule re-runs only after edits that can change them (links other than their lengths, devices).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..model import arrays
from ..model.limits import MAX_SPEED_GBPS as MAX_GBPS
from .delta import Delta
from .findings import WARNING, Finding, Fix
from .state import Rule, State

Summary = dict[str, Counter[str]]
TIERS = 8


@dataclass
class PlaneCounts:
    """The per-row codes of the last run and the counts of each code."""

    speed: np.ndarray
    media: np.ndarray
    present: np.ndarray  # the planes with switches when the codes were made
    speed_counts: Counter[int] = field(default_factory=Counter)
    media_counts: Counter[int] = field(default_factory=Counter)


def _present(state: State) -> tuple[np.ndarray, np.ndarray]:
    """(switch rows in a plane, plane numbers that have switches as a mask over 0..planes)."""
    store = state.store
    n = store.n_devices
    d = store.d
    plane = d["plane"][:n]
    switch = np.flatnonzero(d["alive"][:n] & d["switch"][:n] & (plane > 0))
    present = np.zeros(len(store.plane_names) + 1, dtype=bool)
    present[np.unique(plane[switch])] = True
    present[0] = False
    return switch, present


def _codes(state: State, present: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(speed code, media code) of the link `rows`; -1 for a row that counts in no plane."""
    store = state.store
    col = store.l
    plane = store.d["plane"]
    pa, pb = plane[col["a"][rows]], plane[col["b"][rows]]
    own = np.where(pa > 0, pa, pb)
    keep = col["alive"][rows] & present[own] & ((pa == 0) | (pb == 0) | (pa == pb))
    cindex = state.cindex
    n_cables, n_optics = len(cindex.cables) + 1, len(cindex.optics) + 1  # +1: NONE (-1)
    speed = own * (MAX_GBPS + 1) + np.minimum(col["gbps"][rows], MAX_GBPS)
    oa, ob = col["a_opt"][rows] + 1, col["b_opt"][rows] + 1
    media = ((own * n_cables + col["cable"][rows] + 1) * n_optics + np.minimum(oa, ob)) \
        * n_optics + np.maximum(oa, ob)
    return np.where(keep, speed, -1), np.where(keep, media, -1)


def _count(codes: np.ndarray) -> Counter[int]:
    values, counts = arrays.unique(codes[codes >= 0], return_counts=True)
    return Counter(dict(zip(values.tolist(), counts.tolist(), strict=True)))


def _adjust(counts: Counter[int], old: np.ndarray, new: np.ndarray) -> None:
    for code in old[old >= 0].tolist():
        counts[code] -= 1
    for code in new[new >= 0].tolist():
        counts[code] += 1


def plane_counts(state: State, present: np.ndarray) -> PlaneCounts:
    """The code counts, kept in the state and brought up to date: the rows `balance_dirty`
    named (the links an edit re-read), or every row after an edit of a switch or of planes."""
    kept: PlaneCounts | None = state.memo.get("plane-balance")
    rows = state.memo.pop("plane-balance-rows", None)
    m = state.store.n_links
    if kept is not None and rows is not None and np.array_equal(kept.present, present):
        grow = m - len(kept.speed)
        if grow > 0:
            kept.speed = np.concatenate([kept.speed, np.full(grow, -1, dtype=np.int64)])
            kept.media = np.concatenate([kept.media, np.full(grow, -1, dtype=np.int64)])
        speed, media = _codes(state, present, rows)
        _adjust(kept.speed_counts, kept.speed[rows], speed)
        _adjust(kept.media_counts, kept.media[rows], media)
        kept.speed[rows], kept.media[rows] = speed, media
        return kept
    speed, media = _codes(state, present, np.arange(m))
    kept = PlaneCounts(speed, media, present, _count(speed), _count(media))
    state.memo["plane-balance"] = kept
    return kept


def plane_summaries(state: State) -> dict[str, Summary]:
    """Plane name -> {"switches", "speeds", "media"} counters, for the planes with switches."""
    store = state.store
    d = store.d
    names = store.plane_names
    cindex = state.cindex
    switch, present = _present(state)
    result: dict[str, Summary] = {
        names[p - 1]: {"switches": Counter(), "speeds": Counter(), "media": Counter()}
        for p in np.flatnonzero(present).tolist()}
    plane = d["plane"]
    codes, counts = arrays.unique(
        (plane[switch] * len(cindex.models) + d["model"][switch]) * TIERS
        + np.minimum(d["tier"][switch], TIERS - 1), return_counts=True)
    for code, count in zip(codes.tolist(), counts.tolist(), strict=True):
        rest, tier = divmod(code, TIERS)
        p, model = divmod(rest, len(cindex.models))
        result[names[p - 1]]["switches"][
            f"{cindex.models[model].model} {state.tier_name(tier)}"] += count
    kept = plane_counts(state, present)
    for code, count in kept.speed_counts.items():
        if count:
            p, gbps = divmod(code, MAX_GBPS + 1)
            result[names[p - 1]]["speeds"][f"{gbps}G"] += count
    n_cables, n_optics = len(cindex.cables) + 1, len(cindex.optics) + 1
    for value, count in kept.media_counts.items():
        if not count:
            continue
        rest, high = divmod(value, n_optics)
        rest, low = divmod(rest, n_optics)
        p, cable = divmod(rest, n_cables)
        ends = [cindex.optics[o - 1].model for o in (low, high) if o]
        media = (cindex.cables[cable - 1].model if cable else "no cable") + \
            (f" ({' / '.join(ends)})" if ends else "")
        result[names[p - 1]]["media"][media] += count
    return result


def _difference(name: str, a: Counter[str], b: Counter[str]) -> str:
    parts = [f"{k}: {a.get(k, 0)} vs {b.get(k, 0)}" for k in sorted(set(a) | set(b))
             if a.get(k, 0) != b.get(k, 0)]
    return f"{name} " + "; ".join(parts[:4]) + (" ..." if len(parts) > 4 else "")


def balance_check(state: State, _key: None) -> Iterable[Finding]:
    store = state.store
    if len(store.plane_names) < 2:
        return
    summaries = plane_summaries(state)
    if len(summaries) < 2:
        return
    names = sorted(summaries)
    first = names[0]
    base = summaries[first]
    for other in names[1:]:
        this = summaries[other]
        differs = [_difference(part, base[part], this[part])
                   for part in ("switches", "speeds", "media") if base[part] != this[part]]
        if not differs:
            continue
        yield Finding(
            "PLANE-UNBALANCED", WARNING,
            f"planes {first} and {other} are not built alike ({'; '.join(differs)}): NCCL "
            "spreads traffic evenly over the planes, so the weaker plane sets the pace and the "
            "other's extra capacity stays unused",
            _members(state, other),
            Fix(f"give plane {other} the switches, link speeds and cabling of plane {first} (or "
                "the other way round)"))


def _members(state: State, plane: str) -> tuple[str, ...]:
    """The first four switches of `plane` by name (the objects of its finding)."""
    store = state.store
    d = store.d
    n = store.n_devices
    rows = np.flatnonzero(d["alive"][:n] & d["switch"][:n] & (d["plane"][:n] == store.plane_ids[plane]))
    named = sorted((state.name(int(r)), state.dev_id(int(r))) for r in rows)
    return tuple(dev_id for _name, dev_id in named[:4])


def balance_dirty(state: State, delta: Delta) -> list[None]:
    """Check again after an edit of devices or of links other than their lengths (a design
    without planes: never), and say which link rows to re-code: the links the edit re-read, or
    all of them (no entry) when a switch was re-read (its plane or model may have changed)."""
    store = state.store
    if not store.plane_names:
        return []
    links = delta.links - delta.lengths_only
    switches = any(store.d["switch"][r] or store.d["plane"][r] for r in delta.changed_rows) \
        or delta.typed_rows
    if not links and not delta.devices:
        return []
    if not switches:
        known = store.link_row
        rows = np.array(sorted(known[i] for i in links if i in known), dtype=np.int64)
        kept: PlaneCounts | None = state.memo.get("plane-balance")
        if kept is not None and any(i not in known for i in links):  # removed: rows now dead
            m = min(len(kept.speed), store.n_links)
            dead = np.flatnonzero((kept.speed[:m] >= 0) & ~store.l["alive"][:m])
            rows = np.union1d(rows, dead)
        state.memo["plane-balance-rows"] = rows
    return [None]


RULES = [Rule("plane-balance", "fabric", balance_check, None, ("PLANE-UNBALANCED",),
              dirty=balance_dirty)]
