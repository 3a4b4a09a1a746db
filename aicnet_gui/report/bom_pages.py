"""The bill-of-materials pages: what to order (per part, spares included, the numbers of
`aicnet bom`), cables and optics installed per tier with subtotals, devices, totals."""

from __future__ import annotations

from collections.abc import Callable

from ..analysis.bom_planes import PLANES_TITLE, plane_label
from ..model.document import FabricDocument
from ..model.wording import counted
from .analysis_data import AnalysisData
from .bom_lines import BomLine, BomTables
from .pdfpage import PdfWriter
from .text_flow import Column, Flow

SUBTOTAL_FILL = (0.88, 0.91, 0.95)


def _num(value: float | None, unit: str = "") -> str:
    if value is None:
        return "unknown"
    return f"{value:,.0f}{unit}" if value >= 100 else f"{value:g}{unit}"


def _money(lines: list[BomLine], currency: str = "USD") -> str:
    costs = [line.cost for line in lines]
    if not lines:
        return "-"
    if any(c is None for c in costs):
        known = sum(c for c in costs if c is not None)
        return "unknown" if not known else f"unknown (>= {currency} {known:,.0f})"
    return f"{currency} {sum(costs):,.0f}"


def _priced(tables: BomTables) -> bool:
    """Whether the BOM shows prices: a price list was used, or a catalog entry has one."""
    lines = tables.order_cables + tables.order_optics + tables.devices
    return tables.price_list is not None or any(line.unit_price is not None for line in lines)


def _unit(line: BomLine) -> str:
    return "no price" if line.unit_price is None else f"{line.unit_price:,.2f}"


def _line_cost(line: BomLine) -> str:
    return "no price" if line.cost is None else f"{line.cost:,.2f}"


def _unpriced(lines: list[BomLine]) -> str:
    """The parts of `lines` without a price, as a buyer asks for them (a cable at its length)."""
    names: list[str] = []
    for line in lines:
        if line.unit_price is not None:
            continue
        name = line.part_numbers if line.kind == "cable" and line.part_numbers else line.part
        if line.kind == "cable":
            length = (f"{line.length_m:g} m" if line.length_m
                      else line.key.split("@", 1)[-1])
            name = f"{name} ({length})" if length not in name else name
        if name not in names:
            names.append(name)
    return ", ".join(names)


def price_text(tables: BomTables) -> str:
    """Where the BOM's prices come from: the price list's name, currency and date, or none."""
    if tables.price_list is not None:
        return (f"Prices: from the price list {tables.price_list}; a part it does not list "
                "has no price.")
    return ("Prices: no price list (put prices.csv next to the design or in the user catalog "
            "folder, or pass --prices); aicnet invents no prices, so cost is 'unknown' where "
            "the catalog has no price.")


def _power(lines: list[BomLine]) -> str:
    powers = [line.power_w for line in lines]
    if any(p is None for p in powers):
        known = sum(p for p in powers if p is not None)
        return "unknown" if not known else f">= {known:,.0f} W"
    return f"{sum(powers):,.0f} W"


def _optics_power(tables: BomTables) -> str:
    """The optics' power not already in a device's figure (an NVL72 rack's stated power
    includes the optics in its trays)."""
    if not tables.included_optic_w:
        return _power(tables.optics)
    known = [line.power_w for line in tables.optics]
    if any(p is None for p in known):
        return _power(tables.optics)
    total = sum(p for p in known if p is not None)
    return (f"{total - tables.included_optic_w:,.0f} W (another {tables.included_optic_w:,.0f} W "
            "sit in devices whose power figure includes them: NVL72 trays' rack power, "
            "switch maximums stated with active cables)")


def _tiered(flow: Flow, lines: list[BomLine], columns: list[Column],
            cells: Callable[[BomLine], list[str]], what: str) -> None:
    rows: list[list[str]] = []
    fills: list[tuple[float, float, float] | None] = []
    bold: set[int] = set()
    tiers = sorted({line.tier for line in lines})
    for tier in tiers:
        group = [line for line in lines if line.tier == tier]
        for line in group:
            rows.append(cells(line))
            fills.append(None)
        quantity = sum(line.quantity for line in group)
        subtotal = [f"{tier} subtotal", "", "", "", str(quantity)]
        subtotal += [""] * (len(columns) - len(subtotal))
        subtotal[-1] = f"{what} installed; power {_power(group)}"
        bold.add(len(rows))
        rows.append(subtotal)
        fills.append(SUBTOTAL_FILL)
    flow.table(columns, rows, size=7.3, row_fills=fills, bold_rows=bold)


