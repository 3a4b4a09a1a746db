"""INSERTION-LOSS and PATCH-POLISH on a leaf-spine link through patch panels: two SN5600s with
800G 2xDR4 optics (IEEE 400GBASE-DR4 per port: 3.0 dB channel budget, MPO-12/APC) joined by an
OS2 MPO-12/APC cord, 5 m apart (a typed-in 40 m run)."""

from __future__ import annotations

import pytest
from conftest import SN5600

from aicnet_gui.analysis import analyze
from aicnet_gui.analysis.rules_cabling import channel_loss
from aicnet_gui.model.edits import UpdateLink
from aicnet_gui.model.fabric import LinkPatch
from tests.doc_edits import update_settings

DR4 = "generic-800g-2xdr4-osfp"
OS2 = "nvidia-mfp7e30"


@pytest.fixture
def patched(dr4_leaf_spine):
    return dr4_leaf_spine


def codes(doc, code):
    return [f for f in analyze(doc).findings if f.code == code]


def test_the_loss_is_connectors_plus_cabled_fibre():
    # 4 pairs x 0.75 dB (TIA-568.3-D) + 0.2 km x 1.0 dB/km (single-mode inside plant)
    total, connectors, fibre = channel_loss(LinkPatch(mated_pairs=4), "SMF", 200.0)
    assert (round(total, 3), connectors, round(fibre, 3)) == (3.2, 3.0, 0.2)
    # multimode at 850 nm: 3.5 dB/km; low-loss pairs as the link gives them
    total, _, _ = channel_loss(LinkPatch(mated_pairs=2, loss_per_pair_db=0.35), "MMF", 100.0)
    assert round(total, 3) == 1.05


def test_a_direct_cord_and_two_standard_patch_points_stay_in_the_dr4_budget(patched):
    doc = patched.doc
    assert codes(doc, "INSERTION-LOSS") == []
    doc.apply([UpdateLink("u1", {"patch": LinkPatch(mated_pairs=2)})])  # 1.5 + 0.04 dB
    assert codes(doc, "INSERTION-LOSS") == []


def test_a_cross_connect_of_four_standard_pairs_is_over_the_3_db_budget(patched):
    doc = patched.doc
    doc.apply([UpdateLink("u1", {"patch": LinkPatch(mated_pairs=4)})])  # 3.0 + 0.04 dB
    [finding] = codes(doc, "INSERTION-LOSS")
    assert finding.severity == "error"
    assert finding.objects == ("u1", "leaf-1", "spine-1")
    assert "3.04 dB is over the 3 dB budget" in finding.message
    assert "4 mated pair(s) x 0.75 dB = 3.00 dB + 40 m of SMF at 1 dB/km = 0.04 dB" in finding.message
    # the vendor's low-loss MPO pairs (0.35 dB) bring the same channel back into the budget
    doc.apply([UpdateLink("u1", {"patch": LinkPatch(mated_pairs=4, loss_per_pair_db=0.35)})])
    assert codes(doc, "INSERTION-LOSS") == []


def test_linkx_optics_are_held_to_nvidias_two_patch_panels(patched):
    from aicnet_gui.model.edits import UpdateDevice
    from aicnet_gui.model.fabric import CageConfig

    doc = patched.doc
    nvidia = {1: CageConfig(transceiver="nvidia-mms4x00-ns")}  # NVIDIA publishes no dB budget
    doc.apply([UpdateDevice("leaf-1", {"cages": nvidia}), UpdateDevice("spine-1", {"cages": nvidia}),
               UpdateLink("u1", {"patch": LinkPatch(mated_pairs=4)})])
    assert codes(doc, "INSERTION-LOSS") == []  # two panels: within NVIDIA's stated reach
    doc.apply([UpdateLink("u1", {"patch": LinkPatch(mated_pairs=6)})])
    [finding] = codes(doc, "INSERTION-LOSS")
    assert finding.severity == "warning"
    assert "6 mated pairs" in finding.message and "4 ferrule junctions" in finding.message
    assert "estimated loss 4.54 dB" in finding.message


