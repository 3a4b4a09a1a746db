"""The optics a generator run installs, per device: cage configs, power draw, racks over budget.

The media choice gives an optic per cage (`media_bulk.BulkSelection`).  Devices come in few
kinds (every DGX of a fabric gets the same optics in the same cages), so `DeviceOptics` groups
them by their list of (cage, optic) and works out cage configs and optic power once per list.
Power is counted as the analysis counts it: a model's maximum power, else its typical, plus
every optic in its cages.
"""

from __future__ import annotations

import numpy as np

from ..model.cage_tables import CageConfig, cage_table
from ..model.catalog import Catalog
from ..model.fabric import Rack
from .link_table import LinkTable
from .media_bulk import BulkSelection
from .plan import FabricPlan

_NO_OPTICS: tuple[tuple[int, str], ...] = ()


class DeviceOptics:
    """Per device index its optics as a tuple of (cage number, optic id), in cage order."""

    def __init__(self, devices: int, table: LinkTable, selection: BulkSelection) -> None:
        has = selection.optic >= 0
        owner = table.cages.device[has]  # cages are sorted by (device, cage number)
        numbers, codes = table.cages.number[has], selection.optic[has]
        bounds = np.flatnonzero(np.diff(owner)) + 1
        starts = np.concatenate([[0], bounds]).tolist() if len(owner) else []
        ends = np.concatenate([bounds, [len(owner)]]).tolist() if len(owner) else []
        kinds: dict[bytes, tuple[tuple[int, str], ...]] = {}
        self.of: list[tuple[tuple[int, str], ...]] = [_NO_OPTICS] * devices
        parts = selection.parts
        for start, end in zip(starts, ends, strict=True):
            key = numbers[start:end].tobytes() + codes[start:end].tobytes()
            kind = kinds.get(key)
            if kind is None:
                kind = kinds[key] = tuple(
                    (cage, parts[code])
                    for cage, code in zip(numbers[start:end].tolist(), codes[start:end].tolist(),
                                          strict=True))
            self.of[int(owner[start])] = kind
        self._merged: dict[tuple, dict[int, CageConfig]] = {}

    def cages(self, index: int, planned: dict[int, CageConfig]) -> dict[int, CageConfig]:
        """The device's cage configs: its planned ones with the chosen optics, by cage.  The
        table is validated once and shared by every device with the same plan and optics."""
        optics = self.of[index]
        key = (optics, tuple((cage, c.mode, c.transceiver) for cage, c in planned.items()))
        configs = self._merged.get(key)
        if configs is None:
            merged = dict(planned)
            for cage, optic in optics:
                old = merged.get(cage)
                merged[cage] = CageConfig(mode=old.mode if old else None, transceiver=optic)
            configs = self._merged[key] = cage_table(dict(sorted(merged.items())))
        return configs


def racks_over_budget(
    catalog: Catalog, fabric: FabricPlan, optics: DeviceOptics, racks: list[Rack]
) -> list[tuple[Rack, float]]:
    """Racks whose devices plus installed optics draw more than the budget."""
    optic_watts: dict[tuple[tuple[int, str], ...], float] = {}
    draw: dict[str, float] = {}
    for index, planned in enumerate(fabric.devices):
        if planned.rack is None:
            continue
        model = planned.model
        watts = model.power_max_w if model.power_max_w is not None else model.power_typical_w
        watts = watts or 0.0
        kind = optics.of[index]
        extra = optic_watts.get(kind)
        if extra is None:
            extra = optic_watts[kind] = sum(catalog.transceivers[o].power_w for _, o in kind)
        watts += extra
        draw[planned.rack] = draw.get(planned.rack, 0.0) + watts
    return [(r, draw.get(r.id, 0.0)) for r in racks
            if r.power_kw is not None and draw.get(r.id, 0.0) > r.power_kw * 1000 + 1e-6]


def power_notes(over: list[tuple[Rack, float]]) -> list[str]:
    """The note on racks over their budget, naming the one that draws the most."""
    if not over:
        return []
    rack, watts = max(over, key=lambda item: item[1])
    return [
        f"{len(over)} rack(s) draw more than their budget once the optics are counted, e.g. "
        f"{rack.name}: {watts / 1000:.2f} kW > {rack.power_kw:g} kW; raise the rack power or "
        "lower the servers per rack"
    ]
