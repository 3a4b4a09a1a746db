"""The overview of a big design (pure Python and numpy, no Qt): devices grouped into blocks, and
the cables counted between blocks.

Zoomed out until devices are a pixel or two, the Topology canvas draws these blocks instead of
17,000 devices and 300,000 cables (gui/canvas/overview_layer.py).  Membership comes from what
the generators record on each device (tags `su` and `pod`, the switch's `plane`), with the
device's tier as the fallback of a hand-drawn design:

- fine level: one block per scalable unit (its servers and leaves: "SU 17: 32 servers, 8
  leaves"), or per leaf group where one leaf per rail carries several SUs (its leaves tagged
  `sus` "3-4": "SUs 3–4: 128 servers, 32 leaves", as the layout draws them, the leaves over
  the servers of all its SUs); servers without an SU go by pod, else by tier ("Servers");
  every switch tier above is one block per plane ("Spines", "Cores · plane 2"), leaves outside
  an SU too.
- coarse level: SUs merged by pod or spine-leaf group ("Pod 3: 256 servers, 64 leaves"), the
  switch tiers as above.
- far levels (`group_pods`): the pods of the coarse level merged a run of N at a time ("Pods
  1-16"), the switch tiers as above, each plane its block: a 200,000-GPU design of 195 pods
  fitted in a window is a band of blocks, not 195 bars a pixel or two high.

A block is drawn where its members are: the bounding box of a scalable unit (the generators'
layout keeps an SU compact).  A pod whose SUs wrap onto two layout rows, or a tier of switches
on several rows, has one part per row, so no block covers another's devices; the planes of a
tier, which the multi-plane generator interleaves, share their joint box side by side.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..generators.canvas_layout import LeafGroups
from ..model.wording import counted
from .units import natural_key

ROLE_WORDS = {"gpu_server": "server", "storage": "storage node", "leaf": "leaf", "spine": "spine",
              "core": "core", "mgmt": "mgmt switch"}
ROLE_ORDER = ("gpu_server", "storage", "leaf", "spine", "core", "mgmt")
TIER_TITLES = {"gpu_server": "Servers", "storage": "Storage", "leaf": "Leaves", "spine": "Spines",
               "core": "Cores", "mgmt": "Management"}
SERVER_SIDE = ("gpu_server", "storage")
#: the blocks a far level merges, and the kind and title word of a run of them
RUNS = {"pod": "pods", "su": "sus"}
RUN_TITLES = {"pods": "Pods", "sus": "SUs"}
#: a run of one (the last, partial run far out): named as the block it is
ONE_OF_RUN = {"pods": "Pod", "sus": "SU"}


class BlockKey(NamedTuple):
    """`kind` su | pod | leaves | spines | cores | tier, or sus | pods (a run of them far out);
    `value` the SU or pod number, the first and last of a run ("1-16"), or the role for a tier
    block; `plane` the switch plane of a multi-plane design, else "".  A tuple: made and hashed
    in C, 18,000 times per refresh."""

    kind: str
    value: str
    plane: str = ""

    def sort_key(self) -> tuple:
        order = ("cores", "spines", "leaves", "tier", "pods", "pod", "sus", "su")
        return (order.index(self.kind), natural_key(self.plane), natural_key(self.value))


def leaf_groups(tags: Iterable[dict[str, str]]) -> LeafGroups:
    """The leaf groups of a design (each leaf that carries several SUs, tag `sus` "3-4") from
    the `tags` of its devices: the SU blocks `device_keys` puts servers in."""
    return LeafGroups(t.get("sus") for t in tags)


def device_keys(role: str, tags: dict[str, str], plane: str | None,
                groups: LeafGroups | None = None) -> tuple[BlockKey, BlockKey]:
    """(fine, coarse) block of a device with `role`, generator `tags` and switch `plane`.  A
    leaf that carries several SUs (`sus` "3-4") and the servers of those SUs (`groups`) are one
    block, "SUs 3–4", as the layout draws them: the leaves over the servers of all of them."""
    su = tags.get("su")
    if su is None:
        if role == "leaf":
            su = tags.get("sus")
    elif groups and role in SERVER_SIDE:
        su = groups.of(su)
    return _keys(role, su, tags.get("pod"), plane or "")


@lru_cache(maxsize=4096)
def _keys(role: str, su: str | None, pod: str | None, plane: str) -> tuple[BlockKey, BlockKey]:
    if role in SERVER_SIDE or (role == "leaf" and su):
        if su:
            fine = BlockKey("su", su)
            return fine, BlockKey("pod", pod) if pod else fine
        if pod:
            key = BlockKey("pod", pod)
            return key, key
        key = BlockKey("tier", role)
        return key, key
    # a switch tier is one block per plane at both levels: the generators lay a tier out as one
    # grid in name order, so a pod's spines share rows with the next pod's (their boxes overlap)
    key = BlockKey("tier", role, plane)
    return key, key


def describe(counts: dict[str, int]) -> str:
    """`32 servers, 8 leaves`."""
    parts = [counted(counts[role], ROLE_WORDS[role]) for role in ROLE_ORDER if counts.get(role)]
    parts += [counted(n, role) for role, n in sorted(counts.items()) if role not in ROLE_WORDS and n]
    return ", ".join(parts) or "empty"


def title(key: BlockKey, one_pod: bool = False) -> str:
    """`SU 17`, `Pod 3`, `Spines pod 3 · plane 2`, `Cores` ...; `one_pod`: the design has a
    single pod, so a switch block does not name it."""
    plane = f" · plane {key.plane}" if key.plane else ""
    if key.kind == "su":  # an SU, or the SUs of one leaf group ("3-4")
        return f"SUs {key.value.replace('-', '–')}" if "-" in key.value else f"SU {key.value}"
    if key.kind == "pod":
        return f"Pod {key.value}"
    if key.kind in RUN_TITLES:
        if "-" not in key.value:
            return f"{ONE_OF_RUN[key.kind]} {key.value}"
        return f"{RUN_TITLES[key.kind]} {key.value.replace('-', '–')}"
    if key.kind == "tier":
        return TIER_TITLES.get(key.value, key.value.capitalize()) + plane
    word = {"leaves": "Leaves", "spines": "Spines", "cores": "Cores"}[key.kind]
    pod = f" pod {key.value}" if key.value and not one_pod else ""
    return f"{word}{pod}{plane}"


Rect = tuple[float, float, float, float]
"""left, top, right, bottom in scene units."""


@dataclass(slots=True)
class Block:
    """One block: its title, what it holds, where it is drawn."""

    key: BlockKey
    title: str
    counts: dict[str, int]
    parts: list[Rect] = field(default_factory=list)

    @property
    def text(self) -> str:
        return describe(self.counts)

    @property
    def devices(self) -> int:
        return sum(self.counts.values())

    def label_part(self) -> Rect:
        """The largest part: where the title goes and the bundles end."""
        return max(self.parts, key=lambda r: (r[2] - r[0]) * (r[3] - r[1]))

    def centre(self) -> tuple[float, float]:
        left, top, right, bottom = self.label_part()
        return (left + right) / 2, (top + bottom) / 2

    def bounds(self) -> Rect:
        return (min(p[0] for p in self.parts), min(p[1] for p in self.parts),
                max(p[2] for p in self.parts), max(p[3] for p in self.parts))


@dataclass(slots=True)
class Level:
    """The blocks of one level and, per device row, its block's index in `blocks`."""

    blocks: list[Block]
    block_of: np.ndarray


