"""Time without Qt that advances only when a test says so: the `Timer` factory the tests give
`editing/schedule.py`'s `ValidationSchedule` (the window gives it Qt timers)."""

from __future__ import annotations

from collections.abc import Callable


class ManualClock:
    """Time that advances only when told (tests): its timers fire in `advance`."""

    def __init__(self) -> None:
        self.now_ms = 0
        self._timers: list[ManualTimer] = []

    def timer(self, callback: Callable[[], None]) -> ManualTimer:
        timer = ManualTimer(self, callback)
        self._timers.append(timer)
        return timer

    def advance(self, ms: int) -> None:
        """Move time on by `ms`, firing every timer that falls due, in deadline order."""
        end = self.now_ms + ms
        while True:
            due = [t for t in self._timers if t.deadline is not None and t.deadline <= end]
            if not due:
                break
            timer = min(due, key=lambda t: t.deadline or 0)
            self.now_ms = max(self.now_ms, timer.deadline or 0)
            timer.fire()
        self.now_ms = end


class ManualTimer:
    """A single-shot timer of a `ManualClock`."""

    def __init__(self, clock: ManualClock, callback: Callable[[], None]) -> None:
        self._clock = clock
        self._callback = callback
        self.deadline: int | None = None

    def start(self, delay_ms: int) -> None:
        self.deadline = self._clock.now_ms + delay_ms

    def stop(self) -> None:
        self.deadline = None

    def is_active(self) -> bool:
        return self.deadline is not None

    def fire(self) -> None:
        self.deadline = None
        self._callback()
