"""Flows as NCCL makes them for a workload's collective, between the NICs of its servers.

Ranks sit in nodes (an NVLink domain: one HGX/DGX server, or the trays of an NVL72 rack), in
rank order: the order of the fabric (servers sorted by the switches they land on, what a
topology-aware launcher gives) or scattered (a random order per seed).  A node's NICs are its
servers' compute NIC links in (server, rail) order.

- **Channels.** NCCL runs C channels (`channels`, default NCCL's own: its ring graph's channels
  x 2, connect.cc "Duplication should be complete now": 16 on a DGX H100 with 8 NDR NICs).
  Runtime channel c is graph channel g = c mod C_graph, which uses the node's NIC
  g x NICs / C_graph: NIC i for channels i and i + 8 on a DGX, rail-aligned, so a channel stays
  on its rail (PXN, always on: NVIDIA/nccl issue 918).  Each channel's connection to a peer has
  `qps_per_connection` queue pairs (NCCL_IB_QPS_PER_CONNECTION, default 1, src/transport/net_ib/
  connect.cc), each its own flow (own UDP source port on RoCEv2, so own ECMP hash).
- **Ring** (all-reduce, all-gather, reduce-scatter): channel c connects node k to node k+1.
- **Tree** (all-reduce, NVLS tree across nodes): NCCL's double binary tree over the nodes
  (src/graph/trees.cc `ncclGetDtree`): channels below C_graph use the first tree, the
  duplicated ones the second (mirrored for an even node count, shifted by one for an odd);
  every tree edge carries data both ways (reduce up, broadcast down).
- **All-to-all**: every node pair; with PXN a GPU's data for a remote GPU leaves over the NIC of
  the rail of the destination GPU, so NIC r talks to NIC r of every other node
  (`p2p_channels_per_peer` channels, default 1: src/graph/paths.cc lowers nChannelsPerPeer to
  fit every peer in a round); without PXN (NCCL_PXN_DISABLE=1) GPU g's NIC talks to every
  remote GPU's NIC, across rails.  The NICs of one leaf and rail are pooled: every pair of
  them is the same flow class, each NIC carries its equal share.

A flow *class* is flows with the same source and destination switches that NCCL treats alike:
`n` flows, a group (the flows that move at one rate: a ring or tree channel; an all-to-all pair
of pools), and the NIC links its flows start and end on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix

from ..model import arrays
from .network import Network

#: pool pairs of an all-to-all the model builds (16 SUs with PXN: 2,048; without: 16,384;
#: about 50 SUs with PXN): each pair's flows spread over the paths between two leaves, and the
#: router holds every (pair, switch) it reaches
MAX_ALLTOALL_CLASSES = 20_000


class TooLarge(ValueError):
    """A collective with more flow classes than the model holds."""


@dataclass(frozen=True)
class Classes:
    """Flow classes as columns (see the module docstring)."""

    src: np.ndarray  # source switch row
    dst: np.ndarray  # destination switch row
    n: np.ndarray  # flows
    group: np.ndarray
    groups: int
    # NIC links each class's flows cross: (class, directed link, flows on that link)
    nic_class: np.ndarray
    nic_link: np.ndarray
    nic_flows: np.ndarray

    def __len__(self) -> int:
        return len(self.src)

    def take(self, keep: np.ndarray) -> Classes:
        """The classes `keep` (indices), renumbered, with their own groups and NIC links."""
        keep = np.asarray(keep, dtype=np.int64)
        new = np.full(len(self.src), -1, dtype=np.int64)
        new[keep] = np.arange(len(keep))
        on = new[self.nic_class] >= 0
        groups, group = np.unique(self.group[keep], return_inverse=True)
        return Classes(self.src[keep], self.dst[keep], self.n[keep], group.reshape(-1),
                       len(groups), new[self.nic_class[on]], self.nic_link[on],
                       self.nic_flows[on])


@dataclass(frozen=True)
class Nodes:
    """NCCL nodes in rank order and their NICs (indices into `Network.nics`)."""

    servers: list[list[int]]  # server rows per node
    nics: list[np.ndarray]  # NIC indices per node, in (server, rail) order

    def __len__(self) -> int:
        return len(self.servers)


def nodes_of(network: Network, servers: list[int], domain_servers: int) -> Nodes:
    """Servers (rows, in rank order) grouped into NVLink-domain nodes of `domain_servers`
    consecutive servers, each with its NICs; servers without a NIC link are left out."""
    nics = network.nics
    order = np.lexsort((nics.rail, nics.server))
    by_server: dict[int, np.ndarray] = {}
    if len(order):
        servers_sorted = nics.server[order]
        cut = np.flatnonzero(np.r_[True, servers_sorted[1:] != servers_sorted[:-1]])
        for start, stop in zip(cut.tolist(), [*cut[1:].tolist(), len(order)], strict=True):
            by_server[int(servers_sorted[start])] = order[start:stop]
    linked = [s for s in servers if s in by_server]
    size = max(domain_servers, 1)
    groups = [linked[i:i + size] for i in range(0, len(linked), size)]
    return Nodes(groups, [np.concatenate([by_server[s] for s in g]) for g in groups])


def _channel_nics(nodes: Nodes, channels: int, graph_channels: int) -> np.ndarray:
    """(channels x nodes) NIC index each runtime channel uses in each node."""
    table = np.empty((channels, len(nodes)), dtype=np.int64)
    g = np.arange(channels) % max(graph_channels, 1)
    for k, nics in enumerate(nodes.nics):
        table[:, k] = nics[(g * len(nics)) // max(graph_channels, 1) % len(nics)]
    return table


def _classes(network: Network, src_nic: np.ndarray, dst_nic: np.ndarray, n: np.ndarray,
             group: np.ndarray, groups: int) -> Classes:
    """Classes of single NICs at both ends."""
    nics = network.nics
    k = np.arange(len(src_nic))
    return Classes(nics.switch[src_nic], nics.switch[dst_nic], n.astype(np.int64),
                   group.astype(np.int64), groups,
                   np.concatenate([k, k]), np.concatenate([nics.up[src_nic], nics.down[dst_nic]]),
                   np.concatenate([n, n]).astype(float))


def ring(network: Network, nodes: Nodes, channels: int, graph_channels: int,
         qps: int) -> Classes:
    """Channel c's ring: node k to node k + 1 (mod nodes)."""
    table = _channel_nics(nodes, channels, graph_channels)
    count = len(nodes)
    src = table.ravel()
    dst = np.roll(table, -1, axis=1).ravel()
    group = np.repeat(np.arange(channels), count)
    return _classes(network, src, dst, np.full(len(src), qps), group, channels)


