"""The open worker hands the editor a document, its scene columns with the overview counted,
and a first-validation snapshot; the document's device -> port -> link index (the editor's first
edit asks which links a device has) is built by the scene right after the first frame, before
its device items, so the first validation's copy stays without one."""

from __future__ import annotations

from pathlib import Path

from aicnet_gui.gui.workers.load_worker import load_for_editor

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FABRIC = EXAMPLES / "superpod-1su.fabric"
BIGGER = EXAMPLES / "superpod-4su.fabric"  # 176 devices: big enough for the fit-zoom overview


def links_by_device(doc) -> dict[str, dict[str, str]]:  # noqa: ANN001
    by_end: dict[str, dict[str, str]] = {d: {} for d in doc.devices}
    for link in doc.links.values():
        by_end[link.a.device][link.a.port] = link.id
        by_end[link.b.device][link.b.port] = link.id
    return by_end


def test_open_worker_prepares_the_scene_and_the_overview_and_a_snapshot_without_device_index(
        catalog):  # noqa: ANN001
    loaded = load_for_editor(BIGGER, catalog)
    doc, snap = loaded.fabric, loaded.snapshot
    assert snap is not None and snap._ends is None and doc._ends is None
    assert loaded.scene.overview is not None
    assert loaded.scene.overview.ids == list(doc.devices)
    assert {d: snap.link_ids_of(d) for d in snap.devices} == \
        {d: set(ports.values()) for d, ports in links_by_device(doc).items()}


def test_a_design_too_small_for_the_overview_is_not_counted_for_it(catalog):  # noqa: ANN001
    loaded = load_for_editor(FABRIC, catalog)  # 44 devices: fit zoom shows the devices
    assert len(loaded.fabric.devices) == 44 and loaded.scene.overview is None


def test_the_device_index_is_built_after_the_first_frame_before_the_items(window, qtbot):  # noqa: ANN001
    qtbot.waitUntil(lambda: not window.topology.building(), timeout=30000)
    with qtbot.waitSignal(window.opened, timeout=60000):
        assert window.open_in_background(FABRIC, ask=False)
    doc = window.document.fabric
    assert doc._ends is None  # not before the first frame
    with qtbot.waitSignal(window.topology.built, timeout=30000):
        pass
    assert doc._ends == links_by_device(doc)