def draw_bom(writer: PdfWriter, doc: FabricDocument, tables: BomTables,
             analysis: AnalysisData | None, size: tuple[float, float],
             check: Callable[[], None] | None = None) -> None:
    flow = Flow(writer, "Bill of materials", size, check).start()
    writer.bookmark("Bill of materials", 0)
    flow.heading("Bill of materials", 1)
    flow.para(_how_counted(tables), size=8.2, rgb=(0.3, 0.3, 0.3))
    priced = _priced(tables)
    money = [Column(f"Unit {tables.currency}", 52, "right"),
             Column(f"Cost {tables.currency}", 64, "right")] if priced else []
    _order_list(flow, tables, priced, money)
    _installed(flow, tables)
    flow.heading("Devices", 2)
    flow.table([
        Column("Model", 0.22), Column("Vendor", 0.1 if priced else 0.14),
        Column("Role", 0.14 if priced else 0.16), Column("Part numbers", 0.2 if priced else 0.18),
        Column("Qty", 34, "right"),
        Column("W each", 50, "right"), Column("W total", 56, "right"),
        *money, Column("Note", 0.3 if priced else 0.30),
    ], [_device_cells(line, priced) for line in tables.devices + tables.rack_systems], size=7.3)
    if tables.planes:
        flow.heading("Per plane", 2)
        flow.para(PLANES_TITLE + "; cables per part, every ordered length together.", size=8.2,
                  rgb=(0.3, 0.3, 0.3))
        flow.table([Column("Plane", 50), Column("Devices", 0.22), Column("Optics", 0.26),
                    Column("Cables", 0.22), Column("Links", 0.3)],
                   [[plane_label(name), *part.summary()] for name, part in tables.planes.items()],
                   size=7.3)
    flow.heading("Totals", 2)
    flow.key_values(_totals(tables, analysis, priced))
    flow.close()


def _how_counted(tables: BomTables) -> str:
    """The paragraph under the heading: spares, what is counted per what, where prices come
    from."""
    return (
        f"Spares: {tables.spares_percent:g} % of each order line (an optic part; a cable part at "
        "one ordered length), rounded up once per line "
        "(a project setting; no authoritative spares rate exists): the order list below is "
        "the cables and optics to buy, part by part; the devices to buy are in the Devices "
        "table (no spares). Cables are counted per physical cable: the legs of a "
        "splitter and the two links of a twin-port DAC share one. Ordered lengths are the next "
        "stock length in each part's own ladder. Optics are counted per cage: a twin-port optic "
        "serves two links and is one part. "
        + ("Replaceable parts (the laser source modules of co-packaged optics switches) are "
           "ordered with spares too; a co-packaged port's optics are part of its switch. "
           if tables.parts else "") + price_text(tables))


def _length_cell(line: BomLine) -> str:
    """A cable's ordered length in m, else the length its BOM key gives ("unknown", ">30")."""
    return f"{line.length_m:g}" if line.length_m else line.key.split("@", 1)[-1]


def _order_list(flow: Flow, tables: BomTables, priced: bool, money: list[Column]) -> None:
    flow.heading("Order list", 2)
    order_rows = [[line.part, line.part_numbers,
                   _length_cell(line) if line.kind == "cable" else "", str(line.quantity),
                   str(line.spares), str(line.order),
                   *([_unit(line), _line_cost(line)] if priced else []), line.note]
                  for line in tables.order_cables + tables.order_optics + tables.parts]
    if order_rows:
        flow.table([
            Column("Part", 0.2), Column("Part numbers", 0.32), Column("Length m", 44, "right"),
            Column("Qty", 34, "right"), Column("Spares", 38, "right"), Column("Order", 38, "right"),
            *money, Column("Note", 0.22 if priced else 0.48),
        ], order_rows, size=7.3)
    else:
        flow.para("Nothing to order: no cables and no optics.", size=9)


