"""The `aicnet` command line (no Qt).

Each sub-command lives in its own module under `aicnet_gui/cli/commands/` and exposes
`register(subparsers)`; they are discovered here, so adding a command touches no other file.
Exit codes: 0 no errors, 1 errors found in the design, 2 bad input or usage, 3 internal error,
128 + N when stopped by signal N (SIGTERM, SIGHUP: writes in progress are undone first).
No Python traceback reaches the user.

Start-up costs what the command needs, nothing more: `aicnet --version` and `aicnet --help`
import no numpy, pydantic or catalog.  A command module imports only argparse at its top and
states its one-line `HELP`; the heavy modules (analysis, file reading, reports) are imported in
its `run`.  Only the command named on the command line is registered with all its options; the
others get a parser with their `HELP` alone, which is all the top-level help and a usage error
print (a module without `HELP` is registered whole, as before).
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from .. import __version__
from . import commands
from .common import EXIT_BAD_INPUT, EXIT_INTERNAL, CliError


def _command_names() -> list[str]:
    """The command modules, by their file names (`pkgutil.iter_modules` imports `inspect`,
    ~10 ms of every start); pkgutil where the package is not a folder of files."""
    names: set[str] = set()
    for folder in commands.__path__:
        try:
            entries = os.listdir(folder)
        except OSError:
            names.clear()
            break
        names.update(entry[:-3] for entry in entries
                     if entry.endswith(".py") and entry[:-3].isidentifier()
                     and entry != "__init__.py")
    if not names:
        import pkgutil

        names = {info.name for info in pkgutil.iter_modules(commands.__path__)}
    return sorted(names)


def _modules(argv: Sequence[str] | None) -> list[str]:
    """The command modules to import: only the one named by `argv` when there is one (a module
    is named after its command), else every one (help, usage errors)."""
    names = _command_names()
    words = [word for word in (sys.argv[1:] if argv is None else argv) if not word.startswith("-")]
    if words and words[0] in names:
        return [words[0]]
    return names


def build_parser(argv: Sequence[str] | None = None, every: bool = True) -> argparse.ArgumentParser:
    """The parser; with `every=False` only the command `argv` names is registered, or, when it
    names none, every command with its one-line `HELP` only (what `aicnet --help` prints)."""
    parser = argparse.ArgumentParser(
        prog="aicnet",
        description="Design, validate and document the network of an AI/GPU cluster.",
    )
    parser.add_argument("--version", action="version", version=f"aicnet {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    chosen = _command_names() if every else _modules(argv)
    whole = every or len(chosen) == 1
    for name in chosen:
        module = importlib.import_module(f"{commands.__name__}.{name}")
        summary = getattr(module, "HELP", None)
        if whole or summary is None:
            module.register(sub)
        else:
            sub.add_parser(name, help=summary)
    return parser


def _bad_input(exc: Exception) -> bool:
    """Is `exc` bad input the user gets in one line (exit 2)?  The file reader's error class is
    imported only here: importing it at start-up loads the whole model."""
    if isinstance(exc, CliError):
        return True
    from ..fileio.errors import FabricFileError

    return isinstance(exc, FabricFileError)


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
    parser = build_parser(argv, every=False)
    args = parser.parse_args(argv)  # --help and --version end here, having written nothing
    from ..fileio.atomic import remove_killed_writes

    remove_killed_writes()  # what a killed aicnet left behind (fileio/atomic.py)
    try:
        with _stopped_cleanly():
            return int(args.func(args) or 0)
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
        if _bad_input(exc):
            print(f"aicnet: error: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(
            f"aicnet: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in aicnet; please report it with the command you ran.",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
