"""The File menu's work: new, open (in the background), save, revert, recent files, recovery,
catalog updates on open, export and device-type import.

`FileCommands` belongs to one main window and acts on its `EditorDocument`: it asks before
replacing unsaved work, opens a file in a worker thread while a progress bar shows (the old
document locked meanwhile), fits both canvases to what was opened and says in the status bar
how long it took.  At start-up it offers the work a crash left behind before opening the file
named on the command line.  `opened` and `open_failed` follow a background open (tests and the
window wait for them).  Errors are shown in a dialog, or printed when the window is not
interactive (a screenshot run); they never lose the document that is open.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMenu

from ..catalog.updates import entry_updates, updated_catalog
from ..editing.units import counted
from ..fileio import FabricFileError
from ..model.edits import ReplaceCatalog
from . import file_places
from .devicetype_import import choose_and_import
from .dialogs import messages
from .workers.background import BackgroundJob
from .workers.load_worker import LoadedFabric, load_for_editor

FILE_FILTER = "aicnet fabric (*.fabric);;All files (*)"
MAX_RECENT = 10
PREPARING = "preparing the devices for editing…"
"""The status bar's note while the device items of a file just opened are being made (zoom, pan,
a click and the findings work meanwhile)."""


class FileCommands(QObject):
    """New, open, save, revert, recent files and recovery for one main window."""

    #: a file opened in the background is shown (its path)
    opened = Signal(object)
    #: a file could not be opened (path, message)
    open_failed = Signal(object, str)

    def __init__(self, window: Any) -> None:  # the MainWindow (annotated loosely: no cycle)
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.recent_menu: QMenu | None = None
        self._load_job: BackgroundJob | None = None
        self._load_started = 0.0
        #: the status text of a file just opened whose device items are still being made
        self._opened_text: str | None = None
        window.topology.built.connect(self._on_topology_built)

    # ---------------------------------------------------------------- asking first
    def maybe_save(self) -> bool:
        """True when the current document may be replaced (saved, discarded or clean)."""
        if not self.document.dirty:
            return True
        answer = messages.ask_save_changes(self.window, self.document.display_name())
        if answer == messages.SAVE:
            return self.save()
        return answer == messages.DISCARD

    # ---------------------------------------------------------------- new and open
    def new_document(self) -> None:
        if self.maybe_save():
            self.document.new()
            self.window.fit_to_view()

    def new_from_template(self) -> None:
        from .dialogs.template_wizard import run_template_wizard

        if not self.maybe_save():
            return
        run_template_wizard(self.window)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = file_places.open_start(self.window.settings, self.document.path)
        path, _filter = QFileDialog.getOpenFileName(self.window, "Open fabric", start, FILE_FILTER)
        if path:
            self.open_in_background(path, ask=False)

    def loading(self) -> bool:
        return self._load_job is not None

    def open_in_background(self, path: str | Path, ask: bool = True) -> bool:
        """Open a file without blocking the window: it is read and prepared in a worker thread
        (a progress bar shows meanwhile), then shown; `opened` or `open_failed` follows."""
        if self._load_job is not None:
            self.window.show_message("Still opening the previous file", 1)
            return False
        if ask and not self.maybe_save():
            return False
        path = Path(path)
        catalog = self.window.catalog
        job = BackgroundJob(lambda: load_for_editor(path, catalog), "aicnet-open", self.window)
        job.finished.connect(self._on_loaded)
        job.failed.connect(lambda exc: self._on_load_failed(path, exc))
        self._load_job = job
        self._load_started = time.perf_counter()
        self._opened_text = None
        self.window.set_loading(True, f"Opening {path.name}…")
        job.start()
        return True

    def _on_loaded(self, loaded: LoadedFabric) -> None:
        self._load_job = None
        window = self.window
        shown_from = time.perf_counter()
        try:
            self.document.adopt(loaded)
        finally:
            window.set_loading(False)
        self._add_recent(self.document.path)
        window.fit_to_view()
        total = (time.perf_counter() - self._load_started) * 1000
        gui = (time.perf_counter() - shown_from) * 1000
        layout = ", laid out by tier" if loaded.laid_out else ""
        text = (f"Opened {self.document.display_name()} in {total:.0f} ms (read "
                f"{loaded.load_ms:.0f} ms, prepared {loaded.prepare_ms:.0f} ms{layout}, "
                f"shown {gui:.0f} ms)")
        if window.topology.items_pending():  # its device items follow the first frame, in slices
            self._opened_text = text
            window.show_message(f"{text} · {PREPARING}")
        else:
            window.show_message(text)
        QTimer.singleShot(500, self, self._hint_catalog_updates)  # after the first frames
        self.opened.emit(self.document.path)

    def _on_topology_built(self) -> None:
        """The device items of a file just opened are all made: the status bar says so."""
        text, self._opened_text = self._opened_text, None
        if text is not None and self.window.message_label.text().endswith(PREPARING):
            ready = (time.perf_counter() - self._load_started) * 1000
            self.window.show_message(f"{text} · every device ready {ready:.0f} ms after the open")

    def _on_load_failed(self, path: Path, exc: object) -> None:
        self._load_job = None
        window = self.window
        window.set_loading(False)
        text = str(exc) if isinstance(exc, FabricFileError) else f"{path}: {type(exc).__name__}: {exc}"
        if window.interactive:
            messages.show_error(window, "Cannot open fabric", text)
        else:
            print(f"aicnet-gui: {text}", file=sys.stderr)
        window.show_message(f"Could not open {path.name}", 1)
        self.open_failed.emit(path, text)

    def open_path(self, path: str | Path, ask: bool = True) -> bool:
        """Open a file; a bad file shows its error and the current document stays."""
        if ask and not self.maybe_save():
            return False
        window = self.window
        started = time.perf_counter()
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.document.open(path)
        except FabricFileError as exc:
            QGuiApplication.restoreOverrideCursor()
            if window.interactive:
                messages.show_error(window, "Cannot open fabric", str(exc))
            else:
                print(f"aicnet-gui: {exc}", file=sys.stderr)
            window.show_message(f"Could not open {Path(path).name}", 1)
            return False
        QGuiApplication.restoreOverrideCursor()
        self._add_recent(self.document.path)
        window.fit_to_view()
        elapsed = (time.perf_counter() - started) * 1000
        window.show_message(f"Opened {self.document.display_name()} in {elapsed:.0f} ms")
        self._hint_catalog_updates()
        return True

    def abandon_open(self) -> None:
        """The window closes: a file being opened is never shown."""
        if self._load_job is not None:
            self._load_job = None
            self.window.set_loading(False)

    # ---------------------------------------------------------------- save and revert
    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self.save_to(self.document.path)

    def save_as(self) -> bool:
        start = file_places.save_start(self.window.settings, self.document.path,
                                       self.document.fabric.metadata.name)
        path, _filter = QFileDialog.getSaveFileName(self.window, "Save fabric as", start, FILE_FILTER)
        if not path:
            return False
        if not path.endswith(".fabric"):
            path += ".fabric"
        return self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        try:
            self.document.save(path)
        except FabricFileError as exc:
            messages.show_error(self.window, "Cannot save fabric", str(exc))
            return False
        self._add_recent(self.document.path)
        self.window.show_message(f"Saved {self.document.display_name()}")
        return True

    def revert(self) -> None:
        if self.document.path is None:
            return
        if self.document.dirty:
            answer = messages.ask_save_changes(self.window, self.document.display_name())
            if answer == messages.CANCEL:
                return
            if answer == messages.SAVE:
                self.save()
                return
        try:
            self.document.revert()
        except FabricFileError as exc:
            messages.show_error(self.window, "Cannot revert", str(exc))
            return
        self.window.fit_to_view()
        self.window.show_message(f"Reverted to the saved {self.document.display_name()}")

    # ---------------------------------------------------------------- recent files
    def recent_files(self) -> list[str]:
        value = self.window.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _add_recent(self, path: Path | None) -> None:
        settings = self.window.settings
        file_places.remember_folder(settings, path)  # Open and Save As start there next
        if path is None or not self.window.record_recent:
            return
        recent = [p for p in self.recent_files() if p != str(path)]
        recent.insert(0, str(path))
        settings.setValue("recent", recent[:MAX_RECENT])

    def add_recent_menu(self, menu: QMenu) -> None:
        """File › Open Recent, filled each time it opens."""
        from . import resources

        self.recent_menu = menu.addMenu(resources.icon("recent"), "Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)

    def _fill_recent(self) -> None:
        menu = self.recent_menu
        assert menu is not None
        menu.clear()
        recent = self.recent_files()
        if not recent:
            empty = menu.addAction("(no recent files)")
            empty.setEnabled(False)
            return
        for index, path in enumerate(recent, start=1):
            action = menu.addAction(f"&{index % 10}  {Path(path).name}")
            action.setToolTip(path)
            action.setStatusTip(path)
            action.setEnabled(Path(path).exists())
            action.triggered.connect(lambda _c=False, p=path: self.open_in_background(p))
        menu.addSeparator()
        clear = menu.addAction("Clear the list")
        clear.triggered.connect(lambda: self.window.settings.setValue("recent", []))

    # ---------------------------------------------------------------- export and import
    def export(self) -> None:
        from .dialogs.export_dialog import run_export

        run_export(self.window)

    def import_device_types(self) -> None:
        choose_and_import(self.window)

    # ---------------------------------------------------------------- catalog entries
    def update_catalog_entries(self) -> bool:
        """Offer the local catalog's version of every entry the design uses that differs from
        the one the design embeds; taking them is one checked, undoable edit."""
        doc = self.document.fabric
        catalog = self.window.catalog
        updates = entry_updates(doc, catalog)
        if not updates:
            self.window.show_message("Every catalog entry this design uses matches your catalog")
            return False
        if not messages.ask_update_catalog(self.window, [u.describe() for u in updates]):
            return False
        merged = updated_catalog(doc, catalog, [u.entry_id for u in updates])
        return self.document.execute([ReplaceCatalog(merged)],
                                     f"Update {counted(len(updates), 'catalog entry')}")

    def _hint_catalog_updates(self) -> None:
        """After opening: say so when the local catalog has other versions of used entries."""
        updates = entry_updates(self.document.fabric, self.window.catalog)
        if updates:
            self.window.show_message(
                f"{counted(len(updates), 'catalog entry')} of this design "
                f"{'differs' if len(updates) == 1 else 'differ'} from your catalog: "
                "Edit › Update Catalog Entries…")

    # ---------------------------------------------------------------- recovery
    def autosave(self) -> Path | None:
        try:
            return self.document.autosave()
        except OSError as exc:
            self.window.show_message(f"Autosave failed: {exc}", 1)
            return None

    def start(self, file: str | None) -> None:
        """At start-up: offer work a crash left behind first, then open `file` (if any)."""
        if self.offer_recovery():
            if file:
                self.window.show_message(f"Recovered unsaved work; {Path(file).name} was not opened", 1)
            return
        if file:
            self.open_in_background(file, ask=False)

    def offer_recovery(self) -> bool:
        """Offer the newest recovery file a crash left behind; True if one was restored."""
        for recovery in self.document.pending_recoveries():
            answer = messages.ask_recover(self.window, recovery)
            if answer == messages.RECOVER:
                try:
                    self.document.recover(recovery)
                except FabricFileError as exc:
                    messages.show_error(self.window, "Cannot recover", str(exc))
                    self.document.recovery.remove(recovery)
                    continue
                self.window.fit_to_view()
                self.window.show_message("Recovered unsaved work; save it to keep it")
                return True
            if answer == messages.DISCARD:
                self.document.recovery.remove(recovery)
                continue
            return False
        return False
