"""Max-min fair rates over the links: progressive filling on a sparse incidence matrix.

`A[g, l]` is how many flows of group `g` cross link `l` (fractions where a flow is sprayed);
every flow of a group moves at the group's rate (a ring channel runs at the pace of its
slowest hop).  Progressive filling raises the rate of every unfrozen group together until a
link is full, freezes the groups that cross it, and repeats: the result is the max-min fair
allocation (Bertsekas & Gallager, Data Networks, 6.5.2).  Each level is a few sparse
matrix-vector products over the whole matrix, so a fabric of 600k directed links and 400k flows
costs milliseconds per level, never a Python loop per flow.

The first level is the collective's pace: every flow of a collective carries the same bytes,
so the collective ends when the slowest flow does, at the rate of the first link to fill.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix

#: relative tolerance under which a link counts as full
FULL = 1e-9


@dataclass(frozen=True)
class Allocation:
    """Rates per group (Gb/s per flow), the load per link (Gb/s), and the first level."""

    rates: np.ndarray
    load: np.ndarray
    pace: float  # the slowest group's rate: the first level of the filling
    levels: int


def max_min(incidence: csr_matrix, capacity: np.ndarray, max_levels: int = 100_000) -> Allocation:
    """Max-min fair rates of the groups (rows of `incidence`) over links of `capacity` Gb/s."""
    groups = incidence.shape[0]
    rates = np.zeros(groups)
    if groups == 0:
        return Allocation(rates, np.zeros(len(capacity)), 0.0, 0)
    by_link = incidence.T.tocsr()
    residual = capacity.astype(float).copy()
    active = np.asarray(incidence.sum(axis=1)).ravel() > 0
    pace = 0.0
    level = 0
    while active.any() and level < max_levels:
        weight = by_link @ active.astype(float)  # flows of active groups per link
        using = weight > 0
        if not using.any():
            break
        step = float(np.min(residual[using] / weight[using]))
        step = max(step, 0.0)
        rates[active] += step
        residual -= step * weight
        full = np.flatnonzero(using & (residual <= FULL * np.maximum(capacity, 1.0)))
        # the groups on a full link: the rows of the link-major matrix at those links
        starts, ends = by_link.indptr[full], by_link.indptr[full + 1]
        touched = np.repeat(starts, ends - starts) + (
            np.arange(int((ends - starts).sum())) - np.repeat(np.cumsum(ends - starts)
                                                              - (ends - starts), ends - starts))
        if level == 0:
            pace = step
        active[by_link.indices[touched]] = False
        level += 1
    load = np.asarray(by_link @ rates).ravel()
    return Allocation(rates, load, pace, level)


def incidence_matrix(rows: np.ndarray, cols: np.ndarray, values: np.ndarray,
                     shape: tuple[int, int]) -> csr_matrix:
    """The CSR matrix of (row, column, value) entries with duplicates added, built from one
    sort of the entry codes (scipy's COO conversion sorts twice)."""
    width = shape[1]
    code = rows.astype(np.int64) * width + cols.astype(np.int64)
    order = np.argsort(code, kind="stable")
    code, values = code[order], values[order]
    first = np.flatnonzero(np.r_[True, code[1:] != code[:-1]]) if len(code) else np.zeros(0, int)
    summed = np.add.reduceat(values, first) if len(first) else np.zeros(0)
    keys = code[first]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(keys // width, minlength=shape[0]))])
    return csr_matrix((summed, keys % width, indptr), shape=shape)


def first_level(weight: np.ndarray, capacity: np.ndarray) -> float:
    """The rate at which the first link fills when every flow moves at the same rate, given the
    flows on each link (`weight`): the pace of a collective (`max_min(...).pace`, without the
    later levels)."""
    using = weight > 0
    if not using.any():
        return 0.0
    return float(np.min(capacity[using] / weight[using]))
