"""BOM lines for the PDF: part x length, per tier, with spares, power and cost (cabling.md §5).

* Cables: one per *physical* cable (the links of a splitter or twin-port assembly share one),
  by tier, part and ordered stock length.
* Optics: one per cage that holds a transceiver - the twin-port rule: an 800G twin-port optic
  serves two links and is counted once; straight 1:1 links to single-port NIC optics count one
  optic at each end.  A cage's tier is the tier of the links it carries.
* Devices: by model, with their maximum power (typical where only that is known), as the
  validator's BOM counts them.
The tier lines count what is installed; what to order (quantity, spares, order per part, and
per ordered length for cables) comes from `analysis.bom.compute_bom`, the one place spares are
computed, so the PDF's order list equals `aicnet bom` part by part: spares are
`Settings.spares_percent` of each order line's total over every tier (an optic part, a cable
part at one ordered length), rounded up once per line.  No catalog
part has a sourced price, so cost stays "unknown" unless the user's price list (or the catalog's
`price_usd`) gives one.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..analysis.bom import Bom, Pricer, cable_key, compute_bom
from ..analysis.bom_parts import is_ordered_optic, part_name, part_of
from ..analysis.bom_planes import PlaneBom
from ..catalog.prices import PriceList
from ..model.catalog_entities import CableAssembly, DeviceModel, length_of_part_number
from ..model.document import FabricDocument
from ..model.power import (
    PowerBasis,
    counts_optics,
    power_basis,
    rack_powered,
    share_watts,
    system_racks,
)
from ..model.wording import counted
from .cables import CablePlan

UNLINKED = "not linked"


@dataclass
class BomLine:
    kind: str
    tier: str
    part: str
    vendor: str
    part_numbers: str
    length_m: float | None
    quantity: int
    spares: int
    unit_power_w: float | None
    unit_price: float | None
    note: str = ""
    key: str = ""
    #: a rack-scale system's stated power per rack in W (shown, never added: its trays carry it)
    stated_power_w: float | None = None
    #: where that stated power is counted, for the W total cell ("on its trays", "not counted")
    power_counted: str = ""

    @property
    def order(self) -> int:
        return self.quantity + self.spares

    @property
    def power_w(self) -> float | None:
        return None if self.unit_power_w is None else self.unit_power_w * self.quantity

    @property
    def cost(self) -> float | None:
        return None if self.unit_price is None else self.unit_price * self.order


@dataclass
class BomTables:
    """Installed parts by tier (`cables`, `optics`: spares 0), devices, and the order list
    (`order_cables`, `order_optics`: per part, with spares, from `compute_bom`)."""

    cables: list[BomLine] = field(default_factory=list)
    optics: list[BomLine] = field(default_factory=list)
    devices: list[BomLine] = field(default_factory=list)
    #: the rack-scale systems (NVL72 racks) the devices above come in: what is ordered and
    #: powered as a unit; shown with the devices, not priced a second time
    rack_systems: list[BomLine] = field(default_factory=list)
    #: W of the optics above whose device's own figure includes them (an NVL72 tray's share of
    #: its rack's stated power, a switch maximum stated with active cables)
    included_optic_w: float = 0.0
    #: (model, devices, what the power total must say) of every device model counted at a
    #: typical, missing or unverified figure (`Bom.power_caveats`)
    power_caveats: list[tuple[str, int, str]] = field(default_factory=list)
    spares_percent: float = 0.0
    order_cables: list[BomLine] = field(default_factory=list)
    order_optics: list[BomLine] = field(default_factory=list)
    #: field-replaceable parts (laser source modules of co-packaged optics switches), with spares
    parts: list[BomLine] = field(default_factory=list)
    currency: str = "USD"
    price_list: str | None = None  # name, currency and date of the price list used
    #: a multi-plane design's BOM per plane and the shared part (analysis/bom_planes.py)
    planes: dict[str, PlaneBom] = field(default_factory=dict)

    def tiers(self) -> list[str]:
        return sorted({line.tier for line in self.cables + self.optics})

    def cable_totals(self) -> dict[str, int]:
        """{"CATALOG-ID@LENGTH": installed count} as the validator's BOM counts them."""
        totals: dict[str, int] = defaultdict(int)
        for line in self.cables:
            if line.key != "none@unknown" and not line.key.startswith("none@"):
                totals[line.key] += line.quantity
        return dict(sorted(totals.items()))

    def optic_totals(self) -> dict[str, int]:
        totals: dict[str, int] = defaultdict(int)
        for line in self.optics:
            totals[line.key] += line.quantity
        return dict(totals)


