"""The fabric's graph facts worked out from the document, independently of the analysis: the
oracle the tests hold `analysis/fabric_paths.py` against.

The analysis reads connectivity, bisection and the worst path from its columns, incrementally
(fabric_paths.py).  These functions build a networkx view of the document for the same questions:
networkx for connectivity, hop counts and edge-disjoint paths, scipy's `maximum_flow` (imported
lazily) for the bisection.  Only tests use them (they were `aicnet_gui/analysis/graph.py`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from aicnet_gui.model.document import FabricDocument

if TYPE_CHECKING:
    import networkx as nx


def _fabric_links(doc: FabricDocument) -> Iterable[tuple[str, str, int]]:
    """(device a, device b, Gb/s) of every link between fabric ports of fabric devices."""
    for link in doc.links.values():
        pa = doc.port(link.a.device, link.a.port)
        pb = doc.port(link.b.device, link.b.port)
        if pa is None or pb is None or not (pa.group.fabric and pb.group.fabric):
            continue
        if doc.role_of(link.a.device).value == "mgmt" or doc.role_of(link.b.device).value == "mgmt":
            continue
        yield link.a.device, link.b.device, min(pa.speed_gbps, pb.speed_gbps)


def fabric_graph(doc: FabricDocument) -> nx.Graph:
    """Devices as nodes (with `tier`), parallel links merged into one edge with `capacity`
    (Gb/s) and `links` (count)."""
    import networkx as nx

    graph = nx.Graph()
    for device in doc.devices.values():
        graph.add_node(device.id, tier=doc.tier_of(device), name=device.name)
    for a, b, gbps in _fabric_links(doc):
        if graph.has_edge(a, b):
            graph[a][b]["capacity"] += gbps
            graph[a][b]["links"] += 1
        else:
            graph.add_edge(a, b, capacity=gbps, links=1)
    return graph


def components(doc: FabricDocument) -> list[set[str]]:
    """Connected groups of devices over fabric links, largest first."""
    import networkx as nx

    return sorted((set(c) for c in nx.connected_components(fabric_graph(doc))),
                  key=lambda c: (-len(c), min(c)))


def hops(doc: FabricDocument, a: str, b: str) -> int | None:
    """Links on the shortest path between two devices (None when not connected)."""
    import networkx as nx

    try:
        return nx.shortest_path_length(fabric_graph(doc), a, b)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


def path_diversity(doc: FabricDocument, a: str, b: str) -> int:
    """Edge-disjoint paths between two devices (parallel links count once)."""
    import networkx as nx
    from networkx.algorithms.connectivity import local_edge_connectivity

    graph = fabric_graph(doc)
    if a not in graph or b not in graph or not nx.has_path(graph, a, b):
        return 0
    return local_edge_connectivity(graph, a, b)


def bisection_halves(doc: FabricDocument, servers: Iterable[str]) -> tuple[list[str], list[str]]:
    """Split servers into two halves along the fabric: ordered by the switches their fabric
    links attach to (so a half is whole leaves / SUs where possible), then by id."""
    fabric = {(a, b) for a, b, _gbps in _fabric_links(doc)}

    def key(server: str) -> tuple[tuple[str, ...], str]:
        ends = ((lk.a.device, lk.b.device) for lk in doc.links_of(server))
        leaves = sorted({b if a == server else a for a, b in ends if (a, b) in fabric})
        return (tuple(leaves), server)

    ordered = sorted(servers, key=key)
    half = len(ordered) // 2
    return ordered[:half], ordered[half:]


def bisection_maxflow(doc: FabricDocument, servers: Iterable[str] | None = None) -> float:
    """Max-flow (Gb/s) from one half of the servers to the other (scipy, Dinic).

    `servers` defaults to every GPU server.  Each server is fed by a super source (first half)
    or drains into a super sink (second half) with the capacity of its linked NICs; every link
    carries its port speed in both directions.
    """
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_flow

    if servers is None:
        servers = [d.id for d in doc.devices.values() if doc.tier_of(d) == 0]
    first, second = bisection_halves(doc, servers)
    if not first or not second:
        return 0.0
    ids = list(doc.devices)
    index = {d: i for i, d in enumerate(ids)}
    source, sink = len(ids), len(ids) + 1
    capacity: dict[tuple[int, int], int] = {}
    nic: dict[str, int] = {}
    for a, b, gbps in _fabric_links(doc):
        ia, ib = index[a], index[b]
        capacity[(ia, ib)] = capacity.get((ia, ib), 0) + gbps
        capacity[(ib, ia)] = capacity.get((ib, ia), 0) + gbps
        nic[a] = nic.get(a, 0) + gbps
        nic[b] = nic.get(b, 0) + gbps
    for server in first:
        capacity[(source, index[server])] = nic.get(server, 0)
    for server in second:
        capacity[(index[server], sink)] = nic.get(server, 0)
    rows = np.fromiter((k[0] for k in capacity), dtype=np.int32, count=len(capacity))
    cols = np.fromiter((k[1] for k in capacity), dtype=np.int32, count=len(capacity))
    data = np.fromiter(capacity.values(), dtype=np.int32, count=len(capacity))
    graph = csr_matrix((data, (rows, cols)), shape=(len(ids) + 2, len(ids) + 2))
    return float(maximum_flow(graph, source, sink).flow_value)
