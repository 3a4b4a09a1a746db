"""What every template does first: look up and check the models, agree on technology and speed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.catalog import Catalog
from ..model.catalog_entities import DeviceModel, Role
from .clos import spine_block, tech_set
from .errors import GeneratorError
from .hardware import (
    PortBlock,
    SwitchProfile,
    fabric_speed,
    lookup_model,
    server_block,
    switch_profile,
)

PLANE = "compute"


@dataclass(frozen=True, slots=True)
class Hardware:
    server: DeviceModel
    server_ports: PortBlock
    leaf: SwitchProfile
    spine: SwitchProfile
    core: SwitchProfile | None
    speed: int
    technologies: set[str]

    @property
    def rails(self) -> int:
        return len(self.server_ports)


def resolve_hardware(
    catalog: Catalog,
    server_id: str,
    leaf_id: str,
    spine_id: str,
    core_id: str | None,
    speed: int | None,
) -> Hardware:
    server = lookup_model(catalog, server_id, "server")
    if server.role != Role.GPU_SERVER:
        raise GeneratorError(f"{server_id} is a {server.role.value}, not a GPU server")
    switches: list[tuple[str, DeviceModel]] = [
        ("leaf", lookup_model(catalog, leaf_id, "leaf")),
        ("spine", lookup_model(catalog, spine_id, "spine")),
    ]
    if core_id is not None:
        switches.append(("core", lookup_model(catalog, core_id, "core")))
    for what, model in switches:
        if not model.is_switch:
            raise GeneratorError(f"the {what} {model.id} is a {model.role.value}, not a switch")
    models = [m for _, m in switches]
    techs = tech_set(models)
    if not techs:
        kinds = "; ".join(
            f"{m.id}: {'/'.join(t.value for t in m.technology)}" for m in models
        )
        raise GeneratorError(
            f"the switches do not share a technology ({kinds}); an InfiniBand fabric needs "
            "InfiniBand switches in every tier, an Ethernet fabric Ethernet switches"
        )
    fabric = fabric_speed(server, models, speed)
    profiles = [switch_profile(m, fabric) for m in models]
    assert all(p is not None for p in profiles)
    return Hardware(
        server=server,
        server_ports=server_block(server, fabric),
        leaf=profiles[0],  # type: ignore[arg-type]
        spine=profiles[1],  # type: ignore[arg-type]
        core=profiles[2] if core_id is not None else None,
        speed=fabric,
        technologies=techs,
    )


def spine_of(params: Any) -> str:
    """The spine model: the one asked for, else the leaf model (one switch model throughout)."""
    return params.spine or params.leaf


def half_capacity(profile: SwitchProfile) -> int:
    """Down ports of a switch that has as many up ports as down (whole cages each way)."""
    down = profile.ports // 2
    while down > 0 and profile.max_split(down) < down:
        down -= 1
    return down


def ratio_text(ratio: float) -> str:
    return f"{ratio:g}:1"


PodPlan = tuple[int, int, int, int, int]
"""(pod size, spines per pod S, leaf uplinks u, cores per group C, spine uplinks)."""


def pod_option(
    hw: Hardware, size: int, pods: int, u_min: int, u_max: int, planes: int, uneven: bool
) -> tuple[tuple[int, int, int], PodPlan] | None:
    """One pod size of a three-tier fabric: (score, plan), or None when it does not fit.

    `size` leaves per pod (per plane) fit under spines with `u_min`..`u_max` uplinks each; the
    spines of `pods` pods fit under a core group.  The score prefers the fewest switches over
    all `planes` (rail groups), then pods of equal size, then larger pods.
    """
    assert hw.core is not None
    block = spine_block(size, u_min, u_max, half_capacity(hw.spine))
    if block is None:
        return None
    spines, u = block
    spine_down = size * (u // spines)
    core = spine_block(pods, spine_down, hw.spine.max_split(spine_down), hw.core.ports)
    if core is None:
        return None
    cores, spine_up = core
    total = planes * (pods * spines + spines * cores)
    return (total, 1 if uneven else 0, -size), (size, spines, u, cores, spine_up)
