"""Issue 16, the canvas: the legend never covers content and follows undo, bundles wear what the
legend says, a dropped device lands in its tier's band, fit shows the whole design."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, QRect, Qt

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_legend_sits_outside_the_viewport_folded_or_not(window, qtbot):
    view, legend = window.topology_view, window.legend
    assert window.open_path(EXAMPLES / "small-hgx.fabric", ask=False)
    for folded in (False, True):
        legend.set_folded(folded)
        viewport = QRect(view.viewport().mapTo(view, view.viewport().rect().topLeft()),
                         view.viewport().size())
        assert not legend.geometry().intersects(viewport), folded
        assert viewport.left() >= legend.geometry().right()
    chip = legend.width()
    legend.set_folded(False)
    assert legend.width() > 3 * chip  # the chip is narrow, the open legend is not
    window.actions_by_name["legend"].trigger()  # View > Legend off: the strip goes too
    assert view.viewportMargins().left() == 0


def test_a_narrow_view_folds_the_legend_until_the_user_clicks_it(window, qtbot):
    window.resize(1000, 700)
    qtbot.waitUntil(lambda: window.topology_view.width() < 900)
    assert window.legend.folded()
    qtbot.mouseClick(window.legend, Qt.MouseButton.LeftButton)
    assert not window.legend.folded()
    window.resize(990, 700)  # no more folding by width once the user chose
    qtbot.waitUntil(lambda: window.topology_view.width() < 900)
    assert not window.legend.folded()


def test_the_legend_speeds_follow_undo_and_redo_of_a_breakout(window):
    editor, stack = window.editor, window.document.undo_stack
    switch = editor.add_device("arista-7060x6-64pe", (0.0, 0.0))
    labels = lambda: [label for label, _c in window.legend.speed_rows()]  # noqa: E731
    before = labels()
    assert "200G" not in before
    assert editor.set_cages([switch], list(range(1, 65)), mode="4x200G")
    assert labels() == ["200G"]
    stack.undo()
    assert labels() == before  # 200G is gone again
    stack.redo()
    assert "200G" in labels()


def test_colour_names_in_the_legend_read_as_names(window):
    assert window.open_path(EXAMPLES / "small-hgx.fabric", ask=False)  # uses purple, grey, pink
    names = [name for name, _c in window.legend.colour_rows()]
    assert "purple" in names and "grey" in names and "pink" in names
    assert not [n for n in names if n.startswith("#")]
    link = sorted(window.document.fabric.links)[0]
    assert window.editor.update_links([link], {"colour": "#008080"}, "colour")
    assert "teal" in [name for name, _c in window.legend.colour_rows()]  # a hex gets its SVG name


def test_zoomed_out_bundles_wear_the_colours_the_legend_names(window):
    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    view, layer = window.topology_view, window.topology.links
    view.set_zoom(0.10)  # the fit zoom of a 1440x900 window
    assert view.scale_factor() < window.topology.detail_scale  # bundles are drawn at this zoom
    assert window.legend.title() == "Cables by jacket colour"
    named = {colour for _label, colour in window.legend.colour_rows()}
    drawn = layer.bundle_colours()
    assert drawn and drawn <= named | {c for _l, c in window.legend.speed_rows()}
    assert len(drawn & named) >= 8  # the eight rails' jackets, not all one speed colour


def test_a_device_dropped_below_its_tier_lands_in_its_tiers_band(window):
    assert window.open_path(EXAMPLES / "small-hgx.fabric", ask=False)
    scene = window.topology
    leaf_bands = [rect for tier, rect in scene.bands.bands() if tier == 1]
    assert len(leaf_bands) == 1
    bottom = max(rect.bottom() for _t, rect in scene.bands.bands())
    device_id = scene.drop_device("nvidia-sn5600", QPointF(0.0, bottom + 600))
    assert device_id is not None
    scene.content_rect()
    leaf_bands_after = [rect for tier, rect in scene.bands.bands() if tier == 1]
    assert len(leaf_bands_after) == 1  # no second leaf band
    y = window.document.fabric.devices[device_id].position[1]
    assert leaf_bands_after[0].top() <= y <= leaf_bands_after[0].bottom()


def test_fit_shows_the_whole_design_small_or_big_and_zoom_out_still_goes_further(window):
    """Fit shows all of a design (issue 32: a readable minimum for small designs left a
    hand-drawn 12-device design at 70 % showing a quarter of it)."""
    view = window.topology_view
    for name in ("small-hgx", "superpod-4su", "superpod-1su"):
        assert window.open_path(EXAMPLES / f"{name}.fabric", ask=False)
        window.fit_current()
        visible = view.mapToScene(view.viewport().rect()).boundingRect()
        assert visible.contains(window.topology.content_rect()), name
        fitted = view.scale_factor()
        view.zoom_by(0.5)
        assert view.scale_factor() < fitted


def test_band_titles_are_never_written_over_a_device(window):
    from aicnet_gui.gui.canvas.items import title_place

    assert window.open_path(EXAMPLES / "superpod-4su.fabric", ask=False)
    scene, view = window.topology, window.topology_view
    scene.ensure_items()
    shown = 0
    for zoom in (0.1, 0.18, 0.3, 0.6, 1.0):
        view.set_zoom(zoom)
        transform = view.viewportTransform()
        boxes = [transform.mapRect(item.sceneBoundingRect()) for item in scene.items_by_id.values()]
        for tier, rect in scene.bands.bands():
            place = title_place(tier, rect, transform)
            if place is None:
                continue
            shown += 1
            assert not any(place[1].intersects(box) for box in boxes), (zoom, place)
    assert shown >= 8  # the server bands are titled from 18 % on


def test_a_dropped_device_lands_beside_the_devices_of_its_row_not_on_them(window):
    assert window.open_path(EXAMPLES / "small-hgx.fabric", ask=False)
    scene, doc = window.topology, window.document.fabric
    leaf = next(d for d in doc.devices.values() if d.name == "leaf-01")
    w, h = window.editor.size_of(leaf)
    device_id = scene.drop_device("nvidia-sn5600", QPointF(leaf.position[0] + w / 2, leaf.position[1] + h / 2))
    new = doc.devices[device_id]
    nw, nh = window.editor.size_of(new)
    for other in doc.devices.values():
        if other.id == device_id:
            continue
        ow, oh = window.editor.size_of(other)
        overlap = (new.position[0] < other.position[0] + ow and other.position[0] < new.position[0] + nw
                   and new.position[1] < other.position[1] + oh and other.position[1] < new.position[1] + nh)
        assert not overlap, other.name
    assert new.position[1] == leaf.position[1]  # in the leaf row
