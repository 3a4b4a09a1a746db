"""Failure what-if: what a set of failed links, devices or optics does to every workload.

The engine works on a `snapshot()` copy of the user's document (never on the document itself):
it removes the failed links from the copy through the document API, re-runs the workload
analysis incrementally (`Analyzer.update`, with no design rules: only the metrics are needed),
reads the results and puts the links back.  Per workload it reports, before and after:

- **GPUs that lose all paths**: every NIC of the GPU is down (its link or its switch failed) or
  its switch is cut off from the part of the fabric that holds most of the workload's NICs;
- **GPUs whose bandwidth drops**, and by how much.  A GPU's bandwidth is its NICs' line rate times
  the tightest bound (uplink capacity / demand, the workload model of docs/rules.md "Bandwidth
  per workload") of its first-hop switch and of the switches above it; GPU g of a server with k
  NIC ports (the ports of its `compute` cage group, else all fabric ports, in GPU order by the
  catalog's GPU-to-port map) uses NIC g * k // gpus (several GPUs share a NIC when k < gpus; a GPU owns several when k > gpus);
- the workload's per-GPU bandwidth under its pattern (the mean over its GPUs), the bottleneck,
  the **max-flow bisection** between the two halves of its servers (the analysis' own, on the
  failed copy), and the **all-reduce estimate** (the analysis' own: it runs at the pace of the
  slowest member server, as every step of a collective waits for its slowest rank; a leaf lost
  in one plane of a two-plane design halves 64 servers' NICs on one rail, and every ring waits
  for them);
- whether the failure **partitions** the workload: its servers no longer form one connected
  group over the fabric (a server with no NIC left counts as a group of its own).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..analysis.bandwidth import WorkloadMetrics
from ..analysis.engine import Analyzer
from ..analysis.report import AnalysisReport
from ..analysis.state import State
from ..analysis.workload_bounds import out_fraction, row_bounds
from ..model.document import FabricDocument
from ..model.edits import AddLink, Operation, RemoveLink
from .failures import Failure
from .flow import FabricArrays

EPS = 1e-6


@dataclass(frozen=True)
class GpuChange:
    server: str  # device name
    gpu: int  # 1-based
    ports: tuple[str, ...]
    before_gbps: float
    after_gbps: float


@dataclass(frozen=True)
class WorkloadState:
    """One workload's numbers in one state of the fabric (intact or failed)."""

    per_gpu_gbps: float
    bottleneck: str
    bisection_gbps: float  # max-flow across the worst of its cuts (fabric_paths.Bisection)
    allreduce_ms: float | None
    gpu_gbps: np.ndarray = field(repr=False, compare=False)
    gpu_path: np.ndarray = field(repr=False, compare=False)  # bool: the GPU still has a path
    groups: int = 1  # connected groups of its servers
    #: the server whose GPUs get the least bandwidth (the pace of a ring) and that bandwidth
    slowest_server: str | None = None
    slowest_gbps: float | None = None
    rail_aligned_gbps: float = 0.0  # max-flow between the two halves of its servers
    cross_rail_gbps: float | None = None  # between the halves of every server's rails
    cross_rail_cut: str = ""  # e.g. "rails 1-4 | 5-8"
    worst_cut: str = "rail-aligned"


