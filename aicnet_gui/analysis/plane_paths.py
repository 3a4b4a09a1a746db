"""Per-plane bisection of a multi-plane fabric: the max-flow between the two halves of a
workload's servers inside one compute plane (its switches, and each server's NIC ports that
land in that plane).  The planes are independent fat trees, so the fabric's bisection is their
sum; a plane with less than its share is the one a failure or a miscabling has hurt.
"""

from __future__ import annotations

import numpy as np

from .fabric_paths import DEFER_LINKS, Island, _fabric_rows, attachments, bisection_order, max_flow
from .state import State


def plane_bisection_gbps(state: State, member_rows: np.ndarray) -> dict[str, float]:
    """Plane name -> max-flow (Gb/s) from the first half of the members to the second, over the
    plane's links only ({} when the design declares no planes)."""
    store = state.store
    if not store.plane_ids:
        return {}
    members = np.asarray(member_rows, dtype=np.int64)
    memo = state.memo.setdefault("plane_paths", {})
    key = (state.topo.version, hash(members.tobytes()), len(store.plane_ids))
    found = memo.get(key)
    if found is not None:
        return found
    last = memo.get(("last", key[1]))
    if last is not None and state.run.get("defer_graph") and store.n_links > DEFER_LINKS:
        state.run["graph_pending"] = True  # as the whole-fabric bisection: the full run does it
        return last
    order = bisection_order(state, members)
    half = len(order) // 2
    first, second = np.array(order[:half], dtype=np.int64), np.array(order[half:], dtype=np.int64)
    n = store.n_devices
    _rows, a, b, gbps = _fabric_rows(state)
    att = attachments(state)
    plane = store.d["plane"][:n]
    result: dict[str, float] = {}
    for index, name in enumerate(store.plane_names, start=1):
        value = 0.0
        if len(first) and len(second):
            keep = (plane[a] == index) | (plane[b] == index)
            on = plane[att.switch] == index
            nic = np.bincount(att.server[on], weights=att.gbps[on], minlength=n).astype(np.int64)
            value = max_flow(n, a[keep], b[keep], gbps[keep], first, nic[first], second,
                             nic[second])
        result[name] = value
    if len(memo) > 64:
        memo.clear()
    memo[key] = result
    memo[("last", key[1])] = result
    return result


def declared_planes(state: State, found: list[Island]) -> bool:
    """Are the islands exactly the fabric's declared compute planes (`Device.plane`): each
    island's switches all in one plane, a different plane per island?"""
    plane = state.store.d["plane"]
    seen: set[int] = set()
    for island in found:
        names = set(plane[list(island.switches)].tolist())
        if len(names) != 1 or 0 in names or names & seen:
            return False
        seen |= names
    return len(seen) >= 2
