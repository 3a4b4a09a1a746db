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
