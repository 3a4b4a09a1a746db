"""What the Topology scene shows of a document, computed without touching a widget.

`topology_data(doc)` walks the document once and returns columns: every device's panel
geometry, position, size, tier and bundle group, and every cable's end points, colours and end
devices as numpy arrays.  It only reads the document and creates no Qt object (colour strings
only), so the file loader runs it in its worker thread and the GUI thread merely hands the
columns to the batched layers (and creates device items after the first frame): that is what
keeps opening a 100k-cable fabric from freezing the window.

The per-cable work is a few map() calls over the document's link columns (dict look-ups,
looped in C, straight into numpy); everything else (port rows, end points, colours, the ports
each device uses, the cable count per tier pair) is numpy on those columns.  The file loader
also counts the overview's blocks and bundles here (`prepare_overview`), from the same columns.

A big design (`DEFERRED_CABLES_FROM` cables) opened in the editor is first drawn far out, as the
overview's blocks and bundles: its first frame needs each cable's end devices and end points
(the overview's counts, the scene's bounds), not its id, colours, rail or plane.  Those are then
read after that frame (`TopologyData.complete_cables`, from a snapshot of the same revision),
when the link layer first needs them (link_layer.py `defer_load`): at 1.2M cables ~0.3 s less
before the first frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter, itemgetter

import numpy as np

from ...editing import overview
from ...editing.overview import BlockKey, LeafGroups, Overview
from ...model import arrays
from ...model.document import FabricDocument
from ...model.fabric import Device
from ...model.link_table import LinkColumns
from .. import theme
from .geometry import DeviceGeometry, device_geometry

_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_TAGS, _PLANE = attrgetter("tags"), attrgetter("plane")
#: from this many cables the file loader leaves their ids, colours, rails and planes to after
#: the first frame (`topology_data`'s `defer_cables`)
DEFERRED_CABLES_FROM = 200_000


def group_key(device: Device, tier: int) -> str | None:
    """The bundle group of a device zoomed far out: servers of one SU (or pod, or rack), spines of
    one rail group (plane), cores of one group; leaves stay single.  Cables then become trunks
    SU -> leaf -> spine group -> core group (shared/reference/performance.md §6)."""
    tags = device.tags
    if tier == 0:
        for tag in ("su", "pod"):
            if tag in tags:
                return f"servers:{tag}:{tags[tag]}"
        return f"servers:rack:{device.rack}" if device.rack else None
    if tier == 2 and ("rail_group" in tags or "plane" in tags):
        return f"spines:{tags.get('pod', '')}:{tags.get('rail_group', tags.get('plane'))}"
    if tier == 3 and ("core_group" in tags or "group" in tags):
        return f"cores:{tags.get('core_group', tags.get('group'))}"
    return None


def _floats(n: int = 0) -> np.ndarray:
    return np.zeros(n, dtype=np.float64)


def _ints(n: int = 0) -> np.ndarray:
    return np.zeros(n, dtype=np.int64)


@dataclass(slots=True)
class TopologyData:
    """Devices and cables of one document revision as columns, ready for the scene."""

    revision: int
    # devices, in document order
    ids: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    model_texts: list[str] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    gpus: list[int] = field(default_factory=list)
    geometries: list[DeviceGeometry] = field(default_factory=list)
    groups: list[str | None] = field(default_factory=list)
    tiers: np.ndarray = field(default_factory=_ints)
    x: np.ndarray = field(default_factory=_floats)
    y: np.ndarray = field(default_factory=_floats)
    w: np.ndarray = field(default_factory=_floats)
    h: np.ndarray = field(default_factory=_floats)
    # cables that can be drawn (both ends on a known port)
    link_ids: list[str] = field(default_factory=list)
    link_rows: LinkColumns | None = None
    """The document's loaded link columns when their rows are these (every loaded cable
    drawn, in order: `LinkTable.loaded_order`; their `row` map is then this id -> row), else
    None."""
    coords: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    palette: list[str] = field(default_factory=list)
    """Colours (#rrggbb) the `pens` and `speed_pens` columns index."""
    pens: np.ndarray = field(default_factory=_ints)
    """Per cable: its jacket colour, else its speed colour."""
    speed_pens: np.ndarray = field(default_factory=_ints)
    dev_a: np.ndarray = field(default_factory=_ints)
    dev_b: np.ndarray = field(default_factory=_ints)
    rails: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int16))
    link_planes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int16))
    """Per cable: its compute plane as an index into `plane_names` (0: no plane)."""
    plane_names: list[str | None] = field(default_factory=lambda: [None])
    tier_pairs: dict[tuple[int, int], int] = field(default_factory=dict)
    """Every cable (drawable or not) counted by the tiers of its ends (lower tier first)."""
    # the ports that carry a drawn cable, grouped by device (see used_of): port-table rows
    # and the port names those rows have
    _used_rows: np.ndarray = field(default_factory=_ints)
    _used_start: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    _port_names: list[str] = field(default_factory=list)
    # the drawn cables' end device rows and port rows (int32), grouped into the two above on
    # the first question (`_grouped`): only device items ask, after the first frame
    _ends_ports: tuple[np.ndarray, np.ndarray] | None = None
    # where the cable columns not read yet come from (`complete_cables`); None: all read
    _cables: _CableSource | None = None
    _used_lists: tuple[list[str], list[int]] | None = None
    _shared_used: dict[frozenset[str], frozenset[str]] = field(default_factory=dict)
    overview: PreparedOverview | None = None
    """The overview's blocks and bundles, when the file loader computed them (`prepare_overview`)."""

    def __len__(self) -> int:
        return len(self.ids)

    def used_of(self, row: int) -> frozenset[str]:
        """The used port names of the device in `row` (after `list_used`, a slice of the names
        of every device's used ports; before, read from the columns for this row alone: a click
        or a zoomed-in frame makes a few items before the slices make them all).  Devices that
        use the same ports share one set (every full leaf of a model, every server): a set per
        device item was ~150 MB at 1.2M cables, the shared ones take a few MB."""
        self._grouped()
        if self._used_lists is None:
            rows = self._used_rows[self._used_start[row]:self._used_start[row + 1]].tolist()
            names = self._port_names
            used = frozenset([names[r] for r in rows])
        else:
            flat, start = self._used_lists
            used = frozenset(flat[start[row]:start[row + 1]])
        return self._shared_used.setdefault(used, used)

    def list_used(self) -> None:
        """List the names of every device's used ports at once (before making many items)."""
        self._grouped()
        if self._used_lists is None:
            names = self._port_names
            self._used_lists = ([names[r] for r in self._used_rows.tolist()],
                                self._used_start.tolist())

    def cables_pending(self) -> bool:
        """Whether the cables' ids, colours, rails and planes are still to be read
        (`complete_cables`): their end devices and end points are read."""
        return self._cables is not None

    def complete_cables(self) -> None:
        """Read the cable columns left to after the first frame (`topology_data`'s
        `defer_cables`); nothing when they are read."""
        source, self._cables = self._cables, None
        if source is None:
            return
        links = source.doc.links
        ids, rails, colours, planes = links.columns("id", "rail", "colour", "plane")
        rails = [rail or 0 for rail in rails] if None in rails else rails
        if source.keep is None:
            self.link_rows = links.loaded_order()
        else:
            rows = source.keep.tolist()
            ids = [ids[r] for r in rows]
            rails = [rails[r] for r in rows]
            colours = [colours[r] for r in rows]
            planes = [planes[r] for r in rows]
        self.link_ids = ids
        self.rails = np.array(rails, dtype=np.int16)
        codes = {name: code for code, name in enumerate(dict.fromkeys([None, *planes]))}
        self.plane_names = list(codes)
        self.link_planes = np.fromiter(map(codes.__getitem__, planes), dtype=np.int16,
                                       count=len(planes))
        _colours(colours, source.pa, source.table, self)
        _used_ports(self, self.dev_a, self.dev_b, source.pa, source.pb, source.table.names)

    def _grouped(self) -> None:
        """Group the port rows of every drawn cable end by device, once (1.2M cables: ~60 ms,
        not spent before the first frame), the cable columns read first if they were left."""
        self.complete_cables()
        if self._ends_ports is None:
            return
        ends, ports = self._ends_ports
        self._ends_ports = None
        self._used_rows = ports[arrays.stable_argsort(ends)]
        counts = np.bincount(ends, minlength=len(self.ids))
        self._used_start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)

    def drop_cables(self) -> None:
        """Forget the cable columns once the link layer holds its own copy of them (~75 MB at
        1.2M cables, else held while the device items are made, the first validation's peak)."""
        self._cables = None
        self.link_ids = []
        self.link_rows = None
        self.coords = np.zeros((0, 4))
        self.pens = self.speed_pens = self.dev_a = self.dev_b = _ints()
        self.rails = self.link_planes = np.zeros(0, dtype=np.int16)

    def distinct_geometries(self) -> list[DeviceGeometry]:
        return list({id(g): g for g in self.geometries}.values())


