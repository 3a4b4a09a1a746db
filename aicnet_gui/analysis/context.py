"""Small look-ups on catalog device models that several analysis modules need."""

from __future__ import annotations

from ..model.catalog_entities import CageGroup, DeviceModel


def compute_group(model: DeviceModel) -> CageGroup | None:
    """The cage group of a server that carries its GPU NICs: `compute`, else the first fabric
    group (None for a model without fabric cages)."""
    for group in model.cages:
        if group.name == "compute":
            return group
    for group in model.cages:
        if group.fabric:
            return group
    return None
