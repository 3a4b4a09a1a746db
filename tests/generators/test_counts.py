"""Switch and link counts per tier, derived by hand from the real port counts of the models.

Port facts used below (catalog): a QM9700 has 32 OSFP cages x 2 x 400G = 64 ports; an SN5600
has 64 OSFP cages, 2x400G each = 128 ports at 400G; a DGX H100 has 8 compute ports (4 twin-port
OSFP cages), a generic HGX server 8 QSFP112 ports, all at 400G.
"""

from __future__ import annotations

import pytest

from aicnet_gui.generators import (
    GeneratorError,
    RailOptimizedParams,
    ThreeTierParams,
    TwoTierParams,
    plan,
)
from aicnet_gui.model.catalog_entities import Role

DGX, HGX = "nvidia-dgx-h100", "generic-hgx-8-gpu-b3140h"
QM9700, SN5600 = "nvidia-qm9700", "nvidia-sn5600"


def counts(fabric) -> dict[str, int]:
    out = {role.value: fabric.count(role) for role in (Role.GPU_SERVER, Role.LEAF, Role.SPINE,
                                                        Role.CORE)}
    for link in fabric.links:
        out[link.tier] = out.get(link.tier, 0) + 1
    return out


def per_pair(fabric, tier: str) -> set[int]:
    """How many links join each connected (lower, upper) switch pair of a tier."""
    pairs: dict[tuple[int, int], int] = {}
    for link in fabric.links:
        if link.tier == tier:
            pairs[(link.a, link.b)] = pairs.get((link.a, link.b), 0) + 1
    return set(pairs.values())


def test_superpod_one_su(catalog):
    """1 SU of 32 DGX H100, QM9700 everywhere.

    8 rails -> 8 leaves; a leaf has 32 ports down (one per node) and 32 up.  One rail of one SU
    needs 32 spine ports, so two rails share a 64-port spine: 4 rail groups x 1 spine = 4 spines
    (the SuperPOD RA's 1-SU count).  Links: 32 x 8 = 256 server-leaf, 8 x 32 = 256 leaf-spine,
    32 links between each leaf and its spine.
    """
    fabric = plan(catalog, RailOptimizedParams(sus=1, server=DGX, leaf=QM9700, spine=QM9700))
    assert counts(fabric) == {"gpu_server": 32, "leaf": 8, "spine": 4, "core": 0,
                              "server-leaf": 256, "leaf-spine": 256}
    assert per_pair(fabric, "leaf-spine") == {32}
    assert fabric.tiers == 2


def test_superpod_four_su(catalog):
    """4 SUs: 128 DGX, 32 leaves.  A rail group is one rail across 4 SUs: 4 leaves x 32 up =
    128 ports = 2 spines of 64; 8 rails -> 16 spines; each leaf sends 16 links to each of its 2
    spines.  Links: 128 x 8 = 1024 server-leaf, 32 x 32 = 1024 leaf-spine (as in the SuperPOD
    B200 RA table: 4 SU -> 1024 node-leaf + 1024 leaf-spine cables)."""
    fabric = plan(catalog, RailOptimizedParams(sus=4, server=DGX, leaf=QM9700, spine=QM9700))
    assert counts(fabric) == {"gpu_server": 128, "leaf": 32, "spine": 16, "core": 0,
                              "server-leaf": 1024, "leaf-spine": 1024}
    assert per_pair(fabric, "leaf-spine") == {16}


def test_superpod_31_nodes_rounds_uplinks_for_ecmp(catalog):
    """3 SUs of 31 nodes (one taken out for UFM): a leaf has 31 down.  A rail group of 3 leaves
    x 31 = 93 > 64 ports needs 2 spines, and each leaf must reach both equally, so it gets
    32 up (16 per spine); each spine uses 3 x 16 = 48 ports.  Spines: 8 x 2 = 16.  Links:
    93 x 8 = 744 server-leaf, 24 x 32 = 768 leaf-spine."""
    fabric = plan(catalog, RailOptimizedParams(sus=3, nodes_per_su=31, server=DGX, leaf=QM9700,
                                               spine=QM9700))
    assert counts(fabric) == {"gpu_server": 93, "leaf": 24, "spine": 16, "core": 0,
                              "server-leaf": 744, "leaf-spine": 768}
    assert per_pair(fabric, "leaf-spine") == {16}