@dataclass(slots=True)
class PreparedOverview:
    """What the overview layer (overview_layer.py) needs of a document, computed in the loader
    thread: per device row its id, the Device object its block keys were made from, its fine
    and coarse block keys and its role; both levels with their bundles.  (The layer makes its
    id maps from these lists in the GUI thread: ~10 ms; dicts that big made in the loader
    thread raise the peak RSS of the first validation by ~35 MB at 300k cables.)"""

    ids: list[str]
    devices: list[Device]
    fine_keys: list[BlockKey]
    coarse_keys: list[BlockKey]
    roles: list[str]
    overview: Overview
    #: the leaf groups the servers' keys were made with (overview.leaf_groups)
    groups: LeafGroups


def prepare_overview(doc: FabricDocument, data: TopologyData) -> PreparedOverview:
    """The overview of `doc` from its scene columns `data` (any thread; reads only): the blocks
    from the device columns, the bundles from the cables' end rows the columns already hold (the
    overview needs counts, not items).  The same functions as the layer's own refresh, on the
    same rows, so the result is the same."""
    devices = list(doc.devices.values())
    device_keys = overview.device_keys
    groups = overview.leaf_groups(map(_TAGS, devices))
    pairs = list(map(device_keys, data.roles, map(_TAGS, devices), map(_PLANE, devices),
                     repeat(groups)))
    fine, coarse = list(map(_FIRST, pairs)), list(map(_SECOND, pairs))
    made = overview.prepare(fine, coarse, data.roles, data.x, data.y, data.w, data.h, data.dev_a,
                            data.dev_b)
    return PreparedOverview(data.ids, devices, fine, coarse, data.roles, made, groups)


