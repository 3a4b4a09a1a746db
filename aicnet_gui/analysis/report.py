"""`AnalysisReport`: the findings and metrics of one analysis run, as a plain immutable value.

A report owns copies of the few columns its metrics are computed from, so the analyzer can
keep changing its own columns while the GUI thread reads the report.  The per-switch,
per-link and per-device metric tables are computed from those copies on first access
(`functools.cached_property`), which keeps an incremental run fast.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..json_stream import Streamed
from ..media.facts import media_label
from ..model.catalog_entities import CableAssembly
from ..model.fabric import Device
from ..model.memo import IdentityMemo
from .bandwidth import WorkloadMetrics
from .findings import Finding, Severity
from .index import NONE, Endpoints


def _ratio(down: int, up: int) -> float | None:
    return round(down / up, 4) if up > 0 else None


LINK_FIELDS = ("length", "ordered", "reach", "manual", "cable", "sig")
#: links a chunk of `ReachMetrics.link_chunks` (~25 MB of dicts)
LINK_CHUNK = 32_768


@dataclass(frozen=True, eq=False)
class LinkColumns:
    """Per-link columns as of the last full run (`ids`, `cols`) plus the links changed since
    (`overlay`: id -> values in LINK_FIELDS order, or None when removed).  Sharing the base
    between reports keeps an incremental run from copying 100k-row columns."""

    ids: list[str | None]
    cols: dict[str, np.ndarray]
    overlay: dict[str, tuple | None]

    @cached_property
    def base_rows(self) -> np.ndarray:
        """Rows of the base that are alive and not overridden by the overlay."""
        keep = self.cols["alive"].copy()
        if self.overlay:
            index = {link_id: row for row, link_id in enumerate(self.ids) if link_id is not None}
            for link_id in self.overlay:
                row = index.get(link_id)
                if row is not None:
                    keep[row] = False
        return np.flatnonzero(keep)

    def values(self) -> list[tuple[str, tuple]]:
        """(link id, values) of every live link."""
        cols = [self.cols[name] for name in LINK_FIELDS]
        rows = self.base_rows
        result = [(self.ids[r], v) for r, v in zip(
            rows.tolist(), zip(*(c[rows].tolist() for c in cols), strict=True), strict=True)]
        result.extend((k, v) for k, v in self.overlay.items() if v is not None)
        return result


@dataclass(frozen=True, eq=False)
class MetricsData:
    """The columns the metrics read, copied at the end of a run."""

    devices: list[Device | None]
    d: dict[str, np.ndarray]
    links: LinkColumns
    cables: list[CableAssembly]
    reach_by: list[str]
    leaf_rail: np.ndarray
    tier_totals: dict[int, tuple[int, int]]
    targets: dict[str, float]
    # the worst leaf-to-top path: (ratio, switch names, their down:up), or None
    worst_path: tuple[float, tuple[str, ...], tuple[float, ...]] | None = None
    plane_names: tuple[str, ...] = ()  # compute planes (column "plane" counts from 1)


class OversubscriptionMetrics:
    """Per switch (down:up), per tier and per rail (sums), effective and worst."""

    def __init__(self, data: MetricsData) -> None:
        self._data = data

    @cached_property
    def switches(self) -> dict[str, float | None]:
        """Switch name -> downlink:uplink ratio (None: downlinks but no uplink); switches of
        the top tier (no uplinks by design: the spines of a 2-tier fabric, whose cores are not
        cabled yet, or the one leaf of a fabric without spines) are left out.  Leaves without
        uplinks are listed exactly when LEAF-NO-UPLINK reports them."""
        data = self._data
        d = data.d
        n = len(data.devices)
        switches = d["alive"][:n] & d["switch"][:n]
        tier, down, up = d["tier"][:n], d["down"][:n], d["up"][:n]
        rows = np.flatnonzero(switches & (down > 0))
        linked = switches & ((down > 0) | (up > 0))
        highest = int(tier[linked].max()) if linked.any() else 1
        top = max(highest, max(data.tier_totals) + 1 if data.tier_totals else 1)
        if top == 1 and ((switches & (tier >= 2)).any() or int((switches & (tier == 1)).sum()) > 1):
            top = 2  # leaves cut off from spines, or islands: LEAF-NO-UPLINK reports them
        keep = rows[(d["up"][rows] > 0) | (d["tier"][rows] < top)]
        result = {}
        for row, down, up in zip(keep.tolist(), d["down"][keep].tolist(), d["up"][keep].tolist(),
                                 strict=True):
            result[data.devices[row].name] = _ratio(down, up)
        return dict(sorted(result.items()))

    @cached_property
    def tiers(self) -> dict[str, float]:
        names = {1: "leaf", 2: "spine", 3: "core"}
        return {names.get(t, str(t)): round(down / up, 4)
                for t, (down, up) in sorted(self._data.tier_totals.items())}

    @cached_property
    def rails(self) -> dict[str, float]:
        """Rail -> ratio summed over the leaves that carry that rail only."""
        data = self._data
        d = data.d
        n = len(data.devices)
        result = {}
        rail = data.leaf_rail[:n]
        for r in sorted(set(rail[rail > 0].tolist())):
            rows = np.flatnonzero((rail == r) & (d["up"][:n] > 0))
            if len(rows):
                result[str(r)] = round(int(d["down"][rows].sum()) / int(d["up"][rows].sum()), 4)
        return result

    @cached_property
    def planes(self) -> dict[str, dict[str, float]]:
        """Compute plane -> {tier: down:up summed over the plane's switches of that tier that
        have uplinks} (multi-plane fabrics; {} otherwise)."""
        data = self._data
        d = data.d
        n = len(data.devices)
        if not data.plane_names or "plane" not in d:
            return {}
        names = {1: "leaf", 2: "spine", 3: "core"}
        plane, tier = d["plane"][:n], d["tier"][:n]
        live = d["alive"][:n] & d["switch"][:n] & (d["up"][:n] > 0)
        result: dict[str, dict[str, float]] = {}
        for index, name in enumerate(data.plane_names, start=1):
            rows = np.flatnonzero(live & (plane == index))
            tiers = {}
            for t in sorted(set(tier[rows].tolist())):
                pick = rows[tier[rows] == t]
                tiers[names.get(t, str(t))] = round(
                    int(d["down"][pick].sum()) / int(d["up"][pick].sum()), 4)
            result[name] = tiers
        return result

    @cached_property
    def effective(self) -> float | None:
        """The worst oversubscription along any leaf-to-top path (running product of the
        down:up ratios of the switches on it)."""
        path = self._data.worst_path
        return path[0] if path is not None else None

    @cached_property
    def effective_path(self) -> tuple[str, ...]:
        """The switches of that worst path, leaf first."""
        path = self._data.worst_path
        return path[1] if path is not None else ()

    @cached_property
    def tier_average(self) -> float | None:
        """The product of the tier totals (sum of down over sum of up per tier): an average
        over the switches, not what the worst-placed GPU sees."""
        product, worst = 1.0, None
        for _tier, (down, up) in sorted(self._data.tier_totals.items()):
            product *= down / up
            worst = max(worst or 1.0, product)
        return round(worst, 4) if worst is not None else None

    @cached_property
    def worst(self) -> tuple[str | None, float | None]:
        ratios = {k: v for k, v in self.switches.items() if v is not None}
        if not ratios:
            return None, None
        name = min(ratios, key=lambda k: (-ratios[k], k))
        return name, ratios[name]

    def to_json(self) -> dict[str, Any]:
        return {
            "switches": self.switches,
            "tiers": self.tiers,
            "rails": self.rails,
            **({"planes": self.planes} if self.planes else {}),
            "effective": self.effective,
            "effective_path": list(self.effective_path),
            "tier_average": self.tier_average,
            "worst": self.worst[1],
            "worst_switch": self.worst[0],
            "targets": self._data.targets,
        }


class ReachMetrics:
    """Per link: length (manual or estimated), the stock length to order, the media's reach."""

    def __init__(self, data: MetricsData) -> None:
        self._data = data

    @cached_property
    def links(self) -> dict[str, dict[str, Any]]:
        """Link id -> its length, stock length, reach and media, sorted by id."""
        joined: dict[str, dict[str, Any]] = {}
        for chunk in self.link_chunks():
            joined.update(chunk)
        return joined

    def link_chunks(self, size: int | None = None) -> Iterator[dict[str, dict[str, Any]]]:
        """`links` in order, as dicts of at most `size` (LINK_CHUNK) links each: `validate
        --json` writes them a chunk at a time (json_stream.py; 1.2M links' dicts were ~0.7 GB
        at once).  The columns are turned into Python values a chunk of a column at a time
        (NaN -> None, cable and signature indices -> their labels through small tables), not
        link by link."""
        data = self._data
        links = data.links
        rows = links.base_rows
        ids = [links.ids[r] for r in rows.tolist()]
        cols = {name: links.cols[name][rows] for name in LINK_FIELDS}
        overlay = [(k, v) for k, v in links.overlay.items() if v is not None]
        if overlay:
            ids += [k for k, _ in overlay]
            for i, name in enumerate(LINK_FIELDS):
                cols[name] = np.concatenate(
                    [cols[name], np.array([v[i] for _, v in overlay], dtype=cols[name].dtype)])

        # in id order: the columns taken in that order once, the dicts built in it (sorting the
        # 300k finished (id, dict) items compared tuples: 0.4 s of `validate --json`)
        order = sorted(range(len(ids)), key=ids.__getitem__)
        ids = [ids[i] for i in order]
        cols = {name: values[order] for name, values in cols.items()}

        def optional(values: np.ndarray) -> list[float | None]:
            boxed = values.astype(object)
            boxed[np.isnan(values)] = None
            return boxed.tolist()

        # index NONE (-1) picks the last entry: no cable
        media = [media_label(c) for c in data.cables] + [media_label(None)]
        cable_ids: list[str | None] = [c.id for c in data.cables] + [None]
        limited = [by or None for by in data.reach_by]
        size = size or LINK_CHUNK
        for start in range(0, len(ids), size):
            part = slice(start, start + size)
            yield {
                link_id: {
                    "length_m": length,
                    "manual": manual,
                    "ordered_m": ordered,
                    "max_reach_m": reach,
                    "limited_by": limited[sig],
                    "media": media[cable],
                    "cable": cable_ids[cable],
                }
                for link_id, length, manual, ordered, reach, sig, cable in zip(
                    ids[part], optional(cols["length"][part]),
                    cols["manual"][part].astype(bool).tolist(), optional(cols["ordered"][part]),
                    optional(cols["reach"][part]), cols["sig"][part].tolist(),
                    cols["cable"][part].tolist(), strict=True)
            }

    @cached_property
    def summary(self) -> dict[str, Any]:
        """Counts over every live link, in numpy over the base columns plus the few links
        of the overlay (a Python walk over 300k links cost 0.3 s of `aicnet validate`)."""
        links = self._data.links
        rows = links.base_rows
        overlay = [v for v in links.overlay.values() if v is not None]
        extra = list(zip(*overlay, strict=True)) if overlay else [()] * len(LINK_FIELDS)

        def column(name: str, dtype: type) -> np.ndarray:
            values = np.asarray(extra[LINK_FIELDS.index(name)], dtype=dtype)
            return np.concatenate([links.cols[name][rows].astype(dtype), values])

        length, ordered, reach = (column(name, float) for name in ("length", "ordered", "reach"))
        manual, cable = column("manual", bool), column("cable", np.int64)
        known = ~np.isnan(length)
        with np.errstate(invalid="ignore"):
            over = known & ~np.isnan(reach) & (length > reach)
        return {
            "links": len(length),
            "manual": int((known & manual).sum()),
            "estimated": int((known & ~manual).sum()),
            "unknown": int((~known).sum()),
            "over_reach": int(over.sum()),
            "no_stock_length": int((known & (cable != NONE) & np.isnan(ordered)).sum()),
            "longest_m": float(length[known].max()) if known.any() else None,
        }

    def to_json(self, streamed: bool = False) -> dict[str, Any]:
        """The summary and the links; `streamed`: the links as chunks (json_stream.Streamed)."""
        links = Streamed(dict, self.link_chunks()) if streamed else self.links
        return {"summary": self.summary, "links": links}


