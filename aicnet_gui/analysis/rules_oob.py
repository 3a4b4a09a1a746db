"""OOB-UNMANAGED: servers whose management ports reach nothing, in a design that has a
management network; OOB-NOT-MGMT: a BMC port linked to something other than a management switch.

Every server's BMC (and in-band management port) must reach a management switch: without it
nobody can power-cycle, re-image or watch the node remotely, and a hung GPU server needs a
person at the rack.  The rule runs when the design has at least one management switch (role
`mgmt`; a design without one has not drawn its out-of-band network yet) and names the servers
none of whose non-fabric ports (the catalog's `fabric: false` cage groups: BMC, in-band, host
NICs) carries a link.  It reads per-device sums only, so it runs after every edit.

OOB-NOT-MGMT is a link rule: a BMC / out-of-band port (a `fabric: false` cage group named
`oob`, the catalogs' 1GbE RJ45 BMC port) whose link lands on a device whose role is not `mgmt`
(a fabric switch, a server) is an error: the BMC network must stay apart from the compute
fabric (a BMC on a fabric leaf is reachable from every tenant and lost when the fabric is).
Other non-fabric groups (in-band management, host, service ports) are not judged: they may go
to an in-band or front-end network that a design draws with leaf switches.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .findings import ERROR, WARNING, Finding, Fix
from .state import Rule, State

#: the cage group name of the catalogs' BMC / out-of-band port
OOB_GROUP = "oob"


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


def _oob_ports(state: State) -> np.ndarray:
    """Per endpoint class: True for a BMC / out-of-band port (memoised per class count)."""
    ports = state.endpoints.ports
    memo = state.memo.get("oob-ports")
    if memo is not None and len(memo) == len(ports):
        return memo  # type: ignore[no-any-return]
    mask = np.fromiter((not p.group.fabric and p.group.name == OOB_GROUP for p in ports),
                       bool, len(ports))
    state.memo["oob-ports"] = mask
    return mask


def landing_check(state: State, row: int) -> Iterable[Finding]:
    store = state.store
    col = store.l
    ports = state.endpoints.ports
    for side, other in (("a", "b"), ("b", "a")):
        port = ports[int(col[side + "_ep"][row])]
        if port.group.fabric or port.group.name != OOB_GROUP:
            continue
        peer = int(col[other][row])
        if store.d["mgmt"][peer]:
            continue
        what = "server" if store.d["server"][peer] else (
            "fabric switch" if store.d["switch"][peer] else "device")
        yield Finding(
            "OOB-NOT-MGMT", ERROR,
            f"{state.end_label(row, side)} is a BMC / out-of-band port but lands on "
            f"{state.end_label(row, other)}, a {what} (role "
            f"{state.tier_name(int(store.d['tier'][peer])) if what != 'device' else 'other'}), "
            "not a management switch", (state.link_id(row), state.dev_id(int(col[side][row])),
                                         state.dev_id(peer)),
            Fix("link the BMC port to a management switch (role mgmt, e.g. an SN2201); keep "
                "the out-of-band network apart from the compute fabric"))


def landing_candidates(state: State) -> Iterable[int]:
    store = state.store
    rows = store.link_rows()
    oob = _oob_ports(state)
    col = store.l
    return rows[oob[col["a_ep"][rows]] | oob[col["b_ep"][rows]]].tolist()


RULES = [Rule("oob", "fabric", oob_check, None, ("OOB-UNMANAGED",)),
         Rule("oob-landing", "link", landing_check, landing_candidates, ("OOB-NOT-MGMT",))]
