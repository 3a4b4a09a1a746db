"""The `rail-optimized` template: scalable units (SU) as in NVIDIA DGX SuperPOD designs.

NIC i of every server of an SU goes to the SU's leaf i (rail i: one hop between the nodes of an
SU on one rail); a leaf has as many ports up as down.  Above the leaves the fabric is a fat
tree, as NVIDIA's reference architectures wire it (shared/reference/hardware.md, R1-R5): "traffic
between nodes, or between rails, traverses the spine layer".  In two tiers every leaf links to
every spine with the same number of links (one spine-leaf group, SLG: the 1-SU design has 8
leaves, 4 spines and 8 links per leaf-spine pair); when one SLG cannot hold all leaves with the
spine's radix, SUs are grouped into SLGs (pods) and core group j links spine j of every SLG
(16 SUs of DGX H100 on QM9700: 128 leaves, 128 spines, 64 cores, as NVIDIA's table).

A DGX SuperPOD on InfiniBand also gets the four UFM appliances NVIDIA's H100 reference
architecture lists (Table 7), each with one link into the compute fabric (Table 4 counts 8 x
nodes + 4 "compute and UFM" cables): on the leaf ports a removed DGX leaves free (rails 1-4 of SU
1, `--nodes-per-su 31` as the RA's 31-node SU), placed with the spines; a fabric whose leaves
have no free port (32 nodes per SU) gets a note instead (`_add_ufm`).

A leaf whose ports hold more than one SU's rail at 1:1 carries the same rail of several SUs
(`leaf_groups.py`: a 128-port SN5600 takes two 32-node DGX H100 SUs), so no port stays idle.

`--rail-planes` builds the other, explicitly named design (`rail_only.py`): every rail its own
network and no spine joining the rails ("rail-only", Wang et al.); traffic between rails must
cross NVLink inside a server.  The choice is recorded in the file (`settings.rail_planes`) so
the analysis reports the islands as intended instead of as a partitioned fabric.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..model.catalog import Catalog
from ..model.catalog_entities import Role
from ..model.wording import counted
from .clos import larger_switches, or_use, spine_block
from .errors import GeneratorError
from .hardware import PortBlock, lookup_model, server_block, switch_profile
from .leaf_groups import LeafGroup, leaf_group
from .leaf_spine import (
    LeafPlan,
    choose_pod_or_explain,
    three_tier_sizing,
    wire_three_tier,
    wire_two_tier,
)
from .plan import FabricPlan, SwitchBlock
from .rail_only import one_switch_holds, plan_rail_only, rail_hardware
from .template_hardware import PLANE, Hardware, half_capacity, resolve_hardware, spine_of
from .template_params import RailOptimizedParams

DEFAULT_SU_NODES = 32
"""Servers per SU when neither the user nor the server model's reference design gives one."""

UFM = "nvidia-ufm-enterprise-appliance"
UFM_APPLIANCES = 4
"""UFM appliances of a DGX SuperPOD (H100 RA, Table 7), one compute-fabric link each (Table 4)."""


def with_su_size(catalog: Catalog, params: RailOptimizedParams) -> RailOptimizedParams:
    """`params` with `nodes_per_su` filled in: the one asked for, else the server model's
    reference SU for the fabric technology (DGX H100 on InfiniBand: 32; DGX B300: 64 on
    Spectrum-X, 72 on Quantum-X800; NVL72 compute trays: NVIDIA's 8 racks of 18 when one leaf
    per rail holds them, else the most whole racks it holds, see `rack_system_su`), else 32."""
    if params.nodes_per_su is not None:
        return params
    hw = _sizing_hardware(catalog, params)
    return params.model_copy(update={"nodes_per_su": reference_su_nodes(hw, params.technology)})


def _sizing_hardware(catalog: Catalog, params: RailOptimizedParams) -> Hardware:
    """The hardware an SU is sized on: at the plane ports' speed in a multi-plane fabric (a
    GB300 tray at 2 x 400G holds three NVL72 racks per SN5610 leaf, not one at 800G)."""
    if params.planes > 1:
        from .planes import plane_speed

        try:
            return resolve_hardware(catalog, params.server, params.leaf, spine_of(params),
                                    params.core, plane_speed(catalog, params))
        except GeneratorError:
            pass  # the planner refuses these planes with the reason; size the SU as unsplit
    return resolve_hardware(catalog, params.server, params.leaf, spine_of(params), params.core,
                            params.speed_gbps)