def test_rail_optimized_core_on_request(catalog):
    """4 SUs with a core asked for.  Under a core a QM9700 spine has 32 ports down, 32 up.
    Pod size by fewest switches: 2 SUs per pod -> 2 pods; per pod and rail 2 leaves x 32 up =
    64 = 2 spines (16 links per leaf-spine pair) -> 2 x 8 x 2 = 32 spines; core group (rail r,
    spine j) joins 2 spines x 32 up = 64 ports = 1 core -> 8 x 2 x 1 = 16 cores.  (1 SU per pod
    also gives 48 switches; the larger pod wins the tie.)  Links: 1024 per tier."""
    fabric = plan(catalog, RailOptimizedParams(sus=4, server=DGX, leaf=QM9700, spine=QM9700,
                                               core=QM9700))
    assert counts(fabric) == {"gpu_server": 128, "leaf": 32, "spine": 32, "core": 16,
                              "server-leaf": 1024, "leaf-spine": 1024, "spine-core": 1024}
    assert fabric.pods == 2 and fabric.tiers == 3
    assert per_pair(fabric, "leaf-spine") == {16}
    assert per_pair(fabric, "spine-core") == {32}


def test_rail_optimized_adds_a_core_when_two_tiers_cannot_hold(catalog):
    """80 SUs: a rail group of 80 leaves would need 80 ports per spine (QM9700 has 64), so a
    core tier is added.  Pods: with u = 32 up per leaf, S spines per pod-rail must divide 32 and
    hold p x 32 / S <= 32 down ports.  p = 16 SUs per pod: 5 pods, S = 16, spines 5 x 8 x 16 =
    640; core group (rail, j) gets 5 spines x 32 up = 160 links -> C = 4 cores of 40 ports ->
    8 x 16 x 4 = 512 cores; 1,152 switches above the leaves (p = 2, 4, 8 tie; the largest pod
    that divides 80 wins).  Links: 2560 x 8 = 20480 per tier."""
    fabric = plan(catalog, RailOptimizedParams(sus=80, server=DGX, leaf=QM9700, spine=QM9700))
    assert counts(fabric) == {"gpu_server": 2560, "leaf": 640, "spine": 640, "core": 512,
                              "server-leaf": 20480, "leaf-spine": 20480, "spine-core": 20480}
    assert fabric.pods == 5
    assert any("two tiers cannot hold 80 SUs" in note for note in fabric.notes)


def test_rail_optimized_two_tiers_forced_is_refused_with_the_reason(catalog):
    with pytest.raises(GeneratorError) as err:
        plan(catalog, RailOptimizedParams(sus=80, server=DGX, leaf=QM9700, spine=QM9700,
                                          tiers="2"))
    message = str(err.value)
    assert "QM9700 has 64 ports" in message
    assert "80 spine ports" in message
    assert "add a core tier" in message and "nvidia-q3400-ra" in message


def test_two_tier_hgx_on_sn5600(catalog):
    """64 HGX, SN5600 at 1:1: an SN5600 has 128 ports at 400G -> 64 down + 64 up, so one
    rail-aligned group of 8 leaves holds all 64 servers.  Uplinks 8 x 64 = 512 = 4 spines of
    128; 64 / 4 = 16 links per leaf-spine pair.  Links 512 + 512."""
    fabric = plan(catalog, TwoTierParams(servers=64, server=HGX, leaf=SN5600))
    assert counts(fabric) == {"gpu_server": 64, "leaf": 8, "spine": 4, "core": 0,
                              "server-leaf": 512, "leaf-spine": 512}
    assert per_pair(fabric, "leaf-spine") == {16}


