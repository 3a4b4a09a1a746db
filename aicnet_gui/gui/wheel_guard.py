"""Keep the mouse wheel from editing fields it merely passes over.

Scrolling the inspector or the template wizard over a combo box or spin box would otherwise
change its value (one notch over MTU made it 4095 and created an undoable edit).  Such widgets
take the wheel only once they have keyboard focus; otherwise the wheel scrolls their parent.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QWidget


class WheelGuard(QObject):
    """An application-wide event filter: unfocused combo and spin boxes pass the wheel on."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt name
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QComboBox | QAbstractSpinBox):
            widget: QWidget = watched
            if not widget.hasFocus():
                parent = widget.parentWidget()
                if parent is not None:
                    QApplication.sendEvent(parent, event)
                return True
        if event.type() == QEvent.Type.Polish and isinstance(watched, QComboBox | QAbstractSpinBox):
            watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        return False


def install(app: QApplication) -> WheelGuard:
    guard = WheelGuard(app)
    app.installEventFilter(guard)
    return guard
