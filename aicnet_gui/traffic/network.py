"""The drawn fabric as the traffic model sees it: directed links with capacities, the switch
graph, the NICs of every server, and how far each switch is from a destination switch.

Read from the analysis store's link columns (analysis/store.py): every live fabric link
between non-management devices is two directed links (a -> b, b -> a), each carrying the
link's speed (Gb/s).  Failed links (`failed`, link ids) are left out, so a failed spine, cable
or optic takes its capacity and its paths with it; an oversubscribed tier is just fewer or
slower uplinks.

Equal-cost paths are the shortest paths (in switch hops) of the drawn switch graph, as an
IP fabric's ECMP and the InfiniBand subnet manager's minimal-hop AR groups use them.  The hop
count from a switch `u` to a destination switch `d` is 1 + the hop count from `u` to the
nearest neighbour of `d` (0 at `d`); destinations with the same neighbours (the leaves of one
pod) share one multi-source breadth-first search (scipy's `dijkstra`, unweighted, `min_only`),
so a 400-SU fabric needs a few hundred of them, not 3,200.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from ..analysis.state import State
from ..model import arrays

UNREACHABLE = np.int16(32_000)


@dataclass(frozen=True)
class Nics:
    """Server NIC links as columns: server row, rail, switch row, directed links up (server to
    switch) and down, Gb/s, and the store row of the link."""

    server: np.ndarray
    rail: np.ndarray
    switch: np.ndarray
    up: np.ndarray
    down: np.ndarray
    gbps: np.ndarray
    row: np.ndarray


class Network:
    """Directed links, capacities, the switch graph and distances (see the module docstring)."""

    def __init__(self, state: State, failed: Iterable[str] = ()) -> None:
        store = state.store
        self.state = state
        col, d = store.l, store.d
        rows = store.link_rows()
        a, b = col["a"][rows], col["b"][rows]
        keep = col["fabric"][rows] & ~d["mgmt"][a] & ~d["mgmt"][b]
        failed_rows = store.rows_of_links(failed)
        if len(failed_rows):
            keep &= ~arrays.isin(rows, failed_rows)
        rows = rows[keep]
        self.n_devices = store.n_devices
        self.link_rows = rows  # store row of physical link k; directed links 2k (a->b), 2k+1
        a, b = col["a"][rows], col["b"][rows]
        gbps = col["gbps"][rows].astype(float)
        self.src = np.empty(2 * len(rows), dtype=np.int64)
        self.dst = np.empty(2 * len(rows), dtype=np.int64)
        self.src[0::2], self.src[1::2] = a, b
        self.dst[0::2], self.dst[1::2] = b, a
        self.cap = np.repeat(gbps, 2)
        tier = d["tier"]
        self.switch = d["switch"][: self.n_devices] & d["alive"][: self.n_devices]
        between = self.switch[self.src] & self.switch[self.dst]
        self._switch_links(np.flatnonzero(between))
        self.nics = self._nics(np.flatnonzero(~between & (tier[self.src] != tier[self.dst])))
        self._dist: dict[int, np.ndarray] = {}
        self._classes: dict[tuple[int, ...], int] = {}
        self._tables: list[np.ndarray] = []

    @property
    def n_links(self) -> int:
        return len(self.cap)

    def _switch_links(self, links: np.ndarray) -> None:
        """CSR of directed switch-to-switch links by their source switch."""
        order = links[np.argsort(self.src[links], kind="stable")]
        self.out_links = order
        counts = np.bincount(self.src[order], minlength=self.n_devices)
        self.out_start = np.concatenate([[0], np.cumsum(counts)])
        pairs = arrays.unique(self.src[order] * self.n_devices + self.dst[order])
        n = self.n_devices
        self.graph = coo_matrix((np.ones(len(pairs)), (pairs // n, pairs % n)), shape=(n, n)).tocsr()
        # directed switch links sorted by (source, destination): the parallel links u -> v
        self.pair_code = self.src[order] * n + self.dst[order]
        by_pair = np.argsort(self.pair_code, kind="stable")
        self.pair_code, self.pair_links = self.pair_code[by_pair], order[by_pair]

    def _nics(self, links: np.ndarray) -> Nics:
        """The server-to-switch directed links (up) and their reverse (down)."""
        server_side = ~self.switch[self.src[links]]
        up = links[server_side & self.switch[self.dst[links]]]
        down = up ^ 1  # 2k <-> 2k+1
        rows = self.link_rows[up // 2]
        rail = self.state.store.l["rail"][rows]
        return Nics(self.src[up], rail, self.dst[up], up, down, self.cap[up], rows)

    # ------------------------------------------------------------------ distances
    def _neighbour_key(self, switch: int) -> tuple[int, ...]:
        g = self.graph
        return tuple(g.indices[g.indptr[switch]:g.indptr[switch + 1]].tolist())

    def distances(self, destinations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(table index per destination switch, tables): tables[k][u] is the hop count from
        switch u to the nearest neighbour of the destinations of class k (UNREACHABLE when
        none is reachable)."""
        index = np.empty(len(destinations), dtype=np.int64)
        todo: dict[tuple[int, ...], list[int]] = {}
        for i, dest in enumerate(destinations.tolist()):
            known = self._dist.get(dest)
            if known is not None:
                index[i] = known
                continue
            key = self._neighbour_key(dest)
            at = self._classes.get(key)
            if at is None:
                todo.setdefault(key, []).append(i)
            else:
                self._dist[dest] = at
                index[i] = at
        for key, slots in todo.items():
            at = len(self._tables)
            self._classes[key] = at
            self._tables.append(self._bfs(np.array(key, dtype=np.int64)))
            for i in slots:
                self._dist[int(destinations[i])] = at
                index[i] = at
        return index, np.stack(self._tables) if self._tables else np.zeros((0, self.n_devices),
                                                                              np.int16)

    def _bfs(self, sources: np.ndarray) -> np.ndarray:
        if not len(sources):
            return np.full(self.n_devices, UNREACHABLE, dtype=np.int16)
        found = dijkstra(self.graph, directed=True, indices=sources, unweighted=True,
                         min_only=True)
        return np.where(np.isfinite(found), found, UNREACHABLE).astype(np.int16)
