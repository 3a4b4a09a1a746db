"""NIC-PLANE-MIXED: a leaf that carries both GPU compute NICs and storage / front-end NICs.

AI clusters keep the compute (east-west, GPU-to-GPU) fabric apart from the storage and
front-end (north-south) networks: a checkpoint write or a dataset read must not queue behind a
collective, and the compute fabric's leaves are sized 1:1 for the GPUs alone (a DGX H100 has
separate compute ports, storage / in-band ports and a BMC port, hardware.md §2 R1/R9).  A server's
compute ports are its `compute` cage group (the rails); every other fabric port (storage,
front-end, north-south) is a storage / front-end port.  A leaf with both is named with the
counts: a few of one kind among many of the other is a miswired cable, an even mix a converged
design that shares the leaf on purpose (then the warning says what it costs).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .findings import WARNING, Finding, Fix
from .state import Rule, State


def _split(state: State, row: int) -> tuple[list[int], list[int]]:
    """The leaf's server NIC links: (compute link rows, storage / front-end link rows)."""
    store = state.store
    col = store.l
    endpoints = state.endpoints
    compute: list[int] = []
    other: list[int] = []
    for server, _rail, _g, link in state.topo.nics(row):
        ep = int(col["a_ep"][link]) if int(col["a"][link]) == server else int(col["b_ep"][link])
        (compute if endpoints.rail_of(ep) > 0 else other).append(link)
    return compute, other


def plane_check(state: State, row: int) -> Iterable[Finding]:
    store = state.store
    if not store.d["switch"][row]:
        return
    compute, other = _split(state, row)
    if not compute or not other:
        return
    name = state.name(row)
    few, many = (compute, other) if len(compute) < len(other) else (other, compute)
    few_kind = "GPU compute" if few is compute else "storage / front-end"
    shown = ", ".join(state.end_label(r, "a") if store.l["a"][r] != row else state.end_label(r, "b")
                      for r in sorted(few, key=state.link_id)[:4]) + (" ..." if len(few) > 4 else "")
    yield Finding(
        "NIC-PLANE-MIXED", WARNING,
        f"{name} carries {len(compute)} GPU compute NIC(s) and {len(other)} storage / front-end "
        f"NIC(s) ({few_kind}: {shown}): storage and front-end traffic then queue with the "
        "collectives on a leaf sized for the GPUs alone",
        (state.dev_id(row), *sorted(state.link_id(r) for r in few)),
        Fix(f"move the {few_kind} link(s) to a leaf of their own network, or keep the mix on "
            "purpose and size the leaf's uplinks for both"))


def plane_candidates(state: State) -> Iterable[int]:
    store = state.store
    nics = store.nic_links()
    if not len(nics.rows):
        return []
    switch = nics.switch
    compute = state.endpoints.arrays()["rail"][nics.server_ep] > 0
    n = store.n_devices
    both = (np.bincount(switch[compute], minlength=n) > 0) & (np.bincount(switch[~compute], minlength=n) > 0)
    return np.flatnonzero(both & store.d["switch"][:n]).tolist()


RULES = [Rule("nic-planes", "device", plane_check, plane_candidates, ("NIC-PLANE-MIXED",))]
