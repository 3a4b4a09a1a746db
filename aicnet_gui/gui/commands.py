"""The one undo command of the editor: apply a list of model operations, undo with the inverse.

Every gesture (a drop, a wire, a drag of twenty devices, a bulk connect, a generator run, an
inspector edit) becomes one `ApplyOps`.  The model's `FabricDocument.apply` is all-or-nothing
and returns the inverse operations, so undo is exact and the scene, which only mirrors the
model, follows by itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QUndoCommand

from ..model.document import FabricDocument, ModelError
from ..model.edits import Operation


class ApplyOps(QUndoCommand):
    """Apply `ops` to the document on redo; apply the stored inverse on undo."""

    def __init__(self, doc: FabricDocument, ops: Sequence[Operation], text: str,
                 on_error: Callable[[str], None] | None = None) -> None:
        super().__init__(text)
        self._doc = doc
        self._ops: list[Operation] = list(ops)
        self._inverse: list[Operation] = []
        self._pre_applied = False
        self._on_error = on_error

    @property
    def ops(self) -> list[Operation]:
        return list(self._ops)

    def apply_now(self) -> None:
        """Apply before the push so a refused edit never reaches the stack (raises ModelError)."""
        self._inverse = self._doc.apply(self._ops).inverse
        self._pre_applied = True

    def redo(self) -> None:
        if self._pre_applied:
            self._pre_applied = False
            return
        try:
            self._inverse = self._doc.apply(self._ops).inverse
        except ModelError as exc:  # the model changed under the stack: report, never crash
            self.setObsolete(True)
            if self._on_error:
                self._on_error(f"cannot redo {self.text()}: {exc}")

    def undo(self) -> None:
        try:
            self._doc.apply(self._inverse)
        except ModelError as exc:
            self.setObsolete(True)
            if self._on_error:
                self._on_error(f"cannot undo {self.text()}: {exc}")
