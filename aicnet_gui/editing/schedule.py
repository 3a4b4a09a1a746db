"""When the live validation runs, without Qt: debounce, revisions, stale results dropped.

`ValidationSchedule` is the policy of the editor's live validator (`gui/validation.py` is its
thin Qt adapter):

- edits are collected (`changed`) for `DEBOUNCE_MS` before anything runs, so a burst of edits
  costs one run;
- a run is incremental (`Work.update`, in the caller's thread on the live document) unless a
  full run is needed: no analyzer yet, a settings change or a reset, more than
  `INCREMENTAL_MAX_IDS` ids, or an incremental run that failed;
- a full run is started (`Work.start_full`) and comes back later through `full_done` or
  `full_failed`; while it runs, edits only collect;
- every report carries the document revision it describes; one older than the document (edits
  arrived meanwhile) or from an older document generation (a new file replaced it) is dropped
  (`Sink.dropped`) and never shown;
- after a new document (`reset`) the first run waits `RESET_DELAY_MS`, or with
  `hold_after_reset` for `resume()` (at most `RESET_MAX_DELAY_MS`).

Time comes from a `Timer` made by the factory the schedule is given: a Qt timer in the window,
a `ManualClock`'s timers in tests (`tests/manual_clock.py`: time advances only when the test
says so), or `ImmediateTimer` in the synchronous mode, where a scheduled run happens at once, as
napari's slicer does with its synchronous flag.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..model.edits import ChangeSet

DEBOUNCE_MS = 120
RESET_DELAY_MS = 300
"""After a new document: let the window draw it first (the worker competes for the GIL)."""
RESET_MAX_DELAY_MS = 3000
"""With `hold_after_reset`: the longest a new document waits for `resume()`."""
GRAPH_DEBOUNCE_MS = 700
"""After an edit that rewired a big fabric: when the full run recomputes the bisection."""
INCREMENTAL_MAX_IDS = 2000


class Timer(Protocol):
    """A single-shot timer that calls the callback it was made with."""

    def start(self, delay_ms: int) -> None: ...
    def stop(self) -> None: ...
    def is_active(self) -> bool: ...


TimerFactory = Callable[[Callable[[], None]], Timer]


class Report(Protocol):
    """What the schedule reads of an analysis report."""

    revision: int
    duration_ms: float
    graph_pending: bool


class FullOutcome(Protocol):
    """A finished full run: the document generation it started in, its analyzer and report."""

    generation: int
    analyzer: Any
    report: Any


class Work(Protocol):
    """What runs: the adapter's side of the schedule."""

    def revision(self) -> int:
        """The live document's revision now."""
        ...

    def update(self, analyzer: Any, changes: ChangeSet) -> Report:
        """An incremental run of `analyzer` over `changes` (may raise)."""
        ...

    def start_full(self, generation: int) -> None:
        """Start a full run; it ends in `full_done` or `full_failed` of the schedule."""
        ...

    def adopt(self, outcome: FullOutcome) -> None:
        """A full run's analyzer of the current document is taken over (keep what else it
        brought, e.g. a bill of materials)."""
        ...


class Sink(Protocol):
    """Where the schedule's results go."""

    def status(self, text: str) -> None: ...
    def publish(self, report: Any) -> None: ...
    def dropped(self, revision: int) -> None: ...
    def failed(self, message: str) -> None: ...


def changed_ids(changes: ChangeSet) -> int:
    return len(changes.devices) + len(changes.links) + len(changes.racks) + len(changes.workloads)


