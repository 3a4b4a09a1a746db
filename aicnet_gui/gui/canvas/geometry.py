"""Where things are on a device drawn on the Topology canvas (pure Python, no Qt).

A device is drawn like its front panel: a header on the left (role stripe, icon, name, model)
and its cages to the right, in one row, or two rows (odd cages on top) when there are many.
A cage in a breakout mode is split into its legs, so each logical port has its own cell.  The
same geometry answers "which port is under this point" and "where does this link end", and it
is shared by every device with the same model and breakout modes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...generators.canvas_layout import (
    CAGE_H,
    CAGE_W,
    GAP,
    GROUP_GAP,
    HEADER_W,
    MARGIN,
    MIN_CONTENT_W,
    ONE_ROW_H,
    TWO_ROW_H,
    panel_rows,
)
from ...model.cage_tables import CageConfig
from ...model.catalog_entities import BreakoutMode, DeviceModel
from ...model.memo import IdentityMemo
from ...model.ports import mode_overrides

Rect = tuple[float, float, float, float]

_LEG_GRID: dict[int, tuple[int, int]] = {1: (1, 1), 2: (2, 1), 4: (2, 2), 8: (4, 2)}


@dataclass(frozen=True, slots=True)
class PortCell:
    """One logical port's cell, in device-local coordinates."""

    name: str
    cage: int
    leg: int
    legs: int
    speed_gbps: int
    fabric: bool
    rect: Rect

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.rect
        return x + w / 2, y + h / 2


@dataclass(frozen=True, slots=True)
class CageCell:
    cage: int
    group: str
    form_factor: str
    legs: int
    fabric: bool
    rect: Rect


@dataclass(frozen=True, slots=True)
class DeviceGeometry:
    width: float
    height: float
    rows: int
    cages: tuple[CageCell, ...]
    ports: dict[str, PortCell]

    def port_at(self, x: float, y: float) -> PortCell | None:
        """The port whose cell contains the device-local point (x, y), or None."""
        for cage in self.cages:
            cx, cy, cw, ch = cage.rect
            if cx - 1 <= x <= cx + cw + 1 and cy - 1 <= y <= cy + ch + 1:
                best = None
                best_d = 1e9
                for port in self.ports.values():
                    if port.cage != cage.cage:
                        continue
                    px, py = port.centre
                    d = (px - x) ** 2 + (py - y) ** 2
                    if d < best_d:
                        best, best_d = port, d
                return best
        return None


def _split(rect: Rect, legs: int) -> list[Rect]:
    x, y, w, h = rect
    cols, rows = _LEG_GRID.get(legs, (legs, 1))
    cw, ch = w / cols, h / rows
    cells = []
    for index in range(legs):
        col, row = index % cols, index // cols
        cells.append((x + col * cw, y + row * ch, cw, ch))
    return cells


def build_geometry(model: DeviceModel, modes: tuple[tuple[int, str], ...]) -> DeviceGeometry:
    """Lay out the cages and logical ports of `model` in the given breakout modes."""
    overrides = dict(modes)
    groups = sorted(model.cages, key=lambda g: (not g.fabric,))  # fabric cages first
    rows = panel_rows(model)
    grid_h = rows * CAGE_H + (rows - 1) * GAP
    height = ONE_ROW_H if rows == 1 else TWO_ROW_H
    top = (height - grid_h) / 2
    x = HEADER_W + MARGIN
    cages: list[CageCell] = []
    ports: dict[str, PortCell] = {}
    for group_index, group in enumerate(groups):
        if group_index:
            x += GROUP_GAP - GAP
        group_rows = rows if group.count > 1 else 1
        for k, cage in enumerate(group.cage_numbers):
            col, row = (k // group_rows, k % group_rows)
            rect = (x + col * (CAGE_W + GAP), top + row * (CAGE_H + GAP), CAGE_W, CAGE_H)
            mode = BreakoutMode.parse(overrides.get(cage, group.default_breakout))
            cages.append(CageCell(cage, group.name, group.form_factor, mode.legs, group.fabric, rect))
            for leg, cell in enumerate(_split(rect, mode.legs), start=1):
                name = group.port_name(cage, leg, mode.legs)
                ports[name] = PortCell(name, cage, leg, mode.legs, mode.speed_gbps, group.fabric, cell)
        cols = -(-group.count // group_rows)
        x += cols * (CAGE_W + GAP)
    content_w = max(x - GAP - (HEADER_W + MARGIN), MIN_CONTENT_W)
    width = HEADER_W + MARGIN + content_w + MARGIN
    return DeviceGeometry(width, height, rows, tuple(cages), ports)


_CACHE: dict[tuple[str, tuple[tuple[int, str], ...]], tuple[DeviceModel, DeviceGeometry]] = {}
#: devices read from a file share their cage tables: most are found here by the table itself
_BY_TABLE: IdentityMemo[tuple[DeviceModel, DeviceGeometry]] = IdentityMemo(4096)


def device_geometry(model: DeviceModel, cages: dict[int, CageConfig]) -> DeviceGeometry:
    """The (cached) geometry of a device of `model` with the per-cage overrides `cages`."""
    same = _BY_TABLE.get(cages, model.id)
    if same is not None and same[0] is model:
        return same[1]
    key = (model.id, mode_overrides(cages))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is model:
        geometry = hit[1]
    else:
        geometry = build_geometry(model, key[1])
        _CACHE[key] = (model, geometry)
    _BY_TABLE.put(cages, (model, geometry), model.id)
    return geometry