def btree_parents(nodes: int) -> np.ndarray:
    """trees.cc ncclGetBtree: the parent of every rank (-1 for the root 0)."""
    rank = np.arange(nodes, dtype=np.int64)
    parent = np.full(nodes, -1, dtype=np.int64)
    r = rank[1:]
    bit = r & -r  # lowest set bit
    up = (r ^ bit) | (bit << 1)
    up = np.where(up >= nodes, r ^ bit, up)
    parent[1:] = up
    return parent


def dtree_parents(nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """trees.cc ncclGetDtree: parents in the first tree and in the second (mirrored when the
    node count is even, shifted by one when odd)."""
    first = btree_parents(nodes)
    rank = np.arange(nodes, dtype=np.int64)
    if nodes % 2 == 1:
        shifted = first[(rank - 1) % nodes]
        second = np.where(shifted == -1, -1, (shifted + 1) % nodes)
    else:
        mirrored = first[nodes - 1 - rank]
        second = np.where(mirrored == -1, -1, nodes - 1 - mirrored)
    return first, second


def tree(network: Network, nodes: Nodes, channels: int, graph_channels: int,
         qps: int) -> Classes:
    """Channel c on tree (c // graph channels) mod 2: every edge both ways."""
    table = _channel_nics(nodes, channels, graph_channels)
    trees = dtree_parents(len(nodes))
    src_all, dst_all, groups = [], [], []
    for c in range(channels):
        parent = trees[(c // max(graph_channels, 1)) % 2]
        child = np.flatnonzero(parent >= 0)
        up, down = table[c, child], table[c, parent[child]]
        src_all += [up, down]
        dst_all += [down, up]
        groups.append(np.full(2 * len(child), c))
    src = np.concatenate(src_all) if src_all else np.zeros(0, np.int64)
    dst = np.concatenate(dst_all) if dst_all else np.zeros(0, np.int64)
    group = np.concatenate(groups) if groups else np.zeros(0, np.int64)
    return _classes(network, src, dst, np.full(len(src), qps), group, channels)


def _pool_pairs(rail: np.ndarray, pxn: bool) -> tuple[np.ndarray, np.ndarray]:
    """Ordered pool pairs: all of them, or (PXN) those on the same rail."""
    pools = np.arange(len(rail))
    if not pxn:
        a, b = np.meshgrid(pools, pools, indexing="ij")
        return a.ravel(), b.ravel()
    order = np.argsort(rail, kind="stable")
    cut = np.flatnonzero(np.r_[True, rail[order][1:] != rail[order][:-1], True])
    parts_a, parts_b = [], []
    for start, stop in zip(cut[:-1].tolist(), cut[1:].tolist(), strict=True):
        same = order[start:stop]
        a, b = np.meshgrid(same, same, indexing="ij")
        parts_a.append(a.ravel())
        parts_b.append(b.ravel())
    if not parts_a:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(parts_a), np.concatenate(parts_b)


def alltoall(network: Network, nodes: Nodes, channels_per_peer: int, qps: int,
             pxn: bool = True) -> Classes:
    """Every pair of nodes; NICs pooled per (switch, rail) (see the module docstring)."""
    nics = network.nics
    member = np.concatenate(nodes.nics) if len(nodes) else np.zeros(0, np.int64)
    node_of = np.full(len(nics.server), -1, dtype=np.int64)
    for k, idx in enumerate(nodes.nics):
        node_of[idx] = k
    member = member[np.argsort(member)]
    key = nics.switch[member] * 1_000_003 + nics.rail[member]
    pools, pool_of = arrays.unique(key, return_inverse=True)
    pool_of = pool_of.reshape(-1)
    sizes = np.bincount(pool_of, minlength=len(pools))
    rail_of_pool = np.zeros(len(pools), dtype=np.int64)
    switch_of_pool = np.zeros(len(pools), dtype=np.int64)
    rail_of_pool[pool_of] = nics.rail[member]
    switch_of_pool[pool_of] = nics.switch[member]
    # NIC pairs inside one node (NVLink carries them): (nodes x pools)^T (nodes x pools)
    node_pool = csr_matrix((np.ones(len(member)), (node_of[member], pool_of)),
                           shape=(len(nodes), len(pools)))
    inside = (node_pool.T @ node_pool).tocsr()
    per_rail = np.bincount(arrays.unique(rail_of_pool, return_inverse=True)[1].reshape(-1))
    expected = int((per_rail.astype(np.int64) ** 2).sum()) if pxn else len(pools) ** 2
    if expected > MAX_ALLTOALL_CLASSES:
        raise TooLarge(f"an all-to-all over {len(nodes)} nodes makes {expected:,} pairs of NIC "
                       f"pools (the traffic model holds {MAX_ALLTOALL_CLASSES:,})")
    a_idx, b_idx = _pool_pairs(rail_of_pool, pxn)
    pairs = sizes[a_idx] * sizes[b_idx] - np.asarray(inside[a_idx, b_idx]).ravel().astype(np.int64)
    keep = pairs > 0
    a_idx, b_idx, pairs = a_idx[keep], b_idx[keep], pairs[keep]
    n = pairs * channels_per_peer * qps
    count = len(a_idx)
    # NIC entries: each NIC of a pool carries its share of the class's flows
    members_of = [member[pool_of == p] for p in range(len(pools))]
    cls, link, flows = [], [], []
    for end, pool_idx in (("up", a_idx), ("down", b_idx)):
        per = n / sizes[pool_idx]
        reps = sizes[pool_idx]
        k = np.repeat(np.arange(count), reps)
        nic_idx = np.concatenate([members_of[p] for p in pool_idx.tolist()]) if count else \
            np.zeros(0, np.int64)
        cls.append(k)
        link.append(getattr(nics, end)[nic_idx])
        flows.append(np.repeat(per, reps))
    return Classes(switch_of_pool[a_idx], switch_of_pool[b_idx], n.astype(np.int64),
                   np.arange(count), count, np.concatenate(cls), np.concatenate(link),
                   np.concatenate(flows).astype(float))
