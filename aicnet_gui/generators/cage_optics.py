"""The optics a generator run installs, per device: cage configs, power draw, racks over budget.

The media choice gives an optic per cage (`media/bulk_choice.BulkSelection`).  Devices come in
few kinds (every DGX of a fabric gets the same optics in the same cages), so `DeviceOptics` groups
them by their list of (cage, optic) and works out cage configs and optic power once per list.
Power is counted as the analysis counts it (`model/power.py`): a model's maximum power, else its
typical, plus every optic in its cages.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..media.bulk_choice import BulkSelection
from ..model.cage_tables import CageConfig, cage_table
from ..model.catalog import Catalog
from ..model.fabric import Rack
from ..model.power import device_watts, optic_watts, optics_in_figure, rack_budget_kw
from .plan import FabricPlan
from .plan_links import LinkTable

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


    def watts(self, catalog: Catalog) -> list[float]:
        """Per device index the power of its optics in W (`model/power.py`), worked out once
        per kind of device."""
        per_kind: dict[tuple[tuple[int, str], ...], float] = {}
        out: list[float] = []
        for kind in self.of:
            watts = per_kind.get(kind)
            if watts is None:
                watts = per_kind[kind] = optic_watts(catalog, (optic for _, optic in kind))
            out.append(watts)
        return out


def racks_over_budget(
    fabric: FabricPlan, draw: Sequence[float], racks: list[Rack], feed_kw: float | None = None,
) -> list[tuple[Rack, float]]:
    """Racks whose devices draw more than the rack's budget (or one A/B feed's capacity):
    `draw` per device index in W, counted as RACK-POWER counts it."""
    total: dict[str, float] = {}
    for index, planned in enumerate(fabric.devices):
        if planned.rack is not None:
            total[planned.rack] = total.get(planned.rack, 0.0) + draw[index]
    over = []
    for rack in racks:
        budget = rack_budget_kw(rack.power_kw, feed_kw)
        if budget is not None and total.get(rack.id, 0.0) > budget * 1000 + 1e-6:
            over.append((rack, total[rack.id]))
    return over


def rule_draw(fabric: FabricPlan, optic_w: Sequence[float]) -> list[float]:
    """Per device index what RACK-POWER counts: the model's power (none when the catalog has
    no figure) and its optics (unless that power is a maximum stated with them)."""
    return [(device_watts(d.model) or 0.0) + (0.0 if optics_in_figure(d.model) else optic_w[i])
            for i, d in enumerate(fabric.devices)]


def power_notes(over: list[tuple[Rack, float]], feed_kw: float | None = None) -> list[str]:
    """The note on racks over their budget, naming the one that draws the most."""
    if not over:
        return []
    rack, watts = max(over, key=lambda item: item[1])
    return [
        f"{len(over)} rack(s) draw more than their budget once the optics are counted, e.g. "
        f"{rack.name}: {watts / 1000:.2f} kW > {rack_budget_kw(rack.power_kw, feed_kw):g} kW; "
        "raise the rack power or lower the servers per rack"
    ]
