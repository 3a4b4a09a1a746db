"""Moving devices: a mouse drag (Qt moves the selected items; this snaps them to the grid, brings
their cable ends along and makes one undo step on release) and the arrow keys (`nudge`)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGraphicsSceneMouseEvent

from ... import theme
from ..items import DeviceItem
from .base import CanvasHost, Interaction

NUDGE = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, -1),
         Qt.Key.Key_Down: (0, 1)}
"""Arrow key -> grid steps (Shift: five)."""


class MoveInteraction(Interaction):
    """A drag of the selected devices, begun when a device item grabbed the mouse."""

    def mouse_move(self, event: QGraphicsSceneMouseEvent) -> bool:
        self.host.default_mouse_move(event)  # Qt moves the selected items
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.follow()
        return True

    def mouse_release(self, event: QGraphicsSceneMouseEvent) -> bool:
        self.host.default_mouse_release(event)
        if event.button() == Qt.MouseButton.LeftButton:
            self.end()
            self.commit()
        return True

    def follow(self) -> None:
        """Qt moved the selected devices: snap them to the grid and bring their cables along."""
        host = self.host
        step = theme.GRID_STEP
        for item in host.selectedItems():
            if not isinstance(item, DeviceItem):
                continue
            if host.snap:
                pos = item.pos()
                snapped = QPointF(round(pos.x() / step) * step, round(pos.y() / step) * step)
                if snapped != pos:
                    item.setPos(snapped)
            host.mirror.device_item_moved(item)

    def commit(self) -> None:
        """After the drag: one undo step with every device whose position changed; refused,
        the items go back to where the model has them."""
        host = self.host
        doc = host.doc
        moved = {}
        for item in host.selectedItems():
            if not isinstance(item, DeviceItem):
                continue
            device = doc.devices.get(item.device_id)
            if device is None:
                continue
            pos = (item.pos().x(), item.pos().y())
            if pos != tuple(device.position):
                moved[item.device_id] = pos
        if moved and not host.editor.move_devices(moved):
            items = host.mirror.items
            for device_id in moved:
                item = items[device_id]
                item.sync_pos(*doc.devices[device_id].position)
                host.mirror.device_item_moved(item)


def nudge(host: CanvasHost, event: QKeyEvent, devices: list[str]) -> bool:
    """An arrow key moves the selected `devices` one grid step (five with Shift), one undo
    step; True when the key was an arrow and something was selected."""
    step = NUDGE.get(Qt.Key(event.key()))
    if step is None or not devices:
        return False
    distance = theme.GRID_STEP * (5 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1)
    doc = host.doc
    host.editor.move_devices({
        d: (doc.devices[d].position[0] + step[0] * distance,
            doc.devices[d].position[1] + step[1] * distance)
        for d in devices
    })
    return True
