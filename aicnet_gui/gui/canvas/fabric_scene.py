"""What a `FabricView` asks of the scene it shows, with defaults for what a scene does not do.

The Topology and Floor scenes derive from `FabricScene`, so the view calls these methods
directly instead of probing its scene with `hasattr`.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsScene


class FabricScene(QGraphicsScene):
    """A scene a `FabricView` can show."""

    def content_rect(self) -> QRectF:
        """What "fit to view" shows."""
        return self.itemsBoundingRect()

    def draws_far_out(self) -> bool:
        """The scene has a picture readable below the view's least zoom (the Topology's
        overview of a big design), so fit may show a design bigger than that zoom allows."""
        return False

    def empty_hint(self) -> str:
        """Text written over an empty canvas ("" for none)."""
        return ""

    def hint_avoid(self) -> QRectF:
        """Scene area the empty hint must not cover (null: none)."""
        return QRectF()

    def view_painted(self) -> None:
        """A view painted a frame."""

    def before_frame(self, visible: QRectF) -> None:
        """A view is about to paint the scene area `visible` (create what it needs to show)."""

    def select_links_in(self, rect: QRectF, add: bool) -> None:
        """The view's rubber band ended over `rect` (Qt selected the items inside it)."""

    def drop_device(self, model_id: str, pos: QPointF) -> str | None:
        """A palette model dropped at scene `pos`: the new device's id, or None."""
        return None
