"""The design report's sections on the fabric's shape, as the architect reads them in the PDF
(pypdf): a rail-only design's NCCL settings, all-to-all penalty and network beside the
rail-optimized design of the same servers; a multi-plane design's planes and where its parts
come from; an NVL72 design's all-reduce reduced inside the NVLink domain."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from pypdf import PdfReader

from aicnet_gui.analysis import compute_bom
from aicnet_gui.catalog.prices import load_price_list
from aicnet_gui.change.counterpart import counterpart
from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric
from aicnet_gui.generators import RailOptimizedParams, build_design, plan

PRICES = Path(__file__).resolve().parents[1] / "study" / "data" / "test-prices.csv"


def _design_text(doc, tmp_path: Path, *extra: str) -> str:
    path = tmp_path / "design.fabric"
    save_fabric(doc, path)
    pdf = tmp_path / "design.pdf"
    assert main(["export", str(path), "--pdf", str(pdf), "--sections", "design", *extra]) == 0
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)


def _price_of(catalog, bom, prices: dict[str, float]) -> float:
    """The network's cost from the CSV rows, by hand: switches, switch optics (spares as the
    BOM orders them) and cables at their ordered length (spares included)."""
    total = 0.0
    for model, count in bom.devices_by_model.items():
        if model != "nvidia-dgx-h100":
            total += prices[model] * count
    for optic, line in bom.transceiver_orders().items():
        if optic != "nvidia-mma4z00-ns-flt":  # the servers' optics: the same in both designs
            total += prices[optic] * line.order
    for key, line in bom.cable_orders().items():
        part, _, length = key.partition("@")
        total += prices[f"{part}@{float(length):g}"] * line.order
    return total


def test_rail_only_beside_the_rail_optimized_design_of_the_same_servers(catalog):
    """2 SUs of DGX H100 on QM9700: a rail of 64 NICs is one 64-port QM9700, so rail-only is 8
    switches where the rail-optimized fat tree has 16 leaves and 8 spines (NVIDIA's 2-SU
    counts); the cost from the price list and the power follow the parts, and the savings land
    in the paper's ranges (38-77 % network cost, 37-75 % network power)."""
    params = RailOptimizedParams(sus=2, rail_planes=True)
    doc, _ = build_design(catalog, params)
    prices = load_price_list(PRICES)
    found = counterpart(doc, prices)
    assert not isinstance(found, str)
    assert (found.this.label, found.other.label) == ("rail-only", "rail-optimized")
    fat = plan(catalog, params.model_copy(update={"rail_planes": False}))
    assert found.this.switches == 8
    assert found.other.switches == sum(d.role.value != "gpu_server" for d in fat.devices) == 24
    rows = {r["part"]: float(r["unit_price"]) for r in csv.DictReader(PRICES.open())}
    other, _ = build_design(catalog, params.model_copy(update={"rail_planes": False}))
    assert found.this.cost == pytest.approx(_price_of(catalog, compute_bom(doc), rows))
    assert found.other.cost == pytest.approx(_price_of(catalog, compute_bom(other), rows))
    assert 0.38 <= found.saving("cost") <= 0.77
    assert 0.37 <= found.saving("power_w") <= 0.75


def test_a_rail_only_report_states_the_nccl_settings_and_the_penalty(catalog, tmp_path):
    doc, _ = build_design(catalog, RailOptimizedParams(sus=2, rail_planes=True))
    text = _design_text(doc, tmp_path, "--prices", str(PRICES))
    assert "Rail-only fabric" in text
    assert "NCCL_CROSS_NIC 0" in text and "NCCL_PXN_DISABLE unset (PXN on)" in text
    assert "NVIDIA/nccl issue 2345" in text and "NCCL_NET_DISABLE_INTRA=1" in text
    assert "+9.7% time" in text
    assert "rail-only (this design) 8" in text and "rail-optimized 24" in text
    assert "rail-only saves 67%" in text


def test_a_two_plane_report_says_where_its_parts_come_from(catalog, tmp_path):
    doc, _ = build_design(catalog, RailOptimizedParams(
        sus=1, server="nvidia-dgx-b300", leaf="nvidia-sn5610", planes=2))
    text = _design_text(doc, tmp_path)
    assert "Compute planes" in text
    assert "the catalog's automatic media choice" in text and "§1.1" in text
    assert "plane 1 12 768 1024 1024" in text and "plane 2 12 768 1024 1024" in text
    assert "shared 64 512 0 0" in text
    assert "Rail-only fabric" not in text


def test_an_nvl72_report_reduces_inside_the_nvlink_domain_first(catalog, tmp_path):
    """Two GB300 NVL72 racks on SN5610 planes: 2 domains of 72 GPUs, NVLink-paced."""
    doc, _ = build_design(catalog, RailOptimizedParams(
        sus=2, nodes_per_su=18, server="nvidia-gb300-nvl72-compute-tray", leaf="nvidia-sn5610",
        planes=2))
    text = _design_text(doc, tmp_path)
    assert "NVLink domain 2 NVLink domain(s) of 72 GPUs (GB300 NVL72 rack)" in text
    assert "nvlink" in text.split("Sets the pace", 1)[1][:200]
