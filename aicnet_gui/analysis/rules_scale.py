"""SCALE-LIMIT: how far a two-tier (leaf-spine) fabric of the chosen switches can grow.

In a non-blocking two-tier Clos, a leaf of k_leaf ports gives half to servers and half to the
spines, and a spine of k_spine ports takes one link from each of up to k_spine leaves:

    leaves <= k_spine        NIC ports <= k_spine * k_leaf / 2

(with several links from a leaf to each spine the spine takes fewer leaves, the product stays
the same).  The ports are the switches' logical fabric ports in their current breakout modes
(a 64-cage SN5600 at 2x400G has 128); the smallest leaf and spine of the fabric set the limit.
The finding states the numbers (a note) and warns when the compute NICs already exceed them
(the fabric cannot be 1:1 in two tiers).  Fabrics with a core tier are not judged.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..model.rounding import half_up
from .findings import INFO, WARNING, Finding, Fix
from .state import Rule, State


def _model_name(state: State, row: int) -> str:
    model = state.store.dev_models[row]
    return model.model if model is not None else state.name(row)


def scale_check(state: State, _key: None) -> Iterable[Finding]:
    store = state.store
    d = store.d
    n = store.n_devices
    switch = d["alive"][:n] & d["switch"][:n]
    tier = d["tier"][:n]
    ports = d["fabric_legs"][:n]
    if (switch & (tier >= 3)).any():
        return
    leaves = np.flatnonzero(switch & (tier == 1) & (ports > 0))
    spines = np.flatnonzero(switch & (tier == 2) & (ports > 0))
    if not len(leaves) or not len(spines):
        return
    servers = d["alive"][:n] & d["server"][:n]
    used = int(d["compute_linked"][:n][servers].sum())
    if not used:
        return
    k_leaf = int(ports[leaves].min())
    k_spine = int(ports[spines].min())
    limit = k_spine * (k_leaf // 2)
    per_server = d["compute"][:n][servers]
    nics = int(np.median(per_server[per_server > 0])) if (per_server > 0).any() else 0
    leaf_name = _model_name(state, int(leaves[np.argmin(ports[leaves])]))
    spine_name = _model_name(state, int(spines[np.argmin(ports[spines])]))
    servers_max = f" = {limit // nics:,} servers of {nics} NICs" if nics else ""
    text = (f"two-tier limit: leaves of {k_leaf} ports ({leaf_name}) give {k_leaf // 2} to servers "
            f"at 1:1, spines of {k_spine} ports ({spine_name}) take {k_spine} leaves: at most "
            f"{k_spine} x {k_leaf // 2} = {limit:,} NIC ports{servers_max}; this design has "
            f"{used:,} compute NIC links ({half_up(100 * used / limit):g}%)")
    if used > limit:
        yield Finding(
            "SCALE-LIMIT", WARNING,
            text + ": more than a non-blocking two-tier fabric of these switches can carry",
            (), Fix("add a core tier (spine-leaf groups joined by core groups) or use switches "
                    "with more ports"))
    else:
        yield Finding(
            "SCALE-LIMIT", INFO, text + "; beyond that the fabric needs a third (core) tier or "
            "larger switches", ())


RULES = [Rule("scale-limit", "fabric", scale_check, None, ("SCALE-LIMIT",))]