def _parts(rows: np.ndarray, x: np.ndarray, y: np.ndarray, w: np.ndarray, h: np.ndarray,
           split: bool) -> list[Rect]:
    """The rectangles of a block's members: one bounding box, or with `split` one per layout row
    (members of a row share their top edge), consecutive rows with the same left and right edges
    merged into one."""
    left, top = x[rows], y[rows]
    right, bottom = left + w[rows], top + h[rows]
    if not split:
        return [(float(left.min()), float(top.min()), float(right.max()), float(bottom.max()))]
    tops = np.round(top, 0)
    rects: list[Rect] = []
    for value in np.unique(tops).tolist():
        mask = tops == value
        rects.append((float(left[mask].min()), float(top[mask].min()), float(right[mask].max()),
                      float(bottom[mask].max())))
    return _join_rows(rects)


def build_level(keys: Sequence[BlockKey], roles: Sequence[str], x: np.ndarray, y: np.ndarray,
                w: np.ndarray, h: np.ndarray) -> Level:
    """The blocks of `keys` (one per device row, with the row's role and panel rectangle).

    Server-side blocks (an SU, a pod of servers) are one box around their members; switch blocks
    get one part per layout row."""
    order: dict[BlockKey, int] = {}
    block_of = np.array([order.setdefault(key, len(order)) for key in keys], dtype=np.int64)
    ranked = sorted(order, key=BlockKey.sort_key)
    renumber = np.empty(len(order), dtype=np.int64)
    for new, key in enumerate(ranked):
        renumber[order[key]] = new
    block_of = renumber[block_of] if len(keys) else block_of
    pods = {k.value for k in ranked if k.kind in ("spines", "leaves")}
    one_pod = len(pods) <= 1
    rows_of = np.argsort(block_of, kind="stable")
    starts = np.searchsorted(block_of[rows_of], np.arange(len(ranked) + 1))
    # devices per block and role in one bincount (roles in name order, as np.unique gives them)
    names, role_of = np.unique(np.asarray(roles, dtype=str), return_inverse=True)
    table = np.bincount(block_of * len(names) + role_of.reshape(-1),
                        minlength=len(ranked) * len(names)).reshape(len(ranked), len(names))
    role_names = names.tolist()
    blocks = []
    for index, (key, numbers) in enumerate(zip(ranked, table.tolist(), strict=True)):
        rows = rows_of[starts[index]:starts[index + 1]]
        counts = {role_names[j]: n for j, n in enumerate(numbers) if n}
        block = Block(key, title(key, one_pod), counts)
        switch = not any(role in counts for role in SERVER_SIDE)
        block.parts = _parts(rows, x, y, w, h, split=switch)
        blocks.append(block)
    level = Level(blocks, block_of)
    separate_planes(level)
    return level


