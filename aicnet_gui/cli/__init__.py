"""The `aicnet` command line (no Qt).

Each sub-command lives in its own module under `aicnet_gui/cli/commands/` and exposes
`register(subparsers)`; they are discovered here, so adding a command touches no other file.
Exit codes: 0 no errors, 1 errors found in the design, 2 bad input or usage, 3 internal error.
No Python traceback reaches the user.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from .. import __version__
from ..fileio.errors import FabricFileError
from . import commands
from .common import EXIT_BAD_INPUT, EXIT_INTERNAL, CliError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="aicnet",
        description="Design, validate and document the network of an AI/GPU cluster.",
    )
    parser.add_argument("--version", action="version", version=f"aicnet {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (FabricFileError, CliError) as exc:
        print(f"aicnet: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("aicnet: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the user gets a message, never a traceback
        print(
            f"aicnet: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in aicnet; please report it with the command you ran.",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
