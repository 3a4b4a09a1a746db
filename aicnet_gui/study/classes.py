"""A candidate's cost and power split by part class (servers, switches, optics, cables), for
the stacked bars of the comparison.

Both splits are the BOM's own lines regrouped: cost from `analysis.bom.Pricer` over the BOM's
order quantities (devices as counted, optics and cables with their spares, as `compute_bom`
prices them); power from `model/power.py`, the one house of the watts the BOM counts, on the comparison's
one basis (`maximum_watts`: devices at their maximum, an NVL72 tray at its rack's share, a model
with only a typical figure not counted; optics a device's own figure does not include; active
cables).  Each split is checked against the BOM's total and left out, with
a note, when it does not add up to it: the bars never show a figure the BOM does not.
"""

from __future__ import annotations

from collections import Counter

from ..analysis.bom import Bom, Pricer
from ..model.catalog_entities import Role
from ..model.document import FabricDocument
from ..model.power import counts_optics, maximum_watts

CLASSES = ("servers", "switches", "optics", "cables")


def _device_class(role: Role) -> str:
    return "servers" if role in (Role.GPU_SERVER, Role.STORAGE) else "switches"


def _devices_by_class(doc: FabricDocument) -> dict[str, Counter[str]]:
    """Device models per class, counted from the devices (a model used as leaf and spine is a
    switch either way)."""
    counts: dict[str, Counter[str]] = {c: Counter() for c in ("servers", "switches")}
    for device in doc.devices.values():
        counts[_device_class(doc.role_of(device))][device.model] += 1
    return counts


def cost_by_class(doc: FabricDocument, bom: Bom, pricer: Pricer) -> dict[str, float] | None:
    """The priced cost of each class (spares included); None when the classes do not add up
    to the BOM's priced total."""
    split = dict.fromkeys(CLASSES, 0.0)
    for group, models in _devices_by_class(doc).items():
        for model, count in models.items():
            price = pricer.device(model)
            if price is not None:
                split[group] += price * count
    for part, line in bom.transceiver_orders().items():
        price = pricer.optic(part)
        if price is not None:
            split["optics"] += price * line.order
    for key, line in bom.cable_orders().items():
        price = pricer.cable(key)
        if price is not None:
            split["cables"] += price * line.order
    split = {k: round(v, 2) for k, v in split.items()}
    if abs(sum(split.values()) - bom.cost_known_usd) > 0.05:  # rounding of four sums
        return None
    return split


def power_by_class(doc: FabricDocument, bom: Bom) -> dict[str, float] | None:
    """The watts of each class at their maximum; None when they do not add up to the BOM's
    total on that basis (`Bom.maximum_power`)."""
    catalog = doc.catalog
    split = dict.fromkeys(CLASSES, 0.0)
    for group, models in _devices_by_class(doc).items():
        for model, count in models.items():
            watts = maximum_watts(catalog.device(model))
            if watts is not None:
                split[group] += watts * count
    for device in doc.devices.values():
        if not counts_optics(doc.device_model(device)):
            continue  # its figure includes its optics (an NVL72 tray's rack power)
        for config in device.cages.values():
            if config.transceiver:
                split["optics"] += catalog.transceiver(config.transceiver).power_w
    cables: Counter[str] = Counter()
    for key, count in bom.cables.items():
        cables[key.partition("@")[0]] += count
    for part, count in cables.items():
        split["cables"] += catalog.cable(part).power_w * count
    split = {k: round(v, 1) for k, v in split.items()}
    if abs(sum(split.values()) - bom.maximum_power()[0]) > 1.0:
        return None
    return split
