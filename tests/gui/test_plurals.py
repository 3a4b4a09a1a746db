"""Counts the editor shows read as English: `1 cable`, `2 cables`, `3 leaves`, never `1 cables`."""

from __future__ import annotations

from aicnet_gui.editing.compat import PortRef
from aicnet_gui.editing.units import counted, plural

LEAF = "nvidia-sn5600"
SERVER = "generic-hgx-8-gpu-b3140h"  # 8 GPUs


def test_counted_nouns_take_the_plural_unless_there_is_one():
    assert counted(1, "cable") == "1 cable"
    assert counted(0, "cable") == "0 cables"
    assert counted(2, "finding") == "2 findings"
    assert counted(3, "leaf") == "3 leaves"
    assert counted(2, "core switch") == "2 core switches"
    assert counted(4, "storage node") == "4 storage nodes"
    assert counted(2, "NetBox file") == "2 NetBox files"
    assert counted(5, "GPU") == "5 GPUs"
    assert counted(2, "info") == "2 info"
    assert plural("entry") == "entries" and plural("day") == "days" and plural("box") == "boxes"
    assert counted(2, "person", "people") == "2 people"


def test_one_cable_reads_in_the_singular_in_the_status_bar_and_the_fabric_page(window, qtbot):
    server = window.editor.add_device(SERVER, (0, 400))
    leaf = window.editor.add_device(LEAF, (0, 0))
    assert window.editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    window.select_ids([], [], [])
    qtbot.waitUntil(lambda: window.counts_label.text().startswith("2 devices · 1 cable · "))
    assert window.counts_label.text() == "2 devices · 1 cable · 0 racks · 8 GPUs"
    page = window.inspector.fabric_page
    page.refresh()
    lines = page.summary.text().splitlines()
    assert lines == ["1 GPU server, 1 leaf", "1 cable: 1 server-leaf", "0 racks · 8 GPUs · 0 workloads"]
