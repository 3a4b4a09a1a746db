"""Progress reporting and cancellation for long exports (the GUI runs them in a worker).

`Progress` turns per-step fractions into one overall fraction over weighted steps, calls the
caller's `progress(fraction, message)` at most every 1 % (and on each new step), and raises
`ExportCancelled` as soon as the caller's `cancelled()` turns true.
"""

from __future__ import annotations

from collections.abc import Callable

ProgressCallback = Callable[[float, str], None]
CancelCheck = Callable[[], bool]


class ExportCancelled(Exception):
    """The user cancelled the export; nothing was written."""


class Progress:
    def __init__(
        self,
        steps: dict[str, float],
        callback: ProgressCallback | None = None,
        cancelled: CancelCheck | None = None,
    ) -> None:
        total = sum(steps.values()) or 1.0
        self._weights = {name: weight / total for name, weight in steps.items()}
        self._offsets: dict[str, float] = {}
        offset = 0.0
        for name, weight in self._weights.items():
            self._offsets[name] = offset
            offset += weight
        self._callback = callback
        self._cancelled = cancelled
        self._step = ""
        self._message = ""
        self._last = -1.0

    def check(self) -> None:
        """Raise `ExportCancelled` if the caller asked to stop."""
        if self._cancelled is not None and self._cancelled():
            raise ExportCancelled("export cancelled")

    def step(self, name: str, message: str) -> None:
        """Start step `name` (one of the weighted steps) and say so."""
        self._step = name
        self._message = message
        self.update(0.0, force=True)

    def update(self, fraction: float, message: str | None = None, force: bool = False) -> None:
        """Report `fraction` (0..1) of the current step done; checks for cancellation."""
        self.check()
        if message is not None:
            self._message = message
        if self._callback is None:
            return
        overall = self._offsets.get(self._step, 0.0) + self._weights.get(self._step, 0.0) * min(
            max(fraction, 0.0), 1.0
        )
        if force or overall - self._last >= 0.01:
            self._last = overall
            self._callback(min(overall, 1.0), self._message)

    def done(self, message: str = "done") -> None:
        if self._callback is not None:
            self._callback(1.0, message)

    def sub(self, message: str) -> Callable[[float], None]:
        """A one-argument callback reporting fractions of the current step."""
        return lambda fraction: self.update(fraction, message)
