"""Fit to View shows everything the canvas draws at the fitted zoom whole, with a margin: the
devices and bands of a small design, and far out the overview's blocks with their titles (a
title is a line of text high whatever the zoom: on the thin last row of a big design fitted
whole it reaches past the row).

The 1.2M-cable design of `benchmarks/big_outputs.py` (`planes2`) fitted in a 1440 x 900 window
kept 13 px of the viewport under its last, partial run of pods' title ("Pods 49", on a plate
over a row 4 px high) and 17 px above its top: the margin was 3 % of the design's height, less
than a line of text.  These tests measure what a frame draws (where the overview's painting
put its blocks, titles and plates, on the viewport) against the viewport.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MARGIN_PX = 20.0
"""The least room left between anything drawn and the viewport's edges (fit aims at 24)."""
SIZES = [(1440, 900), (1600, 1000)]


@pytest.fixture
def drawn(monkeypatch):  # noqa: ANN001, ANN201
    """drawn(view) -> where one frame of `view` puts the overview's blocks (`blocks`, and by
    block title `by_block`), titles (and their contents lines) and title plates, on the
    viewport, and the titles of the blocks named (`named`); empty: the overview is not drawn."""
    from aicnet_gui.gui.canvas import overview_layer
    from aicnet_gui.gui.canvas.overview_layer import OverviewLayer

    seen: dict[str, list] = {}
    paint_blocks, paint_titles = OverviewLayer._paint_blocks, OverviewLayer._paint_titles
    paint_plate, place_titles = OverviewLayer._paint_plate, overview_layer._place_titles

    def blocks(self, painter, blocks, scale, shown):  # noqa: ANN001, ANN202
        transform = painter.worldTransform()
        seen["by_block"] = [(block.title, [transform.mapRect(rect)
                                           for rect in self.block_rects(block, scale)])
                            for block, drawn in zip(blocks, shown, strict=True) if drawn]
        seen["blocks"] = [rect for _title, rects in seen["by_block"] for rect in rects]
        return paint_blocks(self, painter, blocks, scale, shown)

    def place(painter, labels, halve):  # noqa: ANN001, ANN202
        placed, crowded = place_titles(painter, labels, halve)
        seen["named"] = [label.block.title for label, *_rest in placed]  # the last round's
        return placed, crowded

    def titles(self, painter, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen["titles"] = list(paint_titles(self, painter, *args, **kwargs))
        return seen["titles"]

    def plate(painter, rect):  # noqa: ANN001, ANN202
        seen.setdefault("plates", []).append(painter.worldTransform().mapRect(rect))
        return paint_plate(painter, rect)

    monkeypatch.setattr(OverviewLayer, "_paint_blocks", blocks)
    monkeypatch.setattr(OverviewLayer, "_paint_titles", titles)
    monkeypatch.setattr(OverviewLayer, "_paint_plate", staticmethod(plate))
    monkeypatch.setattr(overview_layer, "_place_titles", place)

    def frame(view) -> dict[str, list[QRectF]]:  # noqa: ANN001
        seen.clear()
        view.viewport().grab()
        return dict(seen)

    return frame


def outside(view, rects: list[QRectF], margin: float = MARGIN_PX) -> list[QRectF]:  # noqa: ANN001
    """The rectangles (viewport pixels) that come nearer than `margin` to the viewport's edge
    (an empty one draws nothing: a contents line with no room)."""
    room = view.viewport().rect()
    return [r for r in rects if not r.isEmpty() and not (
        r.left() >= margin and r.top() >= margin and r.right() <= room.width() - margin
        and r.bottom() <= room.height() - margin)]


def on_screen(view, rect: QRectF) -> QRectF:  # noqa: ANN001
    return view.viewportTransform().mapRect(rect)


def fitted(make_window, qtbot, path: Path, size: tuple[int, int]):  # noqa: ANN001, ANN201
    """A window of `size` with `path` open and fitted, as `aicnet-gui --screenshot` shows it."""
    window = make_window(show=False)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_path(path, ask=False)
    QApplication.processEvents()  # the docks take the new document's size hints
    window.fit_to_view()
    view = window.topology_view
    return window.topology, view


def _generated(folder: Path, **params: object) -> Path:
    """A rail-optimized design saved in `folder`: 64 DGX B300 on SN5610 an SU unless `params`
    say otherwise."""
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.fileio import save_fabric
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(builtin_catalog())
    chosen: dict[str, object] = {"server": "nvidia-dgx-b300", "leaf": "nvidia-sn5610",
                                 "nodes_per_su": 64, "choose_media": False}
    generate(doc, RailOptimizedParams(**{**chosen, **params}))
    path = folder / "design.fabric"
    save_fabric(doc, path)
    return path


@pytest.fixture(scope="module")
def tall_design(tmp_path_factory) -> Path:
    """26 SUs of two-plane DGX B300 on SN5610, two SUs a pod (2,752 devices, 79,872 cables):
    the planes2 design's building blocks, about as tall as wide in a window, with a partial
    last row of SUs at the bottom."""
    return _generated(tmp_path_factory.mktemp("tall"), sus=26, planes=2, sus_per_pod=2)


@pytest.fixture(scope="module")
def pods_design(tmp_path_factory) -> Path:
    """98 SUs of DGX B300 on SN5610, two SUs a pod (10,432 devices, 301,056 cables): 49 pods
    four to a row, as the planes2 design's 49 pods of eight SUs, so that far out the runs of
    16 pods leave pod 49 alone on a thin last row."""
    return _generated(tmp_path_factory.mktemp("pods"), sus=98, sus_per_pod=2)


@pytest.fixture(scope="module")
def flat_design(tmp_path_factory) -> Path:
    """400 SUs of 4 DGX H100 on QM9700, 16 SUs a pod (2,656 devices, three tiers), each leaf
    carrying its rail of 8 SUs: laid out with its leaves in bands of their own it was about
    seven times as wide as high, fitted a band a hundred pixels high in which each row of
    switches (cores, spines, leaves over the servers) was a fraction of a pixel; with each leaf
    group's leaves over its SUs it is a grid of 50 blocks about as wide as high."""
    return _generated(tmp_path_factory.mktemp("flat"), sus=400, nodes_per_su=4,
                      server="nvidia-dgx-h100", leaf="nvidia-qm9700")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["small-hgx", "superpod-4su"])
