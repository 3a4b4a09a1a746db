"""The summary of a generator run (`GenerationResult`): counts per role, model and tier, racks,
optics and cables to order, optics power, longest link and the known part of the cost.

Cables are counted per physical part: the links of one assembly (a splitter or a twin-port
cable) are one part, ordered in the stock length that covers its longest link.  Sums run in
the order the parts first appear, as a per-link loop would add them.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..media.bulk_choice import BulkSelection
from ..model import arrays
from ..model.catalog import Catalog
from ..model.catalog_entities import Role
from .generation_result import GenerationResult
from .placement import Placement
from .plan import FabricPlan
from .plan_links import LinkTable

_ROLE_ORDER = (Role.GPU_SERVER, Role.LEAF, Role.SPINE, Role.CORE)
_TIERS = ("server-leaf", "leaf-spine", "spine-core")


def _in_first_order(codes: np.ndarray) -> list[tuple[int, int]]:
    """(code, count) of each distinct code, in the order the codes first appear."""
    values, first, counts = arrays.unique(codes, return_index=True, return_counts=True)
    ordering = np.argsort(first)
    return list(zip(values[ordering].tolist(), counts[ordering].tolist(), strict=True))


def optic_counts(optic: np.ndarray, cage_order: np.ndarray, parts: list[str]) -> dict[str, int]:
    """Optics to order, in the order the media choice installed them."""
    return {parts[code]: n for code, n in _in_first_order(optic[cage_order])}


def cable_counts(
    catalog: Catalog, cable: np.ndarray, assembly: np.ndarray, lengths: np.ndarray,
    parts: list[str],
) -> Counter[str]:
    """Cables to order as `part@<stock length>m`: one per assembly, else one per link."""
    links = np.flatnonzero((cable >= 0) & ~np.isnan(lengths))
    single = links[assembly[links] == 0]
    grouped = links[assembly[links] > 0]
    grouped = grouped[np.argsort(assembly[grouped], kind="stable")]
    heads = np.flatnonzero(np.diff(assembly[grouped], prepend=-1) != 0)
    longest = np.maximum.reduceat(lengths[grouped], heads) if len(grouped) else lengths[grouped]
    first = np.concatenate([single, grouped[heads]])  # a part's first link
    part_cable = cable[first]  # the links of an assembly share its part
    part_length = np.concatenate([lengths[single], longest])
    ordering = np.argsort(first, kind="stable")
    part_cable, part_length = part_cable[ordering], part_length[ordering]
    length_values, length_code = arrays.unique(part_length, return_inverse=True)
    pairs = part_cable * len(length_values) + length_code.reshape(-1)
    counts: Counter[str] = Counter()
    for pair, n in _in_first_order(pairs):
        code, at = divmod(pair, len(length_values))
        part = parts[code]
        ordered = catalog.cables[part].ordered_length(float(length_values[at]))
        counts[f"{part}@{ordered:g}m"] += n
    return counts


def tally(
    catalog: Catalog,
    fabric: FabricPlan,
    table: LinkTable,
    placement: Placement,
    selection: BulkSelection,
    lengths: np.ndarray,
    technology: str,
    name: str,
) -> GenerationResult:
    """The run's summary (lengths in m per link, NaN: unknown)."""
    optics = {part: n for part, n in
              optic_counts(selection.optic, selection.cage_order, selection.parts).items()
              if not catalog.transceivers[part].co_packaged}  # a CPO engine is its switch's
    cables = cable_counts(catalog, selection.cable, selection.assembly, lengths, selection.parts)
    by_role = Counter(d.role.value for d in fabric.devices)
    by_model = Counter(d.model.id for d in fabric.devices)
    by_tier = dict(zip(table.tiers, np.bincount(table.tier, minlength=len(table.tiers)).tolist(),
                       strict=True))
    power = sum(catalog.transceivers[p].power_w * n for p, n in optics.items())
    priced = [(catalog.devices[m].price_usd, n) for m, n in by_model.items()]
    priced += [(catalog.transceivers[p].price_usd, n) for p, n in optics.items()]
    priced += [(catalog.cables[label.partition("@")[0]].price_usd, n)
               for label, n in cables.items()]
    known = [price * n for price, n in priced if price is not None]
    measured = lengths[~np.isnan(lengths)]
    return GenerationResult(
        template=fabric.template, name=name, tiers=fabric.tiers, speed_gbps=fabric.speed,
        technology=technology,
        gpus=sum(d.model.gpus for d in fabric.devices if d.role == Role.GPU_SERVER),
        devices_by_role={r.value: by_role[r.value] for r in _ROLE_ORDER if by_role[r.value]},
        devices_by_model=dict(sorted(by_model.items())),
        links_by_tier={t: by_tier[t] for t in _TIERS if by_tier.get(t)},
        racks=len(placement.racks), server_racks=placement.server_racks,
        network_racks=placement.network_racks, rows=placement.rows,
        servers_per_rack=placement.servers_per_rack,
        transceivers=dict(sorted(optics.items())),
        cables=dict(sorted(cables.items(), key=lambda kv: _cable_sort(kv[0]))),
        optics_power_w=power, longest_link_m=float(measured.max()) if len(measured) else 0.0,
        cost_usd=sum(known) if known else None,
        unresolved=selection.unresolved, sizing=list(fabric.sizing),
        notes=list(fabric.notes) + list(placement.notes),
    )


def _cable_sort(key: str) -> tuple[str, float]:
    part, _, length = key.partition("@")
    return part, float(length.rstrip("m") or 0)
