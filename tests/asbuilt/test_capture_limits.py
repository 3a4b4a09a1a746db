"""Issue 33: every as-built capture and host map is bounded (asbuilt/limits.py), a refusal is
exit 2 naming the file and the place; and a seeded, bounded fuzz of malformed captures through
verify ends in a FabricFileError or a comparison, never another exception or a hang."""

from __future__ import annotations

import random

import orjson
import pytest

from aicnet_gui.asbuilt import (
    compare,
    limits,
    read_host_map,
    read_ibnetdiscover,
    read_lldp,
    read_netbox_cables,
)
from aicnet_gui.asbuilt import hostmap as hostmap_module
from aicnet_gui.asbuilt import lldp as lldp_module
from aicnet_gui.asbuilt import netbox_csv as netbox_module
from aicnet_gui.asbuilt import observed as observed_module
from aicnet_gui.cli import main
from aicnet_gui.fileio.errors import FabricFileError
from aicnet_gui.report import export_netbox

from . import captures as sim
from .conftest import EXAMPLES, namer_for


def _refused(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    return capsys.readouterr().err


def test_lldp_nested_past_the_depth_is_refused_with_its_path(capsys, tmp_path):
    deep: object = "x"
    for _ in range(limits.MAX_JSON_DEPTH + 5):
        deep = {"k": deep}
    path = tmp_path / "leaf-01.json"
    path.write_bytes(orjson.dumps({"lldp": {"interface": {"swp1": {"port": {"descr": "a"},
                                                                   "chassis": deep}}}}))
    err = _refused(capsys, ["verify", str(EXAMPLES / "small-hgx.fabric"), "--lldp", str(path)])
    assert str(path) in err and "nested more than 32 deep" in err and "$.lldp.interface" in err


def test_a_capture_past_its_size_is_refused_before_it_is_read(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(observed_module, "MAX_CAPTURE_BYTES", 1000)
    monkeypatch.setattr(observed_module.read_input_bytes, "__defaults__", (1000,))
    monkeypatch.setattr(observed_module.read_input_text, "__defaults__", ("utf-8", 1000))
    path = tmp_path / "ib.txt"
    path.write_text("#\n" * 600)
    err = _refused(capsys, ["verify", str(EXAMPLES / "superpod-1su.fabric"),
                            "--ibnetdiscover", str(path)])
    assert str(path) in err and "at most" in err and "MiB" in err


def test_an_ibnetdiscover_line_past_its_length_names_the_line(capsys, tmp_path):
    path = tmp_path / "ib.txt"
    path.write_text("#\n# " + "x" * (limits.MAX_LINE_CHARS + 1) + "\n")
    err = _refused(capsys, ["verify", str(EXAMPLES / "superpod-1su.fabric"),
                            "--ibnetdiscover", str(path)])
    assert f"{path}: line 2: a line of" in err


def test_netbox_cells_rows_and_terminations_are_bounded(tmp_path, monkeypatch):
    path = tmp_path / "cables.csv"
    head = "Device A,Termination A,Device B,Termination B\n"
    path.write_text(head + "leaf-01,swp1,gpu-001," + "p" * (limits.MAX_CELL_CHARS + 1) + "\n")
    with pytest.raises(FabricFileError, match="line 2: a cell of"):
        read_netbox_cables(path)
    path.write_text(head + "leaf-01," + '"' + ",".join(f"swp{i}" for i in range(100)) + '"'
                    + ",gpu-001,p1\n")
    with pytest.raises(FabricFileError, match="line 2: 100 terminations on side A"):
        read_netbox_cables(path)
    monkeypatch.setattr(netbox_module, "MAX_CABLE_ROWS", 3)
    path.write_text(head + "leaf-01,swp1,gpu-001,p1\n" * 5)
    with pytest.raises(FabricFileError, match="line 5: more than 3 cables"):
        read_netbox_cables(path)


def test_host_map_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(hostmap_module, "MAX_HOSTMAP_ROWS", 2)
    path = tmp_path / "map.csv"
    path.write_text("a,b\nc,d\ne,f\n")
    with pytest.raises(FabricFileError, match="line 3: more than 2 lines"):
        read_host_map(path)


def test_lldp_interfaces_per_device_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(lldp_module, "MAX_NEIGHBOURS", 2)
    entries = [{f"swp{i}": {"chassis": {"spine": {}}, "port": {"descr": "x"}}} for i in range(3)]
    path = tmp_path / "leaf.json"
    path.write_bytes(orjson.dumps({"lldp": {"interface": entries}}))
    with pytest.raises(FabricFileError, match="3 interfaces: at most 2"):
        read_lldp([path])


# ------------------------------------------------------------------------------- the fuzz
MUTATIONS = 60
"""Malformed files per kind and seed (3 kinds x 2 seeds x 60: the whole fuzz ~10 s)."""


def _mutate(data: bytes, rng: random.Random) -> bytes:
    """One of the faults a capture gets: truncated, bytes flipped, a line repeated or dropped,
    a chunk doubled, a number grown huge, a bracket or quote removed."""
    kind = rng.randrange(7)
    if not data:
        return data
    at = rng.randrange(len(data))
    if kind == 0:
        return data[:at]
    if kind == 1:
        out = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            out[rng.randrange(len(out))] = rng.randrange(256)
        return bytes(out)
    lines = data.split(b"\n")
    if kind == 2 and lines:
        i = rng.randrange(len(lines))
        return b"\n".join(lines[:i] + [lines[i]] * rng.randint(2, 50) + lines[i + 1:])
    if kind == 3 and lines:
        del lines[rng.randrange(len(lines))]
        return b"\n".join(lines)
    if kind == 4:
        return data[:at] + data[at:at + 200] * 3 + data[at:]
    if kind == 5:
        return data[:at] + b"9" * rng.randint(20, 400) + data[at:]
    for char in (b'"', b"[", b"{", b",", b"]"):
        data = data.replace(char, b"", 1) if rng.random() < 0.5 else data
    return data


@pytest.fixture(scope="module")
def originals(tmp_path_factory, catalog):
    from aicnet_gui.fileio import load_fabric

    folder = tmp_path_factory.mktemp("originals")
    small = load_fabric(EXAMPLES / "small-hgx.fabric", catalog)
    superpod = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    export_netbox(small, folder / "nb")
    ib = sim.ibnetdiscover_text(superpod, sim.planned_links(superpod),
                                namer_for(superpod, catalog), full=True, group=True)
    lldp = sim.lldp_outputs(small, sim.planned_links(small), namer_for(small, catalog))
    return {
        "ibnetdiscover": (superpod, ib.encode()),
        "lldp": (small, orjson.dumps(lldp["leaf-01"])),
        "netbox": (small, (folder / "nb" / "cables.csv").read_bytes()),
    }


READERS = {
    "ibnetdiscover": ("ib.txt", lambda path: read_ibnetdiscover(path)),
    "lldp": ("leaf-01.json", lambda path: read_lldp([path])),
    "netbox": ("cables.csv", lambda path: read_netbox_cables(path)),
}


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("kind", sorted(READERS))
def test_fuzzed_captures_end_in_a_message_or_a_comparison(originals, catalog, tmp_path, kind,
                                                          seed):
    doc, original = originals[kind]
    name, read = READERS[kind]
    namer = namer_for(doc, catalog)
    rng = random.Random(seed * 1000 + sorted(READERS).index(kind))
    outcomes = {"refused": 0, "compared": 0}
    for _ in range(MUTATIONS):
        path = tmp_path / name
        path.write_bytes(_mutate(original, rng))
        try:
            observation = read(path)
        except FabricFileError as exc:
            assert str(path) in str(exc)
            outcomes["refused"] += 1
            continue
        compare(doc, observation, namer)
        outcomes["compared"] += 1
    assert sum(outcomes.values()) == MUTATIONS

