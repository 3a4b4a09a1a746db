"""Picking with a click or a rubber band: what a press that starts no wire selects.

Devices and collapsed groups are Qt items: Qt selects them (and starts a move) once the press
is passed on.  Cables live in the batched link layer, so picking them is done here: a click on a
cable selects it (Ctrl or Shift toggles it), a click elsewhere without a modifier clears the
cable selection, and a rubber band picks the cables with both ends inside it.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QGraphicsSceneMouseEvent

from ..items import DeviceItem
from .base import Interaction

PICK_PIXELS = 5.0
"""How near a cable a click must be, in view pixels."""


def adds(event: QGraphicsSceneMouseEvent) -> bool:
    """Ctrl or Shift held: the click adds to (or toggles in) the selection."""
    return bool(event.modifiers() & (Qt.KeyboardModifier.ControlModifier
                                     | Qt.KeyboardModifier.ShiftModifier))


class PickInteraction(Interaction):
    """Selection by click and rubber band.  It never stays active: each press is answered at
    once (`press`), and Qt takes what it does not take."""

    def press(self, event: QGraphicsSceneMouseEvent, item: DeviceItem | None,
              scale: float) -> bool:
        """A left press on `item` (or on no device): True when a cable was picked (the press
        ends here), False when Qt gets it next (device or group selection, a move, a band)."""
        host = self.host
        links = host.mirror.links
        add = adds(event)
        pos = event.scenePos()
        if item is not None:
            if not add and not item.isSelected() and links.selected_ids():
                links.set_selected(set())
            return False
        if host.collapsed and host.group_at(pos) is not None:
            if not add and links.selected_ids():
                links.set_selected(set())
            return False  # a collapsed group's box takes the click
        link_id = links.link_at(pos.x(), pos.y(), PICK_PIXELS / scale)
        if link_id is None:
            if not add and links.selected_ids():
                links.set_selected(set())
                host.emit_selection_changed()
            return False
        if add:
            links.set_selected(links.selected_ids() ^ {link_id})
        else:
            host.clear_item_selection()
            links.set_selected({link_id})
        host.emit_selection_changed()
        return True

    def links_in(self, rect: QRectF, add: bool) -> None:
        """A rubber band over `rect`: the cables with both ends inside it are selected."""
        links = self.host.mirror.links
        ids = set(links.links_in_rect(rect))
        if add:
            ids |= links.selected_ids()
        links.set_selected(ids)
        self.host.emit_selection_changed()
