"""POWER-FEED: with A/B (2N) power feeds, either feed alone must carry the rack's whole load.

A rack fed from two independent feeds (A and B PDUs on different circuits) shares the load
between them while both are up; when one fails, or is switched off for maintenance, the other
carries everything.  A rack that draws more than one feed can deliver trips the surviving feed's
breaker and goes dark: the redundancy was never there.  The project setting `power_feed_kw` is
the capacity of one feed; the load is the same sum as RACK-POWER's (device maximum power, else
typical, plus optics).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .findings import ERROR, Finding, Fix
from .rules_groups import rack_load
from .state import Rule, State


def feed_check(state: State, rack_id: str) -> Iterable[Finding]:
    feed_kw = state.settings.power_feed_kw
    rack = state.doc.racks.get(rack_id)
    if feed_kw is None or rack is None:
        return
    total, unknown = rack_load(state, rack_id)
    if total <= feed_kw * 1000 + 1e-6:
        return
    note = f" ({len(unknown)} device(s) without a power figure not counted)" if unknown else ""
    yield Finding(
        "POWER-FEED", ERROR,
        f"rack {rack.name}: draws up to {total / 1000:.1f} kW but one feed delivers {feed_kw:g} kW: "
        f"when feed A or B fails the other trips and the rack goes dark{note}",
        (rack_id,),
        Fix(f"move about {(total / 1000 - feed_kw):.1f} kW of devices to another rack, or use "
            "feeds that each carry the whole rack"))


def feed_candidates(state: State) -> Iterable[str]:
    feed_kw = state.settings.power_feed_kw
    if feed_kw is None:
        return []
    store = state.store
    rows = store.device_rows()
    d = store.d
    rack = d["rack_any"][rows]
    inrack = rack >= 0
    power = np.nan_to_num(d["power"][rows][inrack]) + d["optic_w"][rows][inrack]
    watts = np.bincount(rack[inrack], weights=power, minlength=len(store.rack_ids))
    return sorted(store.rack_ids[r] for r in np.flatnonzero(watts > feed_kw * 1000 + 1e-6).tolist())


RULES = [Rule("power-feeds", "rack", feed_check, feed_candidates, ("POWER-FEED",))]
