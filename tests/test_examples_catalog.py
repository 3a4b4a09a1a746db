"""The shipped examples embed the built-in catalog's entries, so a fresh install opens them
without "N catalog entries of this design differ from your catalog" (issue 32 item 9).  A
catalog correction that leaves an example stale fails here, naming it; refresh the examples
with `tools/refresh_examples.py`."""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.catalog.updates import entry_updates
from aicnet_gui.fileio import load_fabric

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.fabric"))


@pytest.fixture(scope="module")
def catalog():  # noqa: ANN201
    return builtin_catalog()


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_an_example_embeds_the_catalogs_own_entries(path, catalog):
    stale = [u.describe() for u in entry_updates(load_fabric(path, catalog), catalog)]
    assert not stale, (f"{path.name} embeds {len(stale)} catalog entries that differ from the "
                       f"built-in catalog ({'; '.join(stale)}): run "
                       "`.venv/bin/python tools/refresh_examples.py`")


def test_the_refresh_tool_says_which_example_is_stale(tmp_path, catalog, capsys):
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "refresh_examples", Path(__file__).resolve().parents[1] / "tools" / "refresh_examples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    example = next(p for p in EXAMPLES if p.name == "small-hgx.fabric")
    text = example.read_text()
    # an example made before a correction: its embedded SN5600 lacks the part number
    old = text.replace('"part_numbers": [\n          "920-9N42F-00RI-7C0"\n        ],\n', "", 1)
    assert old != text
    stale = tmp_path / "small-hgx.fabric"
    stale.write_text(old)
    assert tool.main(["--check", str(stale)]) == 1
    out = capsys.readouterr().out
    assert "small-hgx.fabric: stale 1 entries" in out and "nvidia-sn5600: part_numbers" in out
    assert tool.main([str(stale)]) == 0
    assert tool.main(["--check", str(stale)]) == 0
    assert not entry_updates(load_fabric(stale, catalog), catalog)
