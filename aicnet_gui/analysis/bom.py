"""The bill of materials of a fabric.

- devices by role and by catalog model;
- transceivers per part: one per cage that has an optic installed (a twin-port optic is one
  module for the two links of its cage); how many of them sit in a cage with no link;
- cable assemblies per part x ordered stock length: one per physical cable, i.e. per assembly
  id (all legs of a splitter are one cable, ordered at the length of its longest leg), or per
  link without an assembly id.  A length that is unknown shows as `PART@unknown`; one longer
  than the part's longest stock length as `PART@>MAX`;
- field-replaceable parts a device model lists (the laser source modules of a co-packaged
  optics switch), per model and kind (`bom_parts.py`); a co-packaged optical engine is part of
  its switch, never an optic to order;
- spares: the project's spares percentage of every optic part and of every cable part x
  length, rounded up once per part (`order_quantities`: the one place order quantities are
  computed; the PDF's order list uses it through `compute_bom`);
- power: devices at their maximum (typical when only that is known) plus optics and active
  cables; NVL72 compute trays with no figure of their own at their share of their rack's stated
  power, which includes their optics, and a maximum stated with active cables without its
  optics added again (`model/power.py`); the racks such devices fill are listed as what is
  ordered; devices without a power figure are listed, not guessed.  Per model the figure
  counted and how sure it is (`power_figures`, `power_caveats`): every total built on a typical,
  missing or unverified figure says which;
- cost: the sum of prices, spares included, or None with the parts that have no price.  The
  built-in catalogs carry no prices; a user's price list (catalog/prices.py) gives them: a
  device or optic by catalog id or part number, a cable at its ordered length by its per-length
  part number or `PART@LENGTH` (a cable price never applies to another length).  With a price
  list only the list counts, in its currency; without one, catalog `price_usd` values (USD).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..catalog.prices import PriceList
from ..model import arrays
from ..model.catalog_entities import CableAssembly
from ..model.document import FabricDocument
from ..model.power import PowerBasis, counts_optics, power_basis, share_watts, system_racks
from ..model.wording import fmt_m
from .bom_parts import count_parts, is_ordered_optic, part_of
from .bom_planes import PlaneBom, plane_boms
from .index import NONE
from .rules_device import unlinked_optic_cages_of_all
from .state import State

TIER_NAMES = {0: "server", 1: "leaf", 2: "spine", 3: "core"}


@dataclass(frozen=True)
class Bom:
    devices_by_role: dict[str, int]
    devices_by_model: dict[str, int]
    links_by_tier: dict[str, int]
    links_total: int
    transceivers: dict[str, int]
    cables: dict[str, int]
    spares_percent: float
    transceiver_spares: dict[str, int]
    cable_spares: dict[str, int]
    power_w: float
    power_unknown: tuple[str, ...]
    cost_usd: float | None
    cost_known_usd: float
    unpriced: tuple[str, ...]
    links_without_cable: int = 0
    missing_optics: tuple[tuple[str, str, int], ...] = field(default=())  # (link, device, cage)
    #: optics counted above that sit in a cage none of whose ports has a link (OPTIC-UNLINKED)
    unlinked_optics: int = 0
    currency: str = "USD"
    price_list: str | None = None  # the price list's name, currency and date, when one was used
    #: per rack-scale system (an NVL72 rack) the racks its devices fill: the unit ordered
    rack_systems: dict[str, int] = field(default_factory=dict)
    #: per device model of the design: the power figure one device counts for, and how sure
    power_figures: dict[str, PowerBasis] = field(default_factory=dict)

    def power_caveats(self) -> list[tuple[str, int, str]]:
        """(model id, devices, what the power total must say of it) for every model counted
        at a typical, missing or unverified figure, the uncounted first."""
        out = [(model, self.devices_by_model.get(model, 0), basis.caveat)
               for model, basis in self.power_figures.items() if basis.caveat]
        return sorted(out, key=lambda x: (self.power_figures[x[0]].figure != "none", x[0]))

    def power_unverified_w(self, maximum_only: bool = False) -> float:
        """The part of the devices' power counted at a figure no vendor document read states
        (secondary or derived: `PowerBasis.verified` false), in W; `maximum_only`: of the
        total on the maximum basis (`maximum_power`)."""
        return round(sum(b.watts * self.devices_by_model.get(m, 0)
                         for m, b in self.power_figures.items()
                         if b.watts is not None and not b.verified
                         and not (maximum_only and b.figure == "typical")), 1)

    def maximum_power(self) -> tuple[float, tuple[str, ...]]:
        """The power total on one basis, every part at its maximum figure (devices at their
        maximum or their share of a rack's stated power, optics and active cables at their
        module power: `model/power.maximum_watts`), in W: the total without the devices
        counted at a typical figure; and the models it leaves out (a typical figure only, or
        none), which a reader of that total must be told."""
        typical = sum(b.watts * self.devices_by_model.get(m, 0)
                      for m, b in self.power_figures.items()
                      if b.figure == "typical" and b.watts is not None)
        left_out = sorted(m for m, b in self.power_figures.items()
                          if b.figure in ("typical", "none"))
        return round(self.power_w - typical, 1), tuple(left_out)

    def power_basis_json(self) -> dict[str, Any]:
        """`aicnet bom --json`'s `power_basis`: per model the figure counted, and the models
        whose figure is typical, unverified or missing."""
        figures = self.power_figures
        at_maximum, left_out = self.maximum_power()
        return {
            "models": {m: {"devices": self.devices_by_model.get(m, 0), "watts_each": b.watts,
                           "figure": b.figure, "verified": b.verified,
                           "optics_included": b.includes_optics, "source": b.source}
                       for m, b in figures.items()},
            "typical": sorted(m for m, b in figures.items() if b.figure == "typical"),
            "unverified": sorted(m for m, b in figures.items()
                                 if b.figure != "none" and not b.verified),
            "no_figure": sorted(m for m, b in figures.items() if b.figure == "none"),
            "unverified_w": self.power_unverified_w(),
            # on the maximum basis alone (aicnet compare's): the total, and the models left out
            "maximum_w": at_maximum,
            "no_maximum": list(left_out),
        }
    #: field-replaceable parts per `MODEL:KIND` (bom_parts.py) and their spares
    parts: dict[str, int] = field(default_factory=dict)
    part_spares: dict[str, int] = field(default_factory=dict)
    #: a multi-plane design's BOM per plane, and what the planes share (bom_planes.py)
    planes: dict[str, PlaneBom] = field(default_factory=dict)

    def part_orders(self) -> dict[str, OrderLine]:
        """Per replaceable part: quantity, spares, order."""
        return order_quantities(self.parts, self.spares_percent)

    def transceiver_orders(self) -> dict[str, OrderLine]:
        """Per optic part: quantity, spares, order (as `aicnet bom` prints them)."""
        return order_quantities(self.transceivers, self.spares_percent)

    def cable_orders(self) -> dict[str, OrderLine]:
        """Per cable part x ordered length: quantity, spares, order."""
        return order_quantities(self.cables, self.spares_percent)

    def to_json(self, details: bool = False) -> dict[str, Any]:
        """The `aicnet bom --json` document; `details` adds spares, power and cost notes."""
        data: dict[str, Any] = {
            "devices": {"by_role": self.devices_by_role, "by_model": self.devices_by_model,
                        "rack_systems": self.rack_systems},
            "links": {"by_tier": self.links_by_tier, "total": self.links_total},
            "transceivers": self.transceivers,
            "cables": self.cables,
            "power_w": self.power_w,
            "power_basis": self.power_basis_json(),
            "cost": self.cost_usd,
        }
        if self.parts:  # a design with field-replaceable parts (laser modules of CPO switches)
            data["replaceable_parts"] = self.parts
        if self.planes:  # a multi-plane design: each plane's part, and the shared part
            data["planes"] = {name: part.to_json() for name, part in self.planes.items()}
        if details:
            data["details"] = {
                "spares_percent": self.spares_percent,
                "spares": {"transceivers": self.transceiver_spares, "cables": self.cable_spares},
                "power_unknown_models": list(self.power_unknown),
                "cost_known_usd": self.cost_known_usd,
                "unpriced_parts": list(self.unpriced),
                "currency": self.currency,
                "price_list": self.price_list,
                "links_without_cable": self.links_without_cable,
                "optics_not_linked": self.unlinked_optics,
                "missing_optics": [
                    {"link": link, "device": dev, "cage": cage}
                    for link, dev, cage in self.missing_optics
                ],
            }
            if self.parts:
                data["details"]["spares"]["replaceable_parts"] = self.part_spares
        return data


def cable_key(part: str, ordered: float | None, length: float | None, longest: float) -> str:
    if length is None:
        return f"{part}@unknown"
    if ordered is None:
        return f"{part}@>{fmt_m(longest)}"
    return f"{part}@{fmt_m(ordered)}"


def spares_for(quantity: int, percent: float) -> int:
    """Spares of one part: `percent` of the installed quantity, rounded up (0 of 0)."""
    return math.ceil(quantity * percent / 100 - 1e-9) if quantity > 0 else 0


@dataclass(frozen=True, slots=True)
class OrderLine:
    """One part to order: installed quantity, spares, and their sum."""

    key: str
    quantity: int
    spares: int

    @property
    def order(self) -> int:
        return self.quantity + self.spares


def order_quantities(counts: Mapping[str, int], percent: float) -> dict[str, OrderLine]:
    """Per part (optic id, or cable `PART@LENGTH`): quantity, spares and order, spares rounded
    up once per part over every tier that uses it."""
    return {k: OrderLine(k, n, spares_for(n, percent)) for k, n in counts.items()}


def _spares(counts: dict[str, int], percent: float) -> dict[str, int]:
    return {k: line.spares for k, line in order_quantities(counts, percent).items()}


def compute_bom(doc: FabricDocument, prices: PriceList | None = None) -> Bom:
    state = State.load(doc, [])
    rows = state.store.link_rows()
    roles, models, optics, included = _count_devices(doc)
    # optics in cages none of whose ports has a link, found for every device at once
    unlinked = sum(map(len, unlinked_optic_cages_of_all(state)[1].values()))
    cables, cable_power = _count_cables(state, rows)
    power, unknown = _power(doc, models, optics - included)
    percent = doc.settings.spares_percent
    optic_spares = _spares(dict(optics), percent)
    cable_spares = _spares(dict(cables), percent)
    parts = count_parts(doc.catalog, models)
    part_spares = _spares(dict(parts), percent)
    pricer = Pricer(doc, prices)
    known_cost, unpriced = _cost(pricer, models, optics, optic_spares, cables, cable_spares)
    known_cost, unpriced = _parts_cost(pricer, parts, part_spares, known_cost, unpriced)
    return Bom(
        devices_by_role=dict(sorted(roles.items())),
        devices_by_model=dict(sorted(models.items())),
        links_by_tier=_links_by_tier(state, rows),
        links_total=len(rows),
        transceivers=dict(sorted(optics.items())),
        cables=dict(sorted(cables.items(), key=_part_then_length)),
        spares_percent=percent,
        transceiver_spares=dict(sorted(optic_spares.items())),
        cable_spares=dict(sorted(cable_spares.items(), key=_part_then_length)),
        power_w=round(power + cable_power, 1),
        power_unknown=tuple(sorted(unknown)),
        cost_usd=None if unpriced else round(known_cost, 2),
        cost_known_usd=round(known_cost, 2),
        unpriced=tuple(sorted(unpriced)),
        links_without_cable=int((state.store.l["cable"][rows] == NONE).sum()),
        missing_optics=_missing_optics(state, rows),
        unlinked_optics=unlinked,
        currency=prices.currency if prices is not None else "USD",
        price_list=prices.describe() if prices is not None else None,
        rack_systems=_rack_systems(doc, models),
        power_figures={m: power_basis(doc.catalog.device(m)) for m in sorted(models)},
        parts=dict(sorted(parts.items())),
        part_spares=dict(sorted(part_spares.items())),
        planes=plane_boms(doc, state, rows, _count_cables, _links_by_tier, _part_then_length),
    )


def _count_devices(
    doc: FabricDocument,
) -> tuple[Counter[str], Counter[str], Counter[str], Counter[str]]:
    """Devices per role and per model, installed optics per part, of them those whose power a
    device's figure includes (an NVL72 tray's, in its rack's).

    Devices share cage tables (model/cage_tables.py): the ordered optics of each distinct
    table are listed once, and the devices are counted per (table, included); the counters
    are then filled in the order a device-by-device walk fills them (the first device with
    an optic comes first), so that sums over them add in the same order.  (A walk over every
    cage of 16k devices was ~0.2 s of a BOM at 308k links.)"""
    roles: Counter[str] = Counter()
    models: Counter[str] = Counter()
    optics: Counter[str] = Counter()
    included: Counter[str] = Counter()
    # id() of a table -> its ordered optics, cage by cage (the tables are the documents', alive
    # throughout: an id cannot be reused meanwhile)
    ordered: dict[int, list[str]] = {}
    per_table: Counter[tuple[int, bool]] = Counter()
    catalog = doc.catalog
    for device in doc.devices.values():
        roles[doc.role_of(device).value] += 1
        models[device.model] += 1
        cages = device.cages
        key = id(cages)
        if key not in ordered:
            ordered[key] = [config.transceiver for config in cages.values()
                            if config.transceiver and is_ordered_optic(catalog, config.transceiver)]
        per_table[key, not counts_optics(doc.device_model(device))] += 1
    for (key, inside), count in per_table.items():
        for optic in ordered[key]:
            optics[optic] += count
            if inside:
                included[optic] += count
    return roles, models, optics, included


def _links_by_tier(state: State, rows: np.ndarray) -> dict[str, int]:
    col = state.store.l
    tiers = np.sort(np.stack([col["tier_a"][rows], col["tier_b"][rows]]), axis=0)
    pairs = Counter(zip(tiers[0].tolist(), tiers[1].tolist(), strict=True))
    return {f"{TIER_NAMES.get(a, a)}-{TIER_NAMES.get(b, b)}": n for (a, b), n in sorted(pairs.items())}


def _count_cables(state: State, rows: np.ndarray) -> tuple[Counter[str], float]:
    """Physical cables per `PART@LENGTH` (one per assembly, or per link without one) and
    their power."""
    store = state.store
    col = store.l
    parts = state.cindex.cables
    cable = col["cable"][rows]
    plain = rows[(cable != NONE) & ~col["has_asm"][rows]]
    cables, power = _count_plain_cables(parts, col["cable"][plain], col["length"][plain],
                                        col["ordered"][plain])
    by_assembly: dict[str, list[int]] = {}
    for row in rows[col["has_asm"][rows] & (cable != NONE)].tolist():
        by_assembly.setdefault(store.assembly[row], []).append(row)
    for group in by_assembly.values():  # a splitter: one cable, its longest leg's length
        part = parts[int(col["cable"][group[0]])]
        lengths = col["length"][group]
        ordered = col["ordered"][group]
        longest = part.stock_lengths_m[-1]
        if np.isnan(lengths).any():
            key = cable_key(part.id, None, None, longest)
        elif np.isnan(ordered).any():
            key = cable_key(part.id, None, float(lengths.max()), longest)
        else:
            key = cable_key(part.id, float(ordered.max()), float(lengths.max()), longest)
        cables[key] += 1
        power += part.power_w
    return cables, power


def _count_plain_cables(parts: list[CableAssembly], cable: np.ndarray, length: np.ndarray,
                        ordered: np.ndarray) -> tuple[Counter[str], float]:
    """The cables of links without an assembly, one each, counted per `PART@LENGTH` in numpy
    (a Python step per cable was 2 s of `aicnet bom` at 308k links): per part, whether the
    length is unknown, past the part's longest stock length, or ordered at a stock length."""
    cables: Counter[str] = Counter()
    if not len(cable):
        return cables, 0.0
    unknown, over = np.isnan(length), np.isnan(ordered)
    kind = np.where(unknown, 0, np.where(over, 1, 2))
    stock = np.where(kind == 2, ordered, 0.0)
    # one code per (part, kind, stock length), ordered as the triples (a sort of 1-D integers:
    # np.unique of the (n, 3) rows took ~1 s at 300k links)
    lengths, at_rank = np.unique(stock, return_inverse=True)
    codes, counts = arrays.unique((cable.astype(np.int64) * 3 + kind) * len(lengths) + at_rank,
                                  return_counts=True)
    combos = zip((codes // (3 * len(lengths))).tolist(), ((codes // len(lengths)) % 3).tolist(),
                 lengths[codes % len(lengths)].tolist(), strict=True)
    for (part_index, how, at), count in zip(combos, counts.tolist(), strict=True):
        part = parts[part_index]
        longest = part.stock_lengths_m[-1]
        key = cable_key(part.id, at if how == 2 else None, None if how == 0 else longest, longest)
        cables[key] += count
    watts = np.array([part.power_w for part in parts], dtype=float)
    return cables, float(sum(watts[cable].tolist()))  # added in link order, as one by one


def _missing_optics(state: State, rows: np.ndarray) -> tuple[tuple[str, str, int], ...]:
    """(link, device, cage) of every fibre cord end without an optic."""
    store = state.store
    col = store.l
    cable = col["cable"][rows]
    fibre = np.zeros(len(rows), dtype=bool)
    fibre[cable != NONE] = state.cindex.c_fibre[cable[cable != NONE]]
    cage = state.endpoints.arrays()["cage"]
    missing: list[tuple[str, str, int]] = []
    for side in ("a", "b"):
        for row in rows[fibre & (col[side + "_opt"][rows] == NONE)].tolist():
            dev = int(col[side][row])
            missing.append((store.link_ids[row], store.dev_ids[dev], int(cage[col[side + "_ep"][row]])))
    return tuple(sorted(missing))


def _rack_systems(doc: FabricDocument, models: Counter[str]) -> dict[str, int]:
    """Per rack-scale system (by name) the racks its devices fill: what is ordered."""
    racks: Counter[str] = Counter()
    for model_id, count in models.items():
        model = doc.catalog.device(model_id)
        if model.rack_system is not None:
            racks[model.rack_system.name] += system_racks(model, count)
    return dict(sorted(racks.items()))


def _power(doc: FabricDocument, models: Counter[str], optics: Counter[str]) -> tuple[float, set[str]]:
    """Devices at their maximum (else typical) power, NVL72 trays at their share of their
    rack's stated power (`model/power.py`), plus `optics` (those the devices' figures do not
    include); models with no figure."""
    catalog = doc.catalog
    power = 0.0
    unknown: set[str] = set()
    for model_id, count in models.items():
        watts = share_watts(catalog.device(model_id))
        if watts is None:
            unknown.add(model_id)
        else:
            power += watts * count
    for optic_id, count in optics.items():
        power += catalog.transceiver(optic_id).power_w * count
    return power, unknown


def _cost(pricer: Pricer, models: Counter[str], optics: Counter[str], optic_spares: dict[str, int],
          cables: Counter[str], cable_spares: dict[str, int]) -> tuple[float, set[str]]:
    """The known cost (spares included) and the parts without a price."""
    known = 0.0
    unpriced: set[str] = set()
    listed = pricer.prices is not None  # with a price list a cable is unpriced per length
    parts = ([(pricer.device, k, n, k) for k, n in models.items()]
             + [(pricer.optic, k, n + optic_spares[k], k) for k, n in optics.items()]
             + [(pricer.cable, k, n + cable_spares[k], k if listed else k.split("@", 1)[0])
                for k, n in cables.items()])
    for price_of, key, count, name in parts:
        price = price_of(key)
        if price is None:
            unpriced.add(name)
        else:
            known += price * count
    return known, unpriced


def _parts_cost(pricer: Pricer, parts: Counter[str], spares: dict[str, int], known: float,
                unpriced: set[str]) -> tuple[float, set[str]]:
    """`known` and `unpriced` with the replaceable parts added."""
    for key, count in parts.items():
        price = pricer.part(key)
        if price is None:
            unpriced.add(key)
        else:
            known += price * (count + spares[key])
    return known, unpriced


class Pricer:
    """Unit prices of the BOM's parts: from the price list when there is one, else the
    catalog's `price_usd`."""

    def __init__(self, doc: FabricDocument, prices: PriceList | None) -> None:
        self.catalog = doc.catalog
        self.prices = prices

    def device(self, model_id: str) -> float | None:
        model = self.catalog.device(model_id)
        if self.prices is None:
            return model.price_usd
        return self.prices.price([model_id, *model.part_numbers, model.model])

    def optic(self, optic_id: str) -> float | None:
        optic = self.catalog.transceiver(optic_id)
        if self.prices is None:
            return optic.price_usd
        return self.prices.price([optic_id, *optic.part_numbers, optic.model])

    def part(self, key: str) -> float | None:
        """A replaceable part (`MODEL:KIND`): the price list by part number or key, else the
        catalog's `price_usd`."""
        found = part_of(self.catalog, key)
        if found is None:
            return None
        if self.prices is None:
            return found[1].price_usd
        return self.prices.price([*found[1].part_numbers, key])

    def cable(self, key: str) -> float | None:
        part_id, _, length_text = key.partition("@")
        part = self.catalog.cable(part_id)
        if self.prices is None:
            return part.price_usd
        try:
            length: float | None = float(length_text)
        except ValueError:
            return None  # unknown or too long: no stock length, so nothing to price
        number = part.order_number(length)
        return self.prices.price([number, key] if number else [key])


def _part_then_length(item: tuple[str, int]) -> tuple[str, float]:
    """Sort key of a `PART@LENGTH_M` line: by part, then by length as a number (3 before 10)."""
    part, _, length = item[0].rpartition("@")
    try:
        return part, float(length)
    except ValueError:
        return item[0], 0.0
