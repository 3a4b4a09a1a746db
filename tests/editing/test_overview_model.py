"""The overview's blocks and bundle counts, without Qt (editing/overview.py)."""

from __future__ import annotations

import numpy as np
import pytest

from aicnet_gui.editing import overview
from aicnet_gui.editing.overview import BlockKey


def _design() -> tuple[list[BlockKey], list[BlockKey], list[str], tuple[np.ndarray, ...]]:
    """Two SUs of one pod side by side (2 servers + 1 leaf each) and two spines above them."""
    tags = [{"su": "1", "pod": "1"}] * 3 + [{"su": "2", "pod": "1"}] * 3 + [{"pod": "1"}] * 2
    roles = ["gpu_server", "gpu_server", "leaf"] * 2 + ["spine", "spine"]
    keys = [overview.device_keys(r, t, None) for r, t in zip(roles, tags, strict=True)]
    x = np.array([0, 200, 100, 1000, 1200, 1100, 300, 900], dtype=float)
    y = np.array([400, 400, 200, 400, 400, 200, 0, 0], dtype=float)
    w = np.full(8, 150.0)
    h = np.full(8, 40.0)
    return [k[0] for k in keys], [k[1] for k in keys], roles, (x, y, w, h)


def test_blocks_count_their_devices_and_sit_around_them():
    fine_keys, _, roles, rects = _design()
    level = overview.build_level(fine_keys, roles, *rects)
    titles = [b.title for b in level.blocks]
    assert titles == ["Spines", "SU 1", "SU 2"]
    su1 = level.blocks[1]
    assert su1.text == "2 servers, 1 leaf"
    assert su1.parts == [(0.0, 200.0, 350.0, 440.0)]
    assert level.block_of.tolist() == [1, 1, 1, 2, 2, 2, 0, 0]
    # the two spines share a layout row: one part from the first's left to the second's right
    assert level.blocks[0].parts == [(300.0, 0.0, 1050.0, 40.0)]


def test_bundles_count_cables_between_blocks_only():
    fine_keys, _, roles, rects = _design()
    level = overview.build_level(fine_keys, roles, *rects)
    # server-leaf inside SU 1 (2), leaf 1 -> both spines, leaf 2 -> spine 1 twice
    dev_a = np.array([0, 1, 2, 2, 5, 5])
    dev_b = np.array([2, 2, 6, 7, 6, 6])
    bundles = overview.count_bundles(level.block_of, len(level.blocks), dev_a, dev_b)
    assert bundles.between(1, 0) == 2 and bundles.between(0, 2) == 2
    assert bundles.between(1, 2) == 0
    assert int(bundles.counts.sum()) == 4
    # what each block's title says leaves it: the spines take all four, each SU sends two
    assert bundles.leaving(len(level.blocks)).tolist() == [4, 2, 2]


def test_the_coarse_level_merges_the_sus_of_a_pod():
    fine_keys, coarse_keys, roles, rects = _design()
    fine = overview.build_level(fine_keys, roles, *rects)
    coarse, to_coarse = overview.coarsen(fine, overview.coarse_keys_of(fine, coarse_keys))
    assert [b.title for b in coarse.blocks] == ["Spines", "Pod 1"]
    assert coarse.blocks[1].text == "4 servers, 2 leaves"
    # both SUs sit in one layout row: one rectangle around them
    assert coarse.blocks[1].parts == [(0.0, 200.0, 1350.0, 440.0)]
    assert to_coarse.tolist() == [0, 1, 1]
    assert coarse.block_of.tolist() == [1] * 6 + [0, 0]


def test_a_pod_wrapping_onto_two_rows_has_one_part_per_row():
    rows = overview._merge_rows([(0, 0, 100, 50), (120, 0, 220, 50), (0, 200, 100, 250)])
    assert rows == [(0, 0, 220, 50), (0, 200, 100, 250)]