class ValidationSchedule:
    """Keeps the published report in step with the document's revision."""

    def __init__(self, work: Work, sink: Sink, make_timer: TimerFactory) -> None:
        self.work = work
        self.sink = sink
        self.timer = make_timer(self.run)
        #: an analyzer from the last full run of this document (None: the next run is full)
        self.analyzer: Any = None
        #: the last report published (describes `report.revision`)
        self.report: Any = None
        self.enabled = True
        #: after a reset, wait for `resume()` instead of RESET_DELAY_MS (at most RESET_MAX_DELAY_MS)
        self.hold_after_reset = False
        self.generation = 0
        self.full_running = False
        self._held = False
        self._pending = ChangeSet()
        self._need_full = True

    def current(self) -> bool:
        """True when `report` describes the document as it is now."""
        return self.report is not None and self.report.revision == self.work.revision()

    # ---------------------------------------------------------------- following the document
    def reset(self) -> None:
        """A new document (new, open, revert): forget everything, a full run follows."""
        self.generation += 1
        self.analyzer = None
        self.report = None
        self._pending = ChangeSet()
        self._need_full = True
        self._held = self.hold_after_reset
        self._schedule(RESET_MAX_DELAY_MS if self._held else RESET_DELAY_MS)

    def resume(self) -> None:
        """The window has drawn the new document: start the run its reset scheduled now."""
        if self._held:
            self._held = False
            if self.timer.is_active():
                self.timer.start(0)

    def changed(self, changes: ChangeSet) -> None:
        """One applied edit: collect it, run after the debounce."""
        self._held = False
        self._pending.merge(changes)
        if changes.settings or changes.reset:
            self._need_full = True
        self._schedule(DEBOUNCE_MS)

    def revalidate(self) -> None:
        """Run everything again from scratch (View ▸ Validate Now)."""
        self._held = False
        self._need_full = True
        self._schedule(0)

    def _schedule(self, delay: int) -> None:
        if not self.enabled:
            return
        self.sink.status("validating…")
        self.timer.start(delay)

    # ---------------------------------------------------------------- running
    def run(self) -> None:
        """Bring the report up to the document's revision (the timer calls this)."""
        self.timer.stop()
        if self.full_running:
            return  # the full run's result continues from here
        if (self._need_full or self.analyzer is None
                or changed_ids(self._pending) > INCREMENTAL_MAX_IDS):
            self._start_full()
            return
        if not self._pending:
            return
        changes, self._pending = self._pending, ChangeSet()
        try:
            report = self.work.update(self.analyzer, changes)
        except Exception as exc:  # noqa: BLE001 - the analysis crashed: recover with a full run
            self.sink.failed(f"incremental validation failed ({type(exc).__name__}: {exc}); "
                             "running a full validation")
            self._need_full = True
            self._schedule(0)
            return
        self._publish(report)
        if report.graph_pending:
            # the max-flow bisection of the rewired fabric: a full run once the edits have
            # settled (the incremental report above is shown meanwhile)
            self._need_full = True
            self.timer.start(GRAPH_DEBOUNCE_MS)

    def _start_full(self) -> None:
        self._pending = ChangeSet()
        self._need_full = False
        self.full_running = True
        self.work.start_full(self.generation)

    def full_done(self, outcome: FullOutcome) -> None:
        """A full run ended: adopt its analyzer, publish its report unless it is stale."""
        self.full_running = False
        if outcome.generation != self.generation:
            self.sink.dropped(outcome.report.revision)  # a new document replaced that one
            self._schedule(0)
            return
        self.analyzer = outcome.analyzer
        self.work.adopt(outcome)
        if self._pending or self._need_full:
            # edits arrived while the full run ran: its report is stale; catch up from it
            self.sink.dropped(outcome.report.revision)
            self.run()
            return
        self._publish(outcome.report)

    def full_failed(self, message: str) -> None:
        self.full_running = False
        self.sink.failed(message)
        self.sink.status("validation failed")
        if self._pending:
            self._need_full = True
            self._schedule(DEBOUNCE_MS)

    def accept(self, report: Report) -> bool:
        """Publish `report` if it describes the current revision, else drop it (a result that
        arrives late).  True when it was published."""
        if report.revision != self.work.revision():
            self.sink.dropped(report.revision)
            return False
        self._publish(report)
        return True

    def _publish(self, report: Report) -> None:
        if report.revision != self.work.revision():
            self.sink.dropped(report.revision)
            return
        self.report = report
        pending = (" (bisection, islands and worst path being recomputed)"
                   if report.graph_pending else "")
        self.sink.status(f"validated in {report.duration_ms:.0f} ms{pending}")
        self.sink.publish(report)


# -------------------------------------------------------------------- timers without Qt
class ImmediateTimer:
    """The synchronous mode: a started timer fires at once, in the caller's thread.  A start
    from inside the callback fires after it returns (no recursion)."""

    def __init__(self, callback: Callable[[], None]) -> None:
        self._callback = callback
        self._armed = False
        self._firing = False

    def start(self, delay_ms: int) -> None:
        self._armed = True
        if self._firing:
            return
        self._firing = True
        try:
            while self._armed:
                self._armed = False
                self._callback()
        finally:
            self._firing = False

    def stop(self) -> None:
        self._armed = False

    def is_active(self) -> bool:
        return self._armed
