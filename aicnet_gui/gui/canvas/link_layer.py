"""All cables of the Topology canvas drawn by one item, from numpy columns.

One QGraphicsItem per cable does not scale: 100k Python line items take seconds to build and
Qt's BSP index chokes on long lines (shared/reference/performance.md §6).  This layer keeps the
end points of every cable in numpy arrays, culls them against the exposed rectangle and draws
each colour with one `drawLines` call.  Picking a cable is a vectorised distance test.

Zoomed out (below the scene's `detail_scale`) the same layer draws *bundles*: one line per device pair
with a width that grows with the number of cables and a "×N" label; further out servers of one
group (scalable unit, pod or rack) share one end, so a rail-optimized fabric becomes a few
thousand trunks instead of 100k lines.
"""

from __future__ import annotations

from itertools import starmap

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from .. import theme
from . import lod

_GROW = 1.6


def _pen(colour: str, width: float) -> QPen:
    pen = QPen(QColor(colour), width)
    pen.setCosmetic(True)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)  # round caps on wide pens are 100x slower
    return pen


def _bundle_width(count: int) -> float:
    if count <= 1:
        return theme.LINK_WIDTH
    if count <= 4:
        return 2.6
    if count <= 16:
        return 3.6
    if count <= 64:
        return 5.0
    return 7.0


