"""Run an export (aicnet_gui.report) in a background thread with progress and cancel.

The worker only reads the document; the window shows a modal progress dialog while it runs, so
nothing edits the document meanwhile.  Progress and the result come back to the GUI thread as
queued Qt signals.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal


class ExportJob(QObject):
    """Calls `job(progress, cancelled)` in a thread; reports through signals."""

    #: (fraction 0..1, message)
    progress = Signal(float, str)
    #: the job's return value
    finished = Signal(object)
    #: a message for the user (cancelled, or the error)
    failed = Signal(str)

    def __init__(self, job: Callable[[Callable[[float, str], None], Callable[[], bool]], Any],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._job = job
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="aicnet-export", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        from ...report import ExportCancelled

        try:
            result = self._job(lambda f, m: self.progress.emit(float(f), str(m)), self._cancel.is_set)
        except ExportCancelled:
            self.failed.emit("Export cancelled; nothing was written.")
        except (OSError, ValueError) as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # a bug in an exporter must not take the window down
            traceback.print_exc()
            self.failed.emit(f"The export failed: {type(exc).__name__}: {exc}")
        else:
            self.finished.emit(result)
