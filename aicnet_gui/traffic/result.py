"""What the traffic model returns: per workload and mode, nccl-tests' bus bandwidth (mean and
5th / 95th percentile over the draws), the collective's time, the share of the NICs' rate the
fabric delivers, each link's load and the hottest links, and a histogram of link loads.

Units: bandwidths in Gb/s (`*_gbps`, as the rest of aicnet; nccl-tests prints GB/s, divide by
8), times in ms, loads as the fraction of a link's speed in use over the collective (0-1: the
links that set its pace are full), the larger of its two directions, averaged over the draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class LinkLoad:
    """One loaded direction of a link."""

    link_id: str
    name: str  # "leaf-01:swp33 -> spine-02:swp1"
    load: float  # fraction of the link's speed
    gbps: float
    capacity_gbps: float

    def to_json(self) -> dict[str, Any]:
        return {"link": self.link_id, "name": self.name, "load": self.load, "gbps": self.gbps,
                "capacity_gbps": self.capacity_gbps}


@dataclass(frozen=True)
class Bin:
    """Links whose load is in [low, high) (the last bin includes 1.0)."""

    low: float
    high: float
    links: int


@dataclass(frozen=True)
class ModeResult:
    mode: str  # the mode asked
    runs: tuple[str, ...]  # the modes the switches ran, most common first
    notes: tuple[str, ...]  # why a switch or NIC runs another mode, unroutable flows
    busbw_gbps: float
    busbw_p5_gbps: float
    busbw_p95_gbps: float
    time_ms: float | None  # mean over the draws; None when the collective cannot complete
    ideal_busbw_gbps: float  # NCCL's model on a fabric that delivers every NIC's rate
    share: float  # the fabric's share of the NICs' rate (mean over the draws)
    share_p5: float
    share_p95: float
    seeds: int
    link_load: dict[str, float]  # link id -> load (0-1), every fabric link of the network
    hottest: tuple[LinkLoad, ...]
    histogram: tuple[Bin, ...]
    #: max-min fair steady state of the first draw: every flow at its fair rate, summed
    throughput_gbps: float = 0.0
    #: nccl-tests' busBW of each draw in draw order (draw k is the one seeded `seed + k`: a run
    #: with `seed=seed + k, seeds=1` repeats it, loads and all)
    draw_busbw_gbps: tuple[float, ...] = ()

    @property
    def draws_differ(self) -> bool:
        """Do the draws' busBW differ (by more than a rounding)?  When they do not, one hash
        is as good as another and a median draw says nothing the mean does not."""
        return self.seeds > 1 and self.busbw_p95_gbps - self.busbw_p5_gbps > 0.4

    @property
    def ratio(self) -> float:
        """busBW over the ideal one."""
        return self.busbw_gbps / self.ideal_busbw_gbps if self.ideal_busbw_gbps else 0.0

    def to_json(self, links: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "runs": list(self.runs),
            "busbw_gbps": round(self.busbw_gbps, 2),
            "busbw_p5_gbps": round(self.busbw_p5_gbps, 2),
            "busbw_p95_gbps": round(self.busbw_p95_gbps, 2),
            "time_ms": None if self.time_ms is None else round(self.time_ms, 4),
            "ideal_busbw_gbps": round(self.ideal_busbw_gbps, 2),
            "ratio_to_ideal": round(self.ratio, 4),
            "fabric_share": {"mean": round(self.share, 4), "p5": round(self.share_p5, 4),
                             "p95": round(self.share_p95, 4)},
            "seeds": self.seeds,
            "throughput_gbps": round(self.throughput_gbps, 2),
            "hottest_links": [h.to_json() for h in self.hottest],
            "histogram": [{"low": b.low, "high": b.high, "links": b.links}
                          for b in self.histogram],
            "notes": list(self.notes),
        }
        if links:
            data["link_load"] = self.link_load
        return data


@dataclass(frozen=True)
class WorkloadTraffic:
    id: str
    name: str
    collective: str  # allreduce / alltoall
    message_bytes: float
    gpus: int
    nodes: int  # NVLink domains
    algorithm: str  # NCCL's (nccl_tuning names) or "alltoall"
    protocol: str
    pattern: str  # the flows on the network: ring, tree, alltoall, none
    modes: dict[str, ModeResult]
    notes: tuple[str, ...]

    def to_json(self, links: bool = False,
                medians: dict[str, tuple[int, ModeResult]] | None = None) -> dict[str, Any]:
        """The JSON of `aicnet traffic`; `medians` (TrafficModel.median_draws): per mode drawn
        several times, its median draw's busBW and hottest links as `median_draw`."""
        modes = {m: r.to_json(links) for m, r in self.modes.items()}
        for mode, (index, draw) in (medians or {}).items():
            modes[mode]["median_draw"] = {
                "draw": index, "busbw_gbps": round(draw.busbw_gbps, 2),
                "hottest_links": [h.to_json() for h in draw.hottest]}
        return {"id": self.id, "name": self.name, "collective": self.collective,
                "message_mb": round(self.message_bytes / 1e6, 3), "gpus": self.gpus,
                "nvlink_domains": self.nodes, "algorithm": self.algorithm,
                "protocol": self.protocol, "flows": self.pattern, "modes": modes,
                "notes": list(self.notes)}


def percentile(values: np.ndarray, q: float) -> float:
    return float(np.percentile(values, q)) if len(values) else 0.0


def median_draw(draws: tuple[float, ...]) -> int:
    """The index of the draw whose busBW is the (lower) median of `draws`."""
    order = np.argsort(np.array(draws), kind="stable")
    return int(order[(len(order) - 1) // 2])


def histogram(loads: np.ndarray, bins: int) -> tuple[Bin, ...]:
    """Bins over 0-100 % load of the links that carry traffic."""
    used = loads[loads > 0]
    edges = np.linspace(0.0, 1.0, bins + 1)
    counts, _ = np.histogram(np.minimum(used, 1.0), bins=edges)
    return tuple(Bin(round(float(edges[i]), 4), round(float(edges[i + 1]), 4), int(counts[i]))
                 for i in range(bins))
