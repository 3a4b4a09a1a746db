"""`.fabric` files: byte-stable round trip, atomic save, and one clear message per bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from aicnet_gui.fileio import (
    FabricFileError,
    atomic,
    dumps_fabric,
    load_fabric,
    loads_fabric,
    save_fabric,
)
from aicnet_gui.fileio.migrations import MigrationError, migrate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateRack
from aicnet_gui.model.fabric import SCHEMA_VERSION, CageConfig, Device, Endpoint, Link
from tests.doc_edits import (
    add_device,
    add_link,
    remove_link,
    update_device,
    update_link,
    update_settings,
)


def test_save_load_save_is_byte_stable(small, catalog, tmp_path):
    first = tmp_path / "a.fabric"
    save_fabric(small, first)
    loaded = load_fabric(first, catalog)
    second = tmp_path / "b.fabric"
    save_fabric(loaded, second)
    assert first.read_bytes() == second.read_bytes()
    assert loaded.links["l1"] == small.links["l1"]
    assert loaded.devices["leaf1"].cages[5].transceiver == "nvidia-mma4z00-ns"


def test_file_is_versioned_json_with_embedded_catalog(small):
    data = json.loads(dumps_fabric(small))
    assert list(data)[:2] == ["format", "schema_version"]
    assert data["format"] == "aicnet.fabric" and data["schema_version"] == SCHEMA_VERSION == 4
    assert data["links"][0]["a"] == ["gpu1", "p1"]
    embedded = {e["id"] for section in data["catalog"].values() for e in section}
    assert embedded == {"nvidia-qm9700", "nvidia-dgx-h100", "nvidia-mma4z00-ns", "nvidia-mfp7e10"}


def test_embedded_catalog_opens_without_the_builtin_entry(small):
    from aicnet_gui.model.catalog import Catalog

    loaded = loads_fabric(dumps_fabric(small), Catalog())
    assert loaded.device_model("leaf1").id == "nvidia-qm9700"


def test_save_keeps_previous_version_as_bak(small, tmp_path):
    target = tmp_path / "f.fabric"
    save_fabric(small, target)
    old = target.read_bytes()
    update_link(small, "l1", length_m=20.0)
    save_fabric(small, target)
    assert (tmp_path / "f.fabric.bak").read_bytes() == old
    assert target.read_bytes() != old


def test_interrupted_save_leaves_the_old_file_intact(small, tmp_path, monkeypatch):
    target = tmp_path / "f.fabric"
    save_fabric(small, target)
    old = target.read_bytes()
    update_link(small, "l1", length_m=25.0)

    def crash(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", crash)
    with pytest.raises(FabricFileError, match="cannot write: No space left on device"):
        save_fabric(small, target)
    assert target.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.fabric"]


def _write(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "bad.fabric"
    path.write_bytes(content)
    return path


def _mutated(small, change) -> bytes:
    data = json.loads(dumps_fabric(small))
    change(data)
    return json.dumps(data).encode()


BAD_INPUTS = {
    "empty": (lambda s: b"", "", "the file is empty"),
    "truncated": (lambda s: dumps_fabric(s)[:200], "", "truncated"),
    "not utf-8": (lambda s: b'{"format": "aicnet.fabric", "x": "\xff\xfe"}', "", "not UTF-8"),
    "not a fabric": (lambda s: b'{"hello": 1}', "$.format", "not an aicnet fabric"),
    "newer schema": (
        lambda s: _mutated(s, lambda d: d.update(schema_version=99)),
        "$.schema_version", "newer aicnet (schema version 99)",
    ),
    "wrong type": (
        lambda s: _mutated(s, lambda d: d["links"][0].update(length_m="long")),
        "$.links[0].length_m", "valid number",
    ),
    "missing field": (
        lambda s: _mutated(s, lambda d: d["devices"][1].pop("model")),
        "$.devices[1].model", "required field is missing",
    ),
    "unknown field": (
        lambda s: _mutated(s, lambda d: d["links"][0].update(colr="blue")),
        "$.links[0].colr", "unknown field",
    ),
    "empty port name": (
        lambda s: _mutated(s, lambda d: d["links"][0]["b"].__setitem__(1, "")),
        "$.links[0].b[1]", "at least 1 character",
    ),
    "end not a pair": (
        lambda s: _mutated(s, lambda d: d["links"][0].update(a="gpu1")),
        "$.links[0].a", "should be a list",
    ),
    "unknown catalog id": (
        lambda s: _mutated(s, lambda d: d["devices"][0].update(model="acme-switch-9000")),
        "$.devices[0]", "unknown device catalog id 'acme-switch-9000'",
    ),
    "duplicate id": (
        lambda s: _mutated(s, lambda d: d["devices"][1].update(id="leaf1")),
        "$.devices[1]", "id 'leaf1' is already used",
    ),
    "dangling endpoint": (
        lambda s: _mutated(s, lambda d: d["links"][0]["a"].__setitem__(0, "gpu9")),
        "$.links[0]", "names device 'gpu9', which does not exist",
    ),
    "port used twice": (
        lambda s: _mutated(s, lambda d: d["links"].append(
            {"id": "l2", "a": {"device": "gpu1", "port": "p2"}, "b": {"device": "leaf1", "port": "5/1"}})),
        "$.links[1]", "port leaf-01:5/1 already carries link l1",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_gives_one_clear_message(case, small, catalog, tmp_path):
    make, json_path, text = BAD_INPUTS[case]
    path = _write(tmp_path, make(small))
    with pytest.raises(FabricFileError) as info:
        load_fabric(path, catalog)
    message = str(info.value)
    assert message.startswith(str(path))
    assert info.value.json_path == json_path
    assert text in message


def test_missing_file_is_reported(catalog, tmp_path):
    with pytest.raises(FabricFileError, match="no such file"):
        load_fabric(tmp_path / "nope.fabric", catalog)


def test_migrations_run_step_by_step():
    steps = {1: lambda d: {**d, "a": 1}, 2: lambda d: {**d, "b": d["a"] + 1}}
    assert migrate({"schema_version": 1}, steps, target=3) == {"schema_version": 3, "a": 1, "b": 2}
    with pytest.raises(MigrationError, match="no migration from schema version 1"):
        migrate({"schema_version": 1}, {}, target=2)


def test_a_version_1_file_opens_and_is_saved_as_version_2(small, catalog, tmp_path):
    current = json.loads(dumps_fabric(small))
    old = dict(current, schema_version=1, links=[
        dict(link, a={"device": link["a"][0], "port": link["a"][1]},
             b={"device": link["b"][0], "port": link["b"][1]}) for link in current["links"]])
    path = _write(tmp_path, json.dumps(old, indent=2).encode())
    opened = load_fabric(path, catalog)
    assert opened.links["l1"].a == ("gpu1", "p1") and opened.links["l1"].a.port == "p1"
    assert json.loads(dumps_fabric(opened)) == current


def test_recovery_store_round_trip(small, catalog, tmp_path):
    from aicnet_gui.fileio.recovery import RecoveryStore

    store = RecoveryStore(tmp_path / "recovery")
    store.write(small, tmp_path / "f.fabric", session="s1", now=100.0)
    pending = store.pending()
    assert len(pending) == 1 and pending[0].original == str(tmp_path / "f.fabric")
    restored = load_fabric(pending[0].recovery_file, catalog)
    assert restored.links["l1"] == small.links["l1"]
    store.discard(tmp_path / "f.fabric", session="s1")
    assert store.pending() == []
    assert os.listdir(tmp_path / "recovery") == []


def test_save_keeps_permissions_of_the_file(small, tmp_path):
    target = tmp_path / "shared.fabric"
    save_fabric(small, target)
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()
    target.chmod(0o640)
    save_fabric(small, target)
    assert target.stat().st_mode & 0o777 == 0o640


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_save_after_edits_reuses_lines_but_writes_the_same_bytes(small, catalog):
    first = dumps_fabric(small)
    update_link(small, "l1", length_m=21.5)
    add_device(small, Device(id="leaf2", name="leaf-02", model="nvidia-qm9700"))
    warm = dumps_fabric(small)
    cold = dumps_fabric(loads_fabric(warm, catalog))
    assert warm == cold != first
    assert b'"length_m":21.5' in warm


def _three_links(small: FabricDocument) -> FabricDocument:
    for number, port in ((2, "5/2"), (3, "6/1")):
        add_link(small, Link(id=f"l{number}", a=Endpoint(device="gpu1", port=f"p{number}"),
                             b=Endpoint(device="leaf1", port=port), rail=number))
    return small


def test_first_save_after_opening_keeps_the_lines_of_unchanged_objects(small, catalog):
    raw = dumps_fabric(_three_links(small))
    canonical = json.dumps(json.loads(_line_of(raw, b'"id":"l1"')), separators=(",", ":")).encode()
    by_hand = _line_of(raw, b'"id":"l1"').replace(b'","', b'", "')  # same object, spaced out
    opened = loads_fabric(raw.replace(_line_of(raw, b'"id":"l1"'), by_hand), catalog)
    update_link(opened, "l2", length_m=9.5)
    remove_link(opened, "l3")
    saved = dumps_fabric(opened)
    assert by_hand in saved and canonical not in saved  # the unchanged link is written as read
    assert b'"length_m":9.5' in saved and b'"id":"l3"' not in saved
    reopened = loads_fabric(saved, catalog)
    assert reopened.links == opened.links and reopened.devices == opened.devices


def test_a_hand_formatted_section_is_written_afresh(small, catalog):
    raw = dumps_fabric(_three_links(small))
    one, two, three = (_line_of(raw, f'"id":"l{n}"'.encode()) for n in (1, 2, 3))
    # as many line breaks as links, but not one link per line
    split_one = one.replace(b',"b":', b',\n    "b":')
    reformatted = raw.replace(one + b",\n    " + two + b",\n    " + three,
                              split_one + b", " + two + b",\n    " + three)
    assert reformatted != raw
    opened = loads_fabric(reformatted, catalog)
    assert dumps_fabric(opened) == raw


@pytest.mark.parametrize("layout", ["bracket on the last line", "sections reordered", "key twice"])
def test_a_file_not_laid_out_as_aicnet_writes_it_saves_what_the_document_holds(layout, catalog):
    # one object per line, as aicnet writes sections, but the file around them differs
    raw = b"""{
  "format": "aicnet.fabric",
  "schema_version": 3,
  "devices": [
    {"id": "s1", "name": "s1", "model": "nvidia-sn5600", "rack": "r1"},
    {"id": "s2", "name": "s2", "model": "nvidia-sn5600"}],
  "settings": {"mtu": 4096},
  "racks": [
    {"id": "r1", "name": "R01"}
  ]
}
"""
    if layout == "sections reordered":
        raw = raw.replace(b"}],\n", b"}\n  ],\n")
    if layout == "key twice":
        raw = raw.replace(b'  "format"', b'  "racks": [\n    {"id": "r0", "name": "old"}\n  ],\n  "format"')
    opened = loads_fabric(raw, catalog)
    update_settings(opened, mtu=9000)
    opened.apply([UpdateRack("r1", {"name": "RACK-A"})])
    saved = loads_fabric(dumps_fabric(opened), catalog)
    assert (saved.settings.mtu, saved.racks["r1"].name, list(saved.racks)) == (9000, "RACK-A", ["r1"])
    assert dumps_fabric(saved) == dumps_fabric(opened)


def test_devices_read_with_the_same_cage_table_share_it_and_an_edit_touches_one(small, catalog):
    add_device(small, Device(id="leaf2", name="leaf-02", model="nvidia-qm9700",
                             cages={5: CageConfig(transceiver="nvidia-mma4z00-ns")}))
    opened = loads_fabric(dumps_fabric(small), catalog)
    first, second = opened.devices["leaf1"], opened.devices["leaf2"]
    assert first.cages is second.cages  # validated once
    update_device(opened, "leaf2", cages={5: CageConfig(mode="4x200G")})
    assert opened.devices["leaf1"].cages[5].transceiver == "nvidia-mma4z00-ns"
    assert opened.devices["leaf2"].cages[5].mode == "4x200G"
    bad = dumps_fabric(small).replace(b'"transceiver":"nvidia-mma4z00-ns"}}', b'"transceiver":7}}', 1)
    with pytest.raises(FabricFileError, match=r"\$\.devices\[\d\]\.cages\.5\.transceiver"):
        loads_fabric(bad, catalog)


def _line_of(raw: bytes, marker: bytes) -> bytes:
    return next(line.strip().rstrip(b",") for line in raw.splitlines() if marker in line)


def test_recovery_of_a_running_instance_is_not_offered(small, tmp_path):
    import subprocess
    import sys

    from aicnet_gui.fileio.recovery import RecoveryStore

    store = RecoveryStore(tmp_path / "recovery")
    store.write(small, None, session="other", now=1.0)
    note = next((tmp_path / "recovery").glob("*.json"))
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        note.write_text(note.read_text().replace(f'"pid":{os.getpid()}', f'"pid":{other.pid}'))
        assert store.pending() == []
    finally:
        other.kill()
        other.wait()
    assert len(store.pending()) == 1


def test_the_save_cache_belongs_to_its_document_only(small, catalog):
    import gc
    import weakref

    from aicnet_gui.fileio import line_cache

    raw = dumps_fabric(_three_links(small))
    by_hand = _line_of(raw, b'"id":"l1"').replace(b'","', b'", "')
    opened = loads_fabric(raw.replace(_line_of(raw, b'"id":"l1"'), by_hand), catalog)
    assert by_hand not in dumps_fabric(opened.snapshot())  # a snapshot is serialised afresh
    assert by_hand in dumps_fabric(opened)  # the document keeps the lines it was opened from
    cache = weakref.ref(line_cache.cache_of(opened))
    del opened
    gc.collect()
    assert cache() is None  # held weakly by document: it goes when the document goes


def test_a_version_3_file_gets_the_load_balancing_mode_its_ecmp_policy_names(small, catalog):
    """Schema 4 made the load-balancing mode a setting (issue 35); a version-3 file said it only
    in the free-text ECMP policy.  Both read paths (the fast one for files laid out as aicnet
    writes them, the careful one for the rest) give it the mode its words name."""
    data = json.loads(dumps_fabric(small))
    data["schema_version"] = 3
    del data["settings"]["load_balancing"]
    for policy, mode in (("5-tuple hash", "ecmp"), ("adaptive routing", "adaptive"),
                         ("adaptive routing with flowlet ECMP", "adaptive"),
                         ("flowlet DLB", "flowlet"), ("packet spraying", "spray")):
        data["settings"]["ecmp_policy"] = policy
        fast = loads_fabric(json.dumps(data, indent=2).encode(), catalog)
        # a link end spelled as an object fails the fast path: the careful one migrates
        odd = json.loads(json.dumps(data))
        end = odd["links"][0]["a"]
        odd["links"][0]["a"] = {"device": end[0], "port": end[1]}
        careful = loads_fabric(json.dumps(odd).encode(), catalog)
        assert fast.settings.load_balancing == careful.settings.load_balancing == mode, policy
        assert json.loads(dumps_fabric(fast))["schema_version"] == 4
