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


def upper_ports(fabric, tier: str) -> set[int]:
    """How many ports each upper switch of a tier uses for it (links per spine, say)."""
    used: dict[int, int] = {}
    for link in fabric.links:
        if link.tier == tier:
            used[link.b] = used.get(link.b, 0) + 1
    return set(used.values())


def pairs(fabric, tier: str) -> int:
    """How many distinct (lower, upper) switch pairs a tier links."""
    return len({(link.a, link.b) for link in fabric.links if link.tier == tier})


def test_superpod_one_su(catalog):
    """1 SU of 32 DGX H100, QM9700 everywhere (NVIDIA's 1-SU design: 8 leaves, 4 spines).

    8 rails -> 8 leaves; a leaf has 32 ports down (one per node) and 32 up.  Every leaf links to
    every spine: 8 leaves x 32 up = 256 uplinks = 4 spines x 64 ports; 32 / 4 = 8 links per
    leaf-spine pair.  Links: 32 x 8 = 256 server-leaf, 8 x 32 = 256 leaf-spine.
    """
    fabric = plan(catalog, RailOptimizedParams(sus=1, server=DGX, leaf=QM9700, spine=QM9700))
    assert counts(fabric) == {"gpu_server": 32, "leaf": 8, "spine": 4, "core": 0,
                              "server-leaf": 256, "leaf-spine": 256}
    assert per_pair(fabric, "leaf-spine") == {8}
    assert pairs(fabric, "leaf-spine") == 8 * 4
    assert fabric.tiers == 2 and not fabric.rail_planes


def test_superpod_four_su(catalog):
    """4 SUs: 128 DGX, 32 leaves x 32 up = 1024 uplinks = 16 spines of 64 ports; every leaf to
    every spine: 32 / 16 = 2 links per pair, a spine uses 32 x 2 = 64 ports.  Links: 1024
    server-leaf, 1024 leaf-spine (SuperPOD B200 RA table: 4 SU -> 32 leaves, 16 spines, 1024
    node-leaf + 1024 leaf-spine cables)."""
    fabric = plan(catalog, RailOptimizedParams(sus=4, server=DGX, leaf=QM9700, spine=QM9700))
    assert counts(fabric) == {"gpu_server": 128, "leaf": 32, "spine": 16, "core": 0,
                              "server-leaf": 1024, "leaf-spine": 1024}
    assert per_pair(fabric, "leaf-spine") == {2}
    assert pairs(fabric, "leaf-spine") == 32 * 16


def test_superpod_31_nodes_rounds_uplinks_for_ecmp(catalog):
    """3 SUs of 31 nodes (one taken out for UFM): 24 leaves with 31 ports down.  Every leaf must
    reach every spine with the same number of links: S spines need u = a multiple of S >= 31
    uplinks per leaf and 24 x u / S <= 64 ports per spine.  S = 12..15 need u = 36..45 > the
    leaf's 33 free ports; S = 16 gives u = 32 (2 per pair), 24 x 2 = 48 ports per spine.  16
    spines, as the H100 RA's count table (3 SUs: 16 spines).  Links: 93 x 8 = 744 server-leaf
    and the 4 UFM appliances' links on the ports SU 1's leaves leave free (the RA's "compute and
    UFM" cables are 8 x nodes + 4), 24 x 32 = 768 leaf-spine."""
    fabric = plan(catalog, RailOptimizedParams(sus=3, nodes_per_su=31, server=DGX, leaf=QM9700,
                                               spine=QM9700))
    assert counts(fabric) == {"gpu_server": 93, "leaf": 24, "spine": 16, "core": 0,
                              "server-leaf": 744 + 4, "leaf-spine": 768}
    assert fabric.count(Role.STORAGE) == 4  # the UFM appliances
    assert per_pair(fabric, "leaf-spine") == {2}


