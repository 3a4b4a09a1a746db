"""`aicnet --version` and `aicnet --help` start without the heavy modules (issue 38): scripts call
`aicnet` hundreds of times, and numpy, scipy, pydantic, the model and the catalog cost most of a
second before a command looks at its arguments.  What the user reads stays the same."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

from aicnet_gui import cli
from aicnet_gui.cli import build_parser, commands

HEAVY = ("numpy", "scipy", "pydantic", "yaml", "orjson", "reportlab", "networkx", "inspect",
         "aicnet_gui.model.fabric", "aicnet_gui.catalog", "aicnet_gui.fileio")

_PROBE = """
import contextlib, io, sys
from aicnet_gui.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(",".join(sorted(name for name in sys.modules)))
"""


def _loaded_by(*argv: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True,
                          check=True)
    return set(done.stdout.strip().split(","))


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["bogus"]])
def test_start_up_imports_no_heavy_module(argv):
    loaded = _loaded_by(*argv)
    assert not [name for name in HEAVY if name in loaded]


def _command_names() -> list[str]:
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    assert names == cli._command_names()  # the CLI lists its commands without pkgutil
    return names


def test_every_command_module_imports_without_the_heavy_modules():
    """A command's module is imported for `aicnet --help`: its heavy imports live in `run`."""
    probe = ("import sys\n" + "".join(f"import aicnet_gui.cli.commands.{name}\n"
                                      for name in _command_names())
             + "print(','.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    loaded = set(done.stdout.strip().split(","))
    assert not [name for name in HEAVY if name in loaded]


def test_top_level_help_is_the_same_as_with_every_command_registered():
    """The short parsers `aicnet --help` builds say what the whole commands say."""
    for name in _command_names():
        assert isinstance(importlib.import_module(f"{commands.__name__}.{name}").HELP, str)
    assert build_parser([], every=False).format_help() == build_parser().format_help()


def test_a_named_command_gets_its_whole_parser():
    parser = build_parser(["validate", "x.fabric", "--all"], every=False)
    args = parser.parse_args(["validate", "x.fabric", "--all"])
    assert args.file == "x.fabric" and args.all
