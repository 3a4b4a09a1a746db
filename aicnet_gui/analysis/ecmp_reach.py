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
a fat tree that loses one cable loses no path.  `ReachCheck.changed` answers; refresh.ecmp_peers
asks it for every upper switch around the edit.  `reach_union` is the union of several upper
switches' reach in one pass over their peers, for a check that finds its reach not memoized.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..model import arrays
from .topology import Pair, Topology

# (switch row, rows of its upper neighbours before the edit, ... after it)
Rewired = tuple[int, frozenset[int], frozenset[int]]


class ReachCheck:
    """Did the reach of an upper switch change with one edit?  Made once per update from the
    switches whose uppers changed (`rewired`: no other switch's did)."""

    def __init__(self, topo: Topology, rewired: Iterable[Rewired], switch: np.ndarray,
                 tier_of: np.ndarray) -> None:
        self.topo, self.switch, self.tier_of = topo, switch, tier_of
        # tier -> (row, uppers before, uppers now, gained, lost) of its rewired switches
        self._by_tier: dict[int, list[tuple[int, frozenset[int], frozenset[int], frozenset[int],
                                            frozenset[int]]]] = {}
        for row, was, now in rewired:
            if switch[row]:
                self._by_tier.setdefault(int(tier_of[row]), []).append(
                    (row, was, now, now - was, was - now))

    def changed(self, upper: int, tier: int, old_down: Sequence[Pair] | None = None,
                old_reach: frozenset[int] | None = None) -> bool:
        """Did `topo.tier_reach(upper, tier, ...)` change?  `old_down` is `topo.down(upper)`
        before the edit (None: the same as now), `old_reach` the reach before when it is known
        (it answers "had a peer it before" at once)."""
        gained: set[int] = set()
        lost: set[int] = set()
        before: dict[int, frozenset[int]] = {}
        for row, was, now, more, fewer in self._by_tier.get(tier, ()):
            under_before, under_now = upper in was, upper in now
            if under_before:
                before[row] = was
                if under_now:
                    gained |= more
                    lost |= fewer
                else:
                    lost |= was  # the peer left `upper`: all it reached may go
            elif under_now:
                gained |= now  # the peer arrived under `upper`: all it reaches may be new
        # an upper switch one peer gained and another lost was reached before and still is
        new, gone = gained - lost, lost - gained
        if new and (not new <= old_reach if old_reach is not None
                    else self._unreached(upper, old_down, tier, new, before)):
            return True
        return bool(gone) and self._unreached(upper, None, tier, gone, {})

    def _unreached(self, upper: int, pairs: Sequence[Pair] | None, tier: int, wanted: set[int],
                   before: dict[int, frozenset[int]]) -> bool:
        """Is one of `wanted` reached by no switch of `tier` below `upper`: now (`pairs` None),
        or among `pairs` (a Topology.down list from before the edit) with the uppers of
        `before` for the rewired ones?  Scans until all are found, usually at the first."""
        topo, switch, tier_of = self.topo, self.switch, self.tier_of
        rows = topo.down_array(upper)[:, 0].tolist() if pairs is None else [p[0] for p in pairs]
        for low in rows:
            if switch[low] and tier_of[low] == tier:
                was = before.get(low)
                ups = was if was is not None else topo.upset(low)
                wanted = {x for x in wanted if x not in ups}
                if not wanted:
                    return False
        return True


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
