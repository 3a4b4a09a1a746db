"""When the editor's traffic view computes, without Qt: on demand, after edits, one at a time.

The traffic model of a workload (editing/traffic_run.py) takes from a fraction of a second to
several seconds on a big design, so the editor runs it in a worker thread, and only while
someone looks: the Workloads dock on screen, or the canvas coloured by traffic load
(`set_active`).  `TrafficSchedule` is that policy; gui/traffic_runner.py is its Qt adapter
(timers, the worker thread, signals), as editing/schedule.py is the live validation's:

- what to compute is a `TrafficKey` (workload, ECMP draws, the cables taken as down), `want`ed
  by the dock;
- an edit (`changed`) makes the result stale: a run follows after `DEBOUNCE_MS` of quiet (a
  burst of edits costs one run); a running one is cancelled at once, its result could only be
  stale;
- one run at a time: a run due while another is still stopping waits for it to end;
- every result carries the document revision and generation it was computed for (`Outcome`);
  one older than the document, from a document since replaced, or for another key is dropped
  (`Sink.dropped`) and never shown;
- the user's Cancel (`cancel`) stops the run and pauses the automatic runs until `run_now`
  (the Run button), another key, or a new document;
- results for the current revision are kept per key, so going back to a workload shows it at
  once.

Time comes from the `Timer` factory (editing/schedule.py: Qt timers in the window, a
`ManualClock` in tests, tests/manual_clock.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..model.edits import ChangeSet
from .schedule import TimerFactory

DEBOUNCE_MS = 600
"""Quiet after an edit before the traffic model runs again (it costs seconds on a big design,
the validation's 120 ms would start and cancel it on every keystroke of a drag)."""
RESET_DELAY_MS = 1500
"""After a new document: the window draws it and the live validation runs first."""


@dataclass(frozen=True)
class TrafficKey:
    """What is computed: a workload, with so many ECMP draws, these cables down."""

    workload_id: str
    seeds: int
    failed: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Outcome:
    """A finished run: what it was for, and what it found (a `TrafficRun`)."""

    key: TrafficKey
    revision: int
    generation: int
    run: Any


class Work(Protocol):
    """The adapter's side: the document's revision, start and stop a run."""

    def revision(self) -> int: ...

    def start(self, key: TrafficKey, revision: int, generation: int) -> None:
        """Start a run; it ends in `done` or `failed` of the schedule."""

    def stop(self) -> None:
        """Ask the running run to stop (it ends in `failed` with a cancel, or `done`)."""


class Sink(Protocol):
    """Where the schedule's decisions go."""

    def status(self, text: str) -> None: ...
    def publish(self, outcome: Outcome) -> None: ...
    def dropped(self, revision: int) -> None: ...
    def failed(self, message: str) -> None: ...


class TrafficSchedule:
    """Keeps the traffic result of the wanted key in step with the document."""

    def __init__(self, work: Work, sink: Sink, make_timer: TimerFactory) -> None:
        self.work = work
        self.sink = sink
        self.timer = make_timer(self.run)
        self.key: TrafficKey | None = None
        self.active = False
        self.paused = False
        self.generation = 0
        #: the run in flight: (key, revision, generation), or None
        self.running: tuple[TrafficKey, int, int] | None = None
        self._stopping = False
        #: results of the current revision by key
        self.results: dict[TrafficKey, Outcome] = {}
        #: the result last published (may be of an older revision: shown as stale)
        self.shown: Outcome | None = None

    # ---------------------------------------------------------------- what is wanted
    def current(self) -> bool:
        """The result shown is for the wanted key and the document as it is now."""
        shown = self.shown
        return (shown is not None and shown.key == self.key
                and shown.revision == self.work.revision() and shown.generation == self.generation)

    def want(self, key: TrafficKey | None) -> None:
        """The dock's workload or draws changed (None: no workload)."""
        if key == self.key:
            return
        self.key = key
        self.paused = False
        if key is None:
            self._stop_running()
            self.sink.status("")
            return
        kept = self.results.get(key)
        if kept is not None and kept.revision == self.work.revision():
            self._publish(kept)
            return
        self._schedule(0)

    def set_active(self, active: bool) -> None:
        """Someone looks at the result (the dock on screen, the canvas coloured by it), or not."""
        if active == self.active:
            return
        self.active = active
        if active and not self.current():
            self._schedule(0)
        elif not active:
            self.timer.stop()

    # ---------------------------------------------------------------- the document
    def changed(self, changes: ChangeSet) -> None:
        """An edit: every result is stale; a run follows after the debounce."""
        if not changes:
            return
        self.results.clear()
        self._stop_running()
        self._schedule(DEBOUNCE_MS)

    def reset(self) -> None:
        """A new document: forget everything."""
        self.generation += 1
        self.results.clear()
        self.shown = None
        self.paused = False
        self._stop_running()
        self._schedule(RESET_DELAY_MS)

    # ---------------------------------------------------------------- the user
    def run_now(self) -> None:
        """The Run button: compute now (after a Cancel, or while no one looks)."""
        self.paused = False
        if not self.current():
            self._schedule(0, force=True)

    def cancel(self) -> None:
        """The Cancel button: stop the run, and run again only when asked."""
        self.timer.stop()
        self.paused = True
        if self.running is not None:
            self._stop_running()
            self.sink.status("cancelling…")
        else:
            self.sink.status("cancelled")

    # ---------------------------------------------------------------- running
    def _schedule(self, delay_ms: int, force: bool = False) -> None:
        if self.key is None or not (self.active or force) or (self.paused and not force):
            return
        self.sink.status("computing…" if delay_ms == 0 else "waiting for the edits to settle…")
        self.timer.start(delay_ms)

    def _stop_running(self) -> None:
        if self.running is not None and not self._stopping:
            self._stopping = True
            self.work.stop()

    def run(self) -> None:
        """Start the wanted run now (the timer calls this), or once the running one stopped."""
        self.timer.stop()
        key = self.key
        if key is None or self.current():
            return
        if self.running is not None:
            self._stop_running()  # its end starts the wanted one
            return
        revision = self.work.revision()
        self.running = (key, revision, self.generation)
        self._stopping = False
        self.work.start(key, revision, self.generation)

    def done(self, outcome: Outcome) -> None:
        """A run ended with a result: keep and show it unless it is stale."""
        self._ended()
        if (outcome.generation != self.generation
                or outcome.revision != self.work.revision()):
            self.sink.dropped(outcome.revision)
            self._after_stop()
            return
        self.results[outcome.key] = outcome
        if outcome.key != self.key:
            self._after_stop()
            return
        self._publish(outcome)

    def failed(self, message: str | None) -> None:
        """A run ended without a result: `message` None when it was cancelled."""
        self._ended()
        if message is not None:  # tried again after the next edit, or when looked at again
            self.sink.failed(message)
            self.sink.status("failed")
            return
        if self.paused:
            self.sink.status("cancelled")
            return
        self._after_stop()

    def _ended(self) -> None:
        self.running = None
        self._stopping = False

    def _after_stop(self) -> None:
        """A run ended that was not the one wanted: start the wanted one (if it is due now)."""
        if not self.current() and not self.paused and self.active and not self.timer.is_active():
            self.run()

    def _publish(self, outcome: Outcome) -> None:
        self.shown = outcome
        self.sink.status("")
        self.sink.publish(outcome)


__all__ = ["DEBOUNCE_MS", "RESET_DELAY_MS", "Outcome", "TrafficKey", "TrafficSchedule"]
