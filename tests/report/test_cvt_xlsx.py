"""`aicnet export --cvt OUT.xlsx`: the CVT 1.7+ workbook read back with openpyxl (a reader
independent of the XlsxWriter that wrote it): the Links sheet's documented columns, protocol,
module part numbers, Source-Ref pointing at the schedule CSV line, every node in the Nodes sheet."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl

from aicnet_gui.cli import main
from aicnet_gui.report.cvt_xlsx import LINKS_HEADER

ROOT = Path(__file__).resolve().parents[2]
CVT_171_LINKS = ("A-Node", "A-Port", "Z-Node", "Z-Port", "Protocol", "Shuffle-ID", "A-Connector",
                 "A-MPO-Connector", "Z-Connector", "Z-MPO-Connector", "A-Module-PN",
                 "Z-Module-PN", "Source-Ref")
"""As listed by NVIDIA UFM Cable Validation Tool v1.7.1, P2P File, the Links sheet."""


def _sheets(path: Path) -> dict[str, list[tuple]]:
    workbook = openpyxl.load_workbook(path, read_only=True)
    return {ws.title: list(ws.iter_rows(values_only=True)) for ws in workbook}


def test_superpod_workbook(tmp_path):
    out, schedule = tmp_path / "su1.xlsx", tmp_path / "su1.csv"
    assert main(["export", str(ROOT / "examples" / "superpod-1su.fabric"), "--cvt", str(out),
                 "--csv", str(schedule)]) == 0
    sheets = _sheets(out)
    assert list(sheets) == ["Nodes", "Links"]
    links, nodes = sheets["Links"], sheets["Nodes"]
    assert links[0] == CVT_171_LINKS == LINKS_HEADER
    assert len(links) == 1 + 512
    # hand-checked: the first schedule row, a DGX H100 flat-top twin-port optic to a QM9700
    # finned twin-port optic, on InfiniBand; p1 is OSFP1P1, GPU 7's NIC, so rail 8's leaf.
    # CVT 1.7.1: a host port is its NIC name as `ip address show` prints it: OSFP1P1 is
    # ibp220s0 (DGX H100 User Guide, Table 6)
    assert links[1] == ("gpu-004", "ibp220s0", "leaf-08", "2/2", "ib", None, None, None, None,
                        None, "MMA4Z00-NS-FLT", "MMA4Z00-NS", 2)
    with open(schedule, encoding="utf-8-sig", newline="") as handle:
        lines = list(csv.reader(handle))
    for row in links[1:]:
        line = lines[row[12] - 1]  # Source-Ref: 1-based line of the schedule CSV
        assert (line[9], line[17]) == (row[0], row[2])
        for design, cvt in ((line[10], row[1]), (line[18], row[3])):
            assert cvt.startswith("ibp") if design.startswith("p") else cvt == design
    names = {n[0] for n in nodes[1:]}
    assert nodes[0] == ("Node", "Type", "Rack", "U", "Model")
    assert {r[0] for r in links[1:]} | {r[2] for r in links[1:]} == names
    gpu = next(n for n in nodes if n[0] == "gpu-001")
    assert gpu[1:] == ("Host", "R01-01", 1, "NVIDIA DGX H100")  # its lowest unit
    assert {n[1] for n in nodes[1:]} == {"Host", "Switch"}


def test_ethernet_dac_module_is_the_cable(tmp_path):
    out = tmp_path / "hgx.xlsx"
    assert main(["export", str(ROOT / "examples" / "small-hgx.fabric"), "--cvt", str(out)]) == 0
    links = _sheets(out)["Links"]
    assert {r[4] for r in links[1:]} == {"ethernet"}
    dac = next(r for r in links[1:] if r[0] == "leaf-01" and r[1] == "swp9s0")
    assert dac[10] == dac[11] == "MCP4Y10-N002"


def test_unwritable_workbook_is_one_message(capsys, tmp_path):
    code = main(["export", str(ROOT / "examples" / "small-hgx.fabric"), "--cvt",
                 str(tmp_path / "no" / "such" / "x.xlsx")])
    assert code == 2 and "cannot write" in capsys.readouterr().err
    assert not list(tmp_path.rglob("*.part*"))


def test_host_ports_are_ethernet_netdev_names_on_a_rocev2_fabric(tmp_path):
    """The same DGX H100 ports on a RoCEv2 fabric run Ethernet: Linux names OSFP1P1
    enp220s0np0 (systemd's en<path>np<N>, the pairs of the User Guide's Table 5), which is what
    CVT reads from `ip address show`."""
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.fileio import load_fabric, save_fabric
    from aicnet_gui.model.fabric import FabricTechnology

    doc = load_fabric(ROOT / "examples" / "superpod-1su.fabric", builtin_catalog())
    doc.settings.technology = FabricTechnology.ROCEV2
    plan, out = tmp_path / "roce.fabric", tmp_path / "roce.xlsx"
    save_fabric(doc, plan)
    assert main(["export", str(plan), "--cvt", str(out)]) == 0
    links = _sheets(out)["Links"]
    first = links[1]
    assert (first[0], first[1], first[4]) == ("gpu-004", "enp220s0np0", "ethernet")

