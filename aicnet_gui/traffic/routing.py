"""Routing flow classes over equal-cost next hops, switch by switch, by each switch's mode.

Flows advance one switch hop at a time, all at once (numpy over the whole set).  At switch `u`
a flow for destination switch `d` may take any directed link `u -> v` that brings it one hop
nearer (network.py); how the flows of a class divide over those links is the switch's mode:

- **ecmp**: each flow hashed to one next hop, a uniform choice, independently at every switch
  (a class of n flows splits multinomially: the distribution of n independent hashes);
- **least-loaded** (flowlet, adaptive routing): each flow to the next hop with the least load so
  far, load = flows on the link / its Gb/s; the flows at a switch are placed in a random order
  (the classes at one switch in rounds, each seeing the loads the earlier rounds left);
- **spray**: every flow split evenly over all next hops (per-packet spraying).

A class's flows that meet at one switch again travel on together.  A class with no path to its
destination (a partitioned or failed fabric) is marked unrouted.  The result is an incidence
list (class, directed link, flows): what max-min fairness (fairness.py) shares the links by.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..model import arrays
from .flows import Classes, TooLarge
from .network import UNREACHABLE, Network

ECMP, LEAST_LOADED, SPRAY = 0, 1, 2
#: next-hop candidates one hop may hold (~1 GB of columns); beyond, the flows are too many
MAX_CANDIDATES = 40_000_000
MODE_CODE = {"ecmp": ECMP, "flowlet": LEAST_LOADED, "adaptive": LEAST_LOADED, "spray": SPRAY}
MAX_HOPS = 32


class Cancelled(Exception):
    """The caller's cancel callback said stop."""


@dataclass(frozen=True)
class Routed:
    cls: np.ndarray
    link: np.ndarray
    flows: np.ndarray
    unrouted: np.ndarray  # bool per class


