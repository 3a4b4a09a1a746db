"""The Topology canvas zoomed out: one block per SU with its counts, bundles between blocks, and
devices again when the user zooms in (issue #22)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from aicnet_gui.gui.canvas.overview_layer import OVERVIEW_SCALE


@pytest.fixture
def sixteen_su(open_generated):  # noqa: ANN001, ANN201
    """A 16-SU rail-optimized fabric (512 DGX H100, three tiers of QM9700), open and fitted."""
    from aicnet_gui.generators import RailOptimizedParams

    return open_generated(RailOptimizedParams(sus=16, nodes_per_su=32, choose_media=False))


def su_leaf(doc, su: str):  # noqa: ANN001, ANN201
    """The first leaf of scalable unit `su`."""
    return next(d for d in doc.devices.values()
                if d.tags.get("su") == su and doc.role_of(d).value == "leaf")


def test_fit_zoom_shows_one_block_per_su_with_its_devices_and_its_bundles(sixteen_su):
    window = sixteen_su
    scene, view = window.topology, window.topology_view
    scale = view.scale_factor()
    assert scale < OVERVIEW_SCALE
    assert scene.overview.active and scene.overview.isVisible()
    assert not scene.links.isVisible() and not scene.device_layer.isVisible()
    blocks = {b.title: b for b in scene.overview.blocks(scale)}
    sus = [b for b in blocks.values() if b.key.kind == "su"]
    assert sorted(b.key.value for b in sus) == sorted(str(n) for n in range(1, 17))
    assert all(b.text == "32 servers, 8 leaves" for b in sus)
    assert blocks["Spines"].counts == {"spine": 128}
    assert blocks["Cores"].counts == {"core": 64}
    level, bundles = scene.overview.level(scale)
    index = {b.title: i for i, b in enumerate(level.blocks)}
    # every leaf of SU 5 has 32 uplinks to the spines: 8 x 32
    assert bundles.between(index["SU 5"], index["Spines"]) == 256
    assert bundles.between(index["Spines"], index["Cores"]) == 4096
    assert bundles.between(index["SU 5"], index["SU 6"]) == 0  # SUs meet only at the spines
    # the cables inside an SU (server to leaf) are not bundles between blocks
    assert sum(int(c) for c in bundles.counts) == 16 * 256 + 4096
    # the block sits where its devices are
    doc = window.document.fabric
    server = next(d for d in doc.devices.values() if d.tags.get("su") == "5")
    left, top, right, bottom = blocks["SU 5"].bounds()
    assert left <= server.position[0] <= right and top <= server.position[1] <= bottom
    text = scene.tooltip_at(scene.overview.part_rect(blocks["SU 5"].label_part(), scale).center(),
                            scale)
    assert "SU 5</b>: 32 servers, 8 leaves" in text and "SU 5 → Spines: 256 cables" in text


def test_zooming_in_gives_the_canvas_back_to_the_devices_and_cables(sixteen_su, qtbot):
    window = sixteen_su
    scene, view = window.topology, window.topology_view
    painted = []
    view.painted.connect(lambda: painted.append(view.scale_factor()))
    view.set_zoom(OVERVIEW_SCALE * 2)
    qtbot.waitUntil(lambda: bool(painted))
    assert not scene.overview.active and not scene.overview.isVisible()
    assert scene.links.isVisible() and scene.device_layer.isVisible() == scene.far
    view.set_zoom(0.5)
    assert not scene.far and not scene.device_layer.isVisible()
    assert all(item.isVisible() for item in scene.items_by_id.values())
    view.fit_all()
    assert scene.overview.active


def test_the_overview_follows_edits_and_their_undo(sixteen_su):
    window = sixteen_su
    scene, view = window.topology, window.topology_view
    doc = window.document.fabric
    scale = view.scale_factor()
    leaf = su_leaf(doc, "3")
    # a move: the block grows to keep its device inside
    before = next(b for b in scene.overview.blocks(scale) if b.title == "SU 3").bounds()
    assert window.editor.move_devices({leaf.id: (before[2] + 2000, leaf.position[1])})
    after = next(b for b in scene.overview.blocks(scale) if b.title == "SU 3").bounds()
    assert after[2] >= before[2] + 2000
    # a delete: the block and the bundle lose the leaf and its 32 uplinks
    window.editor.delete([leaf.id], [])
    level, bundles = scene.overview.level(scale)
    index = {b.title: i for i, b in enumerate(level.blocks)}
    assert level.blocks[index["SU 3"]].text == "32 servers, 7 leaves"
    assert bundles.between(index["SU 3"], index["Spines"]) == 7 * 32
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    level, bundles = scene.overview.level(scale)
    index = {b.title: i for i, b in enumerate(level.blocks)}
    assert level.blocks[index["SU 3"]].text == "32 servers, 8 leaves"
    assert bundles.between(index["SU 3"], index["Spines"]) == 256
    assert level.blocks[index["SU 3"]].bounds() == before


def test_a_small_design_is_never_drawn_as_blocks(window, example_path):
    assert window.open_path(example_path, ask=False)
    scene, view = window.topology, window.topology_view
    view.set_zoom(0.02)
    assert len(window.document.fabric.devices) < 100
    assert not scene.overview.active and scene.links.isVisible()


def test_further_out_sus_merge_into_their_pods(sixteen_su):
    scene, view = sixteen_su.topology, sixteen_su.topology_view
    view.set_zoom(0.01)  # an SU box is ~30 px wide: too small for its text
    level, bundles = scene.overview.level(view.scale_factor())
    titles = {b.title: b for b in level.blocks}
    assert sorted(t for t in titles if t.startswith("Pod")) == ["Pod 1", "Pod 2", "Pod 3", "Pod 4"]
    assert titles["Pod 2"].text == "128 servers, 32 leaves"
    index = {b.title: i for i, b in enumerate(level.blocks)}
    assert bundles.between(index["Pod 2"], index["Spines"]) == 4 * 256
    assert bundles.between(index["Spines"], index["Cores"]) == 4096


def test_a_double_click_on_a_block_zooms_into_its_devices(sixteen_su, qtbot):
    from PySide6.QtCore import Qt

    scene, view = sixteen_su.topology, sixteen_su.topology_view
    block = next(b for b in scene.overview.blocks(view.scale_factor()) if b.title == "SU 6")
    centre = scene.overview.part_rect(block.label_part(), view.scale_factor()).center()
    with qtbot.waitSignal(view.zoom_changed):
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton,
                          pos=view.mapFromScene(centre))
    assert not scene.overview.active and scene.links.isVisible()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    doc = sixteen_su.document.fabric
    su6 = [d for d in doc.devices.values() if d.tags.get("su") == "6"]
    assert all(shown.contains(*d.position) for d in su6)


def _picture(scene, scale: float) -> tuple:  # noqa: ANN001
    """Everything the overview draws at `scale`: blocks (title, text, parts) and bundles."""
    level, bundles = scene.overview.level(scale)
    return ([(b.title, b.text, b.parts) for b in level.blocks],
            bundles.a.tolist(), bundles.b.tolist(), bundles.counts.tolist())


def test_a_background_open_draws_the_blocks_its_loader_counted_the_same_as_counted_here(
        window, qtbot, tmp_path):  # noqa: ANN001
    from aicnet_gui.fileio import save_fabric
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(window.document.fabric.catalog)
    generate(doc, RailOptimizedParams(sus=16, nodes_per_su=32, choose_media=False))
    path = tmp_path / "ro16.fabric"
    save_fabric(doc, path)
    with qtbot.waitSignal(window.opened, timeout=60000):
        assert window.open_in_background(path, ask=False)
    scene = window.topology
    # the loader's blocks and bundles were taken: nothing is left to count when painting
    assert not scene.overview._devices_dirty and not scene.overview._links_dirty
    scales = (window.topology_view.scale_factor(), 0.01)
    prepared = [_picture(scene, s) for s in scales]
    scene.overview.reset()  # forget them: the layer counts again from its own columns
    counted_in_paint = [_picture(scene, s) for s in scales]
    assert prepared == counted_in_paint
    assert prepared[0] != prepared[1]  # the fine and the coarse level were both compared
    # edits after an open are followed as before (the loader's blocks again): a move, a delete
    leaf = next(d for d in window.document.fabric.devices.values()
                if d.tags.get("su") == "3" and d.name.startswith("leaf"))
    with qtbot.waitSignal(window.opened, timeout=60000):
        assert window.open_in_background(path, ask=False)
    leaf = window.document.fabric.devices[leaf.id]
    su3 = next(b for b in scene.overview.blocks(scales[0]) if b.title == "SU 3").bounds()
    assert window.editor.move_devices({leaf.id: (su3[2] + 2000, leaf.position[1])})
    moved = next(b for b in scene.overview.blocks(scales[0]) if b.title == "SU 3").bounds()
    assert moved[2] >= su3[2] + 2000
    window.editor.delete([leaf.id], [])
    level, _bundles = scene.overview.level(scales[0])
    assert next(b for b in level.blocks if b.title == "SU 3").text == "32 servers, 7 leaves"


def _screen_box(view, rect):  # noqa: ANN001, ANN202
    """A scene rectangle on the viewport, in pixels."""
    return view.mapFromScene(rect).boundingRect().toRectF()


def test_a_trunk_to_a_lower_su_passes_behind_the_sus_above_it(sixteen_su, monkeypatch):
    from aicnet_gui.gui.canvas.overview_layer import OverviewLayer

    # only blocks and bundle lines: what is under a title is what the title is drawn over
    monkeypatch.setattr(OverviewLayer, "_paint_titles", lambda *args, **kwargs: [])
    monkeypatch.setattr(OverviewLayer, "_paint_counts", lambda *args, **kwargs: None)
    scene, view = sixteen_su.topology, sixteen_su.topology_view
    scale = view.scale_factor()
    blocks = {b.title: b for b in scene.overview.level(scale)[0].blocks}
    low, above = (_screen_box(view, scene.overview.label_rect(blocks[t], scale))
                  for t in ("SU 14", "SU 6"))
    # one column under the spines: the trunk to SU 14 runs straight down through SU 6
    assert abs(low.center().x() - above.center().x()) < 2
    scene.overview.update()
    image = view.viewport().grab().toImage()
    x, y = round(low.center().x()), round(above.center().y())
    on_trunk, beside = image.pixelColor(x, y), image.pixelColor(x - 12, y)
    assert on_trunk == beside, "the SU 14 trunk is drawn over SU 6 instead of behind it"


def test_a_title_wider_than_its_thin_row_is_drawn_on_a_plate(sixteen_su):
    scene, view = sixteen_su.topology, sixteen_su.topology_view
    view.set_zoom(0.01)  # pods: one row of SUs each, a few pixels high
    scale = view.scale_factor()
    pod = next(b for b in scene.overview.level(scale)[0].blocks if b.title == "Pod 2")
    box = _screen_box(view, scene.overview.label_rect(pod, scale))
    assert box.height() < 8  # thinner than a line of text
    scene.overview.update()
    image = view.viewport().grab().toImage()
    fill = image.pixelColor(round(box.right()) - 3, round(box.center().y()))
    under_title = image.pixelColor(round(box.left()) + 3, round(box.center().y()))
    assert fill.green() > fill.red() + 40  # the row itself: a server block's green
    assert min(under_title.red(), under_title.green(), under_title.blue()) > 235, (
        "the title is drawn straight on the row, not on a light plate")


def test_collapsed_group_boxes_give_way_to_the_blocks_far_out_and_come_back_closer(sixteen_su):
    scene, view = sixteen_su.topology, sixteen_su.topology_view
    assert sixteen_su.collapse_all("su") == 16
    assert scene.overview.active  # fitted: the design is drawn as blocks
    assert "zoom in to see the boxes" in sixteen_su.message_label.text()
    boxes = list(scene.collapsed.values())
    # no 16 specks over the SU blocks, catching the clicks meant for them
    assert not any(box.isVisible() for box in boxes)
    block = next(b for b in scene.overview.blocks(view.scale_factor()) if b.title == "SU 6")
    centre = scene.overview.part_rect(block.label_part(), view.scale_factor()).center()
    assert not any(isinstance(item, type(boxes[0])) for item in scene.items(centre))
    view.set_zoom(0.2)
    assert not scene.overview.active
    assert all(box.isVisible() for box in boxes)  # still collapsed: the boxes are back


def test_a_bundle_count_never_sits_on_a_blocks_contents_line(open_generated, monkeypatch):
    """16 SUs of two-plane DGX B300 on SN5600 lay out as a 4 x 4 grid of SU blocks: the trunks
    to the lower rows cross the upper blocks, and their counts (`512`) were drawn over the
    second line of those blocks ("64 servers, 8 leaves · 512 out").  The counts keep off every
    place a title or a contents line went."""
    from aicnet_gui.generators import RailOptimizedParams
    from aicnet_gui.gui.canvas.overview_layer import OverviewLayer

    window = open_generated(RailOptimizedParams(
        sus=16, server="nvidia-dgx-b300", leaf="nvidia-sn5600", planes=2, choose_media=False))
    seen: dict[str, list] = {}
    paint_titles = OverviewLayer._paint_titles

    def titles(self, painter, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen["text"] = paint_titles(self, painter, *args, **kwargs)
        seen["line"] = [painter.fontMetrics().height()]
        return seen["text"]

    monkeypatch.setattr(OverviewLayer, "_paint_titles", titles)
    scene, view = window.topology, window.topology_view
    scale = view.scale_factor()
    assert scene.overview.active
    view.viewport().grab()  # paints the overview
    two_line = [box for b in scene.overview.level(scale)[0].blocks if b.key.kind == "su"
                if (box := _screen_box(view, scene.overview.label_rect(b, scale))).height()
                >= 3 * seen["line"][0]]
    assert two_line, "no SU block is tall enough for its contents line: the test shows nothing"
    for box in two_line:  # its contents line, not only the title word, is kept free
        lower = box.adjusted(0, seen["line"][0] + 2, 0, 0)
        kept = [r for r in seen["text"] if r.intersects(lower)]
        assert kept and max(r.right() for r in kept) >= box.center().x()


def test_closer_in_each_su_is_captioned_above_its_leaves(open_generated):
    """Two SUs of DGX B300 on Q3400-RA drawn as devices: two LEAF / SERVERS band pairs, and
    `SU 1`, `SU 2` written in the gap above each one's leaves (the overview's titles are gone
    at this zoom); far out the overview's own titles take over."""
    from aicnet_gui.generators import RailOptimizedParams

    window = open_generated(RailOptimizedParams(sus=2, server="nvidia-dgx-b300",
                                                leaf="nvidia-q3400-ra", choose_media=False))
    scene, view = window.topology, window.topology_view
    assert not scene.overview.active and scene.su_captions.isVisible()
    placed = scene.su_captions.caption_rects(view.viewportTransform(),
                                             view.viewport().rect().toRectF())
    assert [title for title, _box in placed] == ["SU 1", "SU 2"]
    for (title, box), (_same, su) in zip(placed, scene.su_captions.blocks(), strict=True):
        leaves_top = _screen_box(view, su).top()
        assert box.bottom() <= leaves_top, f"{title} is written over its devices"
    view.set_zoom(0.02)  # far out: the overview's blocks carry the titles
    assert scene.overview.active and not scene.su_captions.isVisible()