def separate_planes(level: Level) -> None:
    """The planes of one switch tier side by side: a multi-plane generator interleaves them
    (switch k of every plane, then switch k + 1), so their boxes would cover each other.  The
    planes of a tier whose boxes overlap share their joint box in equal slices, in plane order."""
    for blocks in _plane_tiers(level).values():
        boxes = [b.bounds() for b in blocks]
        overlap = any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
                      for i, a in enumerate(boxes) for b in boxes[i + 1:])
        if len(blocks) < 2 or not overlap:
            continue
        _slice_planes(blocks, min(b[0] for b in boxes), max(b[2] for b in boxes))


def _plane_tiers(level: Level) -> dict[str, list[Block]]:
    """The switch tiers of `level` that are one block per plane, by role."""
    tiers: dict[str, list[Block]] = {}
    for block in level.blocks:
        if block.key.kind == "tier" and block.key.plane:
            tiers.setdefault(block.key.value, []).append(block)
    return tiers


def _slice_planes(blocks: list[Block], left: float, right: float) -> None:
    """The planes of one tier side by side from `left` to `right`, in plane order, over the
    rows of the tier's joint box."""
    top = min(b.bounds()[1] for b in blocks)
    bottom = max(b.bounds()[3] for b in blocks)
    step = (right - left) / len(blocks)
    for i, block in enumerate(sorted(blocks, key=lambda b: natural_key(b.key.plane))):
        block.parts = [(left + i * step, top, left + (i + 1) * step - step * 0.04, bottom)]


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def grown_apart(boxes: Sequence[Rect], grow: Sequence[bool], least: tuple[float, float],
                gap: float) -> list[Rect]:
    """The boxes as drawn far out: those to `grow` (a switch tier's, a row of switches a pixel
    high there) grown about their centre to at least `least` (width, height: a line of text),
    then, lowest first, each moved up clear of the boxes under it that growing made it cover,
    `gap` above them.  Grown in place the tiers of a flat design covered each other and the top
    of the servers (a fitted 400-SU design drew Spines under Cores and Leaves over its run of
    pods, and as a title never goes over another, Spines and the pods had none); moved up,
    leaves, spines and cores stack over the servers in their order, each a band of its own.
    The other boxes stay as they are, and a grown box stays centred where what it covers is
    above it or was covered before it grew (a hand-drawn overlap)."""
    width, height = least
    drawn: list[Rect] = []
    for box, grown in zip(boxes, grow, strict=True):
        left, top, right, bottom = box
        if grown:
            w, h = max(right - left, width), max(bottom - top, height)
            left, right = (left + right - w) / 2, (left + right + w) / 2
            top, bottom = (top + bottom - h) / 2, (top + bottom + h) / 2
        drawn.append((left, top, right, bottom))
    middle = [(b[1] + b[3]) / 2 for b in boxes]
    settled = [i for i, grown in enumerate(grow) if not grown]
    for i in sorted((i for i, grown in enumerate(grow) if grown), key=lambda i: -middle[i]):
        left, top, right, bottom = drawn[i]
        while True:  # each box under it lifts it at most once: lifted, it is clear of that one
            under = [drawn[j][1] for j in settled
                     if middle[j] > middle[i] and _overlap((left, top, right, bottom), drawn[j])
                     and not _overlap(boxes[i], boxes[j])]
            if not under:
                break
            lift = bottom - (min(under) - gap)
            top, bottom = top - lift, bottom - lift
        drawn[i] = (left, top, right, bottom)
        settled.append(i)
    return drawn