def test_rail_optimized_core_on_request(catalog):
    """4 SUs with a core asked for.  Under a core a QM9700 spine has 32 ports down, 32 up, so a
    spine-leaf group (pod) holds at most 32 leaves = 4 SUs.  Pods of 1 SU: 8 leaves x 32 up on
    8 spines (4 per pair), 4 pods -> 32 spines; core group j joins spine j of the 4 pods: 4 x 32
    up = 128 = 2 cores -> 8 x 2 = 16 cores; 48 switches.  Pods of 2 SUs: 16 leaves on 16 spines
    (2 per pair), 2 pods -> 32 spines; core group j: 2 x 32 = 64 = 1 core -> 16 cores; also 48
    (the larger pod wins the tie).  Pods of 4 SUs: 32 + 32 = 64.  Links: 1024 per tier."""
    fabric = plan(catalog, RailOptimizedParams(sus=4, server=DGX, leaf=QM9700, spine=QM9700,
                                               core=QM9700))
    assert counts(fabric) == {"gpu_server": 128, "leaf": 32, "spine": 32, "core": 16,
                              "server-leaf": 1024, "leaf-spine": 1024, "spine-core": 1024}
    assert fabric.pods == 2 and fabric.tiers == 3
    assert per_pair(fabric, "leaf-spine") == {2}
    assert per_pair(fabric, "spine-core") == {32}


def test_superpod_sixteen_su_matches_nvidia_table(catalog):
    """16 SUs (512 DGX, 4,096 GPUs): two tiers would need 128 ports per spine, so a core tier is
    added.  Pods of 4 SUs (32 leaves, the most under a spine's 32 down ports): 4 pods x 32
    spines (1 link per pair) = 128 spines; core group j joins spine j of the 4 pods: 4 x 32 up =
    128 links = 2 cores of 64 -> 32 x 2 = 64 cores, 16 links per spine-core pair.  NVIDIA's
    table (SuperPOD B200 RA, 16 SU): 128 leaves, 128 spines, 64 cores, 4096 cables per tier."""
    fabric = plan(catalog, RailOptimizedParams(sus=16, server=DGX, leaf=QM9700, spine=QM9700))
    assert counts(fabric) == {"gpu_server": 512, "leaf": 128, "spine": 128, "core": 64,
                              "server-leaf": 4096, "leaf-spine": 4096, "spine-core": 4096}
    assert fabric.pods == 4 and fabric.tiers == 3
    assert per_pair(fabric, "leaf-spine") == {1}
    assert per_pair(fabric, "spine-core") == {16}
    assert any("two tiers cannot hold 16 SUs" in note for note in fabric.notes)


def test_rail_optimized_adds_a_core_when_two_tiers_cannot_hold(catalog):
    """80 SUs: 640 leaves.  Pods of 4 SUs (32 leaves): 20 pods x 32 spines = 640; core group j
    joins 20 spines x 32 up = 640 links: C cores must divide 32 with 20 x 32 / C <= 64 -> C = 16
    (2 links per spine-core pair) -> 32 x 16 = 512 cores.  Pods of 2 SUs tie (40 pods x 16 = 640
    spines, 16 x 32 = 512 cores); pods of 1 SU cannot fit a core group (80 spines > 64 ports).
    The larger pod wins: 20 pods.  Links: 2560 x 8 = 20480 per tier."""
    fabric = plan(catalog, RailOptimizedParams(sus=80, server=DGX, leaf=QM9700, spine=QM9700))
    assert counts(fabric) == {"gpu_server": 2560, "leaf": 640, "spine": 640, "core": 512,
                              "server-leaf": 20480, "leaf-spine": 20480, "spine-core": 20480}
    assert fabric.pods == 20
    assert any("two tiers cannot hold 80 SUs" in note for note in fabric.notes)


def test_rail_optimized_two_tiers_forced_is_refused_with_the_reason(catalog):
    with pytest.raises(GeneratorError) as err:
        plan(catalog, RailOptimizedParams(sus=16, server=DGX, leaf=QM9700, spine=QM9700,
                                          tiers="2"))
    message = str(err.value)
    assert "QM9700 has 64 ports" in message
    assert "128 leaves" in message and "at least 128 ports" in message
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


