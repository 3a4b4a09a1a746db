"""What an interaction is, and what it may ask of the scene that hands it events."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QPointF
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSceneMouseEvent

from ....model.document import FabricDocument
from ...editor import Editor
from ..groups import GroupItem, GroupKey
from ..items import DeviceItem
from ..topology_mirror import TopologyMirror
from ..wire_preview import WirePreview


class CanvasHost(Protocol):
    """The Topology scene as its interactions see it."""

    editor: Editor
    mirror: TopologyMirror
    preview: WirePreview
    snap: bool
    collapsed: dict[GroupKey, GroupItem]

    @property
    def doc(self) -> FabricDocument: ...
    @property
    def detail_scale(self) -> float: ...

    def device_item_at(self, pos: QPointF) -> DeviceItem | None: ...
    def group_at(self, pos: QPointF) -> GroupItem | None: ...
    def selectedItems(self) -> list[QGraphicsItem]: ...  # noqa: N802 - Qt's name
    def clear_item_selection(self) -> None: ...
    def emit_hint(self, text: str) -> None: ...
    def emit_selection_changed(self) -> None: ...
    def refresh_visible_devices(self) -> None: ...
    def interaction_ended(self, interaction: Interaction) -> None: ...
    def default_mouse_move(self, event: QGraphicsSceneMouseEvent) -> None: ...
    def default_mouse_release(self, event: QGraphicsSceneMouseEvent) -> None: ...


class Interaction:
    """One gesture in progress.  Each handler returns True when it took the event; the scene
    then does nothing else with it."""

    def __init__(self, host: CanvasHost) -> None:
        self.host = host

    def mouse_move(self, event: QGraphicsSceneMouseEvent) -> bool:
        return False

    def mouse_release(self, event: QGraphicsSceneMouseEvent) -> bool:
        return False

    def key_press(self, event: QKeyEvent) -> bool:
        return False

    def cancel(self) -> None:
        """Abandon the gesture (a new document, another gesture): nothing is applied."""
        self.end()

    def end(self) -> None:
        self.host.interaction_ended(self)
