"""Autosave of unsaved work to the recovery file, a few seconds after the last edit.

Each edit (re)starts a short timer (`DELAY_MS`), so a crash loses at most a few seconds of work
and a burst of edits is saved once; a burst that never pauses is still saved every
`MAX_WAIT_S`.  A design with more than `BACKGROUND_LINKS` links is serialised in a background
thread from a snapshot, so the window never stalls; a small one is saved at once.  The status bar
label says when the recovery copy was last written.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel

from .document import EditorDocument
from .workers.background import BackgroundJob

DELAY_MS = 3_000
MAX_WAIT_S = 30.0
BACKGROUND_LINKS = 2_000


class Autosaver(QObject):
    """Debounced autosave of one `EditorDocument`, and the status label that reports it."""

    #: the recovery copy was written (wall-clock time of the write)
    saved = Signal(float)
    #: an autosave failed; the text says why
    failed = Signal(str)

    def __init__(self, document: EditorDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.delay_ms = DELAY_MS
        self.label = QLabel()
        self.label.setToolTip("When unsaved work was last copied to the recovery file")
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.save_now)
        self._pending_since: float | None = None
        self._job: BackgroundJob | None = None
        document.changed.connect(self._on_edit)
        document.reset.connect(self._on_edit)
        document.dirty_changed.connect(self._on_dirty)
        # an edit is reported before the undo stack marks the document unsaved: whether there
        # is anything to save is asked when the timer fires (EditorDocument.autosave)

    def pending(self) -> bool:
        """True while an edit waits for its autosave."""
        return self._timer.isActive()

    def _on_edit(self, *_args: object) -> None:
        now = time.monotonic()
        if self._pending_since is None:
            self._pending_since = now
        left_ms = max(0.0, (self._pending_since + MAX_WAIT_S - now) * 1000)
        self._timer.start(int(min(self.delay_ms, left_ms)))

    def _on_dirty(self, dirty: bool) -> None:
        if not dirty:  # saved or reverted: nothing to keep
            self._timer.stop()
            self._pending_since = None
            self.label.setText("")

    def save_now(self) -> None:
        """Write the recovery copy now (in the background for a big design)."""
        if self._job is not None and self._job.running():
            self._timer.start(self.delay_ms)  # one write at a time; try again after it
            return
        self._pending_since = None
        if len(self.document.fabric.links) > BACKGROUND_LINKS:
            job = self.document.autosave_job()
            if job is None:
                return
            self._job = job
            job.finished.connect(lambda _written: self._report())
            job.failed.connect(lambda exc: self._report_failure(exc))
            job.start()
            return
        try:
            written = self.document.autosave()
        except OSError as exc:
            self._report_failure(exc)
            return
        if written is not None:
            self._report()

    def _report(self) -> None:
        now = time.time()
        self.label.setText(f"Autosaved {time.strftime('%H:%M:%S', time.localtime(now))}")
        self.saved.emit(now)

    def _report_failure(self, exc: object) -> None:
        self.label.setText("Autosave failed")
        self.failed.emit(f"Autosave failed: {exc}")

    def wait(self) -> None:
        """Wait for a background autosave to end (shutdown and tests)."""
        if self._job is not None:
            self._job.wait()