@dataclass(frozen=True)
class WorkloadImpact:
    id: str
    name: str
    gpus: int
    before: WorkloadState
    after: WorkloadState
    lost: tuple[GpuChange, ...]
    reduced: tuple[GpuChange, ...]

    @property
    def partitioned(self) -> bool:
        return self.after.groups > 1

    @property
    def drop_fraction(self) -> float:
        """Share of the workload's per-GPU bandwidth lost (0..1)."""
        if self.before.per_gpu_gbps <= 0:
            return 0.0
        return max(0.0, 1 - self.after.per_gpu_gbps / self.before.per_gpu_gbps)

    def reduced_summary(self) -> list[tuple[float, float, int]]:
        """(before, after, GPUs) for each distinct drop, the largest drop first."""
        counts = Counter((g.before_gbps, g.after_gbps) for g in self.reduced)
        return sorted(((b, a, n) for (b, a), n in counts.items()), key=lambda x: (x[1] - x[0], -x[2]))

    def to_json(self, limit: int = 64) -> dict[str, Any]:
        def state(s: WorkloadState) -> dict[str, Any]:
            return {"per_gpu_gbps": s.per_gpu_gbps, "bottleneck": s.bottleneck,
                    "bisection_gbps": s.bisection_gbps,
                    "bisection": {"worst_cut": s.worst_cut,
                                  "rail_aligned_gbps": s.rail_aligned_gbps,
                                  "cross_rail_gbps": s.cross_rail_gbps,
                                  "cross_rail_cut": s.cross_rail_cut},
                    "allreduce_ms": s.allreduce_ms, "server_groups": s.groups,
                    "slowest_server": s.slowest_server, "slowest_gbps_per_gpu": s.slowest_gbps}

        def gpu(g: GpuChange) -> dict[str, Any]:
            return {"server": g.server, "gpu": g.gpu, "ports": list(g.ports),
                    "before_gbps": g.before_gbps, "after_gbps": g.after_gbps}

        return {
            "id": self.id, "name": self.name, "gpus": self.gpus,
            "before": state(self.before), "after": state(self.after),
            "partitioned": self.partitioned,
            "gpus_lost_all_paths": len(self.lost),
            "gpus_bandwidth_reduced": len(self.reduced),
            "reduced": [{"before_gbps": b, "after_gbps": a, "gpus": n}
                        for b, a, n in self.reduced_summary()],
            "lost": [gpu(g) for g in self.lost[:limit]],
            "lost_truncated": max(0, len(self.lost) - limit),
        }


@dataclass(frozen=True)
class WhatIfResult:
    failure: Failure
    links: int  # links taken down
    workloads: tuple[WorkloadImpact, ...]
    like: str | None = None  # a sweep copied this result from that failure of the same class

    @property
    def partitioned(self) -> bool:
        return any(w.partitioned for w in self.workloads)

    @property
    def gpus_lost(self) -> int:
        return sum(len(w.lost) for w in self.workloads)

    @property
    def gpus_reduced(self) -> int:
        return sum(len(w.reduced) for w in self.workloads)

    @property
    def worst_drop(self) -> float:
        return max((w.drop_fraction for w in self.workloads), default=0.0)

    def impact_key(self) -> tuple:
        """Larger is worse: partition, GPUs cut off, bandwidth lost, GPUs slowed, max-flow lost."""
        flow = sum(max(0.0, w.before.bisection_gbps - w.after.bisection_gbps)
                   for w in self.workloads)
        return (self.partitioned, self.gpus_lost, round(self.worst_drop, 6), self.gpus_reduced,
                round(flow, 3))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "failed": self.failure.label, "links_down": self.links,
            "partitioned": self.partitioned, "gpus_lost_all_paths": self.gpus_lost,
            "gpus_bandwidth_reduced": self.gpus_reduced,
            "workloads": [w.to_json() for w in self.workloads]}
        if self.like is not None:  # the GPUs named are those of the evaluated failure
            data["same_impact_as"] = self.like
            for workload in data["workloads"]:
                workload.pop("lost")
                workload.pop("lost_truncated")
                workload["after"].pop("slowest_server")  # the evaluated failure's server
        return data


@dataclass
class _Gpus:
    """The GPUs of one workload and how they map onto its NIC links (fixed at the intact state)."""

    server: np.ndarray  # device row of each GPU's server
    number: np.ndarray  # 1-based GPU number in its server
    ports: list[tuple[str, ...]]  # NIC ports of each GPU
    nic_link: np.ndarray  # index into FabricArrays of each NIC entry
    nic_switch: np.ndarray  # device row of the switch of each NIC entry
    nic_server: np.ndarray  # device row of the server
    entry_gpu: np.ndarray  # GPU index of each (GPU, NIC) entry
    entry_nic: np.ndarray  # NIC index of each entry
    entry_weight: np.ndarray  # share of the NIC's bandwidth for that GPU


