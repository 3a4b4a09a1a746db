"""Auto-layout by tier and alignment on the Topology canvas (pure Python, no Qt).

The tier layout itself lives in `aicnet_gui.generators.canvas_layout` (generators write positions with
it, so generated files open without being laid out again); this module applies it to an open
document and adds what only the editor needs: move operations, alignment, a free slot for a new
device, and the check that decides whether a file's stored positions are usable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from ..generators.canvas_layout import H_GAP, TIER_GAP, layout_devices, overlap_fraction, panel_size
from ..generators.canvas_layout import snap as _snap
from ..model.document import FabricDocument
from ..model.edits import Operation, UpdateDevice
from ..model.fabric import Device

__all__ = ["ALIGNMENTS", "align", "auto_layout", "canvas_size", "lay_out_if_unusable", "layout_devices",
           "move_ops", "needs_layout",
           "overlap_fraction", "overlap_share", "tier_row_slot", "tier_row_slots"]

Size = tuple[float, float]
Box = tuple[float, float, float, float]


def auto_layout(doc: FabricDocument, size_of: Callable[[Device], Size]) -> dict[str, tuple[float, float]]:
    """New top-left positions for every device of the document, tier by tier."""
    return layout_devices(list(doc.devices.values()), doc.tier_of, size_of)  # type: ignore[arg-type]


def move_ops(doc: FabricDocument, positions: dict[str, tuple[float, float]]) -> list[Operation]:
    """UpdateDevice operations for the positions that really change."""
    ops: list[Operation] = []
    for device_id, pos in positions.items():
        device = doc.devices.get(device_id)
        if device is not None and tuple(device.position) != tuple(pos):
            ops.append(UpdateDevice(device_id, {"position": (float(pos[0]), float(pos[1]))}))
    return ops


ALIGNMENTS = ("left", "hcenter", "right", "top", "vcenter", "bottom", "hdistribute", "vdistribute")


def align(boxes: dict[str, Box], how: str) -> dict[str, tuple[float, float]]:
    """New top-left positions that align or evenly distribute the boxes (x, y, w, h)."""
    if how not in ALIGNMENTS:
        raise ValueError(f"unknown alignment {how!r}")
    if len(boxes) < 2:
        return {k: (b[0], b[1]) for k, b in boxes.items()}
    left = min(b[0] for b in boxes.values())
    right = max(b[0] + b[2] for b in boxes.values())
    top = min(b[1] for b in boxes.values())
    bottom = max(b[1] + b[3] for b in boxes.values())
    result: dict[str, tuple[float, float]] = {}
    if how in ("hdistribute", "vdistribute"):
        axis = 0 if how == "hdistribute" else 1
        order = sorted(boxes, key=lambda k: boxes[k][axis])
        span = (right - left) if axis == 0 else (bottom - top)
        used = sum(boxes[k][2 + axis] for k in order)
        gap = (span - used) / (len(order) - 1)
        cursor = left if axis == 0 else top
        for k in order:
            x, y, w, h = boxes[k]
            result[k] = (cursor, y) if axis == 0 else (x, cursor)
            cursor += (w if axis == 0 else h) + gap
        return result
    for k, (x, y, w, h) in boxes.items():
        if how == "left":
            result[k] = (left, y)
        elif how == "right":
            result[k] = (right - w, y)
        elif how == "hcenter":
            result[k] = ((left + right) / 2 - w / 2, y)
        elif how == "top":
            result[k] = (x, top)
        elif how == "bottom":
            result[k] = (x, bottom - h)
        else:
            result[k] = (x, (top + bottom) / 2 - h / 2)
    return result


def tier_row_slot(doc: FabricDocument, tier: int, size_of: Callable[[Device], Size],
                  width: float, exclude: Iterable[str] = ()) -> tuple[float, float]:
    """A free spot at the right end of a tier's devices for a new device of `width`."""
    skip = set(exclude)
    same = [d for d in doc.devices.values() if d.id not in skip and doc.tier_of(d) == tier]
    if same:
        right = max(d.position[0] + size_of(d)[0] for d in same)
        top = min(d.position[1] for d in same)
        return _snap(right + H_GAP), _snap(top)
    others = [d for d in doc.devices.values() if d.id not in skip]
    if not others:
        return 0.0, _snap((3 - tier) * (TIER_GAP + 60))
    # put the tier above or below the nearest tier present
    tiers = {doc.tier_of(d): d for d in others}
    nearest = min(tiers, key=lambda t: abs(t - tier))
    ref_y = min(d.position[1] for d in others if doc.tier_of(d) == nearest)
    left = min(d.position[0] for d in others)
    return _snap(left), _snap(ref_y - (tier - nearest) * (TIER_GAP + 60))


