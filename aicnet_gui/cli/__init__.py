"""The `aicnet` command line (no Qt).

Each sub-command lives in its own module under `aicnet_gui/cli/commands/` and exposes
`register(subparsers)`; they are discovered here, so adding a command touches no other file.
Exit codes: 0 no errors, 1 errors found in the design, 2 bad input or usage, 3 internal error,
128 + N when stopped by signal N (SIGTERM, SIGHUP: writes in progress are undone first).
No Python traceback reaches the user.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from .. import __version__
from ..fileio.atomic import remove_killed_writes
from ..fileio.errors import FabricFileError
from . import commands
from .common import EXIT_BAD_INPUT, EXIT_INTERNAL, CliError


def _modules(argv: Sequence[str] | None) -> list[str]:
    """The command modules to import: only the one named by `argv` when there is one (a module
    is named after its command; importing all of them costs ~0.5 s before `aicnet validate`
    starts), else every one (help, usage errors)."""
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    words = [word for word in (sys.argv[1:] if argv is None else argv) if not word.startswith("-")]
    if words and words[0] in names:
        return [words[0]]
    return names


def build_parser(argv: Sequence[str] | None = None, every: bool = True) -> argparse.ArgumentParser:
    """The parser; with `every=False` only the command `argv` names is registered."""
    parser = argparse.ArgumentParser(
        prog="aicnet",
        description="Design, validate and document the network of an AI/GPU cluster.",
    )
    parser.add_argument("--version", action="version", version=f"aicnet {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    for name in names if every else _modules(argv):
        module = importlib.import_module(f"{commands.__name__}.{name}")
        module.register(sub)
    return parser


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: the command stops as at an interrupt."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminated(signum: int, _frame: object) -> None:
    raise Terminated(signum)


@contextmanager
def _stopped_cleanly() -> Iterator[None]:
    """While a command runs, SIGTERM and SIGHUP raise `Terminated` (a BaseException), so a
    write in progress removes its temp file on the way out (fileio/atomic.py) instead of the
    process vanishing mid-write; handlers set by someone else are left alone."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) is signal.SIG_DFL:
                previous[number] = signal.signal(number, _terminated)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def main(argv: Sequence[str] | None = None) -> int:
    remove_killed_writes()  # what a killed aicnet left behind (fileio/atomic.py)
    parser = build_parser(argv, every=False)
    args = parser.parse_args(argv)
    try:
        with _stopped_cleanly():
            return int(args.func(args) or 0)
    except (FabricFileError, CliError) as exc:
        print(f"aicnet: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("aicnet: interrupted", file=sys.stderr)
        return 130
    except Terminated as exc:
        print(f"aicnet: stopped by {signal.Signals(exc.signum).name}; nothing half-written "
              "was left", file=sys.stderr)
        return 128 + exc.signum
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
