"""Integer indices over the catalog and the port tables, with numpy attribute arrays.

The analysis keeps its per-link and per-device facts in numpy columns (shared/reference/
performance.md §2: numpy columns are ~30x faster than objects for whole-fabric checks).  The
columns hold small integers: a model index, a cage-group index, an optic index, a cable index
and an *endpoint class* (one logical port of one port table: cage, leg, legs, speed, cage
group, NIC rail).  This module assigns those integers and keeps the attribute arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..media.facts import COPPER_TYPES
from ..model.catalog import Catalog
from ..model.catalog_entities import (
    CableAssembly,
    CageGroup,
    DeviceModel,
    Transceiver,
)
from ..model.memo import IdentityMemo
from ..model.ports import LogicalPort

NONE = -1


def _grow(array: np.ndarray, size: int) -> np.ndarray:
    if size <= len(array):
        return array
    bigger = np.zeros(max(size, int(len(array) * 1.5) + 16), dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger


@dataclass(frozen=True, slots=True)
class GroupRef:
    model: DeviceModel
    group: CageGroup


class CatalogIndex:
    """Indices and attribute arrays for the device models, cage groups, optics and cables."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.models: list[DeviceModel] = list(catalog.devices.values())
        self.model_idx = {m.id: i for i, m in enumerate(self.models)}
        self.groups: list[GroupRef] = []
        self._group_idx: IdentityMemo[int] = IdentityMemo(None)
        for model in self.models:
            for group in model.cages:
                self._group_idx.put(group, len(self.groups))
                self.groups.append(GroupRef(model, group))
        self.g_lane = np.array([g.group.lane_gbps for g in self.groups] or [0], dtype=np.int64)
        self.g_fabric = np.array([g.group.fabric for g in self.groups] or [False], dtype=bool)
        self.g_power = np.array(
            [g.group.power_class_w if g.group.power_class_w is not None else np.inf
             for g in self.groups] or [np.inf], dtype=float)
        self.optics: list[Transceiver] = list(catalog.transceivers.values())
        self.optic_idx: dict[str | None, int] = {t.id: i for i, t in enumerate(self.optics)}
        self.optic_idx[None] = NONE
        self.o_power = np.array([t.power_w for t in self.optics] + [0.0], dtype=float)
        self.o_power_list = [t.power_w for t in self.optics] + [0.0]
        self.o_ports = np.array([t.optical_ports for t in self.optics] + [1], dtype=np.int64)
        self.cables: list[CableAssembly] = list(catalog.cables.values())
        self.cable_idx: dict[str | None, int] = {c.id: i for i, c in enumerate(self.cables)}
        self.cable_idx[None] = NONE
        # the arrays have one extra slot at the end for "no cable" (index -1)
        self.c_copper = np.array([c.type in COPPER_TYPES for c in self.cables] + [False])
        self.c_fibre = np.array([c.type == "fibre" for c in self.cables] + [False])
        self.c_legs = np.array([c.legs for c in self.cables] + [1], dtype=np.int64)
        self.c_power = np.array([c.power_w for c in self.cables] + [0.0], dtype=float)
        # the stock ladder, and the ladder + 1e-9 that `CableAssembly.ordered_length` compares
        self.stocks: list[np.ndarray] = [np.asarray(c.stock_lengths_m, dtype=float) for c in self.cables]
        self.ladders: list[np.ndarray] = [s + 1e-9 for s in self.stocks]

    def group_index(self, group: CageGroup) -> int:
        index = self._group_idx.get(group)
        if index is None:
            raise KeyError(group.name)
        return index


class Endpoints:
    """Endpoint classes: one per (port table, logical port); a port table is shared by every
    device of one model in the same breakout modes (model/ports.py)."""

    def __init__(self, cindex: CatalogIndex) -> None:
        self.cindex = cindex
        # a registry, not a cache: a table's endpoint classes stay the same for this analysis
        self._tables: IdentityMemo[dict[str, int]] = IdentityMemo(None)
        self.ports: list[LogicalPort] = []
        self._cage: list[int] = []
        self._leg: list[int] = []
        self._legs: list[int] = []
        self._speed: list[int] = []
        self._group: list[int] = []
        self._rail: list[int] = []
        # the kind of a port (cage group, legs, speed, leg): what the compatibility rules see
        self._kind: list[int] = []
        self._kinds: dict[tuple[int, int, int, int], int] = {}
        self.kind_port: list[LogicalPort] = []
        self._dirty = True
        self._arrays: dict[str, np.ndarray] = {}

    def port_map(self, table: dict[str, LogicalPort], compute_group: CageGroup | None) -> dict[str, int]:
        """Port name -> endpoint class for one port table (registered on first use)."""
        known = self._tables.get(table)
        if known is not None:
            return known
        mapping: dict[str, int] = {}
        position = 0
        nics = (sum(1 for port in table.values() if port.group is compute_group)
                if compute_group is not None else 0)
        for name, port in table.items():
            mapping[name] = len(self.ports)
            self.ports.append(port)
            self._cage.append(port.cage)
            self._leg.append(port.leg)
            self._legs.append(port.legs)
            self._speed.append(port.speed_gbps)
            group_i = self.cindex.group_index(port.group)
            self._group.append(group_i)
            kind_key = (group_i, port.legs, port.speed_gbps, port.leg)
            kind = self._kinds.get(kind_key)
            if kind is None:
                kind = self._kinds[kind_key] = len(self.kind_port)
                self.kind_port.append(port)
            self._kind.append(kind)
            if compute_group is not None and port.group is compute_group:
                # rail i is GPU i-1's NIC: the catalog's GPU-to-port map, else port order
                self._rail.append(compute_group.rail_of_position(position, nics))
                position += 1
            else:
                self._rail.append(0)
        self._tables.put(table, mapping)
        self._dirty = True
        return mapping

    def rail_of(self, ep: int) -> int:
        return self._rail[ep]

    def group_of(self, ep: int) -> int:
        return self._group[ep]

    def kind_group(self, kind: int) -> int:
        return self.cindex.group_index(self.kind_port[kind].group)

    def arrays(self) -> dict[str, np.ndarray]:
        """cage, leg, legs, speed, group, rail (0: not a compute NIC), fabric, lane per class."""
        if self._dirty:
            group = np.array(self._group or [0], dtype=np.int64)
            self._arrays = {
                "cage": np.array(self._cage or [0], dtype=np.int64),
                "leg": np.array(self._leg or [0], dtype=np.int64),
                "legs": np.array(self._legs or [1], dtype=np.int64),
                "speed": np.array(self._speed or [0], dtype=np.int64),
                "group": group,
                "rail": np.array(self._rail or [0], dtype=np.int64),
                "kind": np.array(self._kind or [0], dtype=np.int64),
                "fabric": self.cindex.g_fabric[group],
            }
            self._dirty = False
        return self._arrays
