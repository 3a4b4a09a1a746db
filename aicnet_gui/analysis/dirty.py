"""Dependency functions: the keys of a scope to check again, given an update's `Delta`.

A rule names one in `Rule(..., dirty=...)`; a rule that names none gets its scope's default
(`SCOPE_DEFAULTS`).  Each is `f(state, delta) -> keys` with keys of the rule's scope (link rows,
device rows, rack ids, firmware lines, assembly ids, workload ids, or None for the fabric); the
engine calls each distinct function once per update and runs every rule that uses it on its keys.

- `changed_links` (link default): the re-read links, their cage-mates (a fix that changes a
  cage's mode moves every link on that cage) and the legs of their assemblies on the same devices
  (a cable fix covers them);
- `changed_devices` (device default): devices re-read, both ends of every re-read link, and
  switches whose oversubscription target moved;
- `switch_peers`: the switches whose ECMP inputs changed (their uppers, or the uppers of a
  switch sharing an upper switch with them);
- `changed_racks`, `changed_models`, `changed_assemblies`: the old and new group of what changed;
- `every_workload`, `the_fabric`: every time (vectorized, ~1-2 ms).

A dependency must return every key whose findings the edit may change: the oracle is
tests/analysis/test_incremental.py (incremental == full on random edits).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .delta import Delta
from .state import Rule, State

Dependency = Callable[[State, Delta], Iterable[Any]]


def changed_links(state: State, delta: Delta) -> list[int]:
    store = state.store
    rerun = {i for i in delta.links if i in store.link_row}
    ends_by_dev: dict[int, set[int]] = {}
    for dev, cage in delta.old_ends:
        ends_by_dev.setdefault(dev, set()).add(cage)
    assemblies = {a for a in delta.old_assembly.values() if a is not None}
    assemblies |= {store.assembly[store.link_row[i]] for i in rerun} - {None}
    ep_cage = state.endpoints.arrays()["cage"]
    for dev, cages in ends_by_dev.items():
        rows = delta.their_rows.get(dev)
        if rows is None:
            continue
        if not len(rows):
            continue
        ends = np.where(store.l["a"][rows] == dev, store.l["a_ep"][rows], store.l["b_ep"][rows])
        mates = np.isin(ep_cage[ends], list(cages))
        if assemblies:
            mates |= np.fromiter((store.assembly[r] in assemblies for r in rows.tolist()),
                                 bool, len(rows))
        rerun.update(store.link_ids[r] for r in rows[mates].tolist())
    return store.rows_of_links(rerun).tolist()


def changed_devices(state: State, delta: Delta) -> list[int]:
    alive = state.store.d["alive"]
    return sorted(r for r in delta.rows_changed() if alive[r])


def switch_peers(state: State, delta: Delta) -> list[int]:
    alive = state.store.d["alive"]
    return sorted(r for r in delta.peers if alive[r])


def changed_racks(state: State, delta: Delta) -> list[str]:
    return sorted(delta.racks)


def changed_models(state: State, delta: Delta) -> list[str]:
    return sorted(delta.models)


def changed_assemblies(state: State, delta: Delta) -> list[str]:
    return sorted(delta.assemblies)


def every_workload(state: State, delta: Delta) -> list[str]:
    return sorted(state.doc.workloads)


def the_fabric(state: State, delta: Delta) -> list[None]:
    return [None]


SCOPE_DEFAULTS: dict[str, Dependency] = {
    "link": changed_links,
    "device": changed_devices,
    "rack": changed_racks,
    "model": changed_models,
    "assembly": changed_assemblies,
    "workload": every_workload,
    "fabric": the_fabric,
}


def dependency_of(rule: Rule) -> Dependency:
    """The rule's own `dirty`, else `switch_peers` for a device rule with `depends="peers"`
    (the older spelling), else its scope's default."""
    if rule.dirty is not None:
        return rule.dirty
    if rule.scope == "device" and rule.depends == "peers":
        return switch_peers
    return SCOPE_DEFAULTS[rule.scope]
