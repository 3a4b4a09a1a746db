"""Live validation: the analysis follows every edit without ever blocking the window.

Design, from measurements on the 4,096-server fabric (98k cables, this 2-vCPU machine):

- a full analysis (`Analyzer.full`, ~0.4 s) and the bill of materials (`compute_bom`, ~2 s) run
  in a background thread on `FabricDocument.snapshot()` (~30 ms with the collector paused, taken
  in the GUI thread), never on the live document;
- an incremental update after one edit (`Analyzer.update`, 1-3 ms) runs in the GUI thread on the
  live document once the analyzer from the last full run has been handed over: cheaper than a
  snapshot, and it keeps the results exactly in step with the undo stack.  Large change sets
  (more than `INCREMENTAL_MAX_IDS` ids, e.g. a generator run) and settings changes go back to a
  full run in the worker;
- edits are collected for `DEBOUNCE_MS` before anything runs, so a burst of edits costs one run;
- every result carries the document revision it describes; one older than the document (edits
  arrived while the worker ran, or a new file replaced the document) is dropped and never shown;
- after a new document the first full run waits until the window has drawn it (`hold_after_reset`
  and `resume()`, at most `RESET_MAX_DELAY_MS`): the worker would compete with the first frame
  and the scene's item building for the GIL.

The window shows "validating…" from the first edit until a current report arrives, then
"validated in N ms" (`status`).

When to run and what is stale is decided without Qt by `editing/schedule.py`'s
`ValidationSchedule` (tested there with a manual clock); this module is its Qt adapter: timers,
worker threads, signals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from ..analysis import AnalysisReport, Analyzer, Bom, Rule, compute_bom
from ..editing.schedule import (
    DEBOUNCE_MS,
    GRAPH_DEBOUNCE_MS,
    INCREMENTAL_MAX_IDS,
    RESET_DELAY_MS,
    RESET_MAX_DELAY_MS,
    ImmediateTimer,
    Timer,
    ValidationSchedule,
)
from ..gc_control import freeze_survivors, gc_held
from ..model.document import FabricDocument
from ..model.edits import ChangeSet
from .document import EditorDocument
from .workers.background import BackgroundJob

__all__ = ["BOM_DEBOUNCE_MS", "DEBOUNCE_MS", "GRAPH_DEBOUNCE_MS", "INCREMENTAL_MAX_IDS",
           "RESET_DELAY_MS", "RESET_MAX_DELAY_MS", "FullResult", "LiveValidator", "snapshot"]

BOM_DEBOUNCE_MS = 700


def snapshot(doc: FabricDocument) -> FabricDocument:
    with gc_held():  # copying large tables makes no cycles
        return doc.snapshot()


@dataclass
class FullResult:
    generation: int
    analyzer: Analyzer
    report: AnalysisReport
    bom: Bom | None
    elapsed_ms: float


def warm_up(analyzer: Analyzer) -> None:
    """Build the lazy link-id index the first incremental update would otherwise build in the
    GUI thread (~50 ms at 100k links)."""
    store = getattr(getattr(analyzer, "state", None), "store", None)
    if store is not None and hasattr(type(store), "link_row"):
        getattr(store, "link_row", None)


class QtTimer:
    """`editing.schedule.Timer` over a single-shot QTimer (fires in the GUI thread)."""

    def __init__(self, callback: Callable[[], None], parent: QObject) -> None:
        self._timer = QTimer(parent)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(callback)

    def start(self, delay_ms: int) -> None:
        self._timer.start(delay_ms)

    def stop(self) -> None:
        self._timer.stop()

    def is_active(self) -> bool:
        return self._timer.isActive()


class _SignalSink:
    """`editing.schedule.Sink`: the schedule's results as the validator's signals."""

    def __init__(self, validator: LiveValidator) -> None:
        self._validator = validator

    def status(self, text: str) -> None:
        self._validator.status.emit(text)

    def publish(self, report: AnalysisReport) -> None:
        self._validator._published(report)  # noqa: SLF001 - the validator's own helper

    def dropped(self, revision: int) -> None:
        self._validator.dropped.emit(revision)

    def failed(self, message: str) -> None:
        self._validator.failed.emit(message)


class LiveValidator(QObject):
    """Keeps an `AnalysisReport` (and a `Bom`) for the current revision of the open document.

    The Qt side of `editing.schedule.ValidationSchedule`: it turns the document's signals into
    the schedule's calls, runs full analyses and bills of materials in a `BackgroundJob` on a
    snapshot, and turns the schedule's results into signals.  `synchronous=True` (tests) runs
    everything at once in the calling thread: no timer, no worker.
    """

    #: a report for the current document revision
    report_ready = Signal(object)
    #: a bill of materials for the current document revision
    bom_ready = Signal(object)
    #: the text for the status bar ("validating…", "validated in 12 ms")
    status = Signal(str)
    #: a result for an older revision was thrown away (its revision)
    dropped = Signal(int)
    #: the analysis itself failed (not one rule: those become INTERNAL-ERROR findings)
    failed = Signal(str)

    def __init__(self, document: EditorDocument, parent: QObject | None = None,
                 rules: Sequence[Rule] | None = None, synchronous: bool = False) -> None:
        super().__init__(parent)
        self.document = document
        #: the rules to run (None: the analysis's DEFAULT_RULES); tests inject failing rules here
        self.rules: Sequence[Rule] | None = rules
        self.synchronous = synchronous
        self.bom: Bom | None = None
        self.bom_enabled = False
        self._full_job: BackgroundJob | None = None
        self._bom_job: BackgroundJob | None = None
        self._bom_revision = -1
        self.schedule = ValidationSchedule(self, _SignalSink(self), self._timer)
        self._bom_timer = self._timer(self._start_bom)
        document.changed.connect(self.schedule.changed)
        document.reset.connect(self._on_reset)

    def _timer(self, callback: Callable[[], None]) -> Timer:
        return ImmediateTimer(callback) if self.synchronous else QtTimer(callback, self)

    # ---------------------------------------------------------------- state
    @property
    def doc(self) -> FabricDocument:
        return self.document.fabric

    @property
    def analyzer(self) -> Analyzer | None:
        return self.schedule.analyzer

    @property
    def report(self) -> AnalysisReport | None:
        return self.schedule.report

    @property
    def enabled(self) -> bool:
        return self.schedule.enabled

    @enabled.setter
    def enabled(self, value: bool) -> None:
        self.schedule.enabled = value

    @property
    def hold_after_reset(self) -> bool:
        return self.schedule.hold_after_reset

    @hold_after_reset.setter
    def hold_after_reset(self, value: bool) -> None:
        self.schedule.hold_after_reset = value

    def current(self) -> bool:
        """True when `report` describes the document as it is now."""
        return self.schedule.current()

    # ---------------------------------------------------------------- following the document
    def _on_reset(self) -> None:
        self.bom = None
        self._bom_revision = -1
        self.schedule.reset()

    def resume(self) -> None:
        """The window has drawn the new document: start the run its reset scheduled now."""
        self.schedule.resume()

    def revalidate(self) -> None:
        """Run everything again from scratch (View ▸ Validate Now)."""
        self.schedule.revalidate()

    def run(self) -> None:
        """Bring the report up to the document's revision now (the debounce timer calls this)."""
        self.schedule.run()

    def accept_report(self, report: AnalysisReport) -> bool:
        """Show `report` if it describes the current revision; drop it otherwise (a result that
        arrives late).  True when it was shown."""
        return self.schedule.accept(report)

    # ---------------------------------------------------------------- the schedule's Work
    def revision(self) -> int:
        return self.doc.revision

    def update(self, analyzer: Analyzer, changes: ChangeSet) -> AnalysisReport:
        return analyzer.update(changes, self.doc)

    def start_full(self, generation: int) -> None:
        snap = self.document.take_snapshot() or snapshot(self.doc)
        rules = self.rules
        with_bom = self.bom_enabled

        def work() -> FullResult:
            start = time.perf_counter()
            analyzer = Analyzer(snap, rules)
            report = analyzer.full()
            warm_up(analyzer)
            bom = compute_bom(snap) if with_bom else None
            return FullResult(generation, analyzer, report, bom,
                              (time.perf_counter() - start) * 1000)

        if self.synchronous:
            try:
                result = work()
            except Exception as exc:  # noqa: BLE001 - reported like a worker's failure
                self._on_full_failed(exc)
            else:
                self._on_full_done(result)
            return
        job = BackgroundJob(work, "aicnet-validate", self)
        job.finished.connect(self._on_full_done)
        job.failed.connect(self._on_full_failed)
        self._full_job = job
        job.start()

    def _on_full_done(self, result: FullResult) -> None:
        self._full_job = None
        self.schedule.full_done(result)

    def _on_full_failed(self, exc: object) -> None:
        self._full_job = None
        self.schedule.full_failed(f"validation failed: {type(exc).__name__}: {exc}")

    def adopt(self, outcome: FullResult) -> None:
        outcome.analyzer.defer_graph = True
        freeze_survivors()  # the analyzer's state lives until the next full run (no reference cycles)
        if outcome.bom is not None:
            self._accept_bom(outcome.bom, outcome.report.revision)

    def _published(self, report: AnalysisReport) -> None:
        self.report_ready.emit(report)
        if self.bom_enabled and self._bom_revision != report.revision:
            self._bom_timer.start(BOM_DEBOUNCE_MS)

    # ---------------------------------------------------------------- bill of materials
    def set_bom_enabled(self, enabled: bool) -> None:
        """The BOM costs ~2 s at 100k cables: only while someone looks at it."""
        self.bom_enabled = enabled
        if enabled and self._bom_revision != self.doc.revision:
            self._bom_timer.start(0 if self._bom_revision < 0 else BOM_DEBOUNCE_MS)

    def _start_bom(self) -> None:
        if self._bom_job is not None:
            self._bom_timer.start(BOM_DEBOUNCE_MS)  # one at a time; try again after the running one
            return
        if not self.bom_enabled or self._bom_revision == self.doc.revision:
            return
        snap = snapshot(self.doc)
        generation = self.schedule.generation
        if self.synchronous:
            self._accept_bom(compute_bom(snap), snap.revision)
            return
        job = BackgroundJob(lambda: (generation, snap.revision, compute_bom(snap)), "aicnet-bom", self)
        job.finished.connect(self._on_bom_done)
        job.failed.connect(self._on_bom_failed)
        self._bom_job = job
        job.start()

    def _on_bom_done(self, result: tuple[int, int, Bom]) -> None:
        self._bom_job = None
        generation, revision, bom = result
        if generation == self.schedule.generation:
            self._accept_bom(bom, revision)

    def _on_bom_failed(self, exc: object) -> None:
        self._bom_job = None
        self.failed.emit(f"bill of materials failed: {type(exc).__name__}: {exc}")

    def _accept_bom(self, bom: Bom, revision: int) -> None:
        if revision != self.doc.revision:
            self.dropped.emit(revision)
            if self.bom_enabled:
                self._bom_timer.start(BOM_DEBOUNCE_MS)
            return
        self.bom = bom
        self._bom_revision = revision
        self.bom_ready.emit(bom)

    # ---------------------------------------------------------------- shutdown
    def wait(self, timeout: float = 10.0) -> None:
        """Let running workers finish (window close, tests)."""
        for job in (self._full_job, self._bom_job):
            if job is not None:
                job.wait(timeout)