def test_other_optics_without_a_budget_get_the_loss_as_a_note(catalog):
    from conftest import Build

    from aicnet_gui.model.catalog import Catalog
    from aicnet_gui.model.document import FabricDocument

    # a third-party DR4 whose vendor gives no channel budget (as in a user's catalog folder)
    acme = catalog.transceivers[DR4].model_copy(
        update={"id": "acme-800g-2xdr4", "vendor": "Acme", "channel_loss_db": None})
    doc = FabricDocument(catalog.merged(Catalog([acme])))
    update_settings(doc, technology="rocev2", pfc=True, ecn=True, dcb=True, mtu=9000)
    build = Build(doc)
    build.rack("r1", x=0.0)
    build.rack("r2", x=5.0)
    build.dev("leaf-1", SN5600, rack="r1", ru=40, optics={1: acme.id})
    build.dev("spine-1", SN5600, rack="r2", ru=40, role="spine", optics={1: acme.id})
    build.link("u1", "leaf-1", "swp1s0", "spine-1", "swp1s0", cable=OS2, length_m=40.0,
               patch=LinkPatch(mated_pairs=6))
    [finding] = codes(doc, "INSERTION-LOSS")
    assert finding.severity == "info"
    assert "channel insertion loss 4.54 dB" in finding.message and "not checked" in finding.message


def test_upc_panels_between_apc_optics_do_not_mate(patched):
    doc = patched.doc
    doc.apply([UpdateLink("u1", {"patch": LinkPatch(mated_pairs=2, polish="APC")})])
    assert codes(doc, "PATCH-POLISH") == []
    doc.apply([UpdateLink("u1", {"patch": LinkPatch(mated_pairs=2, polish="UPC")})])
    [finding] = codes(doc, "PATCH-POLISH")
    assert finding.severity == "error" and "is APC" in finding.message


def test_a_patch_is_bounded_and_old_files_have_none():
    from pydantic import ValidationError

    from aicnet_gui.model.fabric import Link

    old = Link.model_validate({"id": "l", "a": ["x", "1"], "b": ["y", "1"]})
    assert old.patch is None
    with pytest.raises(ValidationError):
        LinkPatch(mated_pairs=17)
    with pytest.raises(ValidationError):
        LinkPatch(loss_per_pair_db=-0.1)


def test_a_patch_survives_save_and_load_and_a_bad_one_is_named(patched, catalog):
    from aicnet_gui.fileio import FabricFileError, dumps_fabric, loads_fabric

    doc = patched.doc
    doc.apply([UpdateLink("u1", {"patch": LinkPatch(mated_pairs=4, polish="APC")})])
    raw = dumps_fabric(doc)
    assert b'"patch"' in raw and raw.count(b'"patch"') == 1  # links without one write nothing
    again = loads_fabric(raw, catalog, "x.fabric")
    assert again.links["u1"].patch == LinkPatch(mated_pairs=4, polish="APC")
    bad = raw.replace(b'"mated_pairs":4', b'"mated_pairs":99')
    assert bad != raw
    with pytest.raises(FabricFileError, match="mated_pairs"):
        loads_fabric(bad, catalog, "x.fabric")


def test_incremental_runs_agree_with_full_runs_as_the_channel_changes(patched):
    from aicnet_gui.analysis.engine import Analyzer
    from aicnet_gui.model.edits import UpdateDevice

    doc = patched.doc
    analyzer = Analyzer(doc)
    analyzer.full()
    steps = [
        [UpdateLink("u1", {"patch": LinkPatch(mated_pairs=4)})],          # over the budget
        [UpdateLink("u1", {"length_m": None})],                            # estimated length
        [UpdateLink("u1", {"patch": LinkPatch(mated_pairs=4, polish="UPC")})],
        [UpdateDevice("spine-1", {"cages": {}})],                          # optic taken out
        [UpdateLink("u1", {"patch": None})],
    ]
    seen = set()
    for ops in steps:
        edit = doc.apply(ops)
        incremental = analyzer.update(edit.changes)
        assert incremental == Analyzer(doc).full()
        seen |= {f.code for f in incremental.findings}
    assert {"INSERTION-LOSS", "PATCH-POLISH"} <= seen
