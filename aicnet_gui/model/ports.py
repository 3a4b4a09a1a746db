"""Logical ports of a device, derived from its model's cages and each cage's breakout mode.

A QM9700 cage in `2x400G` gives the logical ports `5/1` and `5/2`; an SN5600 cage in `1x800G`
gives `swp3`.  Ports are never stored in a `.fabric` file: they follow from the catalog and the
per-cage modes, so a file stays small and can't disagree with its hardware.
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalog_entities import BreakoutMode, CageGroup, DeviceModel
from .fabric import CageConfig


@dataclass(frozen=True, slots=True)
class LogicalPort:
    """One logical port: a leg of a cage running in some breakout mode."""

    name: str
    cage: int
    leg: int
    legs: int
    speed_gbps: int
    lanes: int
    group: CageGroup

    @property
    def split(self) -> bool:
        return self.legs > 1


class PortConfigError(ValueError):
    """A cage override that the device model does not allow."""


def cage_mode(model: DeviceModel, cages: dict[int, CageConfig], cage: int) -> str:
    config = cages.get(cage)
    if config is not None and config.mode:
        return config.mode
    return model.cage_group_of[cage].default_breakout


def check_cage_overrides(model: DeviceModel, cages: dict[int, CageConfig]) -> None:
    """Raise PortConfigError when an override names a missing cage or an unsupported mode."""
    groups = model.cage_group_of
    for cage, config in cages.items():
        group = groups.get(cage)
        if group is None:
            raise PortConfigError(f"{model.id} has no cage {cage} (cages {min(groups)}-{max(groups)})")
        if config.mode is not None and config.mode not in group.breakouts:
            raise PortConfigError(
                f"cage {cage} of {model.id} does not support {config.mode}; "
                f"supported: {', '.join(group.breakouts)}"
            )


def build_port_table(model: DeviceModel, modes: tuple[tuple[int, str], ...]) -> dict[str, LogicalPort]:
    """All logical ports of `model` with the given (cage, mode) overrides, in cage order."""
    overrides = dict(modes)
    table: dict[str, LogicalPort] = {}
    for group in model.cages:
        for cage in group.cage_numbers:
            mode = BreakoutMode.parse(overrides.get(cage, group.default_breakout))
            lanes = group.lanes // mode.legs
            for leg in range(1, mode.legs + 1):
                name = group.port_name(cage, leg, mode.legs)
                if name in table:
                    raise PortConfigError(f"{model.id}: port name {name!r} appears twice")
                table[name] = LogicalPort(name, cage, leg, mode.legs, mode.speed_gbps, lanes, group)
    return table


def mode_overrides(cages: dict[int, CageConfig]) -> tuple[tuple[int, str], ...]:
    return tuple(sorted((cage, c.mode) for cage, c in cages.items() if c.mode))


class PortTables:
    """A cache of port tables shared by every device with the same model and modes."""

    def __init__(self) -> None:
        self._tables: dict[tuple[str, tuple[tuple[int, str], ...]], dict[str, LogicalPort]] = {}

    def get(self, model: DeviceModel, cages: dict[int, CageConfig]) -> dict[str, LogicalPort]:
        key = (model.id, mode_overrides(cages))
        table = self._tables.get(key)
        if table is None:
            table = build_port_table(model, key[1])
            self._tables[key] = table
        return table

    def clear(self) -> None:
        self._tables.clear()
