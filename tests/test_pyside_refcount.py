"""Guard against the PySide6 6.12.0 + CPython 3.11 crash (performance.md §0.1).

On that combination every Qt call returning void releases a reference to None it never took;
after ~5,000 calls the interpreter aborts with `none_dealloc`.  20,000 setPos calls must leave
None's reference count where it was, so an upgrade that brings the bug back fails here first.
"""

from __future__ import annotations

import sys


def test_setpos_does_not_leak_references_to_none(qapp):
    from PySide6.QtWidgets import QGraphicsRectItem

    item = QGraphicsRectItem(0, 0, 10, 10)
    before = sys.getrefcount(None)
    for i in range(20_000):
        item.setPos(i % 100, 0)
    # The bug drops one reference per call (-20,000 here); unrelated Python activity in the
    # process (pytest, the event loop) may move the count by a handful either way.
    assert abs(sys.getrefcount(None) - before) < 100