def test_a_hand_drawn_design_falls_back_to_tiers_and_multi_plane_switches_to_planes():
    fine, coarse = overview.device_keys("gpu_server", {}, None)
    assert fine == coarse == BlockKey("tier", "gpu_server")
    assert overview.title(fine) == "Servers"
    fine, coarse = overview.device_keys("leaf", {"su": "4", "pod": "2"}, "1")
    assert (overview.title(fine), overview.title(coarse)) == ("SU 4", "Pod 2")
    fine, _ = overview.device_keys("spine", {"pod": "2"}, "2")
    assert overview.title(fine) == "Spines · plane 2"
    assert overview.describe({"leaf": 1, "gpu_server": 64}) == "64 servers, 1 leaf"


def test_interleaved_planes_of_a_tier_are_drawn_side_by_side():
    roles = ["spine"] * 4
    keys = [overview.device_keys("spine", {}, plane)[0] for plane in ("1", "2", "1", "2")]
    x = np.array([0, 200, 400, 600], dtype=float)
    level = overview.build_level(keys, roles, x, np.zeros(4), np.full(4, 150.0), np.full(4, 40.0))
    assert [b.title for b in level.blocks] == ["Spines · plane 1", "Spines · plane 2"]
    (one,), (two,) = level.blocks[0].parts, level.blocks[1].parts
    assert one[0] == 0 and 700 < two[2] <= 750 and one[2] < two[0]  # a gap between the slices
    assert level.blocks[0].counts == level.blocks[1].counts == {"spine": 2}


def test_far_out_pods_merge_in_runs_and_the_switch_planes_stay_blocks():
    """Six pods of one SU each (4 servers, a row each), a spine per plane above them: runs of
    four pods are one band each, the two plane blocks stay, and every cable stays counted."""
    fine, coarse, roles, x, y = [], [], [], [], []
    for pod in range(1, 7):
        for k in range(4):
            fine.append(BlockKey("su", str(pod)))
            coarse.append(BlockKey("pod", str(pod)))
            roles.append("gpu_server")
            x.append(k * 100.0)
            y.append(pod * 100.0)
    for plane in ("1", "2"):
        key = BlockKey("tier", "spine", plane)
        fine.append(key)
        coarse.append(key)
        roles.append("spine")
        x.append(int(plane) * 200.0)
        y.append(0.0)
    rects = (np.array(x), np.array(y), np.full(len(x), 80.0), np.full(len(x), 40.0))
    # server k of every pod to the spine of plane k % 2 + 1
    dev_a = np.arange(24)
    dev_b = 24 + dev_a % 2
    made = overview.prepare(fine, coarse, roles, *rects, dev_a, dev_b)
    far, bundles, to_far = overview.group_pods(made.coarse, made.coarse_bundles, 4)
    titles = [b.title for b in far.blocks]
    assert titles == ["Spines · plane 1", "Spines · plane 2", "Pods 1–4", "Pods 5–6"]
    assert far.blocks[2].counts == {"gpu_server": 16}
    assert far.blocks[2].parts == [(0.0, 100.0, 380.0, 440.0)]  # one band over its four rows
    assert far.blocks[3].parts == [(0.0, 500.0, 380.0, 640.0)]
    # the planes of the spine tier side by side over the whole width (room for their titles)
    assert far.blocks[0].parts == [(0.0, 0.0, pytest.approx(230.4), 40.0)]
    assert far.blocks[1].parts == [(240.0, 0.0, pytest.approx(470.4), 40.0)]
    assert far.block_of.tolist() == [2] * 16 + [3] * 8 + [0, 1]
    pairs = zip(bundles.a.tolist(), bundles.b.tolist(), bundles.counts.tolist(), strict=True)
    assert sorted(pairs) == [
        (0, 2, 8), (0, 3, 4), (1, 2, 8), (1, 3, 4)]
    assert [made.coarse.blocks[i].title for i in range(len(to_far))] == [
        "Spines · plane 1", "Spines · plane 2", *(f"Pod {n}" for n in range(1, 7))]
    assert to_far.tolist() == [0, 1, 2, 2, 2, 2, 3, 3]


def test_a_run_of_one_is_titled_as_the_block_it_is():
    """Far out, the last run may hold a single pod or SU: "Pod 49", not "Pods 49"."""
    assert overview.title(BlockKey("pods", "49")) == "Pod 49"
    assert overview.title(BlockKey("sus", "7")) == "SU 7"
    assert overview.title(BlockKey("pods", "1-16")) == "Pods 1–16"
    assert overview.title(BlockKey("sus", "3-4")) == "SUs 3–4"


