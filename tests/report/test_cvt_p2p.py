"""`aicnet export --p2p OUT.xlsx`: the P2P file of NVIDIA UFM Cable Validation Tool 1.4-1.6, read
back with openpyxl and checked against the columns and port conventions of its P2P File page
(v1.5.0, Topology Files > P2P File: an Excel file whose sheets hold `A-Node Name, A-Type,
A-Port, Z-Node Name, Z-Type, Z-Port`; HCA ports as numbers, 1 -> mlx5_0 P1; Ethernet host ports
`rail<N>`, switch ports `swp<port>s<split>`)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from aicnet_gui.cli import main

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED = ("A-Node Name", "A-Type", "A-Port", "Z-Node Name", "Z-Type", "Z-Port")
"""The columns the CVT 1.4.0, 1.5.0 and 1.6.0 P2P File pages list."""


def _rows(path: Path) -> list[tuple]:
    workbook = openpyxl.load_workbook(path, read_only=True)
    assert workbook.sheetnames == ["P2P"]
    return list(workbook["P2P"].iter_rows(values_only=True))


def test_infiniband_p2p_is_an_excel_file_with_hca_port_numbers(tmp_path):
    out = tmp_path / "su1.xlsx"
    assert main(["export", str(ROOT / "examples" / "superpod-1su.fabric"), "--p2p", str(out)]) == 0
    rows = _rows(out)
    assert rows[0][:6] == DOCUMENTED
    assert len(rows) == 1 + 512
    columns = {name: i for i, name in enumerate(rows[0])}
    for row in rows[1:]:
        for side in "AZ":
            kind, port = row[columns[f"{side}-Type"]], row[columns[f"{side}-Port"]]
            assert kind in {"Host", "Switch"}
            if kind == "Host":  # DGX H100 compute ports: mlx5_0 ... mlx5_11 -> 1 ... 12
                assert port.isdigit() and 1 <= int(port) <= 12, row
    first = rows[1]  # gpu-004 p1 = OSFP1P1 = mlx5_11 (User Guide Table 6): HCA port 12
    assert first[:6] == ("gpu-004", "Host", "12", "leaf-08", "Switch", "2/2")


def test_ethernet_p2p_names_host_ports_rail_n_and_switch_ports_swp(tmp_path):
    out = tmp_path / "hgx.xlsx"
    assert main(["export", str(ROOT / "examples" / "small-hgx.fabric"), "--p2p", str(out)]) == 0
    rows = _rows(out)
    assert rows[0][:6] == DOCUMENTED
    hosts = [r for r in rows[1:] if "Host" in (r[1], r[4])]
    assert hosts
    for row in hosts:
        host_port = row[2] if row[1] == "Host" else row[5]
        switch_port = row[5] if row[1] == "Host" else row[2]
        # the HGX B3140H in aicnet's catalog lists no RDMA devices: its design names stay
        assert host_port.startswith(("rail", "p")), row
        assert switch_port.startswith("swp"), row


def test_names_are_string_cells_never_formulas(tmp_path):
    """A device named like a formula stays that text (a string cell, the exact name CVT
    matches against the host name)."""
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.fileio import load_fabric
    from aicnet_gui.report.cvt_p2p import export_p2p_xlsx

    doc = load_fabric(ROOT / "examples" / "small-hgx.fabric", builtin_catalog())
    device = next(iter(doc.devices.values()))
    doc.devices[device.id].name = "=cmd|' /C calc'!A0"
    out = tmp_path / "hostile.xlsx"
    export_p2p_xlsx(doc, out)
    workbook = openpyxl.load_workbook(out)
    cells = [c for row in workbook["P2P"].iter_rows() for c in row]
    named = [c for c in cells if c.value == "=cmd|' /C calc'!A0"]
    assert named and all(c.data_type == "s" for c in named)
