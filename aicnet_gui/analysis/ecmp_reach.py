"""ECMP reach after a rewiring edit: what the switches under one upper switch reach.

The ECMP rule (rules_device.expected_uppers) compares a switch's upper neighbours with the
*reach* of each of its upper switches: the union of the uppers of every switch of its tier
below that upper switch (`Topology.tier_reach`, memoized per (upper, tier) in
`state.memo["ecmp"]`).  At 12,800 servers a leaf has 72 spines with 72 leaves under each, so
one union costs ~0.1 ms and recomputing the 72 unions around one rewired cable ~7 ms.

An edit changes the uppers of the few switches at the ends of its links only (`Rewired`), so
whether a union changed follows from those switches alone, exactly:

- an upper switch a rewired peer gained (or that a peer arriving under `upper` brings) is new
  unless a peer already had it before the edit;
- one a rewired peer lost (or that a peer leaving `upper` took away) is gone unless a peer
  still has it after the edit.

Each question scans the peers (before or after the edit) until one answers, usually the first:
a fat tree that loses one cable loses no path.  `reach_changed` answers; refresh.ecmp_peers
asks it for every upper switch around the edit.  `reach_union` is the union of several upper
switches' reach in one pass over their peers, for a check that finds its reach not memoized.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from ..model import arrays
from .topology import Pair, Topology

# (switch row, rows of its upper neighbours before the edit, ... after it)
Rewired = tuple[int, frozenset[int], frozenset[int]]


def _lows(topo: Topology, upper: int, pairs: Sequence[Pair] | None, tier: int,
          switch: np.ndarray, tier_of: np.ndarray) -> Iterator[int]:
    """The switches of `tier` below `upper`, one at a time (a scan usually stops at the first):
    now (`pairs` None) or among `pairs` (a Topology.down list from before the edit)."""
    rows = topo.down_array(upper)[:, 0].tolist() if pairs is None else [p[0] for p in pairs]
    return (low for low in rows if switch[low] and tier_of[low] == tier)


def reach_changed(topo: Topology, upper: int, tier: int, rewired: Iterable[Rewired],
                  old_down: Sequence[Pair] | None, switch: np.ndarray, tier_of: np.ndarray,
                  old_reach: frozenset[int] | None = None) -> bool:
    """Did `topo.tier_reach(upper, tier, ...)` change with the edit?

    `rewired` lists every switch whose upper neighbours changed (before and after); no other
    switch's did.  `old_down` is `topo.down(upper)` before the edit (None: the same as now),
    `old_reach` the reach before when it is known (it answers "had a peer it before" at once).
    """
    gained: set[int] = set()
    lost: set[int] = set()
    before: dict[int, frozenset[int]] = {}
    for row, was, now in rewired:
        if not switch[row] or tier_of[row] != tier:
            continue
        under_before, under_now = upper in was, upper in now
        if under_before:
            before[row] = was
        if under_before and under_now:
            gained |= now - was
            lost |= was - now
        elif under_before:
            lost |= was  # the peer left `upper`: all it reached may go
        elif under_now:
            gained |= now  # the peer arrived under `upper`: all it reaches may be new
    # an upper switch one peer gained and another lost was reached before and still is
    new, gone = gained - lost, lost - gained
    if new:
        if old_reach is not None:
            if not new <= old_reach:
                return True
        else:
            for low in _lows(topo, upper, old_down, tier, switch, tier_of):
                was = before.get(low)
                new -= was if was is not None else topo.upset(low)
                if not new:
                    break
            if new:
                return True
    if gone:
        for low in _lows(topo, upper, None, tier, switch, tier_of):
            gone -= topo.upset(low)
            if not gone:
                break
        if gone:
            return True
    return False


def reach_union(topo: Topology, uppers: Iterable[int], tier: int, switch: np.ndarray,
                tier_of: np.ndarray) -> frozenset[int]:
    """The union of `topo.tier_reach(u, tier, ...)` over `uppers`: every peer is visited once
    however many of the upper switches it sits under."""
    downs = [topo.down_array(upper)[:, 0] for upper in uppers]
    if not downs:
        return frozenset()
    lows = arrays.unique(np.concatenate(downs))
    lows = lows[switch[lows] & (tier_of[lows] == tier)]
    return frozenset().union(*{topo.upset(low) for low in lows.tolist()})