def reference_su_nodes(hw: Hardware, technology: str) -> int:
    """The server model's reference SU size on this fabric's technology, else the SU of its
    rack-scale system (`rack_system_su`: NVIDIA's 8 NVL72 racks, or the most whole racks one
    leaf per rail holds), else 32."""
    if technology == "auto":
        tech = "infiniband" if "infiniband" in hw.technologies else "ethernet"
    else:
        tech = "infiniband" if technology == "infiniband" else "ethernet"
    for key, nodes in hw.server.su_nodes.items():
        if key == tech:
            return nodes
    system = hw.server.rack_system
    if system is not None and system.su_racks is not None:
        return rack_system_su(hw)[0]
    return DEFAULT_SU_NODES


def rack_system_su(hw: Hardware) -> tuple[int, str | None]:
    """(nodes per SU, a note or None) for servers that come in a rack-scale system: the vendor's
    SU of `su_racks` racks when one leaf per rail holds it, else the most whole racks one leaf
    per rail holds (an NVL72 SU of 144 trays needs 144 ports down per rail; a Q3400-RA leaf
    gives 72, so SUs of 4 racks)."""
    system = hw.server.rack_system
    assert system is not None and system.su_racks is not None
    reference = system.su_racks * system.devices
    most = half_capacity(hw.leaf)
    if reference <= most or most < system.devices:
        return reference, None
    racks = most // system.devices
    return racks * system.devices, (
        f"NVIDIA's SU is {counted(system.su_racks, system.name)} ({reference} "
        f"{hw.server.model}s); a {hw.leaf.model.model} leaf per rail takes {most} of them at 1:1, "
        f"so each SU here is {counted(racks, 'rack')} ({racks * system.devices} nodes); "
        "--nodes-per-su sets another size")


def plan_rail_optimized(catalog: Catalog, params: RailOptimizedParams) -> FabricPlan:
    hw = _sizing_hardware(catalog, params)
    note = _rack_system_su_note(hw, params)
    params = with_su_size(catalog, params)
    _check_whole_racks(hw, params)
    if params.planes > 1:
        from .planes import plan_planes

        plan = plan_planes(catalog, params, plan_one_plane)
    else:
        plan = plan_one_plane(catalog, params, None)
    if note:
        plan.notes.insert(0, note)
    if params.planes == 1 and not params.rail_planes:
        _add_ufm(catalog, plan, hw)
    return plan


def _add_ufm(catalog: Catalog, plan: FabricPlan, hw: Hardware) -> None:
    """The UFM appliances of a DGX SuperPOD (an InfiniBand fabric of a server whose reference
    design is an InfiniBand SU), placed with the spines, each linked to a free leaf port of SU 1
    (one leaf each, in rail order, the link on that leaf's rail); none, and a note, when SU 1's
    leaves have no free port."""
    if ("infiniband" not in hw.technologies or "infiniband" not in hw.server.su_nodes
            or UFM not in catalog.devices or not plan.cells):
        return
    model = catalog.device(UFM)
    try:
        port = server_block(model, hw.speed).ports[0]
    except GeneratorError:
        plan.notes.append(f"the SuperPOD's UFM appliances are not added: the catalog's {model.model} "
                          f"runs NDR 400G, not this fabric's {hw.speed}G")
        return
    used = {(link.a, link.a_port) for link in plan.links} | {(link.b, link.b_port)
                                                             for link in plan.links}
    free = [(leaf, name) for leaf in plan.cells[0].leaves
            for name in hw.leaf.block.ports if (leaf, name) not in used]
    if not free:
        plan.notes.append(
            f"no UFM appliance added: every leaf port is taken; NVIDIA's SuperPOD RA removes one "
            f"DGX of the fabric for UFM connectivity (31, 63, 95, 127 nodes for 1-4 SUs) and "
            f"cables {UFM_APPLIANCES} UFM appliances there: --nodes-per-su 31 adds them")
        return
    tags = {"pod": "1", "plane": PLANE, "function": "ufm"}
    appliances = [plan.add_device(Role.STORAGE, model, dict(tags), {})
                  for _ in range(UFM_APPLIANCES)]
    free_by_leaf: dict[int, str] = {}
    for leaf, name in free:
        free_by_leaf.setdefault(leaf, name)
    targets = list(free_by_leaf.items())[:UFM_APPLIANCES]
    for appliance, (leaf, name) in zip(appliances, targets, strict=False):
        rail = plan.devices[leaf].tags.get("rail")  # the link is on its leaf's rail
        plan.connect(appliance, port, leaf, name, "server-leaf", int(rail) if rail else None)
    plan.blocks.append(SwitchBlock("UFM appliances", appliances, 0))
    linked = len(targets)
    plan.sizing.append(f"UFM: {UFM_APPLIANCES} {model.model}s (NVIDIA's SuperPOD RA), "
                       f"{linked} linked to the compute leaves")
    if linked < UFM_APPLIANCES:
        plan.notes.append(
            f"{UFM_APPLIANCES - linked} of the {UFM_APPLIANCES} UFM appliances have no "
            "compute-fabric link: SU 1's leaves have no more free ports; wire them by hand")


