"""The collapsed groups of the Topology scene: one box in place of each group's devices.

A view setting, not an edit (see `groups.py`): `CollapsedGroups` keeps the boxes by group key,
recomputes their members and boxes after an edit (`refresh`), hides the members' items and
tells the link layer and the device layer which devices are inside a box, and sums the
members' badges on each box.  With a plane filter a box holds only its members of the plane
shown, and a box with none of them is hidden (still collapsed when the filter changes back).
The boxes are children of one content-less `layer`, which the scene hides while the overview
draws the design as blocks (a box there was a speck over the blocks that caught their clicks).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsScene

from ...editing.units import natural_key
from . import groups
from .box_layout import place_boxes
from .groups import GroupItem, GroupKey
from .topology_mirror import TopologyMirror


class CollapsedGroups:
    """Group key -> box of one scene; the scene's `collapsed` is this `boxes` dict."""

    def __init__(self, scene: QGraphicsScene, mirror: TopologyMirror) -> None:
        self.scene = scene
        self.mirror = mirror
        #: collapsed groups (view state, not in the model); never replaced, only changed
        self.boxes: dict[GroupKey, GroupItem] = {}
        #: the boxes' parent: draws nothing, shown or hidden as a whole (`set_shown`)
        self.layer = QGraphicsRectItem()
        self.layer.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)
        self.layer.setZValue(9)
        scene.addItem(self.layer)

    def set_shown(self, shown: bool) -> None:
        """Show or hide every box at once (hidden while the canvas draws the overview)."""
        if shown != self.layer.isVisible():
            self.layer.setVisible(shown)

    def clear(self) -> None:
        """A new document: every group expanded, no box left."""
        for box in self.boxes.values():
            self.scene.removeItem(box)
        self.boxes.clear()

    def collapse(self, keys: list[GroupKey]) -> int:
        """Add a box for each group of `keys` that has members; how many were added (the caller
        refreshes)."""
        count = 0
        for key in keys:
            if key in self.boxes or not groups.members(self.mirror.doc, key):
                continue
            box = GroupItem(key)
            box.setParentItem(self.layer)
            self.boxes[key] = box
            count += 1
        return count

    def expand(self, keys: list[GroupKey]) -> None:
        """Remove the boxes of `keys` (the caller refreshes)."""
        for key in keys:
            box = self.boxes.pop(key, None)
            if box is not None:
                self.scene.removeItem(box)

    def hidden(self) -> set[str]:
        """The devices inside a box."""
        hidden: set[str] = set()
        for box in self.boxes.values():
            hidden.update(box.members)
        return hidden

    def refresh(self) -> None:
        """Recompute members, boxes and visibility of the collapsed groups after an edit."""
        mirror = self.mirror
        mirror.ensure_items()
        doc, items = mirror.doc, mirror.items
        filtered = mirror.filtered
        hidden: set[str] = set()
        shown: list[tuple[GroupItem, list[str], list[QRectF]]] = []
        for key, box in list(self.boxes.items()):
            everyone = [d for d in groups.members(doc, key) if d not in hidden and d in items]
            if not everyone:
                self.scene.removeItem(self.boxes.pop(key))
                continue
            hidden.update(everyone)
            # the plane filter shows the box with its members of the plane shown, or not at all
            # (a box of plane 1 while plane 2 is shown); it stays collapsed for later
            ids = [d for d in everyone if d not in filtered]
            box.members = ids
            if not ids:
                if box.isSelected():
                    box.setSelected(False)
                box.setVisible(False)
                continue
            box.setVisible(True)
            shown.append((box, ids, [items[d].sceneBoundingRect() for d in ids]))
        outside = [item.sceneBoundingRect().center() for d, item in items.items()
                   if d not in hidden and d not in filtered] if shown else []
        centres = np.array([(p.x(), p.y()) for p in outside], dtype=float).reshape(-1, 2)
        shown.sort(key=lambda entry: (entry[0].key.kind, natural_key(entry[0].key.value)))
        entries = []
        for (box, ids, _rects), rect in zip(shown, place_boxes([r for _b, _i, r in shown], centres, self._bands()),
                                            strict=True):
            box.configure(rect, box.key.title(doc), groups.describe(doc, ids))
            centre = box.centre()
            entries.append((ids, centre.x(), centre.y()))
        self.scene.blockSignals(True)
        mirror.set_grouped(hidden)
        self.scene.blockSignals(False)
        mirror.links.set_collapsed(entries)
        self.show_badges()

    def _bands(self) -> list[QRectF]:
        """The scene's tier bands (where a crowded box may grow), none for another scene."""
        bands = getattr(self.scene, "bands", None)
        return [rect for _tier, rect in bands.bands()] if bands is not None else []

    def show_badges(self) -> None:
        """Each box: the worst severity of its members' badges and the sum of their findings."""
        badges = self.mirror.badges
        for box in self.boxes.values():
            worst: tuple[str, int] | None = None
            total = 0
            for device_id in box.members:
                badge = badges.get(device_id)
                if badge is not None:
                    total += badge[1]
                    if worst is None or badge[0] == "error":
                        worst = badge
            box.set_badge((worst[0], total) if worst else None)

    def at(self, pos: QPointF) -> GroupItem | None:
        """The box under scene `pos`, if any."""
        for item in self.scene.items(pos):
            if isinstance(item, GroupItem) and item.isVisible():
                return item
        return None
