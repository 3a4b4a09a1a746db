"""The fabric links of a document as arrays, for many failure runs: max-flow bisection and
connected components with some links masked out.

`analysis.graph.bisection_maxflow` walks the document in Python (~0.3 s at 4,096 servers), fine
once, too slow a thousand times in a sweep.  `FabricArrays` reads the same links (fabric ports at
both ends, no management device, the slower end's speed: the analysis store's `fabric` and
`gbps` columns) once and then answers for any set of removed links with numpy and scipy: the
same super-source / super-sink construction and the same server halves
(`analysis.graph.bisection_halves`), so the value equals `bisection_maxflow` on the document
with those links removed (tests/change/test_whatif.py checks it).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..analysis.graph import bisection_halves
from ..analysis.store import Store
from ..model.document import FabricDocument


class FabricArrays:
    def __init__(self, doc: FabricDocument, store: Store) -> None:
        rows = store.link_rows()
        col = store.l
        keep = col["fabric"][rows]
        rows = rows[keep]
        self.n = store.n_devices
        self.a = col["a"][rows].copy()
        self.b = col["b"][rows].copy()
        self.gbps = col["gbps"][rows].copy()
        self.tier_a = col["tier_a"][rows].copy()
        self.tier_b = col["tier_b"][rows].copy()
        self.rail = col["rail"][rows].copy()
        row_list = rows.tolist()
        self.ids = [store.link_ids[r] for r in row_list]
        self.port_a = [store.a_port[r] for r in row_list]
        self.port_b = [store.b_port[r] for r in row_list]
        up = (self.tier_a != self.tier_b) & (self.tier_a >= 1) & (self.tier_b >= 1)
        self.up_links = np.flatnonzero(up)  # switch-to-switch links between tiers
        lower_a = self.tier_a[up] < self.tier_b[up]
        self.up_lower = np.where(lower_a, self.a[up], self.b[up])
        self.up_upper = np.where(lower_a, self.b[up], self.a[up])
        self.up_lower_tier = np.minimum(self.tier_a[up], self.tier_b[up])
        self.index = dict(zip(self.ids, range(len(self.ids)), strict=True))
        self.dev_row = dict(store.dev_row)
        self.dev_ids = list(store.dev_ids)
        self._halves: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray]] = {}
        self._doc = doc

    def mask(self, removed: Iterable[str]) -> np.ndarray:
        """True for every link still carrying traffic."""
        alive = np.ones(len(self.ids), dtype=bool)
        hit = [self.index[i] for i in removed if i in self.index]
        if hit:
            alive[np.array(hit, dtype=np.int64)] = False
        return alive

    def halves(self, servers: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
        key = tuple(sorted(servers))
        if key not in self._halves:
            first, second = bisection_halves(self._doc, key)
            self._halves[key] = (np.array([self.dev_row[s] for s in first], dtype=np.int64),
                                 np.array([self.dev_row[s] for s in second], dtype=np.int64))
        return self._halves[key]

    def bisection(self, servers: Iterable[str], alive: np.ndarray) -> float:
        """Max-flow (Gb/s) from one half of `servers` to the other over the alive links."""
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import maximum_flow

        first, second = self.halves(servers)
        if not len(first) or not len(second):
            return 0.0
        a, b, g = self.a[alive], self.b[alive], self.gbps[alive]
        nic = np.bincount(a, weights=g, minlength=self.n) + np.bincount(b, weights=g, minlength=self.n)
        source, sink = self.n, self.n + 1
        rows = np.concatenate([a, b, np.full(len(first), source), second])
        cols = np.concatenate([b, a, first, np.full(len(second), sink)])
        data = np.concatenate([g, g, nic[first], nic[second]]).astype(np.int64)
        graph = csr_matrix((data.astype(np.int32), (rows.astype(np.int32), cols.astype(np.int32))),
                           shape=(self.n + 2, self.n + 2))
        graph.sum_duplicates()
        graph.sort_indices()
        return float(maximum_flow(graph, source, sink).flow_value)

    def components(self, alive: np.ndarray) -> np.ndarray:
        """Component label per device row over the alive links."""
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import connected_components

        a, b = self.a[alive], self.b[alive]
        graph = csr_matrix((np.ones(len(a), dtype=np.int8), (a, b)), shape=(self.n, self.n))
        return connected_components(graph, directed=False)[1]