def _check_whole_racks(hw: Hardware, params: RailOptimizedParams) -> None:
    """Servers of a rack-scale system (NVL72 trays) come in whole racks: SUs x nodes per SU
    must fill them; else the error names the SU sizes, and the SU counts, that would."""
    system = hw.server.rack_system
    n, sus = params.nodes_per_su, params.sus
    assert n is not None
    if system is None or (n * sus) % system.devices == 0:
        return
    per = system.devices
    step = per // math.gcd(per, sus)  # nodes per SU go up in steps of this
    most = half_capacity(hw.leaf)
    sizes = [m for m in (n // step * step, n // step * step + step) if 0 < m <= most]
    every = per // math.gcd(per, n)  # SU counts that fill whole racks with n per SU
    ways = [f"--nodes-per-su {' or '.join(map(str, sizes))}"] if sizes else []
    ways.append(f"--sus {-(-sus // every) * every} with {n} per SU")
    raise GeneratorError(
        f"{hw.server.model}s come in {system.name}s of {per}: {counted(sus, 'SU')} x {n} = "
        f"{sus * n} do not fill whole racks; use " + ", or ".join(ways))


def _rack_system_su_note(hw: Hardware, params: RailOptimizedParams) -> str | None:
    """Why an SU of rack-scale servers is smaller than its vendor's SU, when it is the size
    one leaf per rail holds (the default `with_su_size` gave it)."""
    system = hw.server.rack_system
    if system is None or system.su_racks is None:
        return None
    nodes, note = rack_system_su(hw)
    return note if params.nodes_per_su in (None, nodes) else None


PlaneOf = tuple[int, int] | None
"""(plane index from 0, number of planes) of a plane being planned, or None for one plane."""


def _resolve(catalog: Catalog, params: RailOptimizedParams, core: str | None,
             plane: PlaneOf, rail: int | None = None) -> Hardware:
    """The hardware of the fabric, or of one plane: then the server's compute ports are leg
    `p` of every NIC (its port to plane p), still in rail order; with `rail` (from 0) only
    that rail's port (one rail of a rail-only fabric)."""
    hw = resolve_hardware(catalog, params.server, params.leaf, spine_of(params), core,
                          params.speed_gbps)
    if plane is not None:
        p, count = plane
        block = hw.server_ports
        ports = PortBlock(block.ports[p::count], block.cages[p::count], block.legs[p::count],
                          block.overrides)
        hw = replace(hw, server_ports=ports)
    return hw if rail is None else rail_hardware(hw, rail)


def plan_one_plane(catalog: Catalog, params: RailOptimizedParams, plane: PlaneOf,
                   rail: int | None = None) -> FabricPlan:
    """The rail-optimized fat tree of the whole fabric, or of one plane of a multi-plane one
    (or of one rail of a rail-only fabric)."""
    assert params.nodes_per_su is not None
    if params.tiers == "2" and params.core is not None:
        raise GeneratorError("--core asks for a core tier but --tiers 2 forbids one; drop one")
    hw = _resolve(catalog, params, params.core, plane, rail)
    n = params.nodes_per_su
    leaf = hw.leaf
    u_max = leaf.max_split(n)
    if u_max < n and not (params.rail_planes and one_switch_holds(hw, params)):
        most = half_capacity(leaf)
        raise GeneratorError(
            f"{leaf.describe()}; a rail-optimized leaf has as many ports up as down, so an SU "
            f"holds at most {most} nodes, not {n}; "
            + (_planes_hint(catalog, params, n) if plane is None else "")
            + f"use --nodes-per-su {most} or a leaf with more ports"
            + or_use(larger_switches(catalog, hw.speed, hw.technologies, 2 * n, leaf.model.id))
        )
    if params.rail_planes:
        one_rail = params.model_copy(update={"rail_planes": False})
        return plan_rail_only(hw, params, lambda r: plan_one_plane(catalog, one_rail, plane, r))
    group = leaf_group(hw, params)
    lp = group.leaf_plan(hw)
    if params.core is None and params.tiers != "3":
        fit = spine_block(lp.leaves, lp.u_min, lp.u_max, hw.spine.ports)
        if fit is not None:
            return _fat_tree_two_tiers(hw, params, lp, group, *fit)
        if params.tiers == "2":
            spine = hw.spine
            raise GeneratorError(
                f"{spine.describe()}; {params.sus} SUs have {lp.leaves} leaves, and in two tiers "
                f"every leaf reaches every spine, so a spine needs at least {lp.leaves} ports; "
                "add a core tier (--tiers 3 or --core ID)"
                + or_use(larger_switches(catalog, hw.speed, hw.technologies, lp.leaves,
                                         spine.model.id))
            )
        hw = _resolve(catalog, params, spine_of(params), plane, rail)
        plan = _fat_tree_three_tiers(catalog, hw, params, lp, group)
        plan.notes.append(
            f"two tiers cannot hold {params.sus} SUs: {lp.leaves} leaves each need a link to "
            f"every spine and {hw.spine.describe()}; a core tier of {hw.spine.model.model} was "
            "added"
        )
        return plan
    if hw.core is None:
        hw = _resolve(catalog, params, spine_of(params), plane, rail)
    return _fat_tree_three_tiers(catalog, hw, params, lp, group)


def _planes_hint(catalog: Catalog, params: RailOptimizedParams, n: int) -> str:
    """'with --planes P ...; or ' when splitting each NIC over P planes lets the leaf hold the SU
    (a DGX B300 SU of 64 on SN5610: NVIDIA's Spectrum-X design is twin-plane, "Each GPU has 2x
    400GbE connectivity through two different planes", SuperPOD B300 RA, Network Fabrics),
    else ''."""
    from .planes import plane_speed

    for count in (2, 4):
        try:
            speed = plane_speed(catalog, params.model_copy(update={"planes": count,
                                                                   "speed_gbps": None}))
        except GeneratorError:
            continue
        leaf = switch_profile(lookup_model(catalog, params.leaf, "leaf"), speed)
        if leaf is not None and leaf.max_split(n) >= n:
            return (f"with --planes {count} each NIC runs {count} x {speed}G, one port per "
                    f"plane, and {leaf.model.model} holds {n} nodes per plane at {speed}G "
                    "(as NVIDIA's multi-plane B300 / GB300 Spectrum-X designs); or ")
    return ""


def _fat_tree_two_tiers(hw: Hardware, params: RailOptimizedParams, lp: LeafPlan,
                        group: LeafGroup, spines: int, u: int) -> FabricPlan:
    plan = FabricPlan("rail-optimized", hw.speed, tiers=2)
    wire_two_tier(plan, hw, lp, "rail", spines, u, group.su_nodes)
    per = u // spines
    plan.sizing += [
        f"rail-optimized, two tiers: {params.sus} SU x {params.nodes_per_su} nodes, "
        f"{counted(hw.rails, 'rail')} at {hw.speed}G",
        group.leaf_line(hw, lp, u),
        f"spines {hw.spine.model.id}: {spines}, every leaf to every spine; {per} link(s) per "
        f"leaf-spine pair; {lp.leaves * per} of {hw.spine.ports} ports used per spine",
        f"two tiers hold up to {hw.spine.ports} leaves "
        f"({hw.spine.ports // hw.rails * group.sus_per_leaf} SUs) with this spine",
    ]
    plan.notes += group.notes(hw)
    return plan


def _fat_tree_three_tiers(catalog: Catalog, hw: Hardware, params: RailOptimizedParams,
                          lp: LeafPlan, group: LeafGroup) -> FabricPlan:
    k = group.sus_per_leaf
    fixed = (-(-params.sus_per_pod // k) * hw.rails if params.sus_per_pod is not None
             else None)
    what = counted(params.sus, "SU") + (" per rail" if hw.rails == 1 else "")
    choice = choose_pod_or_explain(catalog, hw, lp, fixed, what)
    size, spines, u, cores, spine_up = choice
    pods = -(-len(lp.cell_sizes) // (size // hw.rails))
    plan = FabricPlan("rail-optimized", hw.speed, tiers=3, pods=pods)
    wire_three_tier(plan, hw, lp, "rail", choice, group.su_nodes)
    plan.sizing += [
        f"rail-optimized, three tiers: {params.sus} SU x {params.nodes_per_su} nodes, "
        f"{counted(hw.rails, 'rail')} at {hw.speed}G, {pods} spine-leaf group(s) of up to "
        f"{size // hw.rails * k} SUs",
        group.leaf_line(hw, lp, u),
        *three_tier_sizing(hw, lp, choice),
    ]
    plan.notes += group.notes(hw)
    return plan



