"""Auto-layout by tier and alignment on the Topology canvas (pure Python, no Qt).

Auto-layout puts core switches on top, then spines, leaves, and servers and storage at the
bottom.  Servers are grouped by scalable unit (tag `su`, else `pod`, else rack) and each group's
leaves sit right above it, so a rail-optimized fabric reads as blocks.  Rows wrap so that a
4,096-server fabric stays a compact rectangle.  Positions are top-left corners in scene units.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable

from ..model.document import FabricDocument
from ..model.edits import Operation, UpdateDevice
from ..model.fabric import Device
from .units import natural_key

Size = tuple[float, float]
Box = tuple[float, float, float, float]

H_GAP = 40.0
V_GAP = 36.0
TIER_GAP = 240.0
GROUP_GAP = 160.0
MAX_ROW_W = 16000.0
ASPECT = 2.0
MAX_GROUP_LEAVES_PER_ROW = 16
ONE_ROW_BLOCKS = 2
GRID = 20.0


def _snap(value: float) -> float:
    return round(value / GRID) * GRID


def _group_key(device: Device) -> str:
    for tag in ("su", "pod"):
        if tag in device.tags:
            return f"{tag}:{device.tags[tag]}"
    return f"rack:{device.rack}" if device.rack else ""


def _grid(devices: list[Device], size_of: Callable[[Device], Size], cols: int,
          x0: float, y0: float) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Place devices row-major in `cols` columns; return positions, width and height."""
    if not devices:
        return {}, 0.0, 0.0
    cell_w = max(size_of(d)[0] for d in devices) + H_GAP
    cell_h = max(size_of(d)[1] for d in devices) + V_GAP
    positions = {}
    for index, device in enumerate(devices):
        row, col = divmod(index, cols)
        positions[device.id] = (x0 + col * cell_w, y0 + row * cell_h)
    rows = math.ceil(len(devices) / cols)
    return positions, cols * cell_w - H_GAP, rows * cell_h - V_GAP


def _balanced(count: int, max_cols: int) -> int:
    """Columns for `count` items, at most `max_cols`, with rows as full as possible (32 -> 8x4)."""
    if count <= 0:
        return 1
    rows = math.ceil(count / max(max_cols, 1))
    return max(1, math.ceil(count / rows))


