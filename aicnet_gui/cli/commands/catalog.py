"""`aicnet catalog list | show ID | refresh FILE`: browse the hardware catalogs, and update the
catalog entries a design embeds from the catalog on this machine."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...model.wording import counted
from ..common import EXIT_BAD_INPUT, EXIT_OK, CliError, catalog_with_warnings, print_json
from ..entry_sheet import entry_sheet

HELP = "list or show hardware catalog entries"


def register(sub: argparse._SubParsersAction) -> None:
    from ...model.catalog_entities import Role

    parser = sub.add_parser("catalog", help=HELP)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    listing = actions.add_parser("list", help="list catalog entries")
    listing.add_argument("--kind", choices=["device", "transceiver", "cable"], help="only this kind")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(func=run_list)
    show = actions.add_parser("show", help="show one entry with all its fields and its sources")
    show.add_argument("id", help="catalog id, e.g. nvidia-qm9700")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.set_defaults(func=run_show)
    refresh = actions.add_parser(
        "refresh", help="update the catalog entries a .fabric embeds from this machine's catalog")
    refresh.add_argument("file", help="the .fabric file (rewritten in place, the old one kept as .bak)")
    refresh.add_argument("--dry-run", action="store_true", help="list the differences, change nothing")
    refresh.set_defaults(func=run_refresh)
    netbox = actions.add_parser(
        "import-netbox", help="add NetBox device-type library YAML files to your catalog",
        description="Read device-type YAML files of the NetBox device-type library "
                    "(netbox-community/devicetype-library) into catalog devices in your user "
                    "catalog. What a file lacks (role, breakout modes, power) is taken from "
                    "named defaults and listed; entries are never marked verified.")
    netbox.add_argument("files", nargs="+", metavar="FILE", help="device-type .yaml files")
    netbox.add_argument("--role", choices=[r.value for r in Role],
                        help="the role of every imported model (default: guessed, and said so)")
    netbox.add_argument("--out", metavar="DIR",
                        help="write the catalog files here (default: your user catalog folder)")
    netbox.add_argument("--dry-run", action="store_true", help="report only, write nothing")
    netbox.set_defaults(func=run_import_netbox)


def _loaded():
    from ...catalog.loader import load_catalog

    result = load_catalog()
    return result.catalog, result.problems


def _describe(entry) -> str:  # noqa: ANN001
    if entry.kind == "device":
        ports = ", ".join(f"{g.count}x{g.form_factor} {g.default_breakout}" for g in entry.cages)
        return f"{entry.role.value:<10} {entry.height_ru}U  {ports}"
    if entry.kind == "transceiver":
        reach = entry.reach_m.best()
        reach_text = f"{reach[1]:g} m {reach[0]}" if reach else "?"
        twin = "twin-port " if entry.twin_port else ""
        return f"{twin}{entry.form_factor} {entry.pmd} {entry.media} {reach_text}"
    lengths = "/".join(f"{x:g}" for x in entry.stock_lengths_m)
    return f"{entry.type} 1:{entry.legs} {lengths} m"


def run_list(args: argparse.Namespace) -> int:
    catalog, problems = _loaded()
    entries = sorted((e for e in catalog if args.kind in (None, e.kind)), key=lambda e: (e.kind, e.id))
    if args.json:
        print_json([
            {"id": e.id, "kind": e.kind, "vendor": e.vendor, "model": e.model, "verified": e.verified}
            for e in entries
        ])
    else:
        for entry in entries:
            mark = "" if entry.verified else " (unverified)"
            print(f"{entry.kind:<12} {entry.id:<36} {_describe(entry)}{mark}")
        print(f"{len(entries)} entries")
    for problem in problems:
        print(f"warning: {problem}")
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    catalog, _ = _loaded()
    entry = catalog.get(args.id)
    if entry is None:
        close = sorted(i for i in (e.id for e in catalog) if args.id.lower() in i)
        hint = f"; did you mean {', '.join(close[:5])}?" if close else "; see `aicnet catalog list`"
        raise CliError(f"no catalog entry {args.id!r}{hint}")
    data = entry.model_dump(mode="json")
    unstated = _unstated(entry)
    if not args.json:
        print(entry_sheet(data, unstated))
        return EXIT_OK
    if unstated:
        data["not_stated_in_a_public_document"] = unstated
    print_json(data)
    return EXIT_OK


def _unstated(entry) -> list[str]:  # noqa: ANN001
    """The fact fields of a device that the catalog leaves empty because no public document
    found states them (power, switching capacity, the power class of a cage group)."""
    if entry.kind != "device":
        return []
    names = [f for f in ("power_typical_w", "power_max_w", "switching_tbps")
             if getattr(entry, f) is None and (f != "switching_tbps" or entry.is_switch)]
    names += [f"cages[{i}].power_class_w ({g.name})" for i, g in enumerate(entry.cages)
              if g.power_class_w is None and g.fabric and g.form_factor in ("OSFP", "QSFP-DD",
                                                                            "QSFP-DD800")]
    return names


def run_refresh(args: argparse.Namespace) -> int:
    from ...catalog.updates import entry_updates, updated_catalog
    from ...fileio import load_fabric, save_fabric
    from ...model.document import ModelError
    from ...model.edits import ReplaceCatalog

    local = catalog_with_warnings()
    doc = load_fabric(args.file, local)
    updates = entry_updates(doc, local)
    if not updates:
        print(f"{args.file}: every catalog entry it uses matches this machine's catalog")
        return EXIT_OK
    for update in updates:
        print(f"  {update.describe()}")
    if args.dry_run:
        print(f"{args.file}: {counted(len(updates), 'entry')} "
              f"{'differs' if len(updates) == 1 else 'differ'} (dry run, nothing changed)")
        return EXIT_OK
    try:
        doc.apply([ReplaceCatalog(updated_catalog(doc, local, [u.entry_id for u in updates]))])
    except ModelError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    save_fabric(doc, args.file)
    print(f"{args.file}: {counted(len(updates), 'entry')} updated")
    return EXIT_OK


def run_import_netbox(args: argparse.Namespace) -> int:
    from ...catalog.loader import user_catalog_path
    from ...catalog.netbox_import import NetBoxImportError, catalog_yaml, import_device_type_file
    from ...report.outfile import write_text

    folder = Path(args.out) if args.out else user_catalog_path()
    failed = 0
    for file in args.files:
        try:
            result = import_device_type_file(file, role=args.role)
        except NetBoxImportError as exc:
            print(f"aicnet: error: {exc}", file=sys.stderr)
            failed += 1
            continue
        model = result.model
        ports = ", ".join(f"{g.count}x{g.form_factor} {g.default_breakout}" for g in model.cages)
        target = folder / f"{model.id}.yaml"
        if not args.dry_run:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                write_text(target, catalog_yaml([model]))
            except OSError as exc:
                raise CliError(f"cannot write {target}: {exc.strerror or exc}") from None
        where = "(dry run)" if args.dry_run else f"-> {target}"
        print(f"{file}: {model.id} ({model.vendor} {model.model}, {model.role.value}, "
              f"{model.height_ru} RU, {ports}) {where}")
        for kind, lines in (("missing", result.missing), ("assumed", result.assumed),
                            ("not imported", result.skipped)):
            for line in lines:
                print(f"  {kind}: {line}")
    return EXIT_BAD_INPUT if failed else EXIT_OK
