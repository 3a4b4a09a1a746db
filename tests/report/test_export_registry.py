"""One export registry: `aicnet export`'s output flags and the File > Export dialog's formats are
`EXPORT_FORMATS`; a format registered there is written by the CLI with no other change."""

from __future__ import annotations

import argparse
import dataclasses
import inspect
from pathlib import Path

import pytest

from aicnet_gui.cli import build_parser, main
from aicnet_gui.report import export_registry
from aicnet_gui.report.export_registry import (
    EXPORT_FORMATS,
    SHARED_INPUTS,
    export_format,
    write_export,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "small-hgx.fabric"


def _export_parser() -> argparse.ArgumentParser:
    parser = build_parser(["export"])
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices["export"]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS, ids=lambda f: f.key)
def test_each_writer_takes_what_its_format_declares(fmt):
    """A typo in a declaration (a writer's module or name, an input it does not take) fails
    here, not when a user first asks for the format."""
    writer = fmt.writer_function()
    parameters = inspect.signature(writer).parameters
    assert fmt.takes <= SHARED_INPUTS
    for keyword in {*fmt.takes, *(option.keyword for option in fmt.options)}:
        assert keyword in parameters, (fmt.key, keyword)
    assert fmt.reader in fmt.help and fmt.help.startswith(fmt.writes)
    assert fmt.folder == (fmt.metavar == "DIR")


def test_the_cli_offers_one_output_flag_per_format_with_its_help():
    parser = _export_parser()
    group = next(g for g in parser._action_groups if g.title == "outputs (at least one)")
    flags = [(a.option_strings[0], a.metavar, a.help) for a in group._group_actions]
    assert flags == [(f.flag, f.metavar, f.help) for f in EXPORT_FORMATS]
    layout = next(a for a in parser._actions if "--netbox-layout" in a.option_strings)
    assert (layout.choices, layout.default) == (["4.5", "4.4"], "4.5")


def test_a_registered_format_is_written_by_the_cli(monkeypatch, capsys, tmp_path):
    """Adding a format is one registry entry: here a second cable schedule, written last
    but for the PDF, whose progress line comes last."""
    schedule = export_format("csv")
    extra = dataclasses.replace(schedule, key="schedule-copy", flag="--schedule-copy",
                                said=lambda target, rows: f"{target}: copy, {rows} rows")
    # the command reads the registry when it runs (its module imports no report)
    monkeypatch.setattr(export_registry, "EXPORT_FORMATS", (*EXPORT_FORMATS, extra))
    copy, pdf = tmp_path / "copy.csv", tmp_path / "plan.pdf"
    code = main(["export", str(EXAMPLE), "--pdf", str(pdf), "--labels", "none",
                 "--sections", "cover", "--schedule-copy", str(copy)])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0] == f"wrote {copy}: copy, 64 rows"
    assert out[1].startswith(f"wrote {pdf}: ")
    assert len(copy.read_text(encoding="utf-8").splitlines()) == 65


def test_write_export_passes_format_options_or_their_defaults(tmp_path):
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.fileio import load_fabric

    doc = load_fabric(EXAMPLE, builtin_catalog())
    netbox = export_format("netbox")
    new = write_export(netbox, doc, str(tmp_path / "new"))
    old = write_export(netbox, doc, str(tmp_path / "old"), values={"layout": "4.4"})
    assert "device-types/" in new and "device-types/" not in old
    assert (tmp_path / "new" / "device-types").is_dir()


def test_the_acceptance_sheet_is_an_export_with_the_traffic_commands_rows(tmp_path, capsys):
    """`aicnet export --acceptance-csv` writes what `aicnet traffic --acceptance-csv` writes."""
    design = Path(__file__).parents[2] / "examples" / "superpod-1su.fabric"
    exported, traffic = tmp_path / "export.csv", tmp_path / "traffic.csv"
    assert main(["export", str(design), "--acceptance-csv", str(exported)]) == 0
    assert "nccl-tests acceptance sheet" in capsys.readouterr().out
    assert main(["traffic", str(design), "--acceptance-csv", str(traffic)]) == 0
    assert exported.read_bytes() == traffic.read_bytes()
    assert len(exported.read_text().splitlines()) > 1
