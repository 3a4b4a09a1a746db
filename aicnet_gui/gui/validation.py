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
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from ..analysis import AnalysisReport, Analyzer, Bom, Rule, compute_bom
from ..gc_control import freeze_survivors, gc_held
from ..model.document import FabricDocument
from ..model.edits import ChangeSet
from .document import EditorDocument
from .workers.background import BackgroundJob

DEBOUNCE_MS = 120
RESET_DELAY_MS = 300
"""After a new document: let the window draw it first (the worker competes for the GIL)."""
RESET_MAX_DELAY_MS = 3000
"""With `hold_after_reset`: the longest a new document waits for `resume()`."""
BOM_DEBOUNCE_MS = 700
GRAPH_DEBOUNCE_MS = 700
"""After an edit that rewired a big fabric: when the worker recomputes the bisection."""
INCREMENTAL_MAX_IDS = 2000


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


def _changed_ids(changes: ChangeSet) -> int:
    return len(changes.devices) + len(changes.links) + len(changes.racks) + len(changes.workloads)


class LiveValidator(QObject):
    """Keeps an `AnalysisReport` (and a `Bom`) for the current revision of the open document."""

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
                 rules: Sequence[Rule] | None = None) -> None:
        super().__init__(parent)
        self.document = document
        #: the rules to run (None: the analysis's DEFAULT_RULES); tests inject failing rules here
        self.rules: Sequence[Rule] | None = rules
        self.analyzer: Analyzer | None = None
        self.report: AnalysisReport | None = None
        self.bom: Bom | None = None
        self.bom_enabled = False
        self.enabled = True
        #: after a reset, wait for `resume()` (the window drew the document) instead of
        #: RESET_DELAY_MS, but at most RESET_MAX_DELAY_MS
        self.hold_after_reset = False
        self._held = False
        self._pending = ChangeSet()
        self._need_full = True
        self._generation = 0
        self._full_job: BackgroundJob | None = None
        self._bom_job: BackgroundJob | None = None
        self._bom_revision = -1
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.run)
        self._bom_timer = QTimer(self)
        self._bom_timer.setSingleShot(True)
        self._bom_timer.setInterval(BOM_DEBOUNCE_MS)
        self._bom_timer.timeout.connect(self._start_bom)
        document.changed.connect(self._on_changed)
        document.reset.connect(self._on_reset)

    # ---------------------------------------------------------------- state
    @property
    def doc(self) -> FabricDocument:
        return self.document.fabric

    def current(self) -> bool:
        """True when `report` describes the document as it is now."""
        return self.report is not None and self.report.revision == self.doc.revision

    # ---------------------------------------------------------------- following the document
    def _on_reset(self) -> None:
        self._generation += 1
        self.analyzer = None
        self.report = None
        self.bom = None
        self._bom_revision = -1
        self._pending = ChangeSet()
        self._need_full = True
        self._held = self.hold_after_reset
        self._schedule(RESET_MAX_DELAY_MS if self._held else RESET_DELAY_MS)

    def resume(self) -> None:
        """The window has drawn the new document: start the run its reset scheduled now."""
        if self._held:
            self._held = False
            if self._timer.isActive():
                self._timer.start(0)

    def _on_changed(self, changes: ChangeSet) -> None:
        self._held = False
        self._pending.merge(changes)
        if changes.settings or changes.reset:
            self._need_full = True
        self._schedule(DEBOUNCE_MS)

    def _schedule(self, delay: int) -> None:
        if not self.enabled:
            return
        self.status.emit("validating…")
        self._timer.start(delay)

    def revalidate(self) -> None:
        """Run everything again from scratch (View ▸ Validate Now)."""
        self._held = False
        self._need_full = True
        self._schedule(0)

    # ---------------------------------------------------------------- running
    def run(self) -> None:
        """Bring the report up to the document's revision (the debounce timer calls this)."""
        self._timer.stop()
        if self._full_job is not None:
            return  # the worker's result continues from here
        if (self._need_full or self.analyzer is None
                or _changed_ids(self._pending) > INCREMENTAL_MAX_IDS):
            self._start_full()
            return
        if not self._pending:
            return
        changes, self._pending = self._pending, ChangeSet()
        try:
            report = self.analyzer.update(changes, self.doc)
        except Exception as exc:  # noqa: BLE001 - the analysis crashed: recover with a full run
            self.failed.emit(f"incremental validation failed ({type(exc).__name__}: {exc}); "
                             "running a full validation")
            self._need_full = True
            self._schedule(0)
            return
        self._publish(report, report.duration_ms)
        if report.graph_pending:
            # the max-flow bisection of the rewired fabric: a full run in the worker, once the
            # edits have settled (the incremental report above is shown meanwhile)
            self._need_full = True
            self._timer.start(GRAPH_DEBOUNCE_MS)

    def _start_full(self) -> None:
        snap = self.document.take_snapshot() or snapshot(self.doc)
        self._pending = ChangeSet()
        self._need_full = False
        generation = self._generation
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

        job = BackgroundJob(work, "aicnet-validate", self)
        job.finished.connect(self._on_full_done)
        job.failed.connect(self._on_full_failed)
        self._full_job = job
        job.start()

    def _on_full_done(self, result: FullResult) -> None:
        self._full_job = None
        if result.generation != self._generation:
            self.dropped.emit(result.report.revision)  # a new document replaced that one
            self._schedule(0)
            return
        self.analyzer = result.analyzer
        self.analyzer.defer_graph = True
        freeze_survivors()  # the analyzer's state lives until the next full run (no reference cycles)
        if result.bom is not None:
            self._accept_bom(result.bom, result.report.revision)
        if self._pending or self._need_full:
            # edits arrived while the worker ran: this report is stale; catch up from it
            self.dropped.emit(result.report.revision)
            self.run()
            return
        self._publish(result.report, result.report.duration_ms)

    def _on_full_failed(self, exc: object) -> None:
        self._full_job = None
        self.failed.emit(f"validation failed: {type(exc).__name__}: {exc}")
        self.status.emit("validation failed")
        if self._pending:
            self._need_full = True
            self._schedule(DEBOUNCE_MS)

    def _publish(self, report: AnalysisReport, ms: float) -> None:
        if report.revision != self.doc.revision:
            self.dropped.emit(report.revision)
            return
        self.report = report
        pending = " (bisection, islands and worst path being recomputed)" if report.graph_pending else ""
        self.status.emit(f"validated in {ms:.0f} ms{pending}")
        self.report_ready.emit(report)
        if self.bom_enabled and self._bom_revision != report.revision:
            self._bom_timer.start()

    def accept_report(self, report: AnalysisReport) -> bool:
        """Show `report` if it describes the current revision; drop it otherwise (a result that
        arrives late).  True when it was shown."""
        if report.revision != self.doc.revision:
            self.dropped.emit(report.revision)
            return False
        self._publish(report, report.duration_ms)
        return True

    # ---------------------------------------------------------------- bill of materials
    def set_bom_enabled(self, enabled: bool) -> None:
        """The BOM costs ~2 s at 100k cables: only while someone looks at it."""
        self.bom_enabled = enabled
        if enabled and self._bom_revision != self.doc.revision:
            self._bom_timer.start(0 if self._bom_revision < 0 else BOM_DEBOUNCE_MS)

    def _start_bom(self) -> None:
        if self._bom_job is not None:
            self._bom_timer.start()  # one at a time; try again after the running one
            return
        if not self.bom_enabled or self._bom_revision == self.doc.revision:
            return
        snap = snapshot(self.doc)
        generation = self._generation
        job = BackgroundJob(lambda: (generation, snap.revision, compute_bom(snap)), "aicnet-bom", self)
        job.finished.connect(self._on_bom_done)
        job.failed.connect(self._on_bom_failed)
        self._bom_job = job
        job.start()

    def _on_bom_done(self, result: tuple[int, int, Bom]) -> None:
        self._bom_job = None
        generation, revision, bom = result
        if generation == self._generation:
            self._accept_bom(bom, revision)

    def _on_bom_failed(self, exc: object) -> None:
        self._bom_job = None
        self.failed.emit(f"bill of materials failed: {type(exc).__name__}: {exc}")

    def _accept_bom(self, bom: Bom, revision: int) -> None:
        if revision != self.doc.revision:
            self.dropped.emit(revision)
            if self.bom_enabled:
                self._bom_timer.start()
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
