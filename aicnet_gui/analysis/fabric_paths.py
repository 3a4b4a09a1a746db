"""Graph facts of the fabric, read from the store's link columns with scipy.

Three questions the formulas of a balanced Clos cannot answer for a fabric as drawn:
- **islands**: which switches are joined by switch-to-switch links (connected components), so
  the GPUs of a workload that sit on different islands are found (FABRIC-PARTITIONED);
- **bisection**: the max-flow (Gb/s) across two cuts of a workload's GPUs, over the real links
  and their speeds (scipy's `maximum_flow`, Dinic), and the smaller of the two:
  the *rail-aligned* cut splits the servers in halves along the fabric (whole leaves or SUs
  where possible), so that rail-aligned traffic can stay on its leaf; the *cross-rail* cut
  splits every server's GPUs in halves by rail (rails 1-4 against 5-8), so that every byte
  crosses the tier above the rail leaves.  On a rail-optimized fabric these are the two
  extremes (a cut's flow depends on how one-sided it leaves each first-hop switch): a spine lost
  costs the cross-rail cut its share while the rail-aligned cut of one SU does not notice it.
  GPUs are the endpoints: a GPU sends and receives through its own NIC link, and nothing is
  forwarded through a server (NVLink is not the fabric's); a design of declared rail planes
  (rails as separate fabrics, joined by NVLink) has no cross-rail cut to measure;
- **worst path**: the largest oversubscription along any path from a leaf up to the top tier,
  the running product of the switches' down:up ratios, with the switches of that path.

Each result is memoised on the topology's version (bumped whenever a device's links or their
speeds change), so an edit that does not rewire anything reuses them.  On a fabric of more than
`DEFER_LINKS` links the live validator's incremental runs keep the last results after a rewiring
edit (the report says `graph_pending`) and its background full run recomputes them: ~30 ms at
98k links, too much for the GUI thread on every edit.  `tests/graph_oracle.py` answers the
same questions from the document with networkx; the tests hold the two against each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from ..model import arrays

if TYPE_CHECKING:
    from .state import State


T = TypeVar("T")

DEFER_LINKS = 20_000
"""Above this many links an incremental run may defer the graph work (Analyzer.defer_graph)."""


@dataclass(frozen=True, slots=True)
class Attachments:
    """The switch components and, per server NIC link, (server row, switch row, rail)."""

    labels: np.ndarray  # component label per device row (switches joined by switch links)
    server: np.ndarray
    switch: np.ndarray
    rail: np.ndarray
    gbps: np.ndarray


@dataclass(frozen=True, slots=True)
class Island:
    """Switches joined by links, as the GPUs of some servers reach them."""

    switches: tuple[int, ...]  # switch rows the members' NICs land on, in row order
    servers: int  # member servers with a NIC on the island
    rails: tuple[int, ...]  # rails of those NIC links (0: untagged)


@dataclass(frozen=True, slots=True)
class WorstPath:
    ratio: float  # at least 1
    rows: tuple[int, ...]  # leaf first, then up to the top tier
    ratios: tuple[float, ...]  # down:up of each switch on the path


def _fabric_rows(state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows of live fabric links between non-management devices: (rows, a, b, gbps), kept for
    the topology version (the islands, both bisection cuts and the planes read them)."""
    memo = state.memo.get("fabric_rows")
    if memo is not None and memo[0] == state.topo.version:
        return memo[1]
    value = _read_fabric_rows(state)
    state.memo["fabric_rows"] = (state.topo.version, value)
    return value


