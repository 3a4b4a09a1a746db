"""The as-built readers: real-format samples parse to the links they show; bad input names the
file and the place."""

from __future__ import annotations

import pytest

from aicnet_gui.asbuilt import (
    read_host_map,
    read_ibnetdiscover,
    read_lldp,
    read_netbox_cables,
)
from aicnet_gui.asbuilt.lldp import mau_speed_gbps
from aicnet_gui.fileio.errors import FabricFileError

from .conftest import DATA


def _pairs(observation):
    return {(str(link.a), str(link.b), link.speed_gbps) for link in observation.links}


def test_lldp_files_one_per_device_list_and_object_forms():
    obs = read_lldp([DATA / "lldp"])
    assert obs.hosts == {"leaf-01", "gpu-001"}
    assert _pairs(obs) == {
        ("gpu-001:p1", "leaf-01:swp1s0", None),
        ("leaf-01:swp1s0", "gpu-001:p1", None),
        ("leaf-01:swp1s1", "gpu-002:p1", None),
        ("leaf-01:swp9s0", "spine-01:swp1s0", 400.0),
    }


def test_lldp_merged_file_and_empty_device():
    obs = read_lldp([DATA / "lldp-merged.json"])
    assert obs.hosts == {"leaf-02", "spine-02"}
    assert _pairs(obs) == {("leaf-02:swp1s0", "gpu-001.cluster.example:p2", None)}


def test_ibnetdiscover_links_once_with_rdma_devices_and_rates():
    obs = read_ibnetdiscover(DATA / "ibnetdiscover.txt")
    assert obs.complete
    assert obs.hosts == {"leaf-01", "spine-01", "gpu-001", "gpu-002"}
    assert sorted(_pairs(obs)) == [
        ("leaf-01:1", "gpu-001:mlx5_11", 400.0),
        ("leaf-01:2", "gpu-002:mlx5_11", 200.0),
        ("leaf-01:33", "spine-01:1", 400.0),
    ]


def test_netbox_export_planned_and_connected_cables_and_multi_terminations():
    connected = {
        ("leaf-01:swp1s0", "gpu-001:p1", None), ("leaf-01:swp1s1", "gpu-002:p1", None),
        ("leaf-01:swp9s0", "spine-01:swp1s0", None), ("leaf-01:swp9s1", "spine-01:swp1s1", None),
    }
    obs = read_netbox_cables(DATA / "netbox-cables.csv")
    assert _pairs(obs) == connected | {("leaf-02:swp20s0", "gpu-004:p3", None)}
    assert any("1 NetBox cables are 'planned'" in note for note in obs.notes)
    only = read_netbox_cables(DATA / "netbox-cables.csv", connected_only=True)
    assert _pairs(only) == connected
    assert any("were not read (--connected-only)" in note for note in only.notes)


def test_host_map():
    assert read_host_map(DATA / "hostmap.csv") == {"dgx-a01-01": "gpu-001",
                                                   "dgx-a01-02": "gpu-002"}


@pytest.mark.parametrize("mau, speed", [
    ("10GigBaseCX4 - X copper over 8 pair 100-Ohm balanced cable", 10.0),
    ("100GbaseCR4 - 100GBASE-R PCS/PMA over 4 lane shielded copper", 100.0),
    ("1000BaseTFD - Four-pair Category 5 UTP, full duplex mode", 1.0),
    ("unknown", None), (None, None),
])
def test_mau_type_speeds(mau, speed):
    assert mau_speed_gbps(mau) == speed


def _error(tmp_path, name: str, text: str, reader):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FabricFileError) as info:
        reader(path)
    return str(info.value), str(path)


@pytest.mark.parametrize("text, place", [
    ('{"lldp": {"interface": {"swp1": {"via": "LLDP"', "line 1"),
    ('[1, 2]', "$"),
    ('{"lldp": {"nothing": 1}}', "$.lldp"),
    ('{"lldp": {"interface": [{"swp1": {"chassis": {"x": {}}}}]}}',
     "$.lldp.interface[0].swp1.port"),
    ('{"lldp": {"interface": {"swp1": {"chassis": {"x": {}}, "port": {"id": {"type": 3}}}}}}',
     "$.lldp.interface.swp1.port.id"),
    ('{"leaf-01": {"interfaces": {}}}', "$.leaf-01"),
])
def test_bad_lldp_names_file_and_json_path(tmp_path, text, place):
    message, path = _error(tmp_path, "leaf-01.json", text, lambda p: read_lldp([p]))
    assert message.startswith(path) and place in message


def test_bad_ibnetdiscover_names_the_line(tmp_path):
    good = (DATA / "ibnetdiscover.txt").read_text()
    lines = good.splitlines()
    lines[11] = "[2]\tthis is not a port line"
    message, path = _error(tmp_path, "ib.txt", "\n".join(lines), read_ibnetdiscover)
    assert message.startswith(f"{path}: line 12: ")
    message, _ = _error(tmp_path, "empty.txt", "# nothing\n", read_ibnetdiscover)
    assert "no Switch or Ca lines" in message


@pytest.mark.parametrize("text, expected", [
    ("ID,Label,Status\n1,C1,Connected\n", "line 1: needs the columns Device A"),
    ("Device A,Termination A,Device B,Termination B\nleaf-01,,gpu-001,p1\n",
     "line 2: Termination A: empty"),
    ("Device A,Termination A,Device B,Termination B\nleaf-01,swp1\n", "line 2: 2 cells"),
])
def test_bad_netbox_csv(tmp_path, text, expected):
    message, path = _error(tmp_path, "cables.csv", text, read_netbox_cables)
    assert message == f"{path}: {expected}" or message.startswith(f"{path}: {expected}")


def test_bad_host_map(tmp_path):
    message, path = _error(tmp_path, "map.csv", "a,b,c\n", read_host_map)
    assert message.startswith(f"{path}: line 1: expected two columns")
    message, path = _error(tmp_path, "map.csv", "a,b\na,c\n", read_host_map)
    assert message == f"{path}: line 2: a is mapped twice"
