"""`aicnet migrate FILE [--leaf MODEL] [--spine MODEL] [--speed GBPS] [-o OUT] [--pdf OUT] [--json]`:
plan a switch-model or speed migration of a generated design.

The target is regenerated with the new models or speed and fitted onto the design
(aicnet_gui/change/growth.py): the bill of change lists what is bought, what is freed (retired),
which cables stay, which are re-terminated on the new switches' ports and which are pulled, and
the cages whose optics or breakout change.  When the catalog cannot make the target (a speed the
servers do not run, no optic for a cage) the reason is printed.  Exit 0 when the planned design
validates without errors, 1 when it has errors, 2 on bad input.
"""

from __future__ import annotations

import argparse

from ..changes import add_outputs, finish, planned
from ..common import CliError, open_document

HELP = "plan a switch model or speed migration"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("migrate", help=HELP,
                            description="Swap switch models or the fabric speed of a design.")
    parser.add_argument("file", help="a .fabric file")
    parser.add_argument("--leaf", metavar="MODEL", help="catalog id of the new leaf switch")
    parser.add_argument("--spine", metavar="MODEL", help="catalog id of the new spine switch")
    parser.add_argument("--speed", type=int, metavar="GBPS", help="port speed, e.g. 800")
    add_outputs(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...change.growth import migrate

    if not (args.leaf or args.spine or args.speed):
        raise CliError("migrate needs --leaf, --spine or --speed")
    doc = open_document(args.file)
    plan = planned(lambda: migrate(doc, leaf=args.leaf, spine=args.spine, speed_gbps=args.speed))
    changes = ", ".join(f"{k} {v}" for k, v in (("leaf", args.leaf), ("spine", args.spine),
                                                 ("speed", args.speed)) if v)
    return finish(plan, args, f"Migrate {args.file}: {changes}")