class _PortTable:
    """Every port of the distinct geometries in one table: centre, speed colour, name."""

    def __init__(self) -> None:
        #: id(geometry) -> its number, and per number: port name -> table row
        self.number_of: dict[int, int] = {}
        self.rows_of: list[dict[str, int]] = []
        self.cx: list[float] = []
        self.cy: list[float] = []
        self.speed: list[str] = []
        self.names: list[str] = []

    def number(self, geometry: DeviceGeometry) -> int:
        """The geometry's number (its ports join the table the first time it is seen; devices
        of one model and cage set share it)."""
        number = self.number_of.get(id(geometry))
        if number is None:
            number = self.number_of[id(geometry)] = len(self.rows_of)
            rows: dict[str, int] = {}
            self.rows_of.append(rows)
            for name, port in geometry.ports.items():
                x, y, w, h = port.rect
                rows[name] = len(self.names)
                self.cx.append(x + w / 2)
                self.cy.append(y + h / 2)
                self.speed.append(theme.speed_colour_hex(port.speed_gbps))
                self.names.append(name)
        return number

    def lookup(self) -> tuple[dict[str, int], np.ndarray]:
        """(port name -> code, table[geometry number, code] -> port row or -1): a port end is
        found with one dict look-up per cable end and one numpy take for all.  The table's
        last row (an unknown device) and last column (an unknown port name) are all -1."""
        return arrays.lookup_table(self.rows_of, -1, margin=1)


