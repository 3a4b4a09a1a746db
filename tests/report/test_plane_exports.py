"""A two-plane design's exports come out for every plane, read back with their consumers'
readers: the NVIDIA CVT workbook with openpyxl (every link of both planes, each switch port
once), the NetBox cable CSV with the csv module (each cable names its plane)."""

from __future__ import annotations

import csv
from collections import Counter

import openpyxl

from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric
from aicnet_gui.generators import RailOptimizedParams, build_design


def test_cvt_and_netbox_carry_both_planes(catalog, tmp_path):
    doc, _ = build_design(catalog, RailOptimizedParams(
        sus=1, server="nvidia-dgx-b300", leaf="nvidia-sn5610", planes=2))
    path = tmp_path / "b300.fabric"
    save_fabric(doc, path)
    cvt, netbox = tmp_path / "cvt.xlsx", tmp_path / "netbox"
    assert main(["export", str(path), "--cvt", str(cvt), "--netbox", str(netbox)]) == 0
    plane_of = {d.name: d.plane for d in doc.devices.values()}
    sheet = openpyxl.load_workbook(cvt)["Links"]
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    assert len(rows) == len(doc.links) == 2048
    planes = Counter(plane_of[z] or plane_of[a] for a, _ap, z, _zp, *_rest in rows)
    assert planes == {"1": 1024, "2": 1024}
    ends = Counter((a, ap) for a, ap, *_ in rows) + Counter((z, zp) for _a, _ap, z, zp, *_ in rows)
    assert set(ends.values()) == {1}  # every port in one link
    with (netbox / "cables.csv").open(newline="", encoding="utf-8") as handle:
        cables = list(csv.DictReader(handle))
    named = Counter(row["comments"].rsplit("; ", 1)[-1] for row in cables)
    assert named == {"plane 1": 1024, "plane 2": 1024}
