"""What the installer and the buyer receive: labels that name the rail and plane of a
multi-plane design, a schedule whose calculated length explains the ordered cord, a BOM page
that prices each line and names the parts without a price, NVL72 racks with their stated
power, and `aicnet bom` naming every unpriced part."""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import pytest

from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.report import export_labels_csv
from aicnet_gui.report.cables import build_plan
from aicnet_gui.report.labels import _lines

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "superpod-1su.fabric"
B300, SN5600 = "nvidia-dgx-b300", "nvidia-sn5600"
GB300, Q3400 = "nvidia-gb300-nvl72-compute-tray", "nvidia-q3400-ra"


@pytest.fixture
def two_planes(catalog) -> FabricDocument:
    """4 DGX B300 on SN5600, two planes: port k of every NIC to plane k."""
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=4, server=B300, leaf=SN5600,
                                      planes=2))
    return doc


def test_every_label_names_the_rail_and_plane_of_its_cable(two_planes):
    plan = build_plan(two_planes)
    rows = {row.link_id: row for row in plan.rows}
    assert {row.plane for row in rows.values()} == {"1", "2"}
    for label in plan.labels:
        detail = _lines(label)[-1][1]
        row = rows[label.row.link_id]
        if row.rail is not None:
            assert f"rail {row.rail} plane {row.plane}" in detail, detail
        else:  # leaf-spine: no rail, the plane still tells the two fabrics apart
            assert f"plane {row.plane}" in detail, detail


def test_a_one_plane_fabric_labels_the_rail_without_a_plane_word(catalog):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=4))
    plan = build_plan(doc)
    server = next(label for label in plan.labels if label.row.rail == 3)
    detail = _lines(server)[-1][1]
    assert detail.endswith(", rail 3") and "plane" not in detail


def test_the_label_csv_has_rail_and_plane_columns(two_planes, tmp_path):
    out = tmp_path / "labels.csv"
    export_labels_csv(two_planes, out)
    with open(out, encoding="utf-8-sig", newline="") as handle:
        records = list(csv.DictReader(handle))
    server = next(r for r in records if r["this_device_port"].endswith("p1-2"))
    assert (server["rail"], server["plane"]) == ("1", "2")
    assert {r["plane"] for r in records} == {"1", "2"}


def test_the_calculated_length_never_reads_as_a_shorter_cord(two_planes):
    row = next(r for r in build_plan(two_planes).rows if r.part is not None
               and r.part.id == "nvidia-mfp7e10")
    # 5.01 m needs the 7 m cord; "5" beside "7" would look like a mistake
    odd = dataclasses.replace(row, length_m=5.01, ordered_m=7.0, manual=False)
    assert odd.length_text == "5.01"
    assert dataclasses.replace(row, length_m=4.98, ordered_m=5.0, manual=False).length_text == "5"
    assert dataclasses.replace(row, length_m=6.43, ordered_m=7.0, manual=False).length_text == "6.4"
