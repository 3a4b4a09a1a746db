"""Multi-plane rail-optimized fabrics, as NVIDIA's DGX B300 / GB300 designs build them.

"The Spectrum-X based compute fabric features a twin-planar design ... Each GPU has 2x 400GbE
connectivity through two different planes" (DGX SuperPOD B300 RA, Network Fabrics): each GPU's
800G SuperNIC runs as 2 x 400G (or 4 x 200G), port k of every NIC goes to plane k, and every
plane is its own rail-optimized fat tree with its own leaves, spines (and cores).  A switch,
optic or cable failure costs one plane's share of the bandwidth instead of the job.

The planes are planned one by one with the one-plane planner (the server's compute ports
limited to leg k of each NIC); the servers of plane 1 are the servers of every plane, and each
plane's switches carry their plane (`Device.plane` "1".."P"), as do their links.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model.catalog import Catalog
from ..model.catalog_entities import BreakoutMode, Role
from .errors import GeneratorError
from .hardware import compute_group, lookup_model
from .plan import ComputeCell, FabricPlan, SwitchBlock
from .template_params import RailOptimizedParams

PlanOne = Callable[[Catalog, RailOptimizedParams, tuple[int, int] | None], FabricPlan]


def plane_speed(catalog: Catalog, params: RailOptimizedParams) -> int:
    """The speed of one plane's ports: the server's compute mode with `planes` legs per NIC."""
    server = lookup_model(catalog, params.server, "server")
    group = compute_group(server)
    count = params.planes
    if server.gpus and group.count != server.gpus:
        raise GeneratorError(
            f"--planes {count} splits each GPU's NIC over the planes, but {server.model} has "
            f"{group.count} compute cages for {server.gpus} GPUs (not one NIC per GPU)"
        )
    speeds = sorted({m.speed_gbps for m in map(BreakoutMode.parse, group.breakouts)
                     if m.legs == count and m.name not in group.blocking_modes}, reverse=True)
    if not speeds:
        raise GeneratorError(
            f"--planes {count} needs the NIC of {server.model} to split into {count} ports; its "
            f"modes are {', '.join(group.breakouts)}"
        )
    if params.speed_gbps is not None:
        if params.speed_gbps not in speeds:
            raise GeneratorError(
                f"with --planes {count} a {server.model} NIC port runs "
                f"{' or '.join(f'{s}G' for s in speeds)}, not {params.speed_gbps}G"
            )
        return params.speed_gbps
    return speeds[0]


def plan_planes(catalog: Catalog, params: RailOptimizedParams, plan_one: PlanOne) -> FabricPlan:
    """`params.planes` planes of the same fat tree over one set of servers."""
    count = params.planes
    one = params.model_copy(update={"speed_gbps": plane_speed(catalog, params), "planes": 1})
    plans = [plan_one(catalog, one, (p, count)) for p in range(count)]
    for p, plan in enumerate(plans):
        for device in plan.devices:
            if device.role != Role.GPU_SERVER:
                device.tags["plane"] = str(p + 1)
    first = plans[0]
    merged = merge_over_servers(plans, "plane", planes=count)
    if all(len(plan.links) == len(first.links) for plan in plans):
        # link j of every plane is the same link of the same fat tree: one media choice for all
        merged.link_class = list(range(len(first.links))) * count
    merged.sizing = [
        f"{count} planes: each GPU's NIC runs {count} x {first.speed}G, port k to plane k; every "
        "plane is its own fat tree (sizing of one plane below)",
        *first.sizing,
    ]
    merged.notes = [*first.notes, f"multi-plane: a switch, optic or cable failure costs one of "
                    f"{count} planes' bandwidth (1/{count}) instead of the job"]
    notes, merged.media_hint = _design_notes(catalog, params)
    merged.notes += notes
    return merged


XDR_LIST = "docs.nvidia.com/networking/display/800g200gpam4list"


def _design_notes(catalog: Catalog, params: RailOptimizedParams) -> tuple[list[str], str]:
    """(notes, why no catalog cord cables the NIC ports) of a multi-plane design that is not
    one of NVIDIA's published ones: on XDR InfiniBand (NVIDIA's DGX B300 XDR design is one plane
    at 800G per GPU), or with four planes (NVIDIA documents Quad-Plane, but no count table or
    part list was reachable: docs/sources-2026.md §7)."""
    count = params.planes
    leaf = lookup_model(catalog, params.leaf, "leaf")
    notes: list[str] = []
    hint = ""
    if {t.value for t in leaf.technology} == {"infiniband"}:
        notes.append(
            f"{count} planes on XDR InfiniBand are aicnet's own sizing: NVIDIA's DGX B300 XDR "
            "design is one plane at 800G per GPU (DGX SuperPOD B300 XDR RA, RA-11339-001, "
            "Table 3: 8 leaves and 4 spines per 72-node SU; --planes 1)")
        hint = (
            f"a ConnectX-8 cage split toward {count} planes needs an XDR module with one optical "
            f"port per plane, and NVIDIA's XDR part list ({XDR_LIST}) has none: the MMS4A20 has "
            "one MPO, and a 1:2 splitter from it would land each plane's port on a switch "
            "optical port that carries two; NVIDIA's XDR design is one plane at 800G per GPU "
            "(RA-11339-001 Table 3: --planes 1)")
    elif count == 4:
        notes.append(
            "4 planes are aicnet's own sizing: NVIDIA documents Quad-Plane for the B300 only "
            "(Network Operator 26.4 Spectrum-X multiplane quick starts), and no count table or "
            "part list for it was reachable (docs/sources-2026.md §7)")
        hint = (
            "4 planes put two 200G plane ports on each optical port of the NIC's twin-port module, "
            "bound for two switches; a 1:2 splitter from the NIC needs switch optical ports that "
            "carry one port each, and the switches' twin-port optics carry two at 200G: no "
            "catalog cord regroups the fibres (a fibre shuffle or cross-connect would), and no "
            "reachable NVIDIA document lists the Quad-Plane parts (docs/sources-2026.md §7)")
    return notes, hint


def merge_over_servers(plans: list[FabricPlan], label: str, planes: int = 1) -> FabricPlan:
    """One plan of several that share their servers (planes of one fabric, or the rails of a
    rail-only one): the servers of the first plan are the servers of all, every plan keeps its
    own switches and links, blocks are named `<label> <k> <block>`.  Every plan has the same
    servers in the same order (their servers and cells are the first plan's); switch k of each
    plan follows switch k of the first, so names interleave the plans (leaf-01 of plan 1,
    leaf-02 of plan 2 ...) and stay the same when the design grows by SUs (`aicnet grow`
    matches devices by name).  A plan with fewer switches than the first leaves gaps."""
    first = plans[0]
    merged = FabricPlan(first.template, first.speed, max(p.tiers for p in plans),
                        pods=first.pods, rail_planes=first.rail_planes, planes=planes)
    switches = [[i for i, d in enumerate(plan.devices) if d.role != Role.GPU_SERVER]
                for plan in plans]
    at_merged: dict[tuple[int, int], int] = {}
    for p, i in _merged_order(plans, switches):
        at_merged[(p, i)] = len(merged.devices)
        merged.devices.append(plans[p].devices[i])
    for p, (plan, servers) in enumerate(zip(plans, _first_plan_servers(plans), strict=True)):
        at = {i: at_merged[(0, server)] for i, server in servers.items()}
        at.update({i: at_merged[(p, i)] for i in switches[p]})
        _add_plan(merged, p, plan, at, label)
    return merged


def _first_plan_servers(plans: list[FabricPlan]) -> list[dict[int, int]]:
    """Per plan, its server device indices -> the first plan's server at the same place."""
    servers = [i for i, d in enumerate(plans[0].devices) if d.role == Role.GPU_SERVER]
    index: list[dict[int, int]] = []
    for plan in plans:
        own = [i for i, d in enumerate(plan.devices) if d.role == Role.GPU_SERVER]
        assert len(own) == len(servers), "plans over the same servers"
        index.append(dict(zip(own, servers, strict=True)))
    return index


def _merged_order(plans: list[FabricPlan], switches: list[list[int]]) -> list[tuple[int, int]]:
    """(plan, device index) in merged order: the first plan's servers where they are, switch
    k of every plan after switch k of the first, then the switches past the first's count."""
    order: list[tuple[int, int]] = []
    k = 0
    for i, device in enumerate(plans[0].devices):
        if device.role == Role.GPU_SERVER:
            order.append((0, i))
            continue
        for p in range(len(plans)):
            if k < len(switches[p]):
                order.append((p, switches[p][k]))
        k += 1
    for p in range(len(plans)):  # switches past the first plan's count
        order += [(p, i) for i in switches[p][k:]]
    return order


def _add_plan(merged: FabricPlan, p: int, plan: FabricPlan, at: dict[int, int],
              label: str) -> None:
    """Plan `p`'s links, cells and blocks into `merged`, its device indices moved by `at`
    (the cells of a later plan add their leaves to the first plan's cells)."""
    for link in plan.links:
        link.a, link.b = at[link.a], at[link.b]
        merged.links.append(link)
    for c, cell in enumerate(plan.cells):
        leaves = [at[x] for x in cell.leaves]
        if p == 0:
            merged.cells.append(ComputeCell(cell.label, [at[x] for x in cell.servers],
                                            leaves, cell.pod))
        else:
            merged.cells[c].leaves.extend(leaves)
    for block in plan.blocks:
        merged.blocks.append(SwitchBlock(f"{label} {p + 1} {block.label}",
                                         [at[x] for x in block.switches], block.pod))
