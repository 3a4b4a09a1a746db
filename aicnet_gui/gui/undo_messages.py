"""Say in the status bar what Undo and Redo just did ("Undid: Set breakout 4x200G on 64 cages")."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QUndoStack


def undone_text(stack: QUndoStack) -> str:
    """The text of the step an undo just took back (the one at the stack's index now)."""
    command = stack.command(stack.index())
    return command.text() if command is not None else ""


def redone_text(stack: QUndoStack) -> str:
    """The text of the step a redo just did again (the one just below the index)."""
    command = stack.command(stack.index() - 1) if stack.index() > 0 else None
    return command.text() if command is not None else ""


def connect(undo: QAction, redo: QAction, stack: QUndoStack, show: Callable[[str], None]) -> None:
    """After the Undo / Redo actions (menu, toolbar, shortcut) ran, `show` what they did."""
    undo.triggered.connect(lambda: show(f"Undid: {undone_text(stack)}"))
    redo.triggered.connect(lambda: show(f"Redid: {redone_text(stack)}"))
