"""Form helpers of the inspector: fields that show one value or "(mixed)" and commit on edit.

Several items can be selected at once; a field then shows their common value, or "(mixed)"
when they differ, and an edit applies to all of them.  Values are written with the field's
signals blocked, so refreshing a field never echoes back as an edit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSignalBlocker, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from ...model.document import FabricDocument
    from ..editor import Editor

MIXED = object()
"""The value of a field when the selected items disagree."""

MIXED_TEXT = "(mixed)"


def common(values: Iterable[Any]) -> Any:
    """The one value all items share, or MIXED."""
    iterator = iter(values)
    try:
        first = next(iterator)
    except StopIteration:
        return None
    for value in iterator:
        if value != first:
            return MIXED
    return first


def set_line(edit: QLineEdit, value: Any, placeholder: str = "") -> None:
    with QSignalBlocker(edit):
        if value is MIXED:
            edit.setText("")
            edit.setPlaceholderText(MIXED_TEXT)
        else:
            edit.setText("" if value is None else str(value))
            edit.setPlaceholderText(placeholder)
        edit.setCursorPosition(0)


def set_combo(combo: QComboBox, value: Any) -> None:
    """Select the item whose data is `value`; MIXED selects a "(mixed)" entry added on demand."""
    with QSignalBlocker(combo):
        mixed_index = combo.findData(MIXED_TEXT)
        if value is MIXED:
            if mixed_index < 0:
                combo.insertItem(0, MIXED_TEXT, MIXED_TEXT)
                mixed_index = 0
            combo.setCurrentIndex(mixed_index)
            return
        if mixed_index >= 0:
            combo.removeItem(mixed_index)
        index = combo.findData(value)
        combo.setCurrentIndex(index if index >= 0 else 0)


def set_spin(spin: QSpinBox | QDoubleSpinBox, value: Any, empty: float = 0) -> None:
    with QSignalBlocker(spin):
        if value is MIXED:
            spin.setSpecialValueText(MIXED_TEXT)
            spin.setValue(spin.minimum())
        else:
            spin.setSpecialValueText("—")
            spin.setValue(empty if value is None else value)


def combo_value(combo: QComboBox) -> Any:
    data = combo.currentData()
    return MIXED if data == MIXED_TEXT else data


def spin(minimum: float, maximum: float, decimals: int | None = None, suffix: str = "") -> QSpinBox | QDoubleSpinBox:
    box: QSpinBox | QDoubleSpinBox
    if decimals is None:
        box = QSpinBox()
        box.setRange(int(minimum), int(maximum))
    else:
        box = QDoubleSpinBox()
        box.setDecimals(decimals)
        box.setRange(minimum, maximum)
    box.setKeyboardTracking(False)
    box.setSpecialValueText("—")
    if suffix:
        box.setSuffix(suffix)
    box.setAlignment(Qt.AlignmentFlag.AlignRight)
    return box


def on_commit(edit: QLineEdit, callback: Callable[[str], None]) -> None:
    """Call back with the text when editing finishes and the text really changed."""
    def fire() -> None:
        if edit.isModified():
            edit.setModified(False)
            callback(edit.text())

    edit.editingFinished.connect(fire)


class Header(QWidget):
    """Title and subtitle on top of an inspector page."""

    def __init__(self) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.setSpacing(2)
        self.title = QLabel()
        self.title.setStyleSheet("font-size: 14px; font-weight: 600; color: #1f2933;")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        self.subtitle = QLabel()
        self.subtitle.setStyleSheet("color: #616e7c;")
        self.subtitle.setWordWrap(True)
        layout.addWidget(self.title)
        layout.addWidget(self.subtitle)

    def set(self, title: str, subtitle: str = "") -> None:
        self.title.setText(title)
        self.subtitle.setText(subtitle)
        self.subtitle.setVisible(bool(subtitle))


def section(text: str) -> QLabel:
    label = QLabel(text.upper())
    label.setStyleSheet("color: #8a94a6; font-size: 10px; font-weight: 700; letter-spacing: 1px; padding-top: 8px;")
    return label


def separator() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setStyleSheet("color: #e3e8ef;")
    return line


def form() -> QFormLayout:
    layout = QFormLayout()
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setHorizontalSpacing(10)
    layout.setVerticalSpacing(6)
    layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    return layout


class Page(QWidget):
    """An inspector page; `refresh_later` re-reads the model once control returns to the loop.

    Deferring matters: a commit runs inside a widget's signal, and refreshing can delete that
    very widget (the cage combos are rebuilt).
    """

    def __init__(self) -> None:
        super().__init__()
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self.refresh)

    def refresh(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def refresh_later(self) -> None:
        self._refresh_timer.start()


class SelectionPage(Page):
    """An inspector page that edits the selected objects of one kind: their ids (`ids`), read
    from the document through `editor` (one undo step per change)."""

    def __init__(self, editor: Editor) -> None:
        super().__init__()
        self.editor = editor
        self.ids: list[str] = []

    @property
    def doc(self) -> FabricDocument:
        return self.editor.doc

    def show_ids(self, ids: list[str]) -> None:
        """Show (and edit) the objects of `ids`."""
        self.ids = list(ids)
        self.refresh()

    def selected(self, table: dict[str, Any]) -> list[Any]:
        """The objects of `ids` that `table` (the document's devices, links or racks) still
        holds, in the order of `ids`."""
        return [table[i] for i in self.ids if i in table]


def on_screen(widget: QWidget) -> bool:
    """True when a dock is really shown: a dock behind another dock's tab still reports
    `isVisible()`, but has nothing of itself on screen."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()