class BreakoutMetrics:
    """Per device and in total: cages per mode, legs used, legs stranded, free ports."""

    def __init__(self, data: MetricsData, ports: list[dict[str, int] | None],
                 endpoints: Endpoints) -> None:
        self._data = data
        self._ports = ports
        self._endpoints = endpoints

    def _modes_of(self, pmap: dict[str, int]) -> dict[str, int]:
        """{mode: cages} of one port table."""
        port_objects = self._endpoints.ports
        per_cage = {}
        for ep in pmap.values():
            port = port_objects[ep]
            per_cage[port.cage] = f"{port.legs}x{port.speed_gbps}G"
        counted: dict[str, int] = {}
        for mode in per_cage.values():
            counted[mode] = counted.get(mode, 0) + 1
        return dict(sorted(counted.items()))

    @cached_property
    def _modes(self) -> dict[str, dict[str, int]]:
        """Device id -> {mode: cages} from each device's port table."""
        cache: IdentityMemo[dict[str, int]] = IdentityMemo(None)  # devices share port maps
        out: dict[str, dict[str, int]] = {}
        for device, pmap in zip(self._data.devices, self._ports, strict=True):
            if device is None or pmap is None:
                continue
            modes = cache.get(pmap)
            if modes is None:
                modes = self._modes_of(pmap)
                cache.put(pmap, modes)
            out[device.id] = modes
        return out

    def _mode_totals(self) -> dict[str, int]:
        """{mode: cages} over every device: each shared port table counted once, times the
        devices sharing it (no per-device dictionaries)."""
        tables: dict[int, dict[str, int]] = {}
        users: Counter[int] = Counter()
        for device, pmap in zip(self._data.devices, self._ports, strict=True):
            if device is not None and pmap is not None:
                key = id(pmap)
                users[key] += 1
                if key not in tables:
                    tables[key] = pmap
        modes: dict[str, int] = {}
        for key, pmap in tables.items():
            for mode, count in self._modes_of(pmap).items():
                modes[mode] = modes.get(mode, 0) + count * users[key]
        return modes

    @cached_property
    def devices(self) -> dict[str, dict[str, Any]]:
        data = self._data
        d = data.d
        n = len(data.devices)
        rows = np.flatnonzero(d["alive"][:n])
        out = {}
        for row in rows.tolist():
            device = data.devices[row]
            out[device.name] = {
                "cages_by_mode": self._modes.get(device.id, {}),
                "legs_used": int(d["links"][row]),
                "legs_stranded": int(d["stranded"][row]),
                "free_ports": int(d["ports"][row] - d["links"][row]),
                "ports": int(d["ports"][row]),
            }
        return dict(sorted(out.items()))

    @cached_property
    def total(self) -> dict[str, Any]:
        d = self._data.d
        n = len(self._data.devices)
        alive = d["alive"][:n]
        modes = self._mode_totals()
        free = d["ports"][:n] - d["links"][:n]
        on_switches = alive & d["switch"][:n]
        return {
            "cages_by_mode": dict(sorted(modes.items())),
            "legs_used": int(d["links"][:n][alive].sum()),
            "legs_stranded": int(d["stranded"][:n][alive].sum()),
            "free_ports": int(free[alive].sum()),
            # where they are: PORTS-EXHAUSTED speaks of the switches; a DGX's unwired storage
            # and management ports are free ports too, but no room to grow the fabric
            "free_switch_ports": int(free[on_switches].sum()),
            "split_cages": sum(c for m, c in modes.items() if not m.startswith("1x")),
        }

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "devices": self.devices}


