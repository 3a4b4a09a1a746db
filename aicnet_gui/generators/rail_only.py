"""Rail-only fabrics (`--rail-planes`): every rail its own network, no spine joining the rails.

Wang, Ghobadi et al., "Rail-only: A Low-Cost High-Performance Network for Training LLMs with
Trillion Parameters" (arXiv 2307.12169v5): LLM training traffic stays inside the NVLink
(high-bandwidth) domain or on one rail, so the spine that joins the rails can go; traffic
between GPUs of different rails on different servers is forwarded over NVLink to the GPU on the
right rail first (NCCL's PXN), then crosses that rail.  The paper counts 38-77 % less network
cost and 37-75 % less network power than the rail-optimized fat tree, and 8.2-11.2 % more time
for MoE all-to-all (the forwarding hop).

Rail r connects NIC r of every server:

- when one switch holds the rail's NICs (all its ports down), the rail is that switch (a 1-SU
  DGX H100 rail of 32 NICs on a 64-port QM9700): no uplink at all.  `--tiers 2` or `3` (or
  `--core`) is then refused (`refuse_idle_tiers`): a spine above a rail's only leaf has no
  other leaf of its rail to reach and no spine joins the rails, so it would carry nothing (the
  paper's rail-only network has no tier above a rail that one switch holds);
- else the rail is its own rail-optimized fat tree: leaves at 1:1, each carrying its rail of as
  many SUs as its ports hold (`leaf_groups.py`), and spines that only the rail's leaves reach
  (a core tier per rail when two tiers cannot hold it).

The rails are planned one by one (the server's compute ports limited to NIC r) and merged over
the shared servers, as the planes of a multi-plane fabric are (`planes.merge_over_servers`);
each switch and link carries its rail.  The choice is recorded in the file
(`settings.rail_planes`), so the analysis reports the rails as separate fabrics by design.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..model.catalog_entities import Role
from ..model.wording import counted
from .errors import GeneratorError
from .hardware import PortBlock
from .plan import ComputeCell, FabricPlan, SwitchBlock
from .planes import merge_over_servers
from .template_hardware import PLANE, Hardware
from .template_params import RailOptimizedParams

RAIL_ONLY_NOTE = (
    "rail-only: each rail is a separate fabric (no spine joins the rails); GPUs on different "
    "rails of different servers reach each other by NVLink forwarding inside a server (NCCL "
    "PXN), not through the switches")


def rail_hardware(hw: Hardware, rail: int) -> Hardware:
    """`hw` with the server's compute ports limited to NIC `rail` (from 0)."""
    block = hw.server_ports
    ports = PortBlock(block.ports[rail:rail + 1], block.cages[rail:rail + 1],
                      block.legs[rail:rail + 1], block.overrides)
    return replace(hw, server_ports=ports)


def one_switch_holds(hw: Hardware, params: RailOptimizedParams) -> bool:
    """Does one leaf switch take every NIC of a rail on its own ports (no uplinks)?"""
    assert params.nodes_per_su is not None
    return (params.core is None and params.tiers != "3"
            and hw.leaf.split(params.sus * params.nodes_per_su, 0) is not None)


