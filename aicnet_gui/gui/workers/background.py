"""Run one pure-Python function in a background thread and hand its result to the GUI thread.

The function must not touch widgets or the live document (give it a snapshot or a document no
one else holds yet).  Its result or its exception comes back to the GUI thread, so slots run
there.  A function that raises never takes the window down: the exception object is delivered
to `failed`.

A job belongs to a window (its parent chain ends there) and the window may be closed or deleted
at any moment while the job runs.  So the worker thread never emits a signal of the job, nor of
anything the window owns: it emits on a private `_Courier`, a QObject that lives in the GUI
thread as a child of the application, which nothing but the application's end deletes while
the worker can still use it (the GUI thread joins the worker, whose last act is that emit,
before it `deleteLater`s the courier; a job still running when the application is destroyed
drops its outcome).  The courier's queued slot then, in the GUI thread, hands the result to the job only
if the job still exists (`shiboken6.isValid`, a QPointer-like check; the job is deleted with its
window) and was not `abandon`ed (a window abandons its jobs when it closes,
`abandon_jobs`).  So a closed or deleted window never receives a result, no slot of it runs,
the worker never sees a deleted object, and every thread ends on its own.

The job itself stays a child of its owner: a parentless job kept alive until delivery would
deliver into the lambdas a window connected to it, which capture the window, after the window
was deleted.  The courier keeps a job nobody holds alive until its result is delivered, and
keeps the function (with the snapshot it captured) only until then.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot

EXPECTED = (OSError, ValueError)
"""Exceptions that are the user's input (a bad file), not a bug: no traceback printed."""

_PROGRESS, _FINISHED, _FAILED = "progress", "finished", "failed"


class BackgroundJob(QObject):
    """`fn()` in a daemon thread; `finished(result)` or `failed(exception)` in the GUI thread.

    With `reports_progress=True` the function is called as `fn(progress)`, and each
    `progress(fraction, message)` it makes arrives as the `progress` signal.  Either way
    nothing arrives once the job is deleted (with its parent) or `abandon`ed; `cancel`, if
    given, is set when the job is abandoned (a function that polls it can stop early).
    """

    finished = Signal(object)
    failed = Signal(object)
    #: (fraction 0..1, message), only from a job made with reports_progress=True
    progress = Signal(float, str)
    #: `abandon` was called (in the GUI thread, at once): the owner's own clean-up, if any
    abandoned = Signal()

    def __init__(self, fn: Callable[..., Any], name: str = "aicnet-job",
                 parent: QObject | None = None, *, reports_progress: bool = False,
                 cancel: threading.Event | None = None) -> None:
        super().__init__(parent)
        self._fn: Callable[..., Any] | None = fn
        self._name = name
        self._reports_progress = reports_progress
        self._thread: threading.Thread | None = None
        self._abandoned = False
        self._cancel = cancel

    def start(self) -> None:
        fn, self._fn = self._fn, None
        if fn is None:
            raise RuntimeError(f"{self._name} was started already")
        courier = _Courier(self, fn)
        # the thread holds the function and the courier, never the job: the job belongs to
        # the GUI thread and may be deleted there at any time
        thread = threading.Thread(target=_work, args=(fn, courier, self._reports_progress),
                                  name=self._name, daemon=True)
        courier.worker = thread
        self._thread = thread
        thread.start()

    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Join the thread (tests and shutdown); True when it has ended."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def abandon(self) -> None:
        """Nobody wants the result any more (its window closed): whatever the thread still
        sends is dropped; the thread runs to its end on its own (it is a daemon)."""
        if self._abandoned:
            return
        self._abandoned = True
        if self._cancel is not None:
            self._cancel.set()
        self.abandoned.emit()

    def is_abandoned(self) -> bool:
        return self._abandoned


def abandon_jobs(owner: QObject) -> int:
    """Abandon every job `owner` or one of its descendants owns (a window closing); the
    number abandoned."""
    jobs = owner.findChildren(BackgroundJob)
    for job in jobs:
        job.abandon()
    return len(jobs)


def _send(courier: _Courier, kind: str, value: object) -> None:
    """Emit on the courier from the worker thread.  Only the application's end deletes a
    courier under a running worker (the app quit while a job ran): then nothing is left to
    deliver to, and the outcome is dropped instead of raising in the worker."""
    try:
        courier.sent.emit(kind, value)
    except RuntimeError:
        if shiboken6.isValid(courier):
            raise


def _work(fn: Callable[..., Any], courier: _Courier, reports_progress: bool) -> None:
    """The worker thread: call `fn`, send its outcome.  Sending is its last act."""
    try:
        result = fn(courier.progress) if reports_progress else fn()
    except BaseException as exc:  # noqa: BLE001 - delivered to the GUI thread, never lost
        if not isinstance(exc, EXPECTED):
            traceback.print_exc()
        _send(courier, _FAILED, exc)
        if not isinstance(exc, Exception):
            raise
    else:
        _send(courier, _FINISHED, result)


class _Courier(QObject):
    """Carries one job's messages from its worker thread to the GUI thread.

    A child of the application (so only Qt deletes it, never a Python reference dropped in
    the worker), living in the GUI thread; its queued slot runs there.  It holds the job's
    wrapper only to ask whether the job still exists, and the function so that its last
    reference is dropped in the GUI thread.
    """

    sent = Signal(str, object)

    def __init__(self, job: BackgroundJob, fn: Callable[..., Any]) -> None:
        app = QCoreApplication.instance()
        if app is None:
            raise RuntimeError("a BackgroundJob needs a QCoreApplication to deliver its result")
        super().__init__(app)
        if self.thread() != job.thread():
            raise RuntimeError("start a BackgroundJob in the GUI thread")
        self._job: BackgroundJob | None = job
        self._fn: Callable[..., Any] | None = fn
        self.worker: threading.Thread | None = None
        self.sent.connect(self._receive, Qt.ConnectionType.QueuedConnection)

    def progress(self, fraction: float, message: str) -> None:
        """The function's progress callback (worker thread)."""
        _send(self, _PROGRESS, (float(fraction), str(message)))

    def _wanted(self) -> BackgroundJob | None:
        job = self._job
        if job is None or not shiboken6.isValid(job) or job.is_abandoned():
            return None
        return job

    @Slot(str, object)
    def _receive(self, kind: str, value: object) -> None:
        if kind == _PROGRESS:
            job = self._wanted()
            if job is not None:
                job.progress.emit(*value)
            return
        # the outcome was the worker's last act: let it end, so that nothing of it can still
        # touch this courier (or anything else) when Qt deletes the courier
        if self.worker is not None:
            self.worker.join()
        job = self._wanted()
        self._job = self._fn = None
        self.deleteLater()
        if job is not None:
            (job.finished if kind == _FINISHED else job.failed).emit(value)
