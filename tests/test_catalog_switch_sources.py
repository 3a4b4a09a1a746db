"""The switch entries of the built-in catalog against their vendors' documents (2026-12-01 pass).

Pins what a primary document was found to state (manual titles, NVIDIA's and Arista's SONiC
platform files) and that an entry whose power no primary document states stays unverified
and says so.  The entries' sources and notes name each document and section.
"""

from __future__ import annotations

import pytest

from aicnet_gui.catalog import builtin_catalog
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.catalog_entities import BreakoutMode, DeviceModel

#: every switch of the four switch files (catalogs/devices/*switches*.yaml)
SWITCHES = (
    "nvidia-qm9700", "nvidia-qm9790", "nvidia-q3400-ra", "nvidia-sn5600", "nvidia-sn5400",
    "nvidia-sn4600c", "nvidia-sn4700", "nvidia-q3200-ra-half", "nvidia-sn5610", "nvidia-sn2201",
    "arista-7060x6-64pe", "cisco-n9364e-sg2-o", "juniper-qfx5240-64od",
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return builtin_catalog()


def _fabric(model: DeviceModel):
    return next(g for g in model.cages if g.fabric)


def _ports(model: DeviceModel, mode: str) -> int:
    group = _fabric(model)
    cages = group.count // 2 if mode in group.blocking_modes else group.count
    return cages * BreakoutMode.parse(mode).legs


@pytest.mark.parametrize("model_id", SWITCHES)
def test_a_switch_no_primary_document_gives_power_for_stays_unverified_and_says_why(
        catalog: Catalog, model_id: str) -> None:
    """No Specifications section of these switches' manuals or datasheets could be read, so none
    is verified, and each says which numbers stayed unchecked and why."""
    model = catalog.device(model_id)
    assert model.verified is False
    assert "Unchecked, and why (2026-12-01)" in model.notes


@pytest.mark.parametrize(("model_id", "maximum"), [
    ("nvidia-qm9700", 1720), ("nvidia-qm9790", 1720), ("nvidia-q3400-ra", 7000)])
def test_a_maximum_with_active_cables_is_stored_unverified_with_its_optics_included(
        catalog: Catalog, model_id: str, maximum: int) -> None:
    """The QM97xx 1,720 W and Q3400 7 kW maxima are with active cables (secondary sources
    quoting NVIDIA's specifications; no stored NVIDIA page states them): stored as the maximum,
    so that "devices at maximum" is true, marked as including the modules in the cages (the BOM
    and the rack rules do not add those optics again) and as unverified, with the source."""
    from aicnet_gui.model.power import counts_optics, power_basis

    model = catalog.device(model_id)
    assert model.power_max_w == maximum and model.power_typical_w is not None
    assert model.power_max_includes_optics and not counts_optics(model)
    assert model.power_verified is False and model.power_source.startswith("secondary")
    assert "active cables" in model.notes
    assert power_basis(model).caveat.endswith("optics included, unverified")


def test_sn5400_and_sn5600_are_the_2u_models_of_the_sn5000_2u_manual(catalog: Catalog) -> None:
    """NVIDIA Spectrum-4 SN5000 2U Switch Systems Hardware User Manual Rev 1.0: its models (title,
    ordering tables and rail kit in the table of contents) are the SN5400 and SN5600."""
    for model_id in ("nvidia-sn5400", "nvidia-sn5600"):
        model = catalog.device(model_id)
        assert model.height_ru == 2
        assert "SN5000 2U Switch Systems Hardware User Manual" in model.source
    # and the SN5400's one-direction capacity is the sum of its 64 x 400G ports
    sn5400 = catalog.device("nvidia-sn5400")
    assert _ports(sn5400, "1x400G") * 400 / 1000 == sn5400.switching_tbps == 25.6


def test_sn5600_runs_4x100g_on_every_cage_per_nvidias_sonic_platform_file(
        catalog: Catalog) -> None:
    """device/mellanox/x86_64-nvidia_sn5600-r0/platform.json: every cage offers
    4x200G[100G,...], so 4 legs of 100G run on all 64 cages (256 ports, no blocking)."""
    sn5600 = catalog.device("nvidia-sn5600")
    fabric = _fabric(sn5600)
    assert "4x100G" in fabric.breakouts and "4x100G" not in fabric.blocking_modes
    assert _ports(sn5600, "4x100G") == 256
    assert "x86_64-nvidia_sn5600-r0/platform.json" in sn5600.source


def test_sn2201_uplinks_split_2x50g_and_not_4x25g(catalog: Catalog) -> None:
    """device/mellanox/x86_64-nvidia_sn2201-r0/platform.json: ports 49-52 offer 1x100G and
    2x50G, no 4x mode."""
    sn2201 = catalog.device("nvidia-sn2201")
    uplink = next(g for g in sn2201.cages if g.name == "uplink")
    assert list(uplink.cage_numbers) == [49, 50, 51, 52]
    assert uplink.breakouts == ["1x100G", "2x50G"]
    assert uplink.default_breakout == "1x100G"
    assert uplink.port_name(49, 1, 1) == "swp49"
    assert [uplink.port_name(49, leg, 2) for leg in (1, 2)] == ["swp49s0", "swp49s1"]
    assert "x86_64-nvidia_sn2201-r0/platform.json" in sn2201.source


def test_arista_7060x6_64pe_breakouts_per_aristas_sonic_platform_file(catalog: Catalog) -> None:
    """device/arista/x86_64-arista_7060x6_64pe/platform.json: osfp1..osfp64 with 1x800G, 2x400G,
    4x200G and 8x100G on every cage (no adjacent-cage rule), and two SFP cages 65 and 66."""
    arista = catalog.device("arista-7060x6-64pe")
    fabric = _fabric(arista)
    assert (fabric.count, fabric.form_factor, fabric.lanes) == (64, "OSFP", 8)
    assert {"1x800G", "2x400G", "4x200G", "8x100G"} <= set(fabric.breakouts)
    assert fabric.blocking_modes == []
    assert _ports(arista, "8x100G") == 512
    other = [list(g.cage_numbers) for g in arista.cages if not g.fabric]
    assert other == [[65, 66]]
    assert "x86_64-arista_7060x6_64pe/platform.json" in arista.source