def _merge_rows(rects: Iterable[Rect]) -> list[Rect]:
    """Boxes of fine blocks grouped by their top edge (a layout row), one rectangle per row."""
    rows: dict[float, Rect] = {}
    for left, top, right, bottom in rects:
        key = round(top, 0)
        old = rows.get(key)
        rows[key] = (left, top, right, bottom) if old is None else (
            min(old[0], left), min(old[1], top), max(old[2], right), max(old[3], bottom))
    return [rows[k] for k in sorted(rows)]


@dataclass(slots=True)
class Bundles:
    """Cables between two different blocks: block indices `a` < `b` and the number of cables."""

    a: np.ndarray
    b: np.ndarray
    counts: np.ndarray

    def __len__(self) -> int:
        return len(self.a)

    def leaving(self, blocks: int) -> np.ndarray:
        """Per block, the cables between it and any other block (an SU's are its uplinks)."""
        weights = self.counts.astype(np.int64)
        return (np.bincount(self.a, weights=weights, minlength=blocks)
                + np.bincount(self.b, weights=weights, minlength=blocks)).astype(np.int64)

    def between(self, first: int, second: int) -> int:
        lo, hi = min(first, second), max(first, second)
        hit = np.flatnonzero((self.a == lo) & (self.b == hi))
        return int(self.counts[hit[0]]) if len(hit) else 0


