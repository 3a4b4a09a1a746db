"""`EditorDocument`: the open fabric, its undo stack, its file and its unsaved state.

It owns the `FabricDocument` (the truth), a `QUndoStack` of `ApplyOps` commands, the file path
and the dirty state (the undo stack's clean index).  It turns the model's ChangeSet listener
into Qt signals that the scenes, panels and window follow.  Opening, saving, reverting and the
autosave to a recovery file live here too, so the window only asks and shows.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from ..editing.counts import carry_over
from ..editing.layout import lay_out_if_unusable
from ..fileio import FabricFileError, load_fabric, save_fabric
from ..fileio.recovery import Recovery, RecoveryStore
from ..gc_control import freeze_survivors
from ..model.catalog import Catalog
from ..model.document import FabricDocument, ModelError
from ..model.edits import ChangeSet, Operation, UpdateMetadata
from ..paths import user_state_dir
from .canvas.scene_data import TopologyData
from .commands import ApplyOps
from .workers.background import BackgroundJob
from .workers.load_worker import LoadedFabric


def recovery_folder() -> Path:
    return user_state_dir() / "recovery"


class EditorDocument(QObject):
    """The document the window edits: model + undo stack + file + dirty state."""

    #: the model changed (one applied edit; the ChangeSet names what)
    changed = Signal(object)
    #: the whole model was replaced (new, open, revert, recovery)
    reset = Signal()
    #: the file path changed (Save As, open)
    path_changed = Signal(object)
    #: the unsaved state changed
    dirty_changed = Signal(bool)
    #: an edit was refused or could not be undone; the text says why
    refused = Signal(str)

    def __init__(self, catalog: Catalog, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.catalog = catalog
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._fabric = FabricDocument(catalog)
        self._fabric.subscribe(self._on_model_changed)
        self._path: Path | None = None
        self._dirty = False
        self.session = uuid.uuid4().hex[:12]
        self.recovery = RecoveryStore(recovery_folder())
        self._autosaved_revision = -1
        self._recovery_key: Path | None = None
        #: counts discards of the recovery file: an autosave that ends after one is undone
        self._recovery_generation = 0
        #: the files a background autosave may have written (its result can be dropped unseen:
        #: a window closing abandons its jobs), discarded with the rest
        self._background_keys: set[Path | None] = set()
        #: called with every model opened in the GUI thread before it is shown (files without
        #: usable canvas positions are laid out here, before any scene item exists); a file
        #: opened in the background was prepared in its loader thread
        self.prepare: Callable[[FabricDocument], None] | None = lay_out_if_unusable
        self._scene_data: TopologyData | None = None
        self._snapshot: FabricDocument | None = None

    # ---------------------------------------------------------------- state
    @property
    def fabric(self) -> FabricDocument:
        return self._fabric

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def dirty(self) -> bool:
        return self._dirty

    def display_name(self) -> str:
        return self._path.name if self._path else "Untitled"

    def _set_dirty(self, dirty: bool) -> None:
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirty_changed.emit(dirty)

    def _on_clean_changed(self, clean: bool) -> None:
        self._set_dirty(not clean)

    def _on_model_changed(self, changes: ChangeSet) -> None:
        carry_over(self._fabric, changes)  # before any listener asks for the counts
        self.changed.emit(changes)

    # ---------------------------------------------------------------- editing
    def execute(self, ops: Sequence[Operation], text: str) -> bool:
        """Apply `ops` as one undo step; on a refused edit emit `refused` and return False."""
        if not ops:
            return False
        command = ApplyOps(self._fabric, ops, text, on_error=self.refused.emit)
        try:
            command.apply_now()
        except ModelError as exc:
            self.refused.emit(str(exc))
            return False
        self.undo_stack.push(command)
        return True

    # ---------------------------------------------------------------- replacing the model
    def take_snapshot(self) -> FabricDocument | None:
        """The snapshot a background open made of the document as loaded (once), if the
        document is still at that revision."""
        snap, self._snapshot = self._snapshot, None
        if snap is not None and snap.revision == self._fabric.revision:
            return snap
        return None

    def take_scene_data(self) -> TopologyData | None:
        """What a background open computed for the Topology scene (once; None otherwise)."""
        data, self._scene_data = self._scene_data, None
        return data

    def _replace(self, fabric: FabricDocument, path: Path | None, dirty: bool,
                 prepared: bool = False) -> None:
        if self.prepare is not None and not prepared:
            self.prepare(fabric)
        self._discard_recovery()
        self._fabric.unsubscribe(self._on_model_changed)
        self._fabric = fabric
        fabric.subscribe(self._on_model_changed)
        self.undo_stack.clear()
        if dirty:
            self.undo_stack.resetClean()
        else:
            self.undo_stack.setClean()
        self._set_dirty(dirty)
        self._autosaved_revision = -1
        if path != self._path:
            self._path = path
            self.path_changed.emit(path)
        self.reset.emit()
        # the document and its scene are long-lived: keep them out of every later collection
        # (they hold no reference cycles, so a replaced document is still freed by refcount)
        freeze_survivors()

    def new(self, fabric: FabricDocument | None = None) -> None:
        """Start a new document (empty, or `fabric` from a template, unsaved)."""
        self._replace(fabric or FabricDocument(self.catalog), None, dirty=fabric is not None)

    def open(self, path: str | Path) -> None:
        """Load `path`; raises FabricFileError and leaves the current document on failure."""
        path = Path(path)
        fabric = load_fabric(path, self.catalog)
        self._replace(fabric, path.resolve(), dirty=False)

    def adopt(self, loaded: LoadedFabric) -> None:
        """Show a file the background loader read and prepared (see workers/load_worker.py)."""
        self._scene_data = loaded.scene
        self._snapshot = loaded.snapshot
        try:
            self._replace(loaded.fabric, loaded.path.resolve(), dirty=False, prepared=True)
        finally:
            self._scene_data = None

    def revert(self) -> None:
        if self._path is None:
            raise FabricFileError("(untitled)", "the document has never been saved")
        self.open(self._path)

    def save(self, path: str | Path | None = None) -> None:
        """Save to `path` (or the current path); raises FabricFileError."""
        target = Path(path) if path is not None else self._path
        if target is None:
            raise FabricFileError("(untitled)", "choose a file name first")
        # the modification stamp is file bookkeeping, not an edit: no undo step for it
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
        self._fabric.apply([UpdateMetadata({"modified": stamp})])
        save_fabric(self._fabric, target)
        self._discard_recovery()
        target = target.resolve()
        if target != self._path:
            self._path = target
            self.path_changed.emit(target)
        self.undo_stack.setClean()
        self._set_dirty(False)

    # ---------------------------------------------------------------- recovery
    def autosave(self) -> Path | None:
        """Write the unsaved document to its recovery file (only when it changed since)."""
        if not self._dirty or self._fabric.revision == self._autosaved_revision:
            return None
        written = self.recovery.write(self._fabric, self._path, self.session, time.time())
        self._autosaved_revision = self._fabric.revision
        self._recovery_key = self._path
        return written

    def autosave_job(self) -> BackgroundJob | None:
        """The autosave of a snapshot of the document as a job for a background thread (not
        started), or None when there is nothing new to save.  If the document is saved or
        closed before the job ends, the recovery file it wrote is removed again."""
        if not self._dirty or self._fabric.revision == self._autosaved_revision:
            return None
        snapshot, path, generation = self._fabric.snapshot(), self._path, self._recovery_generation
        session, store, now = self.session, self.recovery, time.time()
        self._background_keys.add(path)
        job = BackgroundJob(lambda: store.write(snapshot, path, session, now), "aicnet-autosave",
                            self)

        def done(_written: object) -> None:
            if generation != self._recovery_generation:
                store.discard(path, session)
                return
            self._autosaved_revision = snapshot.revision
            self._recovery_key = path

        job.finished.connect(done)
        return job

    def _discard_recovery(self) -> None:
        self._recovery_generation += 1
        self.recovery.discard(self._recovery_key, self.session)
        self.recovery.discard(self._path, self.session)
        for key in self._background_keys:  # every copy of this session is stale now
            self.recovery.discard(key, self.session)
        self._recovery_key = None
        self._autosaved_revision = -1

    def close(self) -> None:
        """The window closes cleanly: no recovery file stays behind."""
        self._discard_recovery()

    def pending_recoveries(self) -> list[Recovery]:
        return self.recovery.pending()

    def recover(self, recovery: Recovery) -> None:
        """Open a recovery file as an unsaved document belonging to its original file."""
        fabric = load_fabric(recovery.recovery_file, self.catalog)
        original = Path(recovery.original) if recovery.original else None
        self._replace(fabric, original, dirty=True)
        self.recovery.remove(recovery)
