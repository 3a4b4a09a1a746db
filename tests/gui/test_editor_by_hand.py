"""Issue 32, item 9: the editor as an architect draws by hand at 1440x900, each rough edge
fixed at its cause."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SERVER, LEAF = "nvidia-dgx-h100", "nvidia-sn5600"


@pytest.fixture
def hand(window, qtbot):  # noqa: ANN001, ANN201
    """The main window at 1440x900, as the architect uses it (palette, docks and all)."""
    window.resize(1440, 900)
    qtbot.waitUntil(lambda: window.width() == 1440)
    return window


def _visible(view) -> QRectF:  # noqa: ANN001
    return view.mapToScene(view.viewport().rect()).boundingRect()


def _twelve_devices(window) -> list[str]:  # noqa: ANN001
    """8 servers, 2 leaves and 2 more switches dropped from the palette, as a user adds them."""
    return [window.editor.add_device(model) for model in [SERVER] * 8 + [LEAF] * 4]


def test_fit_to_view_shows_the_whole_of_a_small_hand_drawn_design(hand):
    _twelve_devices(hand)
    hand.fit_current()
    view, scene = hand.topology_view, hand.topology
    assert _visible(view).contains(scene.content_rect())
    for item in scene.items_by_id.values():
        assert _visible(view).contains(item.sceneBoundingRect()), item.name


def _box(window, device_id: str) -> QRectF:  # noqa: ANN001
    return window.topology.items_by_id[device_id].sceneBoundingRect()


def _band_of(window, device_id: str) -> list[int]:  # noqa: ANN001
    """The tiers of the bands that hold the device (one, when the bands are right)."""
    scene = window.topology
    scene.content_rect()  # lays out pending moves
    box = _box(window, device_id)
    return [tier for tier, rect in scene.bands.bands() if rect.contains(box)]


def test_used_as_spine_moves_the_devices_into_a_spine_row_above_the_leaves(hand):
    ids = _twelve_devices(hand)
    doc = hand.document.fabric
    leaves, spines = ids[8:10], ids[10:]
    before = {d: doc.devices[d].position for d in spines}
    assert hand.editor.set_role(spines, "spine")
    assert [doc.tier_of(d) for d in spines] == [2, 2]
    leaf_top = min(_box(hand, d).top() for d in leaves)
    for device_id in spines:
        assert _box(hand, device_id).bottom() < leaf_top  # above the leaf row, not in it
        assert _band_of(hand, device_id) == [2]
    assert not _box(hand, spines[0]).intersects(_box(hand, spines[1]))  # side by side
    for device_id in leaves:
        assert _band_of(hand, device_id) == [1]  # the leaves keep their own LEAF band
    # two more spines from the palette join the spine row, each at its own spot
    added = [hand.editor.add_device("nvidia-q3400-ra") for _ in range(2)]
    boxes = [_box(hand, d) for d in spines + added]
    assert all(box.bottom() < leaf_top for box in boxes)
    assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    for _ in added:
        hand.document.undo_stack.undo()
    hand.document.undo_stack.undo()  # the role change is one step: roles and places return
    assert {d: doc.devices[d].position for d in spines} == before
    assert [doc.tier_of(d) for d in spines] == [1, 1]
    assert all(_band_of(hand, d) == [1] for d in spines)


def test_the_tier_bands_follow_a_role_changed_in_place(hand):
    """A role edited without a move (a file, a script, the generic device edit) still puts the
    device in its tier's band: the bands are laid out again when a tier changes."""
    from aicnet_gui.model.catalog_entities import Role

    ids = _twelve_devices(hand)
    assert _band_of(hand, ids[-1]) == [1]  # (the bands of the adds are laid out)
    assert hand.editor.update_devices([ids[-1]], {"role": Role.SPINE}, "Use as spine")
    assert 2 in _band_of(hand, ids[-1])  # a SPINE band is laid out where it sits
