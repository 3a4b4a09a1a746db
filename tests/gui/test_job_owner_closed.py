"""A window closed or deleted while one of its background jobs runs, or while the job hands its
result over, never crashes and never raises; no slot of the closed window runs; the job's
thread ends on its own; the process survives a garbage collection afterwards.

Every kind of job a main window owns is covered: opening a file, the full validation, the bill
of materials, verify against as-built, compare, the failure what-if, the metrics dock's cable
lengths, the background autosave and an export.  Each job's work is held on a
`threading.Event` (`Gate`) so the window goes away at a chosen moment:

- "running": the worker is inside its function (for the validation and the autosave, which the
  window waits for while it closes, the function ends during that wait);
- "delivering": the worker has ended and its result is on its way to the GUI thread, not yet
  handed to the window.
"""

from __future__ import annotations

import gc
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QGuiApplication

from aicnet_gui.gui.workers.background import BackgroundJob

LEAF = "nvidia-sn5600"
OWNERS = ["open", "validate", "bom", "asbuilt", "compare", "whatif", "lengths", "autosave",
          "export"]


class Gate:
    """Holds worker threads inside their work until the test lets them go."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def hold(self) -> None:
        self.entered.set()
        if not self.release.wait(60):
            raise TimeoutError("the test never released the job")


class Spy:
    """Records the calls of the owner's slots (replaced on the instance before the job starts,
    so the connections made when it starts reach the record)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def wrap(self, obj: Any, *names: str) -> None:
        for name in names:
            original = getattr(obj, name)

            def spy(*args: Any, _name: str = name, _original: Any = original) -> Any:
                self.calls.append(_name)
                return _original(*args)

            setattr(obj, name, spy)

    def record(self, name: str):  # noqa: ANN201 - a slot for any signal
        return lambda *_args: self.calls.append(name)


def _flush() -> None:
    """Deliver everything queued for the GUI thread (results, deferred deletes)."""
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, 0)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        QCoreApplication.processEvents()


@pytest.fixture
def thread_errors():
    """Exceptions raised in any thread (a worker's emit on a deleted object raised here)."""
    raised: list[BaseException] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: raised.append(args.exc_value)
    yield raised
    threading.excepthook = previous


@pytest.fixture
def own_window(catalog, tmp_path, dialogs):  # noqa: ANN001, ANN201
    """A main window that the test itself closes and deletes (not handed to qtbot)."""
    from PySide6.QtCore import QSettings

    from aicnet_gui.gui.main_window import MainWindow

    made: list[Any] = []

    def make():  # noqa: ANN202
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(catalog=catalog, settings=settings)
        window.resize(1200, 800)
        window.show()
        made.append(window)
        return window

    yield make
    for window in made:
        if shiboken6.isValid(window):
            window.document.undo_stack.setClean()
            window.close()
            shiboken6.delete(window)
    while QGuiApplication.overrideCursor() is not None:  # an open cut short by a deletion
        QGuiApplication.restoreOverrideCursor()
    _flush()


def _start(owner: str, window, gate: Gate, spy: Spy, monkeypatch, qtbot, example_path: Path,  # noqa: ANN001, C901, PLR0913
           tmp_path: Path) -> None:
    """Start the `owner` job of `window`, held by `gate`; spy on the slots that take its result."""
    from aicnet_gui.gui import asbuilt_view, autosave, change_tools, file_commands, validation
    from aicnet_gui.gui.panels import metrics

    def held(fn):  # noqa: ANN001, ANN202
        def run(*args: Any, **kwargs: Any) -> Any:
            gate.hold()
            return fn(*args, **kwargs)
        return run

    if owner != "open":
        assert window.open_path(example_path, ask=False)
        qtbot.waitUntil(window.validator.current, timeout=30_000)
    if owner == "open":
        monkeypatch.setattr(file_commands, "load_for_editor", held(file_commands.load_for_editor))
        spy.wrap(window.files, "_on_loaded", "_on_load_failed")
        window.opened.connect(spy.record("opened"))
        window.open_failed.connect(spy.record("open_failed"))
        assert window.open_in_background(example_path, ask=False)
    elif owner == "validate":
        monkeypatch.setattr(validation, "Analyzer", held(validation.Analyzer))
        spy.wrap(window.validator, "_on_full_done", "_on_full_failed")
        window.validator.report_ready.connect(spy.record("report_ready"))
        window.validator.revalidate()
    elif owner == "bom":
        monkeypatch.setattr(validation, "compute_bom", held(validation.compute_bom))
        spy.wrap(window.validator, "_on_bom_done", "_on_bom_failed", "_on_full_done")
        window.validator.bom_ready.connect(spy.record("bom_ready"))
        window.validator.set_bom_enabled(True)
    elif owner == "asbuilt":
        monkeypatch.setattr(asbuilt_view, "read_observation", held(asbuilt_view.read_observation))
        spy.wrap(window.asbuilt, "_show")
        window.asbuilt.done.connect(spy.record("done"))
        window.asbuilt.start([tmp_path / "lldp.json"])  # never written: an error to show
    elif owner == "compare":
        monkeypatch.setattr(change_tools, "load_fabric", held(change_tools.load_fabric))
        spy.wrap(window.change_tools, "_compared")
        window.change_tools.compared.connect(spy.record("compared"))
        window.change_tools.compare_with(example_path)
    elif owner == "whatif":
        monkeypatch.setattr(change_tools, "WhatIf", held(change_tools.WhatIf))
        spy.wrap(window.change_tools, "_failed_over")
        window.change_tools.failed_over.connect(spy.record("failed_over"))
        window.select_ids(["gpu-001"], [], [])
        window.actions_by_name["whatif"].trigger()
    elif owner == "lengths":
        monkeypatch.setattr(metrics, "SYNC_LINKS", -1)  # as for a big fabric: in a worker
        report = window.validator.report

        class HeldReach:
            @property
            def summary(self) -> dict:
                gate.hold()
                return report.metrics.reach.summary

        held_report = SimpleNamespace(metrics=SimpleNamespace(reach=HeldReach()))
        spy.wrap(window.metrics, "_on_lengths")
        window.metrics._lengths_ready(held_report)
    elif owner == "autosave":
        monkeypatch.setattr(autosave, "BACKGROUND_LINKS", -1)  # as for a big fabric
        store = window.document.recovery

        class HeldStore:
            folder = store.folder
            discard = staticmethod(store.discard)
            write = staticmethod(held(store.write))

        window.document.recovery = HeldStore()
        window.autosaver.delay_ms = 10**6  # only the save started here
        window.editor.add_device(LEAF, (0, 0))
        spy.wrap(window.autosaver, "_report", "_report_failure")
        window.autosaver.saved.connect(spy.record("saved"))
        window.autosaver.save_now()
    elif owner == "export":
        from aicnet_gui.gui.dialogs.export_dialog import start_export
        from aicnet_gui.report import csv_exports as exporters

        monkeypatch.setattr(exporters, "export_csv", held(exporters.export_csv))
        shown = window.show_message
        window.show_message = lambda text, *a: (spy.calls.append("message")
                                                if "cables.csv" in text else None,
                                                shown(text, *a))
        job = start_export(window, "csv", str(tmp_path / "cables.csv"), None)
        for signal in ("finished", "failed", "progress"):
            getattr(job, signal).connect(spy.record(signal))
    qtbot.waitUntil(gate.entered.is_set, timeout=30_000)


