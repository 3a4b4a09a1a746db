"""All cables of the Topology canvas drawn by one item, from numpy columns.

One QGraphicsItem per cable does not scale: 100k Python line items take seconds to build and
Qt's BSP index chokes on long lines (shared/reference/performance.md §6).  This layer keeps the
end points of every cable in numpy arrays, culls them against the exposed rectangle and draws
each colour with one `drawLines` call.  Picking a cable is a vectorised distance test.

Zoomed out (below the scene's `detail_scale`) the same layer draws *bundles*: one line per device
pair with a width that grows with the number of cables and a "×N" label; further out servers of
one group (scalable unit, pod or rack) share one end, so a rail-optimized fabric becomes a few
thousand trunks instead of 100k lines.

The layer also carries what the live validation and the colour modes add to the picture, without
a single extra item: a pale red (error) or amber (warning) halo under cables that have findings,
the colour of each cable in the current mode (jacket, speed, tier, rail, oversubscription, or
its traffic load: `set_loads`, a bundle taking its most loaded cable's colour, hot cables drawn
over cool ones), and collapsed groups, whose cables end at the group's box as one bundle per
group and device.

A plane filter (`set_plane_filter`, a view setting of multi-plane fabrics) leaves out the cables
of other compute planes and every cable with an end on a hidden device: they are not drawn,
bundled, counted for the overview, picked or selected, and come back when the filter is cleared.

A big design just opened may give its cables later (`defer_load`, scene_data.py
`complete_cables`): the layer then knows their bounds and draws nothing (the overview draws
far out), and every method about cables first loads them (`load_deferred`); methods about the
devices alone and the selection (`_NO_WAIT`) do not wait for them.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from functools import wraps
from itertools import repeat, starmap
from typing import Any

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...editing.shared_index import SharedIndex
from ...model.link_table import LinkColumns
from .. import load_ramp, theme
from . import lod

_GROW = 1.6
_COLUMNS = {"_ax": np.float64, "_ay": np.float64, "_bx": np.float64, "_by": np.float64,
            "_pen": np.int32, "_spen": np.int32, "_mpen": np.int32, "_alive": np.bool_,
            "_da": np.int64, "_db": np.int64, "_sev": np.int8, "_rail": np.int16,
            "_lplane": np.int16, "_load": np.float32}
"""The per-cable columns (one row per cable slot) and their types."""
MODES = ("cable", "speed", "tier", "rail", "oversubscription", "traffic")
"""Colour modes: jacket colour (speed when none), speed, tier pair, rail, oversubscription,
traffic load (load_ramp.py)."""
NO_LOAD = -1.0
"""The load column of a cable the traffic result does not name (NaN: edited since)."""


def _pen(colour: str, width: float) -> QPen:
    pen = QPen(QColor(colour), width)
    pen.setCosmetic(True)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)  # round caps on wide pens are 100x slower
    return pen


def _visible_area(widget: QWidget | None) -> QRectF | None:
    """The scene area the view shows (not just the part being repainted)."""
    view = widget.parent() if widget is not None else None
    if view is None or not hasattr(view, "mapToScene"):
        return None
    return view.mapToScene(widget.rect()).boundingRect()


def _inside(x: np.ndarray, y: np.ndarray, view: tuple[float, ...]) -> np.ndarray:
    left, right, top, bottom = view[:4]
    return (x >= left) & (x <= right) & (y >= top) & (y <= bottom)


def _stubs(ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray, a_in: np.ndarray,
           b_in: np.ndarray, stub: float, whole: set[int]) -> tuple[np.ndarray, ...]:
    """The cable ends as drawn close up: a cable with one end in view ends `stub` scene units
    from it, towards its other end (the rows in `whole` and the cables with both ends in view
    keep their ends)."""
    one = np.flatnonzero(a_in ^ b_in)
    if whole and len(one):
        one = one[~np.isin(one, np.fromiter(whole, dtype=np.int64))]
    if not len(one):
        return ax, ay, bx, by
    dx, dy = bx[one] - ax[one], by[one] - ay[one]
    length = np.hypot(dx, dy)
    t = np.minimum(1.0, stub / np.where(length > 0, length, 1.0))
    from_a = a_in[one]
    ax, ay, bx, by = ax.copy(), ay.copy(), bx.copy(), by.copy()
    near = one[from_a]  # a in view: b comes in to the stub's end
    ta = t[from_a]
    bx[near] = ax[near] + dx[from_a] * ta
    by[near] = ay[near] + dy[from_a] * ta
    far = one[~from_a]  # b in view: a comes in
    tb = t[~from_a]
    ax[far] = bx[far] - dx[~from_a] * tb
    ay[far] = by[far] - dy[~from_a] * tb
    return ax, ay, bx, by


def _bounds_of(ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray) -> QRectF:
    """The rectangle of every cable's end points, with a margin for the pen."""
    left, top = min(float(ax.min()), float(bx.min())), min(float(ay.min()), float(by.min()))
    right = max(float(ax.max()), float(bx.max()))
    bottom = max(float(ay.max()), float(by.max()))
    return QRectF(QPointF(left, top), QPointF(right, bottom)).adjusted(-8, -8, 8, 8)


class Bundles:
    """Cables merged by end node: `a`, `b` node ids, `counts`, the first cable row of each
    bundle (for its colour), and for every merged cable row its bundle (`inverse`)."""

    __slots__ = ("a", "b", "counts", "first", "inverse", "jackets", "loads", "rows", "sev")

    def __init__(self, a: np.ndarray, b: np.ndarray, counts: np.ndarray, first: np.ndarray,
                 inverse: np.ndarray, rows: np.ndarray) -> None:
        self.a, self.b, self.counts, self.first = a, b, counts, first
        self.inverse, self.rows = inverse, rows
        self.sev: np.ndarray | None = None
        #: the pen of each bundle in the cable mode (its cables' jacket, else their speed)
        self.jackets: np.ndarray | None = None
        #: the pen of each bundle in the traffic mode (its most loaded cable's)
        self.loads: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.a)


