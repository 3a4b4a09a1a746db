"""`aicnet grow FILE --add-sus N | --add-servers N [-o OUT.fabric] [--pdf OUT.pdf] [--json]`:
plan the growth of a rail-optimized (SUs) or two-tier (servers) design.

The target is regenerated with the template the design was made with and fitted onto it
(aicnet_gui/change/growth.py): existing devices stay, every cable that can stay stays, and the
bill of change lists parts to buy and freed, cables to pull, move (with the reason) and remove.
Exit 0 when the planned design validates without errors, 1 when it has errors, 2 on bad input.
"""

from __future__ import annotations

import argparse

from ..changes import add_outputs, finish, planned
from ..common import CliError, open_document

HELP = "plan growth by SUs or servers: the bill of change"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("grow", help=HELP,
                            description="Grow a generated design; keep every cable that can stay.")
    parser.add_argument("file", help="a .fabric file")
    parser.add_argument("--add-sus", type=int, default=0, metavar="N",
                        help="scalable units to add (rail-optimized)")
    parser.add_argument("--add-servers", type=int, default=0, metavar="N",
                        help="servers to add (two-tier)")
    add_outputs(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...change.growth import grow

    if args.add_sus <= 0 and args.add_servers <= 0:
        raise CliError("grow needs --add-sus N or --add-servers N (N >= 1)")
    doc = open_document(args.file)
    plan = planned(lambda: grow(doc, add_sus=max(args.add_sus, 0),
                                add_servers=max(args.add_servers, 0)))
    what = f"{args.add_sus} SU(s)" if args.add_sus else f"{args.add_servers} server(s)"
    return finish(plan, args, f"Grow {args.file} by {what} ({plan.params.template})")
