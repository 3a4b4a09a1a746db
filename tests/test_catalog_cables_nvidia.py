"""The NVIDIA LinkX cables and the generic cords of the built-in catalog hold the numbers of the
documents their sources cite: power per end, orderable ladders, ordering numbers on the BOM."""

from __future__ import annotations

import pytest

from aicnet_gui.model.catalog import Catalog
from aicnet_gui.report.bom_lines import cable_part_numbers

NVIDIA_FILES = ("catalogs/cables/nvidia-copper.yaml", "catalogs/cables/nvidia-xdr-copper.yaml",
                "catalogs/cables/fibre.yaml")
GENERIC_FILES = ("catalogs/cables/aoc.yaml", "catalogs/cables/generic-copper.yaml",
                 "catalogs/cables/fibre.yaml")


def _cables(catalog: Catalog, files: tuple[str, ...], vendor: str) -> list:
    return [cable for cable in catalog.cables.values()
            if catalog.origin[cable.id] in files and cable.vendor == vendor]


def test_a_passive_nvidia_dac_draws_a_tenth_of_a_watt_per_end(catalog: Catalog) -> None:
    """Copper DAC and LACC Cables Overview: "Power consumption is 0.1 Watts per end"."""
    dacs = [c for c in _cables(catalog, NVIDIA_FILES, "NVIDIA") if c.type == "DAC"]
    assert {c.id for c in dacs} >= {"nvidia-mcp4y10", "nvidia-mcp7y00", "nvidia-mcp7y10"}
    for dac in dacs:
        assert dac.power_w == pytest.approx(0.1 * (1 + dac.legs)), dac.id


def test_a_100g_pam4_lacc_draws_1_5_w_on_the_800g_end_and_0_6_w_per_400g_split_end(
        catalog: Catalog) -> None:
    """LinkX 100G-PAM4 Product Line Overview: 1.5 W on the 800G end, 0.6 W on a 400G split end."""
    assert catalog.cable("nvidia-mca4j80").power_w == pytest.approx(2 * 1.5)
    for split in ("nvidia-mca7j60", "nvidia-mca7j65"):
        assert catalog.cable(split).power_w == pytest.approx(1.5 + 2 * 0.6), split


def test_the_bom_orders_the_lacc_by_legacy_and_ordering_number(catalog: Catalog) -> None:
    acc = catalog.cable("nvidia-mca4j80")
    assert acc.stock_lengths_m == [3, 4, 5]
    assert cable_part_numbers(acc, 4.0) == "MCA4J80-N004, 980-9I601-00N004"
    assert acc.order_number(5) == "MCA4J80-N005"


def test_nvidia_mpo_cords_offer_no_length_the_straight_cord_has_no_number_for(
        catalog: Catalog) -> None:
    """Up to 50 m the NVIDIA MPO-12/APC cords use the lengths MFP7E10 has part numbers for:
    a BOM must not order a 1, 2, 12, 25, 35 or 40 m cord nobody lists."""
    numbered = set(catalog.cable("nvidia-mfp7e10").part_number_at)
    for cord in ("nvidia-mfp7e20", "nvidia-mfp7e30", "nvidia-mfp7e40"):
        short = {x for x in catalog.cable(cord).stock_lengths_m if x <= 50}
        assert short == numbered, cord
    assert catalog.cable("nvidia-mfp7e20").ordered_length(1.5) == 3


def test_verified_nvidia_cables_cite_an_nvidia_document_and_generic_cords_stay_unverified(
        catalog: Catalog) -> None:
    verified = [c for c in _cables(catalog, NVIDIA_FILES, "NVIDIA") if c.verified]
    assert {c.id for c in verified} == {"nvidia-mcp7y00", "nvidia-mcp7y00-flt"}
    assert all("docs.nvidia.com" in c.source for c in verified)
    generic = _cables(catalog, GENERIC_FILES, "Generic")
    assert len(generic) >= 10
    for cord in generic:
        assert not cord.verified and "no vendor's product" in cord.notes, cord.id