class LinkLayer(QGraphicsItem):
    """Draws every cable (or bundle) of a scene; holds no model objects, only ids and points."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setZValue(0)
        self._n = 0
        self._cap = 0
        self._alloc(1024)
        #: bumped whenever what `live_ends` returns may change (a cable added, removed or moved
        #: to other devices or planes, a device registered, the filter): the overview recounts
        #: its bundles only then, not after every cable edit
        self.ends_version = 0
        #: link id -> row; built on first use after a bulk `load` (98k ids cost ~25 ms, not
        #: needed for drawing): see `_index`
        self._index_cache: MutableMapping[str, int] | None = {}
        #: the document's link columns whose `row` map a bulk load's rows equal (`load_coded`),
        #: until indexed
        self._shared_rows: LinkColumns | None = None
        self._count = 0
        self._ids: list[str | None] = []
        self._free: list[int] = []
        self._pens: list[QPen] = []
        self._faded: list[QPen] = []
        self._pen_of: dict[str, int] = {}
        self._selected: set[int] = set()
        self._highlight: set[int] = set()
        self._bounds = QRectF()
        # devices (bundle ends)
        self._dev_index: dict[str, int] = {}
        self._dev_cx = np.zeros(256)
        self._dev_cy = np.zeros(256)
        self._dev_group = np.zeros(256, dtype=np.int64)
        self._dev_tier = np.zeros(256, dtype=np.int8)
        self._dev_class = np.full(256, 3, dtype=np.int8)
        self._dev_collapse = np.full(256, -1, dtype=np.int64)
        #: devices the plane filter hides (their cables are not drawn)
        self._dev_off = np.zeros(256, dtype=np.bool_)
        #: plane name -> code in the `_lplane` column (0: a cable in no plane)
        self._plane_code: dict[str | None, int] = {None: 0}
        #: the code of the plane shown (None: every plane)
        self._plane_shown: int | None = None
        #: cables drawn now (alive and not filtered), made on first use after a change
        self._shown_cache: np.ndarray | None = None
        self._groups: dict[str, int] = {}
        self._collapsed: list[tuple[float, float]] = []  # centre of each collapsed group
        #: the view of the last close-up frame of a big fabric (left, right, top, bottom, stub
        #: length): a click picks what it drew (stubs, no passing trunks); None: every line
        self._stub_view: tuple[float, float, float, float, float] | None = None
        self._bundle_cache: dict[str, Bundles] = {}
        self._marked = False
        #: bumped whenever the traffic loads change (the overview's bundle colours follow)
        self.loads_version = 0
        #: bumped whenever a cable gets or loses its row (a load column laid out for an older
        #: version no longer fits: `set_load_column`)
        self.rows_version = 0
        self.mode = "cable"
        #: below this view scale cables are drawn as bundles (set by the scene by fabric size)
        self.detail_scale = lod.PORTS_MIN_SCALE
        #: what loads the cables given later (`defer_load`); None: they are here
        self._deferred: Callable[[], None] | None = None

    # ---------------------------------------------------------------- storage
    def _alloc(self, cap: int) -> None:
        def grow(old: np.ndarray | None, dtype: type) -> np.ndarray:
            new = np.zeros(cap, dtype=dtype)
            if old is not None:
                new[: len(old)] = old
            return new

        for name, dtype in _COLUMNS.items():
            setattr(self, name, grow(getattr(self, name, None), dtype))
        self._cap = cap

    def _slot(self) -> int:
        if self._free:
            return self._free.pop()
        if self._n >= self._cap:
            self._alloc(int(self._cap * _GROW) + 1024)
        self._n += 1
        self._ids.append(None)
        return self._n - 1

    def pen_index(self, colour: str) -> int:
        index = self._pen_of.get(colour)
        if index is None:
            index = len(self._pens)
            self._pens.append(_pen(colour, theme.LINK_WIDTH))
            self._pen_of[colour] = index
        return index

    def device_index(self, device_id: str) -> int:
        index = self._dev_index.get(device_id)
        if index is None:
            index = len(self._dev_index)
            self._dev_index[device_id] = index
            self.ends_version += 1
            if index >= len(self._dev_cx):
                size = int(len(self._dev_cx) * _GROW) + 256
                for name, fill in (("_dev_cx", 0), ("_dev_cy", 0), ("_dev_group", -1),
                                   ("_dev_tier", 0), ("_dev_class", 3), ("_dev_collapse", -1),
                                   ("_dev_off", False)):
                    old = getattr(self, name)
                    new = np.full(size, fill, dtype=old.dtype)
                    new[: len(old)] = old
                    setattr(self, name, new)
            self._dev_group[index] = -1
            self._dev_collapse[index] = -1
            self._dev_class[index] = 3
            self._dev_off[index] = False
        return index

    @property
    def _index(self) -> MutableMapping[str, int]:
        """Link id -> row of every live cable."""
        if self._index_cache is None:
            ids = self._ids
            if self._shared_rows is not None and self._count == self._n:
                # the rows are the document's loaded links in order: its map, this layer's
                # changes on top (no second map of 1.2M ids: ~65 MB, ~0.1 s)
                self._index_cache = SharedIndex(self._shared_rows.row)
            elif self._count == self._n:  # every row alive (a bulk load): one pass in C
                self._index_cache = dict(zip(ids, range(self._n), strict=True))
            else:
                alive = np.flatnonzero(self._alive[: self._n]).tolist()
                self._index_cache = {ids[i]: i for i in alive}
            self._shared_rows = None
        return self._index_cache

    def index_pending(self) -> bool:
        """True while the id index of a bulk `load` is still to be built."""
        return self._index_cache is None

    def ensure_index(self, rows: int | None = None) -> bool:
        """Build the id index now (after the first frame, before a click or a report needs it),
        making at most `rows` rows of the document's shared map a call; True once it is built."""
        shared = self._shared_rows
        if (self._index_cache is None and shared is not None and rows is not None
                and not shared.build_row(rows)):
            return False
        _ = self._index
        return True

    def __len__(self) -> int:
        return self._count

    def link_ids(self) -> list[str]:
        """Every live cable, in row order."""
        ids = self._ids
        return [ids[i] for i in np.flatnonzero(self._alive[: self._n]).tolist()]

    def shown_link_ids(self) -> list[str]:
        """The cables drawn now (every cable unless a plane filter hides some)."""
        if self._plane_shown is None and not self._dev_off.any():
            return self.link_ids()
        ids = self._ids
        return [ids[i] for i in np.flatnonzero(self._shown()).tolist()]

    def plane_code(self, plane: str | None) -> int:
        code = self._plane_code.get(plane)
        if code is None:
            code = self._plane_code[plane] = len(self._plane_code)
        return code

    def set_plane_filter(self, plane: str | None, hidden_devices: set[str]) -> None:
        """Draw only the cables of `plane` (and those in no plane) whose ends are not in
        `hidden_devices`; None and an empty set: every cable."""
        self._plane_shown = None if plane is None else self.plane_code(plane)
        ndev = len(self._dev_off)
        self._dev_off = np.zeros(ndev, dtype=np.bool_)
        if hidden_devices:
            rows = self.device_rows(list(hidden_devices))
            self._dev_off[rows[rows >= 0]] = True
        self._filter_changed()

    def set_device_hidden(self, device_id: str, hidden: bool) -> None:
        """One device hidden by the plane filter or not (an edit touched it)."""
        index = self.device_index(device_id)
        if bool(self._dev_off[index]) != hidden:
            self._dev_off[index] = hidden
            self._filter_changed()

    def _filter_changed(self) -> None:
        self._shown_cache = None
        self.ends_version += 1
        self._selected = {i for i in self._selected if self._row_shown(i)}
        self._highlight = {i for i in self._highlight if self._row_shown(i)}
        self._invalidate_bundles()
        self.update()

    def _row_shown(self, row: int) -> bool:
        return bool(self._shown()[row])

    def _shown(self) -> np.ndarray:
        """Per cable row: alive and not hidden by the plane filter (cached until a change)."""
        if self._shown_cache is None:
            n = self._n
            shown = self._alive[:n].copy()
            if self._plane_shown is not None:
                planes = self._lplane[:n]
                shown &= (planes == 0) | (planes == self._plane_shown)
            if self._dev_off.any():
                off = self._dev_off
                shown &= ~(off[self._da[:n]] | off[self._db[:n]])
            self._shown_cache = shown
        return self._shown_cache

    def line_colours(self) -> set[str]:
        """The colours (`#rrggbb`) the cables are drawn in, in the current mode (the legend
        names them)."""
        n = self._n
        pens = np.unique(self._line_pens()[:n][self._shown()])
        return {self._pens[int(i)].color().name() for i in pens.tolist()}

    # ---------------------------------------------------------------- editing
    def clear(self) -> None:
        """Forget every cable and device."""
        self._clear_links()
        self._dev_index.clear()
        self._dev_off = np.zeros(len(self._dev_cx), dtype=np.bool_)
        self._plane_shown = None
        self._groups.clear()
        self._collapsed.clear()
        self._invalidate_bundles()

    def _clear_links(self) -> None:
        self.prepareGeometryChange()
        self._n = 0
        for name in _COLUMNS:
            setattr(self, name, None)
        self._alloc(1024)
        self._index_cache = {}
        self._shared_rows = None
        self._count = 0
        self.rows_version += 1
        self._ids.clear()
        self._free.clear()
        self._selected.clear()
        self._highlight.clear()
        self._marked = False
        self._bounds = QRectF()
        self._deferred = None
        self._invalidate_bundles()
        self.update()

    def defer_load(self, coords: np.ndarray, load: Callable[[], None]) -> None:
        """The cables whose end points are `coords` (n x 4: ax, ay, bx, by) come later: `load()`
        gives them (by `load_coded`) before anything asks about a cable (`load_deferred`).
        Meanwhile the layer has their bounds (the scene's and the fit's are the same) and draws
        nothing."""
        self._clear_links()
        if len(coords):
            self._bounds = _bounds_of(*(coords[:, k] for k in range(4)))
        self._deferred = load
        self.ends_version += 1

    def cables_deferred(self) -> bool:
        return self._deferred is not None

    def load_deferred(self) -> None:
        """Load the cables `defer_load` promised, if they are still to come.  They are the ones
        the overview counted: its counts stay (`ends_version` is kept)."""
        load, self._deferred = self._deferred, None
        if load is not None:
            version = self.ends_version
            load()
            self.ends_version = version

    def set_devices(self, entries: list[tuple]) -> None:
        """Register devices: (id, centre x, centre y, group key or None[, tier])."""
        for entry in entries:
            self.set_device(*entry)

    def load_devices(self, ids: list[str], cx: np.ndarray, cy: np.ndarray,
                     groups: list[str | None], tiers: np.ndarray) -> None:
        """Every device at once, in the order `load`'s device indices refer to (after `clear`)."""
        n = len(ids)
        if len(self._dev_index):
            for entry in zip(ids, cx.tolist(), cy.tolist(), groups, tiers.tolist(), strict=True):
                self.set_device(*entry)
            return
        size = max(n + 256, len(self._dev_cx))
        self._dev_cx, self._dev_cy = np.zeros(size), np.zeros(size)
        self._dev_cx[:n], self._dev_cy[:n] = cx, cy
        self._dev_tier = np.zeros(size, dtype=np.int8)
        self._dev_tier[:n] = tiers
        self._dev_class = np.full(size, 3, dtype=np.int8)
        self._dev_collapse = np.full(size, -1, dtype=np.int64)
        self._dev_off = np.zeros(size, dtype=np.bool_)
        known = self._groups
        codes = [-1 if g is None else known.setdefault(g, len(known)) for g in groups]
        self._dev_group = np.full(size, -1, dtype=np.int64)
        self._dev_group[:n] = codes
        self._dev_index = dict(zip(ids, range(n), strict=True))
        self.ends_version += 1
        self._invalidate_bundles()

    def device_count(self) -> int:
        return len(self._dev_index)

    def device_rows(self, device_ids: list[str]) -> np.ndarray:
        """The row of each device in the end columns (-1: never registered)."""
        get = self._dev_index.get
        return np.fromiter((get(d, -1) for d in device_ids), dtype=np.int64, count=len(device_ids))

    def live_ends(self) -> tuple[np.ndarray, np.ndarray]:
        """The end device rows of every cable (for the overview's counts)."""
        n = self._n
        shown = self._shown()
        return self._da[:n][shown], self._db[:n][shown]

    def set_device(self, device_id: str, cx: float, cy: float, group: str | None,
                   tier: int = 0) -> None:
        known = device_id in self._dev_index
        index = self.device_index(device_id)
        self._dev_cx[index] = cx
        self._dev_cy[index] = cy
        self._dev_tier[index] = tier
        code = -1 if group is None else self._groups.setdefault(group, len(self._groups))
        if not known or int(self._dev_group[index]) != code:
            # bundles are keyed by end node, not position (centres are read when painting): an
            # edit that moves or renames a device keeps them; recounting 300k cables costs ~50 ms
            self._dev_group[index] = code
            self._invalidate_bundles()

    def move_device(self, device_id: str, cx: float, cy: float) -> None:
        index = self._dev_index.get(device_id)
        if index is not None:
            self._dev_cx[index] = cx
            self._dev_cy[index] = cy

    def set_links(self, rows: list[tuple]) -> None:
        """Add or replace cables: (id, ax, ay, bx, by, colour, speed colour, device a, device b
        [, rail[, plane]]).

        `colour` draws the cable (a jacket colour the user chose, else its speed colour); bundles
        always use the speed colour, so a trunk of mixed jackets reads by speed as in the legend.
        """
        if not rows:
            return
        self.prepareGeometryChange()
        touched = []
        ends = (self._da, self._db, self._lplane)
        for row in rows:
            link_id, ax, ay, bx, by, colour, speed_colour, dev_a, dev_b = row[:9]
            i = self._index.get(link_id)
            if i is None:
                i = self._slot()
                self._load[i] = NO_LOAD
                self._index[link_id] = i
                self._ids[i] = link_id
                self.rows_version += 1
                self._count += 1
            before = (int(self._da[i]), int(self._db[i]), int(self._lplane[i]))
            self._ax[i], self._ay[i], self._bx[i], self._by[i] = ax, ay, bx, by
            self._pen[i] = self.pen_index(colour)
            self._spen[i] = self.pen_index(speed_colour)
            self._da[i] = self.device_index(dev_a)
            self._db[i] = self.device_index(dev_b)
            self._rail[i] = row[9] if len(row) > 9 and row[9] else 0
            self._lplane[i] = self.plane_code(row[10]) if len(row) > 10 else 0
            if not self._alive[i] or before != tuple(int(c[i]) for c in ends):
                self.ends_version += 1
            self._alive[i] = True
            self._grow_bounds(ax, ay, bx, by)
            touched.append(i)
        self._mode_pens(np.array(touched, dtype=np.int64))
        self._invalidate_bundles()
        self.update()

    def load(self, ids: list[str], coords: np.ndarray, colours: list[str], speed_colours: list[str],
             dev_a: np.ndarray, dev_b: np.ndarray, rails: np.ndarray | None = None,
             planes: list[str | None] | None = None) -> None:
        """Bulk load of every cable (coords: n x 4 array ax, ay, bx, by); `dev_a`/`dev_b` are the
        indices of the end devices in the order `set_devices` registered them."""
        palette = list(dict.fromkeys([*colours, *speed_colours]))
        code = {c: i for i, c in enumerate(palette)}
        self.load_coded(ids, coords, palette, np.array([code[c] for c in colours], dtype=np.int64),
                        np.array([code[c] for c in speed_colours], dtype=np.int64), dev_a, dev_b,
                        rails, *self._plane_columns(planes))

    @staticmethod
    def _plane_columns(planes: list[str | None] | None) -> tuple[np.ndarray | None, list[str | None]]:
        if planes is None:
            return None, [None]
        names = list(dict.fromkeys([None, *planes]))
        code = {name: i for i, name in enumerate(names)}
        return np.array([code[p] for p in planes], dtype=np.int16), names

    def load_coded(self, ids: list[str], coords: np.ndarray, palette: list[str], pens: np.ndarray,
                   speed_pens: np.ndarray, dev_a: np.ndarray, dev_b: np.ndarray,
                   rails: np.ndarray | None = None, planes: np.ndarray | None = None,
                   plane_names: list[str | None] | None = None,
                   rows: LinkColumns | None = None) -> None:
        """`load` with the colours given as indices into `palette` (the file loader's columns);
        `rows`: columns whose ids are `ids`, in order: their `row` map is shared as the id index
        (never changed).

        The columns are copied into the layer's own arrays, made here in the GUI thread.  (Taking
        the loader's arrays as they are saves ~25 ms of page faults at 300k cables, but keeps
        memory of the loader thread's malloc arena in use that the first validation's worker
        would reuse: +23 MB peak RSS.)"""
        self._clear_links()
        n = len(ids)
        if n == 0:
            return
        if n > self._cap:
            self._alloc(n + 1024)
        self._ax[:n], self._ay[:n], self._bx[:n], self._by[:n] = (coords[:, k] for k in range(4))
        self._da[:n] = dev_a
        self._db[:n] = dev_b
        table = np.array([self.pen_index(c) for c in palette], dtype=np.int32)
        self._pen[:n] = table[pens]
        self._spen[:n] = table[speed_pens]
        self._rail[:n] = 0 if rails is None else rails
        if planes is None or plane_names is None:
            self._lplane[:n] = 0
        else:  # the loader's plane codes -> this layer's
            table16 = np.array([self.plane_code(p) for p in plane_names], dtype=np.int16)
            self._lplane[:n] = table16[planes]
        self._alive[:n] = True
        self.ends_version += 1
        self._load[:n] = NO_LOAD
        self._n = n
        self._ids = list(ids)
        self.rows_version += 1
        self._index_cache = None
        self._shared_rows = rows if rows is not None and rows.n == n else None
        self._count = n
        self._bounds = _bounds_of(self._ax[:n], self._ay[:n], self._bx[:n], self._by[:n])
        self._mode_pens(None)
        self._invalidate_bundles()
        self.update()

    def remove_links(self, link_ids: list[str]) -> None:
        for link_id in link_ids:
            i = self._index.pop(link_id, None)
            if i is None:
                continue
            self._count -= 1
            self._alive[i] = False
            self.ends_version += 1
            self._ids[i] = None
            self.rows_version += 1
            self._sev[i] = 0
            self._free.append(i)
            self._selected.discard(i)
            self._highlight.discard(i)
        self._invalidate_bundles()
        self.update()

    def move_ends(self, updates: list[tuple[str, str, float, float]]) -> None:
        """Move cable ends: (link id, 'a' or 'b', x, y) (a device was dragged)."""
        grow = False
        for link_id, end, x, y in updates:
            i = self._index.get(link_id)
            if i is None:
                continue
            if end == "a":
                self._ax[i], self._ay[i] = x, y
            else:
                self._bx[i], self._by[i] = x, y
            if not self._bounds.contains(x, y):
                grow = True
        if grow:
            self.prepareGeometryChange()
            for _link_id, _end, x, y in updates:
                self._grow_bounds(x, y, x, y)
        self.update()

    def _grow_bounds(self, ax: float, ay: float, bx: float, by: float) -> None:
        rect = QRectF(QPointF(min(ax, bx), min(ay, by)), QPointF(max(ax, bx), max(ay, by))).adjusted(-8, -8, 8, 8)
        self._bounds = rect if self._bounds.isNull() else self._bounds.united(rect)

    def _invalidate_bundles(self) -> None:
        self._bundle_cache.clear()
        self._shown_cache = None

    # ---------------------------------------------------------------- colour modes
    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown colour mode {mode!r}")
        if mode != self.mode:
            self.mode = mode
            self._mode_pens(None)
            self.update()

    def set_device_classes(self, classes: dict[str, int]) -> None:
        """Oversubscription class per device id (theme.oversub_class); others become 3."""
        ndev = len(self._dev_index)
        self._dev_class[:ndev] = 3
        for device_id, value in classes.items():
            index = self._dev_index.get(device_id)
            if index is not None:
                self._dev_class[index] = value
        if self.mode == "oversubscription":
            self._mode_pens(None)
            self.update()

    # ---------------------------------------------------------------- traffic loads
    def set_loads(self, ids: list[str], loads: np.ndarray) -> None:
        """The traffic load (0-1) of the cables `ids` names; every other cable has none."""
        rows = self.rows_of_links(ids)
        known = rows >= 0
        self._load[: self._n] = NO_LOAD
        self._load[rows[known]] = np.asarray(loads, dtype=np.float32)[known]
        self._loads_changed()

    def row_ids(self) -> tuple[int, list[str | None]]:
        """(rows_version, the link id of every row: None for a free row), a copy that another
        thread may read (to lay a load column out in this order: `set_load_column`)."""
        return self.rows_version, list(self._ids[: self._n])

    def set_load_column(self, column: np.ndarray, version: int) -> bool:
        """The loads as one column in row order, laid out for `version` of the rows (made from
        `row_ids` elsewhere); False, and nothing set, when the rows changed since."""
        if version != self.rows_version or len(column) != self._n:
            return False
        self._load[: self._n] = column
        self._loads_changed()
        return True

    def clear_loads(self) -> None:
        self._load[: self._n] = NO_LOAD
        self._loads_changed()

    def mark_pending(self, link_ids: list[str]) -> None:
        """These cables were edited since the loads were computed (drawn as pending)."""
        rows = self.rows_of_links(link_ids)
        if (rows >= 0).any():
            self._load[rows[rows >= 0]] = np.nan
            self._loads_changed()

    def rows_of_links(self, link_ids: list[str]) -> np.ndarray:
        """The row of each cable (-1: not drawn here)."""
        return np.fromiter(map(self._index.get, link_ids, repeat(-1)), dtype=np.int64,
                           count=len(link_ids))

    def load_of(self, link_id: str) -> float | None:
        """The load the traffic mode draws a cable with (None: pending or unknown cable)."""
        i = self._index.get(link_id)
        if i is None or np.isnan(self._load[i]):
            return None
        return max(float(self._load[i]), 0.0)

    def pending_loads(self) -> bool:
        """Some drawn cable was edited since the loads were computed."""
        return bool(np.isnan(self._load[: self._n][self._shown()]).any())

    def live_loads(self) -> np.ndarray:
        """The load of every cable drawn, in `live_ends` order (NaN pending, -1 none)."""
        return self._load[: self._n][self._shown()]

    def _loads_changed(self) -> None:
        self.loads_version += 1
        for bundles in self._bundle_cache.values():
            bundles.loads = None
        if self.mode == "traffic":
            self._mode_pens(None)
            self.update()

    def _traffic_pens(self) -> np.ndarray:
        """The pen of each load class (load_ramp.COLOURS order: pending, idle, cool to hot),
        registered in that order so that hotter cables are drawn over cooler ones."""
        return np.array([self.pen_index(c) for c in load_ramp.COLOURS], dtype=np.int32)

    def _mode_pens(self, rows: np.ndarray | None) -> None:
        """The pen of each cable in the tier / rail / oversubscription / traffic mode."""
        if self.mode in ("cable", "speed"):
            return
        rows = np.flatnonzero(self._alive[: self._n]) if rows is None else rows
        if not len(rows):
            return
        if self.mode == "traffic":
            self._mpen[rows] = self._traffic_pens()[load_ramp.classes(self._load[rows])]
            return
        da, db = self._da[rows], self._db[rows]
        ta, tb = self._dev_tier[da], self._dev_tier[db]
        if self.mode == "tier":
            lo = np.clip(np.minimum(ta, tb), 0, 2)
            table = np.array([self.pen_index(theme.TIER_PAIR_COLOURS[t][1]) for t in (0, 1, 2)])
            self._mpen[rows] = table[lo]
        elif self.mode == "rail":
            rails = self._rail[rows]
            values = np.unique(rails)
            table = {int(r): self.pen_index(theme.rail_colour_hex(int(r))) for r in values.tolist()}
            self._mpen[rows] = [table[r] for r in rails.tolist()]
        else:
            # the cable counts for the lower switch it touches (a server's cable: its leaf)
            a_lower = np.where(ta == 0, False, (ta <= tb) | (tb == 0))
            switch = np.where(a_lower, da, db)
            classes = self._dev_class[switch]
            table = np.array([self.pen_index(colour) for _label, colour in theme.OVERSUB_CLASSES])
            self._mpen[rows] = table[np.clip(classes, 0, 3)]

    def _faded_pens(self) -> list[QPen]:
        if len(self._faded) != len(self._pens):
            background = theme.CANVAS_BG
            self._faded = []
            for pen in self._pens:
                c = pen.color()
                mix = QColor(round(c.red() * 0.25 + background.red() * 0.75),
                             round(c.green() * 0.25 + background.green() * 0.75),
                             round(c.blue() * 0.25 + background.blue() * 0.75))
                self._faded.append(_pen(mix.name(), pen.widthF()))
        return self._faded

    def _line_pens(self) -> np.ndarray:
        if self.mode == "cable":
            return self._pen
        if self.mode == "speed":
            return self._spen
        return self._mpen

    def _bundle_pens(self, bundles: Bundles) -> np.ndarray:
        """The pen of each bundle: in the cable mode the jacket colour its cables share (the
        speed colour when they differ, as the legend says), else the mode's colour."""
        if self.mode == "speed":
            return self._spen[bundles.first]
        if self.mode == "traffic":
            return self._bundle_load_pens(bundles)
        if self.mode != "cable":
            return self._mpen[bundles.first]
        if bundles.jackets is None:
            pens = self._pen[bundles.rows].astype(np.int64)
            low = np.full(len(bundles), np.iinfo(np.int64).max)
            high = np.full(len(bundles), -1)
            if len(pens):
                np.minimum.at(low, bundles.inverse, pens)
                np.maximum.at(high, bundles.inverse, pens)
            bundles.jackets = np.where(low == high, self._pen[bundles.first], self._spen[bundles.first])
        return bundles.jackets

    def _bundle_load_pens(self, bundles: Bundles) -> np.ndarray:
        """A bundle in the traffic mode: its most loaded cable's colour (pending only when none
        of its cables has a load)."""
        if bundles.loads is None:
            top = np.full(len(bundles), np.nan, dtype=np.float32)
            if len(bundles.rows):
                np.fmax.at(top, bundles.inverse, self._load[bundles.rows])
            bundles.loads = self._traffic_pens()[load_ramp.classes(top)]
        return bundles.loads

    def line_colour(self, link_id: str) -> str | None:
        """The colour (`#rrggbb`) a cable is drawn in now, in the current mode."""
        i = self._index.get(link_id)
        if i is None:
            return None
        return self._pens[int(self._line_pens()[i])].color().name()

    def bundle_colours(self, kind: str = "pairs") -> set[str]:
        """The colours (`#rrggbb`) the bundles of `kind` are drawn in, in the current mode."""
        bundles = self.bundles(kind)
        if not len(bundles):
            return set()
        return {self._pens[int(i)].color().name() for i in np.unique(self._bundle_pens(bundles)).tolist()}

    # ---------------------------------------------------------------- findings
    def set_marks(self, errors: set[str], warnings: set[str]) -> None:
        """Halo the cables that have error / warning findings (others lose theirs)."""
        self._sev[: self._n] = 0
        index = self._index
        for link_id in warnings:
            i = index.get(link_id)
            if i is not None:
                self._sev[i] = 1
        for link_id in errors:
            i = index.get(link_id)
            if i is not None:
                self._sev[i] = 2
        self._marked = bool(errors or warnings)
        for bundles in self._bundle_cache.values():
            bundles.sev = None
        self.update()

    def marks(self) -> dict[str, int]:
        """Link id -> 1 (warning) or 2 (error), for the marked cables."""
        rows = np.flatnonzero(self._sev[: self._n])
        return {self._ids[r]: int(self._sev[r]) for r in rows.tolist() if self._ids[r] is not None}

    # ---------------------------------------------------------------- collapsed groups
    def set_collapsed(self, groups: list[tuple[list[str], float, float]]) -> None:
        """Collapsed groups: (member device ids, centre x, centre y); their cables end at the
        centre, one bundle per group and other end."""
        self._dev_collapse[: len(self._dev_index)] = -1
        self._collapsed = []
        for number, (members, cx, cy) in enumerate(groups):
            self._collapsed.append((cx, cy))
            for device_id in members:
                index = self._dev_index.get(device_id)
                if index is not None:
                    self._dev_collapse[index] = number
        self._invalidate_bundles()
        self.update()

    def collapsed_links(self) -> int:
        """How many cables touch a collapsed group (drawn as bundles)."""
        n = self._n
        if not self._collapsed or not n:
            return 0
        collapse = self._dev_collapse
        hidden = (collapse[self._da[:n]] >= 0) | (collapse[self._db[:n]] >= 0)
        return int((hidden & self._shown()).sum())

    # ---------------------------------------------------------------- selection and picking
    def set_selected(self, link_ids: set[str]) -> None:
        """Select these cables (those the plane filter hides stay unselected)."""
        chosen = {self._index[i] for i in link_ids if i in self._index}
        if self._plane_shown is not None or self._dev_off.any():
            shown = self._shown()
            chosen = {i for i in chosen if shown[i]}
        if chosen != self._selected:
            self._selected = chosen
            self.update()

    def set_highlight(self, link_ids: set[str]) -> None:
        chosen = {self._index[i] for i in link_ids if i in self._index}
        if chosen != self._highlight:
            self._highlight = chosen
            self.update()

    def selected_ids(self) -> set[str]:
        return {self._ids[i] for i in self._selected if self._ids[i] is not None}

    def endpoints(self, link_id: str) -> tuple[float, float, float, float] | None:
        i = self._index.get(link_id)
        if i is None:
            return None
        return float(self._ax[i]), float(self._ay[i]), float(self._bx[i]), float(self._by[i])

    def _pickable(self) -> np.ndarray:
        n = self._n
        alive = self._shown()
        if self._collapsed:
            collapse = self._dev_collapse
            alive = alive & (collapse[self._da[:n]] < 0) & (collapse[self._db[:n]] < 0)
        return alive

    def link_at(self, x: float, y: float, tolerance: float) -> str | None:
        """The cable nearest to (x, y) within `tolerance` scene units, or None."""
        n = self._n
        if not n:
            return None
        ax, ay, bx, by = self._ax[:n], self._ay[:n], self._bx[:n], self._by[:n]
        alive = self._pickable()
        view = self._stub_view
        if view is not None:  # what the last close-up frame drew: stubs, no passing trunks
            a_in, b_in = _inside(ax, ay, view), _inside(bx, by, view)
            alive = alive & (a_in | b_in)
            ax, ay, bx, by = _stubs(ax, ay, bx, by, a_in, b_in, view[4], self._selected)
        near = (
            alive
            & (np.minimum(ax, bx) - tolerance <= x) & (np.maximum(ax, bx) + tolerance >= x)
            & (np.minimum(ay, by) - tolerance <= y) & (np.maximum(ay, by) + tolerance >= y)
        )
        idx = np.flatnonzero(near)
        if not len(idx):
            return None
        dx, dy = bx[idx] - ax[idx], by[idx] - ay[idx]
        length2 = dx * dx + dy * dy
        t = np.clip(((x - ax[idx]) * dx + (y - ay[idx]) * dy) / np.where(length2 == 0, 1, length2), 0, 1)
        px, py = ax[idx] + t * dx - x, ay[idx] + t * dy - y
        dist2 = px * px + py * py
        best = int(np.argmin(dist2))
        if dist2[best] > tolerance * tolerance:
            return None
        return self._ids[int(idx[best])]

    def links_in_rect(self, rect: QRectF) -> list[str]:
        """Cables with both ends inside `rect` (rubber band selection)."""
        n = self._n
        if not n:
            return []
        ax, ay, bx, by = self._ax[:n], self._ay[:n], self._bx[:n], self._by[:n]
        left, right, top, bottom = rect.left(), rect.right(), rect.top(), rect.bottom()
        inside = (
            self._pickable()
            & (ax >= left) & (ax <= right) & (bx >= left) & (bx <= right)
            & (ay >= top) & (ay <= bottom) & (by >= top) & (by <= bottom)
        )
        return [self._ids[i] for i in np.flatnonzero(inside)]

    # ---------------------------------------------------------------- painting
    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if not self._count:  # (cables still to come are loaded before a frame shows this layer:
            return  # TopologyScene.before_frame)
        scale = painter.worldTransform().m11()
        exposed = option.exposedRect
        painter.save()
        if scale < self.detail_scale:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            # server groups share one end only in big fabrics: a few hundred cables read better
            # per device pair than converging on one point
            grouped = (scale < lod.GROUPS_MAX_SCALE and bool(self._groups)
                       and self._count > lod.SMALL_FABRIC_LINKS)
            self._paint_bundles(painter, exposed, scale, "grouped" if grouped else "pairs")
        else:
            self._paint_lines(painter, exposed, scale, _visible_area(widget))
        painter.restore()

    def _visible(self, ax: np.ndarray, ay: np.ndarray, bx: np.ndarray, by: np.ndarray,
                 rect: QRectF, alive: np.ndarray | None) -> np.ndarray:
        mask = (
            (np.minimum(ax, bx) <= rect.right()) & (np.maximum(ax, bx) >= rect.left())
            & (np.minimum(ay, by) <= rect.bottom()) & (np.maximum(ay, by) >= rect.top())
        )
        if alive is not None:
            mask &= alive
        return np.flatnonzero(mask)

    def _draw_groups(self, painter: QPainter, idx: np.ndarray, pens: np.ndarray, ax: np.ndarray,
                     ay: np.ndarray, bx: np.ndarray, by: np.ndarray, pen_list: list[QPen]) -> None:
        if not len(idx):
            return
        keys = pens[idx]
        order = np.argsort(keys, kind="stable")
        idx, keys = idx[order], keys[order]
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        ends = np.r_[starts[1:], len(idx)]
        coords = np.column_stack((ax[idx], ay[idx], bx[idx], by[idx])).tolist()
        for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
            painter.setPen(pen_list[int(keys[start])])
            painter.drawLines(list(starmap(QLineF, coords[start:end])))

    def _draw_halos(self, painter: QPainter, idx: np.ndarray, sev: np.ndarray, ax: np.ndarray,
                    ay: np.ndarray, bx: np.ndarray, by: np.ndarray, width: float) -> None:
        """Pale wide lines under cables (or bundles) with warnings (1) and errors (2)."""
        for level, colour in ((1, theme.WARNING_HALO), (2, theme.ERROR_HALO)):
            rows = idx[sev[idx] == level]
            if len(rows):
                painter.setPen(_pen(colour.name(), width))
                coords = np.column_stack((ax[rows], ay[rows], bx[rows], by[rows])).tolist()
                painter.drawLines(list(starmap(QLineF, coords)))

    def _paint_lines(self, painter: QPainter, exposed: QRectF, scale: float,
                     area: QRectF | None = None) -> None:
        n = self._n
        ax, ay, bx, by = self._ax[:n], self._ay[:n], self._bx[:n], self._by[:n]
        alive = self._pickable()
        self._stub_view = None
        if area is not None and n > lod.SMALL_FABRIC_LINKS:
            # a big fabric close up: only cables with an end on screen, and a cable whose other
            # end is off screen as a stub from its end on screen towards it: the thousands of
            # long leaf-spine trunks that pass through the view would bury the server rows
            margin = 60.0 / max(scale, 1e-6)
            view = (area.left() - margin, area.right() + margin,
                    area.top() - margin, area.bottom() + margin, lod.STUB_PX / max(scale, 1e-6))
            a_in, b_in = _inside(ax, ay, view), _inside(bx, by, view)
            alive = alive & (a_in | b_in)
            ax, ay, bx, by = _stubs(ax, ay, bx, by, a_in, b_in, view[4], self._selected)
            self._stub_view = view  # (the selected cables stay whole)
        idx = self._visible(ax, ay, bx, by, exposed, alive)
        if len(idx) > lod.MAX_AA_LINES:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        if self._marked:
            self._draw_halos(painter, idx, self._sev[:n], ax, ay, bx, by, 6.0)
        marked = self._selected | self._highlight
        if marked:
            sel = np.fromiter(marked, dtype=np.int64)
            sel = sel[np.isin(sel, idx)]
            if len(sel):
                halo = _pen(theme.SELECTION_HALO.name(), 7.0)
                painter.setPen(halo)
                coords = np.column_stack((ax[sel], ay[sel], bx[sel], by[sel])).tolist()
                painter.drawLines(list(starmap(QLineF, coords)))
        pens = self._line_pens()[:n]
        # with cables selected the others fade (to opaque pale colours: alpha pens are slow)
        self._draw_groups(painter, idx, pens, ax, ay, bx, by,
                          self._faded_pens() if self._selected else self._pens)
        if self._selected:
            sel = np.fromiter(self._selected, dtype=np.int64)
            sel = sel[np.isin(sel, idx)]
            if len(sel):
                bold = [QPen(p) for p in self._pens]
                for pen in bold:
                    pen.setWidthF(2.8)
                self._draw_groups(painter, sel, pens, ax, ay, bx, by, bold)
        if self._collapsed:
            self._paint_bundles(painter, exposed, scale, "collapsed")

    # ---------------------------------------------------------------- bundles
    def _nodes(self, kind: str) -> np.ndarray:
        """End node of every device: itself, its zoom group, or its collapsed group."""
        ndev = len(self._dev_index)
        node = np.arange(ndev)
        if kind == "grouped":
            groups = self._dev_group[:ndev]
            node = np.where(groups >= 0, ndev + groups, node)
        if self._collapsed:
            collapse = self._dev_collapse[:ndev]
            node = np.where(collapse >= 0, ndev + len(self._groups) + collapse, node)
        return node

    def _compute_bundles(self, kind: str) -> Bundles:
        n = self._n
        alive = self._shown()
        if kind == "collapsed":  # only the cables that touch a collapsed group
            collapse = self._dev_collapse
            alive = alive & ((collapse[self._da[:n]] >= 0) | (collapse[self._db[:n]] >= 0))
        rows = np.flatnonzero(alive)
        node = self._nodes(kind)
        da, db = node[self._da[rows]], node[self._db[rows]]
        lo, hi = np.minimum(da, db), np.maximum(da, db)
        keep = lo != hi
        lo, hi, rows = lo[keep], hi[keep], rows[keep]
        span = int(hi.max()) + 1 if len(hi) else 1
        keys = lo * span + hi
        uniq, first, inverse, counts = np.unique(keys, return_index=True, return_inverse=True,
                                                 return_counts=True)
        return Bundles(uniq // span, uniq % span, counts, rows[first], inverse.ravel(), rows)

    def _node_centres(self, kind: str) -> tuple[np.ndarray, np.ndarray]:
        ndev = len(self._dev_index)
        cx, cy = self._dev_cx[:ndev], self._dev_cy[:ndev]
        ngroups = len(self._groups)
        gx = gy = np.zeros(ngroups)
        if kind == "grouped" and ngroups:
            groups = self._dev_group[:ndev]
            member = groups >= 0
            totals = np.bincount(groups[member], minlength=ngroups).astype(np.float64)
            totals[totals == 0] = 1
            gx = np.bincount(groups[member], weights=cx[member], minlength=ngroups) / totals
            gy = np.bincount(groups[member], weights=cy[member], minlength=ngroups) / totals
        centres = np.array(self._collapsed, dtype=np.float64).reshape(-1, 2)
        return (np.concatenate((cx, gx, centres[:, 0])), np.concatenate((cy, gy, centres[:, 1])))

    def bundles(self, kind: str = "pairs") -> Bundles:
        """The bundles of `kind`: "pairs" (device pairs), "grouped" (server groups), "collapsed"
        (cables of collapsed groups only)."""
        cached = self._bundle_cache.get(kind)
        if cached is None:
            cached = self._bundle_cache[kind] = self._compute_bundles(kind)
        return cached

    def bundle_count(self, grouped: bool = False) -> int:
        return len(self.bundles("grouped" if grouped else "pairs"))

    def _bundle_sev(self, bundles: Bundles) -> np.ndarray:
        if bundles.sev is None:
            sev = np.zeros(len(bundles), dtype=np.int8)
            if len(bundles.rows):
                np.maximum.at(sev, bundles.inverse, self._sev[bundles.rows])
            bundles.sev = sev
        return bundles.sev

    def _paint_bundles(self, painter: QPainter, exposed: QRectF, scale: float, kind: str) -> None:
        bundles = self.bundles(kind)
        if not len(bundles):
            return
        counts = bundles.counts
        cx, cy = self._node_centres(kind)
        ax, ay, bx, by = cx[bundles.a], cy[bundles.a], cx[bundles.b], cy[bundles.b]
        idx = self._visible(ax, ay, bx, by, exposed, None)
        if not len(idx):
            return
        widths = np.array([1.6, 2.6, 3.6, 5.0, 7.0])
        if kind == "grouped":  # trunks of a whole fabric: structure, not weight
            widths = np.array([1.0, 1.4, 1.8, 2.2, 2.8])
        if self._marked:
            self._draw_halos(painter, idx, self._bundle_sev(bundles), ax, ay, bx, by,
                             float(widths[-1]) + 4)
        pens = self._bundle_pens(bundles)
        bucket = np.searchsorted(np.array([1, 4, 16, 64]), counts, side="left")
        keys = pens.astype(np.int64) * 8 + bucket
        pen_list: dict[int, QPen] = {}
        for key in np.unique(keys[idx]).tolist():
            base = self._pens[key // 8]
            pen_list[key] = _pen(base.color().name(), float(widths[key % 8]))
        dense = [pen_list.get(k) for k in range(int(keys.max()) + 1)]
        self._draw_groups(painter, idx, keys, ax, ay, bx, by, dense)  # type: ignore[arg-type]
        self._paint_counts(painter, idx, counts, ax, ay, bx, by, scale)

    def _paint_counts(self, painter: QPainter, idx: np.ndarray, counts: np.ndarray, ax: np.ndarray,
                      ay: np.ndarray, bx: np.ndarray, by: np.ndarray, scale: float) -> None:
        multi = idx[counts[idx] > 1]
        if not len(multi):
            return
        length = np.hypot(bx[multi] - ax[multi], by[multi] - ay[multi]) * scale
        multi = multi[length >= lod.BUNDLE_LABEL_MIN_PX]
        if not len(multi) or len(multi) > lod.MAX_BUNDLE_LABELS:
            return
        painter.save()
        transform = painter.worldTransform()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setFont(theme.font(8.0, True))
        metrics = painter.fontMetrics()
        painter.setBrush(QBrush(QColor("#ffffff")))
        taken: set[tuple[int, int]] = set()
        order = multi[np.argsort(-counts[multi], kind="stable")]  # big trunks label first
        for i in order.tolist():
            mid = transform.map(QPointF((ax[i] + bx[i]) / 2, (ay[i] + by[i]) / 2))
            cell = (int(mid.x() // 44), int(mid.y() // 22))
            if any((cell[0] + dx, cell[1] + dy) in taken for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                continue
            taken.add(cell)
            text = f"×{int(counts[i])}"
            w = metrics.horizontalAdvance(text) + 8
            h = metrics.height() + 2
            box = QRectF(mid.x() - w / 2, mid.y() - h / 2, w, h)
            painter.setPen(QPen(QColor("#adb5bd"), 1))
            painter.drawRoundedRect(box, 3, 3)
            painter.setPen(QPen(theme.DEVICE_TEXT))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()


#: methods of the layer about devices, pens and planes alone, those that load or drop the
#: cables themselves, the selection (none while cables are still to come: selecting one loads
#: them) and the colour mode and device classes (kept, and applied to the cables when they
#: come: `load_coded`): they never wait for cables given later (every other public method does)
_NO_WAIT = frozenset({
    "pen_index", "device_index", "plane_code", "clear", "set_devices", "load_devices",
    "device_count", "device_rows", "set_device", "move_device", "load", "load_coded",
    "defer_load", "cables_deferred", "load_deferred", "paint", "boundingRect", "selected_ids",
    "set_mode", "set_device_classes",
})


def _after_deferred(method: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(method)
    def run(self: LinkLayer, *args: Any, **kwargs: Any) -> Any:
        if self._deferred is not None:
            self.load_deferred()
        return method(self, *args, **kwargs)

    return run


for _name, _method in list(vars(LinkLayer).items()):
    if (callable(_method) and _name not in _NO_WAIT
            and (not _name.startswith("_") or _name == "__len__")):
        setattr(LinkLayer, _name, _after_deferred(_method))