def _devices(doc: FabricDocument, data: TopologyData, table: _PortTable) -> list[int]:
    """Fill the device columns; returns each device's geometry number in `table`."""
    models = doc.catalog.devices
    tier_of_role: dict[object, int] = {}
    port_rows: list[int] = []
    tiers: list[int] = []
    xs: list[float] = []
    ys: list[float] = []
    for device in doc.devices.values():
        model = models[device.model]
        geometry = device_geometry(model, device.cages)
        role = doc.role_of(device)
        tier = tier_of_role.get(role)
        if tier is None:
            tier = tier_of_role[role] = doc.tier_of(device)
        x, y = device.position
        data.ids.append(device.id)
        data.names.append(device.name)
        data.model_texts.append(model.model)
        data.roles.append(role.value)
        data.gpus.append(model.gpus)
        data.geometries.append(geometry)
        data.groups.append(group_key(device, tier))
        tiers.append(tier)
        xs.append(x)
        ys.append(y)
        port_rows.append(table.number(geometry))
    data.tiers = np.array(tiers, dtype=np.int64)
    data.x = np.array(xs, dtype=np.float64)
    data.y = np.array(ys, dtype=np.float64)
    data.w = np.array([g.width for g in data.geometries], dtype=np.float64)
    data.h = np.array([g.height for g in data.geometries], dtype=np.float64)
    return port_rows


def _tier_pairs(tiers: np.ndarray, ia: np.ndarray, ib: np.ndarray) -> dict[tuple[int, int], int]:
    """Every cable with both ends on known devices (a row of `tiers`) counted by the tiers of
    its ends, the lower first: one bincount of (tier A, tier B), folded (1.2M cables: ~5 ms,
    ~25 ms ordered per cable first)."""
    ndev = len(tiers)
    if not ndev or not len(ia):
        return {}
    if min(int(ia.min()), int(ib.min())) < 0 or max(int(ia.max()), int(ib.max())) >= ndev:
        known = (ia >= 0) & (ia < ndev) & (ib >= 0) & (ib < ndev)
        ia, ib = ia[known], ib[known]
    top = int(tiers.max()) + 1
    tier = tiers.astype(np.intp)
    counts = np.bincount(tier[ia] * top + tier[ib], minlength=top * top).reshape(top, top)
    folded = np.triu(counts + counts.T) - np.diag(np.diag(counts))
    return {(lo, hi): int(folded[lo, hi]) for lo in range(top) for hi in range(lo, top)
            if folded[lo, hi]}


def _colours(names: list[str | None], speed: np.ndarray, table: _PortTable,
             data: TopologyData) -> None:
    """The palette and the pen columns: jacket colours where set, speed colours otherwise."""
    palette: dict[str, int] = {}
    speed_codes = {c: palette.setdefault(c, len(palette)) for c in dict.fromkeys(table.speed)}
    speed_of_row = np.array([speed_codes[c] for c in table.speed] or [0], dtype=np.int64)
    data.speed_pens = speed_of_row[speed] if len(speed) else _ints()
    jackets: dict[str | None, int] = {None: -1}
    for name in dict.fromkeys(names):
        if name not in jackets:
            hex_colour = theme.link_colour_hex(name)
            jackets[name] = -1 if hex_colour is None else palette.setdefault(hex_colour, len(palette))
    jacket = np.fromiter(map(jackets.__getitem__, names), dtype=np.int64, count=len(names))
    data.pens = np.where(jacket >= 0, jacket, data.speed_pens)
    data.palette = list(palette)


@dataclass(slots=True)
class _CableSource:
    """What `TopologyData.complete_cables` reads the cable columns from: the document (a
    snapshot of the revision the data is of, when they are read later), the port table, the
    rows of the drawable cables (None: all) and their end ports' rows."""

    doc: FabricDocument
    table: _PortTable
    keep: np.ndarray | None
    pa: np.ndarray
    pb: np.ndarray


