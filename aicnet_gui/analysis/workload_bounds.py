"""The per-switch bounds of one workload's fluid model (bandwidth.py), kept between updates.

A switch's bound under a traffic pattern is up / D: its uplink bandwidth over the demand on
its uplinks at full injection, D = sum over rails of (member NIC bandwidth, or arriving traffic
for an upper switch) x (the share of that rail's traffic that must leave the switch's cone).
The share depends on the switch's own row and on the per-rail member NIC totals only, so after
an edit only the rows the edit changed need new bounds, and when a rail's total changed (a NIC
cable added or removed) the rows that carry traffic on that rail: at 12,800 servers ~75 of
~2,900 rows for a leaf-spine cable, ~360 for a server's NIC cable.

`BoundsCache.bounds` returns, per pattern, the bounds of the first-hop rows then of the upper
rows, exactly as a computation over every row would: each row's demand is the sum over its own
rails (numpy sums each row of a C-ordered matrix on its own), and the rows a cache keeps were
computed from the same inputs.  The model tells the cache which rows it rewrote (`touch`);
the cache itself notices changed uplink bandwidth, totals and sizes.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

PATTERNS = ("ring-allreduce", "all-to-all")


def out_fraction(cone: np.ndarray, total: np.ndarray, pattern: str) -> np.ndarray:
    """Share of a cone's traffic (per rail) that must leave it."""
    out = np.zeros(cone.shape)
    if pattern == "all-to-all":
        denom = np.broadcast_to(total - 1.0, cone.shape)
        np.divide(total - cone, denom, out=out, where=denom > 0)
    else:  # ring: one of the cone's `cone` ring streams per rail leaves it
        np.divide(1.0, cone, out=out, where=(cone > 0) & (cone < total))
    return out


def row_bounds(up: np.ndarray, demand: np.ndarray) -> np.ndarray:
    bound = np.full(len(demand), np.inf)
    np.divide(up, demand, out=bound, where=demand > 0)
    return np.round(bound, 9)


class BoundsCache:
    """Bounds per pattern and row for the first-hop role and the upper role of a row."""

    def __init__(self) -> None:
        self._first: dict[str, np.ndarray] = {}
        self._upper: dict[str, np.ndarray] = {}
        self._total: np.ndarray | None = None
        self._up: np.ndarray | None = None
        self._touched: set[int] = set()

    def touch(self, rows: Iterable[int]) -> None:
        """Rows whose NIC counts, NIC bandwidth, arriving traffic or cone were rewritten."""
        self._touched.update(rows)

    def clear(self) -> None:
        """Forget every bound (the model was rebuilt or grew)."""
        self._total = None

    def bounds(self, first: np.ndarray, uppers: np.ndarray, total: np.ndarray, up: np.ndarray,
               matrices: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
               ) -> dict[str, np.ndarray]:
        """pattern -> bounds of `first` rows then `uppers` rows; `matrices` are the model's
        (count, bw, arrive, cone) and `up` the uplink Gb/s of every row."""
        count, bw, arrive, cone = matrices
        n = len(up)
        if (self._total is None or self._up is None or len(self._up) != n
                or self._total.shape != total.shape):
            self._first = {p: np.full(n, np.nan) for p in PATTERNS}
            self._upper = {p: np.full(n, np.nan) for p in PATTERNS}
            redo_first, redo_upper = first, uppers
        else:
            changed = up != self._up
            changed[[r for r in self._touched if r < n]] = True
            redo_first, redo_upper = changed[first], changed[uppers]
            rails = np.flatnonzero(total != self._total)
            if len(rails):
                # a new total of rail r changes the share leaving every cone on rail r; a row
                # that sends nothing on rail r adds 0 x share there (0.0 either way)
                redo_first |= (bw[np.ix_(first, rails)] != 0).any(axis=1)
                redo_upper |= (arrive[np.ix_(uppers, rails)] != 0).any(axis=1)
            redo_first, redo_upper = first[redo_first], uppers[redo_upper]
        self._total, self._up = total.copy(), up.copy()
        self._touched = set()
        result = {}
        for pattern in PATTERNS:
            fb, ub = self._first[pattern], self._upper[pattern]
            if len(redo_first):
                demand = (bw[redo_first] * out_fraction(count[redo_first], total, pattern)).sum(axis=1)
                fb[redo_first] = row_bounds(up[redo_first], demand)
            if len(redo_upper):
                demand = (arrive[redo_upper] * out_fraction(cone[redo_upper], total, pattern)).sum(axis=1)
                ub[redo_upper] = row_bounds(up[redo_upper], demand)
            result[pattern] = np.concatenate([fb[first], ub[uppers]])
        return result
