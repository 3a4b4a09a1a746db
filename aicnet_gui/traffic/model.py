"""The traffic model of one design: a workload's collective as NCCL runs it on the drawn fabric,
routed by a load-balancing mode, rates by max-min fairness, and the bus bandwidth nccl-tests
would show.

For a workload (its member servers, collective, message size, placement) and a mode:

1. NCCL's algorithm and protocol for the message and job size (analysis/nccl_tuning.py);
2. its flows between the NICs (flows.py): ring or tree channels, or all-to-all pairs;
3. each switch's mode (analysis/load_balancing.py: the mode asked where the switch and the NICs
   run it, else what they do run) and the routing (routing.py), `seeds` times where a draw is
   random (ECMP hashes, scattered ranks);
4. max-min fair rates (fairness.py): the collective moves at its slowest flow, the first level;
   the *fabric share* is that pace over the pace of the same flows when only the NICs limit
   them (every switch-to-switch link unlimited): 1 on a non-blocking fabric with spraying.
   Every flow carries the same bytes, so over the collective each averages that pace: a link's
   load is its flows x the pace (the bottleneck links at 100 %); the max-min throughput (every
   flow at its fair rate, the steady state of a traffic matrix that never ends) is reported
   too;
5. NCCL's predicted time with the network part at that share, and nccl-tests' busBW from it.

`TrafficModel(doc).workload(id, modes)` runs it (in any thread: it reads a document snapshot
and writes nothing; `progress(fraction, text)` is called as it goes and `cancel()` is asked
between steps, raising `Cancelled`).  `traffic_for(doc, workload_id, mode)` is the one call a
canvas layer or a histogram needs: per-link loads by link id, the hottest links, the histogram.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import numpy as np
from scipy.sparse import csr_matrix

from ..analysis.collectives import gpu_facts, nvlink_domains, nvswitch_members, usable_algorithm
from ..analysis.fabric_paths import bisection_order
from ..analysis.load_balancing import NAMES, switch_modes
from ..analysis.nccl_tuning import NcclSystem, Tuning, alltoall_bus_gbps, alltoall_time_us
from ..analysis.state import State
from ..model.document import FabricDocument
from ..model.fabric import Workload
from ..model.load_balancing_modes import MODES as ALL_MODES
from . import flows as flowsets
from .fairness import Allocation, first_level, incidence_matrix, max_min
from .network import Network
from .params import MODES, TrafficParams
from .result import LinkLoad, ModeResult, WorkloadTraffic, histogram, median_draw, percentile
from .routing import MODE_CODE, Cancelled, Routed, route

#: levels of the max-min filling beyond which the groups left keep the rate they reached
MAX_LEVELS = 512

Progress = Callable[[float, str], None]
Cancel = Callable[[], bool]


class UnknownWorkload(KeyError):
    """A workload id the design does not have."""


def load_state(doc: FabricDocument) -> State:
    """The analysis columns of `doc` (what a full run starts from), without running a rule."""
    from ..analysis.refresh import build

    state = State.load(doc, [])
    build(state)
    return state


@dataclass
class _Job:
    """What one workload's traffic is computed from."""

    workload: Workload
    servers: list[int]  # member server rows in rank order (topology-aware)
    system: NcclSystem
    collective: str  # allreduce / alltoall
    family: str
    message_bytes: float
    domain_servers: int
    notes: list[str] = field(default_factory=list)


