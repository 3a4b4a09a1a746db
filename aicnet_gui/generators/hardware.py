"""Port arithmetic of the chosen catalog models: how many logical ports of a given speed a
switch offers, in which breakout mode, and which ports of a server face the compute fabric.

Counts come from the real cages and breakout modes: a QM9700 (32 OSFP cages, 2x400G) has 64
ports at 400G; an SN5600 (64 OSFP cages) has 128 at 400G in 2x400G mode; a Q3400-RA (72 cages)
has 288 at 400G in 4x400G mode.  Down ports take whole cages from the first cage on, up ports
whole cages after them, so the two links of a twin-port cage always face the same tier.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import fit
from ..model.catalog import Catalog, UnknownCatalogId
from ..model.catalog_entities import BreakoutMode, CageGroup, DeviceModel, Role, Technology
from ..model.fabric import CageConfig
from .errors import GeneratorError


def _speeds(group: CageGroup, technology: Technology | None = None) -> set[int]:
    """The leg speeds of the group's modes (those `technology` allows, when given)."""
    modes = group.breakouts if technology is None else group.modes_for(technology)
    return {BreakoutMode.parse(mode).speed_gbps for mode in modes
            if mode not in group.blocking_modes}


def _mode_at(group: CageGroup, speed: int) -> BreakoutMode | None:
    """The mode of `group` with legs at `speed` and the most legs (most ports), if any; never a
    blocking mode (one that disables the next cage), which a whole group cannot run."""
    modes = [BreakoutMode.parse(m) for m in group.breakouts if m not in group.blocking_modes]
    fitting = [m for m in modes if m.speed_gbps == speed]
    return max(fitting, key=lambda m: m.legs) if fitting else None


def lookup_model(catalog: Catalog, model_id: str, what: str) -> DeviceModel:
    try:
        return catalog.device(model_id)
    except UnknownCatalogId:
        known = sorted(
            d.id for d in catalog.devices.values()
            if (d.role == Role.GPU_SERVER) == (what == "server")
        )
        raise GeneratorError(
            f"{what} model {model_id!r} is not in the catalog; known: {', '.join(known)}"
        ) from None


@dataclass(frozen=True, slots=True)
class PortBlock:
    """The logical ports of a device that the fabric uses, in cage order."""

    ports: tuple[str, ...]
    cages: tuple[int, ...]
    legs: tuple[int, ...]
    overrides: dict[int, CageConfig] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.ports)


@dataclass(frozen=True, slots=True)
class SwitchProfile:
    """A switch model running its fabric cages at one speed."""

    model: DeviceModel
    speed: int
    block: PortBlock

    @property
    def ports(self) -> int:
        return len(self.block)

    @property
    def cage_count(self) -> int:
        return len(set(self.block.cages))

    def split(self, down: int, up: int) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """Down ports from the first cage, up ports from the next free cage; None if short."""
        block = self.block
        if down > len(block):
            return None
        start_up = down
        if down:
            last_cage = block.cages[down - 1]
            while start_up < len(block) and block.cages[start_up] == last_cage:
                start_up += 1
        if start_up + up > len(block):
            return None
        return block.ports[:down], block.ports[start_up:start_up + up]

    def max_split(self, down: int) -> int:
        """The most up ports left once `down` ports (whole cages) are taken."""
        result = self.split(down, 0)
        if result is None:
            return -1
        low, high = 0, self.ports
        while low < high:
            mid = (low + high + 1) // 2
            if self.split(down, mid) is None:
                high = mid - 1
            else:
                low = mid
        return low

    def describe(self) -> str:
        legs = self.block.legs[0] if self.block.legs else 1
        cages = self.cage_count
        form = self.model.cages[0].form_factor
        return (
            f"{self.model.model} has {self.ports} ports at {self.speed}G "
            f"({cages} {form} cages x {legs})"
        )


def switch_profile(model: DeviceModel, speed: int) -> SwitchProfile | None:
    """The fabric ports of `model` at `speed`, or None if no fabric cage runs that speed."""
    ports: list[str] = []
    cages: list[int] = []
    legs: list[int] = []
    overrides: dict[int, CageConfig] = {}
    for group in model.cages:
        mode = _mode_at(group, speed) if group.fabric else None
        if mode is not None:
            _add_group_ports(group, mode, ports, cages, legs, overrides)
    if not ports:
        return None
    return SwitchProfile(model, speed, PortBlock(tuple(ports), tuple(cages), tuple(legs), overrides))


