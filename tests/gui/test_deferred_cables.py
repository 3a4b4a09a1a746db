"""A big file opened in the editor has its cables' ids, colours, rails and planes read after its
first frame (scene_data.py `complete_cables`, link_layer.py `defer_load`): the first frame is the
overview, the cables come in the first slice after it, and anything that asks about a cable
earlier (an edit, a selection, a zoom in) gets them first.  What the link layer then holds is
what an open without the deferral gives."""

from __future__ import annotations

import numpy as np
import pytest

from aicnet_gui.model.edits import RemoveLink

from .test_open_big import open_big  # superpod-4su.fabric: 176 devices, 2048 cables


@pytest.fixture
def deferred(monkeypatch):  # noqa: ANN001, ANN201
    """Treat the 176-device example as big: its cables deferred, its fitted view the overview."""
    from aicnet_gui.gui.canvas import overview_layer, topology_scene
    from aicnet_gui.gui.workers import load_worker

    monkeypatch.setattr(load_worker, "DEFERRED_CABLES_FROM", 1)
    monkeypatch.setattr(topology_scene, "LAZY_MIN_DEVICES", 50)
    monkeypatch.setattr(overview_layer, "OVERVIEW_SCALE", 50.0)
    return monkeypatch


def layer_state(links) -> dict:  # noqa: ANN001
    """What the link layer holds of its live cables, by id and colour (not by its row codes)."""
    rows = np.flatnonzero(links._alive[: links._n])
    devices = {row: device_id for device_id, row in links._dev_index.items()}
    planes = {code: plane for plane, code in links._plane_code.items()}
    return {
        "ids": [links._ids[r] for r in rows.tolist()],
        "coords": np.column_stack([getattr(links, name)[rows] for name in ("_ax", "_ay", "_bx", "_by")]),
        "pens": [links._pens[p].color().name() for p in links._pen[rows].tolist()],
        "speed pens": [links._pens[p].color().name() for p in links._spen[rows].tolist()],
        "ends": [(devices[a], devices[b]) for a, b in zip(links._da[rows].tolist(),
                                                          links._db[rows].tolist(), strict=True)],
        "rails": links._rail[rows].tolist(),
        "planes": [planes[code] for code in links._lplane[rows].tolist()],
        "bounds": links.boundingRect().getCoords(),
    }


def same_state(one: dict, other: dict) -> None:
    assert one.keys() == other.keys()
    for name in one:
        if isinstance(one[name], np.ndarray):
            assert np.array_equal(one[name], other[name]), name
        else:
            assert one[name] == other[name], name


def built(window, qtbot) -> None:  # noqa: ANN001
    qtbot.waitUntil(lambda: not window.topology.building(), timeout=60000)


def test_the_cables_come_after_the_overview_frame_as_an_open_without_deferral_gives(
        window, qtbot, monkeypatch):  # noqa: ANN001
    links = window.topology.links
    assert not open_big(window, qtbot)["deferred"]  # a small file: its cables at once
    built(window, qtbot)
    whole = layer_state(links)
    bundles_counted = window.topology.overview._counted
    assert len(whole["ids"]) == len(window.document.fabric.links) == 2048

    from aicnet_gui.gui.canvas import overview_layer, topology_scene
    from aicnet_gui.gui.workers import load_worker

    monkeypatch.setattr(load_worker, "DEFERRED_CABLES_FROM", 1)
    monkeypatch.setattr(topology_scene, "LAZY_MIN_DEVICES", 50)
    monkeypatch.setattr(overview_layer, "OVERVIEW_SCALE", 50.0)
    seen = open_big(window, qtbot, lambda w: (w.topology.links._count,
                                               w.topology.links.boundingRect().getCoords()))
    assert seen["deferred"] and seen["seen"] == (0, whole["bounds"])  # the bounds are known
    window.topology_view.viewport().repaint()  # the first frame: the overview, no cable
    assert window.topology.overview.active and links.cables_deferred()
    built(window, qtbot)  # the first slice after that frame gave the cables
    assert not links.cables_deferred()
    same_state(layer_state(links), whole)
    # the overview's bundles, counted by the loader, are still the counted ones
    assert window.topology.overview._counted[0] == links.ends_version
    assert bundles_counted is not None
    doc = window.document.fabric
    for device_id, item in window.topology.items_by_id.items():
        assert item.used == {port for port in doc.ports(device_id)
                             if doc.link_at(device_id, port) is not None}


def test_an_edit_before_the_cables_come_is_drawn_on_them(window, qtbot, deferred):  # noqa: ANN001
    removed: list[str] = []

    def remove_one(window) -> bool:  # noqa: ANN001
        link_id = next(iter(window.document.fabric.links))
        removed.append(link_id)
        window.document.execute([RemoveLink(link_id)], "Delete cable")
        return window.topology.links.cables_deferred()

    seen = open_big(window, qtbot, remove_one)
    assert seen["deferred"] and not seen["seen"]  # the edit loaded them, then removed one
    links = window.topology.links
    ids = layer_state(links)["ids"]
    assert removed[0] not in ids and len(ids) == 2047
    window.document.undo_stack.undo()
    assert removed[0] in layer_state(links)["ids"] and len(links) == 2048


def test_a_cable_selected_before_the_cables_come_is_selected(window, qtbot, deferred):  # noqa: ANN001
    def select_one(window) -> tuple:  # noqa: ANN001
        link_id = list(window.document.fabric.links)[5]
        window.topology.select_ids([], [link_id])
        return link_id, window.topology.selected_link_ids()

    seen = open_big(window, qtbot, select_one)
    link_id, selected = seen["seen"]
    assert seen["deferred"] and selected == [link_id]
    assert not window.topology.links.cables_deferred()


def test_a_view_zoomed_in_before_the_cables_come_draws_them(window, qtbot, deferred):  # noqa: ANN001
    from aicnet_gui.gui.canvas import overview_layer

    def zoom_in(window) -> tuple:  # noqa: ANN001
        deferred.setattr(overview_layer, "OVERVIEW_SCALE", 0.06)  # the overview far out only
        view = window.topology_view
        view.set_zoom(1.0)
        assert not window.topology.overview.active and window.topology.links.cables_deferred()
        view.viewport().repaint()
        return window.topology.links.isVisible(), window.topology.links.cables_deferred()

    seen = open_big(window, qtbot, zoom_in)
    assert seen["deferred"] and seen["seen"] == (True, False)
    assert len(window.topology.links) == 2048