# NVIDIA DGX SuperPOD with DGX B300 on Quantum-X800 XDR InfiniBand, "DGX SuperPOD Architecture",
# Table 3 "Example Compute Fabric Components for DGX SuperPOD Counts"
# (docs.nvidia.com/dgx-superpod/reference-architecture/scalable-infrastructure-b300-xdr/latest/
# dgx-superpod-architecture.html): SU count, node count, GPU count, leaf, spine, node-leaf and
# leaf-spine cables.
B300_XDR_TABLE_3 = [
    (1, 72, 576, 8, 4, 576, 576),
    (2, 144, 1152, 16, 8, 1152, 1152),
    (4, 288, 2304, 32, 18, 2304, 2304),
    (8, 576, 4608, 64, 36, 4608, 4608),
    (18, 1296, 9216, 144, 72, 10368, 10368),
]
# NVIDIA DGX SuperPOD with DGX B300 on Spectrum-X (Spectrum-4 Ethernet), "DGX SuperPOD
# Architecture", Table 3 "Larger DGX SuperPOD component counts"
# (docs.nvidia.com/dgx-superpod/reference-architecture/scalable-infrastructure-b300/latest/
# dgx-superpod-architecture.html), same columns.
B300_SPECTRUM_X_TABLE_3 = [
    (1, 64, 512, 16, 8, 512, 512),
    (2, 128, 1024, 32, 16, 1024, 1024),
    (4, 256, 2048, 64, 32, 2048, 2048),
    (8, 512, 4096, 128, 64, 4096, 4096),
    (16, 1024, 8192, 256, 128, 8192, 8192),
]
B300, Q3400, SN5610 = "nvidia-dgx-b300", "nvidia-q3400-ra", "nvidia-sn5610"


def cages_used(catalog, fabric, tier: str, lower: bool) -> int:
    """Distinct cages that carry the links of a tier, on the lower (server or leaf) or upper
    end: NVIDIA's tables count a cable per 800G OSFP cage, whether it runs 1 x 800G or 2 x 400G."""
    from aicnet_gui.generators.hardware import server_block, switch_profile

    cage_of: dict[str, dict[str, int]] = {}  # model id -> port -> cage

    def cages(device) -> dict[str, int]:
        model = device.model
        if model.id not in cage_of:
            if device.role == Role.GPU_SERVER:
                block = server_block(model, fabric.speed)
            else:
                profile = switch_profile(model, fabric.speed)
                assert profile is not None
                block = profile.block
            cage_of[model.id] = dict(zip(block.ports, block.cages, strict=True))
        return cage_of[model.id]

    used = set()
    for link in fabric.links:
        if link.tier == tier:
            key, port = (link.a, link.a_port) if lower else (link.b, link.b_port)
            used.add((key, cages(fabric.devices[key])[port]))
    return len(used)


@pytest.mark.parametrize(("sus", "nodes", "gpus", "leaves", "spines", "node_leaf", "leaf_spine"),
                         B300_XDR_TABLE_3, ids=lambda v: str(v))