def cable_part_numbers(part: CableAssembly, length: float | None) -> str:
    """The part numbers of `part` at `length` (legacy and ordering), else its PN pattern(s)."""
    if length is not None:
        exact = [pn for pn in part.part_numbers if length_of_part_number(pn) == length]
        if exact:
            return ", ".join(exact)
    patterns = [pn for pn in part.part_numbers if "x" in pn.lower().rsplit("-", 1)[-1]]
    if patterns:
        return ", ".join(patterns)
    if any(length_of_part_number(pn) is not None for pn in part.part_numbers):
        if length is None:
            return f"{part.model} (no stock length fits)"
        return f"{part.model} (no part number listed for {length:g} m)"
    return ", ".join(part.part_numbers[:2])


def _device_caveats(part_numbers: list[str], basis: PowerBasis) -> str:
    """What a buyer must know of a device line: no part number to order it by, and what W each
    is when it is not a verified maximum (the column reads "max, else typical": a 2.9 kW
    typical switch is not a 2.9 kW power budget, and a secondary figure is not a datasheet's)."""
    out = ""
    if basis.figure == "typical":
        out += "; W each typical, no maximum in the catalog"
    elif basis.figure == "maximum" and basis.includes_optics:
        out += "; W each a maximum with active cables: its optics included, not added again"
    if basis.figure != "none" and not basis.verified:
        out += "; power figure unverified (secondary source)"
    if not part_numbers:
        out += "; no part number in the catalog"
    return out


def not_orderable(part: CableAssembly, length: float | None) -> str:
    """Why a buyer cannot order `part` at `length` from the printed part number, or "".

    A pattern such as `MFP7E30-Nxxx` is not a number a distributor takes, and a generic part
    (no part number at all) names no product; the order list says so instead of printing
    either as if it were orderable."""
    if part.order_number(length) is not None:
        return ""
    if length is not None and any(length_of_part_number(pn) == length
                                  for pn in part.part_numbers):
        return ""
    if not part.part_numbers:
        return "no part number: a generic part, choose a vendor's product"
    at = f" for {length:g} m" if length is not None else ""
    return f"no per-length part number{at} in the catalog: get it from the vendor"


def _order_lines(doc: FabricDocument, bom: Bom,
                 pricer: Pricer) -> tuple[list[BomLine], list[BomLine]]:
    """The order list of `bom`: one line per cable part x ordered length and per optic part."""
    cables: list[BomLine] = []
    for key, line in bom.cable_orders().items():
        part_id, _, length_text = key.partition("@")
        part = doc.catalog.cables.get(part_id)
        try:
            length: float | None = float(length_text)
        except ValueError:
            length = None
        cables.append(BomLine(
            kind="cable", tier="all", part=part.model if part else part_id,
            vendor=part.vendor if part else "",
            part_numbers=cable_part_numbers(part, length) if part else "",
            length_m=length, quantity=line.quantity, spares=line.spares,
            unit_power_w=part.power_w if part else None,
            unit_price=pricer.cable(key) if part else None,
            note="; ".join(x for x in (
                (f"{part.type} 1:{part.legs}" if part else "")
                + ("" if length is not None else f", length {length_text}"),
                not_orderable(part, length) if part else "") if x),
            key=key))
    optics = [_optic_line(doc, pricer, optic_id, "all", line.quantity, line.spares)
              for optic_id, line in bom.transceiver_orders().items()]
    return cables, optics


def _optic_line(doc: FabricDocument, pricer: Pricer, optic_id: str, tier: str, quantity: int,
                spares: int, twin_note: bool = False) -> BomLine:
    """One line of an optic part; `twin_note`: a twin-port optic's note says it serves two
    links from one cage (the installed lines)."""
    optic = doc.catalog.transceivers.get(optic_id)
    if optic is None:
        note = "not in the catalog"
    elif twin_note and optic.twin_port:
        note = f"twin-port {optic.pmd}: one per cage, 2 links"
    else:
        note = optic.pmd
    return BomLine(
        kind="optic", tier=tier, part=optic.model if optic else optic_id,
        vendor=optic.vendor if optic else "",
        part_numbers=", ".join(optic.part_numbers[:2]) if optic else "",
        length_m=None, quantity=quantity, spares=spares,
        unit_power_w=optic.power_w if optic else None,
        unit_price=pricer.optic(optic_id) if optic else None,
        note=note, key=optic_id)


