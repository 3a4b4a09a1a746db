"""Edit › Find Device (Ctrl+F): go to a device by its name or id, with completion.

A small box over the window: typing offers the device names (and ids) that contain the text, in
natural order; Enter selects the device of that name or id on the canvas shown and centres it,
or, when the text names none exactly, every device whose name or id contains it (a "leaf-1"
finds leaf-10 to leaf-19).  The list is made once per revision of the document from its names
and handed to Qt's completer (a string list model, filtered in C++), so an 18,624-device
design completes as fast as a small one; nothing is searched per keystroke in Python.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtWidgets import QCompleter, QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout

from ..editing.units import counted, natural_key

MAX_MATCHES = 2000
"""More devices than this containing the text are not selected at once (type more of it)."""


def matches(names: dict[str, str], text: str) -> list[str]:
    """The device ids `text` finds: the device named so or with that id (case aside), else every
    device whose name or id contains it.  `names`: id -> name."""
    wanted = text.strip().casefold()
    if not wanted:
        return []
    exact = [i for i, name in names.items() if name.casefold() == wanted or i.casefold() == wanted]
    if exact:
        return exact
    return [i for i, name in names.items() if wanted in name.casefold() or wanted in i.casefold()]


class FindDevice(QDialog):
    """The Find Device box of one window (made once, shown again by Ctrl+F)."""

    def __init__(self, window: Any) -> None:  # the MainWindow (annotated loosely: no cycle)
        super().__init__(window)
        self.window = window
        self.setWindowTitle("Find Device")
        self._made_for: tuple[int, int] | None = None
        self._names: dict[str, str] = {}
        self.line = QLineEdit()
        self.line.setPlaceholderText("a device name or id, e.g. leaf-01")
        self.line.setClearButtonEnabled(True)
        self.line.setMinimumWidth(320)
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setMaxVisibleItems(12)
        self.completer.activated.connect(self._completed)
        self.line.setCompleter(self.completer)
        self.note = QLabel()
        self.note.setStyleSheet("color: #52606d;")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.go_button = buttons.addButton("Go", QDialogButtonBox.ButtonRole.AcceptRole)
        self.go_button.setDefault(True)
        buttons.rejected.connect(self.close)
        self.go_button.clicked.connect(self.go)
        layout = QVBoxLayout(self)
        layout.addWidget(self.line)
        layout.addWidget(self.note)
        layout.addWidget(buttons)

    def open_for_window(self) -> None:
        """Show the box with the names of the document as it is now, the text selected."""
        self.refresh()
        self.show()
        self.raise_()
        self.activateWindow()
        self.line.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.line.selectAll()

    def refresh(self) -> None:
        """The completions: every device name, then the ids that are not names (once per
        revision of the document)."""
        doc = self.window.document.fabric
        key = (id(doc), doc.revision)
        if key == self._made_for:
            return
        self._made_for = key
        self._names = {d.id: d.name for d in doc.devices.values()}
        names = sorted(set(self._names.values()), key=natural_key)
        seen = set(names)
        ids = sorted((i for i in self._names if i not in seen), key=natural_key)
        self.model.setStringList(names + ids)
        self.note.setText(f"{counted(len(self._names), 'device')}: type part of a name or id")

    def _completed(self, text: str) -> None:
        self.line.setText(text)
        self.go()

    def go(self) -> bool:
        """Select and centre what the text finds; False (and a note) when it finds nothing."""
        self.refresh()
        found = matches(self._names, self.line.text())
        if not found:
            self.note.setText(f"No device is named or has the id “{self.line.text().strip()}”")
            return False
        if len(found) > MAX_MATCHES:
            self.note.setText(f"{counted(len(found), 'device')} contain “{self.line.text().strip()}”: "
                              "type more of the name")
            return False
        window = self.window
        window.select_ids(found, [], [], centre=True)
        what = (self._names[found[0]] if len(found) == 1
                else f"{counted(len(found), 'device')} containing “{self.line.text().strip()}”")
        window.show_message(f"Found {what}")
        self.close()
        return True

    def keyPressEvent(self, event) -> None:  # noqa: ANN001, N802
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not self.completer.popup().isVisible():
            self.go()
            event.accept()
            return
        super().keyPressEvent(event)
