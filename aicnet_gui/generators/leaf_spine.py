"""The `two-tier` (leaf-spine) and `three-tier` (pod-based fat tree) templates.

Servers attach to leaves in cells: `rail` puts NIC i of every server of a cell on leaf i of the
cell (the cell is a small SU), `tor` puts all NICs of a server on one leaf.  A leaf splits its
ports by the target oversubscription (downlink:uplink bandwidth); every leaf reaches every spine
(of its pod) with the same number of links.  In three tiers spines have as many ports up as
down, and core group j joins spine j of every pod.

A third tier that joins nothing is never built (`_choose_pod`): with one pod every core links
one spine, and with pods of one leaf every spine links one leaf, so that tier would only pass
traffic on to the one switch below it.  Three tiers need at least two pods of more than one
leaf; fewer leaves are refused with that reason (two tiers hold them).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.catalog import Catalog
from ..model.catalog_entities import Role
from ..model.wording import counted
from .clos import larger_switches, or_use, spine_block
from .errors import GeneratorError
from .plan import ComputeCell, FabricPlan, SwitchBlock
from .template_hardware import (
    PLANE,
    Hardware,
    PodPlan,
    half_capacity,
    pod_option,
    ratio_text,
    resolve_hardware,
    spine_of,
)
from .template_params import ThreeTierParams, TwoTierParams


@dataclass(frozen=True, slots=True)
class LeafPlan:
    cell_leaves: int  # leaves per cell: the rail count (rail) or 1 (tor)
    cell_sizes: list[int]  # servers per cell
    down: int  # down ports used on the fullest leaf
    u_min: int
    u_max: int

    @property
    def leaves(self) -> int:
        return self.cell_leaves * len(self.cell_sizes)


def _balanced(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def plan_leaves(hw: Hardware, servers: int, ratio: float, attach: str) -> LeafPlan:
    """How many servers per leaf and how many uplinks, from the leaf's ports and the ratio."""
    leaf = hw.leaf
    cap = 0
    for down in range(leaf.ports, 0, -1):
        if leaf.max_split(down) >= _ceil_div(down, ratio):
            cap = down
            break
    if cap == 0:
        raise GeneratorError(f"{leaf.describe()}: no split of its ports reaches {ratio_text(ratio)}")
    if attach == "rail":
        cells = -(-servers // cap)
        sizes = _balanced(servers, cells)
        down, per_cell = max(sizes), hw.rails
    else:
        per_leaf = cap // hw.rails
        if per_leaf == 0:
            raise GeneratorError(
                f"{leaf.describe()}; at {ratio_text(ratio)} it has {cap} ports down, fewer than the "
                f"{hw.rails} compute ports of one {hw.server.model}; use --attach rail"
            )
        cells = -(-servers // per_leaf)
        sizes = _balanced(servers, cells)
        down, per_cell = max(sizes) * hw.rails, 1
    u_min = max(1, _ceil_div(down, ratio))
    return LeafPlan(per_cell, sizes, down, u_min, leaf.max_split(down))


def _ceil_div(down: int, ratio: float) -> int:
    value = down / ratio
    rounded = round(value)
    return rounded if abs(value - rounded) < 1e-9 else int(value) + 1


def _add_cells(
    plan: FabricPlan, hw: Hardware, lp: LeafPlan, attach: str, u: int, cells_per_pod: int,
    su_nodes: int | None = None,
) -> list[list[int]]:
    """Servers and leaves cell by cell; returns the leaves of each pod in order.  With
    `su_nodes` a rail cell is a leaf group of several SUs of that many servers each (one leaf
    per rail carries that rail of every SU of the group): each server is tagged with its own
    SU, the group's leaves with the SUs they carry (`sus`, "3-4")."""
    pods: list[list[int]] = []
    split = hw.leaf.split(lp.down, u)
    assert split is not None
    down = split[0]
    rails = hw.rails
    label = "su" if attach == "rail" else "group"
    first_su = 0
    for c, size in enumerate(lp.cell_sizes):
        pod = c // cells_per_pod
        if pod == len(pods):
            pods.append([])
        per_su = su_nodes or size
        sus = -(-size // per_su)
        tags = {label: str(c + 1), "pod": str(pod + 1), "plane": PLANE}
        if su_nodes is None:
            servers = [plan.add_device(Role.GPU_SERVER, hw.server, dict(tags),
                                       hw.server_ports.overrides) for _ in range(size)]
            leaf_base = tags
        else:
            servers = [plan.add_device(Role.GPU_SERVER, hw.server,
                                       dict(tags, su=str(first_su + m // per_su + 1)),
                                       hw.server_ports.overrides) for m in range(size)]
            leaf_base = (dict(tags, su=str(first_su + 1)) if sus == 1 else
                         {"sus": f"{first_su + 1}-{first_su + sus}", "pod": str(pod + 1),
                          "plane": PLANE})
        leaves: list[int] = []
        for i in range(lp.cell_leaves):
            leaf_tags = dict(leaf_base, rail=str(i + 1)) if attach == "rail" else dict(leaf_base)
            leaves.append(
                plan.add_device(Role.LEAF, hw.leaf.model, leaf_tags, hw.leaf.block.overrides)
            )
        for m, server in enumerate(servers):
            for r in range(rails):
                port = hw.server_ports.ports[r]
                if attach == "rail":
                    plan.connect(server, port, leaves[r], down[m], "server-leaf", r + 1)
                else:
                    plan.connect(server, port, leaves[0], down[m * rails + r], "server-leaf", r + 1)
        if su_nodes is not None:
            name = (f"SU {first_su + 1}" if sus == 1
                    else f"SUs {first_su + 1}-{first_su + sus}")
        else:
            name = f"SU {c + 1}" if attach == "rail" else f"group {c + 1}"
        first_su += sus
        plan.cells.append(ComputeCell(name, servers, leaves, pod))
        pods[pod] += leaves
    return pods


def _wire_up(
    plan: FabricPlan, lower: list[int], lower_up: tuple[str, ...], upper: list[int],
    upper_down: tuple[str, ...], per: int, tier: str, offset: int = 0,
) -> None:
    """Member i of `lower` gets `per` links to every switch of `upper` (ports in order)."""
    for i, member in enumerate(lower):
        rail = _rail_of(plan, member) if tier == "leaf-spine" else None
        for j, top in enumerate(upper):
            for t in range(per):
                plan.connect(member, lower_up[j * per + t], top,
                             upper_down[(offset + i) * per + t], tier, rail)


def _rail_of(plan: FabricPlan, key: int) -> int | None:
    rail = plan.devices[key].tags.get("rail")
    return int(rail) if rail else None


def wire_two_tier(plan: FabricPlan, hw: Hardware, lp: LeafPlan, attach: str, spines: int,
                  u: int, su_nodes: int | None = None) -> list[int]:
    """Cells of servers and leaves, then `spines` spines that every leaf reaches with `u / spines`
    links each (one spine-leaf group); returns the spines.  `su_nodes`: as `_add_cells`."""
    pods = _add_cells(plan, hw, lp, attach, u, len(lp.cell_sizes), su_nodes)
    per = u // spines
    spine_keys = [
        plan.add_device(Role.SPINE, hw.spine.model, {"pod": "1", "plane": PLANE},
                        hw.spine.block.overrides)
        for _ in range(spines)
    ]
    up_ports = hw.leaf.split(lp.down, u)[1]  # type: ignore[index]
    sdown = hw.spine.split(lp.leaves * per, 0)[0]  # type: ignore[index]
    _wire_up(plan, pods[0], up_ports, spine_keys, sdown, per, "leaf-spine")
    plan.blocks.append(SwitchBlock("spines", spine_keys, 0))
    return spine_keys


def plan_two_tier(catalog: Catalog, params: TwoTierParams) -> FabricPlan:
    hw = resolve_hardware(catalog, params.server, params.leaf, spine_of(params), None,
                          params.speed_gbps)
    lp = plan_leaves(hw, params.servers, params.oversubscription, params.attach)
    leaves = lp.leaves
    fit = spine_block(leaves, lp.u_min, lp.u_max, hw.spine.ports, min_upper=min(2, lp.u_max))
    if fit is None:
        raise GeneratorError(
            f"{hw.spine.describe()}; {params.servers} servers need {leaves} leaves, and in two "
            f"tiers every leaf needs a port on every spine, i.e. {leaves} ports per spine; use "
            "the three-tier template"
            + or_use(larger_switches(catalog, hw.speed, hw.technologies, leaves, hw.spine.model.id))
        )
    spines, u = fit
    plan = FabricPlan("two-tier", hw.speed, tiers=2)
    wire_two_tier(plan, hw, lp, params.attach, spines, u)
    per = u // spines
    plan.sizing += [
        f"two tiers: {params.servers} x {hw.server.id}, {hw.rails} NIC ports at {hw.speed}G, "
        f"attach {params.attach}",
        f"leaves {hw.leaf.model.id}: {leaves} with {lp.down} ports down and {u} up of "
        f"{hw.leaf.ports} ({ratio_text(lp.down / u)}, target {ratio_text(params.oversubscription)})",
        f"spines {hw.spine.model.id}: {spines}; {per} link(s) per leaf-spine pair; "
        f"{leaves * per} of {hw.spine.ports} ports used",
    ]
    return plan


def _choose_pod(
    hw: Hardware, lp: LeafPlan, fixed: int | None, useful: bool = True
) -> tuple[int, int, int, int, int] | None:
    """(leaves per pod, spines per pod S, leaf uplinks u, cores per group C, spine uplinks).
    `useful`: only pod sizes whose core and spine tiers join something (at least two pods,
    more than one leaf per pod); False: any that fits (the most servers three tiers hold)."""
    assert hw.core is not None
    cap = half_capacity(hw.spine)
    cells = len(lp.cell_sizes)
    best: tuple[tuple[int, int, int], tuple[int, int, int, int, int]] | None = None
    if fixed is not None:
        if fixed % lp.cell_leaves:
            raise GeneratorError(
                f"--leaves-per-pod {fixed} must be a multiple of the {lp.cell_leaves} leaves of "
                "one rail-aligned group"
            )
        options = [fixed // lp.cell_leaves]
    else:
        options = list(range(1, cells + 1))
    for cells_per_pod in options:
        size = cells_per_pod * lp.cell_leaves
        if size > cap and fixed is None:
            break
        if useful and (size == 1 or -(-cells // cells_per_pod) == 1):
            continue  # each spine above one leaf, or each core above one spine
        option = pod_option(hw, size, -(-cells // cells_per_pod), lp.u_min, lp.u_max, 1,
                            cells % cells_per_pod != 0)
        if option is not None and (best is None or option[0] < best[0]):
            best = option
    return best[1] if best else None


def choose_pod_or_explain(catalog: Catalog, hw: Hardware, lp: LeafPlan,
                          fixed_leaves: int | None, what: str, useful: bool = True,
                          two_tiers: str = "use two tiers (--tiers 2)") -> PodPlan:
    """The pod plan with the fewest switches, or a GeneratorError that says what would fit.
    `useful`: as `_choose_pod`; `two_tiers`: the advice when only a tier that joins nothing
    would fit."""
    assert hw.core is not None
    choice = _choose_pod(hw, lp, fixed_leaves, useful)
    if choice is not None:
        return choice
    idle = _choose_pod(hw, lp, fixed_leaves, useful=False) if useful else None
    if idle is not None:
        size = idle[0]
        pods = -(-len(lp.cell_sizes) // (size // lp.cell_leaves))
        tier = ("with one pod each core links one spine, so the core tier" if pods == 1
                else "with pods of one leaf each spine links one leaf, so the spine tier")
        raise GeneratorError(
            f"three tiers over {what} ({counted(lp.leaves, 'leaf', 'leaves')}) would have a "
            f"tier that joins nothing: {tier} joins no two switches below it; three tiers "
            "need at least two pods of more than one leaf each; "
            + two_tiers
        )
    cap = half_capacity(hw.spine)
    if fixed_leaves is not None and fixed_leaves > cap:
        raise GeneratorError(
            f"{hw.spine.describe()}; under a core it has {cap} ports down, so a pod holds at "
            f"most {cap} leaves, not {fixed_leaves}"
        )
    raise GeneratorError(
        f"{what} ({lp.leaves} leaves) do not fit three tiers: "
        f"{hw.spine.describe()} (at most {cap} leaves per pod with half its ports down) and "
        f"{hw.core.describe()} (at most {hw.core.ports} pods); use larger switches"
        + or_use(larger_switches(catalog, hw.speed, hw.technologies, hw.core.ports + 1,
                                 hw.core.model.id))
    )


def wire_three_tier(plan: FabricPlan, hw: Hardware, lp: LeafPlan, attach: str,
                    choice: PodPlan, su_nodes: int | None = None) -> None:
    """Pods (spine-leaf groups: every leaf of a pod reaches every spine of the pod) and core
    groups (core group j reaches spine j of every pod).  `su_nodes`: as `_add_cells`."""
    assert hw.core is not None
    size, spines, u, cores, spine_up = choice
    cells_per_pod = size // lp.cell_leaves
    pods_count = -(-len(lp.cell_sizes) // cells_per_pod)
    pods = _add_cells(plan, hw, lp, attach, u, cells_per_pod, su_nodes)
    per = u // spines
    per_core = spine_up // cores
    up_ports = hw.leaf.split(lp.down, u)[1]  # type: ignore[index]
    sdown, sup = hw.spine.split(size * per, spine_up)  # type: ignore[misc]
    cdown = hw.core.split(pods_count * per_core, 0)[0]  # type: ignore[index]
    spine_at: list[list[int]] = []
    for p, pod_leaves in enumerate(pods):
        keys = [
            plan.add_device(Role.SPINE, hw.spine.model, {"pod": str(p + 1), "plane": PLANE},
                            hw.spine.block.overrides)
            for _ in range(spines)
        ]
        spine_at.append(keys)
        _wire_up(plan, pod_leaves, up_ports, keys, sdown, per, "leaf-spine")
        plan.blocks.append(SwitchBlock(f"pod {p + 1} spines", keys, p))
    core_keys: list[int] = []
    for j in range(spines):
        group = [
            plan.add_device(Role.CORE, hw.core.model,
                            {"core_group": str(j + 1), "plane": PLANE}, hw.core.block.overrides)
            for _ in range(cores)
        ]
        core_keys += group
        _wire_up(plan, [spine_at[p][j] for p in range(pods_count)], sup, group, cdown,
                 per_core, "spine-core")
    plan.blocks.append(SwitchBlock("core", core_keys, None))


def three_tier_sizing(hw: Hardware, lp: LeafPlan, choice: PodPlan) -> list[str]:
    """The spine and core lines of a three-tier plan's sizing."""
    assert hw.core is not None
    size, spines, u, cores, spine_up = choice
    pods_count = -(-len(lp.cell_sizes) // (size // lp.cell_leaves))
    per, per_core = u // spines, spine_up // cores
    return [
        f"spines {hw.spine.model.id}: {spines} per pod = {spines * pods_count}; {per} link(s) per "
        f"leaf-spine pair; {size * per} down + {spine_up} up of {hw.spine.ports} ports",
        f"cores {hw.core.model.id}: {cores} per spine index = {spines * cores}; {per_core} "
        f"link(s) per spine-core pair; {pods_count * per_core} of {hw.core.ports} ports used",
    ]


def plan_three_tier(catalog: Catalog, params: ThreeTierParams) -> FabricPlan:
    core_id = params.core or spine_of(params)
    hw = resolve_hardware(catalog, params.server, params.leaf, spine_of(params), core_id,
                          params.speed_gbps)
    assert hw.core is not None
    lp = plan_leaves(hw, params.servers, params.oversubscription, params.attach)
    choice = choose_pod_or_explain(catalog, hw, lp, params.leaves_per_pod,
                                   f"{params.servers} servers",
                                   two_tiers="use the two-tier template")
    size, spines, u, cores, spine_up = choice
    pods_count = -(-len(lp.cell_sizes) // (size // lp.cell_leaves))
    plan = FabricPlan("three-tier", hw.speed, tiers=3, pods=pods_count)
    wire_three_tier(plan, hw, lp, params.attach, choice)
    plan.sizing += [
        f"three tiers: {params.servers} x {hw.server.id}, {hw.rails} NIC ports at {hw.speed}G, "
        f"attach {params.attach}; {pods_count} pod(s) of up to {size} leaves",
        f"leaves {hw.leaf.model.id}: {lp.leaves} with {lp.down} ports down and {u} up of "
        f"{hw.leaf.ports} ({ratio_text(lp.down / u)}, target {ratio_text(params.oversubscription)})",
        *three_tier_sizing(hw, lp, choice),
    ]
    return plan
