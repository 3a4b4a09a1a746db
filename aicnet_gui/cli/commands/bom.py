"""`aicnet bom FILE [--json] [--details]`: the bill of materials of a fabric.

Devices by role and model, transceivers per part (one per installed cage: a twin-port optic is
one module for two links), cable assemblies per part and ordered stock length (a splitter once
for all its legs), spares, power and cost; every device model counted at a typical, missing or unverified power
figure is listed under the power total.  --json prints exactly
`{"devices", "links", "transceivers", "cables", "power_w", "power_basis", "cost"}`
(`power_basis`: per model the figure counted, the models on a typical, unverified or no
figure, and the total with every part at its maximum, `maximum_w`, with the models it leaves
out, `no_maximum`: the basis of aicnet compare; and `planes`, each plane's part and the shared part, for a multi-plane design); --details adds spares, unknown power and unpriced parts.  Cost comes from the user's price list (`--prices FILE`, else
`<design>.prices.csv` or `prices.csv` next to the design or in the user catalog folder; CSV
columns part, unit_price, currency, date); aicnet invents no prices.  Exit 0, or 2 on bad input.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ...model.wording import counted
from ..common import EXIT_OK, open_document, price_list_for, print_json

if TYPE_CHECKING:
    from ...analysis import Bom
    from ...analysis.bom import Pricer

HELP = "bill of materials (devices, optics, cables, power, cost)"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bom", help=HELP)
    parser.add_argument("file", help="a .fabric file")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--details", action="store_true",
                        help="with --json: add spares, unknown power and unpriced parts")
    parser.add_argument("--prices", metavar="FILE",
                        help="price list CSV (part, unit_price, currency, date); default: "
                             "<design>.prices.csv or prices.csv next to the design or in the "
                             "user catalog folder")
    parser.set_defaults(func=run)


def _table(title: str, rows: list[tuple[str, str, str]], header: tuple[str, str, str]) -> list[str]:
    if not rows:
        return [title, "  (none)"]
    width = max(len(header[0]), *(len(r[0]) for r in rows))
    lines = [title, f"  {header[0]:<{width}}  {header[1]:>8}  {header[2]:>8}"]
    lines.extend(f"  {a:<{width}}  {b:>8}  {c:>8}" for a, b, c in rows)
    return lines


def _order_number(catalog, key: str) -> str:  # noqa: ANN001
    """The per-length part number of a `PART@LENGTH` line, when the catalog lists one."""
    part_id, _, length = key.partition("@")
    part = catalog.cables.get(part_id) if catalog is not None else None
    try:
        number = part.order_number(float(length)) if part is not None else None
    except ValueError:
        return ""
    if number:
        return f" ({number})"
    # a part whose numbers the catalog knows only as a pattern (MFP7E30-Nxxx): say so, as the
    # PDF's order list does, rather than print nothing under "part number to order"
    patterns = [pn for pn in (part.part_numbers if part is not None else [])
                if "x" in pn.lower().rsplit("-", 1)[-1]]
    if patterns:
        return f" ({', '.join(patterns)}: no per-length number in the catalog)"
    if part is not None and not part.part_numbers:  # a generic part names no product
        return " (no part number: a generic part, choose a vendor's product)"
    return ""


def _price_lines(bom: Bom, pricer: Pricer) -> list[str]:
    """Per part: what is ordered (spares included), its unit price and cost, so that the buyer
    sees what each line costs and which still needs a quote."""
    rows: list[tuple[str, int, float | None]] = []
    rows += [(m, n, pricer.device(m)) for m, n in bom.devices_by_model.items()]
    rows += [(p, n.order, pricer.optic(p)) for p, n in bom.transceiver_orders().items()]
    rows += [(k, n.order, pricer.cable(k)) for k, n in bom.cable_orders().items()]
    rows += [(k, n.order, pricer.part(k)) for k, n in bom.part_orders().items()]
    width = max(len("part"), *(len(r[0]) for r in rows)) if rows else 4
    lines = [f"Prices ({bom.currency}; order = quantity + spares)",
             f"  {'part':<{width}}  {'order':>8}  {'unit':>14}  {'cost':>16}"]
    for part, order, unit in rows:
        price = "no price" if unit is None else f"{unit:,.2f}"
        cost = "no price" if unit is None else f"{unit * order:,.2f}"
        lines.append(f"  {part:<{width}}  {order:>8}  {price:>14}  {cost:>16}")
    return lines


def plane_lines(bom: Bom) -> list[str]:
    """A multi-plane design's BOM per plane (cables per part, all lengths; `--json` has each
    length) and the part the planes share."""
    from ...analysis.bom_planes import PLANES_TITLE, plane_label

    lines = [PLANES_TITLE]
    for name, part in bom.planes.items():
        devices, optics, cables, links = part.summary()
        bits = [devices, optics] + ([cables, links] if part.links_total else [])
        lines.append(f"  {plane_label(name)}: " + "; ".join(bits))
    return lines


def _power_lines(bom: Bom) -> list[str]:
    """The power total, what it counts per model, and (when a typical figure is in it) the
    total with every part at its maximum, the basis of aicnet compare."""
    power = (f"Power: {bom.power_w / 1000:.1f} kW (devices at maximum, else typical; optics, "
             "active cables"
             + ("; NVL72 trays as their racks' stated power, their optics included"
                if bom.rack_systems else "") + ")")
    if bom.power_unknown:
        power += f"; no power figure for {', '.join(bom.power_unknown)}"
    lines = [power]
    lines += [f"  {model} x{n}: {caveat}" for model, n, caveat in bom.power_caveats()]
    at_max, left_out = bom.maximum_power()
    if at_max != bom.power_w:  # a typical figure is in the total: the maximum basis alone
        lines.append(f"  every part at its maximum (aicnet compare's basis): {at_max / 1000:.1f} kW, "
                     "without " + ", ".join(f"{m} x{bom.devices_by_model.get(m, 0)}"
                                            for m in left_out) + " (no maximum figure)")
    return lines


def render(bom: Bom, source: str, catalog=None,  # noqa: ANN001
           pricer: Pricer | None = None) -> str:
    lines = [f"Bill of materials: {source}", ""]
    lines += _table("Devices", [(m, str(n), "") for m, n in bom.devices_by_model.items()],
                    ("model", "qty", ""))
    lines.append("  by role: " + ", ".join(f"{r} {n}" for r, n in bom.devices_by_role.items()))
    for name, racks in bom.rack_systems.items():
        lines.append(f"  in rack-scale systems: {counted(racks, name)} (ordered as racks, "
                     "their compute trays included)")
    lines.append("")
    lines += _table(
        "Transceivers (one per cage; twin-port optics serve two links)",
        [(p, str(n), str(bom.transceiver_spares.get(p, 0))) for p, n in bom.transceivers.items()],
        ("part", "qty", "spares"))
    lines.append("")
    if bom.parts:
        lines += _table(
            "Replaceable parts (field-replaceable units of the devices above, e.g. laser modules)",
            [(k, str(n), str(bom.part_spares.get(k, 0))) for k, n in bom.parts.items()],
            ("part", "qty", "spares"))
        lines.append("")
    lines += _table(
        "Cables (part @ ordered length in m; one per physical cable: a splitter or a twin "
        "cable that carries two links counts once)",
        [(k + _order_number(catalog, k), str(n), str(bom.cable_spares.get(k, 0)))
         for k, n in bom.cables.items()],
        ("part@length (part number to order)", "qty", "spares"))
    lines.append("")
    if bom.planes:
        lines += plane_lines(bom)
        lines.append("")
    if pricer is not None and (bom.price_list is not None or bom.cost_known_usd):
        lines += _price_lines(bom, pricer)
        lines.append("")
    lines.append(f"Links: {bom.links_total} ("
                 + ", ".join(f"{t} {n}" for t, n in bom.links_by_tier.items()) + ")")
    if bom.links_without_cable:
        lines.append(f"  {bom.links_without_cable} link(s) have no cable chosen and are not counted")
    if bom.unlinked_optics:
        lines.append(f"  {bom.unlinked_optics} optic(s) counted above are not linked: their cages "
                     "carry no link (OPTIC-UNLINKED in aicnet validate)")
    if bom.missing_optics:
        lines.append(f"  {len(bom.missing_optics)} fibre link end(s) have no optic in the cage "
                     "(not counted; see aicnet validate)")
    lines.append(f"Spares: {bom.spares_percent:g} % of each part (cables: per ordered length), rounded up "
                 "once per part")
    lines += _power_lines(bom)
    source = (f"price list {bom.price_list}" if bom.price_list is not None
              else "no price list; catalog prices")
    if bom.cost_usd is None:
        # every unpriced part, with the number a price list row may use: the buyer asks for
        # quotes of exactly these
        unpriced = ", ".join(k + _order_number(catalog, k) for k in bom.unpriced)
        if bom.price_list is None and not bom.cost_known_usd:
            lines.append("Cost: unknown - no price list (pass --prices FILE, or put prices.csv "
                         "next to the design) and no catalog price")
        else:
            lines.append(f"Cost: unknown - priced parts total {bom.cost_known_usd:,.2f} "
                         f"{bom.currency} ({source}, spares included)")
        lines.append(f"  no price for {counted(len(bom.unpriced), 'part')}: {unpriced}")
    else:
        lines.append(f"Cost: {bom.cost_usd:,.2f} {bom.currency} ({source}, spares included)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from ...analysis import compute_bom
    from ...analysis.bom import Pricer

    prices = price_list_for(args.prices, args.file)
    doc = open_document(args.file)
    bom = compute_bom(doc, prices)
    if args.json:
        print_json(bom.to_json(details=args.details))
    else:
        print(render(bom, args.file, doc.catalog, Pricer(doc, prices)))
    return EXIT_OK
