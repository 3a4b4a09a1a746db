"""Message boxes the window asks through (one place, so tests can answer them)."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QMessageBox, QWidget

from ...fileio.recovery import Recovery

SAVE = "save"
DISCARD = "discard"
CANCEL = "cancel"
RECOVER = "recover"
LATER = "later"
PLACE = "place"
SHOW = "show"


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.critical(parent, title, text)


def ask_save_changes(parent: QWidget | None, name: str) -> str:
    buttons = QMessageBox.StandardButton
    answer = QMessageBox.warning(
        parent, "Unsaved changes",
        f"“{name}” has unsaved changes.\nSave them before closing it?",
        buttons.Save | buttons.Discard | buttons.Cancel, buttons.Save,
    )
    return {buttons.Save: SAVE, buttons.Discard: DISCARD}.get(answer, CANCEL)


def _choose(parent: QWidget | None, title: str, text: str,
            choices: list[tuple[str, QMessageBox.ButtonRole, str]], otherwise: str,
            cancel: bool = False) -> str:
    """A question whose answers are buttons: `choices` (label, role, answer), the first the
    default; `otherwise` when none is clicked (or Cancel, with `cancel`)."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton,
                      parent)
    buttons = {box.addButton(label, role): answer for label, role, answer in choices}
    if cancel:
        box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(next(iter(buttons)))
    box.exec()
    return buttons.get(box.clickedButton(), otherwise)


def ask_recover(parent: QWidget | None, recovery: Recovery) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(recovery.saved_at))
    what = recovery.original or "an untitled fabric"
    role = QMessageBox.ButtonRole
    return _choose(parent, "Recover unsaved work",
                   f"aicnet did not close cleanly last time.\n\nUnsaved changes to {what} "
                   f"were autosaved at {when}. Recover them?",
                   [("Recover", role.AcceptRole, RECOVER),
                    ("Discard", role.DestructiveRole, DISCARD),
                    ("Not now", role.RejectRole, LATER)], LATER)


def ask_update_catalog(parent: QWidget | None, changes: list[str]) -> bool:
    """Take the local catalog's version of the listed entries?  (`changes`: one line each.)"""
    shown = changes[:15] + ([f"… and {len(changes) - 15} more"] if len(changes) > 15 else [])
    buttons = QMessageBox.StandardButton
    answer = QMessageBox.question(
        parent, "Update catalog entries",
        "This design was made with other versions of these catalog entries than your catalog "
        "has:\n\n" + "\n".join(shown) + "\n\nTake your catalog's versions? The whole design is "
        "checked against them, and Undo gives the old ones back.",
        buttons.Yes | buttons.No, buttons.Yes)
    return answer == buttons.Yes


def ask_place_devices(parent: QWidget | None, text: str) -> str:
    """No length is known (`text` says why): place the devices in new racks, show them on the
    Floor (to drag them into racks), or leave it: PLACE, SHOW or CANCEL."""
    role = QMessageBox.ButtonRole
    return _choose(parent, "No cable length known", text,
                   [("Place in New Racks", role.AcceptRole, PLACE),
                    ("Show on the Floor", role.ActionRole, SHOW)], CANCEL, cancel=True)
