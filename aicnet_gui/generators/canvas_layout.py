"""Topology-canvas positions of devices, laid out by tier (pure Python, no Qt).

The editor draws a device as its front panel: a header (role icon, name, model) and its cages in
one row, or two rows when there are more than `ONE_ROW_MAX_CAGES`.  `panel_size` gives that
panel's size from the catalog model alone, so a generator can write positions that the editor
shows without overlaps and without laying the fabric out again when a file opens.

`layout_devices` puts core switches on top, then spines, leaves, and servers and storage at the
bottom.  Servers are grouped by scalable unit (tag `su`, else `pod`, else rack) and each group's
leaves sit right above it (in rows of at most `MAX_LEAF_ROW_W`), so a rail-optimized fabric
reads as blocks.  Where one leaf per rail carries several SUs (a leaf group: its leaves tagged
`sus` "3-4" instead of one `su`), the group is one block, its leaves over the servers of all
its SUs, each SU in rows of its own (`LeafGroups`).  Rows of blocks wrap so that the picture is
about `ASPECT` wide per unit of height, from two SUs to a 4,096-server fabric; a row holds
whole pods (the SUs of one pod never share a row with part of another), so a pod's blocks form
a rectangle of their own.  Positions are top-left corners in scene units, snapped to the
editor's 20-unit grid.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Protocol

from ..model.catalog_entities import DeviceModel

# ---------------------------------------------------------------- the front panel of a device
HEADER_W = 128.0
MARGIN = 6.0
CAGE_W = 16.0
CAGE_H = 13.0
GAP = 3.0
GROUP_GAP = 8.0
MIN_CONTENT_W = 48.0
ONE_ROW_MAX_CAGES = 12
ONE_ROW_H = 38.0
TWO_ROW_H = 46.0

Size = tuple[float, float]


def panel_rows(model: DeviceModel) -> int:
    """1 or 2 rows of cages on the drawn front panel."""
    return 1 if sum(g.count for g in model.cages) <= ONE_ROW_MAX_CAGES else 2


def panel_size(model: DeviceModel) -> Size:
    """Width and height of a device of `model` on the Topology canvas (breakout modes split a
    cage's cell into legs and never change the size)."""
    rows = panel_rows(model)
    x = HEADER_W + MARGIN
    groups = sorted(model.cages, key=lambda g: (not g.fabric,))
    for index, group in enumerate(groups):
        if index:
            x += GROUP_GAP - GAP
        group_rows = rows if group.count > 1 else 1
        x += -(-group.count // group_rows) * (CAGE_W + GAP)
    content_w = max(x - GAP - (HEADER_W + MARGIN), MIN_CONTENT_W)
    return HEADER_W + MARGIN + content_w + MARGIN, ONE_ROW_H if rows == 1 else TWO_ROW_H


# ---------------------------------------------------------------- layout by tier
H_GAP = 40.0
V_GAP = 36.0
TIER_GAP = 240.0
BLOCK_GAP = 160.0
#: between the SUs of one leaf group's block (each SU's servers a tile of their own; the rows
#: of one SU are V_GAP apart, its columns H_GAP)
SU_GAP = 2 * V_GAP
ASPECT = 2.0
MAX_GROUP_LEAVES_PER_ROW = 16
#: the widest row of one group's leaves: 8 QM9700 (one SU of 8 rails) fit; the 8 rails of a DGX
#: B300 SU on 144-port Q3400-RA leaves, or a two-plane SU's 16 SN5610 leaves, wrap into rows of
#: 4, so the SU's servers below get a block about 3:1 instead of a strip of 8:1 to 18:1
MAX_LEAF_ROW_W = 4000.0
GRID = 20.0

_DIGITS = re.compile(r"(\d+)")


class Placeable(Protocol):
    """What the layout reads of a device (a model `Device` or a generator's planned device)."""

    @property
    def id(self) -> str: ...

    name: str
    tags: dict[str, str]
    rack: str | None


def natural_key(text: str) -> tuple:
    """Sort `gpu-2` before `gpu-10`."""
    return tuple(int(part) if part.isdigit() else part.lower() for part in _DIGITS.split(text))


def snap(value: float) -> float:
    return round(value / GRID) * GRID


class LeafGroups:
    """Which leaf group carries an SU: a leaf that carries its rail of several SUs is tagged
    with their span (`sus` "3-4", leaf_groups.py), its servers each with their own `su`.  Made
    from the spans of a design's leaves; an SU no span covers is its own group."""

    __slots__ = ("_firsts", "_memo", "_spans")

    def __init__(self, spans: Iterable[str | None]) -> None:
        parsed = []
        for span in set(spans):
            first, last = sus_span(span)
            if first is not None and last is not None:
                parsed.append((first, last, span))
        parsed.sort()
        self._spans = parsed
        self._firsts = [first for first, _last, _span_ in parsed]
        self._memo: dict[str, str] = {}

    def __bool__(self) -> bool:
        return bool(self._spans)

    @property
    def spans(self) -> tuple[str, ...]:
        """The groups' spans in SU order: two `LeafGroups` with the same place SUs alike."""
        return tuple(span for _first, _last, span in self._spans)

    def of(self, su: str) -> str:
        """The span of the leaf group that carries SU `su` ("3-4"), else `su` itself."""
        known = self._memo.get(su)
        if known is not None:
            return known
        group = su
        if su.isdigit():
            number = int(su)
            at = bisect.bisect_right(self._firsts, number) - 1
            if at >= 0 and self._spans[at][0] <= number <= self._spans[at][1]:
                group = self._spans[at][2]  # type: ignore[assignment]
        self._memo[su] = group
        return group


def sus_span(span: str | None) -> tuple[int | None, int | None]:
    """("3-4") -> (3, 4); (None, None) for anything else."""
    if not span:
        return None, None
    first, dash, last = span.partition("-")
    if not dash or not first.isdigit() or not last.isdigit() or int(first) > int(last):
        return None, None
    return int(first), int(last)


def group_key(device: Placeable, groups: LeafGroups | None = None) -> str:
    """The block a server or leaf belongs to: its scalable unit (or the leaf group of SUs its
    leaves carry together, `groups`), pod or rack."""
    tags = device.tags
    span = tags.get("sus")
    if span is not None and sus_span(span)[0] is not None:
        return f"su:{span}"
    su = tags.get("su")
    if su is not None:
        return f"su:{groups.of(su) if groups else su}"
    if "pod" in tags:
        return f"pod:{tags['pod']}"
    return f"rack:{device.rack}" if device.rack else ""


def _grid(devices: list[Placeable], size_of: Callable[[Placeable], Size], cols: int,
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


def _row_cols(devices: list[Placeable], size_of: Callable[[Placeable], Size], max_w: float) -> int:
    if not devices:
        return 1
    cell_w = max(size_of(d)[0] for d in devices) + H_GAP
    return max(1, min(len(devices), int((max_w + H_GAP) // cell_w)))


def _by_su(servers: list[Placeable]) -> list[list[Placeable]]:
    """The servers of a block by SU (tag `su`), in order: a leaf group's block holds several."""
    runs: dict[str | None, list[Placeable]] = {}
    for device in servers:
        runs.setdefault(device.tags.get("su"), []).append(device)
    return list(runs.values())


def _su_tiles(runs: list[list[Placeable]], size_of: Callable[[Placeable], Size],
              most_cols: int) -> tuple[dict[str, tuple[float, float]], float, float]:
    """The servers of a block, about `most_cols` columns wide, as one tile per run (an SU of a
    leaf group), `SU_GAP` apart: the SUs of a group never share a row of a tile.  An SU as wide
    as the block or wider is a tile of its own rows (two 64-node DGX B300 SUs under their 32
    leaves: one over the other); narrower ones sit side by side (eight 4-node SUs under their 8
    QM9700: two to a row), so the servers stay about as wide as the leaves over them.  One run
    is the grid it always was.  Returns positions, width, height."""
    positions: dict[str, tuple[float, float]] = {}
    cells = [d for run in runs for d in run]
    if not cells:
        return positions, 0.0, 0.0
    cell_w = max(size_of(d)[0] for d in cells) + H_GAP
    cell_h = max(size_of(d)[1] for d in cells) + V_GAP
    most = max(len(run) for run in runs)
    if len(runs) == 1 or most >= most_cols:
        cols, per_row = _balanced(most, most_cols), 1
    else:
        cols, per_row = most, max(1, min(len(runs), round(most_cols / most)))
    tile_w = cols * cell_w - H_GAP
    width = height = 0.0
    for start in range(0, len(runs), per_row):
        y = height + SU_GAP if height else 0.0
        tallest = 0.0
        for k, run in enumerate(runs[start:start + per_row]):
            x = k * (tile_w + SU_GAP)
            for index, device in enumerate(run):
                row, col = divmod(index, cols)
                positions[device.id] = (x + col * cell_w, y + row * cell_h)
            tallest = max(tallest, math.ceil(len(run) / cols) * cell_h - V_GAP)
            width = max(width, x + min(cols, len(run)) * cell_w - H_GAP)
        height = y + tallest
    return positions, width, height


_Block = tuple[float, dict[str, tuple[float, float]], dict[str, tuple[float, float]], float, float,
               float, float]


def _block(leaves: list[Placeable], servers: list[Placeable],
           size_of: Callable[[Placeable], Size]) -> _Block:
    """One group: its leaves in a balanced grid, its servers below about as wide."""
    leaf_cols = min(MAX_GROUP_LEAVES_PER_ROW, _row_cols(leaves, size_of, MAX_LEAF_ROW_W))
    leaf_pos, leaf_w, leaf_h = _grid(leaves, size_of, _balanced(len(leaves), leaf_cols), 0.0, 0.0)
    cols = 1
    if servers:
        server_w = max(size_of(d)[0] for d in servers) + H_GAP
        target = leaf_w if leaves else math.sqrt(len(servers) * 3) * server_w
        cols = max(1, int((max(target, server_w) + H_GAP) // server_w))
    server_pos, server_w_total, server_h = _su_tiles(_by_su(servers), size_of, cols)
    if leaves and servers:
        leaf_cell = max(size_of(d)[0] for d in leaves) + H_GAP
        if (leaf_w - server_w_total) / 2 >= leaf_cell - H_GAP:
            # the servers are narrower than the row of leaves by more than a leaf each side
            # (eight QM9700 over SUs of 6 or 11 nodes): the leaves wrap to their width, so
            # every leaf is over them
            fit = max(1, int((server_w_total + H_GAP) // leaf_cell))
            leaf_pos, leaf_w, leaf_h = _grid(leaves, size_of, _balanced(len(leaves), fit),
                                             0.0, 0.0)
    leaf_right = max((leaf_pos[d.id][0] + size_of(d)[0] for d in leaves), default=0.0)
    server_right = max((server_pos[d.id][0] + size_of(d)[0] for d in servers), default=0.0)
    return (max(leaf_w, server_w_total), leaf_pos, server_pos, leaf_h, server_h, leaf_right,
            server_right)


def _tier_row_w(blocks_w: float) -> float:
    """The widest row of a switch tier over blocks `blocks_w` wide: as wide as they are, at
    least 2,000 units.  Rows held to 16,000 units made the 6,400 spines and 4,096 cores of a
    400-SU four-plane DGX B300 design a tower taller than its 54,000-unit-wide rows of blocks
    (0.7:1; as wide as the blocks, 1.3:1)."""
    return max(blocks_w, 2000.0)


def layout_devices(devices_in: Iterable[Placeable], tier_of: Callable[[Placeable], int],
                   size_of: Callable[[Placeable], Size]) -> dict[str, tuple[float, float]]:
    """Top-left positions for `devices_in` (which need not be in a document yet), by id."""
    sizes: dict[str, Size] = {}
    by_tier: dict[int, list[Placeable]] = defaultdict(list)
    for device in devices_in:
        by_tier[tier_of(device)].append(device)
        sizes[device.id] = size_of(device)
    for devices in by_tier.values():
        devices.sort(key=lambda d: natural_key(d.name))

    def size(device: Placeable) -> Size:
        return sizes[device.id]

    # bottom two tiers: blocks per group (servers below, their leaves above)
    # a leaf that carries several SUs sits over the servers of all of them: one block per group
    leaf_groups = LeafGroups(d.tags.get("sus") for d in by_tier.get(1, []))
    groups: dict[str, dict[int, list[Placeable]]] = defaultdict(lambda: {0: [], 1: []})
    for tier in (0, 1):
        for device in by_tier.get(tier, []):
            groups[group_key(device, leaf_groups)][tier].append(device)
    ordered = sorted(groups.items(), key=lambda item: natural_key(item[0]))
    blocks = [_block(members[1], members[0], size) for _key, members in ordered]

    positions: dict[str, tuple[float, float]] = {}
    block_rows = _block_rows(blocks, [_pod_of(members) for _key, members in ordered])
    total_w = max((sum(blocks[i][0] for i in row) + BLOCK_GAP * (len(row) - 1) for row in block_rows),
                  default=0.0)

    y = 0.0
    for tier in (3, 2):
        devices = by_tier.get(tier, [])
        if not devices:
            continue
        cols = _row_cols(devices, size, _tier_row_w(total_w))
        pos, width, height = _grid(devices, size, cols, 0.0, y)
        shift = max(0.0, (total_w - width) / 2)
        positions.update({k: (px + shift, py) for k, (px, py) in pos.items()})
        y += height + TIER_GAP

    for row in block_rows:
        leaf_h = max((blocks[i][3] for i in row), default=0.0)
        server_h = max((blocks[i][4] for i in row), default=0.0)
        has_leaves = any(blocks[i][1] for i in row)
        has_servers = any(blocks[i][2] for i in row)
        x = 0.0
        server_y = y + (leaf_h + TIER_GAP if has_leaves else 0.0)
        for i in row:
            width, leaf_pos, server_pos, _lh, _sh, leaf_w, serv_w = blocks[i]
            for k, (px, py) in leaf_pos.items():
                positions[k] = (x + (width - leaf_w) / 2 + px, y + py)
            for k, (px, py) in server_pos.items():
                positions[k] = (x + (width - serv_w) / 2 + px, server_y + py)
            x += width + BLOCK_GAP
        y = server_y + (server_h + TIER_GAP if has_servers else 0.0)
    return {k: (snap(px), snap(py)) for k, (px, py) in positions.items()}


def _pod_of(members: dict[int, list[Placeable]]) -> str | None:
    """The pod (tag `pod`) of a group's first server or leaf, if it has one."""
    for tier in (0, 1):
        for device in members[tier]:
            return device.tags.get("pod")
    return None


def _block_rows(blocks: list[_Block], pods: list[str | None]) -> list[list[int]]:
    """Rows of block indices.  Blocks of one pod stay together: a row holds whole pods (packed
    in order while they fit), a pod wider than a row gets rows of its own, and blocks in no pod
    (racks added by hand) fill rows like any blocks; so each pod (a box on the fit-zoom
    overview) is a rectangle no other pod's blocks reach into."""
    per_row = _blocks_per_row(blocks)
    runs: list[tuple[list[int], bool]] = []  # (blocks, one pod) in order; no-pod blocks merged
    for index, pod in enumerate(pods):
        if runs and (pod is None) == (not runs[-1][1]) and (
                pod is None or pods[runs[-1][0][0]] == pod):
            runs[-1][0].append(index)
        else:
            runs.append(([index], pod is not None))
    pod_sizes = [len(run) for run, is_pod in runs if is_pod]
    if len(pod_sizes) <= 1 and len(runs) <= 1:
        return [list(range(i, min(i + per_row, len(blocks))))
                for i in range(0, len(blocks), per_row)] or [[]]
    widest = max(pod_sizes, default=0)
    # a pod wider than a row: a row of its own when it is at most one block wider than the
    # picture's aspect asks (16 SUs in pods of 4 where 3 fit: rows of 4), else rows as evenly
    # full as the largest pod's (pods of 9 SUs of 72 where 7 fit: rows of 5 and 4)
    wide_cols = widest if widest <= per_row + 1 else _balanced(widest, per_row)
    # when a pod is wider than a row, every row is as wide as the wide pods' rows
    width = per_row if widest <= per_row else wide_cols
    rows: list[list[int]] = []
    row: list[int] = []
    for run, is_pod in runs:
        if not is_pod:  # loose blocks fill the row they come to, then wrap
            for index in run:
                if len(row) >= width:
                    rows.append(row)
                    row = []
                row.append(index)
        elif len(run) <= width:  # a whole pod in the row, or at the start of the next
            if len(row) + len(run) > width:
                rows.append(row)
                row = []
            row += run
        else:  # a pod wider than a row: rows of its own
            if row:
                rows.append(row)
                row = []
            rows += [run[i:i + width] for i in range(0, len(run), width)]
    if row:
        rows.append(row)
    return rows


def _blocks_per_row(blocks: list[_Block]) -> int:
    """How many group blocks per row: the number that gives a picture closest to ASPECT (width /
    height).  Two SUs of 8 QM9700 leaves side by side made a strip of 10:1, and a two-plane
    B300 pair 37:1, that the fitted view showed as a thin bar: stacked they read as blocks."""
    if len(blocks) <= 1:
        return 1
    width = sum(b[0] for b in blocks) / len(blocks) + BLOCK_GAP
    height = max(b[3] + b[4] for b in blocks) + 2 * TIER_GAP
    best, best_error = 1, math.inf
    for per_row in range(1, len(blocks) + 1):
        rows = math.ceil(len(blocks) / per_row)
        error = abs(math.log((per_row * width) / (rows * height) / ASPECT))
        if error < best_error:
            best, best_error = per_row, error
    return best


# ---------------------------------------------------------------- checking stored positions
Box = tuple[float, float, float, float]


def overlap_fraction(boxes: dict[str, Box]) -> float:
    """The share of boxes (x, y, w, h) that overlap another box (a grid hash keeps it linear)."""
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