def _end_rows(doc: FabricDocument, index: dict[str, int], geometry_of: np.ndarray,
              table: _PortTable) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(device row of each A end, of each B end, port row of each A end, of each B end) of
    every cable, from the document's own link columns (model/link_table.py: no Link object is
    made), straight into numpy with map(), which loops in C.  A port end is a port-name code
    per end (one dict look-up) and one numpy take in the geometry x code table
    (`_PortTable.lookup`).  An end on an unknown device gets device row len(index) (its
    `geometry_of` is the table's all -1 row), an unknown port row -1.  The ends of a file
    opened and not changed since are read from the numbers the document kept of them
    (`FabricDocument.loaded_ends`): one take, no look-up (1.2M links: ~0.3 s less)."""
    resolved = doc.loaded_ends()
    if resolved is not None and resolved.device_ids == list(index):
        # a file opened and not changed since: its ends are numbers already (model/end_check.py)
        ia, ib = (rows.astype(np.int64) for rows in resolved.devices)
        pa, pb = resolved.values_at_ends(
            [table.rows_of[number] for number in geometry_of[:-1].tolist()], -1)
        return ia, ib, pa, pb
    ends_a, ends_b = doc.links.columns("a", "b")
    n = len(ends_a)
    codes, ports_of = table.lookup()
    unknown_name = repeat(len(codes))
    missing = repeat(len(index))
    rows: list[np.ndarray] = []
    ports: list[np.ndarray] = []
    for ends in (ends_a, ends_b):
        rows.append(np.fromiter(map(index.get, map(_FIRST, ends), missing), dtype=np.int64,
                                count=n))
        names = np.fromiter(map(codes.get, map(_SECOND, ends), unknown_name), dtype=np.int64,
                            count=n)
        ports.append(ports_of[geometry_of[rows[-1]], names])
    return rows[0], rows[1], ports[0], ports[1]


def _used_ports(data: TopologyData, ia: np.ndarray, ib: np.ndarray, pa: np.ndarray,
                pb: np.ndarray, names: list[str]) -> None:
    """Keep the device and port rows of every drawn cable end, for `used_of` to group by
    device."""
    data._ends_ports = (np.concatenate((ia, ib), dtype=np.int32, casting="same_kind"),
                        np.concatenate((pa, pb), dtype=np.int32, casting="same_kind"))
    data._port_names = names


def topology_data(doc: FabricDocument, defer_cables: bool = False) -> TopologyData:
    """Read everything the Topology scene draws from `doc` (any thread; reads only);
    `defer_cables`: the cables' ids, colours, rails and planes later, by `complete_cables`
    (from a snapshot of `doc` taken now)."""
    data = TopologyData(doc.revision)
    table = _PortTable()
    port_rows = _devices(doc, data, table)
    ndev = len(data.ids)
    data._used_start = np.zeros(ndev + 1, dtype=np.int64)
    if not doc.links:
        return data
    # row ndev: an unknown device, whose geometry number is the lookup table's all -1 row
    geometry_of = np.array([*port_rows, len(table.rows_of)], dtype=np.int64)
    index = {device_id: i for i, device_id in enumerate(data.ids)}
    ia, ib, pa, pb = _end_rows(doc, index, geometry_of, table)
    data.tier_pairs = _tier_pairs(data.tiers, ia, ib)
    ok = (pa >= 0) & (pb >= 0)
    keep = None if ok.all() else np.flatnonzero(ok)
    if keep is not None:
        ia, ib, pa, pb = ia[keep], ib[keep], pa[keep], pb[keep]
    cx, cy = np.array(table.cx), np.array(table.cy)
    # column-major: each column is one contiguous array the link layer takes as it is
    coords = data.coords = np.empty((len(ia), 4), dtype=np.float64, order="F")
    np.add(data.x[ia], cx[pa], out=coords[:, 0])
    np.add(data.y[ia], cy[pa], out=coords[:, 1])
    np.add(data.x[ib], cx[pb], out=coords[:, 2])
    np.add(data.y[ib], cy[pb], out=coords[:, 3])
    data.dev_a, data.dev_b = ia, ib
    data._cables = _CableSource(doc.snapshot() if defer_cables else doc, table, keep, pa, pb)
    if not defer_cables:
        data.complete_cables()
    return data