def tier_row_slots(doc: FabricDocument, new_tiers: dict[str, int],
                   size_of: Callable[[Device], Size]) -> dict[str, tuple[float, float]]:
    """Free spots for devices that change tier ("Used as" spine for two leaves): at the right end
    of their new tier's row, one after the other in their present left-to-right order (a row
    made for them sits above or below the nearest tier present, as `tier_row_slot` puts it)."""
    moving = set(new_tiers)
    slots: dict[str, tuple[float, float]] = {}
    next_slot: dict[int, tuple[float, float]] = {}
    for device_id in sorted(new_tiers, key=lambda d: tuple(doc.devices[d].position)):
        device = doc.devices[device_id]
        tier = new_tiers[device_id]
        width = size_of(device)[0]
        x, y = next_slot.get(tier) or tier_row_slot(doc, tier, size_of, width, exclude=moving)
        slots[device_id] = (x, y)
        next_slot[tier] = (_snap(x + width + H_GAP), y)
    return slots


def overlap_share(x: np.ndarray, y: np.ndarray, w: np.ndarray, h: np.ndarray,
                  enough: float = 1.0) -> float:
    """`generators.canvas_layout.overlap_fraction` on columns, vectorised: the share of boxes that
    overlap another box (by more than a unit).  Boxes are put in grid cells as large as the
    largest box (so each lies in at most 2 x 2 cells) and only boxes of one cell are compared;
    it stops early once the share reaches `enough`."""
    n = len(x)
    if n < 2:
        return 0.0
    cell = max(float(w.max()), float(h.max()), 1.0)
    gx0, gy0 = np.floor(x / cell), np.floor(y / cell)
    gx1, gy1 = np.floor((x + w) / cell), np.floor((y + h) / cell)
    span = int(max(gy1.max() - gy0.min(), 0)) + 2
    boxes, keys = [], []
    for dx in (0, 1):
        for dy in (0, 1):
            inside = np.flatnonzero((gx0 + dx <= gx1) & (gy0 + dy <= gy1))
            boxes.append(inside)
            keys.append((gx0[inside] + dx - gx0.min()) * span + (gy0[inside] + dy - gy0.min()))
    box = np.concatenate(boxes)
    key = np.concatenate(keys)
    order = np.argsort(key, kind="stable")
    box, key = box[order], key[order]
    hit = np.zeros(n, dtype=bool)
    for distance in range(1, len(key)):
        same = np.flatnonzero(key[distance:] == key[:-distance])
        if not len(same):
            break
        first, second = box[same], box[same + distance]
        overlap = ((x[first] < x[second] + w[second] - 1) & (x[second] < x[first] + w[first] - 1)
                   & (y[first] < y[second] + h[second] - 1) & (y[second] < y[first] + h[first] - 1))
        hit[first[overlap]] = True
        hit[second[overlap]] = True
        if hit.sum() >= enough * n:
            break
    return float(hit.sum()) / n


def needs_layout(doc: FabricDocument, size_of: Callable[[Device], Size]) -> bool:
    """True when the stored topology positions are unusable: none set, or devices on top of each
    other (a quarter of them or more; positions written for other device sizes, e.g. by a
    generator)."""
    if len(doc.devices) < 2:
        return False
    devices = list(doc.devices.values())
    sizes = [size_of(d) for d in devices]
    x = np.array([d.position[0] for d in devices], dtype=np.float64)
    y = np.array([d.position[1] for d in devices], dtype=np.float64)
    w = np.array([s[0] for s in sizes], dtype=np.float64)
    h = np.array([s[1] for s in sizes], dtype=np.float64)
    return overlap_share(x, y, w, h, enough=0.25) >= 0.25


_SIZES: dict[str, tuple[object, Size]] = {}


def canvas_size(doc: FabricDocument, device: Device) -> Size:
    """The size of a device's panel on the Topology canvas (from its catalog model; cached)."""
    model = doc.device_model(device)
    hit = _SIZES.get(model.id)
    if hit is None or hit[0] is not model:
        hit = _SIZES[model.id] = (model, panel_size(model))
    return hit[1]


def lay_out_if_unusable(doc: FabricDocument) -> bool:
    """Give a document whose stored positions are unusable (unset, or devices on top of each
    other) the tier layout: presentation, not an edit, so it is applied before the document is
    shown and never becomes an undo step.  True when it moved devices."""
    def size_of(device: Device) -> Size:
        return canvas_size(doc, device)

    if not needs_layout(doc, size_of):
        return False
    ops = move_ops(doc, auto_layout(doc, size_of))
    if ops:
        doc.apply(ops)
    return bool(ops)
