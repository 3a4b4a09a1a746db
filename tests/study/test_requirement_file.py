"""The requirement travels with a design (`Fabric.requirement`, schema version 4) or on its own
(`NAME.requirement.json` / `.yaml`), reads back equal, and bad files say where they are bad."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from aicnet_gui.cli import main
from aicnet_gui.fileio import dumps_fabric, load_fabric, loads_fabric, save_fabric
from aicnet_gui.fileio.requirement_file import (
    RequirementFileError,
    load_requirement,
    save_requirement,
)
from aicnet_gui.model.edits import SetRequirement
from aicnet_gui.model.fabric import Requirement

ROOT = Path(__file__).resolve().parents[2]

REQUIREMENT = Requirement(
    name="Training hall", servers=128, workloads=[
        {"id": "train-1", "kind": "training", "gpus": 512},
        {"id": "serve", "kind": "inference", "servers": 16, "message_mb": 64}],
    growth={"sus": 8, "same_spines": True}, site={"rack_power_kw": 40, "rows": 4},
    prices="prices.csv", technologies=["infiniband", "rocev2"], leaves=["nvidia-qm9700"],
    sweep={"oversubscription": [1, 2], "tiers": ["auto", "3"]})


def test_a_design_keeps_its_requirement_through_save_and_open(small, catalog, tmp_path):
    small.apply([SetRequirement(REQUIREMENT)])
    path = tmp_path / "chosen.fabric"
    save_fabric(small, path)
    data = json.loads(path.read_bytes())
    assert data["schema_version"] == 4 and list(data)[-1] == "requirement"
    opened = load_fabric(path, catalog)
    assert opened.requirement == REQUIREMENT
    assert dumps_fabric(opened) == path.read_bytes()  # save, open, save is byte-stable


def test_a_design_without_requirement_writes_none(small):
    assert "requirement" not in json.loads(dumps_fabric(small))


def test_setting_the_requirement_is_one_undoable_edit(small):
    edit = small.apply([SetRequirement(REQUIREMENT)])
    assert small.requirement == REQUIREMENT and edit.changes.requirement
    small.apply(edit.inverse)
    assert small.requirement is None


def test_a_version_3_file_opens_without_requirement_and_is_saved_as_version_4(catalog):
    data = json.loads((ROOT / "examples" / "small-hgx.fabric").read_bytes())
    data["schema_version"] = 3  # as a version-3 file: no requirement, no load-balancing key
    data.pop("requirement", None)
    data["settings"].pop("load_balancing", None)
    opened = loads_fabric(json.dumps(data).encode(), catalog)
    assert opened.requirement is None
    assert json.loads(dumps_fabric(opened))["schema_version"] == 4


@pytest.mark.parametrize("suffix", [".requirement.json", ".requirement.yaml"])
def test_a_requirement_file_reads_back_equal(tmp_path, suffix):
    path = tmp_path / f"hall{suffix}"
    save_requirement(path, REQUIREMENT)
    assert load_requirement(path) == REQUIREMENT


def test_a_requirement_is_read_from_the_design_that_carries_it(small, tmp_path):
    small.apply([SetRequirement(REQUIREMENT)])
    save_fabric(small, tmp_path / "chosen.fabric")
    assert load_requirement(tmp_path / "chosen.fabric") == REQUIREMENT


def test_a_design_without_one_says_so(small, tmp_path):
    save_fabric(small, tmp_path / "plain.fabric")
    with pytest.raises(RequirementFileError, match="carries no requirement"):
        load_requirement(tmp_path / "plain.fabric")


@pytest.mark.parametrize(("text", "where", "why"), [
    ('{"format": "aicnet.requirement", "version": 1, "servers": 0}', "$.servers",
     "greater than or equal to 1"),
    ('{"format": "aicnet.requirement", "version": 1}', "$", "servers or the number of GPUs"),
    ('{"format": "aicnet.requirement", "version": 1, "servers": 8, "site": {"rack_power": 4}}',
     "$.site.rack_power", "unknown field"),
    ('{"format": "aicnet.requirement", "version": 2, "servers": 8}', "$.version", "version 1"),
    ('{"servers": 8}', "$.format", "not an aicnet requirement"),
    ('{"format": "aicnet.requirement", "version": 1, "servers": 8, "workloads": '
     '[{"id": "a", "gpus": 8, "servers": 1}]}', "$.workloads[0]", "not both"),
])
def test_a_bad_requirement_names_the_file_and_the_place(tmp_path, text, where, why):
    path = tmp_path / "bad.requirement.json"
    path.write_text(text)
    with pytest.raises(RequirementFileError) as info:
        load_requirement(path)
    assert info.value.json_path == where and why in info.value.message
    assert str(info.value).startswith(str(path))


def test_bad_yaml_and_bad_json_are_named(tmp_path):
    (tmp_path / "a.yaml").write_text("servers: [8\n")
    (tmp_path / "b.json").write_text("{servers")
    for name, why in (("a.yaml", "not valid YAML"), ("b.json", "not valid JSON")):
        with pytest.raises(RequirementFileError, match=why):
            load_requirement(tmp_path / name)


def test_the_published_schema_accepts_a_saved_requirement_and_rejects_a_broken_one(
        capsys, tmp_path):
    assert main(["schema", "requirement"]) == 0
    schema = json.loads(capsys.readouterr().out)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    save_requirement(tmp_path / "r.requirement.json", REQUIREMENT)
    data = json.loads((tmp_path / "r.requirement.json").read_bytes())
    assert list(validator.iter_errors(data)) == []
    assert list(validator.iter_errors({**data, "sweep": {"planes": [3]}}))
    assert list(validator.iter_errors({k: v for k, v in data.items() if k != "format"}))


def test_a_yaml_alias_in_a_requirement_is_refused_in_the_requirements_words(tmp_path):
    # the YAML reader is the catalog's: its refusal said "not allowed in a catalog file" of a
    # requirement file
    path = tmp_path / "hall.requirement.yaml"
    path.write_text("format: aicnet.requirement\nversion: 1\nservers: &n 8\ngpus: *n\n")
    with pytest.raises(RequirementFileError) as info:
        load_requirement(path)
    assert "YAML aliases (*name) are not allowed" in info.value.message
    assert "not allowed in a catalog file" not in info.value.message
