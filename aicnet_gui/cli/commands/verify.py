"""`aicnet verify PLAN.fabric --lldp PATH... | --ibnetdiscover FILE | --netbox-cables FILE.csv
[--map HOSTMAP] [--json] [--pdf OUT] [--csv OUT]`: as built vs as designed.

Reads what was observed (lldpctl -f json files or folders, an ibnetdiscover topology file, or a
NetBox cable export), compares it with the design and prints the re-work list by rack with the
cable numbers and label identifiers of the cabling plan.  Exit 0 as built = as designed,
1 differences, 2 bad input (the message names the file and the place).
"""

from __future__ import annotations

import argparse

from ..common import EXIT_FINDINGS, EXIT_OK, CliError, catalog_with_warnings, print_json

HELP = "compare the installed cabling with the design (exit 0 same, 1 differs)"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "verify", help=HELP,
        description="Compare what LLDP, ibnetdiscover or NetBox saw with the design and list "
                    "the cables to fix, rack by rack.")
    parser.add_argument("file", help="the .fabric design")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--lldp", nargs="+", metavar="PATH",
                        help="lldpctl -f json output: one file per device (named after it), a "
                             "merged {host: output} file, or folders of them")
    source.add_argument("--ibnetdiscover", metavar="FILE", help="ibnetdiscover text output")
    source.add_argument("--netbox-cables", metavar="FILE.csv", help="NetBox cable export CSV")
    parser.add_argument("--connected-only", action="store_true",
                        help="with --netbox-cables: read only cables whose status is connected "
                             "(planned ones count as not cabled)")
    parser.add_argument("--map", metavar="HOSTMAP",
                        help="CSV of observed host name, design device name")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--csv", metavar="OUT.csv", help="write the re-work list as CSV")
    parser.add_argument("--pdf", metavar="OUT.pdf", help="write the re-work list as PDF")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...asbuilt import (
        compare,
        read_host_map,
        read_ibnetdiscover,
        read_lldp,
        read_netbox_cables,
        render_text,
        rework_list,
        to_json,
        write_csv_list,
    )
    from ...fileio import load_fabric
    from ...gc_control import gc_held
    from ...model.port_names_os import PortNamer

    catalog = catalog_with_warnings()
    doc = load_fabric(args.file, catalog)
    host_map = read_host_map(args.map) if args.map else {}
    with gc_held():  # 200k observed ends on a big fabric: no collector passes meanwhile
        if args.lldp:
            observation = read_lldp(args.lldp)
        elif args.ibnetdiscover:
            observation = read_ibnetdiscover(args.ibnetdiscover)
        else:
            observation = read_netbox_cables(args.netbox_cables, args.connected_only)
        observed = f"{observation.kind} ({', '.join(observation.files)})"
        comparison = compare(doc, observation, PortNamer(doc, fallback=catalog.devices), host_map)
        items = rework_list(doc, comparison)
    if args.csv:
        try:
            write_csv_list(items, args.csv)
        except OSError as exc:
            raise CliError(f"cannot write {args.csv}: {exc.strerror or exc}") from None
    if args.pdf:
        from ...asbuilt.rework_pdf import export_rework_pdf

        try:
            export_rework_pdf(doc, comparison, items, args.pdf, args.file, observed)
        except OSError as exc:
            raise CliError(f"cannot write {args.pdf}: {exc.strerror or exc}") from None
    if args.json:
        print_json(to_json(comparison, items, observed))
    else:
        print(render_text(comparison, items, args.file, observed))
    return EXIT_FINDINGS if comparison.differences else EXIT_OK