def _read_fabric_rows(state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    store = state.store
    col = store.l
    rows = store.link_rows()
    mgmt = store.d["mgmt"]
    a, b = col["a"][rows], col["b"][rows]
    keep = col["fabric"][rows] & ~mgmt[a] & ~mgmt[b]
    rows = rows[keep]
    return rows, a[keep], b[keep], col["gbps"][rows]


def _cached(state: State, kind: str, extra: object, compute: Callable[[], T]) -> T:
    """`compute()` memoised per topology version (and `extra`, e.g. the members).  While an
    incremental run defers graph work (`Analyzer.defer_graph`) on a fabric of more than
    `DEFER_LINKS` links, the last value is kept and the report marked `graph_pending`: the live
    validator's full run in its worker recomputes it."""
    cache = state.memo.setdefault("fabric_paths", {})
    key = (kind, state.topo.version, extra)
    if key in cache:
        return cache[key]
    last = (kind, "last", extra)
    if last in cache and state.run.get("defer_graph") and state.store.n_links > DEFER_LINKS:
        state.run["graph_pending"] = True
        return cache[last]
    if len(cache) > 256:  # members of edited workloads pile up; start again
        cache.clear()
    value = compute()
    cache[key] = cache[last] = value
    return value


def _members_key(members: np.ndarray) -> int:
    return hash(np.flatnonzero(members).tobytes())


def attachments(state: State) -> Attachments:
    """Switch components and the NIC links of the servers (memoised per topology version)."""
    return _cached(state, "attachments", None, lambda: _attachments(state))


def _attachments(state: State) -> Attachments:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    store = state.store
    n = store.n_devices
    rows, a, b, _gbps = _fabric_rows(state)
    col = store.l
    ta, tb = col["tier_a"][rows], col["tier_b"][rows]
    between = (ta >= 1) & (tb >= 1)
    graph = coo_matrix((np.ones(int(between.sum()), dtype=np.int8), (a[between], b[between])),
                       shape=(n, n))
    _count, labels = connected_components(graph, directed=False)
    nics = store.nic_links()
    mgmt = store.d["mgmt"]
    keep = ~mgmt[nics.server] & ~mgmt[nics.switch]
    nic_rows = nics.rows[keep]
    return Attachments(
        labels=labels,
        server=nics.server[keep],
        switch=nics.switch[keep],
        rail=col["rail"][nic_rows],
        gbps=col["gbps"][nic_rows],
    )


def islands(state: State, members: np.ndarray) -> list[Island]:
    """The islands the member servers' NICs land on (`members`: bool per device row), largest
    first.  One island: every GPU reaches every other through the switches."""
    return _cached(state, "islands", _members_key(members), lambda: _islands(state, members))


def _islands(state: State, members: np.ndarray) -> list[Island]:
    att = attachments(state)
    n = len(members)
    pick = members[np.minimum(att.server, n - 1)] & (att.server < n) if len(att.server) and n \
        else np.zeros(len(att.server), dtype=bool)
    if not pick.any():
        return []
    server, switch, rail = att.server[pick], att.switch[pick], att.rail[pick]
    comp = att.labels[switch]
    result = []
    for label in arrays.unique(comp).tolist():
        on = comp == label
        result.append(Island(tuple(arrays.unique(switch[on]).tolist()),
                             int(len(arrays.unique(server[on]))), tuple(arrays.unique(rail[on]).tolist())))
    result.sort(key=lambda isl: (-isl.servers, isl.switches))
    return result


def joined_through_servers(state: State, members: np.ndarray) -> bool:
    """Do the islands form one whole when a server joins the islands of its own NICs (NVLink
    inside the server, as a rail-planes design relies on)?"""
    return _cached(state, "joined", _members_key(members), lambda: _joined(state, members))


def _joined(state: State, members: np.ndarray) -> bool:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    att = attachments(state)
    pick = members[att.server] if len(att.server) else np.zeros(0, dtype=bool)
    if not pick.any():
        return True
    comp = att.labels[att.switch[pick]]
    server = att.server[pick]
    labels, comp_index = arrays.unique(comp, return_inverse=True)
    servers, server_index = arrays.unique(server, return_inverse=True)
    k = len(labels)
    size = k + len(servers)
    graph = coo_matrix((np.ones(len(comp), dtype=np.int8), (comp_index, server_index + k)),
                       shape=(size, size))
    count, _labels = connected_components(graph, directed=False)
    return count == 1


def bisection_order(state: State, member_rows: np.ndarray) -> list[int]:
    """Member server rows ordered along the fabric: by the ids of the switches their NICs land
    on (so a half is whole leaves / SUs where possible), then by id (as `tests/graph_oracle.py`).

    The key of a server is the sorted tuple of its switches' ids; as numbers: each switch its
    rank among the ids, each server a row of its sorted ranks padded with -1 (a tuple that is
    the start of a longer one comes first), rows sorted lexicographically, ties by id rank."""
    att = attachments(state)
    ids = state.store.dev_ids
    members = np.asarray(member_rows, dtype=np.int64)
    if not len(members):
        return []
    pick = arrays.isin(att.server, members)
    server, switch = att.server[pick], att.switch[pick]
    switches = arrays.unique(switch)
    names = [ids[r] for r in switches.tolist()]
    rank_of = np.empty(len(switches), dtype=np.int64)
    rank_of[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
    rank = rank_of[np.searchsorted(switches, switch)]
    # one (member, switch rank) pair per switch a member lands on, sorted by member then rank
    members = arrays.unique(members)
    at = np.searchsorted(members, server)
    pairs = arrays.unique(at * (len(switches) + 1) + rank)
    owner, ranks = pairs // (len(switches) + 1), pairs % (len(switches) + 1)
    counts = np.bincount(owner, minlength=len(members))
    width = int(counts.max()) if len(counts) else 0
    keys = np.full((len(members), max(width, 1)), -1, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    keys[owner, np.arange(len(pairs)) - starts[owner]] = ranks
    member_names = [ids[r] for r in members.tolist()]
    by_id = np.empty(len(members), dtype=np.int64)
    by_id[sorted(range(len(members)), key=member_names.__getitem__)] = np.arange(len(members))
    order = np.lexsort((by_id, *keys.T[::-1]))
    return members[order].tolist()


def bisection_gbps(state: State, member_rows: np.ndarray) -> float:
    """Max-flow (Gb/s) from the first half of the member servers to the second, over every
    fabric link at its speed in both directions; a server is fed by (drains into) its NICs."""
    members = np.asarray(member_rows, dtype=np.int64)
    return _cached(state, "bisection", hash(members.tobytes()), lambda: _bisection(state, members))


def max_flow(n: int, a: np.ndarray, b: np.ndarray, gbps: np.ndarray, feeds: np.ndarray,
             feed_gbps: np.ndarray, drains: np.ndarray, drain_gbps: np.ndarray) -> float:
    """Max-flow (Gb/s) over the links (a, b, gbps: both directions) of `n` devices from a
    source feeding the rows `feeds` to a sink the rows `drains` drain into (scipy, Dinic)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import maximum_flow

    source, sink = n, n + 1
    src = np.concatenate([a, b, np.full(len(feeds), source), drains])
    dst = np.concatenate([b, a, feeds, np.full(len(drains), sink)])
    cap = np.concatenate([gbps, gbps, feed_gbps, drain_gbps])
    graph = coo_matrix((cap.astype(np.int32), (src, dst)), shape=(n + 2, n + 2)).tocsr()
    graph.sum_duplicates()
    return float(maximum_flow(graph, source, sink).flow_value)


def _bisection(state: State, members: np.ndarray) -> float:
    order = bisection_order(state, members)
    half = len(order) // 2
    first, second = order[:half], order[half:]
    if not (first and second):
        return 0.0
    n = state.store.n_devices
    _rows, a, b, gbps = _fabric_rows(state)
    att = attachments(state)
    nic = np.bincount(att.server, weights=att.gbps, minlength=n).astype(np.int64)
    first_a, second_a = np.array(first), np.array(second)
    return max_flow(n, a, b, gbps, first_a, nic[first_a], second_a, nic[second_a])


@dataclass(frozen=True, slots=True)
class Bisection:
    """The max-flow across the cuts of a workload's GPUs that matter, and the smallest."""

    rail_aligned_gbps: float  # the servers in halves along the fabric
    cross_rail_gbps: float | None  # each server's GPUs in halves by rail; None: no such cut
    cross_rail_cut: str = ""  # which rails are on each side, e.g. "rails 1-4 | 5-8"

    @property
    def worst_gbps(self) -> float:
        """The minimum over the cuts: what the fabric guarantees between any such halves."""
        if self.cross_rail_gbps is None:
            return self.rail_aligned_gbps
        return min(self.rail_aligned_gbps, self.cross_rail_gbps)

    @property
    def worst_cut(self) -> str:
        """"cross-rail" when that cut carries less than the rail-aligned one, else "rail-aligned"."""
        if self.cross_rail_gbps is not None and self.cross_rail_gbps < self.rail_aligned_gbps:
            return "cross-rail"
        return "rail-aligned"

    def describe(self, fmt: Callable[[float], str]) -> str:
        """The bisection in words, each value written by `fmt` (the CLI, the PDF and the
        editor say the same): "38.4 Tb/s (worst cut: cross-rail, rails 1-4 | 5-8;
        rail-aligned 51.2 Tb/s)"."""
        return f"{fmt(self.worst_gbps)} ({self.cuts_text(fmt)})"

    def cuts_text(self, fmt: Callable[[float], str]) -> str:
        """Which cut the bisection is measured on and the other one's value."""
        if self.cross_rail_gbps is None:
            return "rail-aligned cut"
        if self.cross_rail_gbps == self.rail_aligned_gbps:
            return "rail-aligned and cross-rail cuts alike"
        if self.worst_cut == "cross-rail":
            return (f"worst cut: cross-rail, {self.cross_rail_cut}; rail-aligned "
                    f"{fmt(self.rail_aligned_gbps)}")
        return f"worst cut: rail-aligned; cross-rail {fmt(self.cross_rail_gbps)}"

    @classmethod
    def from_json(cls, workload: dict) -> Bisection:
        """The cuts of a workload's `--json` metrics (`WorkloadMetrics.to_json`)."""
        cuts = workload.get("bisection") or {}
        aligned = cuts.get("rail_aligned_gbps", workload.get("bisection_gbps") or 0.0)
        return cls(float(aligned), cuts.get("cross_rail_gbps"), cuts.get("cross_rail_cut", ""))


def bisection(state: State, member_rows: np.ndarray) -> Bisection:
    """The rail-aligned and cross-rail cuts of the member servers' GPUs (memoised per topology
    version); the cross-rail cut is None on a design of declared rail planes."""
    members = np.asarray(member_rows, dtype=np.int64)
    aligned = bisection_gbps(state, members)
    if state.settings.rail_planes:
        return Bisection(aligned, None)
    flow, cut = _cached(state, "cross-rail", hash(members.tobytes()),
                        lambda: _cross_rail(state, members))
    return Bisection(aligned, flow, cut)


def _rails_text(rails: list[int]) -> str:
    """"1-4" for consecutive rails, else "1, 3, 5"."""
    if rails and rails == list(range(rails[0], rails[-1] + 1)) and len(rails) > 1:
        return f"{rails[0]}-{rails[-1]}"
    return ", ".join(map(str, rails))


def cross_rail_halves(state: State, members: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indices into `attachments` of the member NIC links of the first half, of the second):
    each member server's NIC links in rail order (an untagged link by its switch's id), the
    first half of them on one side, the rest on the other."""
    att = attachments(state)
    if not len(att.server) or not len(members):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    pick = np.flatnonzero(arrays.isin(att.server, members))
    ids = state.store.dev_ids
    switches = arrays.unique(att.switch[pick])
    names = [ids[r] for r in switches.tolist()]
    rank_of = np.empty(len(switches), dtype=np.int64)
    rank_of[sorted(range(len(names)), key=names.__getitem__)] = np.arange(len(names))
    rank = rank_of[np.searchsorted(switches, att.switch[pick])]
    server = att.server[pick]
    rail = att.rail[pick].astype(np.int64)
    width = len(switches) + 1
    key = (server * (int(rail.max(initial=0)) + 1) + rail) * width + rank  # stable: ties by link
    order = np.argsort(key, kind="stable")
    pick, server = pick[order], server[order]
    starts = np.flatnonzero(np.r_[True, server[1:] != server[:-1]])
    counts = np.diff(np.r_[starts, len(server)])
    position = np.arange(len(server)) - np.repeat(starts, counts)
    first = position < np.repeat(counts // 2, counts)
    return pick[first], pick[~first]


def _cross_rail(state: State, members: np.ndarray) -> tuple[float | None, str]:
    first, second = cross_rail_halves(state, members)
    if not len(first) or not len(second):
        return None, ""
    att = attachments(state)
    rails_a = arrays.unique(att.rail[first]).tolist()
    rails_b = arrays.unique(att.rail[second]).tolist()
    cut = (f"rails {_rails_text(rails_a)} | {_rails_text(rails_b)}"
           if 0 not in rails_a + rails_b and not set(rails_a) & set(rails_b) else
           "each server's NICs in halves")
    n = state.store.n_devices
    rows, a, b, gbps = _fabric_rows(state)
    col = state.store.l
    between = (col["tier_a"][rows] >= 1) & (col["tier_b"][rows] >= 1)  # switch to switch
    supply = np.bincount(att.switch[first], weights=att.gbps[first], minlength=n)
    demand = np.bincount(att.switch[second], weights=att.gbps[second], minlength=n)
    feeds, drains = np.flatnonzero(supply), np.flatnonzero(demand)
    return max_flow(n, a[between], b[between], gbps[between], feeds, supply[feeds], drains,
                    demand[drains]), cut


def worst_path(state: State) -> WorstPath | None:
    """The leaf-to-top path with the largest running product of down:up ratios (None without a
    switch that has uplinks)."""
    return _cached(state, "worst_path", None, lambda: _worst_path(state))


def _worst_path(state: State) -> WorstPath | None:
    store = state.store
    d = store.d
    n = store.n_devices
    alive = d["alive"][:n]
    switch = alive & d["switch"][:n]
    tier = d["tier"][:n]
    down = d["down"][:n].astype(float)
    up = d["up"][:n].astype(float)
    ratio = np.divide(down, up, out=np.ones(n), where=up > 0)
    result: WorstPath | None = None
    if (switch & (up > 0)).any():
        rows, a, b, _gbps = _fabric_rows(state)
        col = store.l
        ta, tb = col["tier_a"][rows], col["tier_b"][rows]
        uplink = (ta >= 1) & (tb >= 1) & (ta != tb)
        lower = np.where(ta < tb, a, b)[uplink]
        upper = np.where(ta < tb, b, a)[uplink]
        worst = np.where(switch & (up > 0), ratio, 1.0)  # running product from a switch up
        nxt = np.full(n, -1, dtype=np.int64)
        ids = store.dev_ids
        rank = np.zeros(n, dtype=np.int64)  # ties go to the smallest id, whatever the rows
        named = np.flatnonzero(switch)
        rank[named] = np.argsort(np.argsort(np.array([ids[r] for r in named.tolist()])))
        for t in sorted(set(tier[switch & (up > 0)].tolist()), reverse=True):
            on = tier[lower] == t
            lo, hi = lower[on], upper[on]
            if not len(lo):
                continue
            order = np.lexsort((-rank[hi], worst[hi], lo))  # best upper of each lower last
            lo, hi = lo[order], hi[order]
            last = np.flatnonzero(np.r_[lo[1:] != lo[:-1], True])
            lows, best = lo[last], hi[last]
            nxt[lows] = best
            worst[lows] = ratio[lows] * np.maximum(1.0, worst[best])
        leaves = np.flatnonzero(switch & (tier == 1) & (up > 0) & (down > 0))
        if not len(leaves):
            leaves = np.flatnonzero(switch & (up > 0))
        start = int(min(leaves.tolist(), key=lambda r: (-worst[r], ids[r])))
        path = [start]
        while nxt[path[-1]] >= 0 and len(path) < 8:
            path.append(int(nxt[path[-1]]))
        result = WorstPath(round(max(1.0, float(worst[start])), 4), tuple(path),
                           tuple(round(float(ratio[r]), 4) for r in path if up[r] > 0))
    return result
