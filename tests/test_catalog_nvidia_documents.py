"""NVIDIA cables and DGX systems of the built-in catalog hold the numbers of NVIDIA's own
documents (re-checked 2026-12-01), and a cable whose per-length part numbers no document lists
carries its base number only, so that a BOM never prints a number built from the length code."""

from __future__ import annotations

import pytest

from aicnet_gui.model.catalog import Catalog
from aicnet_gui.report.bom_lines import cable_part_numbers

# MCP7Y00-Nxxx product specification, Ordering Information (docs.nvidia.com, Jun 2025):
# legacy PN, ordering PN per length
MCP7Y00_TABLE = {
    1.0: ("MCP7Y00-N001", "980-9I432-00N001"),
    1.5: ("MCP7Y00-N01A", "980-9I926-00N01A"),
    2.0: ("MCP7Y00-N002", "980-9I924-00N002"),
    2.5: ("MCP7Y00-N02A", "980-9I92O-00N02A"),
    3.0: ("MCP7Y00-N003", "980-9I92N-00N003"),
}
MCP7Y00_FLT_TABLE = {
    1.0: ("MCP7Y00-N001-FLT", "980-9I433-00N001"),
    1.5: ("MCP7Y00-N01A-FLT", "980-9I927-00N01A"),
    2.0: ("MCP7Y00-N002-FLT", "980-9I925-00N002"),
}


@pytest.mark.parametrize(("cable_id", "table"), [("nvidia-mcp7y00", MCP7Y00_TABLE),
                                                 ("nvidia-mcp7y00-flt", MCP7Y00_FLT_TABLE)])
def test_mcp7y00_orders_by_the_ordering_table(catalog: Catalog, cable_id, table) -> None:
    cable = catalog.cable(cable_id)
    assert cable.stock_lengths_m == sorted(table)
    assert cable.verified
    for length, (legacy, ordering) in table.items():
        assert legacy in cable.part_numbers and ordering in cable.part_numbers, length
        assert cable.order_number(length) == legacy
        # the flat-top legacy numbers carry the length code before -FLT: both numbers print
        assert cable_part_numbers(cable, length) == f"{legacy}, {ordering}"


def test_mcp4y10_lengths_gauge_and_power_are_the_product_specification(catalog: Catalog) -> None:
    """Key Features: "0.5, 1, 1.5, and 2-meter lengths"; Overview: "up to 2-meters", both ends
    finned; Specifications: 0.1 W max per end.  N00A and N001 are in NVIDIA's Cumulus 5.4 release
    notes; the ordering page itself was not reachable, so the entry stays unverified."""
    dac = catalog.cable("nvidia-mcp4y10")
    assert dac.stock_lengths_m == [0.5, 1, 1.5, 2] and dac.max_length_m == 2
    assert (dac.a_end.top, dac.b_end.top) == ("finned", "finned")
    assert dac.power_w == pytest.approx(0.2)
    assert {"MCP4Y10-N00A", "MCP4Y10-N001"} <= set(dac.part_numbers)
    assert not dac.verified and "Ordering Information" in dac.notes


@pytest.mark.parametrize(("cable_id", "base"), [
    ("nvidia-mcp7y10", "MCP7Y10-Nxxx"),
    ("nvidia-mca7j60", "MCA7J60-Nxxx"),
    ("nvidia-mca7j65", "MCA7J65-Nxxx"),
    ("nvidia-mfp7e20", "MFP7E20-Nxxx"),
    ("nvidia-mfp7e30", "MFP7E30-Nxxx"),
    ("nvidia-mfp7e40", "MFP7E40-Nxxx"),
])
def test_a_cable_without_public_per_length_numbers_carries_its_base_number(
        catalog: Catalog, cable_id, base) -> None:
    cable = catalog.cable(cable_id)
    assert cable.part_numbers == [base]
    assert cable.part_number_at == {}
    assert cable.order_number(cable.stock_lengths_m[0]) is None
    assert not cable.verified and "base number" in cable.notes


def test_copper_splitter_ladders_hold_the_lengths_nvidia_names(catalog: Catalog) -> None:
    """MCP7Y10 Introduction: 30AWG "1 &1.5-meter", 26AWG "2-3-meters" (no 2.5 m named); the
    splitter ACCs: "Active Copper Cables (ACC) are also available for lengths of 4 and 5-meters"."""
    assert catalog.cable("nvidia-mcp7y10").stock_lengths_m == [1, 1.5, 2, 3]
    for acc in ("nvidia-mca7j60", "nvidia-mca7j65"):
        assert catalog.cable(acc).stock_lengths_m == [4, 5], acc


def test_the_osfp_splitter_acc_legs_are_flat_for_connectx7_cages(catalog: Catalog) -> None:
    """MCA7J60 Overview: single-port OSFP ends only for ConnectX-7/OSFP adapters; MMA4Z00-NS400-T
    Introduction: a ConnectX-7 single-port OSFP has a flat top (riding heat sink on the cage)."""
    acc = catalog.cable("nvidia-mca7j60")
    assert (acc.b_end.form_factor, acc.b_end.top) == ("OSFP", "flat")
    assert acc.a_end.top == "finned"


def test_dgx_b200_height_power_and_weight_are_the_user_guide(catalog: Catalog) -> None:
    """DGX B200 User Guide, Introduction: "10U Rackmount", 142.4 kg max, "14.3 kW max."."""
    b200 = catalog.device("nvidia-dgx-b200")
    assert (b200.height_ru, b200.power_max_w, b200.weight_kg) == (10, 14300, 142.4)
    assert b200.power_typical_w is None


@pytest.mark.parametrize("device_id", ["nvidia-dgx-h100", "nvidia-dgx-h200"])
def test_dgx_h100_and_h200_height_and_power_are_the_user_guide(catalog: Catalog,
                                                                device_id) -> None:
    """DGX H100/H200 User Guide, Table 2 "8U Rackmount", Table 3 "10.2 kW max."."""
    dgx = catalog.device(device_id)
    assert (dgx.height_ru, dgx.power_max_w, dgx.power_typical_w) == (8, 10200, None)