@dataclass(frozen=True)
class _ServerType:
    """GPU <-> NIC port mapping of one (model, cage table)."""

    gpus: int
    port_gpus: dict[str, tuple[tuple[int, float], ...]]  # port -> ((gpu index, weight), ...)
    gpu_ports: tuple[tuple[str, ...], ...]


def _server_type(doc: FabricDocument, server: str) -> _ServerType:
    gpus = max(doc.device_model(server).gpus, 1)
    ports = [p for p in doc.ports(server).values() if p.group.fabric]
    nic_ports = [p for p in ports if p.group.name == "compute"] or ports
    if nic_ports:  # in GPU order: the catalog's GPU-to-port map (DGX H100: p8 is GPU 0)
        group = nic_ports[0].group
        order = sorted(range(len(nic_ports)),
                       key=lambda j: group.rail_of_position(j, len(nic_ports)))
        nic_ports = [nic_ports[j] for j in order]
    nics = [p.name for p in nic_ports]
    k = len(nics)
    port_gpus: dict[str, list[tuple[int, float]]] = {port: [] for port in nics}
    gpu_ports: list[list[str]] = [[] for _ in range(gpus)]
    if k >= gpus:
        for j, port in enumerate(nics):
            port_gpus[port].append((j * gpus // k, 1.0))
            gpu_ports[j * gpus // k].append(port)
    elif k:
        sharing = Counter(g * k // gpus for g in range(gpus))
        for g in range(gpus):
            j = g * k // gpus
            port_gpus[nics[j]].append((g, 1.0 / sharing[j]))
            gpu_ports[g].append(nics[j])
    return _ServerType(gpus, {p: tuple(v) for p, v in port_gpus.items()},
                       tuple(tuple(p) for p in gpu_ports))


def _map_gpus(doc: FabricDocument, arrays: FabricArrays, members: list[str]) -> _Gpus:
    types: dict[tuple[str, int], _ServerType] = {}
    first_gpu: dict[int, int] = {}
    server_type: dict[int, _ServerType] = {}
    g_server: list[int] = []
    g_number: list[int] = []
    g_ports: list[tuple[str, ...]] = []
    for server in dict.fromkeys(members):
        device = doc.devices.get(server)
        if device is None:
            continue
        key = (device.model, id(device.cages))
        kind = types.get(key)
        if kind is None:
            kind = types[key] = _server_type(doc, server)
        row = arrays.dev_row[server]
        first_gpu[row] = len(g_server)
        server_type[row] = kind
        g_server.extend([row] * kind.gpus)
        g_number.extend(range(1, kind.gpus + 1))
        g_ports.extend(kind.gpu_ports)
    nic_link: list[int] = []
    nic_switch: list[int] = []
    nic_server: list[int] = []
    e_gpu: list[int] = []
    e_nic: list[int] = []
    e_w: list[float] = []
    a_nic = (arrays.tier_a == 0) & (arrays.tier_b >= 1)
    b_nic = (arrays.tier_b == 0) & (arrays.tier_a >= 1)
    nic = a_nic | b_nic
    servers = np.where(a_nic, arrays.a, arrays.b)[nic].tolist()
    switches = np.where(a_nic, arrays.b, arrays.a)[nic].tolist()
    for i, a_side, server, switch in zip(np.flatnonzero(nic).tolist(), a_nic[nic].tolist(),
                                         servers, switches, strict=True):
        port = arrays.port_a[i] if a_side else arrays.port_b[i]
        kind = server_type.get(server)
        if kind is None:
            continue
        owners = kind.port_gpus.get(port)
        if not owners:
            continue
        nic = len(nic_link)
        nic_link.append(i)
        nic_switch.append(switch)
        nic_server.append(server)
        base = first_gpu[server]
        for g, w in owners:
            e_gpu.append(base + g)
            e_nic.append(nic)
            e_w.append(w)
    arr = np.array
    return _Gpus(arr(g_server, dtype=np.int64), arr(g_number, dtype=np.int64), g_ports,
                 arr(nic_link, dtype=np.int64), arr(nic_switch, dtype=np.int64),
                 arr(nic_server, dtype=np.int64), arr(e_gpu, dtype=np.int64),
                 arr(e_nic, dtype=np.int64), arr(e_w, dtype=float))


def switch_factors(state: State, workload_id: str, arrays: FabricArrays,
                   alive: np.ndarray) -> np.ndarray:
    """Per device row: min(1, the tightest bound of the switch and of every switch above it
    over the alive links) under the workload's pattern (1 where it puts no demand)."""
    model = state.wl_models[workload_id]
    store = state.store
    n = store.n_devices
    count, bw = model.count[:n], model.bw[:n]
    arrive, cone = model.arrive[:n], model.cone[:n]
    first = np.flatnonzero(count.any(axis=1))
    uppers = np.flatnonzero(cone.any(axis=1))
    total = count[first].sum(axis=0)
    up = store.d["up"][:n].astype(float)
    pattern = model.workload.pattern
    bound = np.full(n, np.inf)
    if len(first):
        demand = (bw[first] * out_fraction(count[first], total, pattern)).sum(axis=1)
        bound[first] = row_bounds(up[first], demand)
    if len(uppers):
        demand = (arrive[uppers] * out_fraction(cone[uppers], total, pattern)).sum(axis=1)
        bound[uppers] = np.minimum(bound[uppers], row_bounds(up[uppers], demand))
    # the tightest bound on the way up: tier by tier, from the top down
    live = alive[arrays.up_links]
    lower, upper = arrays.up_lower[live], arrays.up_upper[live]
    lower_tier = arrays.up_lower_tier[live]
    for tier in sorted(set(lower_tier.tolist()), reverse=True):
        pick = lower_tier == tier
        np.minimum.at(bound, lower[pick], bound[upper[pick]])
    factor = np.ones(n)
    factor[first] = np.minimum(1.0, bound[first])
    return factor


class WhatIf:
    """Failure runs against one document (copied once; the caller's document is never changed)."""

    def __init__(self, doc: FabricDocument) -> None:
        self.source = doc
        self.copy = doc.snapshot()
        self.analyzer = Analyzer(self.copy, rules=(), signature_rules=())
        report = self.analyzer.full()
        self.arrays = FabricArrays(self.analyzer.state.store)
        self.workloads = sorted(self.copy.workloads.values(), key=lambda w: w.id)
        self.gpus = {w.id: _map_gpus(self.copy, self.arrays, list(w.members)) for w in self.workloads}
        self._down: list[str] = []  # links currently removed from the copy
        self.classes: Any = None  # structural classes of the intact fabric (sweep.py, cached)
        self.base = self._measure(report, self.arrays.mask(()))

    # ---------------------------------------------------------------- one state
    def _measure(self, report: AnalysisReport, alive: np.ndarray) -> dict[str, WorkloadState]:
        state = self.analyzer.state
        metrics = {m.id: m for m in report.metrics.workloads}
        comp = self.arrays.components(alive)
        out = {}
        for workload in self.workloads:
            m: WorkloadMetrics = metrics[workload.id]
            gpus = self.gpus[workload.id]
            factor = switch_factors(state, workload.id, self.arrays, alive)
            nic_alive = alive[gpus.nic_link] if len(gpus.nic_link) else np.zeros(0, dtype=bool)
            rate = self.arrays.gbps[gpus.nic_link] * factor[gpus.nic_switch] * nic_alive
            n_gpu = len(gpus.server)
            gpu_rate = np.round(np.bincount(gpus.entry_gpu, weights=rate[gpus.entry_nic]
                                            * gpus.entry_weight, minlength=n_gpu), 4)
            # the component holding most of the workload's live NICs
            live_comp = comp[gpus.nic_switch[nic_alive]]
            main = np.bincount(live_comp).argmax() if len(live_comp) else -1
            ok = nic_alive & (comp[gpus.nic_switch] == main)
            path = np.bincount(gpus.entry_gpu, weights=ok[gpus.entry_nic].astype(float),
                               minlength=n_gpu) > 0
            groups = self._groups(gpus, nic_alive, comp)
            bottleneck = m.bottleneck_tier + (f" ({m.bottleneck_name})" if m.bottleneck_name else "")
            out[workload.id] = WorkloadState(
                m.per_gpu_gbps, bottleneck, m.bisection_gbps, m.allreduce_ms, gpu_rate, path,
                groups, m.slowest_server, m.slowest_gbps_per_gpu, m.bisection_rail_aligned_gbps,
                m.bisection_cross_rail_gbps, m.cuts.cross_rail_cut if m.cuts else "",
                m.bisection_cut)
        return out

    @staticmethod
    def _groups(gpus: _Gpus, nic_alive: np.ndarray, comp: np.ndarray) -> int:
        servers = set(gpus.nic_server.tolist())
        reached = set(gpus.nic_server[nic_alive].tolist())
        comps = set(comp[gpus.nic_server[nic_alive]].tolist())
        return len(comps) + len(servers - reached)

    # ---------------------------------------------------------------- runs
    def _set_down(self, links: frozenset[str]) -> AnalysisReport:
        """Make exactly `links` the removed ones on the copy (one apply, one incremental run)."""
        ops: list[Operation] = [AddLink(self.source.links[i]) for i in self._down if i not in links]
        ops += [RemoveLink(i) for i in sorted(links) if i not in self._down]
        if not ops:
            return self.analyzer.update(_empty_changes(self.copy))
        edit = self.copy.apply(ops)
        self._down = sorted(links)
        return self.analyzer.update(edit.changes)

    def run(self, failure: Failure) -> WhatIfResult:
        links = frozenset(i for i in failure.links if i in self.source.links)
        report = self._set_down(links)
        after = self._measure(report, self.arrays.mask(links))
        impacts = []
        for workload in self.workloads:
            before, now = self.base[workload.id], after[workload.id]
            gpus = self.gpus[workload.id]
            lost_idx = np.flatnonzero(before.gpu_path & ~now.gpu_path)
            red_idx = np.flatnonzero(now.gpu_path & (now.gpu_gbps < before.gpu_gbps - EPS))

            def change(i: int, before: WorkloadState = before, now: WorkloadState = now,
                       gpus: _Gpus = gpus) -> GpuChange:
                name = self.copy.devices[self.arrays.dev_ids[int(gpus.server[i])]].name
                return GpuChange(name, int(gpus.number[i]), gpus.ports[i],
                                 float(before.gpu_gbps[i]), float(now.gpu_gbps[i]))

            impacts.append(WorkloadImpact(
                workload.id, workload.name, len(gpus.server), before, now,
                tuple(change(i) for i in lost_idx.tolist()),
                tuple(change(i) for i in red_idx.tolist())))
        return WhatIfResult(failure, len(links), tuple(impacts))

    def restore(self) -> None:
        """Put every removed link back on the copy."""
        self._set_down(frozenset())


def _empty_changes(doc: FabricDocument):  # noqa: ANN202
    from ..model.edits import ChangeSet

    return ChangeSet(revision=doc.revision)


def what_if(doc: FabricDocument, failure: Failure) -> WhatIfResult:
    """One failure against `doc` (which is not changed)."""
    return WhatIf(doc).run(failure)
