"""CSV exports: the documented headers (cabling.md §2.1, §2.3, §3.4) and the rows a user
relies on."""

from __future__ import annotations

import csv
from pathlib import Path

from aicnet_gui.report import export_csv, export_labels_csv, export_netbox, export_p2p

LEAF = "leaf-Łódź-01"


def _read(path: Path, encoding: str = "utf-8") -> list[list[str]]:
    with open(path, encoding=encoding, newline="") as handle:
        return list(csv.reader(handle))


def test_schedule_csv_has_both_ends_media_lengths_and_colour(small, tmp_path):
    out = tmp_path / "schedule.csv"
    assert export_csv(small, out) == 8
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # BOM: spreadsheets read the Polish name right
    rows = _read(out, "utf-8-sig")
    header = rows[0]
    assert header[:6] == ["Cable", "Label text A", "Label text B", "Tier", "Rail", "Plane"]
    for column in ("A rack", "A RU (lowest)", "A device", "A port", "A breakout leg", "A optic",
                   "B rack", "B RU (lowest)", "B device", "B port", "B breakout leg", "B optic",
                   "Media", "Cable part", "Fibre type", "Polarity", "Calculated length m",
                   "Ordered length m", "Colour", "Status"):
        assert column in header
    record = dict(zip(header, rows[-1], strict=True))  # last row: dgx-a p2 -> leaf 1/2
    assert record["Cable"] == "C000006"
    assert record["Label text A"] == "1A.A02-02:p2/1A.A01-40:1-2"  # dgx-a: 8U in units 2-9
    assert (record["A device"], record["A port"], record["A RU (lowest)"]) == ("dgx-a", "p2", "2")
    assert (record["B device"], record["B port"], record["B breakout leg"]) == (LEAF, "1/2", "2/2")
    assert (record["Calculated length m"], record["Ordered length m"]) == ("4.98", "5")
    assert (record["Colour"], record["Rail"], record["Status"]) == ("orange", "2", "planned")


def test_label_csv_has_one_row_per_cable_end(small, tmp_path):
    out = tmp_path / "labels.csv"
    assert export_labels_csv(small, out) == 13
    rows = _read(out, "utf-8-sig")
    assert rows[0] == ["cable", "this_end", "this_device_port", "to_end", "to_device_port",
                       "label_text", "colour", "media", "length_m", "qr_payload", "rail",
                       "plane"]
    ends = [r for r in rows[1:] if r[0] == "C000005"]
    assert [(r[1], r[3], r[5]) for r in ends] == [
        ("1A.A02-02:p1", "1A.A01-40:1-1", "1A.A02-02:p1/1A.A01-40:1-1"),
        ("1A.A01-40:1-1", "1A.A02-02:p1", "1A.A01-40:1-1/1A.A02-02:p1"),
    ]
    shared = next(r for r in rows[1:] if r[0] == "C000001")
    assert shared[3] == "1A.A02-20:p1; 1A.A02-21:p1"
    assert shared[2] == f"{LEAF} 3/1,3/2"


def test_p2p_sheet_has_the_cable_validation_tool_columns(small, tmp_path):
    out = tmp_path / "p2p.csv"
    assert export_p2p(small, out) == 8
    rows = _read(out)
    # NVIDIA UFM CVT 1.4-1.6, P2P File: the six named columns, then each end's rack and unit
    assert rows[0] == ["A-Node Name", "A-Type", "A-Port", "Z-Node Name", "Z-Type", "Z-Port",
                       "A-Rack", "A-U", "Z-Rack", "Z-U"]
    assert [LEAF, "Switch", "32/1", "spine-01", "Switch", "1/1", "R1", "40", "R1", "42"] in rows
    dgx = next(r for r in rows if r[0] == "dgx-b")
    # CVT's default HCA mapping: port 1 -> mlx5_0 P1, 2 -> mlx5_1 P1 ...; a DGX H100's p1
    # (OSFP1P1) is mlx5_11 (User Guide Table 6), so HCA port 12
    assert dgx[1:3] == ["Host", "12"]


def test_netbox_import_files_use_netbox_column_names(small, tmp_path):
    written = export_netbox(small, tmp_path / "nb", layout="4.4")  # the older layout
    folder = tmp_path / "nb"
    assert written["cables.csv"] == 8
    cables = _read(folder / "cables.csv")
    assert cables[0] == ["side_a_device", "side_a_type", "side_a_name", "side_b_device",
                         "side_b_type", "side_b_name", "type", "status", "tenant", "label",
                         "color", "length", "length_unit", "description", "comments", "tags"]
    record = dict(zip(cables[0], cables[-1], strict=True))
    assert (record["side_a_device"], record["side_a_type"], record["side_a_name"]) == (
        "dgx-a", "dcim.interface", "p2")
    assert (record["side_b_device"], record["side_b_name"]) == (LEAF, "1/2")
    assert (record["type"], record["status"], record["label"]) == ("mmf-om4", "planned", "C000006")
    # TIA-598 orange in the tone the GUI shows
    assert (record["color"], record["length"], record["length_unit"]) == ("f76707", "5", "m")
    devices = _read(folder / "devices.csv")
    assert devices[0][:9] == ["name", "role", "manufacturer", "device_type", "status", "site",
                              "rack", "position", "face"]
    leaf = next(r for r in devices if r[0] == LEAF)
    assert leaf[:9] == [LEAF, "Leaf switch", "Nvidia", "QM9700", "planned", "1A", "R1", "40",
                        "front"]
    racks = _read(folder / "racks.csv")
    assert racks[1][:3] == ["1A", "R1", "A01"]
    interfaces = _read(folder / "interfaces.csv")
    assert [LEAF, "3/1", "infiniband-ndr", "400000000", "true", "cage 3 leg 1/2"] in interfaces
    readme = (folder / "README.txt").read_text(encoding="utf-8")
    assert "Nvidia QM9700" in readme and "cables.csv" in readme
