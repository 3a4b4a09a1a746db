"""`aicnet whatif FILE --fail ID... [--each leaf|spine|core|cable] [--exact] [--top N] [--json]`:
what failed devices, cables, optics or a rail do to every workload (aicnet_gui/change/whatif.py).

--fail takes a device id or name, a link id, optic:DEVICE:CAGE, laser:DEVICE:N, rail:N or
plane:NAME, and may be
repeated (all fail together).  --each runs every single failure of one kind and ranks them worst
first; identical failures of one structural class are evaluated once unless --exact.  The
design file is never changed.  Exit 0, 2 on bad input.
"""

from __future__ import annotations

import argparse

from ..common import EXIT_OK, CliError, open_document, print_json

HELP = "failure what-if: blast radius of failed parts, sweeps"


def register(sub: argparse._SubParsersAction) -> None:
    from ...change.sweep import KINDS

    parser = sub.add_parser("whatif", help=HELP,
                            description="What failed devices, cables, optics or rails do to "
                                        "every workload; --each ranks single failures.")
    parser.add_argument("file", help="a .fabric file")
    parser.add_argument("--fail", action="append", default=[], metavar="ID",
                        help="device, link, optic:DEVICE:CAGE, laser:DEVICE:N, rail:N or plane:NAME (repeatable)")
    parser.add_argument("--each", choices=KINDS, help="every single failure of this kind, ranked")
    parser.add_argument("--exact", action="store_true",
                        help="with --each: evaluate every failure (no structural classes)")
    parser.add_argument("--top", type=int, default=10, metavar="N",
                        help="with --each: show the N worst (default 10; 0 for all)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...change.failures import FailureError, resolve
    from ...change.sweep import sweep
    from ...change.text import render_result, render_sweep
    from ...change.whatif import WhatIf

    if not args.fail and not args.each:
        raise CliError("whatif needs --fail ID (repeatable) or --each leaf|spine|core|cable")
    if args.fail and args.each:
        raise CliError("--fail and --each are separate questions: give one of them")
    doc = open_document(args.file)
    if args.each:
        result = sweep(doc, args.each, exact=args.exact)
        if args.json:
            print_json(result.to_json(None if args.top <= 0 else args.top))
        else:
            print("\n".join(render_sweep(result, args.top)))
        return EXIT_OK
    try:
        failure = resolve(doc, args.fail)
    except FailureError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    outcome = WhatIf(doc).run(failure)
    if args.json:
        print_json(outcome.to_json())
    else:
        print("\n".join(render_result(outcome)))
    return EXIT_OK
