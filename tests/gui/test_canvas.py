"""The canvas's large-fabric machinery: one batched cable layer, picking, bundles by zoom."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF

from aicnet_gui.editing.layout import overlap_fraction
from aicnet_gui.gui.canvas.link_layer import LinkLayer


def layer_with(rows, devices) -> LinkLayer:  # noqa: ANN001
    layer = LinkLayer()
    layer.set_devices(devices)
    ids = [r[0] for r in rows]
    coords = np.array([r[1:5] for r in rows], dtype=float)
    layer.load(ids, coords, ["#7b2cbf"] * len(rows), ["#7b2cbf"] * len(rows),
               np.array([layer.device_index(r[5]) for r in rows]),
               np.array([layer.device_index(r[6]) for r in rows]))
    return layer


def test_cables_are_picked_by_distance_and_selected_by_rectangle(qapp):
    layer = layer_with(
        [("l1", 0, 0, 100, 0, "a", "b"), ("l2", 0, 50, 100, 150, "a", "c")],
        [("a", 0, 0, None), ("b", 100, 0, None), ("c", 100, 150, None)],
    )
    assert layer.link_at(50, 3, tolerance=5) == "l1"
    assert layer.link_at(50, 100, tolerance=5) == "l2"  # on the diagonal
    assert layer.link_at(50, 30, tolerance=5) is None
    assert layer.links_in_rect(QRectF(-1, -1, 102, 10)) == ["l1"]
    layer.remove_links(["l1"])
    assert layer.link_at(50, 3, tolerance=5) is None
    assert layer.link_ids() == ["l2"]


def test_bundles_join_cables_of_a_device_pair_then_of_a_server_group(qapp):
    # two servers of SU 1 with two cables each to one leaf, one server of SU 2 with one
    devices = [("s1", 0, 100, "su:1"), ("s2", 10, 100, "su:1"), ("s3", 50, 100, "su:2"), ("leaf", 0, 0, None)]
    rows = [("a", 0, 100, 0, 0, "s1", "leaf"), ("b", 0, 100, 0, 0, "s1", "leaf"),
            ("c", 10, 100, 0, 0, "s2", "leaf"), ("d", 10, 100, 0, 0, "s2", "leaf"),
            ("e", 50, 100, 0, 0, "s3", "leaf")]
    layer = layer_with(rows, devices)
    assert layer.bundle_count(grouped=False) == 3  # s1-leaf, s2-leaf, s3-leaf
    assert layer.bundle_count(grouped=True) == 2  # SU 1 - leaf, SU 2 - leaf
    layer.remove_links(["e"])
    assert layer.bundle_count(grouped=True) == 1


def test_overlap_detection_finds_devices_drawn_on_top_of_each_other():
    apart = {"a": (0, 0, 100, 40), "b": (200, 0, 100, 40)}
    assert overlap_fraction(apart) == 0
    stacked = {"a": (0, 0, 100, 40), "b": (50, 10, 100, 40), "c": (400, 0, 100, 40)}
    assert overlap_fraction(stacked) == 2 / 3


def test_a_bulk_loaded_layer_finds_replaces_and_removes_cables_by_id(qapp):
    layer = layer_with(
        [("l1", 0, 0, 100, 0, "a", "b"), ("l2", 0, 50, 100, 150, "a", "c"), ("l3", 0, 0, 0, 9, "b", "c")],
        [("a", 0, 0, None), ("b", 100, 0, None), ("c", 100, 150, None)],
    )
    assert len(layer) == 3 and layer.link_ids() == ["l1", "l2", "l3"]
    layer.set_links([("l2", 0, 60, 100, 160, "#000000", "#000000", "a", "c")])  # replaced, not added
    assert len(layer) == 3 and layer.endpoints("l2") == (0.0, 60.0, 100.0, 160.0)
    layer.set_marks({"l3"}, {"l1"})
    assert layer.marks() == {"l1": 1, "l3": 2}
    layer.remove_links(["l1"])
    assert len(layer) == 2 and layer.link_ids() == ["l2", "l3"]
    layer.set_selected({"l3"})
    assert layer.selected_ids() == {"l3"}


def test_the_scene_columns_put_every_cable_on_its_ports(catalog):
    from pathlib import Path

    from aicnet_gui.editing.counts import _CACHE, counts, prime_counts
    from aicnet_gui.fileio import load_fabric
    from aicnet_gui.gui import theme
    from aicnet_gui.gui.canvas.scene_data import topology_data

    doc = load_fabric(Path(__file__).resolve().parents[2] / "examples" / "superpod-1su.fabric", catalog)
    data = topology_data(doc)
    assert data.ids == list(doc.devices) and len(data.link_ids) == len(doc.links) == 512
    row_of = {device_id: row for row, device_id in enumerate(data.ids)}
    for k, link_id in enumerate(data.link_ids):
        link = doc.links[link_id]
        for end, column, device_rows in ((link.a, 0, data.dev_a), (link.b, 2, data.dev_b)):
            row = row_of[end.device]
            cx, cy = data.geometries[row].ports[end.port].centre
            assert int(device_rows[k]) == row
            assert tuple(data.coords[k, column:column + 2]) == (data.x[row] + cx, data.y[row] + cy)
        speed = theme.speed_colour_hex(data.geometries[row_of[link.a.device]].ports[link.a.port].speed_gbps)
        assert data.palette[int(data.speed_pens[k])] == speed
        assert data.palette[int(data.pens[k])] == (theme.link_colour_hex(link.colour) or speed)
    used = [{p for p in doc.ports(d) if doc.link_at(d, p) is not None} for d in data.ids]
    # a device at a time (items made out of turn), then from the list of every device's
    assert [data.used_of(row) for row in range(len(data))] == used
    data.list_used()
    assert [data.used_of(row) for row in range(len(data))] == used
    _CACHE.clear()
    reference = counts(doc)
    _CACHE.clear()
    primed = prime_counts(doc, data.ids, data.roles, data.tiers.tolist(), data.gpus, data.tier_pairs)
    assert primed == reference and counts(doc) is primed
    assert primed.links_by_tier == {"server-leaf": 256, "leaf-spine": 256}


def test_the_cables_counted_by_tier_pair_agree_with_counting_each_cable():
    """`_tier_pairs` (one bincount, folded) against a count cable by cable, lower tier first;
    an end on an unknown device (row -1 or past the devices) is not counted."""
    from collections import Counter

    from aicnet_gui.gui.canvas.scene_data import _tier_pairs

    rng = np.random.default_rng(3)
    for devices, cables in ((1, 5), (7, 0), (30, 400), (200, 5000)):
        tiers = rng.integers(0, 4, devices)
        ia = rng.integers(-1, devices + 1, cables)
        ib = rng.integers(0, devices, cables) if devices > 1 else np.zeros(cables, dtype=np.int64)
        expected = Counter(
            (min(int(tiers[a]), int(tiers[b])), max(int(tiers[a]), int(tiers[b])))
            for a, b in zip(ia.tolist(), ib.tolist(), strict=True) if 0 <= a < devices)
        assert _tier_pairs(tiers, ia, ib) == dict(expected)
        known = (ia >= 0) & (ia < devices)
        assert _tier_pairs(tiers, ia[known], ib[known]) == dict(expected)


def test_the_vectorised_overlap_share_agrees_with_the_reference():
    import random

    from aicnet_gui.editing.layout import overlap_share

    rng = random.Random(7)
    for _ in range(200):
        boxes = {str(i): (rng.uniform(-400, 400), rng.uniform(-300, 300), rng.choice([40.5, 100, 300, 900]),
                          rng.choice([40, 60, 120])) for i in range(rng.randint(2, 40))}
        columns = np.array(list(boxes.values()))
        assert overlap_share(*columns.T) == overlap_fraction(boxes)
    stacked = np.zeros(1000)
    share = overlap_share(stacked, stacked, stacked + 100, stacked + 40, enough=0.25)
    assert share >= 0.25  # all on one spot: stops early, still says "unusable"


def test_the_legend_geometries_follow_devices_added_removed_and_re_moded(window):
    from aicnet_gui.gui.canvas.geometry import device_geometry
    from aicnet_gui.model.edits import RemoveDevice

    scene, editor, document = window.topology, window.editor, window.document

    def in_use() -> set[int]:
        doc = document.fabric
        return {id(device_geometry(doc.device_model(d), d.cages)) for d in doc.devices.values()}

    def drawn() -> set[int]:
        return {id(g) for g in scene.panel_geometries()}

    switch = editor.add_device("nvidia-sn5600", (0.0, 0.0))
    server = editor.add_device("generic-hgx-8-gpu-b3140h", (0.0, 300.0))
    assert len(drawn()) == 2 and drawn() == in_use()
    before = drawn()
    assert editor.set_cages([switch], [1], mode="4x200G")
    assert drawn() == in_use() and drawn() != before  # the default panel is no longer listed
    document.execute([RemoveDevice(server)], "remove")
    assert drawn() == in_use() and len(drawn()) == 1
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert drawn() == in_use() == before
