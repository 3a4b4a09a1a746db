"""The analysis store: devices, racks and links as rows of numpy columns.

A full run fills the columns in bulk (C-level `map`/`zip` over the document's objects, then
numpy); an incremental run rewrites the rows of the dirty ids one by one.  Everything derived
from the raw columns (tiers, bandwidth, lengths, stock lengths, reach, per-device sums) is
computed by *one* vectorized function that takes the rows to (re)compute, so a full run and an
incremental run cannot disagree: the full run just passes every row.

Rows are stable: a removed link or device leaves a dead row (`alive` false) until the next full
run compacts the table; an added one gets a new row at the end.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from operator import attrgetter, is_not, itemgetter
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..model import arrays
from ..model.catalog_entities import ROLE_TIER, DeviceModel, Role
from ..model.document import FabricDocument
from ..model.fabric import Device, Link
from ..model.fit import compute_group
from ..model.floor import device_height_m, rack_floor_xy
from ..model.memo import IdentityMemo
from ..model.power import counts_optics, share_watts
from .index import NONE, CatalogIndex, Endpoints, _grow

if TYPE_CHECKING:
    from .signatures import Signatures

_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_RACK, _RU = attrgetter("rack"), attrgetter("ru")

MAX_CAGE = 1024  # cage numbers are small; (device, cage) pairs are coded as row * MAX_CAGE + cage


def _mtu_tag(device: Device) -> int:
    """The device's `mtu` tag as an int: 0 without the tag, -1 when it is not a number."""
    text = device.tags.get("mtu")
    if text is None:
        return 0
    try:
        value = int(text)
    except ValueError:
        return -1
    return value if value > 0 else -1


class NicLinks(NamedTuple):
    """Server-to-switch links as columns: link rows, server rows, switch rows, server ends."""

    rows: np.ndarray
    server: np.ndarray
    switch: np.ndarray
    server_ep: np.ndarray


