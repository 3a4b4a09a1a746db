"""Who is wired to whom: per device, its upper and lower neighbours and the server NICs on it.

Computed with numpy from the link columns: a full run builds one sorted pair table for every
device; an incremental run recomputes the pairs of the dirty devices only and keeps them in an
overlay.  Rules read `up(row)`, `down(row)` and `nics(row)`, which give the same tuples either
way (both come from `PairTable.tuples`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..model import arrays
from .store import Store

Pair = tuple[int, int, int]  # (neighbour row, Gb/s, links)
Nic = tuple[int, int, int, int]  # (server row, rail, Gb/s, link row)


class PairTable:
    """Sorted (device, neighbour) pairs with summed bandwidth and link counts."""

    def __init__(self, dev: np.ndarray, nbr: np.ndarray, gbps: np.ndarray, n_devices: int) -> None:
        if len(dev):
            code = dev * max(n_devices, 1) + nbr
            uniq, inverse, counts = arrays.unique(code, return_inverse=True, return_counts=True)
            sums = np.bincount(inverse.reshape(-1), weights=gbps, minlength=len(uniq))
            self.dev = uniq // max(n_devices, 1)
            self.nbr = uniq % max(n_devices, 1)
            self.gbps = np.rint(sums).astype(np.int64)
            self.n = counts.astype(np.int64)
        else:
            self.dev = self.nbr = self.gbps = self.n = np.zeros(0, dtype=np.int64)
        self._stack: np.ndarray | None = None  # array(): (nbr, gbps, n) rows, made when asked
        self._starts = np.zeros(1, dtype=np.int64)

    def tuples(self, row: int) -> tuple[Pair, ...]:
        lo = int(np.searchsorted(self.dev, row, side="left"))
        hi = int(np.searchsorted(self.dev, row, side="right"))
        if lo == hi:
            return ()
        return tuple(zip(self.nbr[lo:hi].tolist(), self.gbps[lo:hi].tolist(),
                         self.n[lo:hi].tolist(), strict=True))

    def neighbours(self, row: int) -> list[int]:
        """The neighbour rows of `tuples(row)`, in the same order."""
        lo = int(np.searchsorted(self.dev, row, side="left"))
        hi = int(np.searchsorted(self.dev, row, side="right"))
        return self.nbr[lo:hi].tolist()

    def array(self, row: int) -> np.ndarray:
        """`tuples(row)` as an (n, 3) int64 array, without making the tuples (a read-only view
        of the whole table as one array, made on the first call)."""
        if self._stack is None:
            self._stack = np.stack([self.nbr, self.gbps, self.n], axis=1)
            self._stack.flags.writeable = False
            self._starts = np.searchsorted(self.dev, np.arange(int(self.dev[-1]) + 2)
                                           if len(self.dev) else np.zeros(1, dtype=np.int64))
        starts = self._starts
        if row + 1 >= len(starts):
            return self._stack[:0]
        return self._stack[starts[row]:starts[row + 1]]


class NicTable:
    """Server NIC links on switches, sorted by (switch, link row)."""

    def __init__(self, sw: np.ndarray, server: np.ndarray, rail: np.ndarray, gbps: np.ndarray,
                 link: np.ndarray) -> None:
        order = np.lexsort((link, sw))
        self.sw, self.server, self.rail = sw[order], server[order], rail[order]
        self.gbps, self.link = gbps[order], link[order]

    def tuples(self, row: int) -> tuple[Nic, ...]:
        lo = int(np.searchsorted(self.sw, row, side="left"))
        hi = int(np.searchsorted(self.sw, row, side="right"))
        if lo == hi:
            return ()
        return tuple(zip(self.server[lo:hi].tolist(), self.rail[lo:hi].tolist(),
                         self.gbps[lo:hi].tolist(), self.link[lo:hi].tolist(), strict=True))


def _tables(store: Store, rows: np.ndarray) -> tuple[PairTable, PairTable, NicTable]:
    col = store.l
    n = store.n_devices
    a, b = col["a"][rows], col["b"][rows]
    ta, tb = col["tier_a"][rows], col["tier_b"][rows]
    gbps, fabric = col["gbps"][rows], col["fabric"][rows]
    dev = np.concatenate([a, b])
    nbr = np.concatenate([b, a])
    t_self = np.concatenate([ta, tb])
    t_other = np.concatenate([tb, ta])
    g = np.concatenate([gbps, gbps])
    f = np.concatenate([fabric, fabric])
    up = f & (t_other > t_self)
    down = f & (t_other < t_self)
    nic = down & (t_other == 0)
    link = np.concatenate([rows, rows])
    rail = np.concatenate([col["rail"][rows], col["rail"][rows]])
    return (
        PairTable(dev[up], nbr[up], g[up], n),
        PairTable(dev[down], nbr[down], g[down], n),
        NicTable(dev[nic], nbr[nic], rail[nic], g[nic], link[nic]),
    )


class Topology:
    """Neighbour look-ups over the store (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._up = self._down = None
        self._nics = None
        self._overlay: dict[int, tuple[tuple[Pair, ...], tuple[Pair, ...], tuple[Nic, ...]]] = {}
        # base-table tuples already built (the base tables only change on rebuild)
        self._memo: dict[int, tuple[tuple[Pair, ...], tuple[Pair, ...], tuple[Nic, ...]]] = {}
        self._sets: dict[int, tuple[tuple[Pair, ...] | None, frozenset[int]]] = {}
        self._shared: dict[frozenset[int], frozenset[int]] = {}  # the base table's upper sets
        self._down_arrays: dict[int, tuple[tuple[Pair, ...] | None, np.ndarray]] = {}
        # bumped whenever links or their speeds change: graph results keyed on it stay valid
        self.version = 0

    def rebuild(self) -> None:
        self.version += 1
        self._up, self._down, self._nics = _tables(self.store, self.store.link_rows())
        self._overlay = {}
        self._memo = {}
        self._sets = {}
        self._shared = {}
        self._down_arrays = {}

    def refresh(self, dev_rows: Iterable[int], link_rows: np.ndarray) -> None:
        """Recompute the neighbours of `dev_rows` from `link_rows` (all their links)."""
        up, down, nics = _tables(self.store, link_rows)
        alive = self.store.d["alive"]
        changed = False
        for row in dev_rows:
            if alive[row]:
                entry = (up.tuples(row), down.tuples(row), nics.tuples(row))
            else:
                entry = ((), (), ())
            if not changed and (row >= len(alive) or entry != self._entry(row)):
                changed = True
            self._overlay[row] = entry
        if changed:
            self.version += 1

    def _entry(self, row: int) -> tuple[tuple[Pair, ...], tuple[Pair, ...], tuple[Nic, ...]]:
        entry = self._overlay.get(row)
        if entry is None:
            entry = self._memo.get(row)
            if entry is None:
                entry = (self._up.tuples(row), self._down.tuples(row), self._nics.tuples(row))
                self._memo[row] = entry
        return entry

    def up(self, row: int) -> tuple[Pair, ...]:
        return self._entry(row)[0]

    def _per_overlay(self, cache: dict, row: int, part: int, from_base: Callable[[int], Any],
                     from_overlay: Callable[[Any], Any]) -> Any:
        """A value derived from part `part` (0 up, 1 down) of the row's neighbours, cached while
        that part does not change: read from the base table while the row has no overlay
        (without making its tuples), else from the overlay's tuples."""
        entry = self._overlay.get(row)
        raw = entry[part] if entry is not None else None  # None: the base table's
        cached = cache.get(row)
        if cached is not None and cached[0] is raw:
            return cached[1]
        value = from_base(row) if raw is None else from_overlay(raw)
        cache[row] = (raw, value)
        return value

    def upset(self, row: int) -> frozenset[int]:
        """The rows of the row's upper neighbours."""
        return self._per_overlay(self._sets, row, 0, self._base_upset,
                                 lambda ups: frozenset(p[0] for p in ups))

    def _base_upset(self, row: int) -> frozenset[int]:
        # one object per distinct set (a fat tree has a few): a union of many rows' sets then
        # skips the equal ones by identity
        value = frozenset(self._up.neighbours(row))
        return self._shared.setdefault(value, value)

    def down(self, row: int) -> tuple[Pair, ...]:
        return self._entry(row)[1]

    def down_array(self, row: int) -> np.ndarray:
        """`down(row)` as an (n, 3) int64 array of (neighbour row, Gb/s, links), in the same
        order."""
        return self._per_overlay(self._down_arrays, row, 1, self._down.array,
                                 lambda downs: np.array(downs, dtype=np.int64).reshape(-1, 3))

    def tier_reach(self, upper: int, tier: int, switch: np.ndarray,
                   tier_of: np.ndarray) -> frozenset[int]:
        """The upper neighbours of every switch of `tier` below `upper` (ECMP: what the peers
        under one upper switch reach; rules_device.expected_uppers memoizes it per key)."""
        lows = self.down_array(upper)[:, 0]
        lows = lows[switch[lows] & (tier_of[lows] == tier)]
        return frozenset().union(*{self.upset(low) for low in lows.tolist()})

    def nics(self, row: int) -> tuple[Nic, ...]:
        return self._entry(row)[2]
