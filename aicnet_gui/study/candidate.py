"""What a study gives back: one plain result object per candidate (picklable, so a worker
process returns it), the metrics read from its design, and the study's result as a whole.

`Candidate.to_json` is the `aicnet compare --json` entry; the keys scripts rely on are
`name, file, feasible, reason, metrics: {switches (leaf, spine, core), optics, cables, power_kw,
cost, cost_incomplete, unpriced, bisection_gbps, allreduce_ms: {workload id: ms}, pareto}`.

Two all-reduce times per workload:

- the **collective time** (`collective_ms`, the table's all-reduce, the Pareto marks' and the
  charts' time): the traffic model's (aicnet_gui/traffic) under the load balancing the
  candidate is configured to run (its `load_balancing` setting, as its switches and NICs run
  it: static ECMP hashing with its collisions, adaptive routing, spraying), or, where the
  traffic model gives no figure, the even-spread bound, labelled so (`collective_basis`
  `even-spread`, with why in the workload's `collective_note`);
- the **even-spread bound** (`even_spread_ms`; `allreduce_ms` is the same figure, kept under
  its old key): the analysis' fluid model, the fabric's bandwidth spread evenly over its links
  (no hash collisions), the fastest the fabric allows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .axes import Combination

#: what every candidate's power total counts: one basis for every part, so that no candidate's
#: switches count at a typical figure while another's count at their maximum
POWER_BASIS = ("maximum: every part at its maximum figure (devices at their maximum, NVL72 trays "
               "at their share of their rack's stated power; optics and active cables at their "
               "module power); a device model with no maximum is not counted (a lower bound, "
               ">=) and named; unverified kW: the part from secondary, unverified figures")


#: `collective_basis`: the traffic model's time under the candidate's own load balancing, or
#: the even-spread bound standing in for it
TRAFFIC = "traffic"
EVEN_SPREAD = "even-spread"


@dataclass(frozen=True)
class CollectiveEstimate:
    """One model's all-reduce estimate for a workload: the analysis' collective model (a fluid
    model of the fabric, its bandwidth spread evenly over equal paths, NCCL's ring / tree /
    SHARP algorithms), then one entry per load-balancing mode the traffic package routed
    (`mode`, the modes the switches ran under it in `runs`)."""

    model: str
    allreduce_ms: float | None
    bus_gbps: float | None
    mode: str | None = None  # the traffic model's mode (ecmp, adaptive, spray); None: analysis
    runs: tuple[str, ...] = ()  # the modes the switches ran under `mode`, most common first


@dataclass(frozen=True)
class WorkloadResult:
    id: str
    name: str
    kind: str
    pattern: str
    servers: int
    gpus: int
    per_gpu_gbps: float
    bisection_gbps: float
    allreduce_ms: float | None
    bus_gbps: float | None
    algorithm: str
    bottleneck: str
    estimates: tuple[CollectiveEstimate, ...] = ()
    #: the mode the candidate is configured to run, as the traffic model routes it (its
    #: `load_balancing` setting; flowlets are routed as adaptive); None: not routed
    load_balancing: str | None = None
    #: why the traffic model gives no time under that mode (None when it gives one)
    traffic_note: str | None = None

    @property
    def even_spread_ms(self) -> float | None:
        """The analysis' all-reduce: the fabric's bandwidth spread evenly over its links."""
        return self.allreduce_ms

    @property
    def configured(self) -> CollectiveEstimate | None:
        """The traffic model's estimate under the candidate's own load balancing, when it
        gives a time."""
        if self.load_balancing is None:
            return None
        return next((e for e in self.estimates if e.mode == self.load_balancing
                     and e.allreduce_ms is not None), None)

    @property
    def collective_ms(self) -> float | None:
        """The all-reduce under the candidate's own load balancing (the traffic model's), else
        the even-spread bound (`collective_basis` says which)."""
        configured = self.configured
        return configured.allreduce_ms if configured is not None else self.allreduce_ms

    @property
    def collective_bus_gbps(self) -> float | None:
        configured = self.configured
        return configured.bus_gbps if configured is not None else self.bus_gbps

    @property
    def collective_basis(self) -> str | None:
        """TRAFFIC, EVEN_SPREAD (no traffic figure: `collective_note` says why), or None
        when there is no time at all."""
        if self.configured is not None:
            return TRAFFIC
        return EVEN_SPREAD if self.allreduce_ms is not None else None

    @property
    def collective_note(self) -> str | None:
        """Why the collective time is the even-spread bound, when it is."""
        if self.collective_basis != EVEN_SPREAD:
            return None
        return self.traffic_note or "the traffic model gave no time under its load balancing"

    @property
    def runs(self) -> tuple[str, ...]:
        """The modes the switches run under the candidate's setting (the traffic model's)."""
        configured = self.configured
        return configured.runs if configured is not None else ()

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "kind": self.kind, "pattern": self.pattern,
                "servers": self.servers, "gpus": self.gpus, "per_gpu_gbps": self.per_gpu_gbps,
                "bisection_gbps": self.bisection_gbps, "allreduce_ms": self.allreduce_ms,
                "bus_gbps": self.bus_gbps, "algorithm": self.algorithm,
                "bottleneck": self.bottleneck,
                "even_spread_ms": self.even_spread_ms,
                "collective_ms": self.collective_ms,
                "collective_bus_gbps": self.collective_bus_gbps,
                "collective_basis": self.collective_basis,
                "collective_note": self.collective_note,
                "load_balancing": self.load_balancing, "load_balancing_runs": list(self.runs),
                "estimates": [{"model": e.model, "allreduce_ms": e.allreduce_ms,
                               "bus_gbps": e.bus_gbps, "mode": e.mode, "runs": list(e.runs)}
                              for e in self.estimates]}


@dataclass(frozen=True)
class FailureResult:
    """The worst single-switch failure (`aicnet whatif --each leaf|spine|core`)."""

    kind: str  # leaf | spine | core
    failed: str  # the switch's name
    links_down: int
    partitioned: bool
    gpus_lost: int  # GPUs with no path left
    gpus_reduced: int  # GPUs with less bandwidth
    worst_drop: float  # the largest share of a workload's per-GPU bandwidth lost (0..1)
    allreduce_before_ms: float | None  # of the study's primary workload
    allreduce_after_ms: float | None
    evaluated: str  # how many failures, in how many structural classes

    def words(self) -> str:
        if self.partitioned:
            effect = "partitions a workload"
        elif self.gpus_lost:
            effect = f"cuts {self.gpus_lost} GPUs off"
        elif self.gpus_reduced:
            effect = f"slows {self.gpus_reduced} GPUs (-{self.worst_drop:.0%} per GPU)"
        else:
            effect = "costs no GPU bandwidth"
        return f"{self.kind} {self.failed}: {effect}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "failed": self.failed, "links_down": self.links_down,
                "partitioned": self.partitioned, "gpus_lost_all_paths": self.gpus_lost,
                "gpus_bandwidth_reduced": self.gpus_reduced, "worst_drop": self.worst_drop,
                "allreduce_ms": {"before": self.allreduce_before_ms,
                                 "after": self.allreduce_after_ms},
                "evaluated": self.evaluated, "words": self.words()}


@dataclass(frozen=True)
class GrowthResult:
    """How far the requirement's growth target fits (change/growth.py's plan)."""

    target: str  # in words
    target_servers: int
    planned: bool  # False: the growth could not be planned (reason in verdict)
    fits: bool
    verdict: str
    headroom_servers: int | None  # servers that fit before re-cabling, a new spine or tier
    spines_added: int = 0
    cores_added: int = 0
    new_tier: bool = False
    cables_moved: int = 0
    cables_removed: int = 0
    devices_added: int = 0
    top_free_ports: int = 0  # free ports on the top tier's switches today

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "target_servers": self.target_servers,
                "planned": self.planned, "fits": self.fits, "verdict": self.verdict,
                "headroom_servers": self.headroom_servers, "spines_added": self.spines_added,
                "cores_added": self.cores_added, "new_tier": self.new_tier,
                "cables_moved": self.cables_moved, "cables_removed": self.cables_removed,
                "devices_added": self.devices_added, "top_free_ports": self.top_free_ports}


@dataclass(frozen=True)
class CandidateMetrics:
    """Every number of one candidate, read from its own design: the BOM (`aicnet bom`), the
    analysis (`aicnet validate`), the failure sweep (`aicnet whatif --each`) and the growth
    plan (`aicnet grow`)."""

    template: str
    technology: str
    tiers: int
    speed_gbps: int | None
    servers: int
    gpus: int
    switches: dict[str, dict[str, int]]  # role (leaf, spine, core) -> model -> count
    devices: dict[str, int]  # every device model -> count (the BOM's)
    optics: dict[str, int]  # optic part -> count (one per cage)
    cables: dict[str, int]  # PART@LENGTH -> count (one per physical cable)
    cables_by_type: dict[str, int]  # DAC / ACC / AOC / fibre ... -> count
    fibre_m: float  # ordered length of every fibre cord
    links: int
    racks: int
    rows: int
    rack_units: int
    power_w: float  # every part at its maximum (POWER_BASIS): the BOM's `maximum_power`
    power_basis: str  # what the total counts
    power_unknown: tuple[str, ...]  # models with no maximum figure (not counted)
    #: typical draw and the part of the total on unverified figures, when the BOM gives them
    power_typical_w: float | None
    power_unverified_w: float | None
    power_by_class: dict[str, float] | None  # servers, switches, optics, cables (W)
    cost: float | None  # None: incomplete (a part without price, or a price list with problems)
    cost_known: float  # the priced parts (spares included)
    currency: str | None
    cost_incomplete: bool
    cost_note: str
    unpriced: tuple[str, ...]
    cost_by_class: dict[str, float] | None
    bisection_gbps: float
    bisection_workload: str
    oversubscription: float | None  # the worst leaf-to-top path
    oversubscription_path: tuple[str, ...]
    oversubscription_tiers: dict[str, float]
    workloads: tuple[WorkloadResult, ...]
    primary: str | None  # the workload whose collective time the Pareto marks use
    findings: dict[str, int]  # severity -> count
    finding_codes: dict[str, dict[str, int]]  # severity -> code -> count
    failure: FailureResult | None = None
    growth: GrowthResult | None = None
    #: the design's load-balancing setting (Settings.load_balancing): what the candidate is
    #: configured to run, and the traffic model routes its collective time by
    load_balancing: str | None = None

    @property
    def power_kw(self) -> float:
        return self.power_w / 1000

    @property
    def comparable_power_kw(self) -> float | None:
        """The power total when every switch model in it has a maximum figure, else None: a
        total that leaves a switch out (`power_unknown`, counted at 0 W) is a lower bound, which the
        Pareto marks and the power charts do not compare (as a cost with unpriced parts).  The
        servers are the same in every candidate of a study, so a server without a figure
        leaves every total short by the same amount and the comparison stands."""
        network = {model for by_model in self.switches.values() for model in by_model}
        return None if network & set(self.power_unknown) else self.power_kw

    @property
    def allreduce_ms(self) -> dict[str, float | None]:
        """Per workload, the even-spread bound (the analysis' all-reduce; the JSON's old key)."""
        return {w.id: w.allreduce_ms for w in self.workloads}

    @property
    def primary_result(self) -> WorkloadResult | None:
        """The workload whose collective time the Pareto marks use."""
        return next((w for w in self.workloads if w.id == self.primary), None)

    @property
    def collective_ms(self) -> float | None:
        """The primary workload's all-reduce under the candidate's own load balancing (the
        traffic model's; the even-spread bound where it gives none): the table's all-reduce,
        the Pareto marks' time axis."""
        w = self.primary_result
        return None if w is None else w.collective_ms

    @property
    def collective_basis(self) -> str | None:
        """What `collective_ms` is: TRAFFIC, or EVEN_SPREAD standing in for it."""
        w = self.primary_result
        return None if w is None else w.collective_basis

    @property
    def even_spread_ms(self) -> float | None:
        """The primary workload's even-spread bound (the analysis' all-reduce)."""
        w = self.primary_result
        return None if w is None else w.even_spread_ms

    def to_json(self) -> dict[str, Any]:
        return {
            "template": self.template, "technology": self.technology, "tiers": self.tiers,
            "speed_gbps": self.speed_gbps, "servers": self.servers, "gpus": self.gpus,
            "switches": self.switches, "devices": self.devices, "optics": self.optics,
            "cables": self.cables, "cables_by_type": self.cables_by_type,
            "fibre_m": self.fibre_m, "links": self.links, "racks": self.racks,
            "rows": self.rows, "rack_units": self.rack_units,
            "power_kw": self.power_kw, "power_w": self.power_w,
            "power_basis": self.power_basis, "power_unknown": list(self.power_unknown),
            "power_typical_kw": None if self.power_typical_w is None
            else self.power_typical_w / 1000,
            "power_unverified_kw": None if self.power_unverified_w is None
            else self.power_unverified_w / 1000,
            "power_by_class_w": self.power_by_class,
            "cost": self.cost, "cost_known": self.cost_known, "currency": self.currency,
            "cost_incomplete": self.cost_incomplete, "cost_note": self.cost_note,
            "unpriced": list(self.unpriced), "cost_by_class": self.cost_by_class,
            "bisection_gbps": self.bisection_gbps, "bisection_workload": self.bisection_workload,
            "oversubscription": {"effective": self.oversubscription,
                                 "path": list(self.oversubscription_path),
                                 "tiers": self.oversubscription_tiers},
            "allreduce_ms": self.allreduce_ms, "primary_workload": self.primary,
            "load_balancing": self.load_balancing,
            "collective_ms": {w.id: w.collective_ms for w in self.workloads},
            "collective_basis": {w.id: w.collective_basis for w in self.workloads},
            "even_spread_ms": {w.id: w.even_spread_ms for w in self.workloads},
            "workloads": [w.to_json() for w in self.workloads],
            "worst_failure": self.failure.to_json() if self.failure else None,
            "growth": self.growth.to_json() if self.growth else None,
            "findings": self.findings, "finding_codes": self.finding_codes,
        }


@dataclass(frozen=True)
class ParetoMark:
    """Per pair of axes: True on the frontier, False dominated, None not compared (the
    candidate was not built, or has no cost or no collective time)."""

    cost_time: bool | None
    power_time: bool | None
    dominated_by: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"cost_time": self.cost_time, "power_time": self.power_time,
                "dominated_by": {k: list(v) for k, v in self.dominated_by.items()}}


