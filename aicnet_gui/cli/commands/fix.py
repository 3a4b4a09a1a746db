"""`aicnet fix FILE --code CODE [--code CODE ...] [-o OUT.fabric] [--dry-run] [--json]`: apply
the one-click fixes of every finding of those rules in one step, as the editor's "Fix all N like
this" does.

The fixes are merged and checked together on a copy first (aicnet_gui/repair/batch.py): they
are written only when they apply, clear findings and add no error; otherwise nothing is written
and the reason is printed.  Without -o the file itself is saved (a .bak copy is kept, as every
save).  Exit 0 when the fixed design has no errors, 1 when errors remain (or nothing could be
fixed), 2 on bad input.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..common import EXIT_FINDINGS, EXIT_OK, CliError, open_document, print_json

HELP = "apply the checked one-click fixes of whole rules"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("fix", help=HELP,
                            description=__doc__.split("\n\n")[0].replace("`", ""))
    parser.add_argument("file", help="a .fabric file")
    parser.add_argument("--code", action="append", required=True, metavar="CODE",
                        help="a rule code, e.g. CABLE-UNSET (repeat for several)")
    parser.add_argument("-o", "--output", metavar="OUT.fabric",
                        help="write the fixed design here (default: the file itself)")
    parser.add_argument("--dry-run", action="store_true", help="say what would change, write nothing")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...analysis import Analyzer
    from ...fileio import save_fabric
    from ...repair import FixChecker
    from ...repair.batch import batch_fix, by_code

    output = Path(args.output) if args.output else Path(args.file)
    if output.suffix != ".fabric":
        raise CliError(f"{output}: the output file must end in .fabric")
    doc = open_document(args.file)
    analyzer = Analyzer(doc)
    report = analyzer.full()
    codes = [c.upper() for c in args.code]
    findings = [f for code in codes for f in by_code(report.findings, code)]
    result = {"file": str(args.file), "codes": codes, "findings": len(findings), "cleared": 0,
              "operations": 0, "written": None, "reason": "", "errors_after": report.errors}
    if findings:
        batch = batch_fix(FixChecker(doc, analyzer, report), findings)
        result.update(cleared=batch.cleared, operations=len(batch.ops),
                      reason=batch.reason, description=batch.description)
        if batch.applicable:
            doc.apply(list(batch.ops))
            result["errors_after"] = analyzer.full().errors
            if not args.dry_run:
                save_fabric(doc, output)
                result["written"] = str(output)
    else:
        result["reason"] = f"no {', '.join(codes)} finding in this design"
    if args.json:
        print_json(result)
    else:
        print(f"{args.file}: {result['findings']} finding(s) of {', '.join(codes)}")
        if result["operations"]:
            print(f"  {result['description']}: {result['operations']} change(s), "
                  f"{result['cleared']} finding(s) cleared")
            print(f"  written: {result['written']}" if result["written"] else "  dry run: nothing written")
        else:
            print(f"  nothing fixed: {result['reason']}")
        print(f"  errors after: {result['errors_after']}")
    fixed = bool(result["operations"])
    return EXIT_OK if fixed and result["errors_after"] == 0 else EXIT_FINDINGS