def test_two_tier_tor_three_to_one(catalog):
    """48 HGX, SN5600 at 3:1, one leaf per server group: 96 down + 32 up; 96 / 8 NICs = 12
    servers per leaf -> 4 leaves; 4 x 32 = 128 uplinks fit one spine, but two spines are the
    minimum for redundancy -> 2 spines, 16 links per pair.  Links 384 + 128."""
    fabric = plan(catalog, TwoTierParams(servers=48, server=HGX, leaf=SN5600,
                                         oversubscription=3, attach="tor"))
    assert counts(fabric) == {"gpu_server": 48, "leaf": 4, "spine": 2, "core": 0,
                              "server-leaf": 384, "leaf-spine": 128}
    assert per_pair(fabric, "leaf-spine") == {16}


def test_two_tier_largest_qm9700(catalog):
    """256 DGX on QM9700 at 1:1: 32 servers per rail group -> 8 groups x 8 = 64 leaves with 32
    up; 64 x 32 = 2048 = 32 spines of 64, one link per leaf-spine pair (the two-tier limit:
    64 leaves).  Links 2048 + 2048."""
    fabric = plan(catalog, TwoTierParams(servers=256, server=DGX, leaf=QM9700))
    assert counts(fabric) == {"gpu_server": 256, "leaf": 64, "spine": 32, "core": 0,
                              "server-leaf": 2048, "leaf-spine": 2048}
    assert per_pair(fabric, "leaf-spine") == {1}


def test_two_tier_too_many_leaves_says_why(catalog):
    """300 DGX need 10 groups x 8 = 80 leaves; a 64-port spine can't reach 80 leaves."""
    with pytest.raises(GeneratorError) as err:
        plan(catalog, TwoTierParams(servers=300, server=DGX, leaf=QM9700))
    message = str(err.value)
    assert "80 leaves" in message and "three-tier" in message and "nvidia-q3400-ra" in message


def test_three_tier_512(catalog):
    """512 DGX, QM9700 at 1:1: 16 groups x 8 = 128 leaves with 32 up.  Pods of 32 leaves (4
    groups): 4 pods; per pod 32 x 32 / 32 = 32 spines (one link per pair) -> 128 spines; core
    group j joins 4 spines x 32 up = 128 -> 2 cores -> 32 x 2 = 64 cores.  (Pods of 8 or 16
    leaves also need 192 switches; the larger pod wins.)  Links 4096 per tier."""
    fabric = plan(catalog, ThreeTierParams(servers=512, server=DGX, leaf=QM9700))
    assert counts(fabric) == {"gpu_server": 512, "leaf": 128, "spine": 128, "core": 64,
                              "server-leaf": 4096, "leaf-spine": 4096, "spine-core": 4096}
    assert fabric.pods == 4
    assert per_pair(fabric, "spine-core") == {16}


def test_three_tier_4096(catalog):
    """4096 DGX (the performance reference): 1024 leaves, 32 pods of 32 leaves, 32 spines per
    pod = 1024 spines; core group j joins 32 spines x 32 up = 1024 links = 16 cores -> 512
    cores; 32768 links per tier (98,304 in all)."""
    fabric = plan(catalog, ThreeTierParams(servers=4096, server=DGX, leaf=QM9700))
    assert counts(fabric) == {"gpu_server": 4096, "leaf": 1024, "spine": 1024, "core": 512,
                              "server-leaf": 32768, "leaf-spine": 32768, "spine-core": 32768}


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        (RailOptimizedParams(sus=1, nodes_per_su=40, leaf=QM9700),
         "an SU holds at most 32 nodes, not 40"),
        (TwoTierParams(servers=8, leaf=QM9700, spine="nvidia-sn5600"),
         "do not share a technology"),
        (TwoTierParams(servers=8, leaf="nvidia-sn4600c", server=HGX),
         "share no port speed"),
        (TwoTierParams(servers=8, leaf="no-such-switch"), "not in the catalog"),
        (TwoTierParams(servers=8, server=QM9700), "not a GPU server"),
    ],
)
def test_impossible_parameters_are_explained(catalog, params, expected):
    with pytest.raises(GeneratorError, match=expected):
        plan(catalog, params)
