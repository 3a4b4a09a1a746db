"""BOM lines of the PDF: per physical cable and ordered length, optics per cage (twin-port
rule), spares rounded up, subtotals by tier - and the same counts as `aicnet bom`."""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.analysis import compute_bom
from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.catalog_entities import CableAssembly
from aicnet_gui.report.bom_lines import bom_tables, cable_part_numbers, length_of_part_number
from aicnet_gui.report.cables import build_plan

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _lines(lines):
    return [(x.tier, x.part, x.length_m, x.quantity) for x in lines]


def _orders(lines):
    return [(x.part, x.length_m, x.quantity, x.spares, x.order) for x in lines]


def test_cables_count_physical_cables_by_tier_and_length(small):
    tables = bom_tables(small, build_plan(small))
    # the twin-port DAC carries two links but is one cable; the splitter (4.3 m) is longer
    # than MCP7Y00's 3 m ladder, so it has no stock length; 4 fibres of 4.5-4.98 m -> 5 m;
    # spares 5 % of each part x length, rounded up: 1 on every line of the order list
    assert _lines(tables.cables) == [
        ("leaf-spine", "MCP4Y10", 2.0, 1),
        ("server-leaf", "MCP7Y00", None, 1),
        ("server-leaf", "MFP7E10", 5.0, 4),
    ]
    assert _orders(tables.order_cables) == [
        ("MCP4Y10", 2.0, 1, 1, 2),
        ("MCP7Y00", None, 1, 1, 2),
        ("MFP7E10", 5.0, 4, 1, 5),
    ]
    assert tables.cables[0].part_numbers == "MCP4Y10-N002"  # the 2 m part number
    assert tables.cables[1].part_numbers == "MCP7Y00 (no stock length fits)"


def test_optics_are_counted_per_cage_for_twin_port_modules(small):
    tables = bom_tables(small, build_plan(small))
    # 4 fibres between twin-port optics: 2 cages on the leaf, 1 cage on each DGX
    assert _lines(tables.optics) == [
        ("server-leaf", "MMA4Z00-NS", None, 2),
        ("server-leaf", "MMA4Z00-NS-FLT", None, 2),
    ]
    assert _orders(tables.order_optics) == [
        ("MMA4Z00-NS", None, 2, 1, 3),
        ("MMA4Z00-NS-FLT", None, 2, 1, 3),
    ]
    assert all("twin-port" in line.note for line in tables.optics)


def test_totals_match_the_validator_bom(small):
    tables = bom_tables(small, build_plan(small))
    bom = compute_bom(small)
    assert tables.cable_totals() == bom.cables
    assert tables.optic_totals() == bom.transceivers


def test_length_codes_of_nvidia_part_numbers(catalog):
    assert [length_of_part_number(pn) for pn in
            ("MCP7Y00-N001", "980-9I432-00N001", "MCP7Y00-N01A", "MCP4Y10-N00A", "MFP7E10-N020",
             "MFP7E10-Nxxx", "MMA4Z00-NS")] == [1.0, 1.0, 1.5, 0.5, 20.0, None, None]
    mcp7y00 = catalog.cable("nvidia-mcp7y00")
    assert cable_part_numbers(mcp7y00, 2.5) == "MCP7Y00-N02A, 980-9I92O-00N02A"
    # MFP7E10 is ordered by its per-length number; MFP7E20's are not public: the base number
    assert cable_part_numbers(catalog.cable("nvidia-mfp7e10"), 7.0) == "MFP7E10-N007"
    assert cable_part_numbers(catalog.cable("nvidia-mfp7e20"), 7.0) == "MFP7E20-Nxxx"


def test_a_fibre_ladder_holds_only_lengths_with_a_part_number(catalog):
    """MFP7E10 part numbers N003..N050 are listed; 1, 2, 12, 25, 35, 40 m are not (hardware.md)."""
    cord = catalog.cable("nvidia-mfp7e10")
    assert cord.stock_lengths_m == [3, 5, 7, 10, 15, 20, 30, 50]
    assert cord.ordered_length(1.2) == 3 and cord.order_number(3) == "MFP7E10-N003"
    bad = cord.model_dump()
    bad["stock_lengths_m"] = [1, 3, 5, 7, 10, 15, 20, 30, 50]
    with pytest.raises(ValueError, match="stock lengths 1 m have no part number"):
        CableAssembly.model_validate(bad)


def test_the_schedule_prints_the_orderable_part_number(catalog):
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    plan = build_plan(doc)
    fibre = [row for row in plan.rows if row.part is not None and row.part.id == "nvidia-mfp7e10"]
    assert fibre and all(row.part_name == f"MFP7E10-N{int(row.ordered_m):03d}" for row in fibre)


def test_aicnet_bom_prints_the_part_number_to_order(capsys):
    from aicnet_gui.cli import main

    assert main(["bom", str(EXAMPLES / "superpod-1su.fabric")]) == 0
    out = capsys.readouterr().out
    assert "nvidia-mfp7e10@3 (MFP7E10-N003)" in out and "nvidia-mfp7e10@10 (MFP7E10-N010)" in out
