"""What a `FabricView` asks of the scene it shows, with defaults for what a scene does not do.

The Topology and Floor scenes derive from `FabricScene`, so the view calls these methods
directly instead of probing its scene with `hasattr`.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsScene


class SizedOnScreen(Protocol):
    """An item that draws things of a size on screen (titles, blocks grown to be seen): where
    they reach depends on the zoom, so `content_rect` cannot say."""

    def scene(self) -> QGraphicsScene | None: ...

    def drawn_rect(self, scale: float) -> QRectF:
        """Where it draws at view scale `scale`, in scene units (null: nothing there)."""
        ...


class FabricScene(QGraphicsScene):
    """A scene a `FabricView` can show."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._sized: list[SizedOnScreen] = []

    def content_rect(self) -> QRectF:
        """What "fit to view" shows."""
        return self.itemsBoundingRect()

    def add_sized_on_screen(self, item: SizedOnScreen) -> None:
        """`item` draws things of a size on screen: fit takes them in (`drawn_rect`) while it
        is in this scene."""
        self._sized.append(item)

    def drawn_rect(self, scale: float) -> QRectF:
        """What the scene draws at view scale `scale` that `content_rect` may not hold (the
        layers of `add_sized_on_screen`), in scene units; null: nothing."""
        out = QRectF()
        for item in self._sized:
            if item.scene() is self:
                rect = item.drawn_rect(scale)
                if not rect.isNull():
                    out = rect if out.isNull() else out.united(rect)
        return out

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