@dataclass(frozen=True)
class Candidate:
    """One combination of the study: built (its metrics and its `.fabric`) or not (why)."""

    index: int
    name: str
    combination: Combination
    description: str
    feasible: bool
    reason: str | None
    file: str | None
    metrics: CandidateMetrics | None
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    pareto: ParetoMark | None = None

    @property
    def built(self) -> bool:
        return self.metrics is not None

    def to_json(self) -> dict[str, Any]:
        metrics = self.metrics.to_json() if self.metrics is not None else None
        if metrics is not None:
            metrics["pareto"] = self.pareto.to_json() if self.pareto else None
        return {"name": self.name, "file": self.file, "feasible": self.feasible,
                "reason": self.reason, "description": self.description,
                "combination": self.combination.axes(), "metrics": metrics,
                "notes": list(self.notes), "seconds": round(self.seconds, 3)}


@dataclass(frozen=True)
class StudyResult:
    """The candidates that finished (in combination order), and how the study went."""

    name: str
    candidates: tuple[Candidate, ...]
    cancelled: bool
    not_run: tuple[str, ...]  # names of the candidates a cancel left out
    price_list: str | None
    price_problems: tuple[str, ...]
    notes: tuple[str, ...]
    seconds: float
    workers: int

    def to_json(self) -> dict[str, Any]:
        return {"study": self.name, "candidates": [c.to_json() for c in self.candidates],
                "cancelled": self.cancelled, "not_run": list(self.not_run),
                "price_list": self.price_list, "price_problems": list(self.price_problems),
                "notes": list(self.notes), "seconds": round(self.seconds, 3),
                "workers": self.workers, "power_basis": POWER_BASIS}
