"""The traffic model in the editor: always in a worker thread, with progress and cancel.

`TrafficRunner` is the Qt adapter of `editing/traffic_schedule.py`'s `TrafficSchedule` (when to
run, what is stale), as gui/validation.py is the live validation's: it follows the document's
edits and resets, runs `editing/traffic_run.run_traffic` on a `FabricDocument.snapshot()` in a
`BackgroundJob` (workers/background.py) with a cancel flag the model polls between steps, and
turns the schedule's decisions into signals.  Nothing of the run touches the live document or a
widget; a result for an older revision or another document is dropped, never shown.

The compute function is a parameter (`compute`), so a test can hold a run at a point of its
choosing.  `layout`, when given, is asked in the GUI thread as a run starts for the canvas's
cable order (a version and the link id of every row); the worker then also lays every picture's
loads out in that order (`editing.traffic_run.laid_out`), so that showing a result on a
300k-cable canvas costs a copy, not 300k lookups in the GUI thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from ..editing.schedule import Timer
from ..editing.traffic_run import laid_out, run_traffic
from ..editing.traffic_schedule import Outcome, TrafficKey, TrafficSchedule
from ..gc_control import gc_held
from ..traffic import Cancelled, UnknownWorkload
from ..traffic.flows import TooLarge
from .document import EditorDocument
from .validation import QtTimer, snapshot
from .workers.background import BackgroundJob

Compute = Callable[..., Any]
Layout = Callable[[], tuple[int, list[str | None]]]


class _Sink:
    """`editing.traffic_schedule.Sink` as the runner's signals."""

    def __init__(self, runner: TrafficRunner) -> None:
        self._runner = runner

    def status(self, text: str) -> None:
        self._runner.status.emit(text)

    def publish(self, outcome: Outcome) -> None:
        self._runner.result_ready.emit(outcome.run)

    def dropped(self, revision: int) -> None:
        self._runner.dropped.emit(revision)

    def failed(self, message: str) -> None:
        self._runner.failed.emit(message)


class TrafficRunner(QObject):
    """Keeps a traffic result (`TrafficRun`) for the wanted workload and the current document."""

    #: a TrafficRun for the wanted workload and the current revision
    result_ready = Signal(object)
    #: (fraction 0..1, what it does) while a run runs
    progress = Signal(float, str)
    #: a run started (True) or ended (False)
    busy = Signal(bool)
    #: "computing…", "cancelled", "" (a result is shown) ...
    status = Signal(str)
    #: a result for an older revision was thrown away (its revision)
    dropped = Signal(int)
    #: the model could not run (the message says why)
    failed = Signal(str)

    def __init__(self, document: EditorDocument, parent: QObject | None = None,
                 compute: Compute = run_traffic, layout: Layout | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.compute = compute
        self.layout = layout
        #: link ids the model takes as failed (the what-if's, while Failure Mode shows them)
        self.failed_links: frozenset[str] = frozenset()
        self._wanted: tuple[str | None, int] = (None, 0)
        self._job: BackgroundJob | None = None
        self._cancel: threading.Event | None = None
        self.schedule = TrafficSchedule(self, _Sink(self), self._timer)
        document.changed.connect(self.schedule.changed)
        document.reset.connect(self.schedule.reset)

    def _timer(self, callback: Callable[[], None]) -> Timer:
        return QtTimer(callback, self)

    # ---------------------------------------------------------------- the dock's side
    def want(self, workload_id: str | None, seeds: int) -> None:
        """Compute this workload with so many ECMP draws (None: nothing)."""
        self._wanted = (workload_id, seeds)
        self.schedule.want(TrafficKey(workload_id, seeds, self.failed_links)
                           if workload_id else None)

    def set_active(self, active: bool) -> None:
        self.schedule.set_active(active)

    def run_now(self) -> None:
        self.schedule.run_now()

    def cancel(self) -> None:
        self.schedule.cancel()

    def running(self) -> bool:
        return self._job is not None

    def current(self) -> bool:
        return self.schedule.current()

    @property
    def result(self) -> Any:
        """The TrafficRun shown last (possibly of an older revision: see `current`)."""
        shown = self.schedule.shown
        return shown.run if shown is not None else None

    def set_failed_links(self, links: frozenset[str]) -> None:
        """Links down for the model (Failure Mode): another key, computed when looked at."""
        if links != self.failed_links:
            self.failed_links = frozenset(links)
            self.want(*self._wanted)

    # ---------------------------------------------------------------- the schedule's Work
    def revision(self) -> int:
        return self.document.fabric.revision

    def start(self, key: TrafficKey, revision: int, generation: int) -> None:
        snap = snapshot(self.document.fabric)
        cancel = threading.Event()
        compute = self.compute
        order = self.layout() if self.layout is not None else None

        def work(progress: Callable[[float, str], None]) -> Outcome:
            # the collector's passes over the window's million objects hold the interpreter
            # lock for ~0.1 s each: none while the model builds its columns (it makes no cycles)
            with gc_held():
                run = compute(snap, key.workload_id, key.seeds, progress, cancel.is_set,
                              key.failed)
                if order is not None:
                    run = laid_out(run, *order)
            return Outcome(key, revision, generation, run)

        job = BackgroundJob(work, "aicnet-traffic", self, reports_progress=True, cancel=cancel)
        job.progress.connect(self.progress)
        job.finished.connect(self._on_done)
        job.failed.connect(self._on_failed)
        self._job, self._cancel = job, cancel
        self.busy.emit(True)
        job.start()

    def stop(self) -> None:
        if self._cancel is not None:
            self._cancel.set()

    def _ended(self) -> None:
        job, self._job, self._cancel = self._job, None, None
        if job is not None:
            job.deleteLater()
        self.busy.emit(False)

    def _on_done(self, outcome: Outcome) -> None:
        self._ended()
        self.schedule.done(outcome)

    def _on_failed(self, exc: object) -> None:
        self._ended()
        if isinstance(exc, Cancelled):
            self.schedule.failed(None)
        elif isinstance(exc, UnknownWorkload):
            self.schedule.failed(f"traffic model: the design has no workload {exc.args[0]!r}")
        elif isinstance(exc, TooLarge | ValueError):
            self.schedule.failed(f"traffic model: {exc}")
        else:
            self.schedule.failed(f"traffic model failed: {type(exc).__name__}: {exc}")

    def wait(self, timeout: float = 30.0) -> None:
        """Let a running job finish (tests, shutdown)."""
        if self._job is not None:
            self._job.wait(timeout)


__all__ = ["TrafficRunner"]