def test_grown_switch_tiers_stack_up_clear_of_what_is_under_them():
    """Far out a row of switches is a pixel high, grown to a line of text about its centre: the
    cores, spines and leaves of a flat design covered each other and the top of the servers.
    Lowest first, each grown tier moves up clear of the boxes under it that growing made it
    cover, `gap` apart; the servers stay where they are, and so does a tier that covers
    nothing (or covered it before it grew)."""
    cores, spines, leaves = (40, 0, 60, 1), (40, 7, 60, 8), (0, 14, 100, 15)
    servers, aside = (0, 19, 20, 60), (200, 0, 260, 1)
    boxes = [cores, spines, leaves, servers, aside]
    drawn = overview.grown_apart(boxes, [True, True, True, False, True], (6.0, 16.0), gap=3.0)
    assert drawn[3] == servers
    assert drawn[4] == (200, -7.5, 260, 8.5)  # nothing under it: grown about its centre
    assert drawn[2] == (0, 0, 100, 16)  # 3 above the servers
    assert drawn[1] == (40, -19, 60, -3)  # 3 above the leaves
    assert drawn[0] == (40, -38, 60, -22)
    assert all(b[3] - b[1] == 16 for i, b in enumerate(drawn) if i != 3)
    assert not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
                   for i, a in enumerate(drawn) for b in drawn[i + 1:])
    # tall enough already: as they are; overlapping before they grew: left as they were
    assert overview.grown_apart([(0, 0, 50, 30), (0, 40, 50, 80)], [True, False], (6, 16), 3) == [
        (0, 0, 50, 30), (0, 40, 50, 80)]
    assert overview.grown_apart([(0, 30, 50, 31), (0, 25, 50, 80)], [True, False], (6, 16), 3) == [
        (0, 22.5, 50, 38.5), (0, 25, 50, 80)]


def test_a_leaf_group_and_the_servers_of_its_sus_are_one_block():
    """A leaf that carries its rail of SUs 3 and 4 (tag `sus`) and the servers of both SUs
    are one block, "SUs 3–4", in their pod; far out runs of groups name their first and last
    SU ("SUs 1–4"), and an SU no leaf group carries stays its own."""
    tags = [{"sus": "1-2", "pod": "1"}, {"su": "1", "pod": "1"}, {"su": "2", "pod": "1"},
            {"sus": "3-4", "pod": "1"}, {"su": "3", "pod": "1"}, {"su": "4", "pod": "1"},
            {"su": "5", "pod": "1"}, {"su": "5", "pod": "1"}]
    roles = ["leaf", "gpu_server", "gpu_server"] * 2 + ["leaf", "gpu_server"]
    groups = overview.leaf_groups(tags)
    keys = [overview.device_keys(r, t, None, groups) for r, t in zip(roles, tags, strict=True)]
    assert [k[0] for k in keys] == [BlockKey("su", v) for v in ["1-2"] * 3 + ["3-4"] * 3 + ["5"] * 2]
    assert {k[1] for k in keys} == {BlockKey("pod", "1")}
    assert overview.title(BlockKey("su", "3-4")) == "SUs 3–4"
    n = len(tags)
    x = np.array([0, 0, 0, 1000, 1000, 1000, 2000, 2000], dtype=float)
    y = np.array([0, 200, 300, 0, 200, 300, 0, 200], dtype=float)
    made = overview.prepare([k[0] for k in keys], [k[0] for k in keys], roles, x, y,
                            np.full(n, 150.0), np.full(n, 40.0), np.zeros(0, np.int64),
                            np.zeros(0, np.int64))
    assert [b.title for b in made.fine.blocks] == ["SUs 1–2", "SUs 3–4", "SU 5"]
    far, _bundles, _to = overview.group_pods(made.fine, made.fine_bundles, 2)
    assert sorted(b.title for b in far.blocks) == ["SU 5", "SUs 1–4"]
    one, _bundles, _to = overview.group_pods(made.fine, made.fine_bundles, 1)
    assert sorted(b.title for b in one.blocks) == ["SU 5", "SUs 1–2", "SUs 3–4"]
