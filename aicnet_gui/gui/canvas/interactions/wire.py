"""Drawing a cable from a port to a port, or moving one end of a cable to another port.

Pressing a port starts it (from a free port: a new cable; from a used port: that cable's end
moves).  While the mouse moves, each port under it is checked against the fixed end
(`editing/compat.connection_problem`: speed, technology, the optics already in the cages) and
the preview line shows the port's title or the reason it does not fit; every device marks its
valid targets.  Releasing over a port asks the `Editor` to connect or move the end; Escape
cancels.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGraphicsSceneMouseEvent

from ....editing.compat import PortRef, connection_problem, port_title
from ....editing.units import speed_label
from ..wire_state import WireState
from .base import CanvasHost, Interaction


class WireInteraction(Interaction):
    """The cable being drawn from `source`."""

    def __init__(self, host: CanvasHost, source: PortRef) -> None:
        super().__init__(host)
        doc = host.doc
        link = doc.link_at(source.device, source.port)
        if link is not None:
            moving_end = "a" if link.a.key() == source.key() else "b"
            fixed = link.b if moving_end == "a" else link.a
            fixed_ref = PortRef(fixed.device, fixed.port)
            moving = link.id
        else:
            fixed_ref, moving_end, moving = source, None, None

        def check(key: tuple[str, str]) -> str | None:
            if moving is not None and key == source.key():
                return None
            return connection_problem(doc, fixed_ref, PortRef(*key), moving_link=moving)

        self.state = WireState(source.key(), fixed_ref.key(), moving, moving_end, check)
        source_port = doc.port(source.device, source.port)
        self.state.includes_management = source_port is not None and not source_port.group.fabric
        start = self._port_pos(fixed_ref)
        host.preview.set_line(start, start, "none", "")
        host.preview.setVisible(True)
        if moving:
            host.mirror.links.set_highlight({moving})
        verb = "Move the cable end" if moving else "Drag to a port"
        host.emit_hint(f"{verb} from {port_title(doc, fixed_ref)}; green ports fit; Esc cancels")
        host.mirror.set_wire(self.state)
        host.refresh_visible_devices()

    # ---------------------------------------------------------------- events
    def mouse_move(self, event: QGraphicsSceneMouseEvent) -> bool:
        self.update(event.scenePos())
        return True

    def mouse_release(self, event: QGraphicsSceneMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.finish(event.scenePos())
        return True

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() != Qt.Key.Key_Escape:
            return False
        self.cancel()
        return True

    # ---------------------------------------------------------------- the gesture
    def update(self, pos: QPointF) -> None:
        """The mouse is at `pos`: follow it, check the port under it."""
        host, wire = self.host, self.state
        target = self._target_at(pos)
        start = self._port_pos(PortRef(*wire.fixed_key))
        old_hover = wire.hover_key
        wire.hover_key = target.key() if target else None
        if target is None:
            host.preview.set_line(start, pos, "none", "")
        else:
            problem = wire.problem(target.device, target.port)
            end = self._port_pos(target)
            if problem is None:
                doc = host.doc
                port = doc.port(target.device, target.port)
                text = f"{port_title(doc, target)} · {speed_label(port.speed_gbps) if port else ''}"
                host.preview.set_line(start, end, "ok", text)
            else:
                host.preview.set_line(start, end, "bad", problem)
        if old_hover != wire.hover_key:
            items = host.mirror.items
            for key in (old_hover, wire.hover_key):
                if key and key[0] in items:
                    items[key[0]].update()

    def finish(self, pos: QPointF) -> bool:
        """Released at `pos`: connect or move the end there; True when the edit was made."""
        wire = self.state
        target = self._target_at(pos)
        self.cancel()
        if target is None or target.key() == wire.source_key:
            return False
        editor = self.host.editor
        if wire.moving_link is not None:
            return editor.move_link_end(wire.moving_link, wire.moving_end or "b", target)
        return editor.connect(PortRef(*wire.fixed_key), target)

    def cancel(self) -> None:
        host = self.host
        host.preview.setVisible(False)
        host.mirror.links.set_highlight(set())
        host.mirror.set_wire(None)
        self.end()
        host.emit_hint("")
        host.refresh_visible_devices()

    # ---------------------------------------------------------------- ports
    def _port_pos(self, ref: PortRef) -> QPointF:
        item = self.host.mirror.items.get(ref.device)
        pos = item.port_scene_pos(ref.port) if item else None
        return pos if pos is not None else QPointF()

    def _target_at(self, pos: QPointF) -> PortRef | None:
        item = self.host.device_item_at(pos)
        if item is None:
            return None
        port = item.port_at(item.mapFromScene(pos))
        return PortRef(item.device_id, port.name) if port else None
