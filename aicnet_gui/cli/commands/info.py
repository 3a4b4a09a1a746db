"""`aicnet info FILE`: what a fabric holds, by role, tier and rack."""

from __future__ import annotations

import argparse

from ..common import EXIT_OK, open_document, print_json

HELP = "counts of devices by role, links by tier, racks"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("info", help=HELP)
    parser.add_argument("file", help="a .fabric file")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...model.summary import summarize

    doc = open_document(args.file)
    summary = summarize(doc)
    if args.json:
        print_json({
            "name": summary.name,
            "devices": {"by_role": summary.devices_by_role, "by_model": summary.devices_by_model,
                        "total": summary.devices},
            "links": {"by_tier": summary.links_by_tier, "total": summary.links},
            "racks": summary.racks,
            "workloads": summary.workloads,
            "gpus": summary.gpus,
        })
        return EXIT_OK
    print(f"{summary.name}  ({args.file})")
    print(f"technology: {doc.settings.technology.value}, MTU {doc.settings.mtu}")
    print(f"devices: {summary.devices}  ({summary.gpus} GPUs)")
    for role, count in summary.devices_by_role.items():
        print(f"  {role:<12} {count}")
    print(f"links: {summary.links}")
    for tier, count in summary.links_by_tier.items():
        print(f"  {tier:<12} {count}")
    print(f"racks: {summary.racks}")
    print(f"workloads: {summary.workloads}")
    return EXIT_OK
