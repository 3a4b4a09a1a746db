"""Connected components and max-flow over edge arrays: scipy for big graphs, plain Python for
small ones.

The analysis asks two graph questions of every design (fabric_paths.py, plane_paths.py): which
devices are joined (`components`) and how much flows from one half of a workload to the other
(`max_flow`).  scipy answers both in milliseconds at 300k links, but importing
`scipy.sparse.csgraph` costs ~0.3 s (it loads scipy.sparse.linalg and scipy.linalg), more than
the whole `aicnet validate` of a small design.  Below `SMALL_ARCS` arcs the same answers come
from a union-find and Dinic's algorithm written here (scipy's `maximum_flow` runs Dinic too),
without scipy; `tests/analysis/test_graph_kernels.py` holds the two against each other.  Both
give exact answers: components labelled in the order of their smallest node (as scipy numbers
them), the max-flow value of integer capacities.
"""

from __future__ import annotations

import sys
from collections import deque

import numpy as np

SMALL_ARCS = 5_000
"""Up to this many arcs (edges given) a graph is solved here, unless scipy's graph module is
loaded already (then it is the quicker of the two at any size)."""


def _scipy(arcs: int) -> bool:
    return arcs > SMALL_ARCS or "scipy.sparse.csgraph" in sys.modules


def components(n: int, a: np.ndarray, b: np.ndarray) -> tuple[int, np.ndarray]:
    """(count, label per node) of the undirected graph on nodes 0..n-1 with edges a[i]-b[i];
    labels 0, 1, ... in the order of each component's smallest node."""
    if _scipy(len(a)):
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        graph = coo_matrix((np.ones(len(a), dtype=np.int8), (a, b)), shape=(n, n))
        count, labels = connected_components(graph, directed=False)
        return int(count), labels
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in zip(np.asarray(a).tolist(), np.asarray(b).tolist(), strict=True):
        ru, rv = root(u), root(v)
        if ru != rv:
            parent[max(ru, rv)] = min(ru, rv)
    label_of: dict[int, int] = {}
    labels = np.empty(n, dtype=np.int32)
    for node in range(n):
        labels[node] = label_of.setdefault(root(node), len(label_of))
    return len(label_of), labels


def max_flow(n: int, src: np.ndarray, dst: np.ndarray, cap: np.ndarray, source: int,
             sink: int) -> int:
    """The maximum flow from `source` to `sink` over arcs src[i] -> dst[i] of integer capacity
    cap[i] (parallel arcs add up; an arc of no capacity or from a node to itself carries
    nothing)."""
    if _scipy(len(src)):
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import maximum_flow

        graph = coo_matrix((np.asarray(cap).astype(np.int32), (src, dst)), shape=(n, n)).tocsr()
        graph.sum_duplicates()
        return int(maximum_flow(graph, source, sink).flow_value)
    return _dinic(n, np.asarray(src).tolist(), np.asarray(dst).tolist(),
                  np.asarray(cap).tolist(), source, sink)


def _dinic(n: int, src: list[int], dst: list[int], cap: list[int], source: int,
           sink: int) -> int:
    """Dinic's algorithm: level graph by breadth-first search, then blocking flows by
    depth-first search with a pointer per node (iterative: no recursion limit)."""
    if source == sink:
        return 0
    out: list[list[int]] = [[] for _ in range(n)]
    head: list[int] = []  # arc k goes to head[k]; arc k ^ 1 is its reverse
    room: list[int] = []
    for u, v, c in zip(src, dst, cap, strict=True):
        if c <= 0 or u == v:
            continue
        out[u].append(len(head))
        head.append(v)
        room.append(int(c))
        out[v].append(len(head))
        head.append(u)
        room.append(0)
    total = 0
    while True:
        level = [-1] * n
        level[source] = 0
        queue = deque([source])
        while queue:
            u = queue.popleft()
            for k in out[u]:
                v = head[k]
                if room[k] > 0 and level[v] < 0:
                    level[v] = level[u] + 1
                    queue.append(v)
        if level[sink] < 0:
            return total
        pointer = [0] * n
        while True:
            pushed = _augment(out, head, room, level, pointer, source, sink)
            if not pushed:
                break
            total += pushed


def _augment(out: list[list[int]], head: list[int], room: list[int], level: list[int],
             pointer: list[int], source: int, sink: int) -> int:
    """One augmenting path along the level graph (0 when there is none left)."""
    path: list[int] = []  # arcs from the source
    u = source
    while True:
        if u == sink:
            pushed = min(room[k] for k in path)
            for k in path:
                room[k] -= pushed
                room[k ^ 1] += pushed
            return pushed
        arcs = out[u]
        while pointer[u] < len(arcs):
            k = arcs[pointer[u]]
            v = head[k]
            if room[k] > 0 and level[v] == level[u] + 1:
                break
            pointer[u] += 1
        else:  # a dead end: never visited again in this phase; step back
            level[u] = -1
            if not path:
                return 0
            k = path.pop()
            u = head[k ^ 1]
            pointer[u] += 1
            continue
        path.append(k)
        u = v