def test_a_single_su_gets_no_caption_and_four_get_four(window):
    from pathlib import Path

    examples = Path(__file__).resolve().parents[2] / "examples"
    assert window.open_path(examples / "superpod-1su.fabric", ask=False)
    assert window.topology.su_captions.blocks() == []
    assert window.open_path(examples / "superpod-4su.fabric", ask=False)
    assert [t for t, _ in window.topology.su_captions.blocks()] == ["SU 1", "SU 2", "SU 3", "SU 4"]


def test_titles_of_thin_stacked_rows_share_each_row_left_and_right(qapp):  # noqa: ANN001
    """100 pods fitted as 10-px rows: a title is taller than its row, so whole-row titles named
    every other pod only; stacked that tightly they take half a row each, left or right,
    whichever is free, and every pod is named.  Rows a line apart keep whole-row titles."""
    from types import SimpleNamespace

    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from aicnet_gui.gui import theme
    from aicnet_gui.gui.canvas.overview_layer import _Label, _place_titles

    image = QImage(400, 1200, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        painter.setFont(theme.font(9.0, True))
        line = painter.fontMetrics().height()

        def rows(pitch: float) -> list:
            return [_Label(SimpleNamespace(title=f"Pod {n}"), "256 servers", 0,
                           QRectF(10, 10 + n * pitch, 300, pitch - 1), line) for n in range(1, 41)]

        thin = rows(line * 0.7)
        whole, crowded = _place_titles(painter, thin, halve=False)
        assert crowded and len(whole) < 30  # every other one, about
        halves, _ = _place_titles(painter, thin, halve=True)
        assert [label.block.title for label, *_ in halves] == [f"Pod {n}" for n in range(1, 41)]
        spots = [spot for _label, _text, spot, _side in halves]
        assert not any(a.intersects(b) for i, a in enumerate(spots) for b in spots[i + 1:])
        assert {side for *_, side in halves} == {Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight}
        roomy, crowded = _place_titles(painter, rows(line * 1.5), halve=False)
        assert not crowded and len(roomy) == 40
        assert all(text == f"{label.block.title}: 256 servers" for label, text, *_ in roomy)
    finally:
        painter.end()


def test_a_design_too_big_for_the_least_zoom_fits_whole_with_its_pods_in_runs(sixteen_su, qtbot):
    """Issue 38: far out (a design of 200,000 GPUs fitted in a window, here 512 servers in a
    view a few dozen pixels high) fit shows the whole design below the usual least zoom, pods
    merge into runs (one band per run, titled with its pods) and the wheel zooms out no
    further than the fit; the usual least zoom shows the pods as before."""
    from aicnet_gui.gui.canvas.view import MIN_SCALE, FabricView

    scene = sixteen_su.topology
    view = FabricView(scene)
    qtbot.addWidget(view)
    view.resize(130, 90)
    view.show()
    qtbot.waitExposed(view)
    view.fit_all()
    scale = view.scale_factor()
    assert scale < MIN_SCALE
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.contains(scene.content_rect())
    assert scene.overview.active
    level, bundles = scene.overview.level(scale)
    runs = [b for b in level.blocks if b.key.kind == "pods"]
    assert runs and all(b.title.startswith("Pods ") for b in runs)
    assert sum(b.counts["gpu_server"] for b in runs) == 512
    index = {b.title: i for i, b in enumerate(level.blocks)}
    assert sum(bundles.between(index[b.title], index["Spines"]) for b in runs) == 16 * 256
    view.zoom_by(0.5)  # already at the fit: no further out
    assert view.scale_factor() == pytest.approx(scale)
    view.set_zoom(MIN_SCALE)
    titles = [b.title for b in scene.overview.level(view.scale_factor())[0].blocks]
    assert sorted(t for t in titles if t.startswith("Pod")) == ["Pod 1", "Pod 2", "Pod 3", "Pod 4"]


def test_a_cable_edit_that_moves_no_end_keeps_the_bundles_and_a_removal_recounts(sixteen_su):
    """Issue 38: at 1.2M cables a recount of the bundles is ~60 ms; a cable's length or part
    leaves every bundle as it is, a cable removed (or put back) is counted at once."""
    window = sixteen_su
    doc = window.document.fabric
    scale = window.topology_view.scale_factor()
    scene, leaf = window.topology, su_leaf(doc, "3")
    uplink = next(i for i in sorted(doc.link_ids_of(leaf.id))
                  if doc.role_of(doc.devices[doc.links[i].b.device]).value == "spine"
                  or doc.role_of(doc.devices[doc.links[i].a.device]).value == "spine")
    level, bundles = scene.overview.level(scale)
    assert window.editor.update_links([uplink], {"length_m": 12.0}, "Set the length")
    assert scene.overview.level(scale)[1] is bundles
    index = {b.title: i for i, b in enumerate(level.blocks)}
    window.editor.delete([], [uplink])
    level, bundles = scene.overview.level(scale)
    assert bundles.between(index["SU 3"], index["Spines"]) == 255
    window.document.undo_stack.undo()
    level, bundles = scene.overview.level(scale)
    assert bundles.between(index["SU 3"], index["Spines"]) == 256