def _part_lines(doc: FabricDocument, bom: Bom, pricer: Pricer) -> list[BomLine]:
    """One order line per replaceable part (`MODEL:KIND`), spares included; its power is in
    its device's figure."""
    lines = []
    for key, line in bom.part_orders().items():
        found = part_of(doc.catalog, key)
        model, part = found if found is not None else (None, None)
        lines.append(BomLine(
            kind="part", tier="replaceable part", part=part_name(doc.catalog, key),
            vendor=model.vendor if model else "",
            part_numbers=", ".join(part.part_numbers[:2]) if part else "",
            length_m=None, quantity=line.quantity, spares=line.spares, unit_power_w=None,
            unit_price=pricer.part(key),
            note=(f"{part.count} per {model.model}; power in the device's figure"
                  + ("" if part.part_numbers else "; no part number in the catalog"))
            if part and model else "not in the catalog", key=key))
    return lines


def bom_tables(doc: FabricDocument, plan: CablePlan, bom: Bom | None = None,
               prices: PriceList | None = None) -> BomTables:
    """The PDF's BOM; `bom` is `compute_bom(doc, prices)` when the caller has it already;
    prices come from the user's price list `prices`, else the catalog's `price_usd`."""
    percent = doc.settings.spares_percent
    pricer = Pricer(doc, prices)
    tables = BomTables(spares_percent=percent,
                       currency=prices.currency if prices is not None else "USD",
                       price_list=prices.describe() if prices is not None else None)
    bom = bom or compute_bom(doc, prices)
    tables.order_cables, tables.order_optics = _order_lines(doc, bom, pricer)
    tables.power_caveats = bom.power_caveats()
    tables.parts = _part_lines(doc, bom, pricer)
    tables.planes = bom.planes
    tables.cables = _installed_cable_lines(doc, plan, pricer)
    tables.optics = _installed_optic_lines(doc, plan, pricer)
    _add_device_lines(tables, doc, pricer)
    return tables


# ---------------------------------------------------------------- installed cables
def _physical_cable(rows: list) -> tuple[str, float | None]:
    """The BOM key and ordered length of one physical cable (the plan's rows of its legs): its
    longest leg decides, as in the validator's BOM; no length without every leg's length."""
    part = rows[0].part
    part_id = part.id if part is not None else "none"
    lengths = [r.length_m for r in rows]
    ordered = [r.ordered_m for r in rows]
    if any(x is None for x in lengths):
        return cable_key(part_id, None, None, 0.0), None
    if any(x is None for x in ordered):
        longest = part.stock_lengths_m[-1] if part is not None else 0.0
        return cable_key(part_id, None, max(lengths), longest), None
    return cable_key(part_id, max(ordered), max(lengths), 0.0), max(ordered)


def _installed_cables(plan: CablePlan) -> dict[tuple[str, str, str], list[float | None]]:
    """(tier, cable part id or "none", BOM key) -> the ordered length of each physical cable
    (the links of a splitter or twin-port assembly share one cable)."""
    physical: dict[str, list] = {}
    for row in plan.rows:
        physical.setdefault(row.number, []).append(row)
    cables: dict[tuple[str, str, str], list[float | None]] = defaultdict(list)
    for rows in physical.values():
        first = rows[0]
        key, order_m = _physical_cable(rows)
        cables[(first.tier, first.part.id if first.part is not None else "none", key)].append(
            order_m)
    return cables


def _installed_cable_lines(doc: FabricDocument, plan: CablePlan, pricer: Pricer) -> list[BomLine]:
    """One line per tier, cable part and ordered length, in tier, part and length order."""
    lines = []
    for (tier, part_id, key), ordered in sorted(
        _installed_cables(plan).items(),
        key=lambda kv: (kv[0][0], kv[0][1], kv[1][0] or 0.0, kv[0][2])
    ):
        part = doc.catalog.cables.get(part_id)
        length = ordered[0]
        suffix = "" if length is not None else f", length {key.split('@', 1)[1]}"
        lines.append(BomLine(
            kind="cable", tier=tier,
            part=part.model if part else "no cable chosen",
            vendor=part.vendor if part else "",
            part_numbers=cable_part_numbers(part, length) if part else "",
            length_m=length, quantity=len(ordered), spares=0,
            unit_power_w=part.power_w if part else None,
            unit_price=pricer.cable(key) if part else None,
            note=(f"{part.type} 1:{part.legs}" if part else "") + suffix,
            key=key,
        ))
    return lines


