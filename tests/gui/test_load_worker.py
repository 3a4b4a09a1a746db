"""The open worker hands the editor a document whose device -> links index is already built
(its first edit asks which links a device has) and a first-validation snapshot without one
(a full validation never asks, and the copy stays small)."""

from __future__ import annotations

from pathlib import Path

from aicnet_gui.gui.workers.load_worker import load_for_editor

FABRIC = Path(__file__).resolve().parents[2] / "examples" / "superpod-1su.fabric"


def test_open_worker_builds_the_device_index_of_the_document_not_of_its_snapshot(catalog):
    loaded = load_for_editor(FABRIC, catalog)
    doc, snap = loaded.fabric, loaded.snapshot
    assert doc._device_links is not None
    assert snap is not None and snap._device_links is None
    by_end: dict[str, set[str]] = {d: set() for d in doc.devices}
    for link in doc.links.values():
        by_end[link.a.device].add(link.id)
        by_end[link.b.device].add(link.id)
    assert doc._device_links == by_end
    assert {d: snap.link_ids_of(d) for d in snap.devices} == by_end
