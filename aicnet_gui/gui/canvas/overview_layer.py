"""The Topology canvas zoomed out: blocks per scalable unit, pod and tier, with their bundles.

Below `OVERVIEW_SCALE` a device is a pixel or two high; 17,000 bars and 300,000 cables at that
size read as one coloured slab.  This item then draws the design's structure instead (the
blocks of editing/overview.py): a box per SU ("SU 17", "32 servers, 8 leaves"), per pod of
spines and per tier or plane of switches, and one line per pair of blocks with the number of
cables it stands for.  When even the SU boxes are too small for their text, SUs merge into their
pods and switch tiers into one block per plane (the coarse level).  Further out than the view's
usual least zoom (`FAR_LEVEL_SCALE`: a design of 200,000 GPUs fitted in a window), pods merge
into runs ("Pods 1-16", the shortest run whose band is `RUN_MIN_PX` high), each plane's
switch tiers still their own blocks.  A design of one pod has nothing to merge its SUs by: too
small for their text, they merge in runs at any zoom ("SUs 1–8", from one SU or leaf group a
run, the shortest whose box is `SU_RUN_MIN_PX` big), each run titled.  A switch tier's rows, a pixel high far out, are grown to
a line of text and stacked up clear of the blocks under them (leaves, spines and cores over the
servers): no block covers another or its title.  Zooming in, the blocks give way to the device
bars and cables of the other layers.

The item holds no truth: it is recomputed from the document, the device layer's rectangles and
the link layer's end columns when it is drawn after a change.  An edit that only moves devices
reuses the blocks and recounts nothing: the boxes of the touched blocks are recomputed.

With one compute plane shown (`set_plane`) the switch blocks of the other planes are not drawn
nor hit, the bundles are recounted from the cables the link layer still draws, and a block that
holds switches of both planes (an SU with its leaves) counts only those of the plane shown.

In the link layer's traffic colour mode (canvas/traffic_layer.py) a bundle is drawn in the
colour of its most loaded cable (load_ramp.py), the hot ones over the cool ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...editing import overview
from ...editing.overview import Block, Bundles, Level
from ...model.document import FabricDocument
from ...model.edits import ChangeSet
from .. import load_ramp, theme
from .device_layer import DeviceLayer
from .fabric_scene import FabricScene
from .link_layer import LinkLayer
from .scene_data import PreparedOverview, TopologyData
from .view import MIN_SCALE, FabricView


class TopologyScene(Protocol):
    """What the overview reads of its scene (gui/canvas/topology_scene.py)."""

    far: bool
    links: LinkLayer
    device_layer: DeviceLayer

    @property
    def doc(self) -> FabricDocument: ...

OVERVIEW_SCALE = 0.06
"""Below this view scale (a 38-unit device panel is about 2 px high) the overview is drawn."""
OVERVIEW_MIN_DEVICES = 100
"""A design with fewer devices is drawn as devices at any zoom."""
FINE_MIN_PX = (110.0, 15.0)
"""The fine level (one block per SU) when a typical SU box is at least this big on screen (a
line of text fits)."""
LABEL_MIN_PX = (36.0, 4.0)
PART_MIN_PX = (6.0, 16.0)
"""A block part is drawn at least this big on screen (a row of switches is 2 px high far out)."""
STACK_GAP_PX = 3.0
"""Grown switch tiers stack up this far apart on screen, over each other and the servers."""
MAX_BUNDLE_LABELS = 200
FAR_LEVEL_SCALE = MIN_SCALE
"""Below this view scale (reached only by fitting a design too big for it) pods are drawn in
runs; at it and above, what every design showed before."""
RUN_MIN_PX = 30.0
"""A run of pods far out is at least this high on screen (its title and contents fit)."""
SU_RUN_MIN_PX = (80.0, 12.0)
"""A run of SUs (or leaf groups) of a one-pod design is at least this big on screen: its blocks
sit side by side in rows, and a run is legible once its title ("SUs 13–16") fits a row."""


def _legible(runs: list[overview.Rect], scale: float, sus: bool) -> bool:
    """Whether runs whose label parts are `runs` read at `scale`: a typical band of pods
    RUN_MIN_PX high, a typical run of SUs side by side (`sus`) SU_RUN_MIN_PX big."""
    height = float(np.median([r[3] - r[1] for r in runs])) * scale
    if not sus:
        return height >= RUN_MIN_PX
    width = float(np.median([r[2] - r[0] for r in runs])) * scale
    return width >= SU_RUN_MIN_PX[0] and height >= SU_RUN_MIN_PX[1]


def _tint(role: str, odd: bool = False) -> tuple[QColor, QColor]:
    """Fill and border of a block whose main role is `role`; neighbouring SUs and pods alternate
    (`odd`) so that a pod wrapping onto two rows still reads as its own."""
    base = theme.role_colour(role)
    return base.lighter(150 if odd else 185), base.darker(115)


def main_role(block: Block) -> str:
    for role in ("gpu_server", "storage", "leaf", "spine", "core"):
        if block.counts.get(role):
            return role
    return next(iter(block.counts), "mgmt")


class OverviewLayer(QGraphicsItem):
    """Blocks and block-to-block bundles of the scene's document, drawn far out."""

    def __init__(self, scene: TopologyScene) -> None:
        super().__init__()
        self._scene = scene
        self.setZValue(8)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setVisible(False)
        #: device id -> (the Device object the keys were made from, fine, coarse, role)
        self._keys: dict[str, tuple[object, overview.BlockKey, overview.BlockKey, str]] = {}
        #: the leaf groups `_keys` were made with (a server's block is its leaf group's)
        self._groups = overview.leaf_groups(())
        self._ids: list[str] = []
        self._row_of: dict[str, int] = {}
        #: median width and height of the fine server-side blocks (picks the level)
        self._typical: tuple[float, float] | None = None
        #: whether the coarse level merges every SU into one pod (`_one_pod`), None: not known
        self._single_pod: bool | None = None
        self._fine: Level | None = None
        self._coarse: Level | None = None
        self._fine_bundles: Bundles | None = None
        self._coarse_bundles: Bundles | None = None
        self._fine_to_coarse = np.zeros(0, dtype=np.int64)
        #: the far levels made so far, by run length: (level, its bundles, fine block -> its
        #: block), until the coarse level changes
        self._far: dict[int, tuple[Level, Bundles, np.ndarray]] = {}
        #: per link-layer device row, its fine block (-1: none), from the last bundle count
        self._block_of = np.zeros(0, dtype=np.int64)
        #: what the last bundle count counted: (the link layer's ends version, the fine level);
        #: a cable edit that moves no end (a length, a cable part) recounts nothing
        self._counted: tuple[int, int] | None = None
        self._fine_version = 0  # bumped whenever the fine level is made anew
        #: per level (by id): its bundles' cables (overview.bundle_members, kept until the
        #: cables are counted again) and their most loaded cable's load (for `_peaks_version`)
        self._members: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._peaks: dict[int, np.ndarray] = {}
        self._peaks_version = -1
        self._devices_dirty = True
        self._links_dirty = True
        self._moved: set[str] = set()
        self._bounds = QRectF()
        self.active = False
        #: the loader's lists the id maps (`_keys`, `_row_of`) are still to be made from
        self._unkeyed: PreparedOverview | None = None
        #: the plane shown (None: all), the devices it hides, and the blocks' texts under it
        self._plane: str | None = None
        self._hidden: set[str] = set()
        self._texts: dict[int, list[str]] = {}
        #: where the switch blocks of a level are drawn at a scale (grown and stacked, by id of
        #: the block; the level is held, so no id is reused): (level, scale, `_geometry`, boxes)
        self._stacked: tuple[Level, float, int, dict[int, QRectF]] | None = None
        self._geometry = 0  # bumped whenever the blocks or their parts may have changed
        if isinstance(scene, FabricScene):
            scene.add_sized_on_screen(self)  # fit takes in the grown blocks and the titles

    # ---------------------------------------------------------------- following the document
    def reset(self, prepared: PreparedOverview | None = None) -> None:
        """A new document (its layers loaded): recompute everything when next drawn, or take
        what the file loader `prepared` for it (the same blocks and bundles, computed in its
        worker thread from the scene's columns)."""
        self._keys.clear()
        self._ids = []
        self._fine = self._coarse = None
        self._stacked = None
        self._geometry += 1
        self._far.clear()
        self._counted = None
        self._devices_dirty = self._links_dirty = True
        self._moved.clear()
        self._typical = self._single_pod = None
        self._unkeyed = None
        self._plane = None
        self._hidden = set()
        self._texts.clear()
        self._groups = overview.leaf_groups(())
        if prepared is not None:
            self._ids = prepared.ids
            self._groups = prepared.groups
            self._unkeyed = prepared  # the id maps are made when an edit first needs them
            made = prepared.overview
            self._fine, self._coarse = made.fine, made.coarse
            self._fine_to_coarse = made.fine_to_coarse
            self._fine_bundles, self._coarse_bundles = made.fine_bundles, made.coarse_bundles
            self._devices_dirty = self._links_dirty = False
            self._fine_version += 1
            # the loader counted the cables the link layer has just been given
            self._counted = (self._scene.links.ends_version, self._fine_version)
        self._sync_bounds()

    # the canvas-layer contract (mirror.MirrorLayer): the Topology mirror tells these
    def mirror_reset(self, data: TopologyData) -> None:
        self.reset(data.overview)

    def mirror_changed(self, changes: ChangeSet) -> None:
        self.changed(changes)

    def mirror_scale(self, scale: float) -> None:
        self.set_scale(scale)

    def _sync_bounds(self) -> None:
        """The item covers what the device layer covers (no block reaches beyond its devices)."""
        rect = self._scene.device_layer.boundingRect()
        if rect != self._bounds:
            self.prepareGeometryChange()
            self._bounds = QRectF(rect)

    def set_plane(self, plane: str | None, hidden: set[str]) -> None:
        """Show the blocks of one compute plane (None: all); `hidden`: the devices it hides."""
        self._plane, self._hidden = plane, set(hidden)
        self._links_dirty = True  # the bundles count the cables drawn
        self._texts.clear()
        if self.active:
            self.update()

    def block_shown(self, block: Block) -> bool:
        """The block is drawn: not a switch tier of a plane other than the one shown."""
        return self._plane is None or block.key.plane in ("", self._plane)

    def texts(self, level: Level) -> list[str]:
        """What each block of `level` holds, counting only the devices shown."""
        cached = self._texts.get(id(level))
        if cached is not None:
            return cached
        blocks = level.blocks
        if not self._hidden:
            texts = [b.text for b in blocks]
        else:
            self._key_maps()
            row_of, keys = self._row_of, self._keys
            less: list[dict[str, int]] = [{} for _ in blocks]
            for device_id in self._hidden:
                row, entry = row_of.get(device_id), keys.get(device_id)
                if row is None or entry is None:
                    continue
                counts = less[int(level.block_of[row])]
                counts[entry[3]] = counts.get(entry[3], 0) + 1
            texts = [overview.describe({r: n - gone.get(r, 0) for r, n in b.counts.items()})
                     if gone else b.text for b, gone in zip(blocks, less, strict=True)]
        self._texts[id(level)] = texts
        return texts

    def changed(self, changes: ChangeSet) -> None:
        """An edit: note what to recompute (nothing is computed until the overview is drawn)."""
        if changes.links:
            self._links_dirty = True
        if changes.devices:
            self._devices_dirty = True
            self._texts.clear()
            self._moved.update(changes.devices)
            self._sync_bounds()
        if self.active:
            self.update()

    def wanted(self, scale: float) -> bool:
        return scale < OVERVIEW_SCALE and len(self._scene.doc.devices) >= OVERVIEW_MIN_DEVICES

    def set_scale(self, scale: float) -> None:
        """The view scale changed: switch between the overview and the device layers."""
        active = self.wanted(scale)
        scene = self._scene
        if active != self.active:
            self.active = active
            self.setVisible(active)
        scene.links.setVisible(not active)
        scene.device_layer.setVisible(scene.far and not active)

    # ---------------------------------------------------------------- computing the blocks
    def _key_maps(self) -> None:
        """Make `_keys` and `_row_of` from the loader's lists (~20 ms at 18,000 devices: after
        the first frame, on the first edit that moves or changes a device)."""
        prepared, self._unkeyed = self._unkeyed, None
        if prepared is None:
            return
        ids = prepared.ids
        self._keys = dict(zip(ids, zip(prepared.devices, prepared.fine_keys, prepared.coarse_keys,
                                       prepared.roles, strict=True), strict=True))
        self._row_of = {device_id: row for row, device_id in enumerate(ids)}

    def _refresh(self) -> None:
        if self._devices_dirty or self._links_dirty:
            self._far.clear()  # made again from the coarse level when next drawn far out
        self._refresh_blocks()
        if self._links_dirty:
            self._refresh_links()

    def _refresh_blocks(self) -> None:
        if self._devices_dirty:
            self._texts.clear()
            self._key_maps()
            self._typical = self._single_pod = None
            self._refresh_devices()

    def su_blocks(self) -> list[tuple[str, QRectF]]:
        """The scalable units of a design of two or more, title and where their leaves and
        servers are (scene units), for the captions drawn closer in (su_captions.py); the
        blocks are the overview's own, kept up to date the same way (no bundle is counted)."""
        doc = self._scene.doc
        if len({d.tags.get("su") for d in doc.devices.values()} - {None}) < 2:
            return []  # nothing to tell apart: the overview's blocks are left uncomputed
        self._refresh_blocks()
        fine = self._fine
        if fine is None:
            return []
        sus = [b for b in fine.blocks if b.key.kind == "su"]
        if len(sus) < 2:
            return []
        out = []
        for block in sus:
            left, top, right, bottom = block.bounds()
            out.append((block.title, QRectF(left, top, right - left, bottom - top)))
        return out

    def _only_moved(self) -> bool:
        """True when the devices changed since the last refresh kept their blocks (a move, a
        rename): their keys are brought up to date, the blocks stay."""
        doc, cache = self._scene.doc, self._keys
        if self._fine is None or len(doc.devices) != len(self._ids):
            return False
        for device_id in self._moved:
            device, entry = doc.devices.get(device_id), cache.get(device_id)
            if device is None or entry is None:
                return False
            if entry[0] is not device:
                role = doc.role_of(device).value
                fine, coarse = overview.device_keys(role, device.tags, device.plane,
                                                    self._groups)
                if (fine, coarse, role) != entry[1:]:
                    return False
                cache[device_id] = (device, fine, coarse, role)
        return True

    def _refresh_devices(self) -> None:
        self._geometry += 1
        self._stacked = None
        if self._only_moved():
            self._move_parts()
            self._moved.clear()
            self._devices_dirty = False
            return
        doc = self._scene.doc
        cache = self._keys
        ids = list(doc.devices)
        keys_changed = ids != self._ids
        groups = overview.leaf_groups(device.tags for device in doc.devices.values())
        if groups.spans != self._groups.spans:  # a leaf's `sus` changed: servers change block
            cache.clear()
        self._groups = groups
        fine_keys, coarse_keys, roles = [], [], []
        for device_id, device in doc.devices.items():
            entry = cache.get(device_id)
            if entry is None or entry[0] is not device:
                role = doc.role_of(device).value
                fine, coarse = overview.device_keys(role, device.tags, device.plane, groups)
                if entry is None or (entry[1], entry[2], entry[3]) != (fine, coarse, role):
                    keys_changed = True
                entry = cache[device_id] = (device, fine, coarse, role)
            fine_keys.append(entry[1])
            coarse_keys.append(entry[2])
            roles.append(entry[3])
        for gone in set(cache) - set(doc.devices):
            del cache[gone]
        x, y, w, h = self._scene.device_layer.rects_of(ids)
        if keys_changed or self._fine is None:
            self._fine, self._coarse, self._fine_to_coarse = overview.levels(
                fine_keys, coarse_keys, roles, x, y, w, h)
            self._fine_version += 1
            self._ids = ids
            self._row_of = {device_id: row for row, device_id in enumerate(ids)}
            self._links_dirty = True
        else:
            self._move_parts()
        self._moved.clear()
        self._devices_dirty = False

    def _member_parts(self, rows: np.ndarray, block: Block) -> list[overview.Rect]:
        x, y, w, h = self._scene.device_layer.rects_of([self._ids[r] for r in rows.tolist()])
        switch = not any(role in block.counts for role in overview.SERVER_SIDE)
        return overview._parts(np.arange(len(rows)), x, y, w, h, split=switch)

    def _move_parts(self) -> None:
        """Devices moved, blocks unchanged: recompute the parts of the blocks they are in (a
        few dozen rectangles, not 18,000)."""
        fine, coarse = self._fine, self._coarse
        assert fine is not None and coarse is not None
        row_of = self._row_of
        rows = [row_of[d] for d in self._moved if d in row_of]
        if not rows:
            return
        touched = set(fine.block_of[rows].tolist())
        for index in touched:
            fine.blocks[index].parts = self._member_parts(np.flatnonzero(fine.block_of == index),
                                                          fine.blocks[index])
        for index in set(self._fine_to_coarse[list(touched)].tolist()):
            block = coarse.blocks[index]
            members = np.flatnonzero(self._fine_to_coarse == index)
            block.parts = (list(fine.blocks[int(members[0])].parts) if len(members) == 1
                           else overview._merge_rows([fine.blocks[i].bounds() for i in members]))
        overview.separate_planes(fine)
        overview.separate_planes(coarse)

    def _refresh_links(self) -> None:
        fine = self._fine
        if fine is None:
            return
        links = self._scene.links
        counted = (links.ends_version, self._fine_version)
        if counted == self._counted and self._fine_bundles is not None:
            self._links_dirty = False
            return
        self._counted = counted
        block_of = self._device_blocks()
        dev_a, dev_b = links.live_ends()
        self._block_of = block_of
        self._members.clear()
        self._peaks.clear()
        self._fine_bundles = overview.count_bundles(block_of, len(fine.blocks), dev_a, dev_b)
        assert self._coarse is not None
        self._coarse_bundles = overview.coarsen_bundles(self._fine_bundles, self._fine_to_coarse,
                                                        len(self._coarse.blocks))
        self._links_dirty = False

    def _device_blocks(self) -> np.ndarray:
        """Per link-layer device row, its fine block (-1: none)."""
        assert self._fine is not None
        links = self._scene.links
        layer_rows = links.device_rows(self._ids)
        block_of = np.full(links.device_count(), -1, dtype=np.int64)
        known = layer_rows >= 0
        block_of[layer_rows[known]] = self._fine.block_of[known]
        return block_of

    # ---------------------------------------------------------------- what is shown
    def level(self, scale: float) -> tuple[Level, Bundles]:
        """The level drawn at `scale`: fine when a typical server-side block fits its text."""
        self._refresh()
        assert self._fine is not None and self._coarse is not None
        assert self._fine_bundles is not None and self._coarse_bundles is not None
        if self._typical is None:
            sizes = [b.bounds() for b in self._fine.blocks if b.key.kind in ("su", "pod")]
            self._typical = (float(np.median([r[2] - r[0] for r in sizes])),
                             float(np.median([r[3] - r[1] for r in sizes]))) if sizes else (0.0, 0.0)
        width, height = self._typical
        if width and (width * scale < FINE_MIN_PX[0] or height * scale < FINE_MIN_PX[1]):
            if scale < FAR_LEVEL_SCALE or self._one_pod():
                return self._far_level(scale)
            return self._coarse, self._coarse_bundles
        return self._fine, self._fine_bundles

    def _one_pod(self) -> bool:
        """True when the coarse level would merge every SU into a single pod: a two-tier design
        of 32 leaf groups (64 SUs of DGX B300 in four planes) drew one `Pod 1` over five rows,
        titled once, where its SUs are what tells it apart; such a design merges its SUs in
        runs instead (`_far_level`), from one SU (or leaf group) a block up."""
        if self._single_pod is None:
            assert self._fine is not None and self._coarse is not None
            pods = sum(1 for b in self._coarse.blocks if b.key.kind == "pod")
            self._single_pod = pods == 1 and sum(
                1 for b in self._fine.blocks if b.key.kind == "su") > 1
        return self._single_pod

    def _far_level(self, scale: float) -> tuple[Level, Bundles]:
        """The shortest run of pods whose typical band is RUN_MIN_PX high at `scale` (all pods
        in one run at most); the coarse level when it has no more than one pod.  A design of
        one pod runs its SUs instead, one a run first (`_one_pod`)."""
        assert self._coarse is not None and self._coarse_bundles is not None
        assert self._fine is not None and self._fine_bundles is not None
        one_pod = self._one_pod()
        source, source_bundles = ((self._fine, self._fine_bundles) if one_pod
                                  else (self._coarse, self._coarse_bundles))
        pods = sum(1 for b in source.blocks if b.key.kind in overview.RUNS)
        size = 1 if one_pod else 2
        while size < pods * 2:
            made = self._far.get(size)
            if made is None:
                level, bundles, to_far = overview.group_pods(source, source_bundles, size)
                made = self._far[size] = (level, bundles,
                                          to_far if one_pod else to_far[self._fine_to_coarse])
            runs = [b.label_part() for b in made[0].blocks if b.key.kind in overview.RUN_TITLES]
            if size >= pods or (runs and _legible(runs, scale, one_pod)):
                return made[0], made[1]
            size *= 2
        return self._coarse, self._coarse_bundles

    def _fine_to(self, level: Level) -> np.ndarray | None:
        """Fine block -> block of `level` (None: `level` is the fine level)."""
        if level is self._coarse:
            return self._fine_to_coarse
        for far, _bundles, fine_to_far in self._far.values():
            if far is level:
                return fine_to_far
        return None

    def blocks(self, scale: float) -> list[Block]:
        return self.level(scale)[0].blocks

    def bundle_loads(self, level: Level, bundles: Bundles) -> np.ndarray:
        """The load of the most loaded cable of each bundle of `level` (NaN: none known)."""
        links = self._scene.links
        if self._peaks_version != links.loads_version:
            self._peaks.clear()
            self._peaks_version = links.loads_version
        peaks = self._peaks.get(id(level))
        if peaks is None:
            peaks = overview.bundle_peaks(bundles, self._bundle_members(level, bundles),
                                          links.live_loads())
            self._peaks[id(level)] = peaks
        return peaks

    def _bundle_members(self, level: Level, bundles: Bundles) -> tuple[np.ndarray, np.ndarray]:
        """The cables of each bundle of `level`, in `live_ends` order (kept until recounted)."""
        members = self._members.get(id(level))
        if members is None:
            links = self._scene.links
            if len(self._block_of) != links.device_count():  # bundles the file loader counted
                self._block_of = self._device_blocks()
            block_of = self._block_of
            to_level = self._fine_to(level)
            if to_level is not None:
                block_of = np.where(block_of >= 0, to_level[np.maximum(block_of, 0)], -1)
            dev_a, dev_b = links.live_ends()
            members = overview.bundle_members(bundles, block_of[dev_a], block_of[dev_b],
                                              len(level.blocks))
            self._members[id(level)] = members
        return members

    def block_at(self, pos: QPointF, scale: float) -> Block | None:
        for block in self.blocks(scale):
            if self.block_shown(block) and any(rect.contains(pos) for rect in self.block_rects(block, scale)):
                return block
        return None

    def zoom_into(self, pos: QPointF, view: FabricView) -> bool:
        """Double-click on a block: show its devices (the view fits the block)."""
        block = self.block_at(pos, view.scale_factor())
        if block is None:
            return False
        left, top, right, bottom = block.bounds()
        view.fit_rect(QRectF(left, top, right - left, bottom - top))
        return True

    def tooltip_at(self, pos: QPointF, scale: float) -> str:
        """A block's title, contents and bundles (its three biggest)."""
        level, bundles = self.level(scale)
        block = self.block_at(pos, scale)
        if block is None:
            return ""
        index = level.blocks.index(block)
        mine = np.flatnonzero((bundles.a == index) | (bundles.b == index))
        mine = mine[np.argsort(-bundles.counts[mine], kind="stable")][:3]
        lines = [f"<b>{block.title}</b>: {self.texts(level)[index]}"]
        for i in mine.tolist():
            other = int(bundles.b[i] if bundles.a[i] == index else bundles.a[i])
            lines.append(f"{block.title} → {level.blocks[other].title}: "
                         f"{int(bundles.counts[i]):,} cables")
        lines.append("Zoom in (or double-click) to see its devices")
        return "<br>".join(lines)

    def drawn_rect(self, scale: float) -> QRectF:
        """Where the blocks and their titles are drawn at view scale `scale`, in scene units
        (null: the overview is not drawn there).  They reach past the devices by a few pixels:
        a switch tier grown to PART_MIN_PX, a title a line high on its plate, centred on a row
        thinner than that (the last, partial run of pods of a design fitted whole)."""
        if not self.wanted(scale) or scale <= 0:
            return QRectF()
        level, _bundles = self.level(scale)
        line = QFontMetrics(theme.font(9.0, True)).height() + 2  # as _paint_titles, and the pen
        out = QRectF()
        for block in level.blocks:
            if not self.block_shown(block):
                continue
            rects = self.block_rects(block, scale)
            box = self.label_rect(block, scale)
            if box.width() * scale >= LABEL_MIN_PX[0] and box.height() * scale >= LABEL_MIN_PX[1]:
                middle = box.center().y()
                rects.append(QRectF(box.left(), middle - line / 2 / scale, box.width(),
                                    line / scale))
            for rect in rects:
                out = rect if out.isNull() else out.united(rect)
        return out

    # ---------------------------------------------------------------- painting
    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        scale = painter.worldTransform().m11()
        level, bundles = self.level(scale)
        if not level.blocks:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        shown = [self.block_shown(b) for b in level.blocks]
        # the bundles first: a trunk to a lower block passes behind the blocks above it instead
        # of running through their titles (it shows in the gaps between them)
        ends = self._paint_bundles(painter, level, bundles, scale)
        self._paint_blocks(painter, level.blocks, scale, shown)
        leaving = bundles.leaving(len(level.blocks)) if len(bundles) else None
        titles = self._paint_titles(painter, level.blocks, scale, leaving, shown,
                                    self.texts(level))
        if ends is not None:
            if self._is_far(level):  # runs of pods stack: a trunk's middle is inside another run
                transform = painter.worldTransform()
                titles = titles + [transform.mapRect(rect)
                                   for block, drawn in zip(level.blocks, shown, strict=True)
                                   if drawn for rect in self.block_rects(block, scale)]
            self._paint_counts(painter, bundles, *ends, scale, titles)
        painter.restore()

    def _is_far(self, level: Level) -> bool:
        return any(far is level for far, _bundles, _to in self._far.values())

    def block_rects(self, block: Block, scale: float) -> list[QRectF]:
        """Where a block is drawn: an SU or pod part per layout row; a switch tier as one box
        around its rows (grown to be seen, its rows' boxes would overlap far out, and stacked
        up clear of what is under it: `switch_box`)."""
        if main_role(block) in overview.SERVER_SIDE:
            return [self.part_rect(part, scale, False) for part in block.parts]
        return [self.switch_box(block, scale)]

    def label_rect(self, block: Block, scale: float) -> QRectF:
        """Where the block's title goes and its bundles end."""
        if main_role(block) in overview.SERVER_SIDE:
            return self.part_rect(block.label_part(), scale, False)
        return self.switch_box(block, scale)

    def switch_box(self, block: Block, scale: float) -> QRectF:
        """Where a switch block of the level drawn at `scale` is drawn: the box around its rows
        grown to PART_MIN_PX on screen and moved up clear of the blocks under it that it would
        cover (overview.grown_apart: the cores, spines and leaves of a flat design fitted whole
        are rows a pixel high a few pixels apart; grown in place they covered each other and
        the servers' top, and lost their titles).  A block of no level at `scale` is grown in
        place."""
        stacked = self._stacked
        if stacked is None or stacked[1] != scale or stacked[2] != self._geometry or (
                id(block) not in stacked[3]):
            level = self.level(scale)[0]
            if stacked is None or stacked[0] is not level or stacked[1] != scale or (
                    stacked[2] != self._geometry):
                stacked = self._stacked = (level, scale, self._geometry,
                                           self._stack(level, scale))
        box = stacked[3].get(id(block))
        return QRectF(box) if box is not None else self.part_rect(block.bounds(), scale, True)

    @staticmethod
    def _stack(level: Level, scale: float) -> dict[int, QRectF]:
        """The switch blocks of `level` grown and stacked at `scale`, by id of the block (the
        server-side blocks' parts stay where they are)."""
        boxes: list[overview.Rect] = []
        switches: list[Block] = []
        for block in level.blocks:
            if main_role(block) in overview.SERVER_SIDE:
                boxes.extend(block.parts)
            else:
                switches.append(block)
        fixed = len(boxes)
        boxes.extend(block.bounds() for block in switches)
        per_px = 1.0 / max(scale, 1e-9)
        drawn = overview.grown_apart(boxes, [False] * fixed + [True] * len(switches),
                                     (PART_MIN_PX[0] * per_px, PART_MIN_PX[1] * per_px),
                                     STACK_GAP_PX * per_px)
        return {id(block): QRectF(left, top, right - left, bottom - top)
                for block, (left, top, right, bottom) in zip(switches, drawn[fixed:], strict=True)}

    @staticmethod
    def part_rect(part: tuple[float, float, float, float], scale: float,
                  grow: bool = True) -> QRectF:
        """A part in scene units; a switch tier's (`grow`) grown about its centre to PART_MIN_PX
        on screen (one row of switches is 2 px high far out)."""
        left, top, right, bottom = part
        if not grow:
            return QRectF(left, top, right - left, bottom - top)
        width = max(right - left, PART_MIN_PX[0] / max(scale, 1e-9))
        height = max(bottom - top, PART_MIN_PX[1] / max(scale, 1e-9))
        return QRectF((left + right - width) / 2, (top + bottom - height) / 2, width, height)

    def _paint_blocks(self, painter: QPainter, blocks: list[Block], scale: float,
                      shown: list[bool]) -> None:
        by_role: dict[tuple[str, bool], list[QRectF]] = {}
        servers = 0
        for block, drawn in zip(blocks, shown, strict=True):
            if not drawn:
                continue
            role = main_role(block)
            grow = role not in overview.SERVER_SIDE
            odd = not grow and servers % 2 == 1
            servers += not grow
            by_role.setdefault((role, odd), []).extend(
                self.block_rects(block, scale))
        for (role, odd), rects in by_role.items():
            fill, border = _tint(role, odd)
            pen = QPen(border, 1.2)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(QBrush(fill))
            painter.drawRects(rects)

    def _paint_bundles(self, painter: QPainter, level: Level, bundles: Bundles,
                       scale: float) -> tuple[np.ndarray, ...] | None:
        """One line per bundle (in the traffic mode in its load's colour, the hot ones last);
        returns the lines' ends (for the counts)."""
        if not len(bundles):
            return None
        blocks = level.blocks
        # from the upper block's bottom edge to the lower one's top edge, straight down where the
        # blocks overlap sideways (a trunk reads as going up a tier, not through other blocks)
        boxes = [self.label_rect(b, scale) for b in blocks]
        left = np.array([r.left() for r in boxes])
        right = np.array([r.right() for r in boxes])
        top = np.array([r.top() for r in boxes])
        bottom = np.array([r.bottom() for r in boxes])
        cx = (left + right) / 2
        upper_a = top[bundles.a] <= top[bundles.b]
        up = np.where(upper_a, bundles.a, bundles.b)
        low = np.where(upper_a, bundles.b, bundles.a)
        bx = cx[low]
        inset = (right[up] - left[up]) * 0.15  # not all on the upper block's corner
        ax = np.clip(bx, left[up] + inset, right[up] - inset)
        ay, by = bottom[up], top[low]
        weights = np.searchsorted(np.array([16, 128, 1024, 8192]), bundles.counts, side="right")
        widths = (1.0, 1.6, 2.4, 3.4, 4.6)
        colours = [QColor("#5b6b7f")]
        classes = np.zeros(len(bundles), dtype=np.int64)
        if self._scene.links.mode == "traffic":
            colours = [QColor(c) for c in load_ramp.COLOURS]
            classes = load_ramp.classes(self.bundle_loads(level, bundles))
        keys = classes * 8 + weights
        for key in np.unique(keys).tolist():  # cool to hot: the hot trunks on top
            rows = np.flatnonzero(keys == key)
            pen = QPen(colours[key // 8], widths[key % 8])
            pen.setCosmetic(True)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            painter.setPen(pen)
            painter.drawLines([QLineF(ax[i], ay[i], bx[i], by[i]) for i in rows.tolist()])
        return ax, ay, bx, by

    def _paint_counts(self, painter: QPainter, bundles: Bundles, ax: np.ndarray, ay: np.ndarray,
                      bx: np.ndarray, by: np.ndarray, scale: float, titles: list[QRectF]) -> None:
        """`512` on a bundle where there is room (big bundles first, none on top of another)."""
        length = np.hypot(bx - ax, by - ay) * scale
        rows = np.flatnonzero(length >= 60)
        rows = rows[np.argsort(-bundles.counts[rows], kind="stable")][:MAX_BUNDLE_LABELS]
        if not len(rows):
            return
        transform = painter.worldTransform()
        painter.save()
        painter.resetTransform()
        painter.setFont(theme.font(8.0, True))
        metrics = painter.fontMetrics()
        taken = list(titles)  # never over a block's title
        for i in rows.tolist():
            mid = transform.map(QPointF((ax[i] + bx[i]) / 2, (ay[i] + by[i]) / 2))
            text = f"{int(bundles.counts[i]):,}"
            w, h = metrics.horizontalAdvance(text) + 8, metrics.height() + 2
            box = QRectF(mid.x() - w / 2, mid.y() - h / 2, w, h)
            if any(box.intersects(other) for other in taken):
                continue
            taken.append(box)
            painter.setPen(QPen(QColor("#8a96a3"), 1))
            painter.setBrush(QBrush(QColor("#ffffff")))
            painter.drawRoundedRect(box, 3, 3)
            painter.setPen(QPen(theme.DEVICE_TEXT))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()

    @staticmethod
    def _paint_plate(painter: QPainter, rect: QRectF) -> None:
        """A light rounded plate (as under a bundle's count) for a title wider than its row."""
        painter.save()
        painter.setPen(QPen(QColor("#8a96a3"), 1))
        painter.setBrush(QBrush(QColor(255, 255, 255, 235)))
        painter.drawRoundedRect(rect, 3, 3)
        painter.restore()

    def _paint_titles(self, painter: QPainter, blocks: list[Block], scale: float,
                      leaving: np.ndarray | None = None, drawn: list[bool] | None = None,
                      texts: list[str] | None = None) -> list[QRectF]:
        """Title and contents of each block whose label part is big enough on screen: on two
        lines where the box is high enough, else `SU 17: 32 servers, 8 leaves · 256 out` on one
        (the cables between the block and the others: an SU's uplinks, readable where the
        bundle lines are too short for their own counts).  Returns where the text went, on
        screen (titles and contents lines), for the bundle counts to keep off."""
        transform = painter.worldTransform()
        painter.save()
        painter.resetTransform()
        title_font, text_font = theme.font(9.0, True), theme.font(8.0)
        painter.setFont(title_font)
        line = painter.fontMetrics().height()
        labels = []
        for index, block in enumerate(blocks):
            if drawn is not None and not drawn[index]:
                continue
            box = transform.mapRect(self.label_rect(block, scale))
            if box.width() >= LABEL_MIN_PX[0] and box.height() >= LABEL_MIN_PX[1]:
                out = int(leaving[index]) if leaving is not None else 0
                labels.append(_Label(block, texts[index] if texts is not None else block.text,
                                     out, box.adjusted(4, 1, -4, -1), line))
        placed, crowded = _place_titles(painter, labels, halve=False)
        if crowded:  # rows thinner than a line stack their titles: each takes half the row,
            # left or right, whichever is free (100 pods fitted: every pod named, not every other)
            placed, _crowded = _place_titles(painter, labels, halve=True)
        written: list[QRectF] = []
        for label, shown, spot, side in placed:
            written.append(spot)
            painter.setPen(theme.DEVICE_TEXT)
            painter.setFont(title_font)
            if label.overhangs:  # on a row thinner than the text: a plate under it, so it reads
                self._paint_plate(painter, QRectF(spot.left() - 3, spot.center().y() - line / 2,
                                                  spot.width() + 6, line))
                painter.setPen(theme.DEVICE_TEXT)
            painter.drawText(label.inner, side | (Qt.AlignmentFlag.AlignVCenter if label.one_line
                                                  else Qt.AlignmentFlag.AlignTop), shown)
            if not label.one_line:
                written.append(self._paint_contents(painter, label, text_font, line))
        painter.restore()
        return written

    @staticmethod
    def _paint_contents(painter: QPainter, label: _Label, font: QFont, line: float) -> QRectF:
        """The contents lines under a title; returns where they went: a bundle count never sits
        on them (16 SUs of two-plane B300 in a 4 x 4 grid: the trunks to the lower rows cross
        the upper blocks)."""
        painter.setPen(theme.DEVICE_SUBTEXT)
        painter.setFont(font)
        inner = label.inner
        rest = QRectF(inner.left(), inner.top() + line, inner.width(), inner.height() - line)
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap
        painter.drawText(rest, flags, label.contents)
        return painter.boundingRect(rest, flags, label.contents).intersected(rest)


class _Label:
    """A block's title to place: its text, the cables out, its inner box on screen, and how
    the box compares with a line of the title font."""

    __slots__ = ("block", "contents", "first", "inner", "one_line", "out", "overhangs")

    def __init__(self, block: Block, text: str, out: int, inner: QRectF, line: float) -> None:
        self.block, self.out = block, out
        self.contents = text + (f" · {out:,} out" if out else "")
        self.first = text.split(", ")[0]
        self.one_line = inner.height() < 2 * line
        self.overhangs = inner.height() < line
        if self.overhangs:  # a thin row: the line overhangs it, centred
            inner = QRectF(inner.left(), inner.center().y() - line / 2, inner.width(), line)
        self.inner = inner

    def text(self, room: float, fits: Callable[[str], bool]) -> str:
        """The longest title that fits `room`: all, then the first count and the cables out,
        then the first count, then the title alone (`Pod 7`, never `Pod 7: 256 serv…`); two
        lines: the title alone.  The contents are in the block's tooltip."""
        title = self.block.title
        if not self.one_line:
            return title
        choices = [f"{title}: {self.contents}"]
        if self.out:  # an SU or pod: its cables out are its uplinks
            grow = main_role(self.block) not in overview.SERVER_SIDE
            choices.append(f"{title}: {self.first} · {self.out:,} out" if grow
                           else f"{title}: {self.first} ↑{self.out:,}")
        choices.append(f"{title}: {self.first}")
        choices.append(title)
        return next((c for c in choices if fits(c)), title)


def _place_titles(painter: QPainter, labels: list[_Label], halve: bool
                  ) -> tuple[list[tuple[_Label, str, QRectF, Qt.AlignmentFlag]], bool]:
    """Where each title goes (the label, its elided text, its spot on screen, its side), never
    one over another, and whether a thin row's title found no room (crowded).  `halve`: a thin
    row's title takes half its row, on the left or, when that is taken, on the right."""
    metrics = painter.fontMetrics()
    placed: list[tuple[_Label, str, QRectF, Qt.AlignmentFlag]] = []
    taken: list[QRectF] = []
    crowded = False
    for label in labels:
        inner = label.inner
        room = inner.width() / 2 - 4 if halve and label.overhangs and label.one_line \
            else inner.width()
        text = label.text(room, lambda c, room=room: metrics.horizontalAdvance(c) <= room)
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, int(room))
        width = metrics.horizontalAdvance(shown)
        side = Qt.AlignmentFlag.AlignLeft
        spot = QRectF(inner.left(), inner.top(), width,
                      inner.height() if label.one_line else 2 * metrics.height())
        if room < inner.width() and any(spot.intersects(other) for other in taken):
            side = Qt.AlignmentFlag.AlignRight
            spot.moveRight(inner.right())
        if any(spot.intersects(other) for other in taken):
            crowded = crowded or label.overhangs
            continue  # never one title over another
        taken.append(spot)
        placed.append((label, shown, spot, side))
    return placed, crowded
