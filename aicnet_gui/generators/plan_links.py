"""A fabric plan's links as numpy columns, for the bulk steps of a generator run.

`link_table(fabric)` resolves every planned link's port names once (through one port table per
device model, breakout modes and side) into the cages and legs at both ends; `CageTable` lists
the cages the links use, with their `CageSpec`.  `estimate_lengths` gives every link's estimated
length with the arithmetic of `model.floor.route_estimate_m` (the same float operations in
the same order, as the analysis store does it), NaN where a device is not placed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model import arrays
from ..model.catalog_entities import SWITCH_ROLES
from ..model.fabric import LengthEstimation, Rack
from ..model.fit import CageSpec, cage_spec
from ..model.floor import rack_floor_xy
from ..model.ports import build_port_table, mode_overrides
from .plan import FabricPlan


@dataclass
class CageTable:
    """The cages the links use: device index, cage number and spec (index into `specs`)."""

    device: np.ndarray
    number: np.ndarray
    spec: np.ndarray
    specs: list[CageSpec]


@dataclass
class LinkTable:
    """Per planned link: device index, cage index (into `cages`) and leg at each end, and its
    tier pair (index into `tiers`)."""

    a: np.ndarray
    b: np.ndarray
    a_cage: np.ndarray
    a_leg: np.ndarray
    b_cage: np.ndarray
    b_leg: np.ndarray
    tier: np.ndarray
    tiers: list[str]
    cages: CageTable


@dataclass
class _Ports:
    """Every port of every distinct port table: cage, leg and spec code per row."""

    cage: list[int]
    leg: list[int]
    spec: list[int]
    specs: list[CageSpec]


def _port_rows(fabric: FabricPlan) -> tuple[list[dict[str, int]], _Ports]:
    """Per device: port name -> row of the shared port arrays."""
    ports = _Ports([], [], [], [])
    spec_codes: dict[CageSpec, int] = {}
    tables: dict[tuple, dict[str, int]] = {}
    per_device: list[dict[str, int]] = []
    for planned in fabric.devices:
        switch = planned.role in SWITCH_ROLES  # a storage server's cages are NIC side too
        overrides = mode_overrides(planned.cages)
        key = (planned.model.id, overrides, switch)
        table = tables.get(key)
        if table is None:
            table = tables[key] = {}
            for name, port in build_port_table(planned.model, overrides).items():
                spec = cage_spec(port.group, port.legs, port.speed_gbps, switch)
                table[name] = len(ports.cage)
                ports.cage.append(port.cage)
                ports.leg.append(port.leg)
                ports.spec.append(spec_codes.setdefault(spec, len(spec_codes)))
        per_device.append(table)
    ports.specs = list(spec_codes)
    return per_device, ports


def link_table(fabric: FabricPlan) -> LinkTable:
    """The columns of `fabric.links`, with their cages numbered in (device, cage) order."""
    links = fabric.links
    count = len(links)
    per_device, ports = _port_rows(fabric)
    a = np.fromiter((x.a for x in links), np.int64, count)
    b = np.fromiter((x.b for x in links), np.int64, count)
    a_row = np.fromiter((per_device[x.a][x.a_port] for x in links), np.int64, count)
    b_row = np.fromiter((per_device[x.b][x.b_port] for x in links), np.int64, count)
    port_cage = np.array(ports.cage, dtype=np.int64)
    stride = int(port_cage.max()) + 1 if len(port_cage) else 1
    keys = np.concatenate([a * stride + port_cage[a_row], b * stride + port_cage[b_row]])
    cage_keys, cage_of_end = arrays.unique(keys, return_inverse=True)
    spec = np.zeros(len(cage_keys), dtype=np.int64)
    spec[cage_of_end] = np.array(ports.spec, dtype=np.int64)[np.concatenate([a_row, b_row])]
    cages = CageTable(cage_keys // stride, cage_keys % stride, spec, ports.specs)
    tier_codes: dict[str, int] = {}
    tier = np.fromiter((tier_codes.setdefault(x.tier, len(tier_codes)) for x in links),
                       np.int64, count)
    port_leg = np.array(ports.leg, dtype=np.int64)
    return LinkTable(a, b, cage_of_end[:count], port_leg[a_row], cage_of_end[count:],
                     port_leg[b_row], tier, list(tier_codes), cages)


def estimate_lengths(
    fabric: FabricPlan, table: LinkTable, racks: dict[str, Rack], params: LengthEstimation
) -> np.ndarray:
    """Estimated length of every link (route + slack, rounded to 1 cm); NaN if unplaced."""
    rack_code: dict[str, int] = {}
    floor: list[tuple[float, float]] = []
    count = len(fabric.devices)
    rack = np.full(count, -1, dtype=np.int64)
    ru = np.zeros(count)
    height_ru = np.zeros(count)
    for index, device in enumerate(fabric.devices):
        if device.rack is None or device.ru is None:
            continue
        code = rack_code.get(device.rack)
        if code is None:
            code = rack_code[device.rack] = len(floor)
            floor.append(rack_floor_xy(racks[device.rack], params))
        rack[index], ru[index], height_ru[index] = code, device.ru, device.model.height_ru
    if not floor:
        return np.full(len(table.a), np.nan)
    xy = np.array(floor, dtype=np.float64)
    # model.floor.device_height_m: the middle of the front panel
    height = params.rack_base_m + (ru - 1 + height_ru / 2) * params.ru_height_m
    a, b = table.a, table.b
    rack_a, rack_b = rack[a], rack[b]
    ha, hb = height[a], height[b]
    ra, rb = np.maximum(rack_a, 0), np.maximum(rack_b, 0)
    tray = np.maximum(np.maximum(params.tray_height_m, ha), hb)
    across = (tray - ha) + (tray - hb) + np.abs(xy[ra, 0] - xy[rb, 0]) + np.abs(xy[ra, 1] - xy[rb, 1])
    inside = np.abs(ha - hb) + params.in_rack_m
    route = np.where(rack_a == rack_b, inside, across)
    estimate = np.rint((route * (1 + params.slack_percent / 100) + params.slack_m) * 100) / 100
    return np.where((rack_a >= 0) & (rack_b >= 0), estimate, np.nan)
