"""Where a device dropped from the palette goes on the Topology canvas.

Centred on the drop point, moved into a band of its tier (never into another tier's band),
snapped to the grid, then moved right until it overlaps no device.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QRectF

from ...editing import layout
from ...generators.canvas_layout import H_GAP
from ...model.document import FabricDocument
from ...model.fabric import Device
from .. import theme

SizeOf = Callable[[Device], tuple[float, float]]


def drop_position(doc: FabricDocument, size_of: SizeOf, bands: list[tuple[int, QRectF]],
                  tier: int, centre: tuple[float, float], size: tuple[float, float],
                  snap: bool) -> tuple[float, float]:
    """The top-left corner for a device of `tier` and `size` dropped centred at `centre`."""
    width, height = size
    x, y = centre[0] - width / 2, centre[1] - height / 2
    y = row_in_band(doc, size_of, bands, tier, y, height)
    if snap:
        step = theme.GRID_STEP
        x, y = round(x / step) * step, round(y / step) * step
    return free_x(doc, size_of, x, y, width, height, snap), y


def free_x(doc: FabricDocument, size_of: SizeOf, x: float, y: float, width: float,
           height: float, snap: bool) -> float:
    """`x`, or further right until a device of `width` x `height` at (x, y) overlaps none."""
    boxes = sorted((d.position[0], d.position[0] + size_of(d)[0]) for d in doc.devices.values()
                   if d.position[1] < y + height and y < d.position[1] + size_of(d)[1])
    for left, right in boxes:
        if left < x + width and x < right:
            x = right + H_GAP
            if snap:
                x = math.ceil(x / theme.GRID_STEP) * theme.GRID_STEP
    return x


def row_in_band(doc: FabricDocument, size_of: SizeOf, bands: list[tuple[int, QRectF]],
                tier: int, y: float, height: float) -> float:
    """Where a device of `tier` dropped at `y` goes: where it is when that is inside a band of
    its tier, else on the top row of the nearest band of its tier; a tier without a band goes
    above or below the nearest tier (layout.tier_row_slot), never into another tier's band."""
    centre = y + height / 2
    own = [rect for t, rect in bands if t == tier]
    if any(rect.top() <= centre <= rect.bottom() for rect in own):
        return y
    if own:
        band = min(own, key=lambda r: min(abs(r.top() - centre), abs(r.bottom() - centre)))
        rows = [d.position[1] for d in doc.devices.values()
                if doc.tier_of(d) == tier and band.top() <= d.position[1] <= band.bottom()]
        return min(rows) if rows else band.center().y() - height / 2
    if any(rect.top() <= centre <= rect.bottom() for _t, rect in bands):
        return layout.tier_row_slot(doc, tier, size_of, 0.0)[1]
    return y