# ---------------------------------------------------------------- installed optics
def _installed_optic_lines(doc: FabricDocument, plan: CablePlan, pricer: Pricer) -> list[BomLine]:
    """One line per tier and optic part: each cage that holds an ordered optic counts once, in
    the tier of the first link the plan lists on it (`UNLINKED` for a cage without a link)."""
    cage_tier: dict[tuple[str, int], str] = {}
    for row in plan.rows:
        for end in (row.a, row.b):
            cage_tier.setdefault((end.dev.id, end.cage), row.tier)
    optics: dict[tuple[str, str], int] = defaultdict(int)
    for device in doc.devices.values():
        for cage, config in device.cages.items():
            if config.transceiver and is_ordered_optic(doc.catalog, config.transceiver):
                tier = cage_tier.get((device.id, cage), UNLINKED)
                optics[(tier, config.transceiver)] += 1
    return [_optic_line(doc, pricer, optic_id, tier, quantity, 0, twin_note=True)
            for (tier, optic_id), quantity in sorted(optics.items())]


# ---------------------------------------------------------------- devices
def _add_device_lines(tables: BomTables, doc: FabricDocument, pricer: Pricer) -> None:
    """One line per device model (with the roles its devices play), the rack-scale systems
    they come in, and the W of the optics a model's own figure already includes."""
    devices: dict[str, int] = defaultdict(int)
    roles: dict[str, Counter[str]] = defaultdict(Counter)
    for device in doc.devices.values():
        devices[device.model] += 1
        roles[device.model][doc.role_of(device).value.replace("_", " ")] += 1
    for model_id, quantity in sorted(devices.items()):
        model = doc.catalog.device(model_id)
        role = ", ".join(f"{n} {r}" if len(roles[model_id]) > 1 else r
                         for r, n in sorted(roles[model_id].items()))
        note = f"{model.height_ru}U" + (f", {model.gpus} GPUs" if model.gpus else "")
        if model.rack_system is not None:
            system_note, rack_line = _rack_system(model, quantity)
            note += system_note
            tables.rack_systems.append(rack_line)
        if not counts_optics(model):  # its figure includes the optics in its cages
            tables.included_optic_w += _optic_watts(doc, model_id)
        if not rack_powered(model):  # a rack's tray: its rack's power and order cover it
            note += _device_caveats(model.part_numbers if model.rack_system is None else ["rack"],
                                    power_basis(model))
        tables.devices.append(BomLine(
            kind="device", tier=role, part=model.model, vendor=model.vendor,
            part_numbers=", ".join(model.part_numbers[:2]), length_m=None, quantity=quantity,
            spares=0,
            unit_power_w=share_watts(model),
            unit_price=pricer.device(model_id),
            note=note,
            key=model_id,
        ))


def _rack_system(model: DeviceModel, quantity: int) -> tuple[str, BomLine]:
    """What the device line of a rack-scale system's trays adds to its note, and the line of
    the racks they come in (ordered as a unit; its stated power shown, never added)."""
    system = model.rack_system
    racks = system_racks(model, quantity)
    note = f", in {counted(racks, system.name)}"
    if rack_powered(model):
        note += " (W each: its share of the rack's stated power, optics included)"
    stated = ("no document states its power" if system.power_kw is None
              else f"{system.power_kw:g} kW stated per rack"
              + (", counted on its trays" if rack_powered(model) else ""))
    return note, BomLine(
        kind="rack", tier="rack-scale system", part=system.name, vendor=model.vendor,
        part_numbers="", length_m=None, quantity=racks, spares=0, unit_power_w=None,
        unit_price=None,
        note=f"{system.devices} {model.model}s each, ordered as a rack; {stated}",
        key="",
        stated_power_w=None if system.power_kw is None else system.power_kw * 1000,
        power_counted="on its trays" if rack_powered(model) else "trays instead")


def _optic_watts(doc: FabricDocument, model_id: str) -> float:
    """The W of the optics in the cages of every device of `model_id`."""
    return sum(doc.catalog.transceiver(c.transceiver).power_w
               for d in doc.devices.values() if d.model == model_id
               for c in d.cages.values() if c.transceiver)
