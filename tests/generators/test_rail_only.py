"""`--rail-planes`: a rail-only fabric (Wang, Ghobadi et al., arXiv 2307.12169v5), every rail
its own network and no spine joining two rails; checked with networkx on the links."""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest

from aicnet_gui.generators import RailOptimizedParams, plan
from aicnet_gui.model.catalog_entities import Role

from .test_counts import counts, per_pair

DGX, QM9700 = "nvidia-dgx-h100", "nvidia-qm9700"


def _rails(fabric) -> dict[str, nx.Graph]:
    """The switches of each rail and the links between them, as networkx graphs."""
    graphs: dict[str, nx.Graph] = {}
    for i, device in enumerate(fabric.devices):
        if device.role != Role.GPU_SERVER:
            graphs.setdefault(device.tags["rail"], nx.Graph()).add_node(i)
    for link in fabric.links:
        a, b = fabric.devices[link.a], fabric.devices[link.b]
        if Role.GPU_SERVER in (a.role, b.role):
            continue
        assert a.tags["rail"] == b.tags["rail"], "a link joins two rails"
        graphs[a.tags["rail"]].add_edge(link.a, link.b)
    return graphs


def test_one_su_rails_are_one_switch_each(catalog):
    """1 SU of 32 DGX H100: a rail's 32 NICs take 32 of a QM9700's 64 ports, all down: 8 rail
    switches, no spine, no uplink (the rail-optimized SU: 8 leaves and 4 spines)."""
    fabric = plan(catalog, RailOptimizedParams(sus=1, server=DGX, leaf=QM9700, rail_planes=True))
    assert counts(fabric) == {"gpu_server": 32, "leaf": 8, "spine": 0, "core": 0,
                              "server-leaf": 256}
    assert fabric.rail_planes and fabric.tiers == 1
    assert {r: g.number_of_nodes() for r, g in _rails(fabric).items()} == {
        str(r): 1 for r in range(1, 9)}
    nic_rails = Counter((link.b, link.rail) for link in fabric.links)
    assert all(fabric.devices[leaf].tags["rail"] == str(rail) for leaf, rail in nic_rails)


@pytest.mark.parametrize(("sus", "leaves", "spines", "tiers"), [(4, 32, 16, 2), (16, 128, 64, 2)])
def test_larger_rails_are_their_own_fat_trees(catalog, sus, leaves, spines, tiers):
    """A rail of more NICs than a switch holds is a two-tier fat tree of its own: 16 SUs of 32
    nodes give a rail 512 NICs on 16 leaves (32 down, 32 up) and 8 spines of 64 ports (4 links
    per pair); the whole fabric has 128 leaves and 64 spines where the rail-optimized fat tree
    needs 128 leaves, 128 spines and 64 cores (NVIDIA's 16-SU table): the spine joining the
    rails is the tier rail-only saves."""
    fabric = plan(catalog, RailOptimizedParams(sus=sus, server=DGX, leaf=QM9700, rail_planes=True))
    got = counts(fabric)
    assert (got["leaf"], got["spine"], got["core"], fabric.tiers) == (leaves, spines, 0, tiers)
    graphs = _rails(fabric)
    assert len(graphs) == 8
    for graph in graphs.values():
        assert nx.is_connected(graph)
        assert graph.number_of_nodes() == (leaves + spines) // 8
    assert per_pair(fabric, "leaf-spine") == {32 // (spines // 8)}
    if sus == 16:
        fat = plan(catalog, RailOptimizedParams(sus=16, server=DGX, leaf=QM9700))
        assert counts(fat)["spine"] == 128 and counts(fat)["core"] == 64