def _add_group_ports(
    group: CageGroup,
    mode: BreakoutMode,
    ports: list[str],
    cages: list[int],
    legs: list[int],
    overrides: dict[int, CageConfig],
) -> None:
    """Append every port of `group` running `mode`, with the cage overrides that sets it."""
    for cage in group.cage_numbers:
        if mode.name != group.default_breakout:
            overrides[cage] = CageConfig(mode=mode.name)
        for leg in range(1, mode.legs + 1):
            ports.append(group.port_name(cage, leg, mode.legs))
            cages.append(cage)
            legs.append(mode.legs)


def switch_speeds(model: DeviceModel) -> set[int]:
    speeds: set[int] = set()
    for group in model.cages:
        if group.fabric:
            speeds |= _speeds(group)
    return speeds


def compute_group(model: DeviceModel) -> CageGroup:
    """The server's compute-fabric cages (model/fit.py decides which); a model without fabric
    cages cannot be a generated server."""
    group = fit.compute_group(model)
    if group is None:
        raise GeneratorError(f"server model {model.id} has no fabric ports")
    return group


def server_speeds(model: DeviceModel, technology: Technology | None = None) -> set[int]:
    """The speeds the server's compute ports run (on `technology`, when given: a ConnectX-8
    runs 1x800G on XDR InfiniBand but Ethernet only as 2 x 400G or 4 x 200G)."""
    return _speeds(compute_group(model), technology)


def server_block(model: DeviceModel, speed: int) -> PortBlock:
    """The server's compute ports at `speed`, one per NIC, in rail order: `ports[i]` is GPU i's
    NIC (rail i + 1), from the catalog's GPU-to-port map when the server has one."""
    group = compute_group(model)
    mode = _mode_at(group, speed)
    if mode is None:
        raise GeneratorError(
            f"server {model.id} cannot run its compute ports at {speed}G; "
            f"modes: {', '.join(group.breakouts)}"
        )
    ports: list[str] = []
    cages: list[int] = []
    legs: list[int] = []
    overrides: dict[int, CageConfig] = {}
    _add_group_ports(group, mode, ports, cages, legs, overrides)
    order = sorted(range(len(ports)), key=lambda k: group.rail_of_position(k, len(ports)))
    return PortBlock(tuple(ports[k] for k in order), tuple(cages[k] for k in order),
                     tuple(legs[k] for k in order), overrides)


def _one_technology(switches: list[DeviceModel]) -> Technology | None:
    """The technology every switch runs when it is only one (the fabric's), else None."""
    shared = set.intersection(*(set(s.technology) for s in switches)) if switches else set()
    return next(iter(shared)) if len(shared) == 1 else None


def fabric_speed(server: DeviceModel, switches: list[DeviceModel], requested: int | None) -> int:
    """The fastest speed the server's compute ports (in the modes the switches' technology
    allows them) and every switch can all run."""
    offered_by_server = server_speeds(server, _one_technology(switches))
    common = set(offered_by_server)
    for switch in switches:
        common &= switch_speeds(switch)
    if requested is not None:
        if requested not in common:
            offered = ", ".join(f"{s}G" for s in sorted(common, reverse=True)) or "none"
            raise GeneratorError(
                f"{requested}G is not a speed that {server.model} and "
                f"{', '.join(sorted({s.model for s in switches}))} all run; common speeds: {offered}"
            )
        return requested
    if not common:
        parts = [f"{server.model}: {', '.join(f'{s}G' for s in sorted(offered_by_server))}"]
        parts += [
            f"{s.model}: {', '.join(f'{x}G' for x in sorted(switch_speeds(s)))}"
            for s in {s.id: s for s in switches}.values()  # leaf and spine may be one model
        ]
        raise GeneratorError(
            "the server and the switches share no port speed (" + "; ".join(parts) + "); "
            "pick switches that run the server's NIC speed"
        )
    return max(common)

