"""A progress line on the terminal for long CLI jobs (`aicnet export` of a big plan):

    aicnet: 37 %  cable schedule: 9,000 of 24,576 links, page 812  ETA 0:41

rewritten in place (carriage return) at most a few times a second, on stderr, and ended with a
newline.  Shown when stderr is a terminal, or when asked for (`--progress`); never mixed into
stdout, which keeps only the summary lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

MIN_INTERVAL_S = 0.25  # at most four redraws a second
ETA_AFTER = 0.02  # no estimate before 2 % is done (the first steps say little)


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressLine:
    """A `progress(fraction, message)` callback that draws one updating line on `stream`."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.started = clock()
        self._shown = 0.0
        self._width = 0
        self.lines = 0  # how many times the line was drawn

    def text(self, fraction: float, message: str) -> str:
        """The line for `fraction` done, with an ETA from the pace so far."""
        elapsed = self.clock() - self.started
        line = f"aicnet: {fraction * 100:3.0f} %  {message}"
        if fraction >= 1.0:
            return f"{line}  in {_clock(elapsed)}"
        if fraction >= ETA_AFTER and elapsed > 0:
            line += f"  ETA {_clock(elapsed * (1 - fraction) / fraction)}"
        return line

    def __call__(self, fraction: float, message: str) -> None:
        now = self.clock()
        final = fraction >= 1.0
        if not final and now - self._shown < MIN_INTERVAL_S and self.lines:
            return
        self._shown = now
        line = self.text(fraction, message)
        pad = max(self._width - len(line), 0)
        self._width = len(line)
        self.stream.write("\r" + line + " " * pad + ("\n" if final else ""))
        self.stream.flush()
        self.lines += 1
        if final:
            self._width = 0  # the line is ended

    def finish(self) -> None:
        """End the line if the job stopped before reaching 100 % (an error, a cancel)."""
        if self._width:
            self.stream.write("\n")
            self.stream.flush()
            self._width = 0