def test_b300_xdr_matches_nvidia_table(catalog, sus, nodes, gpus, leaves, spines, node_leaf,
                                       leaf_spine):
    """DGX B300 on Q3400-RA (144 XDR ports at 800G, 72 twin-port cages), SU of 72 nodes (the
    catalog's reference SU for InfiniBand): NVIDIA's Table 3 above.  A leaf has 72 ports down
    and 72 up; every leaf reaches every spine with the same number of links, which is why 4 SUs
    need 18 spines and not 16 (32 leaves x 72 up = 2,304 links; 72 / 16 is not whole, 72 / 18 =
    4 per pair, 128 of 144 spine ports used).  One 800G link per cable.  The table's 18-SU GPU
    count (9,216) is not 1,296 nodes x 8 GPUs = 10,368 (its own cable counts are 10,368): the
    nodes and cables are checked, the GPUs follow from them."""
    fabric = plan(catalog, RailOptimizedParams(sus=sus, server=B300, leaf=Q3400))
    assert fabric.tiers == 2 and fabric.speed == 800 and fabric.planes == 1
    assert counts(fabric) == {"gpu_server": nodes, "leaf": leaves, "spine": spines, "core": 0,
                              "server-leaf": node_leaf, "leaf-spine": leaf_spine}
    assert sum(d.model.gpus for d in fabric.devices if d.role == Role.GPU_SERVER) == nodes * 8
    assert gpus == nodes * 8 or sus == 18
    assert pairs(fabric, "leaf-spine") == leaves * spines
    assert per_pair(fabric, "leaf-spine") == {72 // spines}
    assert upper_ports(fabric, "leaf-spine") == {leaf_spine // spines}  # 144 or 128 of 144


@pytest.mark.parametrize(("sus", "nodes", "gpus", "leaves", "spines", "node_leaf", "leaf_spine"),
                         B300_SPECTRUM_X_TABLE_3, ids=lambda v: str(v))
def test_b300_spectrum_x_twin_plane_matches_nvidia_table(catalog, sus, nodes, gpus, leaves,
                                                         spines, node_leaf, leaf_spine):
    """DGX B300 on SN5610 with `--planes 2`, SU of 64 nodes: NVIDIA's Table 3 above (RA,
    Network Fabrics: "twin-planar design ... Each GPU has 2x 400GbE connectivity through two
    different planes").  Each ConnectX-8 cage runs 2 x 400G, leg k to plane k; per plane an SU
    has 8 leaves (one per rail) with 64 x 400G down and 64 up; an SN5610 has 128 ports at 400G,
    so one plane of S SUs needs 8 S x 64 / 128 = 4 S spines, each leaf linked to each with
    64 / (4 S) links; 16 SUs is the two-tier limit (128 leaves per plane).  The table counts
    one cable per 800G cage: node-leaf = the servers' compute cages (8 per node), leaf-spine =
    the leaves' uplink cages (32 per leaf); each cage carries two 400G links, so the fabric has
    twice as many links as the table has cables."""
    fabric = plan(catalog, RailOptimizedParams(sus=sus, server=B300, leaf=SN5610, planes=2))
    assert fabric.tiers == 2 and fabric.speed == 400 and fabric.planes == 2
    assert counts(fabric) == {"gpu_server": nodes, "leaf": leaves, "spine": spines, "core": 0,
                              "server-leaf": 2 * node_leaf, "leaf-spine": 2 * leaf_spine}
    assert sum(d.model.gpus for d in fabric.devices if d.role == Role.GPU_SERVER) == gpus
    assert cages_used(catalog, fabric, "server-leaf", lower=True) == node_leaf
    assert cages_used(catalog, fabric, "leaf-spine", lower=True) == leaf_spine
    planes = {d.tags["plane"] for d in fabric.devices if d.role != Role.GPU_SERVER}
    assert planes == {"1", "2"}
    for plane in planes:
        own = {i for i, d in enumerate(fabric.devices)
               if d.role != Role.GPU_SERVER and d.tags["plane"] == plane}
        assert sum(1 for i in own if fabric.devices[i].role == Role.LEAF) == leaves // 2
        assert sum(1 for i in own if fabric.devices[i].role == Role.SPINE) == spines // 2
    assert per_pair(fabric, "leaf-spine") == {64 // (spines // 2)}
    assert upper_ports(fabric, "leaf-spine") == {128}  # every 400G port of every spine


def test_b300_on_spectrum_x_without_planes_runs_each_nic_as_two_400g_ports(catalog):
    """ConnectX-8 has no 800GbE on a single port (CX-8 firmware release notes 40.44.0208):
    on Spectrum-X each NIC runs 2 x 400GbE.  One plane is then one fat tree of 16 rails with
    the switch counts of NVIDIA's twin-plane SU (64 nodes, 16 leaves, 8 spines: SuperPOD B300
    RA, Network Fabrics); the HGX B300 ERA supports a single plane."""
    fabric = plan(catalog, RailOptimizedParams(sus=1, server=B300, leaf=SN5610))
    assert fabric.speed == 400
    assert counts(fabric) == {"gpu_server": 64, "leaf": 16, "spine": 8, "core": 0,
                              "server-leaf": 1024, "leaf-spine": 1024}
    with pytest.raises(GeneratorError) as err:  # a NIC that does not split: no --planes hint
        plan(catalog, RailOptimizedParams(sus=1, nodes_per_su=40, leaf=QM9700))
    assert "--planes" not in str(err.value)


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


def test_no_common_speed_names_each_switch_model_once(catalog):
    # leaf and spine are one model (the default spine is the leaf's): the refusal lists the
    # SN4600C's speeds once, not once per tier
    with pytest.raises(GeneratorError) as err:
        plan(catalog, TwoTierParams(servers=8, leaf="nvidia-sn4600c", server=HGX))
    message = str(err.value)
    assert message.count("SN4600C:") == 1, message
