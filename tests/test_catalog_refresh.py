"""Updating the catalog entries a design embeds from the local catalog: one checked edit, undoable,
and `aicnet catalog refresh FILE` for files."""

from __future__ import annotations

import pytest

from aicnet_gui.catalog.loader import load_catalog
from aicnet_gui.catalog.updates import entry_updates, updated_catalog
from aicnet_gui.cli import main
from aicnet_gui.fileio import load_fabric, save_fabric
from aicnet_gui.model.document import FabricDocument, ModelError
from aicnet_gui.model.edits import ReplaceCatalog
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, Link
from tests.doc_edits import add_device, add_link

CORD = "nvidia-mfp7e10"


@pytest.fixture
def design(doc: FabricDocument) -> FabricDocument:
    add_device(doc, Device(id="leaf1", name="leaf-01", model="nvidia-qm9700",
                           cages={5: CageConfig(transceiver="nvidia-mma4z00-ns")}))
    add_device(doc, Device(id="gpu1", name="gpu-001", model="nvidia-dgx-h100"))
    add_link(doc, Link(id="l1", a=Endpoint(device="gpu1", port="p1"),
                       b=Endpoint(device="leaf1", port="5/1"), cable=CORD))
    return doc


def test_a_newer_local_price_is_listed_and_taken_in_one_undoable_edit(design, tmp_path,
                                                                      override_local_entry):
    path = tmp_path / "design.fabric"
    save_fabric(design, path)
    override_local_entry(CORD, price_usd=123.0)
    local = load_catalog().catalog
    opened = load_fabric(path, local)
    assert opened.catalog.cable(CORD).price_usd is None  # the file's own entry wins on open
    updates = entry_updates(opened, local)
    assert [(u.entry_id, u.fields) for u in updates] == [(CORD, ("price_usd",))]
    applied = opened.apply([ReplaceCatalog(updated_catalog(opened, local, [CORD]))])
    assert opened.catalog.cable(CORD).price_usd == 123.0
    assert applied.changes.reset and "l1" in applied.changes.links
    assert entry_updates(opened, local) == []
    opened.apply(applied.inverse)
    assert opened.catalog.cable(CORD).price_usd is None


def test_an_update_the_design_does_not_fit_is_refused_and_changes_nothing(design):
    qm9700 = design.catalog.device("nvidia-qm9700")
    smaller = qm9700.model_copy(update={"cages": [qm9700.cages[0].model_copy(update={"count": 4})]})
    local = updated_catalog(design, design.catalog, [])
    local.add(smaller)
    before = design.catalog
    with pytest.raises(ModelError, match="does not fit the updated catalog"):
        design.apply([ReplaceCatalog(local)])
    assert design.catalog is before and design.port("leaf1", "5/1") is not None


def test_cli_refresh_lists_then_rewrites_the_file(design, tmp_path, capsys, override_local_entry):
    path = tmp_path / "design.fabric"
    save_fabric(design, path)
    override_local_entry(CORD, price_usd=99.5)
    assert main(["catalog", "refresh", str(path), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"cable {CORD}: price_usd" in out and "dry run" in out
    assert b"99.5" not in path.read_bytes()
    assert main(["catalog", "refresh", str(path)]) == 0
    assert "1 entry updated" in capsys.readouterr().out
    reopened = load_fabric(path, load_catalog(include_user=False).catalog)
    assert reopened.catalog.cable(CORD).price_usd == 99.5  # embedded now, opens anywhere
    assert path.with_name(path.name + ".bak").exists()
    assert main(["catalog", "refresh", str(path)]) == 0
    assert "matches this machine's catalog" in capsys.readouterr().out


def test_an_update_that_moves_a_linked_port_to_another_cage_is_refused_with_where(design):
    """The DGX H100 correction moved `inband1` from the slot-3 card (then cage 9) to port 2 of
    the slot-1 ConnectX-7 (cage 7): a design wired to the old inband1 would silently have its
    link on another card, its optic left in a cage with no link.  Here the update swaps the
    inband and sysmgmt cage groups back: refused, naming the port and where to move its link."""
    add_device(design, Device(id="mgmt", name="mgmt-01", model="nvidia-sn2201"))
    add_link(design, Link(id="l2", a=Endpoint(device="gpu1", port="inband1"),
                          b=Endpoint(device="mgmt", port="swp49"), cable=None))
    h100 = design.catalog.device("nvidia-dgx-h100")
    groups = {g.name: g for g in h100.cages}
    swapped = [g.model_copy(update={"first": groups["sysmgmt"].first}) if g.name == "inband"
               else g.model_copy(update={"first": groups["inband"].first}) if g.name == "sysmgmt"
               else g for g in h100.cages]
    local = updated_catalog(design, design.catalog, [])
    local.add(h100.model_copy(update={"cages": swapped}))
    before = design.catalog
    with pytest.raises(ModelError) as error:
        design.apply([ReplaceCatalog(local)])
    message = str(error.value)
    assert "port inband1 of gpu-001 is cage 7 (inband) in the design but cage 9 (inband)" in message
    assert "move the link to sysmgmt1 (the old cage's name now)" in message
    assert design.catalog is before and design.link_at("gpu1", "inband1").id == "l2"