class LinkLayer(QGraphicsItem):
    """Draws every cable (or bundle) of a scene; holds no model objects, only ids and points."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setZValue(0)
        self._n = 0
        self._cap = 0
        self._alloc(1024)
        self._index: dict[str, int] = {}
        self._ids: list[str | None] = []
        self._free: list[int] = []
        self._pens: list[QPen] = []
        self._pen_of: dict[str, int] = {}
        self._selected: set[int] = set()
        self._highlight: set[int] = set()
        self._bounds = QRectF()
        # devices (bundle ends)
        self._dev_index: dict[str, int] = {}
        self._dev_cx = np.zeros(256)
        self._dev_cy = np.zeros(256)
        self._dev_group = np.zeros(256, dtype=np.int64)
        self._groups: dict[str, int] = {}
        self._bundles: tuple[np.ndarray, ...] | None = None
        self._bundles_grouped: tuple[np.ndarray, ...] | None = None
        #: below this view scale cables are drawn as bundles (set by the scene by fabric size)
        self.detail_scale = lod.PORTS_MIN_SCALE

    # ---------------------------------------------------------------- storage
    def _alloc(self, cap: int) -> None:
        def grow(old: np.ndarray | None, dtype: type) -> np.ndarray:
            new = np.zeros(cap, dtype=dtype)
            if old is not None:
                new[: len(old)] = old
            return new

        self._ax = grow(getattr(self, "_ax", None), np.float64)
        self._ay = grow(getattr(self, "_ay", None), np.float64)
        self._bx = grow(getattr(self, "_bx", None), np.float64)
        self._by = grow(getattr(self, "_by", None), np.float64)
        self._pen = grow(getattr(self, "_pen", None), np.int32)
        self._spen = grow(getattr(self, "_spen", None), np.int32)
        self._alive = grow(getattr(self, "_alive", None), np.bool_)
        self._da = grow(getattr(self, "_da", None), np.int64)
        self._db = grow(getattr(self, "_db", None), np.int64)
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
            if index >= len(self._dev_cx):
                size = int(len(self._dev_cx) * _GROW) + 256
                for name in ("_dev_cx", "_dev_cy", "_dev_group"):
                    old = getattr(self, name)
                    new = np.zeros(size, dtype=old.dtype)
                    new[: len(old)] = old
                    setattr(self, name, new)
            self._dev_group[index] = -1
        return index

    def __len__(self) -> int:
        return len(self._index)

    def link_ids(self) -> list[str]:
        return list(self._index)

    # ---------------------------------------------------------------- editing
    def clear(self) -> None:
        """Forget every cable and device."""
        self._clear_links()
        self._dev_index.clear()
        self._groups.clear()
        self._invalidate_bundles()

    def _clear_links(self) -> None:
        self.prepareGeometryChange()
        self._n = 0
        for name in ("_ax", "_ay", "_bx", "_by", "_pen", "_spen", "_alive", "_da", "_db"):
            setattr(self, name, None)
        self._alloc(1024)
        self._index.clear()
        self._ids.clear()
        self._free.clear()
        self._selected.clear()
        self._highlight.clear()
        self._bounds = QRectF()
        self._invalidate_bundles()
        self.update()

    def set_devices(self, entries: list[tuple[str, float, float, str | None]]) -> None:
        """Register devices: (id, centre x, centre y, group key or None)."""
        for device_id, cx, cy, group in entries:
            self.set_device(device_id, cx, cy, group)

    def set_device(self, device_id: str, cx: float, cy: float, group: str | None) -> None:
        index = self.device_index(device_id)
        self._dev_cx[index] = cx
        self._dev_cy[index] = cy
        if group is None:
            self._dev_group[index] = -1
        else:
            self._dev_group[index] = self._groups.setdefault(group, len(self._groups))
        self._bundles_grouped = None

    def move_device(self, device_id: str, cx: float, cy: float) -> None:
        index = self._dev_index.get(device_id)
        if index is not None:
            self._dev_cx[index] = cx
            self._dev_cy[index] = cy

    def set_links(self, rows: list[tuple[str, float, float, float, float, str, str, str, str]]) -> None:
        """Add or replace cables: (id, ax, ay, bx, by, colour, speed colour, device a, device b).

        `colour` draws the cable (a jacket colour the user chose, else its speed colour); bundles
        always use the speed colour, so a trunk of mixed jackets reads by speed as in the legend.
        """
        if not rows:
            return
        self.prepareGeometryChange()
        for link_id, ax, ay, bx, by, colour, speed_colour, dev_a, dev_b in rows:
            i = self._index.get(link_id)
            if i is None:
                i = self._slot()
                self._index[link_id] = i
                self._ids[i] = link_id
            self._ax[i], self._ay[i], self._bx[i], self._by[i] = ax, ay, bx, by
            self._pen[i] = self.pen_index(colour)
            self._spen[i] = self.pen_index(speed_colour)
            self._da[i] = self.device_index(dev_a)
            self._db[i] = self.device_index(dev_b)
            self._alive[i] = True
            self._grow_bounds(ax, ay, bx, by)
        self._invalidate_bundles()
        self.update()

    def load(self, ids: list[str], coords: np.ndarray, colours: list[str], speed_colours: list[str],
             dev_a: list[str], dev_b: list[str]) -> None:
        """Bulk load of every cable (coords: n x 4 array ax, ay, bx, by); devices stay."""
        self._clear_links()
        n = len(ids)
        if n == 0:
            return
        if n > self._cap:
            self._alloc(n + 1024)
        self._ax[:n], self._ay[:n], self._bx[:n], self._by[:n] = coords.T
        self._pen[:n] = [self.pen_index(c) for c in colours]
        self._spen[:n] = [self.pen_index(c) for c in speed_colours]
        self._da[:n] = [self.device_index(d) for d in dev_a]
        self._db[:n] = [self.device_index(d) for d in dev_b]
        self._alive[:n] = True
        self._n = n
        self._ids = list(ids)
        self._index = {link_id: i for i, link_id in enumerate(ids)}
        xs = np.concatenate((coords[:, 0], coords[:, 2]))
        ys = np.concatenate((coords[:, 1], coords[:, 3]))
        self._bounds = QRectF(QPointF(xs.min(), ys.min()), QPointF(xs.max(), ys.max())).adjusted(-8, -8, 8, 8)
        self._invalidate_bundles()
        self.update()

    def remove_links(self, link_ids: list[str]) -> None:
        for link_id in link_ids:
            i = self._index.pop(link_id, None)
            if i is None:
                continue
            self._alive[i] = False
            self._ids[i] = None
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
        self._bundles = None
        self._bundles_grouped = None

    # ---------------------------------------------------------------- selection and picking
    def set_selected(self, link_ids: set[str]) -> None:
        chosen = {self._index[i] for i in link_ids if i in self._index}
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

    def link_at(self, x: float, y: float, tolerance: float) -> str | None:
        """The cable nearest to (x, y) within `tolerance` scene units, or None."""
        n = self._n
        if not n:
            return None
        ax, ay, bx, by = self._ax[:n], self._ay[:n], self._bx[:n], self._by[:n]
        near = (
            self._alive[:n]
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
            self._alive[:n]
            & (ax >= left) & (ax <= right) & (bx >= left) & (bx <= right)
            & (ay >= top) & (ay <= bottom) & (by >= top) & (by <= bottom)
        )
        return [self._ids[i] for i in np.flatnonzero(inside)]

    # ---------------------------------------------------------------- painting
    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt override)
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if not self._index:
            return
        scale = painter.worldTransform().m11()
        exposed = option.exposedRect
        painter.save()
        if scale < self.detail_scale:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            self._paint_bundles(painter, exposed, scale)
        else:
            self._paint_lines(painter, exposed)
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

    def _paint_lines(self, painter: QPainter, exposed: QRectF) -> None:
        n = self._n
        ax, ay, bx, by = self._ax[:n], self._ay[:n], self._bx[:n], self._by[:n]
        idx = self._visible(ax, ay, bx, by, exposed, self._alive[:n])
        if len(idx) > lod.MAX_AA_LINES:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        marked = self._selected | self._highlight
        if marked:
            sel = np.fromiter(marked, dtype=np.int64)
            sel = sel[np.isin(sel, idx)]
            if len(sel):
                halo = _pen(theme.SELECTION_HALO.name(), 7.0)
                painter.setPen(halo)
                coords = np.column_stack((ax[sel], ay[sel], bx[sel], by[sel])).tolist()
                painter.drawLines(list(starmap(QLineF, coords)))
        self._draw_groups(painter, idx, self._pen[:n], ax, ay, bx, by, self._pens)
        if self._selected:
            sel = np.fromiter(self._selected, dtype=np.int64)
            sel = sel[np.isin(sel, idx)]
            if len(sel):
                bold = [QPen(p) for p in self._pens]
                for pen in bold:
                    pen.setWidthF(2.8)
                self._draw_groups(painter, sel, self._pen[:n], ax, ay, bx, by, bold)

    # ---------------------------------------------------------------- bundles
    def _compute_bundles(self, grouped: bool) -> tuple[np.ndarray, ...]:
        n = self._n
        alive = np.flatnonzero(self._alive[:n])
        da, db = self._da[alive], self._db[alive]
        ndev = len(self._dev_index)
        if grouped:
            groups = self._dev_group[:ndev]
            node = np.where(groups >= 0, ndev + groups, np.arange(ndev))
            da, db = node[da], node[db]
        lo, hi = np.minimum(da, db), np.maximum(da, db)
        keep = lo != hi
        lo, hi, alive = lo[keep], hi[keep], alive[keep]
        span = int(hi.max()) + 1 if len(hi) else 1
        keys = lo * span + hi
        uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
        a_node, b_node = uniq // span, uniq % span
        pens = self._spen[alive[first]]
        return a_node, b_node, counts, pens

    def _node_centres(self, grouped: bool) -> tuple[np.ndarray, np.ndarray]:
        ndev = len(self._dev_index)
        cx, cy = self._dev_cx[:ndev], self._dev_cy[:ndev]
        if not grouped:
            return cx, cy
        groups = self._dev_group[:ndev]
        ngroups = len(self._groups)
        member = groups >= 0
        totals = np.bincount(groups[member], minlength=ngroups).astype(np.float64)
        totals[totals == 0] = 1
        gx = np.bincount(groups[member], weights=cx[member], minlength=ngroups) / totals
        gy = np.bincount(groups[member], weights=cy[member], minlength=ngroups) / totals
        return np.concatenate((cx, gx)), np.concatenate((cy, gy))

    def bundle_count(self, grouped: bool = False) -> int:
        return len(self._bundles_for(grouped)[0])

    def _bundles_for(self, grouped: bool) -> tuple[np.ndarray, ...]:
        if grouped:
            if self._bundles_grouped is None:
                self._bundles_grouped = self._compute_bundles(True)
            return self._bundles_grouped
        if self._bundles is None:
            self._bundles = self._compute_bundles(False)
        return self._bundles

    def _paint_bundles(self, painter: QPainter, exposed: QRectF, scale: float) -> None:
        grouped = scale < lod.GROUPS_MAX_SCALE and bool(self._groups)
        a_node, b_node, counts, pens = self._bundles_for(grouped)
        if not len(a_node):
            return
        cx, cy = self._node_centres(grouped)
        ax, ay, bx, by = cx[a_node], cy[a_node], cx[b_node], cy[b_node]
        idx = self._visible(ax, ay, bx, by, exposed, None)
        if not len(idx):
            return
        widths = np.array([_bundle_width(int(c)) for c in (1, 2, 5, 17, 65)])
        if grouped:  # trunks of a whole fabric: structure, not weight
            widths = np.array([1.0, 1.4, 1.8, 2.2, 2.8])
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
