"""PLANE-CROSSED: a cable or a switch that joins two compute planes of a multi-plane fabric.

In NVIDIA's multi-plane designs (DGX SuperPOD B300, Spectrum-X: "twin-planar design ... Each GPU
has 2x 400GbE connectivity through two different planes") every plane is its own fat tree, so
that a switch, optic or cable failure costs one plane's bandwidth instead of the job.  Each
switch carries its plane (`Device.plane`); a link between switches of two planes (a cable, or a
switch wired into another plane's tree) breaks that isolation: an error.  Servers belong to
every plane and are never flagged.  Runs only on designs that declare planes.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .findings import ERROR, Finding, Fix
from .state import Rule, State

MAX_FINDINGS = 50


def plane_check(state: State, _key: None) -> Iterable[Finding]:
    store = state.store
    if not store.plane_ids:
        return
    col = store.l
    plane = store.d["plane"]
    crossed = _crossed(state)
    names = store.plane_names
    for row in crossed[:MAX_FINDINGS].tolist():
        a, b = int(col["a"][row]), int(col["b"][row])
        link_id = state.link_id(row)
        yield Finding(
            "PLANE-CROSSED", ERROR,
            f"{link_id} joins {state.name(a)} (plane {names[plane[a] - 1]}) and {state.name(b)} "
            f"(plane {names[plane[b] - 1]}): the planes of a multi-plane fabric must stay "
            "independent fat trees",
            (link_id, state.dev_id(a), state.dev_id(b)),
            Fix("move the cable to a switch of the same plane, or correct the switch's plane"))
    if len(crossed) > MAX_FINDINGS:
        yield Finding(
            "PLANE-CROSSED", ERROR,
            f"{len(crossed) - MAX_FINDINGS} more links join two compute planes",
            (), Fix("check the plane of every switch"))


def _crossed(state: State) -> np.ndarray:
    """Rows of the links between switches of two planes; memoised per topology version and
    device planes (an edit that moves no cable and no plane costs a hash, not a scan)."""
    store = state.store
    plane = store.d["plane"][: store.n_devices]
    key = (state.topo.version, store.n_links, hash(plane.tobytes()))
    memo = state.memo.setdefault("planes", {})
    found = memo.get(key)
    if found is None:
        rows = store.link_rows()
        col = store.l
        pa, pb = plane[col["a"][rows]], plane[col["b"][rows]]
        found = rows[(pa > 0) & (pb > 0) & (pa != pb)]
        memo.clear()
        memo[key] = found
    return found


RULES = [
    Rule("planes", "fabric", plane_check, None, ("PLANE-CROSSED",)),
]
