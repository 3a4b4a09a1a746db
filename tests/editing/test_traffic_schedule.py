"""The traffic view's schedule without Qt: runs only while looked at, after edits settle, one at a
time, stale results dropped, Cancel pauses (editing/traffic_schedule.py).

A fake document (a revision counter) and fake runs stand in for the real ones; time is a
`ManualClock` that moves only when a test says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from aicnet_gui.editing.traffic_schedule import (
    DEBOUNCE_MS,
    RESET_DELAY_MS,
    Outcome,
    TrafficKey,
    TrafficSchedule,
)
from aicnet_gui.model.edits import ChangeSet
from tests.manual_clock import ManualClock

KEY = TrafficKey("w1", 20)


@dataclass
class FakeWork:
    doc_revision: int = 0
    started: list[tuple[TrafficKey, int, int]] = field(default_factory=list)
    stops: int = 0

    def revision(self) -> int:
        return self.doc_revision

    def start(self, key: TrafficKey, revision: int, generation: int) -> None:
        self.started.append((key, revision, generation))

    def stop(self) -> None:
        self.stops += 1


@dataclass
class FakeSink:
    published: list[Outcome] = field(default_factory=list)
    dropped_revisions: list[int] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)

    def status(self, text: str) -> None:
        self.statuses.append(text)

    def publish(self, outcome: Outcome) -> None:
        self.published.append(outcome)

    def dropped(self, revision: int) -> None:
        self.dropped_revisions.append(revision)

    def failed(self, message: str) -> None:
        self.messages.append(message)


def make() -> tuple[TrafficSchedule, FakeWork, FakeSink, ManualClock]:
    clock, work, sink = ManualClock(), FakeWork(), FakeSink()
    return TrafficSchedule(work, sink, clock.timer), work, sink, clock


def running() -> tuple[TrafficSchedule, FakeWork, FakeSink, ManualClock]:
    """A schedule looked at, for KEY, its first run started."""
    schedule, work, sink, clock = make()
    schedule.set_active(True)
    schedule.want(KEY)
    clock.advance(0)
    assert len(work.started) == 1
    return schedule, work, sink, clock


def finish(schedule: TrafficSchedule, work: FakeWork, index: int = -1) -> Outcome:
    """The run started `index`-th ends with a result."""
    key, revision, generation = work.started[index]
    outcome = Outcome(key, revision, generation, f"run of revision {revision}")
    schedule.done(outcome)
    return outcome


def edit(schedule: TrafficSchedule, work: FakeWork) -> None:
    work.doc_revision += 1
    schedule.changed(ChangeSet(links={f"l{work.doc_revision}"}))


def test_nothing_runs_until_someone_looks():
    schedule, work, _sink, clock = make()
    schedule.want(KEY)
    clock.advance(10_000)
    assert work.started == []
    schedule.set_active(True)
    clock.advance(0)
    assert work.started == [(KEY, 0, 0)]


def test_a_result_for_the_current_revision_is_shown():
    schedule, work, sink, clock = running()
    outcome = finish(schedule, work)
    assert sink.published == [outcome] and schedule.current()


def test_an_edit_stops_the_run_drops_its_late_result_and_runs_again_once_the_edits_settle():
    schedule, work, sink, clock = running()
    edit(schedule, work)
    assert work.stops == 1  # the run in flight could only describe the old design
    clock.advance(DEBOUNCE_MS // 2)
    edit(schedule, work)  # a burst of edits: still one run after it
    finish(schedule, work, 0)  # the stopped run delivers anyway: stale, dropped
    assert sink.published == [] and sink.dropped_revisions == [0]
    clock.advance(DEBOUNCE_MS - 1)
    assert len(work.started) == 1
    clock.advance(1)
    assert work.started[-1] == (KEY, 2, 0)
    outcome = finish(schedule, work)
    assert sink.published == [outcome]


def test_one_run_at_a_time_the_next_starts_when_the_stopped_one_ends():
    schedule, work, _sink, clock = running()
    edit(schedule, work)
    clock.advance(DEBOUNCE_MS)  # due, but the first run has not stopped yet
    assert len(work.started) == 1
    schedule.failed(None)  # it stopped (cancelled)
    assert work.started[-1] == (KEY, 1, 0)


def test_cancel_stops_the_run_and_pauses_until_run_now():
    schedule, work, sink, clock = running()
    schedule.cancel()
    assert work.stops == 1
    schedule.failed(None)
    assert sink.statuses[-1] == "cancelled"
    edit(schedule, work)
    clock.advance(10 * DEBOUNCE_MS)
    assert len(work.started) == 1  # paused: an edit does not start one
    schedule.run_now()
    clock.advance(0)
    assert work.started[-1] == (KEY, 1, 0)


def test_a_kept_result_is_shown_again_at_once():
    schedule, work, sink, clock = running()
    other = TrafficKey("w2", 20)
    first = finish(schedule, work)
    schedule.want(other)
    clock.advance(0)
    finish(schedule, work)
    schedule.want(KEY)
    assert sink.published[-1] is first and len(work.started) == 2


def test_a_new_document_drops_what_the_old_one_computed():
    schedule, work, sink, clock = running()
    schedule.reset()
    finish(schedule, work, 0)  # generation 0: the old document's
    assert sink.published == [] and sink.dropped_revisions == [0]
    clock.advance(RESET_DELAY_MS)
    assert work.started[-1] == (KEY, 0, 1)


def test_a_failed_run_says_why_and_is_tried_again_after_the_next_edit():
    schedule, work, sink, clock = running()
    schedule.failed("traffic model: too many flows")
    assert sink.messages == ["traffic model: too many flows"]
    clock.advance(10 * DEBOUNCE_MS)
    assert len(work.started) == 1
    edit(schedule, work)
    clock.advance(DEBOUNCE_MS)
    assert len(work.started) == 2
