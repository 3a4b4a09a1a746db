"""The overview of a design whose leaves each carry several SUs (a leaf group, tag `sus`): one
block per group, its leaves and the servers of its SUs, titled "SUs 3–4" far out.

16 SUs of DGX H100 on 128-port SN5600 leaves (two SUs per leaf, one pod of two tiers) drew
one "Leaves" block beside sixteen server-only SU blocks that merged into one "Pod 1" far out,
the leaves away from their servers; no block said which SUs a leaf group serves."""

from __future__ import annotations

import pytest

GROUPS = [f"SUs {n}–{n + 1}" for n in range(1, 17, 2)]


@pytest.fixture
def leaf_groups(open_generated):  # noqa: ANN001, ANN201
    from aicnet_gui.generators import RailOptimizedParams

    return open_generated(RailOptimizedParams(sus=16, leaf="nvidia-sn5600", choose_media=False))


def _painted_titles(window, monkeypatch) -> list[str]:  # noqa: ANN001
    """The titles the overview writes on the canvas as it is drawn now."""
    from aicnet_gui.gui.canvas import overview_layer

    placed: list[str] = []
    place = overview_layer._place_titles

    def spy(painter, labels, halve):  # noqa: ANN001, ANN202
        out = place(painter, labels, halve)
        placed[:] = [label.block.title for label, *_ in out[0]]
        return out

    monkeypatch.setattr(overview_layer, "_place_titles", spy)
    window.topology.overview.update()
    window.topology_view.viewport().grab()  # paints the overview
    return placed


def test_far_out_each_leaf_group_is_a_titled_block_over_its_servers(leaf_groups, monkeypatch):
    window = leaf_groups
    scene, view = window.topology, window.topology_view
    view.set_zoom(0.03)
    scale = view.scale_factor()
    assert scene.overview.active
    level, bundles = scene.overview.level(scale)
    blocks = {b.title: b for b in level.blocks if b.key.kind in ("su", "sus")}
    assert sorted(blocks) == sorted(GROUPS)
    assert all(b.counts == {"gpu_server": 64, "leaf": 8} for b in blocks.values())
    assert set(GROUPS) <= set(_painted_titles(window, monkeypatch))
    # each group's box holds the leaves and the servers they are cabled to (from the links)
    doc = window.document.fabric
    role = {d.id: doc.role_of(d).value for d in doc.devices.values()}
    for link in doc.links.values():
        ends = {role[link.a.device]: link.a.device, role[link.b.device]: link.b.device}
        if set(ends) != {"leaf", "gpu_server"}:
            continue
        held = [title for title, block in blocks.items()
                if all(_inside(doc.devices[ends[r]].position, block.bounds()) for r in ends)]
        assert len(held) == 1, f"{link.id}: its leaf and server are in {held or 'no block'}"
    index = {b.title: i for i, b in enumerate(level.blocks)}
    spines = next(i for i, b in enumerate(level.blocks) if b.counts.get("spine"))
    # every leaf of a group: 64 uplinks (two SUs' rail of 32 servers, at 1:1)
    assert bundles.between(index["SUs 5–6"], spines) == 8 * 64


def _inside(position: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] <= position[0] <= box[2] and box[1] <= position[1] <= box[3]


def test_further_out_a_one_pod_design_runs_its_leaf_groups_each_titled(leaf_groups, monkeypatch):
    """Further out the groups are too narrow for their titles: they merge in runs ("SUs 1–4"),
    each titled, instead of one `Pod 1` over three rows titled once."""
    window = leaf_groups
    scene, view = window.topology, window.topology_view
    view.set_zoom(0.02)
    level, _bundles = scene.overview.level(view.scale_factor())
    runs = [b for b in level.blocks if b.key.kind == "sus"]
    assert len(runs) > 1 and all(b.title.startswith("SUs ") for b in runs)
    assert sum(b.counts["gpu_server"] for b in runs) == 512
    assert sum(b.counts["leaf"] for b in runs) == 64
    assert not any(b.title.startswith("Pod") for b in level.blocks)
    assert {b.title for b in runs} <= set(_painted_titles(window, monkeypatch))


def test_deleting_a_groups_leaves_gives_its_sus_their_own_blocks_and_undo_the_group(
        leaf_groups):
    """The servers' block follows the leaves that carry their SUs, though the servers
    themselves do not change: without SUs 1–2's leaves, SU 1 and SU 2 are blocks of their own."""
    window = leaf_groups
    scene, view = window.topology, window.topology_view
    view.set_zoom(0.03)
    scale = view.scale_factor()
    doc = window.document.fabric
    group = [d.id for d in doc.devices.values() if d.tags.get("sus") == "1-2"]
    assert len(group) == 8
    window.editor.delete(group, [])
    titles = {b.title: b for b in scene.overview.level(scale)[0].blocks}
    assert "SUs 1–2" not in titles
    assert titles["SU 1"].counts == titles["SU 2"].counts == {"gpu_server": 32}
    window.document.undo_stack.undo()
    titles = {b.title: b for b in scene.overview.level(scale)[0].blocks}
    assert "SU 1" not in titles and titles["SUs 1–2"].counts == {"gpu_server": 64, "leaf": 8}
