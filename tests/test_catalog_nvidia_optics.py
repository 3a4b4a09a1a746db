"""NVIDIA LinkX optics of the built-in catalog against NVIDIA's published documents: multimode
reach exists only over the fibre grade NVIDIA names (OM4), every ordering number no NVIDIA page
confirmed is named in the entry's notes, and an optic whose power is not a datasheet figure is
not marked verified."""

from __future__ import annotations

import pytest

from aicnet_gui.model.catalog_entities import Technology
from aicnet_gui.model.fit import cage_spec, cord_between

LINKX_FILE = "catalogs/optics/nvidia-linkx.yaml"
MULTIMODE = ("nvidia-mma4z00-ns", "nvidia-mma4z00-ns-t", "nvidia-mma4z00-ns-flt",
             "nvidia-mma4z00-ns400", "nvidia-mma1z00-ns400")


def _linkx_optics(catalog):
    return [catalog.get(entry_id) for entry_id, origin in catalog.origin.items()
            if origin == LINKX_FILE]


def test_linkx_file_holds_the_ten_optics(catalog):
    assert len(_linkx_optics(catalog)) == 10


@pytest.mark.parametrize("optic_id", MULTIMODE)
def test_multimode_linkx_reach_is_om4_only(catalog, optic_id):
    """NVIDIA gives 50 m over OM4 (two patch panels) and no OM3 figure."""
    reach = catalog.transceiver(optic_id).reach_m
    assert (reach.OM4, reach.OM3, reach.OM5) == (50, None, None)


def test_om3_cord_between_twin_port_sr4_optics_is_refused(catalog):
    """Switch to switch over MPO fibre: NVIDIA's OM4 cord joins two MMA4Z00-NS; the same cord in
    OM3 is refused because NVIDIA publishes no OM3 reach for the optic."""
    ib = Technology("infiniband")
    qm9700 = catalog.device("nvidia-qm9700")
    group = next(g for g in qm9700.cages if g.fabric)
    spec = cage_spec(group, 2, 400, qm9700.is_switch)
    optic = catalog.transceiver("nvidia-mma4z00-ns")
    om4 = catalog.cable("nvidia-mfp7e10")
    assert om4.fibre_grade == "OM4"
    assert cord_between(om4, spec, optic, spec, optic, ib) is None
    om3 = om4.model_copy(update={"id": "test-om3-cord", "fibre_grade": "OM3"})
    problem = cord_between(om3, spec, optic, spec, optic, ib)
    assert problem is not None and "OM3" in problem


def test_every_unconfirmed_ordering_number_is_named_in_the_notes(catalog):
    """`catalog show` prints the notes: an ordering number (980-...) that no NVIDIA page gave is
    named there, so nobody takes it for a checked purchase-order number."""
    for optic in _linkx_optics(catalog):
        for number in optic.part_numbers:
            if number.startswith("980-"):
                assert number in optic.notes, (optic.id, number)


def test_verified_linkx_optics_cite_nvidia_documents(catalog):
    for optic in _linkx_optics(catalog):
        if optic.verified:
            assert "docs.nvidia.com/networking/display/" in optic.source, optic.id


def test_fr4_twin_port_without_a_datasheet_power_stays_unverified(catalog):
    optic = catalog.transceiver("nvidia-mms4x50-nm")
    assert optic.verified is False
    assert "Not from an NVIDIA page: the power" in optic.notes
