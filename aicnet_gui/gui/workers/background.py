"""Run one pure-Python function in a background thread and hand its result to the GUI thread.

The function must not touch widgets or the live document (give it a snapshot or a document no
one else holds yet).  Its result or its exception comes back as a queued Qt signal, so slots run
in the GUI thread.  A function that raises never takes the window down: the exception object is
delivered to `failed`.
"""

from __future__ import annotations

import contextlib
import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

EXPECTED = (OSError, ValueError)
"""Exceptions that are the user's input (a bad file), not a bug: no traceback printed."""


class BackgroundJob(QObject):
    """`fn()` in a daemon thread; `finished(result)` or `failed(exception)` in the GUI thread."""

    finished = Signal(object)
    failed = Signal(object)

    def __init__(self, fn: Callable[[], Any], name: str = "aicnet-job",
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fn = fn
        self._name = name
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Join the thread (tests and shutdown); True when it has ended."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        try:
            result = self._fn()
        except Exception as exc:  # noqa: BLE001 - delivered to the GUI thread, never lost
            if not isinstance(exc, EXPECTED):
                traceback.print_exc()
            self._deliver(self.failed, exc)
        else:
            self._deliver(self.finished, result)

    @staticmethod
    def _deliver(signal: Any, value: Any) -> None:
        """Emit, unless the job's owner was deleted meanwhile (a window closed while its
        validation ran): then there is no one to hand the result to, and nothing to report."""
        with contextlib.suppress(RuntimeError):  # "Signal source has been deleted"
            signal.emit(value)
