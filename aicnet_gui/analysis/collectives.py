"""All-reduce time of a workload: NCCL's ring over NVLink domains joined by the fabric.

The model (docs/rules.md, "All-reduce time") follows NCCL's ring algorithm and nccl-tests'
definitions:

- `N` ranks (GPUs) sit in `M` NVLink domains of `G = N / M` GPUs (8 on an HGX/DGX board, 72 in
  a GB200 NVL72 rack; the catalog's `nvlink_domain_gpus`).  NCCL builds its rings so that each
  crosses every domain boundary once; it runs one ring channel per NIC, so a domain's traffic
  leaves over all of its NICs in parallel.
- A ring all-reduce moves `2 (N - 1) / N * S` bytes out of every rank (reduce-scatter then
  all-gather).  Inside a domain that is NVLink traffic; at the domain boundary the domain's NICs
  together carry the same amount, so the fabric stage takes `2 (N - 1) / N * S / B_domain`, where
  `B_domain` is the domain's fabric bandwidth: `G` x the per-GPU bandwidth the fabric sustains
  (NIC rate, reduced by the fabric's bottleneck for the workload's placement).  NVLink is taken
  to be faster than the domain's share of the fabric (H100: 450 GB/s per direction per GPU vs
  50 GB/s per 400G NIC), so the fabric stage sets the time.
- Latency (NCCL `src/graph/tuning.cc`, ring): of the `2 (N - 1)` steps, `2 (M - 1)` cross the
  network and pay the fabric's per-step latency `alpha_net`; the others are NVLink steps at
  `alpha_nvlink`.
- nccl-tests reports `algBW = S / T` and `busBW = algBW * 2 (n - 1) / n` for all-reduce: with the
  bandwidth term alone, busBW equals `B_domain`, the domain's NIC total when the fabric does not
  limit, which is what multi-node H100 + NDR runs report (bus bandwidth near 8 x 400 Gb/s =
  400 GB/s per node).

When every rank is inside one NVLink domain (`M = 1`) the fabric carries none of the all-reduce
and the catalog has no NVLink bandwidth, so no time is estimated.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..model.fabric import FabricTechnology

if TYPE_CHECKING:
    from .state import State

# NVLink per-step latency of a ring step (µs): NCCL tuning.cc, hwLat[NVLINK][RING][LL] = 0.6
NVLINK_STEP_US = 0.6
ALGORITHM = "ring"


@dataclass(frozen=True)
class AllReduce:
    """One all-reduce estimate and the quantities it was computed from."""

    algorithm: str
    ranks: int  # N
    domains: int  # M
    domain_gbps: float  # B_domain: the fabric bandwidth of one NVLink domain
    message_bytes: float
    time_ms: float | None
    bus_gbps: float | None  # nccl-tests busBW per rank implied by time_ms (bandwidth term only)

    @property
    def gpus_per_domain(self) -> float:
        return self.ranks / self.domains if self.domains else 0.0


def domain_count(servers: Iterable[tuple[int, int | None]]) -> int:
    """NVLink domains spanned by servers given as (GPUs, GPUs per NVLink domain or None = the
    server's own GPUs): a DGX H100 is one domain, 18 GB200 trays of 4 GPUs in a 72-GPU domain
    are one.  Partial domains count as whole ones."""
    total = 0.0
    for gpus, domain in servers:
        if gpus > 0:
            total += gpus / (domain or gpus)
    return math.ceil(round(total, 9)) if total > 0 else 0


def bus_bandwidth(alg_gbps: float, ranks: int) -> float:
    """nccl-tests' bus bandwidth of an all-reduce: algBW * 2 (n - 1) / n."""
    return alg_gbps * 2 * (ranks - 1) / ranks if ranks else 0.0


def ring_allreduce(ranks: int, domains: int, per_gpu_gbps: float, message_bytes: float,
                   net_step_us: float) -> AllReduce:
    """NCCL ring all-reduce of `message_bytes` over `ranks` GPUs in `domains` NVLink domains,
    each GPU getting `per_gpu_gbps` through the fabric (see the module docstring)."""
    if ranks < 2 or domains < 1:
        return AllReduce(ALGORITHM, ranks, domains, 0.0, message_bytes,
                         0.0 if ranks == 1 else None, None)
    domain_gbps = per_gpu_gbps * ranks / domains
    if domains == 1 or domain_gbps <= 0:
        return AllReduce(ALGORITHM, ranks, domains, domain_gbps, message_bytes, None, None)
    factor = 2 * (ranks - 1) / ranks
    transfer_s = factor * message_bytes / (domain_gbps * 1e9 / 8)
    steps = 2 * (ranks - 1)
    net_steps = 2 * (domains - 1)
    latency_s = (net_steps * net_step_us + (steps - net_steps) * NVLINK_STEP_US) * 1e-6
    time_s = transfer_s + latency_s
    alg_gbps = message_bytes * 8 / time_s / 1e9
    return AllReduce(ALGORITHM, ranks, domains, domain_gbps, message_bytes,
                     round(time_s * 1000, 4), round(bus_bandwidth(alg_gbps, ranks), 4))


def nvlink_domains(state: State, members: np.ndarray) -> int:
    """NVLink domains spanned by the member servers (bool per device row): `domain_count`
    vectorised over the store (GPUs per row / the model's `nvlink_domain_gpus`)."""
    store = state.store
    rows = np.flatnonzero(members)
    if not len(rows):
        return 0
    size = state.memo.get("nvlink-domain")
    if size is None:  # per catalog model; the catalog only changes with a full run
        size = np.array([m.nvlink_domain_gpus or 0 for m in state.cindex.models] or [0], dtype=float)
        state.memo["nvlink-domain"] = size
    gpus = store.d["gpus"][rows].astype(float)
    dom = size[store.d["model"][rows]]
    share = np.divide(gpus, dom, out=(gpus > 0).astype(float), where=dom > 0)
    total = float(np.sort(share).sum())  # sorted: the same sum in any member order
    return math.ceil(round(total, 9)) if total > 0 else 0


def allreduce_assumptions(placement: str, estimate: AllReduce, technology: FabricTechnology,
                          net_step_us: float) -> tuple[str, ...]:
    """What a workload's figures assume, in words for the CLI, the JSON and the GUI."""
    order = ("ranks scattered by the scheduler: a ring neighbour is anywhere on its rail"
             if placement == "scattered" else
             "ranks in topology order (best case): one ring stream per switch crossing")
    text = [
        "traffic rail-aligned (NIC i talks to NIC i of the other servers)",
        f"placement: {order}",
        f"all-reduce: NCCL ring over {estimate.domains} NVLink domain(s) of "
        f"{estimate.gpus_per_domain:g} GPUs; each domain's NICs carry 2(N-1)/N x S in parallel; "
        f"{2 * max(estimate.domains - 1, 0)} of the 2(N-1) steps pay the {net_step_us:g} us "
        f"{technology.value} step latency",
        "not counted: in-network reduction (SHARP/NVLS), protocol efficiency (nccl-tests reach "
        "~80-90 % of line rate), congestion, stragglers",
    ]
    if estimate.domains == 1 and estimate.ranks > 1:
        text.append("all ranks in one NVLink domain: the fabric carries no all-reduce traffic "
                    "and the catalog has no NVLink bandwidth, so no time is estimated")
    return tuple(text)
