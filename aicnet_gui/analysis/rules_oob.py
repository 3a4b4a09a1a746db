"""OOB-UNMANAGED: servers whose management ports reach nothing, in a design that has a
management network.

Every server's BMC (and in-band management port) must reach a management switch: without it
nobody can power-cycle, re-image or watch the node remotely, and a hung GPU server needs a
person at the rack.  The rule runs when the design has at least one management switch (role
`mgmt`; a design without one has not drawn its out-of-band network yet) and names the servers
none of whose non-fabric ports (the catalog's `fabric: false` cage groups: BMC, in-band, host
NICs) carries a link.  It reads per-device sums only, so it runs after every edit.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .findings import WARNING, Finding, Fix
from .state import Rule, State


def oob_check(state: State, _key: None) -> Iterable[Finding]:
    store = state.store
    d = store.d
    n = store.n_devices
    alive = d["alive"][:n]
    if not (alive & d["mgmt"][:n]).any():
        return
    managed_ports = d["ports"][:n] > d["fabric_legs"][:n]
    bare = alive & d["server"][:n] & managed_ports & (d["links"][:n] - d["fabric_used"][:n] == 0)
    rows = np.flatnonzero(bare)
    if not len(rows):
        return
    key = rows.tobytes()
    memo = state.memo.get("oob")
    if memo is not None and memo[0] == key:
        ids = memo[1]
    else:
        ids = tuple(sorted(state.dev_id(r) for r in rows.tolist()))
        state.memo["oob"] = (key, ids)
    names = ", ".join(state.doc.devices[i].name for i in ids[:5]) + (" ..." if len(ids) > 5 else "")
    yield Finding(
        "OOB-UNMANAGED", WARNING,
        f"{len(ids)} server(s) have management ports (BMC, in-band) but none is linked to the "
        f"management network ({names}): they cannot be power-cycled, re-imaged or monitored "
        "remotely", ids,
        Fix("link each server's BMC port (and in-band management port) to a management switch"))


RULES = [Rule("oob", "fabric", oob_check, None, ("OOB-UNMANAGED",))]
