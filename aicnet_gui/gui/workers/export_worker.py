"""Run an export (aicnet_gui.report) in a background thread with progress and cancel.

The worker only reads a snapshot of the document; the window shows a modal progress dialog
while it runs.  Progress and the result come back to the GUI thread through a `BackgroundJob`,
so a window closed or deleted during an export never receives them (see `background.py`).
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from .background import BackgroundJob

Progress = Callable[[float, str], None]


class ExportJob(QObject):
    """Calls `job(progress, cancelled)` in a thread; reports through signals."""

    #: (fraction 0..1, message)
    progress = Signal(float, str)
    #: the job's return value
    finished = Signal(object)
    #: a message for the user (cancelled, or the error)
    failed = Signal(str)
    #: its window closed: the export is cancelled and nothing more arrives
    abandoned = Signal()

    def __init__(self, job: Callable[[Progress, Callable[[], bool]], Any],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        cancelled = self._cancel.is_set
        self._job = BackgroundJob(lambda progress: _export(job, progress, cancelled),
                                  "aicnet-export", self, reports_progress=True,
                                  cancel=self._cancel)
        self._job.progress.connect(self.progress)
        self._job.finished.connect(self._done)
        self._job.abandoned.connect(self.abandoned)

    def start(self) -> None:
        self._job.start()

    def cancel(self) -> None:
        self._cancel.set()

    def abandon(self) -> None:
        """The window closed: stop the export and report nothing (`abandon_jobs` finds the
        inner job and does the same)."""
        self._job.abandon()

    def wait(self, timeout: float | None = None) -> bool:
        return self._job.wait(timeout)

    def _done(self, outcome: tuple[bool, Any]) -> None:
        ok, value = outcome
        if ok:
            self.finished.emit(value)
        else:
            self.failed.emit(value)


def _export(job: Callable[[Progress, Callable[[], bool]], Any], progress: Progress,
            cancelled: Callable[[], bool]) -> tuple[bool, Any]:
    """(True, the job's result) or (False, a message for the user); runs in the worker."""
    from ...report import ExportCancelled

    try:
        return True, job(progress, cancelled)
    except ExportCancelled:
        return False, "Export cancelled; nothing was written."
    except (OSError, ValueError) as exc:
        return False, str(exc)
    except Exception as exc:  # noqa: BLE001 - a bug in an exporter must not take the window down
        traceback.print_exc()
        return False, f"The export failed: {type(exc).__name__}: {exc}"
