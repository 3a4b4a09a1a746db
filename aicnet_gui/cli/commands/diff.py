"""`aicnet diff OLD.fabric NEW.fabric [--json] [--pdf OUT]`: what changed between two revisions.

Matching is semantic (ids first, then endpoints; see aicnet_gui/change/diff.py): devices added,
removed, moved (rack, RU); cables added, removed, re-terminated; optics and breakout changes;
settings; the BOM delta.  --pdf writes the MACD work order for the installers (per rack: remove,
move, change, add; labels for the new and re-terminated cables).  Exit 0 (also when the designs
differ), 2 on bad input.
"""

from __future__ import annotations

import argparse

from ..common import EXIT_OK, CliError, open_two_documents, print_json

HELP = "what changed between two revisions (and a work order)"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("diff", help=HELP,
                            description="Semantic difference between two .fabric revisions.")
    parser.add_argument("old", help="the earlier .fabric file")
    parser.add_argument("new", help="the later .fabric file")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--pdf", metavar="OUT.pdf", help="write the MACD work order PDF")
    parser.add_argument("--paper", choices=["a4", "letter"], default="a4")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...change.diff import diff_documents, old_bom_meanwhile
    from ...change.text import render_diff

    old, new, old_bom = open_two_documents(args.old, args.new, old_bom_meanwhile)
    with old_bom:
        diff = diff_documents(old, new, parallel=True, old_bom=old_bom)
    if args.pdf:
        from ...report.options import ExportOptions
        from ...report.workorder import write_work_order

        try:
            pages = write_work_order(diff, args.pdf, ExportOptions(paper=args.paper))
        except OSError as exc:
            raise CliError(f"cannot write {args.pdf}: {exc.strerror or exc}") from None
    if args.json:
        print_json(diff.to_json())
    else:
        print(render_diff(diff, args.old, args.new))
        if args.pdf:
            print(f"wrote {args.pdf} ({pages} pages)")
    return EXIT_OK
