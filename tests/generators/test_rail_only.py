"""`--rail-planes`: a rail-only fabric (Wang, Ghobadi et al., arXiv 2307.12169v5), every rail
its own network and no spine joining two rails; checked with networkx on the links."""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest

from aicnet_gui.generators import GeneratorError, RailOptimizedParams, plan
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


@pytest.mark.parametrize(("sus", "asked"), [(1, {"tiers": "3"}), (1, {"tiers": "2"}),
                                            (1, {"core": QM9700}), (2, {"tiers": "3"})])
def test_tiers_above_a_one_switch_rail_are_refused(catalog, sus, asked):
    """1 SU of 32 DGX H100: a rail's 32 NICs fit one 64-port QM9700 (2 SUs: 64 NICs fill it),
    so a rail is one switch; --tiers 3 used to build a leaf -> spine -> core chain per rail
    (8/8/8 switches) that joins nothing.  Refused, saying why and what builds."""
    with pytest.raises(GeneratorError) as info:
        plan(catalog, RailOptimizedParams(sus=sus, server=DGX, leaf=QM9700, rail_planes=True,
                                          **asked))
    message = str(info.value)
    assert f"a rail's {32 * sus} NICs ({sus} SU x 32 nodes) fit one QM9700" in message
    assert "so each rail is one switch" in message
    assert "a spine above a rail's only leaf carries nothing" in message
    assert "no spine joins the rails" in message
    assert ("use --tiers auto" in message) == ("tiers" in asked)
    assert ("drop --core" in message) == ("core" in asked)
    assert "a rail needs a spine tier from 3 SUs of 32 nodes (96 NICs)" in message


def test_a_one_switch_rail_refusal_exits_2(tmp_path, capsys):
    """The CLI prints the refusal and exits 2, as every generator refusal."""
    from aicnet_gui.cli import main

    out = tmp_path / "x.fabric"
    code = main(["generate", "rail-optimized", "--sus", "1", "--rail-planes", "--tiers", "3",
                 "-o", str(out), "--no-media"])
    assert code == 2 and not out.exists()
    assert "so each rail is one switch" in capsys.readouterr().err


def test_multi_leaf_rails_still_build_three_tiers(catalog):
    """4 SUs of 32 DGX H100, --tiers 3, by hand: a rail has 4 x 32 = 128 NICs, a QM9700 leaf
    at 1:1 takes 32 down and 32 up, so 4 leaves per rail.  Pods of 2 leaves, 2 pods; in a pod
    2 spines, each leaf 32 up / 2 = 16 links per leaf-spine pair, a spine 2 x 16 = 32 down and
    32 up; spine j of both pods goes to 1 core (2 x 32 = 64 ports, all of a QM9700), so 2 cores
    per rail.  Per rail 4 + 4 + 2 switches; 8 rails: 32 leaves, 32 spines, 16 cores.  Every
    spine has 2 leaves below it and every core 2 spines: no tier is a chain."""
    fabric = plan(catalog, RailOptimizedParams(sus=4, server=DGX, leaf=QM9700, rail_planes=True,
                                               tiers="3"))
    got = counts(fabric)
    assert (got["leaf"], got["spine"], got["core"], fabric.tiers) == (32, 32, 16, 3)
    assert per_pair(fabric, "leaf-spine") == {16} and per_pair(fabric, "spine-core") == {32}
    for graph in _rails(fabric).values():
        roles = Counter(fabric.devices[i].role for i in graph.nodes)
        assert roles == {Role.LEAF: 4, Role.SPINE: 4, Role.CORE: 2}
        assert nx.is_connected(graph)
    below: dict[int, set[int]] = {}
    rank = {Role.LEAF: 0, Role.SPINE: 1, Role.CORE: 2}
    for link in fabric.links:
        a, b = fabric.devices[link.a].role, fabric.devices[link.b].role
        if Role.GPU_SERVER in (a, b):
            continue
        low, high = (link.a, link.b) if rank[a] < rank[b] else (link.b, link.a)
        below.setdefault(high, set()).add(low)
    assert {len(v) for v in below.values()} == {2}


def test_three_tiers_over_one_pod_are_refused(catalog):
    """1 SU (8 leaves) in three tiers is one spine-leaf group: each core would link one spine
    (the 8/8/8 fabric --tiers 3 used to build); refused, two tiers hold it.  2 SUs still build,
    by hand: 2 pods of one SU's 8 leaves; 8 spines per pod (a leaf's 32 up, 4 per spine), each
    32 down and 32 up; spine j of both pods to one core (2 x 32 = 64 ports): 16/16/8."""
    with pytest.raises(GeneratorError, match="each core links one spine, so the core tier joins "
                       "no two switches below it.*use two tiers \\(--tiers 2\\)"):
        plan(catalog, RailOptimizedParams(sus=1, server=DGX, leaf=QM9700, tiers="3"))
    got = counts(plan(catalog, RailOptimizedParams(sus=2, server=DGX, leaf=QM9700, tiers="3")))
    assert (got["leaf"], got["spine"], got["core"]) == (16, 16, 8)
