"""The live validation's schedule without Qt: debounce, full or incremental, stale results dropped.

A fake document (a revision counter) and a fake analysis stand in for the real ones; time is a
`ManualClock` that moves only when a test says so, or the synchronous mode runs at once.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest

from aicnet_gui.editing.schedule import (
    DEBOUNCE_MS,
    GRAPH_DEBOUNCE_MS,
    INCREMENTAL_MAX_IDS,
    RESET_DELAY_MS,
    RESET_MAX_DELAY_MS,
    ImmediateTimer,
    ValidationSchedule,
)
from aicnet_gui.model.edits import ChangeSet
from tests.manual_clock import ManualClock


@dataclass
class FakeReport:
    revision: int
    duration_ms: float = 2.0
    graph_pending: bool = False


@dataclass
class Outcome:
    generation: int
    analyzer: Any
    report: FakeReport


@dataclass
class FakeWork:
    """The document (its revision) and the analysis, recording what the schedule asks."""

    doc_revision: int = 0
    updates: list[ChangeSet] = field(default_factory=list)
    fulls: list[tuple[int, int]] = field(default_factory=list)  # (generation, revision)
    adopted: list[Outcome] = field(default_factory=list)
    fail_update: bool = False
    graph_pending: bool = False
    #: synchronous mode: a full run finishes inside start_full
    schedule: ValidationSchedule | None = None

    def revision(self) -> int:
        return self.doc_revision

    def update(self, analyzer: Any, changes: ChangeSet) -> FakeReport:
        if self.fail_update:
            raise RuntimeError("rule exploded")
        self.updates.append(changes)
        return FakeReport(self.doc_revision, graph_pending=self.graph_pending)

    def start_full(self, generation: int) -> None:
        self.fulls.append((generation, self.doc_revision))
        if self.schedule is not None:
            self.schedule.full_done(Outcome(generation, "analyzer", FakeReport(self.doc_revision)))

    def adopt(self, outcome: Outcome) -> None:
        self.adopted.append(outcome)


@dataclass
class FakeSink:
    statuses: list[str] = field(default_factory=list)
    published: list[int] = field(default_factory=list)
    drops: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def status(self, text: str) -> None:
        self.statuses.append(text)

    def publish(self, report: FakeReport) -> None:
        self.published.append(report.revision)

    def dropped(self, revision: int) -> None:
        self.drops.append(revision)

    def failed(self, message: str) -> None:
        self.failures.append(message)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def work() -> FakeWork:
    return FakeWork()


@pytest.fixture
def sink() -> FakeSink:
    return FakeSink()


@pytest.fixture
def schedule(work: FakeWork, sink: FakeSink, clock: ManualClock) -> ValidationSchedule:
    return ValidationSchedule(work, sink, clock.timer)


def edit(work: FakeWork, schedule: ValidationSchedule, *devices: str, settings: bool = False) -> None:
    """One applied edit: the document's revision goes up, its ChangeSet reaches the schedule."""
    work.doc_revision += 1
    schedule.changed(ChangeSet(devices=set(devices), settings=settings, revision=work.doc_revision))


def open_document(work: FakeWork, schedule: ValidationSchedule, clock: ManualClock) -> None:
    """A new document, its first full run finished and published."""
    schedule.reset()
    clock.advance(RESET_DELAY_MS)
    generation, _revision = work.fulls[-1]
    schedule.full_done(Outcome(generation, "analyzer", FakeReport(work.doc_revision)))


