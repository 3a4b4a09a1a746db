"""The generated examples are what the commands in examples/README.md produce today, and they
load and validate without errors."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from aicnet_gui.analysis import Severity, analyze
from aicnet_gui.cli import main
from aicnet_gui.fileio import load_fabric

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def readme_commands() -> dict[str, list[str]]:
    """`aicnet generate ...` argv lists from the README's shell block, by output file name."""
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh", 1)[1].split("```", 1)[0].replace("\\\n", " ")
    commands = {}
    for line in block.splitlines():
        words = shlex.split(line)
        if not words:
            continue
        argv = words[1:]
        out = argv[argv.index("-o") + 1]
        commands[Path(out).name] = argv
    return commands


def without_timestamps(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["metadata"].pop("created", None)
    data["metadata"].pop("modified", None)
    return data


COMMANDS = readme_commands()


def test_readme_lists_the_four_generated_examples():
    assert set(COMMANDS) == {"superpod-1su.fabric", "superpod-4su.fabric",
                             "roce-enterprise.fabric", "inference-ethernet.fabric"}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_example_is_up_to_date_and_validates(name, tmp_path, capsys, catalog):
    argv = list(COMMANDS[name])
    argv[argv.index("-o") + 1] = str(tmp_path / name)
    assert main(argv) == 0
    fresh, committed = without_timestamps(tmp_path / name), without_timestamps(EXAMPLES / name)
    assert fresh == committed, (
        f"examples/{name} is stale: run the command for it in examples/README.md")
    errors = [f"{f.code}: {f.message}" for f in analyze(load_fabric(EXAMPLES / name, catalog)).findings
              if f.severity == Severity.ERROR]
    assert errors == []
    capsys.readouterr()
    code = main(["validate", str(EXAMPLES / name)])
    output = capsys.readouterr()
    assert code == 0, output.out + output.err