def _row_cols(devices: list[Device], size_of: Callable[[Device], Size], max_w: float) -> int:
    if not devices:
        return 1
    cell_w = max(size_of(d)[0] for d in devices) + H_GAP
    return max(1, min(len(devices), int((max_w + H_GAP) // cell_w)))


def auto_layout(doc: FabricDocument, size_of: Callable[[Device], Size]) -> dict[str, tuple[float, float]]:
    """New top-left positions for every device of the document, tier by tier."""
    return layout_devices(list(doc.devices.values()), doc.tier_of, size_of)


def layout_devices(devices_in: Iterable[Device], tier_of: Callable[[Device], int],
                   size_of: Callable[[Device], Size]) -> dict[str, tuple[float, float]]:
    """New top-left positions for `devices_in` (which need not be in a document yet)."""
    by_tier: dict[int, list[Device]] = defaultdict(list)
    by_id: dict[str, Device] = {}
    for device in devices_in:
        by_tier[tier_of(device)].append(device)
        by_id[device.id] = device
    for devices in by_tier.values():
        devices.sort(key=lambda d: natural_key(d.name))

    # bottom two tiers: blocks per group (servers below, their leaves above)
    groups: dict[str, dict[int, list[Device]]] = defaultdict(lambda: {0: [], 1: []})
    for tier in (0, 1):
        for device in by_tier.get(tier, []):
            groups[_group_key(device)][tier].append(device)
    ordered = sorted(groups.items(), key=lambda item: natural_key(item[0]))
    blocks: list[tuple[float, float, dict[str, tuple[float, float]], dict[str, tuple[float, float]], float, float]] = []
    for _key, members in ordered:
        leaves, servers = members[1], members[0]
        leaf_cols = _balanced(len(leaves), MAX_GROUP_LEAVES_PER_ROW)
        leaf_pos, leaf_w, leaf_h = _grid(leaves, size_of, leaf_cols, 0.0, 0.0)
        if servers:
            server_w = max(size_of(d)[0] for d in servers) + H_GAP
            target = leaf_w if leaves else math.sqrt(len(servers) * 3) * server_w
            fit = max(1, int((max(target, server_w) + H_GAP) // server_w))
            cols = _balanced(len(servers), fit)
        else:
            cols = 1
        server_pos, server_w_total, server_h = _grid(servers, size_of, cols, 0.0, 0.0)
        blocks.append((max(leaf_w, server_w_total), 0.0, leaf_pos, server_pos, leaf_h, server_h))

    positions: dict[str, tuple[float, float]] = {}
    # wrap blocks into rows so that the whole picture is about as wide as a screen
    per_row = _blocks_per_row(blocks)
    block_rows: list[list[int]] = [list(range(i, min(i + per_row, len(blocks))))
                                   for i in range(0, len(blocks), per_row)] or [[]]
    total_w = max((sum(blocks[i][0] for i in row) + GROUP_GAP * (len(row) - 1) for row in block_rows),
                  default=0.0)

    upper_rows: list[tuple[int, list[Device]]] = [(t, by_tier.get(t, [])) for t in (3, 2)]
    y = 0.0
    for _tier, devices in upper_rows:
        if not devices:
            continue
        width_limit = max(total_w, 2000.0)
        cols = _row_cols(devices, size_of, min(width_limit, MAX_ROW_W))
        pos, width, height = _grid(devices, size_of, cols, 0.0, y)
        shift = max(0.0, (total_w - width) / 2)
        positions.update({k: (px + shift, py) for k, (px, py) in pos.items()})
        y += height + TIER_GAP

    for row in block_rows:
        leaf_h = max((blocks[i][4] for i in row), default=0.0)
        server_h = max((blocks[i][5] for i in row), default=0.0)
        has_leaves = any(blocks[i][2] for i in row)
        has_servers = any(blocks[i][3] for i in row)
        x = 0.0
        server_y = y + (leaf_h + TIER_GAP if has_leaves else 0.0)
        for i in row:
            width, _unused, leaf_pos, server_pos, _lh, _sh = blocks[i]
            leaf_w = max((px + size_of(by_id[k])[0] for k, (px, _py) in leaf_pos.items()), default=0.0)
            serv_w = max((px + size_of(by_id[k])[0] for k, (px, _py) in server_pos.items()), default=0.0)
            for k, (px, py) in leaf_pos.items():
                positions[k] = (x + (width - leaf_w) / 2 + px, y + py)
            for k, (px, py) in server_pos.items():
                positions[k] = (x + (width - serv_w) / 2 + px, server_y + py)
            x += width + GROUP_GAP
        y = server_y + (server_h + TIER_GAP if has_servers else 0.0)
    return {k: (_snap(px), _snap(py)) for k, (px, py) in positions.items()}


def _blocks_per_row(blocks: list[tuple]) -> int:
    """How many group blocks per row: all of them up to ONE_ROW_BLOCKS, else the number that
    gives a picture closest to ASPECT (width / height)."""
    if len(blocks) <= ONE_ROW_BLOCKS:
        return max(len(blocks), 1)  # two SUs side by side keep every tier one band
    width = sum(b[0] for b in blocks) / len(blocks) + GROUP_GAP
    height = max(b[4] + b[5] for b in blocks) + 2 * TIER_GAP
    best, best_error = 1, math.inf
    for per_row in range(1, len(blocks) + 1):
        rows = math.ceil(len(blocks) / per_row)
        error = abs(math.log((per_row * width) / (rows * height) / ASPECT))
        if error < best_error:
            best, best_error = per_row, error
    return best


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


def overlap_fraction(boxes: dict[str, Box]) -> float:
    """The share of boxes that overlap another box (a grid hash keeps it near linear)."""
    if len(boxes) < 2:
        return 0.0
    cell = max(max(b[2] for b in boxes.values()), max(b[3] for b in boxes.values()), 1.0)
    grid: dict[tuple[int, int], list[str]] = defaultdict(list)
    for key, (x, y, w, h) in boxes.items():
        for gx in range(int(x // cell), int((x + w) // cell) + 1):
            for gy in range(int(y // cell), int((y + h) // cell) + 1):
                grid[(gx, gy)].append(key)
    overlapping: set[str] = set()
    for members in grid.values():
        for i, first in enumerate(members):
            x1, y1, w1, h1 = boxes[first]
            for second in members[i + 1:]:
                x2, y2, w2, h2 = boxes[second]
                if x1 < x2 + w2 - 1 and x2 < x1 + w1 - 1 and y1 < y2 + h2 - 1 and y2 < y1 + h1 - 1:
                    overlapping.update((first, second))
    return len(overlapping) / len(boxes)


def needs_layout(doc: FabricDocument, size_of: Callable[[Device], Size]) -> bool:
    """True when the stored topology positions are unusable: none set, or devices on top of each
    other (positions written for other device sizes, e.g. by a generator)."""
    if len(doc.devices) < 2:
        return False
    boxes = {d.id: (d.position[0], d.position[1], *size_of(d)) for d in doc.devices.values()}
    return overlap_fraction(boxes) >= 0.25
