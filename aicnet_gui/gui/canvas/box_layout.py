"""Where collapsed group boxes go when their members' bounding boxes would cover other devices
or each other.

A group's box is its members' bounding box (`groups.box_for`).  That is right for a scalable
unit, whose devices sit together, but a rail or a compute plane has members in several SUs and,
with interleaved planes, in every column: the rail boxes of two SUs of DGX B300 covered the
first SU's servers and each other (Rail 5 hid Rail 1), the two plane boxes of a twin-plane
SN5610 design lay one over the other.  Such a box moves to its members in the topmost tier
band they reach, as tall as that band; boxes that still meet share it side by side, in the
groups' order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QRectF

from .groups import BOX_H, BOX_W, box_for

GAP = 20.0
BAND_INSET = 12.0  # a box grown to its tier band keeps this far inside it


def top_row(rects: Sequence[QRectF]) -> list[QRectF]:
    """The member rects level with the topmost one (their tops above its bottom)."""
    first = min(rects, key=lambda r: r.top())
    return [r for r in rects if r.top() < first.bottom()]


def covers_others(box: QRectF, centres: np.ndarray) -> bool:
    """Whether `box` holds a device centre (x, y rows of `centres`)."""
    if not len(centres):
        return False
    inside = ((centres[:, 0] >= box.left()) & (centres[:, 0] <= box.right())
              & (centres[:, 1] >= box.top()) & (centres[:, 1] <= box.bottom()))
    return bool(inside.any())


def meets(rects: Sequence[QRectF]) -> np.ndarray:
    """n x n: whether rect i and rect j overlap (False on the diagonal); numpy, for the few
    hundred rack boxes of a big fabric."""
    if not rects:
        return np.zeros((0, 0), dtype=bool)
    edges = np.array([(r.left(), r.top(), r.right(), r.bottom()) for r in rects], dtype=float)
    left, top, right, bottom = edges.T
    hit = ((left[:, None] < right[None, :]) & (left[None, :] < right[:, None])
           & (top[:, None] < bottom[None, :]) & (top[None, :] < bottom[:, None]))
    np.fill_diagonal(hit, False)
    return hit


def _clusters(rects: list[QRectF]) -> list[list[int]]:
    """Indices of the rects, grouped into sets that meet (directly or through each other)."""
    hit = meets(rects)
    parent = list(range(len(rects)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(*np.nonzero(np.triu(hit)), strict=True):
        parent[find(int(i))] = find(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(len(rects)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def side_by_side(count: int, area: QRectF) -> list[QRectF]:
    """`count` boxes sharing `area` in a row (in rows of as many as fit when it is narrow)."""
    cols = max(1, min(count, int((area.width() + GAP) // (BOX_W + GAP))))
    width = (area.width() - GAP * (cols - 1)) / cols
    height = max(area.height(), BOX_H)
    return [QRectF(area.left() + (i % cols) * (width + GAP), area.top() + (i // cols) * (height + GAP),
                   width, height) for i in range(count)]


def band_of(rect: QRectF, bands: Sequence[QRectF]) -> QRectF | None:
    """The tier band holding the centre of `rect`, if any."""
    centre = rect.center()
    return next((band for band in bands if band.contains(centre)), None)


def head_rects(rects: Sequence[QRectF], bands: Sequence[QRectF]) -> list[QRectF]:
    """The members in the tier band of the topmost member (its top row without bands)."""
    first = min(rects, key=lambda r: r.top())
    band = band_of(first, bands)
    if band is None:
        return top_row(rects)
    return [r for r in rects if band.contains(r.center())]


def grown_to_band(area: QRectF, bands: Sequence[QRectF], centres: np.ndarray) -> QRectF:
    """`area` as tall as its tier band (less its padding) when that covers no other device."""
    band = band_of(area, bands)
    if band is None:
        return area
    grown = QRectF(area.left(), max(band.top() + BAND_INSET, min(area.top(), band.bottom())),
                   area.width(), 0)
    grown.setBottom(max(band.bottom() - BAND_INSET, area.bottom()))
    return area if covers_others(grown, centres) else grown


def place_boxes(member_rects: list[list[QRectF]], centres: np.ndarray,
                bands: Sequence[QRectF] = ()) -> list[QRectF]:
    """The box of each group (groups in their display order) given its members' rects, the
    centres of the devices drawn outside every box and the scene's tier bands."""
    boxes = [box_for(rects) for rects in member_rects]
    overlapping = meets(boxes).any(axis=1)
    crowded = [i for i, box in enumerate(boxes) if overlapping[i] or covers_others(box, centres)]
    if not crowded:
        return boxes
    heads = [grown_to_band(box_for(head_rects(member_rects[i], bands)), bands, centres)
             for i in crowded]
    for cluster in _clusters(heads):
        area = QRectF()
        for k in cluster:
            area = heads[k] if area.isNull() else area.united(heads[k])
        for k, rect in zip(sorted(cluster), side_by_side(len(cluster), area), strict=True):
            boxes[crowded[k]] = rect
    return boxes
