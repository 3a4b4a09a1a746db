"""The Floor view: the empty hint beside the tray, an 8U preview 8U tall, run labels off the
devices, "8/48 U" inside the frame, one RU said as one RU (issue 16); far out, rack names, one
layer drawing the racks and devices, the selection shown, a big hall's items made in slices
(issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from aicnet_gui.gui import theme
from aicnet_gui.gui.canvas.floor_scene import RACK_W, RU_PX

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _floor(window):  # noqa: ANN001, ANN202
    window.tabs.setCurrentIndex(1)
    window.floor_view.fit_all()
    return window.floor, window.floor_view


def test_the_empty_floor_hint_is_not_written_over_the_tray(window):
    window.editor.add_device("nvidia-dgx-h100")
    window.editor.add_device("nvidia-qm9700")
    scene, view = _floor(window)
    assert scene.empty_hint()
    tray = QRectF(view.mapFromScene(scene.tray.boundingRect()).boundingRect())
    hint = view.hint_rect()
    assert hint.width() > 200 and hint.height() > 60  # room for the two lines
    assert not hint.intersects(tray)


def _drag(view, start: QPointF, end: QPointF) -> None:  # noqa: ANN001
    viewport = view.viewport()
    p0, p1 = view.mapFromScene(start), view.mapFromScene(end)
    press = QMouseEvent(QEvent.Type.MouseButtonPress, QPointF(p0), QPointF(viewport.mapToGlobal(p0)),
                        Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(viewport, press)
    for k in range(1, 9):
        p = QPointF(p0) + (QPointF(p1) - QPointF(p0)) * (k / 8)
        move = QMouseEvent(QEvent.Type.MouseMove, p, QPointF(viewport.mapToGlobal(p.toPoint())),
                           Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(viewport, move)


def test_dragging_an_8u_server_out_of_the_tray_previews_8u(window):
    server = window.editor.add_device("nvidia-dgx-h100")
    window.editor.add_rack()
    scene, view = _floor(window)
    item = scene.items_by_id[server]
    assert item.in_tray and item.sceneBoundingRect().height() < 4 * RU_PX  # a chip in the tray
    rack = next(iter(scene.racks_by_id.values()))
    scene.clearSelection()
    item.setSelected(True)
    _drag(view, item.sceneBoundingRect().center(), rack.sceneBoundingRect().center())
    assert scene.indicator.isVisible()
    slot = scene.indicator.boundingRect().adjusted(4, 4, -600, -40)
    assert round(slot.height() / RU_PX) == 8  # the slots it would take
    assert abs(item.boundingRect().adjusted(3, 3, -3, -3).height() - 8 * RU_PX) < 1  # the preview


def test_run_labels_do_not_cover_devices(window):
    assert window.open_path(EXAMPLES / "small-hgx.fabric", ask=False)
    scene, view = _floor(window)
    doc = window.document.fabric
    for name in ("gpu-001", "leaf-01"):
        device = next(d for d in doc.devices.values() if d.name == name)
        scene.select_ids([device.id])
        for zoom in (0.5, 0.75, 1.0):
            view.set_zoom(zoom)
            transform = view.viewportTransform()
            labels = scene.routes.label_rects(transform)
            assert labels
            boxes = [transform.mapRect(i.sceneBoundingRect()) for i in scene.items_by_id.values()]
            for label, text in labels:
                assert not any(label.intersects(box) for box in boxes), (name, zoom, text)
        # the runs pass beside the racks' "16/48 U", not over it
        headers = [rack.mapRectToScene(rack.used_rect()) for rack in scene.racks_by_id.values()]
        for points, _colour in scene.routes.routes():
            for p, q in zip(points, points[1:], strict=False):
                segment = QRectF(p, q).normalized().adjusted(-0.5, -0.5, 0.5, 0.5)
                assert not any(segment.intersects(header) for header in headers), name


def test_the_used_units_keep_clear_of_the_rack_edge(window):
    assert window.open_path(EXAMPLES / "small-hgx.fabric", ask=False)
    scene, _view = _floor(window)
    racks = list(scene.racks_by_id.values())
    assert "16/48 U" in [rack.used_text() for rack in racks]
    for rack in racks:
        assert rack.used_rect().right() <= RACK_W - 8


def test_an_overlap_of_one_rack_unit_says_one_rack_unit(window):
    rack = window.editor.add_rack()
    leaf = window.editor.add_device("nvidia-qm9700", rack=rack, ru=44)
    problem = window.editor.rack_problem("new", "nvidia-qm9700", rack, 44)
    assert leaf and problem is not None
    assert "RU 44 of" in problem and "(RU 44)" in problem and "44-44" not in problem
    problem = window.editor.rack_problem("new", "nvidia-dgx-h100", rack, 40)
    assert "RU 40-47" in problem


def test_run_labels_never_cover_each_other_at_any_zoom(window):
    """A DGX of the 1-SU SuperPOD has runs to the leaf rack with several lengths: their labels
    stack instead of being drawn over each other, zoomed in or far out (they keep their pixel
    size, so the stacking is in pixels)."""
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    scene, view = _floor(window)
    device = window.document.fabric.device_by_name("gpu-004")
    scene.select_ids([device.id])
    for zoom in (0.25, 0.33, 0.5, 1.0):
        view.set_zoom(zoom)
        labels = [box for box, _text in scene.routes.label_rects(view.viewportTransform())]
        assert len(labels) >= 2
        for i, box in enumerate(labels):
            assert not any(box.intersects(other) for other in labels[i + 1:]), zoom


def _rack_plates(scene, view) -> list[tuple[str, QRectF, bool]]:  # noqa: ANN001
    return scene.rack_names.placements(view.viewportTransform())


def test_every_rack_is_named_on_the_fitted_floor(window):
    """Fitted, the 4-SU SuperPOD's 37 racks are ~25 px wide, too small for their 9 pt headers:
    each rack's name is still written, upright along its body, inside the view, the plates
    apart; from 60 % the racks write their names themselves and these go."""
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    scene, view = _floor(window)
    assert view.transform().m11() < 0.22  # fitted far out: the headers carry no text
    plates = _rack_plates(scene, view)
    racks = window.document.fabric.racks
    assert sorted(name for name, _box, _up in plates) == sorted(r.name for r in racks.values())
    viewport = QRectF(view.viewport().rect())
    for i, (name, box, upright) in enumerate(plates):
        assert upright, name
        assert viewport.contains(box), name
        assert not any(box.intersects(other) for _n, other, _u in plates[i + 1:]), name
    view.set_zoom(0.5)  # a 9 pt header is 4.5 px here: the names are still written, across the top
    plates = _rack_plates(scene, view)
    assert plates and not any(upright for _n, _b, upright in plates)
    view.set_zoom(0.7)
    assert _rack_plates(scene, view) == []


def test_the_one_su_floor_fitted_at_a_third_names_its_racks_readably(window):
    """The 1-SU SuperPOD's 10 racks fit at a third or so, where the racks' own 9 pt names were
    3 px high: each name is written at 8 pt in device pixels, inside the view."""
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    scene, view = _floor(window)
    assert 0.22 <= view.transform().m11() < 0.6
    plates = _rack_plates(scene, view)
    racks = window.document.fabric.racks.values()
    assert sorted(n for n, _b, _u in plates) == sorted(r.name for r in racks)
    viewport = QRectF(view.viewport().rect())
    assert all(viewport.contains(box) for _n, box, _u in plates)


def test_a_renamed_rack_is_named_anew_on_the_fitted_floor(window):
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    scene, view = _floor(window)
    rack_id, rack = next(iter(window.document.fabric.racks.items()))
    assert window.editor.update_racks([rack_id], {"name": "HALL-A-R07"}, "Rename rack")
    view.set_zoom(0.15)
    names = [name for name, _box, _up in _rack_plates(scene, view)]
    assert "HALL-A-R07" in names and rack.name not in names


def _no_contents(item) -> bool:  # noqa: ANN001
    return bool(item.flags() & item.GraphicsItemFlag.ItemHasNoContents)


def test_far_out_one_layer_draws_the_racks_and_devices(window):
    """Fitted, the racks and racked devices stop painting themselves (a 100,000-GPU hall is
    20,000 items) and the far layer draws them, in the devices' role colours; a selected device
    draws itself again (its halo, its drag) and the layer leaves it out; zoomed in, the items
    paint again."""
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    scene, view = _floor(window)
    assert scene.far and scene.far_layer.isVisible()
    racked = {i for i, item in scene.items_by_id.items() if not item.in_tray}
    assert racked and all(_no_contents(scene.items_by_id[i]) for i in racked)
    assert all(_no_contents(item) for item in scene.racks_by_id.values())
    assert scene.far_layer.drawn() == (set(scene.racks_by_id), racked)
    server = next(d for d in window.document.fabric.devices.values()
                  if window.document.fabric.role_of(d).value == "gpu_server")
    item = scene.items_by_id[server.id]
    image = view.grab().toImage()
    centre = view.mapFromScene(item.slots().center())
    drawn = image.pixelColor(centre)
    assert drawn != view.backgroundBrush().color() and drawn.green() > drawn.red()  # a server's tint
    scene.select_ids([server.id])
    assert not _no_contents(item)
    assert server.id not in scene.far_layer.drawn()[1]
    # the selection shows far out: the slots filled with the selection colour, over the name
    assert scene.rack_names.zValue() < item.zValue()
    assert view.grab().toImage().pixelColor(centre) == theme.SELECTION
    scene.select_ids([])
    assert _no_contents(item)
    view.set_zoom(0.5)
    assert not scene.far and not scene.far_layer.isVisible()
    assert not any(_no_contents(scene.items_by_id[i]) for i in racked)


def test_short_rack_names_across_the_top_stay_inside_what_is_repainted(window):
    """A name short enough to sit across a rack's top takes a plate above it, ~17 px high at
    any scale: the names' item covers it at every far-out scale, so a pan or an edit repaints it
    whole (a top-row plate outside the item was left half drawn)."""
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    scene, view = _floor(window)
    racks = window.document.fabric.racks
    for k, rack_id in enumerate(list(racks)):
        assert window.editor.update_racks([rack_id], {"name": f"R{k}"}, "Rename rack")
    for zoom in (0.18, 0.21):
        view.set_zoom(zoom)
        plates = _rack_plates(scene, view)
        assert plates and not any(upright for _n, _b, upright in plates), zoom
        covered = scene.rack_names.sceneBoundingRect()
        inverse, _ok = view.viewportTransform().inverted()
        for name, box, _up in plates:
            assert covered.contains(inverse.mapRect(box)), (zoom, name)
            # a repaint of only the plate's top strip draws it
            strip = inverse.mapRect(QRectF(box.left(), box.top(), box.width(), 3))
            drawn = scene.rack_names.placements(view.viewportTransform(), strip)
            assert name in [n for n, _b, _u in drawn], (zoom, name)


def test_a_device_moved_far_out_is_drawn_at_its_new_slots(window):
    """Far out, an edit of a few devices moves their rectangles in the far layer (no rebuild of
    every rack and device); one put in the tray is no longer drawn by the layer."""
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    scene, view = _floor(window)
    view.set_zoom(0.15)
    assert scene.far
    doc = window.document.fabric
    device = next(d for d in doc.devices.values() if d.rack in doc.racks and d.ru is not None)
    item = scene.items_by_id[device.id]
    before = QRectF(item.slots())
    assert scene.far_layer.device_rect(device.id) == before
    rack = doc.racks[device.rack]
    height = doc.device_model(device).height_ru
    used = {ru for d in doc.devices.values() if d.rack == rack.id and d.ru is not None
            for ru in range(d.ru, d.ru + doc.device_model(d).height_ru)}
    free = next(ru for ru in range(1, rack.height_ru - height + 2)
                if not used & set(range(ru, ru + height)))
    assert window.editor.place_devices({device.id: (rack.id, free)})
    assert item.slots() != before
    assert scene.far_layer.device_rect(device.id) == item.slots()
    assert window.editor.place_devices({device.id: (None, None)})
    assert item.in_tray and scene.far_layer.device_rect(device.id) is None
    assert not (item.flags() & item.GraphicsItemFlag.ItemHasNoContents)  # the tray draws it
    window.document.undo_stack.undo()
    assert scene.far_layer.device_rect(device.id) == item.slots()


def test_a_selected_rack_is_outlined_far_out(window):
    """Far out a selected rack draws itself with a 4-pixel outline in the selection colour (its
    6-unit halo was under a pixel at 15 %)."""
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    scene, view = _floor(window)
    assert scene.far
    rack_id, item = next(iter(scene.racks_by_id.items()))
    left_edge = view.mapFromScene(item.frame().topLeft() + QPointF(0, item.frame().height() / 2))
    scene.select_ids([], [rack_id])
    image = view.grab().toImage()
    assert image.pixelColor(left_edge) == theme.SELECTION


@pytest.fixture
def small_slices(monkeypatch):
    """The 4-SU SuperPOD (176 devices) built as a big hall is: racked device items in slices."""
    from aicnet_gui.gui.canvas import floor_mirror, floor_scene

    monkeypatch.setattr(floor_scene, "LAZY_FLOOR_DEVICES", 50)
    monkeypatch.setattr(floor_mirror, "ITEM_SLICE", 40)


def _open_big_hall(window):  # noqa: ANN001, ANN202
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    scene, view = _floor(window)
    doc = window.document.fabric
    racked = [d for d in doc.devices.values() if d.rack in doc.racks and d.ru is not None]
    return scene, view, doc, racked


def test_a_big_hall_is_drawn_first_and_gets_its_device_items_in_slices(window, qtbot, small_slices):
    """The first showing of a big hall draws every racked device from the model at once (the
    far layer) and makes their items a slice per turn of the event loop; each item ends in the
    slots the layer drew."""
    scene, view, doc, racked = _open_big_hall(window)
    assert scene.building and scene.far
    pending = [d for d in racked if d.id not in scene._items]
    assert len(pending) > 40  # more than one slice left after the first frame
    device = pending[-1]
    expected = scene.device_slot_rect(doc.racks[device.rack], device.ru,
                                      doc.device_model(device).height_ru)
    assert scene.far_layer.device_rect(device.id) == expected
    qtbot.waitUntil(lambda: not scene.building, timeout=5000)
    items = scene.items_by_id
    assert {d.id for d in racked} <= set(items)
    for d in racked:
        assert items[d.id].slots() == scene.far_layer.device_rect(d.id), d.name
        assert _no_contents(items[d.id])  # far out: drawn by the layer


def test_an_edit_or_a_click_during_the_slices_gets_every_item_first(window, small_slices):
    scene, view, doc, racked = _open_big_hall(window)
    assert scene.building
    device = next(d for d in racked if d.id not in scene._items)
    assert window.editor.place_devices({device.id: (None, None)})  # into the tray
    assert not scene.building
    item = scene.items_by_id[device.id]
    assert item.in_tray and scene.far_layer.device_rect(device.id) is None
    scene, view, doc, racked = _open_big_hall(window)  # a new document: new slices
    assert scene.building
    rack = doc.racks[racked[0].rack]
    assert scene.hit_at(scene.rack_origin(rack) + QPointF(RACK_W / 2, 40)) is not None
    assert not scene.building


def test_zoomed_in_during_the_slices_the_devices_in_view_get_their_items_first(window, small_slices):
    """Close in the far layer is hidden: a frame makes the items of the waiting devices it
    shows before it paints them, the rest keep waiting for their slices."""
    scene, view, doc, racked = _open_big_hall(window)
    assert scene.building
    device = next(d for d in reversed(racked) if d.id not in scene._items)
    slots = scene.device_slot_rect(doc.racks[device.rack], device.ru,
                                   doc.device_model(device).height_ru)
    view.set_zoom(1.0)
    view.centerOn(slots.center())
    view.viewport().repaint()
    assert device.id in scene._items and scene._items[device.id].slots() == slots
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert all(not scene.device_slot_rect(doc.racks[d.rack], d.ru, doc.device_model(d).height_ru)
               .intersects(visible) for d in racked if d.id not in scene._items)
    image = view.grab().toImage()
    assert image.pixelColor(view.mapFromScene(slots.center())) != image.pixelColor(
        view.mapFromScene(scene.rack_origin(doc.racks[device.rack]) + QPointF(RACK_W / 2, 33)))


def test_a_selection_carried_from_the_topology_keeps_the_slices(window, small_slices):
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    doc = window.document.fabric
    server = next(d for d in doc.devices.values() if d.rack in doc.racks and d.ru is not None
                  and doc.role_of(d).value == "gpu_server")
    window.topology.select_ids([server.id], [])
    window.tabs.setCurrentIndex(1)
    scene = window.floor
    assert scene.building  # only the selected device's item was made at once
    assert scene.selected_device_ids() == [server.id]


def test_a_rack_name_gives_way_to_a_run_length_label(window):
    """A selected server's runs are labelled above the racks, where the names across the racks'
    tops are written: a name under a label is left out, the others stay."""
    assert window.open_path(EXAMPLES / "superpod-1su.fabric", ask=False)
    scene, view = _floor(window)
    view.set_zoom(0.35)
    device = window.document.fabric.device_by_name("gpu-004")
    before = scene.rack_names.shown(view.viewportTransform())
    scene.select_ids([device.id])
    labels = [box for box, _t in scene.routes.label_rects(view.viewportTransform())]
    after = scene.rack_names.shown(view.viewportTransform())
    assert labels and len(before) > len(after) > 0
    assert not any(box.intersects(label) for _n, box, _u in after for label in labels)
