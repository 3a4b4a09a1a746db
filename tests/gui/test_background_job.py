"""A background job whose owner is gone before it ends (or while it hands its result over) gives
its result to no one, quietly; nothing is deleted under its worker thread."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import weakref

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QWidget

from aicnet_gui.gui.workers.background import BackgroundJob


@pytest.mark.parametrize("outcome", ["result", "error"])
def test_a_job_outliving_its_owner_ends_without_an_exception_in_its_thread(qapp, outcome):
    release = threading.Event()
    raised: list[BaseException] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: raised.append(args.exc_value)

    def work() -> int:
        release.wait(10)
        if outcome == "error":
            raise ValueError("the file went away")
        return 42

    try:
        job = BackgroundJob(work, name="aicnet-test-job")
        job.start()
        thread = job._thread
        shiboken6.delete(job)  # the window closed while the job ran
        release.set()
        thread.join(10)
    finally:
        threading.excepthook = previous
    assert not thread.is_alive()
    assert raised == []


def test_a_job_delivers_its_result_to_a_live_owner(qtbot):
    job = BackgroundJob(lambda: 42, name="aicnet-test-job")
    with qtbot.waitSignal(job.finished, timeout=10_000) as blocker:
        job.start()
    assert blocker.args == [42]


def _flush() -> None:
    """Deliver what is queued for the GUI thread, deferred deletes included."""
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, 0)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        QCoreApplication.processEvents()


class _Owner(QWidget):
    """Stands in for a window: a slot that takes the job's result."""

    def __init__(self) -> None:
        super().__init__()
        self.results: list[object] = []

    def take(self, value: object) -> None:
        self.results.append((value, self.windowTitle()))


def test_a_window_deleted_while_its_worker_is_inside_emit_deletes_nothing_under_it(qapp):
    """The worker is held inside its emit (a direct connection runs in its thread) while the
    GUI thread deletes the window and its job: what it emits on is not the job and is still
    there; the result reaches no one; the thread ends and the go-between is deleted after."""
    from aicnet_gui.gui.workers.background import _Courier

    owner, ran = _Owner(), []
    go, inside, release = threading.Event(), threading.Event(), threading.Event()
    job = BackgroundJob(lambda: go.wait(30) and 42, "aicnet-test-job", owner)
    job.finished.connect(owner.take)
    job.finished.connect(lambda value: ran.append(owner.windowTitle()))

    def held_inside_emit(*_args: object) -> None:
        inside.set()
        release.wait(30)

    job.start()
    (courier,) = [c for c in qapp.findChildren(_Courier) if c.worker is job._thread]
    courier.sent.connect(held_inside_emit, Qt.ConnectionType.DirectConnection)
    thread = job._thread
    go.set()
    # no events are processed until the worker is let go: the result must not arrive yet
    assert inside.wait(30)
    shiboken6.delete(owner)  # the window, and with it the job, while the worker emits
    gc.collect()
    assert shiboken6.isValid(courier)  # the object the worker is inside is intact
    release.set()
    thread.join(30)
    assert not thread.is_alive()
    _flush()
    gc.collect()
    assert ran == []
    assert not shiboken6.isValid(courier)  # delivered (to no one) and deleted: nothing leaks


RACE = """
import random, sys, threading
import shiboken6
from PySide6.QtWidgets import QApplication, QWidget
from aicnet_gui.gui.workers.background import BackgroundJob

app = QApplication([])
ran, raised, threads = [], [], []
threading.excepthook = lambda args: raised.append(args.exc_value)
for i in range({n}):
    owner = QWidget()
    job = BackgroundJob(lambda: i, "aicnet-race", owner)
    job.finished.connect(lambda value, owner=owner: ran.append(owner.windowTitle()))
    job.start()
    threads.append(job._thread)
    for _ in range(random.randrange(3000)):  # delete at some point of the worker's run or emit
        pass
    shiboken6.delete(owner)
    del owner, job
    if i % 50 == 0:
        app.processEvents()
for thread in threads:
    thread.join()
app.processEvents()
print("ok", len(ran), len(raised))
"""


def test_windows_deleted_at_any_moment_of_their_jobs_never_crash_the_process(tmp_path):
    """Many owners deleted right after their job starts, so the deletion falls anywhere in the
    worker's run, including its emit (which crashed the process: a deleted sender).  In a child
    process, so a crash is a failure here, not the end of the suite."""
    script = tmp_path / "race.py"
    script.write_text(RACE.format(n=1000), encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["ok", "0", "0"]


def test_an_abandoned_job_delivers_nothing_and_tells_its_function_to_stop(qtbot):
    cancel, gate = threading.Event(), threading.Event()
    got: list[object] = []

    def work(progress) -> int:  # noqa: ANN001
        progress(0.5, "half")
        gate.wait(30)
        return 42

    job = BackgroundJob(work, "aicnet-test-job", reports_progress=True, cancel=cancel)
    for signal in (job.finished, job.failed, job.progress):
        signal.connect(lambda *args: got.append(args))
    with qtbot.waitSignal(job.abandoned, timeout=1000):
        job.start()
        job.abandon()
    assert cancel.is_set()
    gate.set()
    assert job.wait(30)
    _flush()
    assert got == []


def test_a_job_nobody_holds_still_delivers_and_its_thread_has_ended_by_then(qtbot):
    got: list[tuple[object, threading.Thread, bool]] = []
    job = BackgroundJob(lambda: 42, "aicnet-test-job")
    job.finished.connect(lambda value: got.append((value, threading.current_thread(),
                                                   worker.is_alive())))
    job.start()
    worker = job._thread
    del job
    gc.collect()
    qtbot.waitUntil(lambda: len(got) == 1, timeout=10_000)
    assert got == [(42, threading.main_thread(), False)]


def test_a_finished_job_lets_go_of_its_function_and_what_it_holds(qtbot):
    """A job stays with its owner until the window goes: what its function captured (a
    snapshot of the whole design, for the validation) must not stay with it."""

    class Snapshot:
        pass

    owner = _Owner()
    snap = Snapshot()
    alive = weakref.ref(snap)
    job = BackgroundJob(lambda s=snap: type(s).__name__, "aicnet-test-job", owner)
    del snap
    with qtbot.waitSignal(job.finished, timeout=10_000) as blocker:
        job.start()
    _flush()
    gc.collect()
    assert blocker.args == ["Snapshot"]
    assert shiboken6.isValid(job)
    assert alive() is None
    shiboken6.delete(owner)


APP_GONE = """
import threading
import shiboken6
from PySide6.QtCore import QCoreApplication, QObject
from aicnet_gui.gui.workers.background import BackgroundJob

app = QCoreApplication([])
raised = []
threading.excepthook = lambda args: raised.append(repr(args.exc_value))
owner = QObject()
release = threading.Event()
job = BackgroundJob(lambda: release.wait(30) and "done", "aicnet-app-gone", owner)
job.start()
thread = job._thread
shiboken6.delete(owner)
shiboken6.delete(app)  # the application ends while the job still runs
release.set()
thread.join(30)
print("ok", thread.is_alive(), raised)
"""


def test_a_job_still_running_when_the_application_ends_drops_its_result_quietly(tmp_path):
    """The courier dies with the application; the worker's last emit must not raise
    "Signal source has been deleted" in its thread (review finding)."""
    script = tmp_path / "gone.py"
    script.write_text(APP_GONE, encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok False []", done.stdout + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
