"""The wheel does not change a combo or spin box it merely passes over."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QSpinBox, QVBoxLayout, QWidget

from aicnet_gui.gui import wheel_guard


def _wheel(widget: QWidget) -> None:
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                        QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_unfocused_spin_box_ignores_the_wheel_and_focused_one_takes_it(qtbot, qapp):
    guard = wheel_guard.install(qapp)
    try:
        host = QWidget()
        layout = QVBoxLayout(host)
        spin = QSpinBox()
        spin.setRange(0, 9000)
        spin.setValue(4096)
        other = QSpinBox()
        layout.addWidget(spin)
        layout.addWidget(other)
        qtbot.addWidget(host)
        host.show()
        qtbot.waitExposed(host)
        other.setFocus()
        qtbot.waitUntil(other.hasFocus)
        _wheel(spin)
        assert spin.value() == 4096
        spin.setFocus()
        qtbot.waitUntil(spin.hasFocus)
        _wheel(spin)
        assert spin.value() == 4097
    finally:
        qapp.removeEventFilter(guard)
