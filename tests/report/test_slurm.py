"""`aicnet export --slurm DIR`: topology.conf read back line by line with Slurm's hostlist
syntax expanded, topology.yaml with PyYAML, against hand-checked trees and NVL72 blocks."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from aicnet_gui.cli import main
from aicnet_gui.report.slurm import export_slurm, hostlist

ROOT = Path(__file__).resolve().parents[2]


def expand(expr: str) -> list[str]:
    """Slurm hostlist expression -> names (`gpu-[001-003,005],x`)."""
    names = []
    for prefix, ranges, plain in re.findall(r"([^,\[]*)\[([^\]]+)\]|([^,\[\]]+)", expr):
        if plain:
            names.append(plain)
            continue
        for part in ranges.split(","):
            first, _, last = part.partition("-")
            for n in range(int(first), int(last or first) + 1):
                names.append(f"{prefix}{n:0{len(first)}d}")
    return names


def _conf(path: Path) -> dict[str, dict[str, list[str]]]:
    switches: dict[str, dict[str, list[str]]] = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = dict(part.split("=", 1) for part in line.split())
        switches[fields["SwitchName"]] = {k: expand(v) for k, v in fields.items()
                                          if k in ("Nodes", "Switches")}
    return switches


def test_hostlist_round_trips():
    names = ["gpu-001", "gpu-002", "gpu-003", "gpu-005", "leaf-01", "x", "gpu-010"]
    assert hostlist(names) == "x,gpu-[001-003,005,010],leaf-01"
    assert sorted(expand(hostlist(names))) == sorted(names)


def test_superpod_4su_tree(tmp_path):
    """Hand-checked: 4 SUs of 32 DGX H100, each SU's servers on the same 8 rail leaves; every
    spine cabled to the 32 leaves of the 4 SUs."""
    folder = tmp_path / "slurm"
    assert main(["export", str(ROOT / "examples" / "superpod-4su.fabric"), "--slurm",
                 str(folder)]) == 0
    conf = _conf(folder / "topology.conf")
    leaves = {name: sw["Nodes"] for name, sw in conf.items() if "Nodes" in sw}
    assert list(leaves) == ["leaf-01-to-leaf-08", "leaf-09-to-leaf-16", "leaf-17-to-leaf-24",
                            "leaf-25-to-leaf-32"]
    assert leaves["leaf-09-to-leaf-16"] == [f"gpu-{n:03d}" for n in range(33, 65)]
    all_nodes = [n for nodes in leaves.values() for n in nodes]
    assert len(all_nodes) == len(set(all_nodes)) == 128  # every node under exactly one leaf
    uppers = {name: sw["Switches"] for name, sw in conf.items() if "Switches" in sw}
    assert uppers and all(children == list(leaves) for children in uppers.values())
    data = yaml.safe_load((folder / "topology.yaml").read_text())
    assert [t["topology"] for t in data] == ["fabric"]  # no NVL72 racks: no block topology
    tree = {s["switch"]: s for s in data[0]["tree"]["switches"]}
    assert data[0]["cluster_default"] is True
    assert expand(tree["leaf-01-to-leaf-08"]["nodes"]) == leaves["leaf-01-to-leaf-08"]
    assert expand(tree["spine-01"]["children"]) == list(leaves)


def test_nvl72_trays_are_a_block(small, tmp_path):
    """The report fixture: two GB200 NVL72 compute trays in rack R2 (RU 20, 21) form one
    NVLink block; every server sits under the one leaf; the spine lists that leaf."""
    export_slurm(small, tmp_path)
    data = yaml.safe_load((tmp_path / "topology.yaml").read_text())
    assert [t["topology"] for t in data] == ["fabric", "nvlink"]
    block = data[1]["block"]
    assert block["block_sizes"] == [2]
    assert block["blocks"] == [{"block": "nvl-R2", "nodes": "tray-a,tray-b"}]
    conf = _conf(tmp_path / "topology.conf")
    assert conf["leaf-Łódź-01"]["Nodes"] == ["dgx-a", "dgx-b", "tray-a", "tray-b"]
    assert conf["spine-01"]["Switches"] == ["leaf-Łódź-01"]