def refuse_idle_tiers(hw: Hardware, params: RailOptimizedParams) -> None:
    """GeneratorError when `--tiers 2` / `3` or `--core` asks for tiers above rails that one
    switch each holds: a spine above a rail's only leaf carries nothing (no other leaf of the
    rail to reach, no spine joining the rails), and neither does a core above that spine."""
    n, sus = params.nodes_per_su, params.sus
    assert n is not None
    asked = [f"--tiers {params.tiers}"] if params.tiers != "auto" else []
    if params.core is not None:
        asked.append(f"--core {params.core}")
    nics = sus * n
    leaf = hw.leaf
    if not asked or leaf.split(nics, 0) is None:
        return
    above = ("a spine and a core" if params.tiers == "3" or params.core is not None
             else "a spine")
    fix = " and ".join(([] if params.tiers == "auto" else ["use --tiers auto"])
                       + ([] if params.core is None else ["drop --core"]))
    more = next((s for s in range(sus + 1, sus + 4097) if leaf.split(s * n, 0) is None), None)
    grow = (f"; a rail needs a spine tier from {more} SUs of {n} nodes ({more * n} NICs), "
            "more than one switch holds" if more is not None else "")
    raise GeneratorError(
        f"rail-only: a rail's {counted(nics, 'NIC')} ({sus} SU x {n} nodes) fit one "
        f"{leaf.model.model} ({nics} of its {leaf.ports} ports), so each rail is one switch; "
        f"{' and '.join(asked)} would put {above} above that one leaf, and a spine above a "
        "rail's only leaf carries nothing: it has no other leaf of its rail to reach, and no "
        f"spine joins the rails (cross-rail traffic crosses NVLink inside a server); {fix} for "
        f"one switch per rail{grow}")


def plan_rail_only(hw: Hardware, params: RailOptimizedParams,
                   fat_tree: Callable[[int], FabricPlan]) -> FabricPlan:
    """The rail-only fabric of `hw`'s servers: one fabric per rail, merged over the servers;
    `fat_tree(r)` plans rail r (from 0) as a one-rail rail-optimized fat tree.  Tiers asked
    above rails one switch each holds are refused (`refuse_idle_tiers`)."""
    refuse_idle_tiers(hw, params)
    single = one_switch_holds(hw, params)
    plans = [_rail_switch(rail_hardware(hw, r), params) if single else fat_tree(r)
             for r in range(hw.rails)]
    for r, plan in enumerate(plans):
        for device in plan.devices:
            if device.role != Role.GPU_SERVER:
                device.tags["rail"] = device.tags["rail_group"] = str(r + 1)
        for link in plan.links:
            link.rail = r + 1
    merged = merge_over_servers(plans, "rail")
    merged.rail_planes = True
    first = plans[0]
    merged.sizing = [f"rail-only: {hw.rails} rails, each its own fabric (sizing of one rail "
                     "below); no spine joins two rails", *first.sizing]
    merged.notes = [RAIL_ONLY_NOTE, *first.notes]
    return merged


def _rail_switch(hw: Hardware, params: RailOptimizedParams) -> FabricPlan:
    """One rail on one switch: NIC r of every server on its ports, nothing above."""
    n, sus = params.nodes_per_su, params.sus
    assert n is not None
    nics = n * sus
    split = hw.leaf.split(nics, 0)
    assert split is not None
    down = split[0]
    plan = FabricPlan("rail-optimized", hw.speed, tiers=1, rail_planes=True)
    servers: list[list[int]] = []
    for su in range(sus):
        tags = {"su": str(su + 1), "pod": "1", "plane": PLANE}
        servers.append([plan.add_device(Role.GPU_SERVER, hw.server, dict(tags),
                                        hw.server_ports.overrides) for _ in range(n)])
    tags = {"pod": "1", "plane": PLANE, "rail": "1"}
    if sus == 1:
        tags["su"] = "1"
    switch = plan.add_device(Role.LEAF, hw.leaf.model, tags, hw.leaf.block.overrides)
    port = hw.server_ports.ports[0]
    every = [s for su in servers for s in su]
    for m, server in enumerate(every):
        plan.connect(server, port, switch, down[m], "server-leaf", 1)
    label = "SU 1" if sus == 1 else f"SUs 1-{sus}"
    plan.cells.append(ComputeCell(label, every, [switch], 0))
    plan.blocks.append(SwitchBlock("rail switch", [switch], 0))
    plan.sizing += [
        f"one rail: {counted(nics, 'NIC')} ({sus} SU x {n} nodes) at {hw.speed}G on one "
        f"{hw.leaf.model.id}, {nics} of its {hw.leaf.ports} ports, no uplinks",
    ]
    return plan
