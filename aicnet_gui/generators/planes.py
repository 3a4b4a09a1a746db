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
from .params import RailOptimizedParams
from .plan import ComputeCell, FabricPlan, SwitchBlock

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
    first = plans[0]
    merged = FabricPlan(first.template, first.speed, first.tiers, pods=first.pods,
                        rail_planes=first.rail_planes, planes=count)
    # every plane has the same devices in the same order; switch k of each plane follows switch
    # k of plane 1, so names interleave the planes (leaf-01 plane 1, leaf-02 plane 2 ...) and
    # stay the same when the design grows by SUs (`aicnet grow` matches devices by name)
    switches = [[i for i, d in enumerate(plan.devices) if d.role != Role.GPU_SERVER]
                for plan in plans]
    index: list[dict[int, int]] = [{} for _ in plans]
    k = 0
    for i, device in enumerate(first.devices):
        if device.role == Role.GPU_SERVER:
            for p in range(count):
                index[p][i] = len(merged.devices)
            merged.devices.append(device)
            continue
        for p, plan in enumerate(plans):
            own = switches[p][k]
            plan.devices[own].tags["plane"] = str(p + 1)
            index[p][own] = len(merged.devices)
            merged.devices.append(plan.devices[own])
        k += 1
    for p, plan in enumerate(plans):
        at = index[p]
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
            merged.blocks.append(SwitchBlock(f"plane {p + 1} {block.label}",
                                             [at[x] for x in block.switches], block.pod))
    per = first.sizing
    merged.sizing = [
        f"{count} planes: each GPU's NIC runs {count} x {first.speed}G, port k to plane k; every "
        "plane is its own fat tree (sizing of one plane below)",
        *per,
    ]
    merged.notes = [*first.notes, f"multi-plane: a switch, optic or cable failure costs one of "
                    f"{count} planes' bandwidth (1/{count}) instead of the job"]
    return merged
