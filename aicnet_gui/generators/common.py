"""What every template does first: look up and check the models, agree on technology and speed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.catalog import Catalog
from ..model.catalog_entities import DeviceModel, Role
from .clos import tech_set
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
