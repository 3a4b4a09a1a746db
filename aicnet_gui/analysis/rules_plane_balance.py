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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from ..model import arrays
from ..model.limits import MAX_SPEED_GBPS as MAX_GBPS
from .findings import WARNING, Finding, Fix
from .state import Rule, State

Summary = dict[str, Counter[str]]


def plane_summaries(state: State) -> dict[str, Summary]:
    """Plane name -> {"switches", "speeds", "media"} counters; memoised per topology version,
    device planes and link media (an edit that changes none of them costs three hashes)."""
    store = state.store
    n = store.n_devices
    d, col = store.d, store.l
    plane = d["plane"][:n]
    rows = store.link_rows()
    key = (state.topo.version, store.n_links, hash(plane.tobytes()),
           hash(col["cable"][rows].tobytes()), hash(col["a_opt"][rows].tobytes()),
           hash(col["b_opt"][rows].tobytes()), hash(d["model"][:n].tobytes()))
    memo = state.memo.setdefault("plane-balance", {})
    found = memo.get(key)
    if found is not None:
        return found
    names = store.plane_names
    cindex = state.cindex
    switch = np.flatnonzero(d["alive"][:n] & d["switch"][:n] & (plane > 0))
    # the planes that have switches now (a plane name stays in the store once seen)
    result: dict[str, Summary] = {
        names[p - 1]: {"switches": Counter(), "speeds": Counter(), "media": Counter()}
        for p in sorted(set(plane[switch].tolist()))}
    tiers = 8
    codes, counts = arrays.unique((plane[switch] * len(cindex.models) + d["model"][switch]) * tiers
                                  + np.minimum(d["tier"][switch], tiers - 1), return_counts=True)
    for code, count in zip(codes.tolist(), counts.tolist(), strict=True):
        rest, tier = divmod(code, tiers)
        p, model = divmod(rest, len(cindex.models))
        result[names[p - 1]]["switches"][
            f"{cindex.models[model].model} {state.tier_name(tier)}"] += count
    pa, pb = plane[col["a"][rows]], plane[col["b"][rows]]
    own = np.where(pa > 0, pa, pb)
    present = np.zeros(len(names) + 1, dtype=bool)
    present[np.unique(plane[switch])] = True
    keep = present[own] & (own > 0) & ((pa == 0) | (pb == 0) | (pa == pb))
    own, kept = own[keep], rows[keep]
    codes, counts = arrays.unique(own * (MAX_GBPS + 1) + np.minimum(col["gbps"][kept], MAX_GBPS),
                                  return_counts=True)
    for code, count in zip(codes.tolist(), counts.tolist(), strict=True):
        p, gbps = divmod(code, MAX_GBPS + 1)
        result[names[p - 1]]["speeds"][f"{gbps}G"] += count
    n_cables, n_optics = len(cindex.cables) + 1, len(cindex.optics) + 1  # +1: NONE (-1)
    oa, ob = col["a_opt"][kept] + 1, col["b_opt"][kept] + 1
    code = ((own * n_cables + col["cable"][kept] + 1) * n_optics + np.minimum(oa, ob)) * n_optics \
        + np.maximum(oa, ob)
    codes, counts = arrays.unique(code, return_counts=True)
    for value, count in zip(codes.tolist(), counts.tolist(), strict=True):
        rest, high = divmod(value, n_optics)
        rest, low = divmod(rest, n_optics)
        p, cable = divmod(rest, n_cables)
        ends = [cindex.optics[o - 1].model for o in (low, high) if o]
        media = (cindex.cables[cable - 1].model if cable else "no cable") + \
            (f" ({' / '.join(ends)})" if ends else "")
        result[names[p - 1]]["media"][media] += count
    memo.clear()
    memo[key] = result
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


RULES = [Rule("plane-balance", "fabric", balance_check, None, ("PLANE-UNBALANCED",))]