@dataclass(frozen=True, eq=False)
class Metrics:
    oversubscription: OversubscriptionMetrics
    reach: ReachMetrics
    breakouts: BreakoutMetrics
    workloads: tuple[WorkloadMetrics, ...]

    def to_json(self, streamed: bool = False) -> dict[str, Any]:
        """The metrics as JSON values; `streamed`: the per-link table as chunks, for
        json_stream.write_json."""
        return {
            "oversubscription": self.oversubscription.to_json(),
            "reach": self.reach.to_json(streamed),
            "breakouts": self.breakouts.to_json(),
            "workloads": [w.to_json() for w in self.workloads],
        }


@dataclass(frozen=True, eq=False)
class AnalysisReport:
    """Findings sorted by (severity, code, objects), the metrics, and the document revision."""

    findings: list[Finding]
    metrics: Metrics
    revision: int
    duration_ms: float = field(default=0.0)
    #: an incremental run kept the last bisection of a rewired fabric (Analyzer.defer_graph)
    graph_pending: bool = field(default=False, compare=False)

    @cached_property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == Severity.ERROR)

    @cached_property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == Severity.WARNING)

    @cached_property
    def infos(self) -> int:
        return sum(1 for f in self.findings if f.severity == Severity.INFO)

    def by_code(self, code: str) -> list[Finding]:
        return [f for f in self.findings if f.code == code]

    def to_json(self) -> dict[str, Any]:
        """Exactly the `aicnet validate --json` document."""
        return {
            "findings": [f.to_json() for f in self.findings],
            "metrics": self.metrics.to_json(),
        }

    def __eq__(self, other: object) -> bool:
        """Same findings and metrics (the run time does not count)."""
        if not isinstance(other, AnalysisReport):
            return NotImplemented
        return self.revision == other.revision and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]
