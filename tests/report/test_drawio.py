"""`aicnet export --drawio OUT.drawio`: parsed back with an XML parser: one page per view, the
PDF's tiers and bundles on the Topology page, racks and their devices on the Floor page."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from aicnet_gui.cli import main
from aicnet_gui.report.drawio import export_drawio

ROOT = Path(__file__).resolve().parents[2]


def _pages(path: Path) -> dict[str, list[ET.Element]]:
    root = ET.parse(path).getroot()
    assert root.tag == "mxfile"
    return {d.get("name"): d.findall("./mxGraphModel/root/mxCell") for d in root.findall("diagram")}


def test_superpod_topology_and_floor(tmp_path):
    """Hand-checked, DGX SuperPOD 1 SU: 32 DGX H100 (one SU box), 8 rail leaves and 4 spines;
    each leaf takes 32 x 400G from the SU and sends its 32 uplinks 8 x 400G to each spine."""
    out = tmp_path / "su1.drawio"
    code = main(["export", str(ROOT / "examples" / "superpod-1su.fabric"), "--drawio", str(out)])
    assert code == 0
    pages = _pages(out)
    assert list(pages) == ["Topology", "Floor"]
    cells = pages["Topology"]
    assert [c.get("id") for c in cells[:2]] == ["0", "1"]
    by_id = {c.get("id"): c for c in cells}
    boxes = {c.get("value").split("\n")[0]: c for c in cells
             if c.get("vertex") and "rounded=1" in c.get("style")}
    assert set(boxes) == {"SU 1", *(f"leaf-{n:02d}" for n in range(1, 9)),
                          *(f"spine-{n:02d}" for n in range(1, 5))}
    assert boxes["SU 1"].get("value") == "SU 1\n32 devices\n32x DGX H100"
    ys = {name: float(c.find("mxGeometry").get("y")) for name, c in boxes.items()}
    assert ys["spine-01"] < ys["leaf-01"] < ys["SU 1"]  # core on top, servers at the bottom
    edges = [c for c in cells if c.get("edge")]
    ends = {(by_id[e.get("source")].get("value").split("\n")[0],
             by_id[e.get("target")].get("value").split("\n")[0]): e for e in edges}
    assert len(edges) == 8 + 8 * 4
    assert ends[("SU 1", "leaf-03")].get("value") == "32x400G"
    assert ends[("leaf-03", "spine-02")].get("value") == "8x400G"
    widths = {float(e.get("style").split("strokeWidth=")[1].split(";")[0]) for e in edges}
    assert max(widths) == 4.0 and min(widths) < 4.0  # the bigger bundle draws wider
    floor = pages["Floor"]
    racks = {c.get("id"): c.get("value") for c in floor if "swimlane" in (c.get("style") or "")}
    assert len(racks) == 10
    gpu = next(c for c in floor if (c.get("value") or "").startswith("gpu-001 "))
    assert racks[gpu.get("parent")] == "R01-01"


def test_small_report_fixture_floor_positions(small, tmp_path):
    export_drawio(small, tmp_path / "x.drawio")
    floor = _pages(tmp_path / "x.drawio")["Floor"]
    racks = {c.get("value"): c for c in floor if "swimlane" in (c.get("style") or "")}
    x1 = float(racks["R1"].find("mxGeometry").get("x"))
    x2 = float(racks["R2"].find("mxGeometry").get("x"))
    assert x2 > x1  # position 2 right of position 1 in the same row
    spine = next(c for c in floor if (c.get("value") or "") == "spine-01 (U42)")
    leaf = next(c for c in floor if (c.get("value") or "").startswith("leaf-"))
    assert float(spine.find("mxGeometry").get("y")) < float(leaf.find("mxGeometry").get("y"))


def test_export_help_says_who_reads_each_format(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["export", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    text = text[text.index("outputs (at least one):"):]
    for option, reader in (("--pdf", "installers"), ("--csv", "spreadsheets"),
                           ("--labels-csv", "P-touch"), ("--netbox", "NetBox or Nautobot"),
                           ("--cvt", "bring-up team"), ("--p2p", "CVT before 1.7"),
                           ("--slurm", "scheduler's administrators"),
                           ("--drawio", "architects' documents")):
        start = text.index(f"{option} ")
        assert reader in text[start:start + 220], option