class Candidates:
    """Next-hop links per (switch, distance table) pair, worked out once per pair and kept
    (sorted codes -> ranges into one array of links), plus the parallel links to a neighbour."""

    def __init__(self, network: Network, tables: np.ndarray) -> None:
        self.net = network
        self.tables = tables
        self.codes = np.zeros(0, dtype=np.int64)
        self.start = np.zeros(0, dtype=np.int64)
        self.count = np.zeros(0, dtype=np.int64)
        self.links = np.zeros(0, dtype=np.int64)

    def _compute(self, codes: np.ndarray) -> None:
        net = self.net
        n = net.n_devices
        u, k = codes % n, codes // n
        deg = net.out_start[u + 1] - net.out_start[u]
        rep = np.repeat(np.arange(len(codes)), deg)
        offset = np.arange(len(rep)) - np.repeat(np.cumsum(deg) - deg, deg)
        link = net.out_links[net.out_start[u][rep] + offset]
        v = net.dst[link]
        here = self.tables[k[rep], u[rep]].astype(np.int64)
        ok = self.tables[k[rep], v].astype(np.int64) == here - 1
        rep, link = rep[ok], link[ok]
        count = np.bincount(rep, minlength=len(codes))
        start = len(self.links) + np.cumsum(count) - count
        self.links = np.concatenate([self.links, link])
        merged = np.concatenate([self.codes, codes])
        order = np.argsort(merged, kind="stable")
        self.codes = merged[order]
        self.start = np.concatenate([self.start, start])[order]
        self.count = np.concatenate([self.count, count])[order]

    def lookup(self, u: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(start, count) into `links` of the next hops from `u` on table `k`."""
        codes = k * self.net.n_devices + u
        at = np.searchsorted(self.codes, codes)
        known = (at < len(self.codes)) & (self.codes[np.minimum(at, len(self.codes) - 1)] == codes) \
            if len(self.codes) else np.zeros(len(codes), dtype=bool)
        if not known.all():
            self._compute(arrays.unique(codes[~known]))
            at = np.searchsorted(self.codes, codes)
        return self.start[at], self.count[at]

    def direct(self, u: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The parallel links u -> d: (positions into the network's pair_links, counts)."""
        net = self.net
        code = u * net.n_devices + d
        lo = np.searchsorted(net.pair_code, code, side="left")
        hi = np.searchsorted(net.pair_code, code, side="right")
        return lo, hi - lo, net.pair_links


def _positions(start: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index of the range, position) of every element of the ranges [start, start + count)."""
    rep = np.repeat(np.arange(len(start)), count)
    offset = np.arange(len(rep)) - np.repeat(np.cumsum(count) - count, count)
    return rep, start[rep] + offset


def _ecmp(state: np.ndarray, link: np.ndarray, count: np.ndarray, n: np.ndarray,
          w: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Children (state, link, flows, weight): n independent uniform choices per state."""
    first = np.cumsum(count) - count
    single = n == 1
    out_s, out_l, out_n, out_w = [], [], [], []
    if single.any():
        rows = np.flatnonzero(single)
        pick = (rng.random(len(rows)) * count[rows]).astype(np.int64)
        pos = first[rows] + pick
        out_s.append(rows)
        out_l.append(link[pos])
        out_n.append(np.ones(len(rows), dtype=np.int64))
        out_w.append(w[rows])
    many = np.flatnonzero(~single & (n > 0))
    if len(many):
        rem = n[many].copy()
        m = count[many]
        per = w[many] / n[many]
        for j in range(int(m.max())):
            on = np.flatnonzero((m > j) & (rem > 0))
            if not len(on):
                break
            k = rng.binomial(rem[on], 1.0 / (m[on] - j))
            rem[on] -= k
            got = k > 0
            rows = many[on[got]]
            out_s.append(rows)
            out_l.append(link[first[rows] + j])
            out_n.append(k[got])
            out_w.append(k[got] * per[on[got]])
    return _cat(out_s, out_l, out_n, out_w)


def _cat(*parts: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    return tuple(np.concatenate(p) if p else np.zeros(0) for p in parts)


def _least_loaded(state: np.ndarray, link: np.ndarray, count: np.ndarray, n: np.ndarray,
                  w: np.ndarray, sw: np.ndarray, load: np.ndarray, cap: np.ndarray,
                  rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Children: each flow to the least-loaded next hop (see the module docstring); `load`
    (flows per link) is updated in place."""
    states = len(count)
    first = np.cumsum(count) - count
    order = np.lexsort((rng.random(states), sw))
    sorted_sw = sw[order]
    group_start = np.flatnonzero(np.r_[True, sorted_sw[1:] != sorted_sw[:-1]])
    rank = np.empty(states, dtype=np.int64)
    rank[order] = np.arange(states) - np.repeat(group_start, np.diff(np.r_[group_start, states]))
    assigned = np.zeros(len(link), dtype=np.int64)
    jitter = rng.random(len(link)) * 1e-9
    per = np.divide(w, n, out=np.zeros(states), where=n > 0)
    usable = np.flatnonzero((count > 0) & (n > 0))
    by_rank = usable[np.argsort(rank[usable], kind="stable")]
    cuts = np.searchsorted(rank[by_rank], np.arange(int(rank.max()) + 2 if states else 1))
    for lo, hi in zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True):
        rows = by_rank[lo:hi]
        if not len(rows):
            continue
        c_rows, c_pos = _positions(first[rows], count[rows])
        got = _water_fill(c_rows, load[link[c_pos]] / cap[link[c_pos]] + jitter[c_pos],
                          cap[link[c_pos]] / per[rows][c_rows], n[rows])
        assigned[c_pos] += got
        np.add.at(load, link[c_pos], got * per[rows][c_rows])
    got = assigned > 0
    cand_state = np.repeat(np.arange(states), count)
    return (cand_state[got], link[got], assigned[got], assigned[got] * per[cand_state[got]])


def _water_fill(segment: np.ndarray, level: np.ndarray, width: np.ndarray,
                flows: np.ndarray) -> np.ndarray:
    """Whole flows per candidate, each segment's `flows` poured where the level is lowest:
    candidate j rises by 1 / width_j per flow (width: flows per unit of level, its capacity over
    a flow's weight).  The continuous water level of each segment, floored, the flows left
    over to the candidates closest to the next whole flow: what placing the flows one by one on
    the least-loaded candidate gives, in one pass."""
    order = np.lexsort((level, segment))
    seg, lvl, wid = segment[order], level[order], width[order]
    start = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
    base = np.repeat(start, np.diff(np.r_[start, len(seg)]))
    cum_w = np.cumsum(wid)
    cum_wl = np.cumsum(wid * lvl)
    before_w = np.r_[0.0, cum_w][base]
    before_wl = np.r_[0.0, cum_wl][base]
    w_in = cum_w - before_w  # width of this and the lower candidates of the segment
    wl_in = cum_wl - before_wl
    need = lvl * (w_in - wid) - (wl_in - wid * lvl)  # flows to raise the lower ones to this one
    fits = need <= flows[seg]
    last = np.maximum(np.bincount(seg, weights=fits, minlength=len(flows)).astype(np.int64), 1)
    at = start + last - 1
    water = (flows + (wl_in[at] if len(at) else 0)) / w_in[at]
    share = np.where(np.arange(len(seg)) - base < last[seg], (water[seg] - lvl) * wid, 0.0)
    share = np.maximum(share, 0.0)
    whole = np.floor(share + 1e-9)
    left = flows - np.bincount(seg, weights=whole, minlength=len(flows)).astype(np.int64)
    # the leftover flows: to the candidates with the largest fractions, one each
    frac_order = np.lexsort((-(share - whole), seg))
    rank = np.empty(len(seg), dtype=np.int64)
    rank[frac_order] = np.arange(len(seg)) - base  # segments keep their places in frac_order
    whole = whole + (rank < left[seg])
    out = np.empty(len(seg), dtype=np.int64)
    out[order] = whole.astype(np.int64)
    return out


def _spray(state: np.ndarray, link: np.ndarray, count: np.ndarray, n: np.ndarray,
           w: np.ndarray) -> tuple[np.ndarray, ...]:
    """Children: every next hop gets every flow, an equal share of its weight."""
    cand_state = np.repeat(np.arange(len(count)), count)
    return (cand_state, link, n[cand_state], w[cand_state] / count[cand_state])


def route(network: Network, classes: Classes, switch_mode: np.ndarray,
          rng: np.random.Generator, cancel: Callable[[], bool] | None = None) -> Routed:
    """Route every class from its source switch to its destination switch."""
    count = len(classes)
    unrouted = np.zeros(count, dtype=bool)
    moving = np.flatnonzero(classes.src != classes.dst)
    dests = arrays.unique(classes.dst[moving]) if len(moving) else np.zeros(0, np.int64)
    index, tables = network.distances(dests)
    table_of = np.full(network.n_devices, -1, dtype=np.int64)
    table_of[dests] = index
    cands = Candidates(network, tables)
    cls, sw = moving, classes.src[moving]
    n = classes.n[moving].astype(np.int64)
    w = n.astype(float)
    load = np.zeros(network.n_links)
    out_c, out_l, out_w = [], [], []
    for _hop in range(MAX_HOPS):
        if not len(cls):
            break
        if cancel is not None and cancel():
            raise Cancelled
        cand_link, ncand = _hop_candidates(cands, tables, table_of, classes.dst[cls], sw,
                                           cls, unrouted)
        children = _children(network, switch_mode[sw], cand_link, ncand, (sw, n, w), load, rng)
        if children is None:
            break
        parent, c_link, c_n, c_w = children
        c_cls = cls[parent]
        out_c.append(c_cls)
        out_l.append(c_link)
        out_w.append(c_w)
        nxt = network.dst[c_link]
        go_on = nxt != classes.dst[c_cls]
        cls, sw, n, w = _merge(c_cls[go_on], nxt[go_on], c_n[go_on], c_w[go_on], classes.n,
                               network.n_devices)
    if len(cls):
        unrouted[cls] = True
    empty = np.zeros(0)
    return Routed(np.concatenate(out_c).astype(np.int64) if out_c else empty.astype(np.int64),
                  np.concatenate(out_l).astype(np.int64) if out_l else empty.astype(np.int64),
                  np.concatenate(out_w) if out_w else empty, unrouted)


def _hop_candidates(cands: Candidates, tables: np.ndarray, table_of: np.ndarray, d: np.ndarray,
                    sw: np.ndarray, cls: np.ndarray, unrouted: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The next hops of every state (class `cls` at switch `sw`, bound for `d`) as one flat
    list of links and the count per state: the far states' from the cache, the near ones'
    (one hop from their destination) from the links between the pair.  Marks unrouted the
    classes with no path, or no next hop, from where they are."""
    k = table_of[d]
    there = tables[k, sw] if len(tables) else np.full(len(cls), UNREACHABLE)
    lost = there >= UNREACHABLE
    unrouted[cls[lost]] = True
    near = (there == 0) & ~lost
    far = ~near & ~lost
    start = np.zeros(len(cls), dtype=np.int64)
    ncand = np.zeros(len(cls), dtype=np.int64)
    s_far, c_far = cands.lookup(sw[far], k[far])
    start[far], ncand[far] = s_far, c_far
    lo, c_near, pool_near = cands.direct(sw[near], d[near])
    start[near], ncand[near] = lo, c_near
    if int(ncand.sum()) > MAX_CANDIDATES:
        raise TooLarge(f"{len(cls):,} flow groups at one hop with {int(ncand.sum()):,} next "
                       f"hops between them (the traffic model holds {MAX_CANDIDATES:,})")
    stuck = (ncand == 0) & ~lost
    unrouted[cls[stuck]] = True
    # one flat candidate list: the far states' from the cache, the near ones' from pairs
    cand_state = np.repeat(np.arange(len(cls)), ncand)
    offset = np.arange(len(cand_state)) - np.repeat(np.cumsum(ncand) - ncand, ncand)
    pool_pos = start[cand_state] + offset
    cand_link = np.where(near[cand_state], pool_near[np.minimum(pool_pos, len(pool_near) - 1)]
                         if len(pool_near) else 0,
                         cands.links[np.minimum(pool_pos, max(len(cands.links) - 1, 0))]
                         if len(cands.links) else 0)
    return cand_link, ncand


def _children(network: Network, mode: np.ndarray, cand_link: np.ndarray, ncand: np.ndarray,
              states: tuple[np.ndarray, np.ndarray, np.ndarray], load: np.ndarray,
              rng: np.random.Generator) -> tuple[np.ndarray, ...] | None:
    """(parent state, link, flows, weight) of every child: each state's flows spread over its
    next hops by its switch's mode (ECMP hashing, least loaded, spraying); None: no state
    has a next hop."""
    sw, n, w = states
    children = []
    for code in (ECMP, LEAST_LOADED, SPRAY):
        rows = np.flatnonzero((mode == code) & (ncand > 0))
        if not len(rows):
            continue
        sub_count = ncand[rows]
        sub_link = _gather(cand_link, np.cumsum(ncand) - ncand, rows, sub_count)
        if code == ECMP:
            got = _ecmp(rows, sub_link, sub_count, n[rows], w[rows], rng)
        elif code == LEAST_LOADED:
            got = _least_loaded(rows, sub_link, sub_count, n[rows], w[rows], sw[rows], load,
                                network.cap, rng)
        else:
            got = _spray(rows, sub_link, sub_count, n[rows], w[rows])
        s_idx, c_link, c_n, c_w = got
        children.append((rows[s_idx.astype(np.int64)], c_link.astype(np.int64),
                         c_n.astype(np.int64), c_w.astype(float)))
    if not children:
        return None
    return tuple(np.concatenate([c[i] for c in children]) for i in range(4))


def _gather(flat: np.ndarray, starts: np.ndarray, rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The candidates of `rows`, in row order, from the flat list."""
    rep = np.repeat(np.arange(len(rows)), counts)
    offset = np.arange(len(rep)) - np.repeat(np.cumsum(counts) - counts, counts)
    return flat[starts[rows][rep] + offset]


def _merge(cls: np.ndarray, sw: np.ndarray, n: np.ndarray, w: np.ndarray, class_n: np.ndarray,
           devices: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """States of one class at one switch travel on together: flows added (at most the class's
    own, when sprayed parts of the same flows meet), weights added."""
    if not len(cls):
        return cls, sw, n, w
    code = cls * devices + sw
    uniq, inverse = arrays.unique(code, return_inverse=True)
    inverse = inverse.reshape(-1)
    flows = np.bincount(inverse, weights=n, minlength=len(uniq)).astype(np.int64)
    weight = np.bincount(inverse, weights=w, minlength=len(uniq))
    m_cls = uniq // devices
    return m_cls, uniq % devices, np.minimum(flows, class_n[m_cls]), weight