def _release_when_the_window_waits(window, gate: Gate) -> None:  # noqa: ANN001
    """The window waits for its validation and autosave while it closes: let them end then."""
    for waiter in (window.validator, window.autosaver):
        wait = waiter.wait
        waiter.wait = lambda *a, _wait=wait: (gate.release.set(), _wait(*a))[1]


def _jobs_at(moment: str, window, gate: Gate, threads: list[threading.Thread]) -> None:  # noqa: ANN001
    """Bring the window's jobs to `moment`: "running" (held at the gate) or "delivering" (the
    result sent, queued for the GUI thread, not yet delivered); the document marked clean so
    that closing asks nothing."""
    if moment == "delivering":
        gate.release.set()
        for thread in threads:
            thread.join(60)
    window.document.undo_stack.setClean()


def _end(gate: Gate, threads: list[threading.Thread]) -> None:
    """Let every held job finish; each thread has ended."""
    gate.release.set()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)


def _job_threads(window) -> list[threading.Thread]:  # noqa: ANN001
    jobs = window.findChildren(BackgroundJob)
    return [job._thread for job in jobs if job._thread is not None]  # noqa: SLF001


@pytest.mark.parametrize("moment", ["running", "delivering"])
@pytest.mark.parametrize("owner", OWNERS)
def test_a_window_closed_then_deleted_during_a_job_runs_none_of_its_slots(
        owner, moment, own_window, qtbot, monkeypatch, example_path, tmp_path, thread_errors):
    window = own_window()
    gate, spy = Gate(), Spy()
    _start(owner, window, gate, spy, monkeypatch, qtbot, example_path, tmp_path)
    threads = _job_threads(window)
    recovery = window.document.recovery.folder
    _release_when_the_window_waits(window, gate)
    spy.calls.clear()
    _jobs_at(moment, window, gate, threads)
    assert window.close()
    _end(gate, threads)
    _flush()
    assert spy.calls == []  # closed: nothing of its jobs reached it
    assert sorted(recovery.glob("*.fabric")) == []  # closed cleanly: no recovery copy left
    shiboken6.delete(window)
    del window
    gc.collect()
    _flush()
    gc.collect()
    assert spy.calls == []
    assert thread_errors == []


@pytest.mark.parametrize("moment", ["running", "delivering"])
@pytest.mark.parametrize("owner", OWNERS)
def test_a_window_deleted_without_closing_during_a_job_survives_it(
        owner, moment, own_window, qtbot, monkeypatch, example_path, tmp_path, thread_errors):
    window = own_window()
    gate, spy = Gate(), Spy()
    _start(owner, window, gate, spy, monkeypatch, qtbot, example_path, tmp_path)
    threads = _job_threads(window)
    spy.calls.clear()
    _jobs_at(moment, window, gate, threads)
    shiboken6.delete(window)
    del window
    gc.collect()
    _end(gate, threads)
    _flush()
    gc.collect()
    _flush()
    assert spy.calls == []
    assert thread_errors == []


def test_an_autosave_cut_short_by_a_save_as_and_a_close_leaves_no_recovery_copy(
        own_window, qtbot, monkeypatch, example_path, tmp_path, thread_errors):
    """Its result is dropped with the closed window, so the document itself removes the copy
    it wrote under the name the design had before the save."""
    window = own_window()
    gate, spy = Gate(), Spy()
    _start("autosave", window, gate, spy, monkeypatch, qtbot, example_path, tmp_path)
    recovery = window.document.recovery.folder
    assert window._save_to(tmp_path / "renamed.fabric")  # the autosave still holds the old name
    _release_when_the_window_waits(window, gate)
    assert window.close()
    _flush()
    assert sorted(recovery.glob("*.fabric")) == []
    assert thread_errors == []
