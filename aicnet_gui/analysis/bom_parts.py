"""The field-replaceable parts of the bill of materials: units a device model lists as ordered
and spared on their own (`DeviceModel.replaceable_parts`: the external laser source modules of a
co-packaged optics switch, 18 per Quantum-X Photonics Q3450-LD), and which optics are not parts
at all (a co-packaged optical engine is built into its switch: never ordered).

A part's key is `MODEL:KIND` (`nvidia-q3450-ld:laser-source`); its quantity is the units per
device times the devices of the model; spares follow the project's spares percentage like every
other part (`bom.order_quantities`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ..model.catalog import Catalog
from ..model.catalog_entities import DeviceModel, ReplaceablePart


def part_key(model: DeviceModel, part: ReplaceablePart) -> str:
    """The BOM key of a replaceable part of `model`: `MODEL:KIND`."""
    return f"{model.id}:{part.kind}"


def part_of(catalog: Catalog, key: str) -> tuple[DeviceModel, ReplaceablePart] | None:
    """The model and part a BOM key names, or None."""
    model_id, _, kind = key.partition(":")
    model = catalog.devices.get(model_id)
    if model is None:
        return None
    part = next((p for p in model.replaceable_parts if p.kind == kind), None)
    return None if part is None else (model, part)


def part_name(catalog: Catalog, key: str) -> str:
    """What the order list calls a part: `Q3450-LD external laser source (ELS) module`."""
    found = part_of(catalog, key)
    return key if found is None else f"{found[0].model} {found[1].name}"


def count_parts(catalog: Catalog, models: Mapping[str, int]) -> Counter[str]:
    """Replaceable parts per key for `models` (model id -> devices)."""
    parts: Counter[str] = Counter()
    for model_id, count in models.items():
        model = catalog.devices.get(model_id)
        for part in model.replaceable_parts if model is not None else ():
            parts[part_key(model, part)] += part.count * count
    return parts


def is_ordered_optic(catalog: Catalog, optic_id: str) -> bool:
    """False for a co-packaged optical engine (built into its switch, not a part), True for a
    pluggable optic (and for an id the catalog does not know: it is still on the order)."""
    optic = catalog.transceivers.get(optic_id)
    return optic is None or not optic.co_packaged