def test_the_policy_imports_without_qt() -> None:
    code = ("import sys, aicnet_gui.editing.schedule; "
            "sys.exit(1 if any(m.startswith(('PySide6', 'shiboken6')) for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_new_document_gets_a_full_run_after_the_reset_delay(work, sink, schedule, clock) -> None:
    schedule.reset()
    clock.advance(RESET_DELAY_MS - 1)
    assert work.fulls == []
    clock.advance(1)
    assert work.fulls == [(1, 0)]
    schedule.full_done(Outcome(1, "analyzer", FakeReport(0)))
    assert sink.published == [0] and schedule.current()
    assert schedule.analyzer == "analyzer" and len(work.adopted) == 1
    assert sink.statuses == ["validating…", "validated in 2 ms"]


def test_a_burst_of_edits_costs_one_incremental_run(work, sink, schedule, clock) -> None:
    open_document(work, schedule, clock)
    edit(work, schedule, "d1")
    clock.advance(DEBOUNCE_MS // 2)
    edit(work, schedule, "d2")
    clock.advance(DEBOUNCE_MS - 1)
    assert work.updates == []  # each edit restarts the debounce
    assert not schedule.current()
    clock.advance(1)
    assert [c.devices for c in work.updates] == [{"d1", "d2"}]
    assert sink.published == [0, 2] and schedule.current()


def test_edits_during_a_full_run_make_its_report_stale(work, sink, schedule, clock) -> None:
    schedule.reset()
    clock.advance(RESET_DELAY_MS)
    generation, revision = work.fulls[-1]
    edit(work, schedule, "d1")
    clock.advance(DEBOUNCE_MS)  # the full run is still busy: the edit waits
    assert work.updates == []
    schedule.full_done(Outcome(generation, "analyzer", FakeReport(revision)))
    assert sink.drops == [0]  # never shown
    assert [c.devices for c in work.updates] == [{"d1"}]  # caught up from the new analyzer
    assert sink.published == [1]


def test_a_result_of_a_replaced_document_is_dropped(work, sink, schedule, clock) -> None:
    schedule.reset()
    clock.advance(RESET_DELAY_MS)
    schedule.reset()  # another file opened while the first one's full run was busy
    schedule.full_done(Outcome(1, "old analyzer", FakeReport(0)))
    assert sink.drops == [0] and schedule.analyzer is None
    clock.advance(0)
    assert work.fulls == [(1, 0), (2, 0)]


def test_large_change_sets_and_settings_go_to_a_full_run(work, schedule, clock) -> None:
    open_document(work, schedule, clock)
    work.doc_revision += 1
    schedule.changed(ChangeSet(devices={f"d{i}" for i in range(INCREMENTAL_MAX_IDS + 1)},
                               revision=work.doc_revision))
    clock.advance(DEBOUNCE_MS)
    assert work.updates == [] and len(work.fulls) == 2
    schedule.full_done(Outcome(1, "analyzer 2", FakeReport(work.doc_revision)))
    edit(work, schedule, settings=True)
    clock.advance(DEBOUNCE_MS)
    assert work.updates == [] and len(work.fulls) == 3


def test_a_failed_incremental_run_recovers_with_a_full_run(work, sink, schedule, clock) -> None:
    open_document(work, schedule, clock)
    work.fail_update = True
    edit(work, schedule, "d1")
    clock.advance(DEBOUNCE_MS)
    assert "RuntimeError: rule exploded" in sink.failures[0]
    clock.advance(0)
    assert len(work.fulls) == 2


def test_a_rewired_big_fabric_gets_its_graph_from_a_later_full_run(work, sink, schedule,
                                                                   clock) -> None:
    open_document(work, schedule, clock)
    work.graph_pending = True
    edit(work, schedule, "d1")
    clock.advance(DEBOUNCE_MS)
    assert sink.published == [0, 1] and "being recomputed" in sink.statuses[-1]
    clock.advance(GRAPH_DEBOUNCE_MS - 1)
    assert len(work.fulls) == 1
    clock.advance(1)
    assert len(work.fulls) == 2


def test_held_after_reset_until_the_window_drew_the_document(work, schedule, clock) -> None:
    schedule.hold_after_reset = True
    schedule.reset()
    clock.advance(RESET_DELAY_MS)
    assert work.fulls == []
    schedule.resume()
    clock.advance(0)
    assert len(work.fulls) == 1
    schedule.full_done(Outcome(1, "analyzer", FakeReport(0)))
    schedule.reset()  # never resumed: runs after RESET_MAX_DELAY_MS anyway
    clock.advance(RESET_MAX_DELAY_MS - 1)
    assert len(work.fulls) == 1
    clock.advance(1)
    assert len(work.fulls) == 2


def test_a_late_report_is_dropped(work, sink, schedule, clock) -> None:
    open_document(work, schedule, clock)
    edit(work, schedule, "d1")
    assert not schedule.accept(FakeReport(0))
    assert sink.drops == [0] and sink.published == [0]
    assert schedule.accept(FakeReport(1)) and sink.published == [0, 1]


def test_disabled_schedules_nothing(work, schedule, clock) -> None:
    open_document(work, schedule, clock)
    schedule.enabled = False
    edit(work, schedule, "d1")
    clock.advance(10 * DEBOUNCE_MS)
    assert work.updates == []


def test_synchronous_mode_validates_every_edit_at_once(sink) -> None:
    work = FakeWork()
    schedule = ValidationSchedule(work, sink, ImmediateTimer)
    work.schedule = schedule
    schedule.reset()
    assert work.fulls == [(1, 0)] and sink.published == [0]
    edit(work, schedule, "d1")
    edit(work, schedule, "d2")
    assert [c.devices for c in work.updates] == [{"d1"}, {"d2"}]
    assert sink.published == [0, 1, 2] and schedule.current()


def test_the_immediate_timer_does_not_recurse() -> None:
    calls: list[int] = []
    timer: ImmediateTimer

    def callback() -> None:
        calls.append(len(calls))
        if len(calls) < 3:
            timer.start(0)  # fires after this call returns, not inside it

    timer = ImmediateTimer(callback)
    timer.start(0)
    assert calls == [0, 1, 2] and not timer.is_active()
