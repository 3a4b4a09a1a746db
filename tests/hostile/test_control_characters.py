"""A name is one line of printable text: a control character (C0, DEL, C1, U+2028, U+2029) in
any id, name or short field, or in a naming or port-name pattern, is refused where the text is
read (a `.fabric` file, a catalog entry) and by the document's mutation API (every editor edit),
with a message that names the character and the place.  Free text may hold line breaks."""

from __future__ import annotations

import json

import pytest
from minimal import CABLE, FABRIC, SWITCH, catalog_text, fabric_bytes, put

from aicnet_gui.model.document import ModelError
from aicnet_gui.model.edits import (
    AddWorkload,
    UpdateDevice,
    UpdateLink,
    UpdateMetadata,
    UpdateRack,
    UpdateSettings,
    UpdateWorkload,
)
from aicnet_gui.model.fabric import Rack, Workload
from aicnet_gui.model.text_safety import control_problem

CONTROLS = ["\n", "\r", "\t", "\x00", "\x1b", "\x7f", "\x85", "\x9b", "\u2028", "\u2029"]

FABRIC_FIELDS = {
    "fabric name": ("metadata", "name"),
    "revision": ("metadata", "revision"),
    "site": ("settings", "site"),
    "naming pattern": ("settings", "naming", "leaf"),
    "device name": ("devices", 0, "name"),
    "device id": ("devices", 1, "id"),
    "firmware": ("devices", 0, "firmware"),
    "link id": ("links", 0, "id"),
    "embedded model name": ("catalog", "devices", 0, "model"),
    "port-name pattern": ("catalog", "devices", 0, "cages", 0, "port_names", "*"),
    "cable vendor": ("catalog", "cables", 0, "vendor"),
}


#: a good value of the field, the control character goes after it
GOOD = {"naming pattern": "leaf-{n:02d}", "port-name pattern": "swp{cage}s{leg0}"}


def _with(field: str, char: str) -> dict:
    data = put(FABRIC, ("metadata",), {"name": "pod", "revision": "A"})
    return put(data, FABRIC_FIELDS[field], GOOD.get(field, "ab") + char + "cd")


@pytest.mark.parametrize("char", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
@pytest.mark.parametrize("field", sorted(FABRIC_FIELDS))
def test_a_control_character_in_a_fabric_file_is_refused_naming_it_and_the_place(
        aicnet, tmp_path, field, char):
    file = tmp_path / "f.fabric"
    file.write_bytes(json.dumps(_with(field, char)).encode())
    code, _, err = aicnet("validate", str(file))
    assert code == 2, err
    assert f"U+{ord(char):04X}" in err and "one line of printable text" in err, err
    assert "Traceback" not in err and "internal error" not in err


def test_free_text_keeps_its_line_breaks(aicnet, tmp_path):
    file = tmp_path / "f.fabric"
    data = put(FABRIC, ("metadata",), {"name": "pod", "description": "line one\nline two\ttab"})
    file.write_bytes(json.dumps(put(data, ("links", 0, "notes"), "checked\r\nby Ann")).encode())
    code, _, err = aicnet("validate", str(file))
    assert code in (0, 1), err


@pytest.mark.parametrize(("where", "entry"), [
    ("model", put(SWITCH, ("model",), "SW\nx")),
    ("cages.0.name", put(SWITCH, ("cages", 0, "name"), "fab\u2028ric")),
    ("cages.0.port_names", put(SWITCH, ("cages", 0, "port_names", "1"), "swp\t{cage}")),
    ("part_numbers.0", put(CABLE, ("part_numbers",), ["MCP\x00"])),
])
def test_a_user_catalog_entry_with_a_control_character_is_reported_and_the_rest_loads(
        aicnet, user_catalog, where, entry):
    user_catalog(catalog_text([put(entry, ("id",), "acme-bad")]))
    code, out, err = aicnet("catalog", "list")
    listed = [line.split()[1] for line in out.splitlines() if line.startswith(("device ", "cable "))]
    assert code == 0 and "acme-good" in listed and "acme-bad" not in listed, out
    warning = next(line for line in out.splitlines() if "acme-bad" in line)
    assert f"entry 1 (acme-bad): {where}:" in warning and "one line of printable text" in warning


EDITS = {
    "device name": lambda d: UpdateDevice("leaf1", {"name": "leaf\n01"}),
    "device firmware": lambda d: UpdateDevice("leaf1", {"firmware": "5.9\r"}),
    "device tag": lambda d: UpdateDevice("leaf1", {"tags": {"su": "1\u2029"}}),
    "rack name": lambda d: UpdateRack("r1", {"name": "R\x0001"}),
    "link colour": lambda d: UpdateLink("l1", {"colour": "blue\x1b[31m"}),
    "workload name": lambda d: UpdateWorkload("w1", {"name": "train\u2028ing"}),
    "fabric name": lambda d: UpdateMetadata({"name": "pod\nSwitchName=evil"}),
    "site": lambda d: UpdateSettings({"site": "1A\x85"}),
    "naming pattern": lambda d: UpdateSettings({"naming": {"leaf": "leaf-{n:02d}\n"}}),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_the_mutation_api_refuses_a_control_character_and_changes_nothing(small, edit):
    before = (small.revision, dict(small.devices), dict(small.racks), small.metadata,
              small.settings, dict(small.workloads))
    with pytest.raises(ModelError, match="one line of printable text") as info:
        small.apply([EDITS[edit](small)])
    assert "U+" in str(info.value)
    assert (small.revision, dict(small.devices), dict(small.racks), small.metadata,
            small.settings, dict(small.workloads)) == before


def test_new_objects_with_a_control_character_are_refused_before_they_reach_the_document(small):
    with pytest.raises(ValueError, match="one line of printable text"):
        Rack(id="r9", name="R\n9")
    with pytest.raises(ValueError, match="one line of printable text"):
        small.apply([AddWorkload(Workload(id="w\t9", name="w9"))])


def test_the_message_names_the_character_and_where_it_is():
    assert control_problem("leaf-01") is None
    assert control_problem("plain text, with spaces: ok") is None
    assert control_problem("ab\ncd").startswith("U+000A (a line feed) at character 3")
    assert control_problem("x\u2028").startswith("U+2028 (a line separator) at character 2")
    assert control_problem("\x9b").startswith("U+009B at character 1")
    # non-Latin names are names
    assert control_problem("leaf-Łódź-01") is None and control_problem("交换机-01") is None


def test_an_id_with_a_control_character_in_a_link_end_is_no_port(aicnet, tmp_path):
    file = tmp_path / "f.fabric"
    file.write_bytes(fabric_bytes(("links", 0, "b"), ["sw", "swp1s0\n"]))
    code, _, err = aicnet("validate", str(file))
    assert code == 2 and "$.links[0]" in err and "has no port" in err, err
