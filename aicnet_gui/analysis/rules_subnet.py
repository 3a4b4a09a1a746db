"""IB-SUBNET-MANAGER: an InfiniBand fabric needs a subnet manager, a master and a standby.

An InfiniBand subnet does not come up until a subnet manager (SM) has swept it and assigned LIDs
and routes.  The SM runs on an internally managed switch (embedded SM, e.g. QM9700) or on a host
with a port on the fabric (UFM appliance, OpenSM on a server); externally managed switches
(QM9790) cannot run it.  The project settings name the devices that run it (`subnet_managers`,
master first); the catalog says which switch models can (`subnet_manager`).

The rule is fabric-wide and reads only the settings, the named devices and, when none is named,
one numpy pass over the device rows, so it is cheap enough to run after every edit.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

import numpy as np

from ..model.edits import UpdateSettings
from ..model.fabric import FabricTechnology
from .findings import ERROR, WARNING, Finding, Fix
from .state import Rule, State

CODE = "IB-SUBNET-MANAGER"


def _capability(state: State) -> np.ndarray:
    """Per catalog model index: 1 can run an SM, 0 cannot, -1 unknown (kept in the memo: the
    catalog only changes with a full run)."""
    capable = state.memo.get("sm-capable")
    if capable is None:
        capable = np.array([{True: 1, False: 0}.get(m.subnet_manager, -1)
                            for m in state.cindex.models] or [-1], dtype=np.int64)
        state.memo["sm-capable"] = capable
    return capable


def _candidates(state: State, capable: np.ndarray) -> list[int]:
    """Up to two switch rows that can run an embedded SM: the highest tier's first, by device
    id (stable under renames), then the next tier's when that tier has fewer than two.
    Memoised on the candidate rows and their tiers (a row keeps its device id until the next
    full run)."""
    store = state.store
    rows = store.device_rows()
    rows = rows[store.d["switch"][rows] & (capable[store.d["model"][rows]] == 1)]
    if not len(rows):
        return []
    tier = store.d["tier"][rows]
    key = rows.tobytes() + tier.tobytes()
    memo = state.memo.get("sm-candidates")
    if memo is not None and memo[0] == key:
        return memo[1]
    ranked: list[int] = []
    for level in sorted(set(tier.tolist()), reverse=True):
        level_rows = rows[tier == level].tolist()
        ranked += heapq.nsmallest(2 - len(ranked), level_rows, key=state.dev_id)
        if len(ranked) >= 2:
            break
    state.memo["sm-candidates"] = (key, ranked)
    return ranked


def _fix(state: State, capable: np.ndarray, why: str) -> Fix:
    picks = _candidates(state, capable)[:2]
    if not picks:
        return Fix(f"{why}: add a UFM / OpenSM host with a port on the fabric (or an internally "
                   "managed switch) and name it, with a standby, in the project settings")
    names = " (master) and ".join(state.name(r) for r in picks)
    return Fix(f"run the subnet manager on {names}{' (standby)' if len(picks) > 1 else ''}",
               (UpdateSettings({"subnet_managers": [state.dev_id(r) for r in picks]}),))


def subnet_manager_check(state: State, _key: None) -> Iterable[Finding]:
    if state.settings.technology != FabricTechnology.INFINIBAND:
        return
    store = state.store
    rows = store.device_rows()
    switches = rows[store.d["switch"][rows]]
    if not len(switches):
        return
    capable = _capability(state)
    named = list(dict.fromkeys(state.settings.subnet_managers))
    if not named:
        kinds = capable[store.d["model"][switches]]
        if (kinds == 0).all():
            yield Finding(
                CODE, ERROR,
                "no subnet manager: every InfiniBand switch is externally managed (e.g. QM9790) "
                "and no UFM / OpenSM host is named, so the subnet never comes up (no LIDs, no "
                "routes)", (), _fix(state, capable, "no switch can run it"))
        else:
            yield Finding(
                CODE, WARNING,
                "no subnet manager is named: an InfiniBand subnet comes up only when an SM (and a "
                "standby for failover) runs on an internally managed switch or a UFM / OpenSM host",
                (), _fix(state, capable, "no switch is known to run it"))
        return
    good: list[str] = []
    for device_id in named:
        row = store.dev_row.get(device_id)
        if row is None or not store.d["alive"][row]:
            yield Finding(
                CODE, ERROR, f"the subnet manager {device_id!r} named in the project settings is "
                "not in the fabric", (),
                Fix("name an existing device", (UpdateSettings(
                    {"subnet_managers": [d for d in named if d != device_id]}),)))
            continue
        name = state.name(row)
        model = store.dev_models[row]
        if store.d["switch"][row]:
            if model is not None and model.subnet_manager is False:
                yield Finding(
                    CODE, ERROR,
                    f"{name} ({model.model}) is externally managed and cannot run the subnet "
                    "manager named on it", (device_id,),
                    Fix(f"take {name} off the subnet managers and name an internally managed "
                        "switch or a UFM host instead", (UpdateSettings(
                            {"subnet_managers": [d for d in named if d != device_id]}),)))
                continue
        elif not any(store.d["switch"][p[0]] for p in state.topo.up(row)):
            yield Finding(
                CODE, ERROR,
                f"{name} is named as a subnet manager host but has no fabric link to a switch: "
                "the SM (UFM's own HCA port) must sit on the InfiniBand fabric it manages",
                (device_id,), Fix(f"connect one of {name}'s InfiniBand ports to a leaf"))
            continue
        good.append(device_id)
    if len(good) == 1:
        master = state.name(store.dev_row[good[0]])
        spare = [r for r in _candidates(state, capable) if state.dev_id(r) != good[0]]
        fix = (Fix(f"run a standby subnet manager on {state.name(spare[0])}",
                   (UpdateSettings({"subnet_managers": [*named, state.dev_id(spare[0])]}),))
               if spare else Fix("name a second switch or UFM host as the standby subnet manager"))
        yield Finding(
            CODE, WARNING,
            f"{master} is the only subnet manager: when it fails, nothing re-sweeps the fabric "
            "(new links, failed links, re-routing) until it is back; run a standby SM on a "
            "second switch or host", (good[0],), fix)


RULES = [Rule("subnet-manager", "fabric", subnet_manager_check, None, (CODE,))]
