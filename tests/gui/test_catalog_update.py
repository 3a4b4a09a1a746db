"""Edit > Update Catalog Entries: the hint after opening, one checked and undoable edit."""

from __future__ import annotations

from aicnet_gui.catalog.loader import load_catalog
from aicnet_gui.fileio import save_fabric
from aicnet_gui.model.fabric import Device, Endpoint, Link
from tests.doc_edits import add_device, add_link

CORD = "nvidia-mfp7e10"


def test_the_window_hints_after_opening_and_updates_in_one_undo_step(make_window, doc, tmp_path,
                                                                     monkeypatch, override_local_entry):
    from aicnet_gui.gui.dialogs import messages

    path = tmp_path / "design.fabric"
    add_device(doc, Device(id="gpu1", name="gpu-001", model="nvidia-dgx-h100"))
    add_device(doc, Device(id="leaf1", name="leaf-01", model="nvidia-qm9700"))
    add_link(doc, Link(id="l1", a=Endpoint(device="gpu1", port="p1"), b=Endpoint(device="leaf1", port="1/1"),
                       cable=CORD))
    save_fabric(doc, path)
    override_local_entry(CORD, price_usd=42.0)
    window = make_window()
    window.catalog = load_catalog().catalog  # as at start-up: built-in and per-user entries
    assert window.open_path(path, ask=False)
    assert "1 catalog entry of this design differs from your catalog" in window.message_label.text()
    asked: list[list[str]] = []
    monkeypatch.setattr(messages, "ask_update_catalog", lambda _p, lines: asked.append(lines) or True)
    assert window.update_catalog_entries()
    assert asked == [[f"cable {CORD}: price_usd"]]
    assert window.document.fabric.catalog.cable(CORD).price_usd == 42.0
    assert window.document.undo_stack.undoText() == "Update 1 catalog entry"
    window.document.undo_stack.undo()
    assert window.document.fabric.catalog.cable(CORD).price_usd is None
