"""`aicnet-gui --screenshot` waits for the live validation, the bill of materials and the
traffic model (worker threads) by running the event loop until the signal that says they have
published comes, not by processing events and sleeping 10 ms in a loop (gui/app.py)."""

from __future__ import annotations

import time

from PySide6.QtCore import SIGNAL, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication


class _Source(QObject):
    ready = Signal(object)


def _no_sleep(_seconds: float) -> None:
    raise AssertionError("the window's code slept in a loop instead of waiting for an event")


def test_the_screenshot_waits_for_the_validation_and_the_bill_of_materials_without_sleeping(
        window, example_path, monkeypatch):
    from aicnet_gui.gui.app import _wait_for_results

    window.metrics.raise_()  # the Metrics dock in front: its bill of materials is computed
    assert window.open_path(example_path, ask=False)
    validator = window.validator
    assert not validator.current() and validator.bom is None  # both still to come (workers)
    with monkeypatch.context() as patch:
        patch.setattr(time, "sleep", _no_sleep)
        _wait_for_results(QApplication.instance(), window, "metrics", None)
    assert validator.current() and validator.report is not None
    assert validator.bom is not None


def test_wait_for_looks_again_at_each_signal_and_returns_once_done(qapp):  # noqa: ANN001
    from aicnet_gui.gui.app import wait_for

    source, published = _Source(), []
    looked: list[object] = []
    source.ready.connect(looked.append)
    # a signal while not yet done (a result for an older revision), then the one that is
    QTimer.singleShot(0, lambda: source.ready.emit("stale"))
    QTimer.singleShot(0, lambda: (published.append(True), source.ready.emit("current")))
    assert wait_for(lambda: bool(published), [source.ready], timeout_s=60.0)
    assert looked == ["stale", "current"]
    assert source.receivers(SIGNAL("ready(PyObject)")) == 1  # its own connection is gone: only ours is left


def test_wait_for_gives_up_at_its_deadline_and_at_once_when_already_done(qapp):  # noqa: ANN001
    from aicnet_gui.gui.app import wait_for

    source = _Source()
    assert wait_for(lambda: False, [source.ready], timeout_s=0) is False
    assert wait_for(lambda: True, [source.ready], timeout_s=0) is True
    assert source.receivers(SIGNAL("ready(PyObject)")) == 0