class Store:
    """Columns for racks, devices and links of one document (see the module docstring)."""

    DEVICE_COLUMNS = (
        ("alive", bool), ("model", np.int64), ("tier", np.int64), ("switch", bool),
        ("server", bool), ("mgmt", bool), ("rack", np.int64), ("rack_any", np.int64), ("x", float), ("y", float),
        ("h", float), ("gpus", np.int64), ("power", float), ("optic_w", float),
        ("height", np.int64), ("ru", np.int64), ("mtu", np.int64), ("compute", np.int64),
        ("fabric_legs", np.int64), ("ports", np.int64),
        ("plane", np.int64),  # 0: in no plane, else 1 + index in plane_names (Device.plane)
        # sums over the device's links (aggregate())
        ("up", np.int64), ("down", np.int64), ("peer", np.int64), ("links", np.int64),
        ("fabric_used", np.int64), ("stranded", np.int64), ("compute_linked", np.int64),
        ("nolen", np.int64), ("nic_links", np.int64), ("cage_flag", np.int64),
    )
    LINK_COLUMNS = (
        ("alive", bool), ("a", np.int64), ("b", np.int64), ("a_ep", np.int64),
        ("b_ep", np.int64), ("a_opt", np.int64), ("b_opt", np.int64), ("cable", np.int64),
        ("manual_len", float), ("rail_tag", float), ("has_asm", bool),
        # derived (derive())
        ("tier_a", np.int64), ("tier_b", np.int64), ("gbps", np.int64), ("fabric", bool),
        ("rail", np.int64), ("same", np.int64), ("length", float), ("manual", bool),
        ("ordered", float), ("reach", float), ("sig", np.int64), ("copper", bool),
    )

    def __init__(self, doc: FabricDocument, cindex: CatalogIndex, endpoints: Endpoints,
                 signatures: Signatures) -> None:
        self.doc = doc
        self.cindex = cindex
        self.ep = endpoints
        self.sigs = signatures
        self.settings = doc.settings
        # racks
        self.rack_ids: list[str] = []
        self.rack_row: dict[str, int] = {}
        self.r_x = np.zeros(0)
        self.r_y = np.zeros(0)
        self.r_height = np.zeros(0, dtype=np.int64)
        self.r_budget = np.zeros(0)
        # devices
        self.dev_ids: list[str | None] = []
        self.dev_row: dict[str, int] = {}
        self.dev_obj: list[Device | None] = []
        self.dev_models: list[DeviceModel | None] = []
        self.plane_ids: dict[str, int] = {}  # compute plane name -> its number (column "plane")
        self.plane_names: list[str] = []
        self.dev_ports: list[dict[str, int] | None] = []
        self.dev_optics: list[dict[int, int] | None] = []
        self._models: dict[str, tuple] = {}
        # cage table (by identity) -> (cage -> optic index, watts): `_cage_optics`
        self._optics_memo: IdentityMemo[tuple[dict[int, int], float]] = IdentityMemo(16_384)
        self.d: dict[str, np.ndarray] = {}
        # links
        self.link_ids: list[str | None] = []
        self._link_row: dict[str, int] | None = {}
        self.a_port: list[str | None] = []
        self.b_port: list[str | None] = []
        self.assembly: list[str | None] = []
        self.l: dict[str, np.ndarray] = {}

    # ------------------------------------------------------------------ sizes
    @property
    def n_devices(self) -> int:
        return len(self.dev_ids)

    @property
    def n_links(self) -> int:
        return len(self.link_ids)

    @property
    def link_row(self) -> dict[str, int]:
        """Link id -> row."""
        if self._link_row is None:
            ids = self.link_ids
            self._link_row = {i: r for r, i in enumerate(ids) if i is not None}
        return self._link_row

    # ------------------------------------------------------------------ racks
    def load_racks(self) -> None:
        params = self.settings.lengths
        racks = list(self.doc.racks.values())
        self.rack_ids = [r.id for r in racks]
        self.rack_row = {r: i for i, r in enumerate(self.rack_ids)}
        xy = [rack_floor_xy(r, params) for r in racks]
        self.r_x = np.array([p[0] for p in xy], dtype=float)
        self.r_y = np.array([p[1] for p in xy], dtype=float)
        self.r_height = np.array([r.height_ru for r in racks], dtype=np.int64)
        self.r_budget = np.array([r.power_kw if r.power_kw is not None else np.nan for r in racks],
                                 dtype=float)

    def set_rack(self, rack_id: str) -> None:
        """Re-read one rack (added, changed or removed); rows stay stable."""
        rack = self.doc.racks.get(rack_id)
        row = self.rack_row.get(rack_id)
        if rack is None:
            if row is not None:
                self.r_height[row] = 0
                self.r_budget[row] = np.nan
            return
        if row is None:
            row = len(self.rack_ids)
            self.rack_ids.append(rack_id)
            self.rack_row[rack_id] = row
            for name in ("r_x", "r_y", "r_height", "r_budget"):
                setattr(self, name, _grow(getattr(self, name), row + 1))
        x, y = rack_floor_xy(rack, self.settings.lengths)
        self.r_x[row], self.r_y[row] = x, y
        self.r_height[row] = rack.height_ru
        self.r_budget[row] = rack.power_kw if rack.power_kw is not None else np.nan

    # ------------------------------------------------------------------ devices
    def _model_info(self, model_id: str) -> tuple:
        """(model, model index, compute group, power or nan) of a catalog model, cached."""
        info = self._models.get(model_id)
        if info is None:
            cindex = self.cindex
            index = cindex.model_idx[model_id]
            model = cindex.models[index]
            power = share_watts(model)
            info = (model, index, compute_group(model), np.nan if power is None else power)
            self._models[model_id] = info
        return info

    #: the device columns that come from where a device is (`_device_place`); every other
    #: column up to `plane` comes from how it is configured (`_device_config`)
    PLACE_COLUMNS = ("rack", "rack_any", "x", "y", "h", "ru")
    CONFIG_COLUMNS = ("alive", "model", "tier", "switch", "server", "mgmt", "gpus", "power",
                      "optic_w", "height", "mtu", "compute", "fabric_legs", "ports", "plane")

    def _device_config(self, device: Device) -> tuple:
        """(values of CONFIG_COLUMNS, model, port map, optics) of a device: what follows from
        its model, role, port table, cage table, plane and tags, the same for every device
        configured alike (one logic for both the bulk and the one-row path)."""
        model, model_i, group, power = self._model_info(device.model)
        role = device.role or model.role
        tier = ROLE_TIER[role]
        pmap = self.ep.port_map(self.doc.ports(device.id), group)
        optics, optic_w = self._cage_optics(device.cages)
        if model.optical_engines:  # co-packaged optics: the engines behind unconfigured cages
            optics = self._with_engines(model, optics)
        if not counts_optics(model):  # an NVL72 tray: its rack's stated power includes them
            optic_w = 0.0
        summary = _table_summary(self.ep, pmap)
        values = (
            True, model_i, tier, tier >= 1 and role != Role.MGMT, tier == 0, role == Role.MGMT,
            model.gpus, power, optic_w, model.height_ru,
            _mtu_tag(device) if device.tags else 0,
            summary[0], summary[1], len(pmap), self.plane_index(device.plane),
        )
        return values, model, pmap, optics

    def _device_place(self, device: Device, height_ru: int) -> tuple:
        """Values of PLACE_COLUMNS: its rack row when placed at an RU (else NONE), its rack
        row whatever its RU, the rack's floor x and y, the height of its panel's middle, RU."""
        rack = NONE
        if device.rack is not None and device.rack in self.doc.racks:
            rack = self.rack_row.get(device.rack, NONE)
        ru = device.ru
        if rack != NONE and ru is not None:
            return (rack, rack, float(self.r_x[rack]), float(self.r_y[rack]),
                    device_height_m(device, height_ru, self.settings.lengths), ru)
        return NONE, rack, np.nan, np.nan, np.nan, ru if ru is not None else 0

    def _places(self, devices: list[Device], heights: np.ndarray) -> dict[str, np.ndarray]:
        """PLACE_COLUMNS of many devices at once: `_device_place` in numpy (the same
        formula, `lengths.device_height_m`, in the same order of operations)."""
        n = len(devices)
        rack_any = np.fromiter(map(self.rack_row.get, map(_RACK, devices), repeat(NONE)),
                               np.int64, n)  # the rows of the document's racks (load_racks)
        ru = np.array(list(map(_RU, devices)), dtype=float)  # None: nan
        placed = (rack_any != NONE) & ~np.isnan(ru)
        params = self.settings.lengths
        height = params.rack_base_m + (ru - 1 + heights / 2) * params.ru_height_m
        at = np.where(placed, rack_any, 0)
        return {
            "rack": np.where(placed, rack_any, NONE), "rack_any": rack_any,
            "x": np.where(placed, self.r_x[at] if len(self.r_x) else np.nan, np.nan),
            "y": np.where(placed, self.r_y[at] if len(self.r_y) else np.nan, np.nan),
            "h": np.where(placed, height, np.nan),
            "ru": np.nan_to_num(ru, nan=0.0).astype(np.int64),
        }

    def _cage_optics(self, cages: dict) -> tuple[dict[int, int], float]:
        """(cage -> optic index, the optics' watts) of a cage table, worked out once per shared
        table (a loaded file's devices of one kind share theirs: 16,544 devices, ~20 tables)."""
        if not cages:  # a device with no cage settings (each has its own empty table)
            return _NO_OPTICS
        known = self._optics_memo.get(cages)
        if known is not None:
            return known
        optic_idx = self.cindex.optic_idx
        optics = {c: optic_idx[cfg.transceiver] for c, cfg in cages.items() if cfg.transceiver}
        watts = float(sum(map(self.cindex.o_power_list.__getitem__, optics.values()))) if optics else 0.0
        return self._optics_memo.put(cages, (optics, watts))

    def _with_engines(self, model: DeviceModel, optics: dict[int, int]) -> dict[int, int]:
        """`optics` (cage -> optic index) with the built-in optical engine of every co-packaged
        optics cage that names no optic of its own (model/fit.py `installed_optic`); engines
        add no watts (the switch's figure has them)."""
        index = self.cindex.optic_idx
        engines = {cage: index[engine] for cage, engine in model.optical_engines.items()
                   if engine in index}
        return {**engines, **optics}

    def plane_index(self, plane: str | None) -> int:
        """The number of a compute plane (1-based, in order of first use), 0 for none."""
        if not plane:
            return 0
        index = self.plane_ids.get(plane)
        if index is None:
            index = self.plane_ids[plane] = len(self.plane_ids) + 1
            self.plane_names.append(plane)
        return index

    def load_devices(self) -> None:
        devices = list(self.doc.devices.values())
        self.dev_ids = [d.id for d in devices]
        self.dev_row = {d: i for i, d in enumerate(self.dev_ids)}
        self.dev_obj = list(devices)
        # devices configured alike share one `_device_config` (16,544 devices: ~20 kinds)
        kinds: dict[tuple, tuple] = {}
        configs = []
        ports = self.doc.ports
        for device in devices:
            key = (device.model, device.role, id(ports(device.id)), id(device.cages) if device.cages else 0,
                   device.plane, _mtu_tag(device) if device.tags else 0)
            config = kinds.get(key)
            if config is None:
                config = kinds[key] = self._device_config(device)
            configs.append(config)
        self.dev_models = [c[1] for c in configs]
        self.dev_ports = [c[2] for c in configs]
        self.dev_optics = [c[3] for c in configs]
        n = len(devices)
        columns = list(zip(*[c[0] for c in configs], strict=True)) if configs else []
        self.d = {name: np.zeros(n, dtype=dtype) for name, dtype in self.DEVICE_COLUMNS}
        for name, values in zip(self.CONFIG_COLUMNS, columns, strict=False):
            self.d[name][:] = values
        for name, values in self._places(devices, self.d["height"]).items():
            self.d[name][:] = values

    def set_device(self, device_id: str) -> int | None:
        """Re-read one device (added, changed or removed); returns its row or None."""
        device = self.doc.devices.get(device_id)
        row = self.dev_row.get(device_id)
        if device is None:
            if row is not None:
                self.d["alive"][row] = False
                self.dev_ids[row] = None
                self.dev_obj[row] = None
                del self.dev_row[device_id]
            return None
        if row is None:
            row = len(self.dev_ids)
            self.dev_ids.append(device_id)
            self.dev_row[device_id] = row
            self.dev_obj.append(device)
            self.dev_models.append(None)
            self.dev_ports.append(None)
            self.dev_optics.append(None)
            for name in self.d:
                self.d[name] = _grow(self.d[name], row + 1)
        values, model, pmap, optics = self._device_config(device)
        self.dev_obj[row] = device
        self.dev_models[row] = model
        self.dev_ports[row] = pmap
        self.dev_optics[row] = optics
        d = self.d
        for name, value in zip(self.CONFIG_COLUMNS, values, strict=True):
            d[name][row] = value
        for name, value in zip(self.PLACE_COLUMNS, self._device_place(device, model.height_ru),
                               strict=True):
            d[name][row] = value
        return row

    def device_rows(self) -> np.ndarray:
        return np.flatnonzero(self.d["alive"][: self.n_devices]) if self.n_devices else np.zeros(0, np.int64)

    # ------------------------------------------------------------------ links
    def load_links(self) -> None:
        # the document's columns (model/link_table.py): no Link object is made or read
        ids, ends_a, ends_b, cab, lm, asm, rail = self.doc.links.columns(
            "id", "a", "b", "cable", "length_m", "assembly", "rail")
        n = len(ids)
        self.l = {name: np.zeros(n, dtype=dtype) for name, dtype in self.LINK_COLUMNS}
        if not n:
            self.link_ids, self._link_row, self.a_port, self.b_port, self.assembly = [], {}, [], [], []
            return
        ap, bp = list(map(_SECOND, ends_a)), list(map(_SECOND, ends_b))
        self.link_ids = ids
        self._link_row = None  # built on first use: a clean full run never needs it
        self.a_port, self.b_port, self.assembly = ap, bp, asm
        a_rows, b_rows, a_ep, b_ep = self._end_rows(ends_a, ends_b)
        del ends_a, ends_b
        if min(a_ep.min(), b_ep.min()) < 0:  # the document never holds one
            raise KeyError("a link end on no port of its device")
        # an end's optic: the device's cage -> optic map at the endpoint's cage, a take in a
        # table of the distinct maps
        ep_cage = self.ep.arrays()["cage"]
        optics_of, optics_maps = _distinct(self.dev_optics)
        _cages, opt_table = arrays.lookup_table(optics_maps, NONE,
                                                keys=range(int(ep_cage.max()) + 1))
        a_opt = opt_table[optics_of[a_rows], ep_cage[a_ep]]
        b_opt = opt_table[optics_of[b_rows], ep_cage[b_ep]]
        cable_idx = self.cindex.cable_idx
        col = self.l
        col["alive"][:] = True
        col["a"][:] = a_rows
        col["b"][:] = b_rows
        col["a_ep"][:] = a_ep
        col["b_ep"][:] = b_ep
        col["a_opt"][:] = a_opt
        col["b_opt"][:] = b_opt
        col["cable"][:] = np.fromiter(map(cable_idx.__getitem__, cab), np.int64, n)
        # mostly None: skip the conversion when nothing is set
        col["manual_len"][:] = np.nan if lm.count(None) == n else np.array(lm, dtype=float)
        col["rail_tag"][:] = np.nan if rail.count(None) == n else np.array(rail, dtype=float)
        if asm.count(None) != n:
            col["has_asm"][:] = np.fromiter(map(is_not, asm, repeat(None)), bool, n)

    def _end_rows(self, ends_a: list[tuple[str, str]], ends_b: list[tuple[str, str]]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(A device rows, B device rows, A endpoints, B endpoints) of the links' ends.  An
        end's endpoint is its device's port map (one of a few shared ones) at its port name:
        from the numbers the document kept of a file opened and not changed since (its devices
        are these rows, end_check.py), else a take in a table of the distinct maps (one dict
        look-up per end, for the name's code) after a look-up of each end's device."""
        resolved = self.doc.loaded_ends()
        if resolved is not None and resolved.device_ids == self.dev_ids:
            a_ep, b_ep = resolved.values_at_ends(self.dev_ports, NONE)
            a_rows, b_rows = (rows.astype(np.int64) for rows in resolved.devices)
            return a_rows, b_rows, a_ep, b_ep
        n = len(ends_a)
        dev_row = self.dev_row
        a_rows = np.fromiter(map(dev_row.__getitem__, map(_FIRST, ends_a)), np.int64, n)
        b_rows = np.fromiter(map(dev_row.__getitem__, map(_FIRST, ends_b)), np.int64, n)
        port_map_of, port_maps = _distinct(self.dev_ports)
        codes, ep_table = arrays.lookup_table(port_maps, NONE)
        a_ep = ep_table[port_map_of[a_rows],
                        np.fromiter(map(codes.__getitem__, map(_SECOND, ends_a)), np.int64, n)]
        b_ep = ep_table[port_map_of[b_rows],
                        np.fromiter(map(codes.__getitem__, map(_SECOND, ends_b)), np.int64, n)]
        return a_rows, b_rows, a_ep, b_ep

    def _link_values(self, link: Link) -> tuple:
        a_row, b_row = self.dev_row[link.a.device], self.dev_row[link.b.device]
        a_ep = self.dev_ports[a_row][link.a.port]
        b_ep = self.dev_ports[b_row][link.b.port]
        cage = self.ep.arrays()["cage"]
        return (
            True, a_row, b_row, a_ep, b_ep,
            self.dev_optics[a_row].get(int(cage[a_ep]), NONE),
            self.dev_optics[b_row].get(int(cage[b_ep]), NONE),
            self.cindex.cable_idx[link.cable],
            np.nan if link.length_m is None else link.length_m,
            np.nan if link.rail is None else link.rail,
            link.assembly is not None,
        )

    def set_link(self, link_id: str) -> int | None:
        """Re-read one link (added, changed or removed); returns its row or None."""
        link = self.doc.links.get(link_id)
        row = self.link_row.get(link_id)
        if link is None:
            if row is not None:
                self.l["alive"][row] = False
                self.link_ids[row] = None
                self.a_port[row] = self.b_port[row] = self.assembly[row] = None
                del self.link_row[link_id]
            return None
        if row is None:
            row = len(self.link_ids)
            self.link_ids.append(link_id)
            self.link_row[link_id] = row
            self.a_port.append(None)
            self.b_port.append(None)
            self.assembly.append(None)
            for name in self.l:
                self.l[name] = _grow(self.l[name], row + 1)
        values = self._link_values(link)
        col = self.l
        for (name, _dtype), value in zip(self.LINK_COLUMNS, values, strict=False):
            col[name][row] = value
        self.a_port[row] = link.a.port
        self.b_port[row] = link.b.port
        self.assembly[row] = link.assembly
        return row

    def link_rows(self) -> np.ndarray:
        return np.flatnonzero(self.l["alive"][: self.n_links]) if self.n_links else np.zeros(0, np.int64)

    def nic_links(self) -> NicLinks:
        """The live fabric links between a server (tier 0) and a switch (tier >= 1)."""
        col = self.l
        rows = self.link_rows()
        ta, tb = col["tier_a"][rows], col["tier_b"][rows]
        fabric = col["fabric"][rows]
        a_server = fabric & (ta == 0) & (tb >= 1)
        nic = a_server | (fabric & (tb == 0) & (ta >= 1))
        a_server = a_server[nic]
        rows = rows[nic]
        a, b = col["a"][rows], col["b"][rows]
        return NicLinks(rows, np.where(a_server, a, b), np.where(a_server, b, a),
                        np.where(a_server, col["a_ep"][rows], col["b_ep"][rows]))

    def rows_of_links(self, link_ids: Iterable[str]) -> np.ndarray:
        """The rows of the links of `link_ids` this store has, in row order (looked up in C:
        a checked fix runs the cage rules of ~150 devices, each reading its links' rows)."""
        found = np.fromiter(map(self.link_row.get, link_ids, repeat(-1)), dtype=np.int64)
        return np.sort(found[found >= 0])

    # ------------------------------------------------------------------ derived link columns
    def derive(self, rows: np.ndarray) -> None:
        """Compute the derived link columns for `rows` (all rows in a full run)."""
        if not len(rows):
            return
        col, d = self.l, self.d
        ep = self.ep.arrays()
        a, b = col["a"][rows], col["b"][rows]
        a_ep, b_ep = col["a_ep"][rows], col["b_ep"][rows]
        tier_a, tier_b = d["tier"][a], d["tier"][b]
        col["tier_a"][rows] = tier_a
        col["tier_b"][rows] = tier_b
        col["gbps"][rows] = np.minimum(ep["speed"][a_ep], ep["speed"][b_ep])
        col["fabric"][rows] = ep["fabric"][a_ep] & ep["fabric"][b_ep] & ~d["mgmt"][a] & ~d["mgmt"][b]
        # NIC rail: the rail tag, else the NIC's ordinal in its server's compute ports
        tag = col["rail_tag"][rows]
        a_nic = (tier_a == 0) & (tier_b >= 1)
        b_nic = (tier_b == 0) & (tier_a >= 1)
        ordinal = np.where(a_nic, ep["rail"][a_ep], np.where(b_nic, ep["rail"][b_ep], 0))
        rail = np.where(np.isnan(tag), ordinal, np.nan_to_num(tag)).astype(np.int64)
        col["rail"][rows] = np.where(a_nic | b_nic, rail, 0)
        # lengths: manual wins, else the estimate from rack positions (model/floor.py formula)
        params = self.settings.lengths
        rack_a, rack_b = d["rack"][a], d["rack"][b]
        placed = (rack_a != NONE) & (rack_b != NONE)
        same = rack_a == rack_b
        col["same"][rows] = np.where(placed, same.astype(np.int64), NONE)
        ha, hb = d["h"][a], d["h"][b]
        tray = np.maximum(np.maximum(params.tray_height_m, ha), hb)
        across = (tray - ha) + (tray - hb) + np.abs(d["x"][a] - d["x"][b]) + np.abs(d["y"][a] - d["y"][b])
        inside = np.abs(ha - hb) + params.in_rack_m
        route = np.where(same, inside, across)
        factor = 1 + params.slack_percent / 100
        estimate = np.rint((route * factor + params.slack_m) * 100) / 100
        estimate = np.where(placed, estimate, np.nan)
        manual_len = col["manual_len"][rows]
        manual = ~np.isnan(manual_len)
        length = np.where(manual, manual_len, estimate)
        col["manual"][rows] = manual
        col["length"][rows] = length
        # signature of (ends, optics, cable): compatibility findings and reach per signature
        cable = col["cable"][rows]
        kind = ep["kind"]
        sig = self.sigs.assign(kind[a_ep], col["a_opt"][rows], kind[b_ep], col["b_opt"][rows], cable)
        col["sig"][rows] = sig
        col["reach"][rows] = self.sigs.reach[sig]
        col["copper"][rows] = self.cindex.c_copper[cable]
        # the stock length to order: the first rung of the cable's own ladder that covers it
        ordered = np.full(len(rows), np.nan)
        known = ~np.isnan(length) & (cable != NONE)
        if known.any():
            for c in arrays.unique(cable[known]).tolist():
                pick = known & (cable == c)
                ladder, stock = self.cindex.ladders[c], self.cindex.stocks[c]
                at = np.searchsorted(ladder, length[pick], side="left")
                values = np.full(len(at), np.nan)
                ok = at < len(ladder)
                values[ok] = stock[at[ok]]
                ordered[pick] = values
        col["ordered"][rows] = ordered

    # ------------------------------------------------------------------ per-device sums
    def aggregate(self, dev_rows: np.ndarray, link_rows: np.ndarray) -> None:
        """Sum the links in `link_rows` (every link of every device in `dev_rows`) into the
        per-device columns of `dev_rows`."""
        if not len(dev_rows):
            return
        col, d = self.l, self.d
        ep = self.ep.arrays()
        n = self.n_devices
        rows = link_rows
        dev = np.concatenate([col["a"][rows], col["b"][rows]])
        t_self = np.concatenate([col["tier_a"][rows], col["tier_b"][rows]])
        t_other = np.concatenate([col["tier_b"][rows], col["tier_a"][rows]])
        ends_ep = np.concatenate([col["a_ep"][rows], col["b_ep"][rows]])
        gbps = np.tile(col["gbps"][rows], 2)
        fabric = np.tile(col["fabric"][rows], 2)
        nolen = np.tile(np.isnan(col["length"][rows]), 2)

        def count(mask: np.ndarray | None = None, weights: np.ndarray | None = None) -> np.ndarray:
            sel = dev if mask is None else dev[mask]
            w = None if weights is None else (weights if mask is None else weights[mask])
            return np.bincount(sel, weights=w, minlength=n)[dev_rows]

        up = fabric & (t_other > t_self)
        down = fabric & (t_other < t_self)
        peer = fabric & (t_other == t_self)
        d["up"][dev_rows] = np.rint(count(up, gbps)).astype(np.int64)
        d["down"][dev_rows] = np.rint(count(down, gbps)).astype(np.int64)
        d["peer"][dev_rows] = np.rint(count(peer, gbps)).astype(np.int64)
        d["links"][dev_rows] = count()
        d["fabric_used"][dev_rows] = count(ep["fabric"][ends_ep])
        d["compute_linked"][dev_rows] = count((ep["rail"][ends_ep] > 0) & (t_self == 0))
        d["nolen"][dev_rows] = count(nolen)
        d["nic_links"][dev_rows] = count(down & (t_other == 0))
        # link ends that can break the cage rules (rules_device.cage_check): an integrated or
        # splitter cable end, or more legs in the cage than its optic has optical ports
        cindex = self.cindex
        cable = np.tile(col["cable"][rows], 2)
        opt = np.concatenate([col["a_opt"][rows], col["b_opt"][rows]])
        flag = (cable != NONE) & (~cindex.c_fibre[cable] | (cindex.c_legs[cable] > 1))
        flag |= ep["legs"][ends_ep] > cindex.o_ports[opt]
        d["cage_flag"][dev_rows] = count(flag)
        # legs stranded: unused legs of split cages that carry at least one link
        code = dev * MAX_CAGE + ep["cage"][ends_ep]
        uniq, first, used = arrays.unique(code, return_index=True, return_counts=True)
        legs = ep["legs"][ends_ep][first]
        stranded = np.where(legs > 1, legs - used, 0)
        per_dev = np.bincount(uniq // MAX_CAGE, weights=stranded, minlength=n)[dev_rows]
        d["stranded"][dev_rows] = np.rint(per_dev).astype(np.int64)


def _distinct(per_row: list[dict | None]) -> tuple[np.ndarray, list[dict]]:
    """Each row's dict as its number among the distinct dicts (by identity; rows share a few),
    and those dicts (a row without one: an empty dict)."""
    numbers, distinct = arrays.by_identity(per_row)
    return numbers, [table if table is not None else {} for table in distinct]


def _table_summary(endpoints: Endpoints, pmap: dict[str, int]) -> tuple[int, int]:
    """(compute NIC ports, fabric legs) of a port table, cached by the map's identity."""
    cached = _SUMMARIES.get(pmap)
    if cached is not None:
        return cached
    compute = fabric = 0
    cindex = endpoints.cindex
    for ep in pmap.values():
        if endpoints.rail_of(ep):
            compute += 1
        if cindex.groups[endpoints.group_of(ep)].group.fabric:
            fabric += 1
    return _SUMMARIES.put(pmap, (compute, fabric))


#: what a device with no cage settings holds: no optics, no watts (read only)
_NO_OPTICS: tuple[dict[int, int], float] = ({}, 0.0)

#: port map -> (compute NIC ports, fabric legs)
_SUMMARIES: IdentityMemo[tuple[int, int]] = IdentityMemo(16_384)

