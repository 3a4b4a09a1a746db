"""The canvas's large-fabric machinery: one batched cable layer, picking, bundles by zoom."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF

from aicnet_gui.gui.canvas.link_layer import LinkLayer
from aicnet_gui.gui.layout import overlap_fraction


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
