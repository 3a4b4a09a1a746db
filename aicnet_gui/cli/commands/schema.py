"""`aicnet schema fabric|catalog|requirement [-o FILE]`: the JSON Schema of a `.fabric`, catalog or
requirement file.

Generated from the pydantic models that read those files (`fileio/schemas.py`), so it always
matches this aicnet.  Other tools use it to validate or generate aicnet files.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..common import EXIT_OK, CliError

HELP = "print the JSON Schema of .fabric, catalog or requirement files"


def register(sub: argparse._SubParsersAction) -> None:
    from ...fileio.schemas import SCHEMA_KINDS

    parser = sub.add_parser(
        "schema", help=HELP,
        description="Print (or write) the JSON Schema, draft 2020-12, of a .fabric file, a "
                    "catalog file or a requirement file (aicnet compare), generated from the "
                    "models aicnet reads them with.")
    parser.add_argument("kind", choices=SCHEMA_KINDS, help="which file format")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ...fileio.schemas import json_schema
    from ...report.outfile import write_text

    text = json.dumps(json_schema(args.kind), indent=2, ensure_ascii=False) + "\n"
    if args.output:
        try:
            write_text(args.output, text)
        except OSError as exc:
            raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        print(f"wrote {args.output}: JSON Schema of {args.kind} files")
    else:
        sys.stdout.write(text)
    return EXIT_OK
