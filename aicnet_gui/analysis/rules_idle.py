"""PORTS-IDLE: switches that leave a large share of their fabric ports unused.

Every idle port is a switch port paid for and powered (and, once cabled, an optic).  A design
whose leaves use half their ports (a DGX H100 SuperPOD on SN5600 leaves at 2 x 400G: 32 servers
down and 32 spines up of 128 ports) needs twice the leaves a design that fills them does.  NVIDIA's
reference designs fill their switches: 64 + 64 of an SN5610's 128 x 400G ports per B300 leaf,
72 + 72 of a Q3400-RA's 144 ports (docs/sources-2026.md §1.1).

Switches are judged in groups of one model, tier and compute plane (switches of different
planes cannot share links; in a rail-only fabric, nor can switches of different rails).  A
group is reported when more than the project's
`idle_ports_percent` of its fabric ports (logical ports in their current breakout modes, fabric
cages only) carry no link and fewer switches of the model would carry its links:
`ceil(links / ports per switch)` switches (at least two, for redundancy), the group's count
minus that is the saving.  That is
a bound, not a design: rail-optimized leaves then carry more servers per rail (a larger SU),
and free ports kept on purpose as growth room are a reason to keep them (set
`idle_ports_percent` to None, or higher, to say so).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from ..model import arrays
from ..model.wording import counted
from .delta import Delta
from .fabric_paths import attachments
from .findings import WARNING, Finding, Fix
from .state import Rule, State

MAX_NAMED = 4
REDUNDANT = 2  # switches a tier keeps however few links it carries


def idle_groups(state: State) -> list[tuple[int, int, int, np.ndarray, int, int]]:
    """(tier, model index, plane, switch rows, fabric ports, used ports) per group of
    switches of one tier, model and plane, and in a rail-only fabric (settings.rail_planes) of
    one switch island (a rail's network; management switches left out)."""
    store = state.store
    d = store.d
    n = store.n_devices
    rows = np.flatnonzero(d["alive"][:n] & d["switch"][:n] & ~d["mgmt"][:n]
                          & (d["fabric_legs"][:n] > 0))
    if not len(rows):
        return []
    models, planes = len(state.cindex.models), len(store.plane_names) + 1
    keys = (d["tier"][rows] * models + d["model"][rows]) * planes + d["plane"][rows]
    if state.settings.rail_planes:  # rail-only: each rail its own network, never merged
        islands = attachments(state).labels[rows].astype(np.int64)
        keys = keys * (int(islands.max()) + 1) + islands
    groups, inverse = arrays.unique(keys, return_inverse=True)
    ports = np.bincount(inverse, weights=d["fabric_legs"][rows], minlength=len(groups))
    used = np.bincount(inverse, weights=d["fabric_used"][rows], minlength=len(groups))
    found = []
    for g in range(len(groups)):
        first = rows[inverse == g]
        row = int(first[0])
        found.append((int(d["tier"][row]), int(d["model"][row]), int(d["plane"][row]), first,
                      int(ports[g]), int(used[g])))
    return found


def idle_check(state: State, _key: None) -> Iterable[Finding]:
    threshold = state.settings.idle_ports_percent
    if threshold is None:
        return
    store = state.store
    for tier, model_i, plane, rows, ports, used in idle_groups(state):
        idle = ports - used
        if not used or 100 * idle <= threshold * ports:
            continue
        per_switch = ports / len(rows)
        # two switches of a tier stay, for redundancy (one leaf or spine is a single point of
        # failure), however few links they carry
        needed = max(math.ceil(used / per_switch - 1e-9), min(len(rows), REDUNDANT))
        saving = len(rows) - needed
        if saving < 1:
            continue
        model = state.cindex.models[model_i]
        where = f" of plane {store.plane_names[plane - 1]}" if plane else ""
        kind = state.tier_name(tier)
        names = ", ".join(state.name(int(r)) for r in rows[:MAX_NAMED]) + \
            (" ..." if len(rows) > MAX_NAMED else "")
        yield Finding(
            "PORTS-IDLE", WARNING,
            f"{counted(len(rows), f'{model.model} {kind}')}{where} ({names}) use {used:,} of "
            f"their {ports:,} fabric ports ({100 * idle / ports:.0f}% idle, more than the "
            f"{threshold:g}% the project allows): {counted(needed, 'switch', 'switches')} of "
            f"{per_switch:g} ports would carry these links, {counted(saving, 'switch', 'switches')} "
            "(and their optics) fewer",
            tuple(state.dev_id(int(r)) for r in rows[:MAX_NAMED]),
            Fix("size the scalable unit or the switch to the ports (more servers per leaf, a "
                "switch of fewer ports, or a breakout that uses them), or keep the free ports as "
                "growth room: raise the project's idle-port threshold (settings.idle_ports_percent), "
                "or clear it to stop this check"))


def idle_dirty(state: State, delta: Delta) -> list[None]:
    """Check again after an edit of devices or of links other than their lengths (the ports
    used and offered change only then; settings edits run the analysis in full)."""
    return [None] if delta.devices or (delta.links - delta.lengths_only) else []


RULES = [Rule("ports-idle", "fabric", idle_check, None, ("PORTS-IDLE",), dirty=idle_dirty)]
