"""The fabric links of the intact document as arrays, for many failure runs.

Read once from the analysis store (fabric ports at both ends, no management device, the slower
end's speed: the store's `fabric` and `gbps` columns); a failure run then masks the failed links
out with numpy: which NIC links are down, which switches are above which (for the per-GPU
bounds), and the connected components over the links left (scipy).  The max-flow bisection
itself comes from the analysis (`WorkloadMetrics.bisection_gbps`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..analysis.store import Store


class FabricArrays:
    def __init__(self, store: Store) -> None:
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

    def mask(self, removed: Iterable[str]) -> np.ndarray:
        """True for every link still carrying traffic."""
        alive = np.ones(len(self.ids), dtype=bool)
        hit = [self.index[i] for i in removed if i in self.index]
        if hit:
            alive[np.array(hit, dtype=np.int64)] = False
        return alive

    def components(self, alive: np.ndarray) -> np.ndarray:
        """Component label per device row over the alive links."""
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import connected_components

        a, b = self.a[alive], self.b[alive]
        graph = csr_matrix((np.ones(len(a), dtype=np.int8), (a, b)), shape=(self.n, self.n))
        return connected_components(graph, directed=False)[1]
