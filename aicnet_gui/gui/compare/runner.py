"""One study running in the background for the comparison view: progress, arrivals, cancel.

The study runs in its own process (study_host.py: its workers must not start from the
editor's main module), read by a `BackgroundJob` thread.  Each progress report the process
sends goes into a queue and the job's `progress` signal says when to read it, so the reports
(and the candidates in them) arrive in the GUI thread in order, and never once the job was
abandoned (its window closed: that cancels the study too).  A frozen bundle, which cannot
start the process, runs the candidates one after the other in the job's thread instead.

Cancel: no new candidate starts, the running ones stop at their next step and remove their
files, and `finished` still comes, with every candidate that finished.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from ...study import Study, StudyProgress, StudyResult, run_study
from ...study.run import DEFAULT_WORKERS
from ..workers.background import BackgroundJob
from .study_host import HostDone, HostFailed, StudyProcess, can_start


class StudyFailed(RuntimeError):
    """The study's process failed (the text says how; details holds its traceback)."""

    def __init__(self, text: str, details: str = "") -> None:
        super().__init__(text)
        self.details = details


class StudyRun(QObject):
    """A study started in the background; its signals arrive in the GUI thread."""

    #: a candidate finished (built or not): the `Candidate`
    arrived = Signal(object)
    #: every progress report: the `StudyProgress`
    progressed = Signal(object)
    #: the study ended (complete or cancelled): the `StudyResult`
    finished = Signal(object)
    #: the study could not run: the reason
    failed = Signal(str)

    def __init__(self, study: Study, out_dir: str | Path, parent: QObject | None = None,
                 workers: int = DEFAULT_WORKERS) -> None:
        super().__init__(parent)
        self.study = study
        self.out_dir = Path(out_dir)
        self.workers = workers
        self.cancelling = False
        self.result: StudyResult | None = None
        self._reports: queue.SimpleQueue[StudyProgress] = queue.SimpleQueue()
        self._cancel = threading.Event()
        self._process: StudyProcess | None = None
        self.job: BackgroundJob | None = None

    def start(self) -> None:
        if can_start():
            self._process = StudyProcess.start(self.study, self.out_dir, self.workers)
        job = BackgroundJob(self._work, "aicnet-study", self, reports_progress=True,
                            cancel=self._cancel)
        job.progress.connect(self._read_reports)
        job.finished.connect(self._on_finished)
        job.failed.connect(self._on_failed)
        job.abandoned.connect(self.cancel)
        self.job = job
        job.start()

    def running(self) -> bool:
        return self.job is not None and self.result is None and self.job.running()

    def cancel(self) -> None:
        """Stop starting candidates; the finished ones stay (`finished` follows)."""
        self.cancelling = True
        self._cancel.set()
        if self._process is not None:
            self._process.cancel()

    # ---------------------------------------------------------------- the job's thread
    def _work(self, progress: Callable[[float, str], None]) -> StudyResult:
        def report(p: StudyProgress) -> None:
            self._reports.put(p)
            progress(p.done / p.total if p.total else 1.0, p.text())

        if self._process is None:
            return run_study(self.study, self.out_dir, workers=0, progress=report,
                             cancelled=self._cancel.is_set)
        for message in self._process.messages():
            if isinstance(message, StudyProgress):
                report(message)
            elif isinstance(message, HostDone):
                return message.result
            elif isinstance(message, HostFailed):
                raise StudyFailed(message.text, message.details)
        raise StudyFailed("the study's process sent no result")

    # ---------------------------------------------------------------- the GUI thread
    def _read_reports(self, _fraction: float = 0.0, _text: str = "") -> None:
        while True:
            try:
                report = self._reports.get_nowait()
            except queue.Empty:
                return
            if report.last is not None:
                self.arrived.emit(report.last)
            self.progressed.emit(report)

    def _on_finished(self, result: StudyResult) -> None:
        self._read_reports()
        self.result = result
        self.finished.emit(result)

    def _on_failed(self, exc: Any) -> None:
        self._read_reports()
        text = str(exc)
        details = getattr(exc, "details", "")
        self.failed.emit(f"{text}\n\n{details}".strip() if details else text)