class TrafficModel:
    """One design's traffic (see the module docstring)."""

    def __init__(self, doc: FabricDocument, params: TrafficParams | None = None,
                 failed: Iterable[str] = (), state: State | None = None) -> None:
        self.doc = doc
        self.params = params or TrafficParams()
        self.state = state if state is not None else load_state(doc)
        self.failed = frozenset(failed)
        self.network = Network(self.state, self.failed)

    # ------------------------------------------------------------------ the job
    def job(self, workload_id: str, message_bytes: float | None = None,
            servers: list[int] | None = None, collective: str | None = None) -> _Job:
        """The NCCL job of a workload (or of `servers`, a part of it: a job size)."""
        workload = self.doc.workloads.get(workload_id)
        if workload is None:
            raise UnknownWorkload(workload_id)
        state = self.state
        store = state.store
        n = store.n_devices
        if servers is None:
            rows = [store.dev_row[m] for m in workload.members if m in store.dev_row]
            rows = [r for r in rows if store.d["server"][r] and store.d["alive"][r]]
            servers = bisection_order(state, np.array(rows, dtype=np.int64)) if rows else []
        members = np.zeros(n, dtype=bool)
        members[np.array(servers, dtype=np.int64)] = True
        gpus = int(store.d["gpus"][:n][members].sum())
        domains = nvlink_domains(state, members)
        nvswitch = nvswitch_members(state, members)
        arch, links = gpu_facts(state, members)
        family, sharp, fallback = usable_algorithm(workload.algorithm, state.settings.technology,
                                                   nvswitch, arch)
        nics = self.network.nics
        on = members[nics.server]
        nic_count, nic_total = int(on.sum()), float(nics.gbps[on].sum())
        system = NcclSystem(gpus, domains, max(round(nic_count / domains), 1) if domains else 0,
                            nic_total / nic_count if nic_count else 0.0, arch, links, nvswitch,
                            sharp)
        per_server = store.d["gpus"][np.array(servers, dtype=np.int64)] if servers else np.ones(1)
        domain_servers = max(1, round(gpus / max(domains, 1) / max(float(per_server.mean()), 1)))
        message = message_bytes or (workload.message_mb or state.settings.allreduce_message_mb) * 1e6
        kind = collective or ("alltoall" if workload.pattern == "all-to-all" else "allreduce")
        notes = [fallback] if fallback else []
        return _Job(workload, list(servers), system, kind, family, float(message), domain_servers,
                    notes)

    # ------------------------------------------------------------------ one run
    def workload(self, workload_id: str, modes: Iterable[str] = MODES,
                 progress: Progress | None = None, cancel: Cancel | None = None,
                 job: _Job | None = None) -> WorkloadTraffic:
        """The workload's traffic under each of `modes`."""
        job = job or self.job(workload_id)
        modes = tuple(modes)
        for mode in modes:
            if mode not in ALL_MODES:
                raise ValueError(f"unknown load-balancing mode {mode!r}")
        tuning = Tuning(job.system)
        choice = (tuning.choose("allreduce", job.message_bytes, job.family)
                  if job.collective == "allreduce" else None)
        pattern = self._pattern(job, choice.algorithm if choice else None)
        results = {}
        for i, mode in enumerate(modes):
            def step(fraction: float, text: str, i: int = i) -> None:
                if progress is not None:
                    progress((i + fraction) / len(modes), text)
            results[mode] = self._mode(job, tuning, choice, pattern, mode, step, cancel)
        if progress is not None:
            progress(1.0, "done")
        return WorkloadTraffic(job.workload.id, job.workload.name, job.collective,
                               job.message_bytes, job.system.ranks, job.system.nodes,
                               choice.algorithm if choice else "alltoall",
                               choice.protocol if choice else "Simple", pattern, results,
                               tuple(job.notes))

    def median_draws(self, result: WorkloadTraffic, cancel: Cancel | None = None
                     ) -> dict[str, tuple[int, ModeResult]]:
        """For each mode of `result` drawn more than once (static ECMP), its median draw (by
        busBW) run again alone, as (draw index, result): the hot uplinks of one hash, which a
        real cluster has and the mean over the draws evens out."""
        out = {}
        for mode, mean in result.modes.items():
            if len(mean.draw_busbw_gbps) <= 1:
                continue
            index = median_draw(mean.draw_busbw_gbps)
            again = TrafficModel(self.doc, replace(self.params, seed=self.params.seed + index,
                                                   seeds=1), self.failed, state=self.state)
            out[mode] = (index, again.workload(result.id, (mode,), cancel=cancel).modes[mode])
        return out

    def _pattern(self, job: _Job, algorithm: str | None) -> str:
        """The flows the chosen algorithm puts on the network: ring, tree, alltoall, or none
        (one NVLink domain, or SHARP whose reduced data leaves each leaf once per channel)."""
        if job.system.nodes <= 1 or len(job.servers) < 2:
            return "none"
        if job.collective == "alltoall":
            return "alltoall"
        if algorithm in ("tree", "nvls_tree"):
            return "tree"
        if algorithm == "ring":
            return "ring"
        if algorithm:
            job.notes.append(f"{algorithm}: IB SHARP reduces in the switches, each leaf sends "
                             "its reduced share up once per channel; the fabric is taken to "
                             "carry it (not routed link by link)")
        return "none"

    def _classes(self, job: _Job, pattern: str, servers: list[int],
                 tuning: Tuning) -> flowsets.Classes | None:
        params = self.params
        nodes = flowsets.nodes_of(self.network, servers, job.domain_servers)
        if len(nodes) < 2:
            return None
        graph = tuning.ring_graph.channels or 1
        channels = params.channels or tuning.runtime_channels
        if pattern == "ring":
            return flowsets.ring(self.network, nodes, channels, graph, params.qps_per_connection)
        if pattern == "tree":
            return flowsets.tree(self.network, nodes, channels, graph, params.qps_per_connection)
        return flowsets.alltoall(self.network, nodes, params.p2p_channels_per_peer,
                                 params.qps_per_connection, params.pxn)

    def _mode(self, job: _Job, tuning: Tuning, choice, pattern: str, mode: str,  # noqa: ANN001
              step: Callable[[float, str], None], cancel: Cancel | None) -> ModeResult:
        params = self.params
        modes = switch_modes(self.state, mode)
        codes = np.array([MODE_CODE[m] for m in ALL_MODES])
        per_row = np.where(modes.per_row >= 0, codes[np.maximum(modes.per_row, 0)], 0)
        notes = [f"the fabric asks for {NAMES[mode]}: {s.message}" for s in modes.shortfalls]
        scattered = job.workload.placement == "scattered"
        random = scattered or bool((per_row[self.network.switch] == MODE_CODE["ecmp"]).any())
        seeds = params.seeds if (random and pattern != "none") else 1
        shares, loads, unrouted, throughput = [], np.zeros(self.network.n_links), 0, []
        base = None if scattered else (self._classes(job, pattern, job.servers, tuning)
                                       if pattern != "none" else None)
        ideal = self._ideal(base) if base is not None else 0.0
        for seed in range(seeds):
            if cancel is not None and cancel():
                raise Cancelled
            step(seed / seeds, f"{NAMES[mode]}: draw {seed + 1} of {seeds}")
            rng = np.random.default_rng(params.seed + seed)
            classes = base
            if scattered and pattern != "none":
                order = list(rng.permutation(np.array(job.servers, dtype=np.int64)).tolist())
                classes = self._classes(job, pattern, order, tuning)
                ideal = self._ideal(classes) if classes is not None else 0.0
            if classes is None or not len(classes):
                shares.append(1.0)
                continue
            share, load, rate, lost = self._share(classes, ideal, per_row, rng, cancel,
                                                  steady=seed == 0)
            shares.append(share)
            loads += load
            if rate is not None:
                throughput.append(rate)
            unrouted += lost
        loads /= seeds
        if unrouted:
            notes.append(f"{unrouted // seeds} flow classes find no path (failed or missing "
                         "links): the collective cannot complete")
        result = self._result(job, tuning, choice, mode, modes.used, notes, np.array(shares), loads,
                              seeds)
        return replace(result, throughput_gbps=float(np.mean(throughput)) if throughput else 0.0)

    def _ideal(self, classes: flowsets.Classes) -> float:
        """The pace of the flows when only the NICs limit them."""
        weight = np.bincount(classes.nic_link, weights=classes.nic_flows,
                             minlength=self.network.n_links)
        return first_level(weight, self.network.cap)

    def _share(self, classes: flowsets.Classes, ideal: float, per_row: np.ndarray,
               rng: np.random.Generator, cancel: Cancel | None, steady: bool = True
               ) -> tuple[float, np.ndarray, float | None, int]:
        """(fabric share, mean load per directed link over the collective in Gb/s, max-min
        throughput in Gb/s (None unless `steady`), unrouted classes) of one draw.  Every flow
        carries the same bytes, so over the collective's duration each averages the pace (the
        slowest flow's rate, the first level of the filling): a link's mean load is its flows x
        the pace.  The later levels (the steady state's throughput) only when `steady`."""
        allocation, routed, incidence = allocate(self.network, classes, per_row, rng, cancel,
                                                 levels=MAX_LEVELS if steady else 1)
        group = classes.group
        flows = np.asarray(incidence.sum(axis=0)).ravel()
        lost = int(routed.unrouted.sum())
        share = 0.0 if lost or ideal <= 0 else min(allocation.pace / ideal, 1.0)
        throughput = (float(np.bincount(group, weights=classes.n, minlength=classes.groups)
                            @ allocation.rates) if steady else None)
        return share, flows * allocation.pace, throughput, lost

    # ------------------------------------------------------------------ the result
    def _result(self, job: _Job, tuning: Tuning, choice, mode: str,  # noqa: ANN001
                runs: tuple[str, ...], notes: list[str], shares: np.ndarray, loads: np.ndarray,
                seeds: int) -> ModeResult:
        bus = np.array([self._bus(job, tuning, choice, s) for s in shares])
        times = np.array([self._time(job, tuning, choice, s) for s in shares])
        ideal = self._bus(job, tuning, choice, 1.0)
        util = np.divide(loads, self.network.cap, out=np.zeros_like(loads),
                         where=self.network.cap > 0)
        per_link = np.maximum(util[0::2], util[1::2])
        link_load = by_link_id(self.state.store.link_ids, self.network.link_rows,
                               np.round(per_link, 4))
        return ModeResult(
            mode, runs, tuple(notes), float(np.mean(bus)), percentile(bus, 5), percentile(bus, 95),
            float(np.mean(times)) if np.isfinite(times).all() else None, ideal,
            float(np.mean(shares)), percentile(shares, 5), percentile(shares, 95), seeds,
            link_load, self._hottest(util, loads), histogram(per_link, self.params.bins),
            draw_busbw_gbps=tuple(bus.tolist()))

    def _time(self, job: _Job, tuning: Tuning, choice, share: float) -> float:  # noqa: ANN001
        if job.collective == "alltoall":
            t = alltoall_time_us(job.system, job.message_bytes, share)
        elif choice is not None:
            t = tuning.time_us("allreduce", choice.algorithm, choice.protocol, job.message_bytes,
                               share)
        else:
            t = None
        return float("inf") if t is None or share <= 0 else t / 1000

    def _bus(self, job: _Job, tuning: Tuning, choice, share: float) -> float:  # noqa: ANN001
        """nccl-tests' bus bandwidth (Gb/s) at `share` of the NICs' rate."""
        if share <= 0:
            return 0.0
        if job.collective == "alltoall":
            t = alltoall_time_us(job.system, job.message_bytes, share)
            return alltoall_bus_gbps(job.system, job.message_bytes, t) if t else 0.0
        if choice is None:
            return 0.0
        t = tuning.time_us("allreduce", choice.algorithm, choice.protocol, job.message_bytes,
                           share)
        return tuning.bus_gbps("allreduce", job.message_bytes, t) if t else 0.0

    def _hottest(self, util: np.ndarray, loads: np.ndarray) -> tuple[LinkLoad, ...]:
        count = self.params.hottest
        if count <= 0 or not len(util):
            return ()
        top = np.argsort(-util, kind="stable")[:count]
        top = top[util[top] > 0]
        state = self.state
        net = self.network
        out = []
        for k in top.tolist():
            row = int(net.link_rows[k // 2])
            a, b = ("a", "b") if k % 2 == 0 else ("b", "a")
            out.append(LinkLoad(state.link_id(row), f"{state.end_label(row, a)} -> "
                                f"{state.end_label(row, b)}", round(float(util[k]), 4),
                                round(float(loads[k]), 2), float(net.cap[k])))
        return tuple(out)


#: links per piece of `by_link_id`
ID_PIECE = 16_384


def by_link_id(ids: list, rows: np.ndarray, values: np.ndarray) -> dict[str, float]:
    """{ids[row]: value}, built a piece at a time: one C call over 300k links holds the
    interpreter lock ~0.1-0.2 s, which froze the editor's window while the model ran in its
    worker thread; between pieces the window's thread gets its turn."""
    out: dict[str, float] = {}
    for start in range(0, len(rows), ID_PIECE):
        stop = start + ID_PIECE
        out.update(zip(map(ids.__getitem__, rows[start:stop].tolist()),
                       values[start:stop].tolist(), strict=True))
    return out


def allocate(network: Network, classes: flowsets.Classes, per_row: np.ndarray,
             rng: np.random.Generator, cancel: Cancel | None = None, levels: int = MAX_LEVELS
             ) -> tuple[Allocation, Routed, csr_matrix]:
    """Route `classes` with the switches' mode codes `per_row` (routing.MODE_CODE) and share
    the links by max-min fairness: (allocation, routes, group x link incidence)."""
    routed = route(network, classes, per_row, rng, cancel)
    group = classes.group
    rows = np.concatenate([group[routed.cls], group[classes.nic_class]])
    cols = np.concatenate([routed.link, classes.nic_link])
    vals = np.concatenate([routed.flows, classes.nic_flows])
    incidence = incidence_matrix(rows, cols, vals, (classes.groups, network.n_links))
    return max_min(incidence, network.cap, levels), routed, incidence


def traffic_for(doc: FabricDocument, workload_id: str, mode: str,
                params: TrafficParams | None = None, progress: Progress | None = None,
                cancel: Cancel | None = None, failed: Iterable[str] = ()) -> ModeResult:
    """One workload under one mode on a document (snapshot): per-link loads by link id, the
    hottest links, the histogram bins, busBW; runs in any thread (see the module docstring)."""
    model = TrafficModel(doc, params, failed)
    return model.workload(workload_id, (mode,), progress, cancel).modes[mode]


__all__ = ["Cancelled", "TrafficModel", "UnknownWorkload", "allocate", "load_state",
           "traffic_for"]