def _installed(flow: Flow, tables: BomTables) -> None:
    """The cables and the optics installed, per tier with subtotals."""
    flow.heading("Cables by tier (installed)", 2)
    if tables.cables:
        _tiered(flow, tables.cables, [
            Column("Tier", 58), Column("Part", 0.2), Column("Part numbers", 0.3),
            Column("Length m", 44, "right"), Column("Qty", 34, "right"), Column("Note", 0.5),
        ], lambda line: [line.tier, line.part, line.part_numbers, _length_cell(line),
                         str(line.quantity), line.note], "cables")
    else:
        flow.para("No links, no cables.", size=9)
    flow.heading("Optics by tier (installed)", 2)
    if tables.optics:
        _tiered(flow, tables.optics, [
            Column("Tier", 58), Column("Part", 0.22), Column("Part numbers", 0.3),
            Column("W each", 40, "right"), Column("Qty", 34, "right"), Column("Note", 0.48),
        ], lambda line: [line.tier, line.part, line.part_numbers, _num(line.unit_power_w),
                         str(line.quantity), line.note], "optics")
    else:
        flow.para("No pluggable optics (copper or active cables only).", size=9)


def _to_order(lines: list[BomLine]) -> str:
    """`ORDER (INSTALLED + SPARES spares)` of order lines."""
    return (f"{sum(x.order for x in lines)} ({sum(x.quantity for x in lines)} + "
            f"{sum(x.spares for x in lines)} spares)")


def _totals(tables: BomTables, analysis: AnalysisData | None,
            priced: bool) -> list[tuple[str, str]]:
    """What to order, power and cost in all, the validator's totals beside them."""
    everything = tables.order_cables + tables.order_optics + tables.devices + tables.parts
    totals = [
        ("Cables to order", _to_order(tables.order_cables)),
        ("Optics to order", _to_order(tables.order_optics)),
        *([("Replaceable parts to order", _to_order(tables.parts))] if tables.parts else []),
        ("Power (max, else typical)", f"devices {_power(tables.devices)}, optics "
                                      f"{_optics_power(tables)}, cables {_power(tables.cables)}"),
        *_power_caveat_rows(tables),
        ("Cost", _money(everything, tables.currency)
         + (f" (price list {tables.price_list})" if tables.price_list else "")),
    ]
    missing = _unpriced(everything)
    if priced and missing:
        totals.append(("No price for", missing))
    if analysis is not None and analysis.ran and analysis.bom:
        totals += _validator_totals(analysis.bom, tables)
    totals.append(_cross_check(tables))
    return totals


def _power_caveat_rows(tables: BomTables) -> list[tuple[str, str]]:
    """The power figures every total above is built on when they are not verified maxima:
    typical, unverified or missing, per model (`Bom.power_caveats`)."""
    if not tables.power_caveats:
        return []
    return [("Power figures", "; ".join(f"{model} x{n}: {caveat}"
                                        for model, n, caveat in tables.power_caveats))]


def _device_cells(line: BomLine, priced: bool) -> list[str]:
    """One row of the devices table; a rack-scale system shows its stated power per rack and
    where that power is counted (on its trays), never a second total."""
    if line.kind == "rack":
        each = "unknown" if line.stated_power_w is None else _num(line.stated_power_w)
        total = line.power_counted if line.stated_power_w is not None else "unknown"
        money = ["in trays", "in trays"] if priced else []
    else:
        each, total = _num(line.unit_power_w), _num(line.power_w)
        money = [_unit(line), _line_cost(line)] if priced else []
    return [line.part, line.vendor, line.tier.replace("_", " "), line.part_numbers,
            str(line.quantity), each, total, *money, line.note]


def _validator_totals(bom: dict, tables: BomTables) -> list[tuple[str, str]]:
    out = []
    details = bom.get("details", {})
    power = bom.get("power_w")
    unknown = details.get("power_unknown_models", [])
    if isinstance(power, int | float):
        text = f"{power:,.0f} W"
        if unknown:
            text += f" (without {', '.join(unknown)}: no power figure in the catalog)"
        out.append(("Power, whole fabric", text))
    cost = bom.get("cost")
    unpriced = details.get("unpriced_parts", [])
    currency = details.get("currency", "USD")
    out.append(("Cost, whole fabric", f"{currency} {cost:,.0f}" if isinstance(cost, int | float)
                else f"unknown ({counted(len(unpriced), 'part')} without a price)"))
    return out


def _cross_check(tables: BomTables) -> tuple[str, str]:
    """Do the tier tables (from the cable plan) add up to the order list (`aicnet bom`)?"""
    mismatches = []
    if tables.cable_totals() != {x.key: x.quantity for x in tables.order_cables}:
        mismatches.append("cables")
    if tables.optic_totals() != {x.key: x.quantity for x in tables.order_optics}:
        mismatches.append("optics")
    if mismatches:
        return ("Counts", f"the tier tables count {' and '.join(mismatches)} differently "
                          "from the order list; check it before ordering")
    return ("Counts", "the tier tables add up to the order list, part by part")