def count_bundles(block_of: np.ndarray, blocks: int, dev_a: np.ndarray, dev_b: np.ndarray) -> Bundles:
    """Cables per pair of blocks: `block_of[d]` is device d's block (-1: in none), `dev_a` and
    `dev_b` the end devices of every cable.  One bincount over the cables (a few ms for 300k)."""
    a, b = block_of[dev_a], block_of[dev_b]
    keep = (a >= 0) & (b >= 0) & (a != b)
    lo, hi = np.minimum(a[keep], b[keep]), np.maximum(a[keep], b[keep])
    span = max(blocks, 1)
    totals = np.bincount(lo * span + hi, minlength=0)
    pairs = np.flatnonzero(totals)
    return Bundles(pairs // span, pairs % span, totals[pairs])


def bundle_members(bundles: Bundles, block_a: np.ndarray, block_b: np.ndarray,
                   blocks: int) -> tuple[np.ndarray, np.ndarray]:
    """(the cables in a bundle, the bundle of each), as `count_bundles` counted them:
    `block_a`, `block_b` are each cable's end blocks (-1: in none), `blocks` the number of
    blocks.  A cable drawn since the bundles were counted is in none."""
    keep = np.flatnonzero((block_a >= 0) & (block_b >= 0) & (block_a != block_b))
    if not len(bundles) or not len(keep):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    a, b = block_a[keep], block_b[keep]
    span = max(blocks, 1)
    known = bundles.a * span + bundles.b
    keys = np.minimum(a, b) * span + np.maximum(a, b)
    at = np.minimum(np.searchsorted(known, keys), len(known) - 1)
    found = known[at] == keys
    return keep[found], at[found]


def bundle_peaks(bundles: Bundles, members: tuple[np.ndarray, np.ndarray],
                 values: np.ndarray) -> np.ndarray:
    """The largest of `values` (one per cable; NaN ignored, NaN where a bundle has none) over
    the cables of each bundle (`members`: `bundle_members`)."""
    cables, of = members
    peaks = np.full(len(bundles), np.nan)
    if len(cables):
        np.fmax.at(peaks, of, values[cables].astype(np.float64))
    return peaks


def coarsen(fine: Level, coarse_of: Sequence[BlockKey]) -> tuple[Level, np.ndarray]:
    """The coarse level made of the fine blocks (`coarse_of[i]`: fine block i's coarse key), and
    fine block -> coarse block.  A pod of several SUs gets one part per layout row of its SUs;
    a block that is its own coarse block keeps its parts."""
    ranked = sorted(set(coarse_of), key=BlockKey.sort_key)
    index = {key: i for i, key in enumerate(ranked)}
    to_coarse = np.array([index[k] for k in coarse_of], dtype=np.int64)
    members: list[list[int]] = [[] for _ in ranked]
    for i, key in enumerate(coarse_of):
        members[index[key]].append(i)
    blocks = []
    for key, own in zip(ranked, members, strict=True):
        counts: dict[str, int] = {}
        for i in own:
            for role, n in fine.blocks[i].counts.items():
                counts[role] = counts.get(role, 0) + n
        block = Block(key, title(key), counts)
        block.parts = (list(fine.blocks[own[0]].parts) if len(own) == 1
                       else _merge_rows([fine.blocks[i].bounds() for i in own]))
        blocks.append(block)
    block_of = to_coarse[fine.block_of] if len(fine.block_of) else fine.block_of
    return Level(blocks, block_of), to_coarse


def group_pods(level: Level, bundles: Bundles, size: int) -> tuple[Level, Bundles, np.ndarray]:
    """A far level: the pods (or SUs) of `level` merged `size` at a time in their order, each
    run one block ("Pods 1-16", parts per layout row of its members), every other block kept;
    with its bundles and the map of `level`'s blocks to its own."""
    runs: dict[str, list[Block]] = {}
    for block in level.blocks:
        if block.key.kind in RUNS and not block.key.plane:
            runs.setdefault(block.key.kind, []).append(block)
    key_of: dict[int, BlockKey] = {}
    for kind, members in runs.items():
        for start in range(0, len(members), size):
            run = members[start:start + size]
            # the first and last SU of a run of leaf groups ("1-2" ... "31-32": "1-32")
            first, last = run[0].key.value.split("-")[0], run[-1].key.value.split("-")[-1]
            key = BlockKey(RUNS[kind], first if first == last else f"{first}-{last}")
            for block in run:
                key_of[id(block)] = key
    far, to_far = coarsen(level, [key_of.get(id(b), b.key) for b in level.blocks])
    for block in far.blocks:
        if block.key.kind in RUN_TITLES:
            block.parts = _join_rows(block.parts)
    # far out a tier's planes share the whole width of the design: each wide enough for its
    # title ("Spines · plane 2"), the trunks from the runs below going straight up
    if far.blocks:
        left = min(b.bounds()[0] for b in far.blocks)
        right = max(b.bounds()[2] for b in far.blocks)
        for blocks in _plane_tiers(far).values():
            if len(blocks) > 1:
                _slice_planes(blocks, left, right)
    return far, coarsen_bundles(bundles, to_far, len(far.blocks)), to_far


def _join_rows(rects: list[Rect]) -> list[Rect]:
    """Row boxes (top to bottom) with the same left and right edges joined into one box, the
    gaps between them included: a run of pods reads as one band."""
    joined: list[Rect] = []
    for rect in sorted(rects, key=lambda r: r[1]):
        if joined and abs(joined[-1][0] - rect[0]) < 1 and abs(joined[-1][2] - rect[2]) < 1:
            last = joined[-1]
            joined[-1] = (last[0], last[1], last[2], max(last[3], rect[3]))
        else:
            joined.append(rect)
    return joined


def coarse_keys_of(fine: Level, coarse_keys: Sequence[BlockKey]) -> list[BlockKey]:
    """The coarse key of each fine block (of its first device: every member shares it)."""
    _, first = np.unique(fine.block_of, return_index=True)
    return [coarse_keys[int(row)] for row in first.tolist()]


def coarsen_bundles(fine: Bundles, to_coarse: np.ndarray, blocks: int) -> Bundles:
    """The bundles between coarse blocks, summed from the fine ones (`to_coarse[i]`: fine block
    i's coarse block, `blocks` coarse blocks)."""
    a, b = to_coarse[fine.a], to_coarse[fine.b]
    keep = a != b
    lo, hi = np.minimum(a[keep], b[keep]), np.maximum(a[keep], b[keep])
    span = max(blocks, 1)
    totals = np.bincount(lo * span + hi, weights=fine.counts[keep]).astype(np.int64)
    pairs = np.flatnonzero(totals)
    return Bundles(pairs // span, pairs % span, totals[pairs])


def levels(fine_keys: Sequence[BlockKey], coarse_keys: Sequence[BlockKey], roles: Sequence[str],
           x: np.ndarray, y: np.ndarray, w: np.ndarray, h: np.ndarray) -> tuple[Level, Level, np.ndarray]:
    """(fine level, coarse level, fine block -> coarse block) of devices with these keys, roles
    and panel rectangles (one row per device)."""
    fine = build_level(fine_keys, roles, x, y, w, h)
    coarse, to_coarse = coarsen(fine, coarse_keys_of(fine, coarse_keys))
    return fine, coarse, to_coarse


@dataclass(slots=True)
class Overview:
    """Both levels of a design and their bundles, all at once (the file loader computes them
    in its worker thread from the columns it already has, so the first fitted frame draws the
    blocks without counting 300,000 cables in the GUI thread)."""

    fine: Level
    coarse: Level
    fine_to_coarse: np.ndarray
    fine_bundles: Bundles
    coarse_bundles: Bundles


def prepare(fine_keys: Sequence[BlockKey], coarse_keys: Sequence[BlockKey], roles: Sequence[str],
            x: np.ndarray, y: np.ndarray, w: np.ndarray, h: np.ndarray, dev_a: np.ndarray,
            dev_b: np.ndarray) -> Overview:
    """The whole overview of devices in rows (keys, roles, rectangles) and of cables between
    device rows `dev_a` and `dev_b`."""
    fine, coarse, to_coarse = levels(fine_keys, coarse_keys, roles, x, y, w, h)
    bundles = count_bundles(fine.block_of, len(fine.blocks), dev_a, dev_b)
    return Overview(fine, coarse, to_coarse, bundles,
                    coarsen_bundles(bundles, to_coarse, len(coarse.blocks)))
