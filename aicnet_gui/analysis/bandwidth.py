"""Bandwidth per workload: what each GPU gets through each tier, the bottleneck, bisection
bandwidth and the time of an all-reduce (formulas in docs/rules.md, "Bandwidth per workload").
The bisection is the max-flow across the cuts of the workload's GPUs that matter, on the fabric
as drawn (fabric_paths.py), not a formula: the smaller of the rail-aligned cut (the servers in
halves) and the cross-rail cut (every server's GPUs in halves by rail); both are kept.

A fluid model of a Clos fabric with ECMP:

- every member NIC injects at the same fraction phi of its line rate; its traffic goes to the
  member NICs *of the same rail* (NCCL rings and PXN all-to-all are rail-aligned, so rail-aligned
  traffic stays on its leaf);
- a switch that holds member NICs (first hop, usually a leaf) sends up the part of that traffic
  whose destination is not below it; a switch above it (upper, usually a spine) receives a share
  of each first-hop switch's upward traffic proportional to its links (ECMP) and sends up the
  part whose destination is outside the first-hop switches below it (its cone);
- the demand D on a switch's uplinks at phi = 1 gives its bound up/D; the workload runs at
  phi = min(1, min over switches of up/D).

Per workload the model keeps, per device row and rail, the member NIC count and bandwidth of
first-hop switches and the arriving traffic and cone of upper switches.  A full run builds these
matrices with numpy; an incremental run recomputes only the rows of the switches whose links
changed and, on the rails those carry, the upper switches above them (each sum re-added in the
full build's order); the bounds of the rows that changed are then evaluated again
(workload_bounds.py), the others kept.  Values are rounded (bounds to 1e-9, results to 1e-4) so
that summation order cannot change a result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from ..model import arrays
from ..model.fabric import Workload
from .collectives import (
    allreduce as allreduce_estimate,
)
from .collectives import (
    allreduce_assumptions,
    gpu_facts,
    nvlink_domains,
    nvswitch_members,
    usable_algorithm,
)
from .fabric_paths import Bisection, bisection, islands, joined_through_servers
from .nccl_tuning import NcclSystem
from .plane_paths import declared_planes, plane_bisection_gbps
from .scaleup import rail_only_term
from .state import State, WorkloadView
from .workload_bounds import BoundsCache

TIER_NAMES = {0: "server", 1: "leaf", 2: "spine", 3: "core"}


def _r(value: float) -> float:
    return round(float(value), 4)


@dataclass(frozen=True)
class WorkloadMetrics:
    id: str
    name: str
    kind: str
    pattern: str
    servers: int
    gpus: int
    nics: int
    unconnected_servers: int
    injection_gbps_per_gpu: float
    tiers: tuple[tuple[str, float], ...]  # (tier name, per-GPU Gb/s through that tier)
    per_gpu_gbps: float  # under the workload's pattern
    ring_gbps_per_gpu: float
    alltoall_gbps_per_gpu: float
    bottleneck_tier: str
    bottleneck_switch: str | None  # device id
    bottleneck_name: str | None
    bisection_gbps: float
    message_mb: float
    allreduce_ms: float | None
    target_gbps_per_gpu: float | None
    placement: str = "topology-aware"
    ring_scattered_gbps_per_gpu: float = 0.0  # ring with ranks scattered over the fabric
    domains: int = 0  # NVLink domains the workload spans (M)
    allreduce_bus_gbps: float | None = None  # nccl-tests busBW implied by allreduce_ms
    assumptions: tuple[str, ...] = ()
    # multi-plane fabrics: the bisection inside each compute plane, (plane name, Gb/s) pairs
    plane_bisection: tuple[tuple[str, float], ...] = ()
    algorithm: str = "ring"  # NCCL's all-reduce algorithm of allreduce_ms (nccl_tuning names)
    # the member server whose GPUs get the least NIC bandwidth, when below the ring's rate
    # through the fabric: the all-reduce runs at its pace (a step waits for its slowest rank)
    slowest_server: str | None = None  # its name (slowest_id: its device id)
    slowest_gbps_per_gpu: float | None = None
    slowest_id: str | None = None
    protocol: str = ""  # NCCL's protocol of allreduce_ms (LL, LL128, Simple)
    #: NCCL's own prediction of allreduce_ms, on a fabric that delivers every NIC's rate
    allreduce_nccl_ms: float | None = None
    #: the cuts behind `bisection_gbps` (their minimum): the rail-aligned and cross-rail ones
    cuts: Bisection | None = None

    @property
    def bisection_rail_aligned_gbps(self) -> float:
        """The max-flow between the two halves of the servers (rail-aligned traffic)."""
        return self.cuts.rail_aligned_gbps if self.cuts is not None else self.bisection_gbps

    @property
    def bisection_cross_rail_gbps(self) -> float | None:
        """The max-flow between each server's GPUs of the first half of its rails and those of
        the second (traffic between rails); None without such a cut (declared rail planes)."""
        return self.cuts.cross_rail_gbps if self.cuts is not None else None

    @property
    def bisection_cut(self) -> str:
        """The cut `bisection_gbps` is measured on: "rail-aligned" or "cross-rail"."""
        return self.cuts.worst_cut if self.cuts is not None else "rail-aligned"

    @property
    def plane_bisection_gbps(self) -> dict[str, float]:
        return dict(self.plane_bisection)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "pattern": self.pattern,
            "servers": self.servers,
            "gpus": self.gpus,
            "nics": self.nics,
            "unconnected_servers": self.unconnected_servers,
            "injection_gbps_per_gpu": self.injection_gbps_per_gpu,
            "tiers": dict(self.tiers),
            "per_gpu_gbps": self.per_gpu_gbps,
            "ring_allreduce_gbps_per_gpu": self.ring_gbps_per_gpu,
            "ring_allreduce_scattered_gbps_per_gpu": self.ring_scattered_gbps_per_gpu,
            "placement": self.placement,
            "all_to_all_gbps_per_gpu": self.alltoall_gbps_per_gpu,
            "bottleneck": {"tier": self.bottleneck_tier, "switch": self.bottleneck_name},
            "bisection_gbps": self.bisection_gbps,
            "bisection": {"worst_cut": self.bisection_cut,
                          "rail_aligned_gbps": self.bisection_rail_aligned_gbps,
                          "cross_rail_gbps": self.bisection_cross_rail_gbps,
                          "cross_rail_cut": self.cuts.cross_rail_cut if self.cuts else ""},
            "allreduce": {"message_mb": self.message_mb, "time_ms": self.allreduce_ms,
                          "algorithm": self.algorithm, "protocol": self.protocol,
                          "nccl_ms": self.allreduce_nccl_ms, "nvlink_domains": self.domains,
                          "bus_gbps": self.allreduce_bus_gbps,
                          "paced_by": ({"server": self.slowest_server,
                                        "gbps_per_gpu": self.slowest_gbps_per_gpu}
                                       if self.slowest_server else None)},
            "target_gbps_per_gpu": self.target_gbps_per_gpu,
            "assumptions": list(self.assumptions),
            **({"plane_bisection_gbps": self.plane_bisection_gbps}
               if self.plane_bisection_gbps else {}),
        }


class _Sums(NamedTuple):
    """What one evaluation of a workload model sums (WorkloadModel._sums)."""

    members: np.ndarray  # per device row, a member server
    gpus: int
    nics: int  # member NICs linked to a first-hop switch
    nic_total: float  # their Gb/s
    injection: float  # NIC Gb/s per GPU
    covered: np.ndarray  # per device row, a first-hop or upper switch of the workload
    rows: np.ndarray  # those rows, first-hop ones first
    tier_of: np.ndarray  # the tier of each of `rows`
    bounds: dict[str, np.ndarray]  # per pattern, the bound of each of `rows`


class WorkloadModel:
    """The per-switch matrices of one workload (see the module docstring)."""

    def __init__(self, state: State, workload: Workload) -> None:
        self.workload = workload
        self.member_ids = frozenset(workload.members)
        store = state.store
        n = store.n_devices
        members = np.zeros(n, dtype=bool)
        rows = [store.dev_row[m] for m in workload.members if m in store.dev_row]
        if rows:
            members[np.array(rows, dtype=np.int64)] = True
        self.members = members & store.d["server"][:n] & store.d["alive"][:n]
        # a rail of a multi-plane fabric is a (plane, rail) pair: each plane is its own tree, so
        # a ring stream of plane p's rail r never has to leave plane p (key rail + base * plane)
        self.base = max(int(store.l["rail"][: store.n_links].max(initial=0)) + 1, 1)
        self.rails = self.base * (len(store.plane_ids) + 1)
        self.dirty = True
        self._result: tuple[WorkloadMetrics, np.ndarray] | None = None
        self._bounds = BoundsCache()
        # (NVLink domains, all in NVSwitch domains) of the members, None: to work out
        self._nvlink: tuple[int, bool] | None = None
        self._build(state)

    # ---------------------------------------------------------------- sizes
    def _fit(self, n: int) -> None:
        if n <= len(self.members):
            return
        grow = n - len(self.members)
        self.members = np.concatenate([self.members, np.zeros(grow, dtype=bool)])
        pad = np.zeros((grow, self.rails))
        self.count = np.vstack([self.count, pad.astype(np.int64)])
        self.bw = np.vstack([self.bw, pad])
        self.arrive = np.vstack([self.arrive, pad])
        self.cone = np.vstack([self.cone, pad.astype(np.int64)])
        self.first = np.concatenate([self.first, np.zeros(grow, dtype=bool)])
        self.upper = np.concatenate([self.upper, np.zeros(grow, dtype=bool)])
        self._bounds.clear()

    # ---------------------------------------------------------------- full build
    def _build(self, state: State) -> None:
        store = state.store
        n, rails = store.n_devices, self.rails
        col = store.l
        rows = store.link_rows()
        a, b = col["a"][rows], col["b"][rows]
        ta, tb = col["tier_a"][rows], col["tier_b"][rows]
        fabric, gbps, rail = col["fabric"][rows], col["gbps"][rows], col["rail"][rows]
        a_nic = fabric & (ta == 0) & (tb >= 1)
        b_nic = fabric & (tb == 0) & (ta >= 1)
        nic = a_nic | b_nic
        server = np.where(a_nic, a, b)[nic]
        switch = np.where(a_nic, b, a)[nic]
        sel = self.members[server]
        key = rail[nic] + self.base * store.d["plane"][switch]
        code = switch[sel] * rails + key[sel]
        self.count = np.bincount(code, minlength=n * rails).reshape(n, rails).astype(np.int64)
        self.bw = np.bincount(code, weights=gbps[nic][sel], minlength=n * rails).reshape(n, rails)
        self.arrive = np.zeros((n, rails))
        self.cone = np.zeros((n, rails), dtype=np.int64)
        first = self.count.sum(axis=1) > 0
        up_link = fabric & (ta >= 1) & (tb >= 1) & (ta != tb)
        lower = np.where(ta < tb, a, b)[up_link]
        upper = np.where(ta < tb, b, a)[up_link]
        pick = first[lower]
        self._uppers_from_pairs(state, lower[pick], upper[pick], gbps[up_link][pick])
        # the rows with member NICs (first hop) and with first-hop switches below (uppers,
        # each with a cone of at least one NIC), kept up to date by refresh so that an
        # evaluation does not scan every row
        self.first = first
        self.upper = np.zeros(n, dtype=bool)
        self.upper[upper[pick]] = True
        self._bounds.clear()

    def _uppers_from_pairs(self, state: State, lower: np.ndarray, upper: np.ndarray,
                           gbps: np.ndarray) -> None:
        n = len(self.members)
        if not len(lower):
            return
        code = upper * n + lower
        uniq, inverse = arrays.unique(code, return_inverse=True)
        pair_gbps = np.bincount(inverse.reshape(-1), weights=gbps, minlength=len(uniq))
        pu, pl = uniq // n, uniq % n
        up = state.store.d["up"][:n].astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.where(up[pl] > 0, pair_gbps / np.where(up[pl] > 0, up[pl], 1), 0.0)
        for r in range(self.rails):
            self.arrive[:, r] = np.bincount(pu, weights=share * self.bw[pl, r], minlength=n)
            self.cone[:, r] = np.bincount(pu, weights=self.count[pl, r], minlength=n)

    # ---------------------------------------------------------------- incremental refresh
    def refresh(self, state: State, touched: list[int], old: dict[int, tuple],
                changed_rows: set[int]) -> bool:
        """Recompute the rows of `touched` switches and of the upper switches above them;
        `old[row]` is (up pairs, down pairs, up Gb/s, linked NICs) before the edit.  Returns False when the
        model must be rebuilt (a new rail number appeared)."""
        store = state.store
        self._fit(store.n_devices)
        if self._new_rail(state, touched):
            return False
        self._refresh_members(state, touched)
        if changed_rows:  # devices added, removed, or with a new model (GPUs, NVLink domain)
            self._nvlink = None
        # the rails on which a touched switch had or has member NICs: a sum of an upper switch
        # changes only in those (every other term of the touched switch is 0 x its share)
        rails = np.zeros(self.rails, dtype=bool)
        uppers: set[int] = set()
        for row in touched:
            rails |= self._refresh_row(state, row, old.get(row, ((), (), 0, 0)),
                                       row in changed_rows, uppers)
        self._bounds.touch(touched)
        if uppers:
            self._recompute_uppers(state, sorted(uppers), np.flatnonzero(rails))
        return True

    def _new_rail(self, state: State, touched: list[int]) -> bool:
        """Whether a touched switch carries a NIC on a rail (or sits in a plane) the model has
        no column for: then only a rebuild can hold it."""
        plane = state.store.d["plane"]
        for row in touched:
            for _server, rail, _g, _l in state.topo.nics(row):
                if rail >= self.base or plane[row] * self.base >= self.rails:
                    return True
        return False

    def _refresh_members(self, state: State, touched: list[int]) -> None:
        """A touched device that became or stopped being a member server (alive, a server, in
        the workload) flips its member flag."""
        store = state.store
        d = store.d
        for row in touched:
            if store.dev_ids[row] in self.member_ids or self.members[row]:
                member = bool(d["server"][row] and d["alive"][row]
                              and store.dev_ids[row] in self.member_ids)
                if member != self.members[row]:
                    self.members[row] = member
                    self.dirty = True
                    self._nvlink = None

    def _member_nics(self, state: State, row: int) -> tuple[np.ndarray, np.ndarray]:
        """(count, Gb/s) per rail of the member NICs linked to switch `row` now."""
        d = state.store.d
        count = np.zeros(self.rails, dtype=np.int64)
        bw = np.zeros(self.rails)
        if d["alive"][row] and d["switch"][row]:
            offset = int(d["plane"][row]) * self.base
            for server, rail, gbps, _link in state.topo.nics(row):
                if self.members[server]:
                    count[rail + offset] += 1
                    bw[rail + offset] += gbps
        return count, bw

    def _refresh_row(self, state: State, row: int, was: tuple, changed: bool,
                     uppers: set[int]) -> np.ndarray:
        """Recompute the first-hop row of touched device `row` (`was`: its (up pairs, down
        pairs, up Gb/s, linked NICs) before the edit; `changed`: a new device, model or role);
        adds to `uppers` the upper switches whose sums must be recomputed and returns the rails
        on which those sums can change."""
        d = state.store.d
        topo = state.topo
        was_up, was_down, was_val, was_linked = was
        if self.members[row] and was_linked != int(d["compute_linked"][row]):
            self.dirty = True  # a member server gained or lost a NIC link
        count, bw = self._member_nics(state, row)
        same_links = was_up == topo.up(row) and was_val == int(d["up"][row])
        if (changed or not same_links or not np.array_equal(self.count[row], count)
                or not np.array_equal(self.bw[row], bw)):
            self.dirty = True
            uppers.update(p[0] for p in was_up)
            uppers.update(p[0] for p in topo.up(row))
        rails = (self.count[row] != 0) | (self.bw[row] != 0) | (count != 0) | (bw != 0)
        self.count[row] = count
        self.bw[row] = bw
        self.first[row] = count.any()
        if changed or was_down != topo.down(row):
            self.dirty = True
            uppers.add(row)
        if changed:
            rails[:] = True  # a new model or role: no shortcut
        return rails

    def _recompute_uppers(self, state: State, uppers: list[int], rails: np.ndarray) -> None:
        """arrive and cone of `uppers` on `rails` (the other rails keep their sums) from their
        lower first-hop switches, summed in the order of the lower rows (as the full build
        does: np.bincount adds one term at a time)."""
        d = state.store.d
        topo = state.topo
        live = [u for u in uppers if d["alive"][u] and d["switch"][u]]
        gone = [u for u in uppers if not (d["alive"][u] and d["switch"][u])]
        self.arrive[gone] = 0.0
        self.cone[gone] = 0
        self.upper[gone] = False
        self._bounds.touch(uppers)
        if not live or not len(rails):
            return
        rows = np.array(live, dtype=np.int64)
        cells = np.ix_(rows, rails)
        self.arrive[cells] = 0.0
        self.cone[cells] = 0
        downs = [topo.down_array(u) for u in live]
        pairs = np.concatenate(downs)
        if len(pairs):
            # the same rows in the same order as the full build (down lists in upper order)
            at = np.repeat(np.arange(len(live)), [len(x) for x in downs])
            low = pairs[:, 0]
            keep = self.first[low] & d["switch"][low]
            at, low, g = at[keep], low[keep], pairs[:, 1].astype(float)[keep]
            ups = d["up"][low].astype(float)
            share = np.divide(g, ups, out=np.zeros(len(g)), where=ups > 0)
            k = len(rails)
            bins = (at[:, None] * k + np.arange(k)).ravel()
            terms = (share[:, None] * self.bw[np.ix_(low, rails)]).ravel()
            arrive = np.bincount(bins, weights=terms, minlength=len(live) * k)
            cone = np.bincount(bins, weights=self.count[np.ix_(low, rails)].ravel(),
                               minlength=len(live) * k)
            self.arrive[cells] = arrive.reshape(len(live), k)
            self.cone[cells] = cone.reshape(len(live), k).astype(np.int64)
        self.upper[rows] = self.cone[rows].any(axis=1)

    # ---------------------------------------------------------------- evaluation
    def evaluate(self, state: State) -> tuple[WorkloadMetrics, np.ndarray]:
        """The metrics and covered rows (cached until a refresh changes the model)."""
        n = state.store.n_devices
        if self.dirty or self._result is None or len(self._result[1]) != n:
            self._result = self._evaluate(state)
            self.dirty = False
        metrics, covered = self._result
        if metrics.bottleneck_switch is not None:  # the switch may have been renamed since
            name = state.doc.devices[metrics.bottleneck_switch].name
            if name != metrics.bottleneck_name:
                self._result = (replace(metrics, bottleneck_name=name), covered)
        if metrics.slowest_id is not None:  # renamed since, as the bottleneck above
            name = state.doc.devices[metrics.slowest_id].name
            if name != metrics.slowest_server:
                self._result = (replace(self._result[0], slowest_server=name), covered)
        if metrics.name != self.workload.name:
            self._result = (replace(self._result[0], name=self.workload.name), covered)
        return self._result

    def _evaluate(self, state: State) -> tuple[WorkloadMetrics, np.ndarray]:
        workload = self.workload
        sums = self._sums(state)
        members, bounds, injection = sums.members, sums.bounds, sums.injection
        gpus, nics, nic_total = sums.gpus, sums.nics, sums.nic_total
        # a ring whose ranks are scattered has a neighbour anywhere on its rail: the share of
        # a cone's ring traffic that leaves it is the all-to-all share (C_r - c) / (C_r - 1)
        scattered = workload.placement == "scattered"
        pattern = "all-to-all" if scattered else workload.pattern
        tiers, worst_tier, worst_row = _tier_rates(state, injection, bounds[pattern],
                                                   sums.rows, sums.tier_of)

        def per_gpu(pattern: str) -> float:
            b = bounds[pattern]
            return _r(injection * min(1.0, float(b.min()) if len(b) else 1.0))

        ring = per_gpu("ring-allreduce")
        ring_scattered = per_gpu("all-to-all")  # see `scattered` above
        cuts = _rounded_cuts(state, members)
        message = workload.message_mb or state.settings.allreduce_message_mb
        technology = state.settings.technology
        rate = ring_scattered if scattered else ring
        slowest_row, slowest = _slowest_server(state, members, rate)
        estimate, fallback, arch = self._allreduce(
            state, members, (gpus, nics, nic_total), message * 1e6,
            slowest if slowest_row is not None else rate)
        domains = estimate.domains
        allreduce = estimate.time_ms
        servers, linked = int(members.sum()), _linked_servers(state, members)
        metrics = WorkloadMetrics(
            workload.id, workload.name, workload.kind.value, workload.pattern,
            servers, gpus, nics, servers - linked, _r(injection), tuple(tiers),
            per_gpu(pattern), ring, per_gpu("all-to-all"), worst_tier,
            state.dev_id(worst_row) if worst_row is not None else None,
            state.name(worst_row) if worst_row is not None else None,
            _r(cuts.worst_gbps), float(message), allreduce, workload.target_gbps_per_gpu,
            workload.placement, ring_scattered, domains, estimate.bus_gbps,
            allreduce_assumptions(workload.placement, estimate, technology, fallback, arch)
            + _paced_note(slowest_row, slowest, rate),
            tuple((k, _r(v)) for k, v in
                  plane_bisection_gbps(state, np.flatnonzero(members)).items()),
            estimate.algorithm,
            state.name(slowest_row) if slowest_row is not None else None,
            _r(slowest) if slowest_row is not None else None,
            state.dev_id(slowest_row) if slowest_row is not None else None,
            estimate.protocol, estimate.nccl_ms, cuts,
        )
        return metrics, sums.covered

    def _sums(self, state: State) -> _Sums:
        """The members' totals and, per pattern, the bounds of the rows the workload covers
        (only the rows an edit changed are recomputed)."""
        store = state.store
        d = store.d
        n = store.n_devices
        self._fit(n)
        members = self.members[:n]
        count, bw, arrive, cone = self.count[:n], self.bw[:n], self.arrive[:n], self.cone[:n]
        gpus = int(d["gpus"][:n][members].sum())
        first = np.flatnonzero(self.first[:n])
        uppers = np.flatnonzero(self.upper[:n])
        total = count[first].sum(axis=0)
        nic_total = float(bw[first].sum())
        covered = np.zeros(n, dtype=bool)
        covered[first] = True
        covered[uppers] = True
        up = d["up"][:n].astype(float)
        rows = np.concatenate([first, uppers])
        bounds = self._bounds.bounds(first, uppers, total, up, (count, bw, arrive, cone))
        return _Sums(members, gpus, int(total.sum()), nic_total,
                     nic_total / gpus if gpus else 0.0, covered, rows, d["tier"][:n][rows],
                     bounds)

    def _allreduce(self, state: State, members: np.ndarray, counts: tuple[int, int, float],
                   message_bytes: float, pace: float) -> tuple:
        """(NCCL's all-reduce estimate, why the algorithm asked cannot run or None, the GPUs'
        architecture) for members of (GPUs, NICs, NIC Gb/s) whose GPUs get `pace` Gb/s each
        through the fabric."""
        gpus, nics, nic_total = counts
        if self._nvlink is None:  # the members' servers and their models: kept until those change
            self._nvlink = (nvlink_domains(state, members), nvswitch_members(state, members),
                            *gpu_facts(state, members))
        domains, nvswitch, arch, links = self._nvlink
        family, sharp, fallback = usable_algorithm(self.workload.algorithm,
                                                   state.settings.technology, nvswitch, arch)
        system = NcclSystem(gpus, domains, max(round(nics / domains), 1) if domains else 0,
                            nic_total / nics if nics else 0.0, arch, links, nvswitch, sharp)
        # the fabric's share of what NCCL assumes each GPU's NICs send: its node's NICs at
        # their line rate over its GPUs
        line = system.nics_per_node * system.nic_gbps / system.ppn if system.ppn else 0.0
        return (allreduce_estimate(system, message_bytes, family, pace / line if line > 0 else 0.0),
                fallback, arch)


def _tier_rates(state: State, injection: float, bound: np.ndarray, rows: np.ndarray,
                tier_of: np.ndarray) -> tuple[list[tuple[str, float]], str, int | None]:
    """(per tier, the per-GPU Gb/s through it; the bottleneck tier; its switch row, of the
    tied ones the first by id, None when the servers' NICs bound) from the bounds of `rows`
    (whose tiers are `tier_of`) under the workload's pattern."""
    tiers: list[tuple[str, float]] = [("server", _r(injection))]
    worst_tier, worst_row, worst = "server", None, 1.0
    for tier in sorted(set(tier_of.tolist())):
        in_tier = tier_of == tier
        value = float(bound[in_tier].min())
        name = TIER_NAMES.get(tier, f"tier {tier}")
        tiers.append((name, _r(injection * min(1.0, value))))
        if value < worst:
            tied = rows[in_tier][bound[in_tier] == value]
            worst_tier, worst = name, value
            worst_row = min(tied.tolist(), key=state.dev_id)
    return tiers, worst_tier, worst_row


def _rounded_cuts(state: State, members: np.ndarray) -> Bisection:
    """The members' bisection cuts (fabric_paths.bisection), rounded as every result is."""
    cuts = bisection(state, np.flatnonzero(members))
    cross = cuts.cross_rail_gbps
    return Bisection(_r(cuts.rail_aligned_gbps), None if cross is None else _r(cross),
                     cuts.cross_rail_cut)


def _slowest_server(state: State, members: np.ndarray,
                    rate: float) -> tuple[int | None, float]:
    """The linked member server whose GPUs get the least NIC bandwidth (its fabric uplinks
    over its GPUs, pooled over NVLink as the estimate assumes) and that bandwidth, when it is
    below `rate`, the ring's per-GPU rate through the fabric (of the tied ones, the first by
    id); else (None, 0): the fabric, not a server, sets the pace."""
    d = state.store.d
    n = len(members)
    rows = np.flatnonzero(members & (d["up"][:n] > 0))
    if not len(rows):
        return None, 0.0
    per_gpu = d["up"][rows] / np.maximum(d["gpus"][rows], 1)
    slowest = float(per_gpu.min())
    if not slowest < rate:
        return None, 0.0
    tied = rows[per_gpu == slowest].tolist()
    return min(tied, key=state.dev_id), slowest


def _paced_note(row: int | None, slowest: float, rate: float) -> tuple[str, ...]:
    """The assumption that states the pace (the server is named by `slowest_server`: a rename
    does not re-evaluate the workload)."""
    if row is None:
        return ()
    return (f"paced by the slowest member server ({_r(slowest):g} Gb/s per GPU, below the "
            f"ring's {_r(rate):g} through the fabric): every all-reduce step waits for it",)


def _linked_servers(state: State, members: np.ndarray) -> int:
    """How many member servers have at least one NIC linked to a switch."""
    d = state.store.d
    n = len(members)
    return int((members & (d["compute_linked"][:n] > 0)).sum())


def _leaf_rails(state: State) -> np.ndarray:
    """Per device row: the rail of its server NIC links when they all share one rail, else 0."""
    store = state.store
    nics = store.nic_links()
    switch = nics.switch
    rail = store.l["rail"][nics.rows]
    n = store.n_devices
    low = np.full(n, np.iinfo(np.int64).max)
    high = np.full(n, -1, dtype=np.int64)
    np.minimum.at(low, switch, rail)
    np.maximum.at(high, switch, rail)
    return np.where((low == high) & (high > 0), high, 0)


def _unless_partitioned(state: State, model: WorkloadModel,
                        metrics: WorkloadMetrics) -> WorkloadMetrics:
    """A workload whose GPUs sit on switch islands that nothing joins gets no collective
    bandwidth and no all-reduce time (FABRIC-PARTITIONED says why): the fluid model assumes
    every NIC reaches every other, which a partitioned fabric denies."""
    n = state.store.n_devices
    members = model.members[:n]
    found = islands(state, members)
    if len(found) < 2:
        return metrics
    if ((state.settings.rail_planes or declared_planes(state, found))
            and joined_through_servers(state, members)):
        if state.settings.rail_planes:  # all-to-all crosses rails by NVLink forwarding
            return _rail_only_alltoall(state, members, metrics)
        return metrics  # independent planes
    note = (f"the workload's GPUs sit on {len(found)} switch islands with no path between "
            "them (FABRIC-PARTITIONED): no collective over all of them can complete")
    return replace(
        metrics, tiers=tuple((name, 0.0) for name, _ in metrics.tiers), per_gpu_gbps=0.0,
        ring_gbps_per_gpu=0.0, alltoall_gbps_per_gpu=0.0, ring_scattered_gbps_per_gpu=0.0,
        bottleneck_tier="partitioned", bottleneck_switch=None, bottleneck_name=None,
        allreduce_ms=None, allreduce_bus_gbps=None, assumptions=(note, *metrics.assumptions))


def _rail_only_alltoall(state: State, members: np.ndarray,
                        metrics: WorkloadMetrics) -> WorkloadMetrics:
    """A rail-only fabric's all-to-all with its NVLink forwarding term (scaleup.py)."""
    term = rail_only_term(state, members, metrics.alltoall_gbps_per_gpu)
    if isinstance(term, str):
        note = f"rail-only all-to-all: the NVLink forwarding term is not counted ({term})"
        return replace(metrics, assumptions=(*metrics.assumptions, note))
    note = (f"rail-only all-to-all: bytes for another of the {term.rails} rails cross NVLink "
            f"first (NCCL PXN): +{term.overhead:.1%} time, (R-1)/R x "
            f"{term.network_gbps:g} / {term.nvlink_gbps:g} Gb/s NVLink (Wang et al. measure "
            "8.2-11.2 %)")
    return replace(metrics, alltoall_gbps_per_gpu=round(term.effective_gbps, 3),
                   assumptions=(*metrics.assumptions, note))


def analyze_workloads(state: State, touched: list[int] | None = None,
                      old: dict[int, tuple] | None = None,
                      changed: set[str] | frozenset[str] = frozenset(),
                      changed_rows: set[int] | frozenset[int] = frozenset()) -> None:
    """Build (touched None) or refresh the workload models, then evaluate them: fills
    `state.workloads` and the strictest oversubscription target per device row."""
    models = state.wl_models
    for wl_id in list(models):
        if wl_id not in state.doc.workloads or wl_id in changed:
            del models[wl_id]
    for wl_id, workload in state.doc.workloads.items():
        model = models.get(wl_id)
        if model is None or touched is None or not model.refresh(state, touched, old or {}, set(changed_rows)):
            models[wl_id] = WorkloadModel(state, workload)
    targets = state.settings.oversubscription
    n = state.store.n_devices
    target = np.full(n, np.nan)
    target_wl = np.full(n, -1, dtype=np.int64)
    views: dict[str, WorkloadView] = {}
    order = sorted(state.doc.workloads.values(),
                   key=lambda w: (targets.for_kind(w.kind), w.id), reverse=True)
    for k, workload in enumerate(order):
        metrics, covered = models[workload.id].evaluate(state)
        metrics = _unless_partitioned(state, models[workload.id], metrics)
        views[workload.id] = WorkloadView(covered, metrics)
        target[covered] = targets.for_kind(workload.kind)
        target_wl[covered] = k
    state.workloads = views
    state.target = target
    state.target_wl = target_wl
    state.target_ids = [w.id for w in order]
    if touched is None or len(state.leaf_rail) != n:
        state.leaf_rail = _leaf_rails(state)
    else:
        d = state.store.d
        for row in touched:
            rails = {nic[1] for nic in state.topo.nics(row)} if d["alive"][row] else set()
            state.leaf_rail[row] = rails.pop() if len(rails) == 1 and min(rails) > 0 else 0