def test_a_small_example_is_fitted_whole_with_a_margin(make_window, qtbot, drawn, name, size):
    scene, view = fitted(make_window, qtbot, EXAMPLES / f"{name}.fabric", size)
    assert not scene.overview.active and not drawn(view)  # drawn as devices in tier bands
    shown = [on_screen(view, scene.content_rect())]
    shown += [on_screen(view, item.sceneBoundingRect()) for item in scene.items_by_id.values()]
    if scene.su_captions.isVisible():
        shown += [box for _title, box in scene.su_captions.caption_rects(
            view.viewportTransform(), view.viewport().rect().toRectF())]
    assert len(scene.items_by_id) == len(scene.doc.devices) > 0
    assert outside(view, shown) == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_tall_design_fitted_as_blocks_keeps_its_rows_and_titles_off_the_edges(
        make_window, qtbot, drawn, tall_design, size):
    scene, view = fitted(make_window, qtbot, tall_design, size)
    assert scene.overview.active
    frame = drawn(view)
    blocks, titles = frame["blocks"], frame["titles"]
    assert len(blocks) >= 26 and len(titles) >= 26
    assert outside(view, blocks + titles + frame.get("plates", [])) == []


def test_far_out_the_thin_last_run_of_pods_and_its_plate_are_inside_with_a_margin(
        window, drawn, pods_design, qtbot):
    """Fitted into a view a few dozen pixels per pod (as 200,000 GPUs in a window), the pods
    merge into runs; the last, partial run is one row of SUs, thinner than its title, which
    sits on a plate a line high over it: plate and row are inside the margin."""
    from aicnet_gui.gui.canvas.view import MIN_SCALE, FabricView

    assert window.open_path(pods_design, ask=False)
    scene = window.topology
    view = FabricView(scene)
    qtbot.addWidget(view)
    view.resize(400, 240)
    view.show()
    qtbot.waitExposed(view)
    view.fit_all()
    scale = view.scale_factor()
    assert scale < MIN_SCALE and scene.overview.active
    level, _bundles = scene.overview.level(scale)
    runs = [b for b in level.blocks if b.key.kind == "pods"]
    assert [b.title for b in runs] == ["Pods 1–16", "Pods 17–32", "Pods 33–48", "Pod 49"]
    last = runs[-1]
    row = on_screen(view, scene.overview.label_rect(last, scale))
    frame = drawn(view)
    plates = frame.get("plates", [])
    assert any(plate.intersects(row) and plate.height() > row.height() for plate in plates), (
        "the last run's title is not on a plate over a thin row: the test shows nothing")
    assert outside(view, frame["blocks"] + frame["titles"] + plates) == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_far_out_every_block_drawn_is_named_and_none_covers_another(
        make_window, qtbot, drawn, flat_design, size):
    """The switch tiers of the flat design, rows a pixel high grown to a line of text, covered
    each other and the top of the servers: Spines lay under Cores, Leaves over the run of pods,
    and a title never goes over another, so Spines and (at 1440 x 900) Pods 1-25 had none.
    Grown tiers stack up clear of what is under them, each its own band, every one named; the
    leaves are in the blocks of the leaf groups they belong to ("SUs 9–16")."""
    scene, view = fitted(make_window, qtbot, flat_design, size)
    assert scene.overview.active
    frame = drawn(view)
    shown = [title for title, _rects in frame["by_block"]]
    assert {"Cores", "Spines"} <= set(shown) and "Leaves" not in shown
    assert any(title.startswith(("Pods", "SUs")) for title in shown)
    assert sorted(frame["named"]) == sorted(shown)
    boxes = frame["by_block"]
    for i, (title, rects) in enumerate(boxes):
        for other, others in boxes[i + 1:]:
            assert not any(a.intersects(b) for a in rects for b in others), (
                f"{title} and {other} are drawn one over the other")
    assert outside(view, frame["blocks"] + frame["titles"] + frame.get("plates", [])) == []
