"""`aicnet schema fabric|catalog`: the printed JSON Schema accepts every file aicnet ships and
writes, and rejects broken ones, checked with the `jsonschema` package."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.fabric"))
CATALOGS = sorted((ROOT / "catalogs").rglob("*.yaml"))


def _schema(capsys, kind: str) -> Draft202012Validator:
    assert main(["schema", kind]) == 0
    schema = json.loads(capsys.readouterr().out)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _errors(validator: Draft202012Validator, data) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]


def test_every_example_fabric_validates(capsys):
    validator = _schema(capsys, "fabric")
    assert EXAMPLES
    for path in EXAMPLES:
        assert _errors(validator, json.loads(path.read_bytes())) == [], path.name


def test_a_saved_design_validates(capsys, small, tmp_path):
    validator = _schema(capsys, "fabric")
    path = tmp_path / "saved.fabric"
    save_fabric(small, path)
    assert _errors(validator, json.loads(path.read_bytes())) == []


def test_broken_fabrics_are_rejected(capsys):
    validator = _schema(capsys, "fabric")
    good = json.loads(EXAMPLES[0].read_bytes())
    wrong_format = good | {"format": "something.else"}
    no_version = {k: v for k, v in good.items() if k != "schema_version"}
    bad_end = copy.deepcopy(good)
    bad_end["links"][0]["a"] = [bad_end["links"][0]["a"][0]]  # an end needs device and port
    bad_technology = copy.deepcopy(good)
    bad_technology["settings"]["technology"] = "token-ring"
    unknown_key = good | {"colour_scheme": "dark"}
    for broken in (wrong_format, no_version, bad_end, bad_technology, unknown_key):
        assert _errors(validator, broken), broken.keys()


def test_every_shipped_catalog_validates_and_broken_entries_do_not(capsys):
    validator = _schema(capsys, "catalog")
    assert CATALOGS
    for path in CATALOGS:
        assert _errors(validator, yaml.safe_load(path.read_text())) == [], path.name
    data = yaml.safe_load((ROOT / "catalogs" / "devices" / "nvidia-switches.yaml").read_text())
    no_kind = copy.deepcopy(data)
    del no_kind["entries"][0]["kind"]
    bad_height = copy.deepcopy(data)
    bad_height["entries"][0]["height_ru"] = "two"
    for broken in (no_kind, bad_height, data | {"format": "aicnet.fabric"}):
        assert _errors(validator, broken)


def test_schema_written_to_a_file(capsys, tmp_path):
    out = tmp_path / "catalog.schema.json"
    assert main(["schema", "catalog", "-o", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert json.loads(out.read_text())["$schema"].endswith("2020-12/schema")
    assert main(["schema", "catalog", "-o", str(tmp_path / "missing" / "x.json")]) == 2
    assert "cannot write" in capsys.readouterr().err
