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

A workload chooses the algorithm (`Workload.algorithm`, NCCL_ALGO; default `ring`, what NCCL
runs for large messages across nodes without the SHARP plugin, and what nccl-tests is told to
use to measure a network).  Bandwidth terms from the data each NIC carries; latency terms from
NCCL's tuning model (`src/graph/tuning.cc`, NCCL 2.20, `ncclTopoTuneModel`), alpha_net the
fabric's per-step latency, alpha_nvl the NVLink one:

- `ring`: above.
- `tree` (NCCL's double binary tree): NCCL rates it at half its bus bandwidth (`ratio = .5`,
  against the ring's `n / 2(n-1)`), i.e. `2 S / B_domain`: no faster than the ring for large
  messages; latency `2 ((G-1) alpha_nvl + log2(M) alpha_net)`: fewer network steps.
- `collnet` (IB SHARP through the NCCL-SHARP plugin, CollNet Direct): the domain reduces over
  NVLink, each NIC sends its share `S / G` once up the SHARP tree and receives the reduced share
  once, so the fabric stage is `S / B_domain` instead of `2 (N-1)/N S / B_domain` (nearly
  half); latency `2 (alpha_nvl + (G-1) x 0.4 us) + alpha_net` (tuning.cc).  Needs InfiniBand:
  NVIDIA SHARP runs on Quantum HDR switches and later with ConnectX-6 and later (NVIDIA SHARP
  Rev 3.9.1, "Using NVIDIA SHARP with NVIDIA NCCL"); NCCL disables CollNet without it.
- `nvls` (NVLink SHARP inside the domain + IB SHARP across domains, NCCL 2.18 release notes:
  "NVLink SHARP + IB SHARP (NVLS)"): the same fabric stage as `collnet`; latency
  `alpha_nvl + alpha_net`.  Needs an NVSwitch domain (the catalog's `nvlink_domain_gpus`;
  NVLink SHARP is in the NVSwitch of Hopper and later systems) and IB SHARP across nodes (NCCL
  disables multi-node NVLS without CollNet support, tuning.cc).

An algorithm the hardware cannot run falls back to the ring, and the assumptions say why.
nccl-tests' busBW is `algBW x 2(n-1)/n` for every algorithm, so with SHARP it reads up to about
twice the node's NIC total (nccl-tests issue 196: bus bandwidth above the network's with tree /
NVLS tree on 2 nodes).
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
ALGORITHMS = ("ring", "tree", "collnet", "nvls")
#: CollNet Direct's arity serialisation latency per GPU of the domain (µs), NCCL tuning.cc
COLLNET_ARITY_US = 0.4


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
    return allreduce("ring", ranks, domains, per_gpu_gbps, message_bytes, net_step_us)


def _terms(algorithm: str, ranks: int, domains: int, message_bytes: float,
           net_step_us: float) -> tuple[float, float]:
    """(bytes each domain's NICs carry per direction, latency in µs) of one all-reduce."""
    gpus = ranks / domains
    if algorithm == "tree":
        return (2 * message_bytes,
                2 * ((gpus - 1) * NVLINK_STEP_US + math.floor(math.log2(domains)) * net_step_us))
    if algorithm == "collnet":
        return (message_bytes, 2 * (min(1.0, gpus - 1) * NVLINK_STEP_US
                                    + (gpus - 1) * COLLNET_ARITY_US) + net_step_us)
    if algorithm == "nvls":
        return message_bytes, NVLINK_STEP_US + net_step_us
    steps, net_steps = 2 * (ranks - 1), 2 * (domains - 1)
    return (2 * (ranks - 1) / ranks * message_bytes,
            net_steps * net_step_us + (steps - net_steps) * NVLINK_STEP_US)


def allreduce(algorithm: str, ranks: int, domains: int, per_gpu_gbps: float,
              message_bytes: float, net_step_us: float) -> AllReduce:
    """NCCL all-reduce of `message_bytes` with `algorithm` (ring, tree, collnet, nvls) over
    `ranks` GPUs in `domains` NVLink domains, each GPU getting `per_gpu_gbps` through the
    fabric (see the module docstring)."""
    if ranks < 2 or domains < 1:
        return AllReduce(algorithm, ranks, domains, 0.0, message_bytes,
                         0.0 if ranks == 1 else None, None)
    domain_gbps = per_gpu_gbps * ranks / domains
    if domains == 1 or domain_gbps <= 0:
        return AllReduce(algorithm, ranks, domains, domain_gbps, message_bytes, None, None)
    volume, latency_us = _terms(algorithm, ranks, domains, message_bytes, net_step_us)
    time_s = volume / (domain_gbps * 1e9 / 8) + latency_us * 1e-6
    alg_gbps = message_bytes * 8 / time_s / 1e9
    return AllReduce(algorithm, ranks, domains, domain_gbps, message_bytes,
                     round(time_s * 1000, 4), round(bus_bandwidth(alg_gbps, ranks), 4))


def usable_algorithm(wanted: str, technology: FabricTechnology,
                     nvswitch: bool) -> tuple[str, str | None]:
    """The algorithm the hardware runs for `wanted`, and why it differs (None: as asked).
    SHARP (collnet, nvls) needs an InfiniBand fabric; nvls also NVSwitch domains."""
    if wanted in ("collnet", "nvls") and technology != FabricTechnology.INFINIBAND:
        return "ring", (f"{wanted} asked, but IB SHARP needs an InfiniBand fabric (Quantum HDR "
                        f"or later), this one is {technology.value}: ring assumed")
    if wanted == "nvls" and not nvswitch:
        return "ring", ("nvls asked, but not every member server has an NVSwitch NVLink domain "
                        "in the catalog: ring assumed")
    return wanted, None


def _domain_sizes(state: State) -> np.ndarray:
    """`nvlink_domain_gpus` per catalog model (0: not given)."""
    size = state.memo.get("nvlink-domain")
    if size is None:  # per catalog model; the catalog only changes with a full run
        size = np.array([m.nvlink_domain_gpus or 0 for m in state.cindex.models] or [0], dtype=float)
        state.memo["nvlink-domain"] = size
    return size


def nvswitch_members(state: State, members: np.ndarray) -> bool:
    """Does every member server with GPUs sit in an NVSwitch NVLink domain of the catalog?"""
    store = state.store
    rows = np.flatnonzero(members)
    rows = rows[store.d["gpus"][rows] > 0]
    return bool(len(rows)) and bool((_domain_sizes(state)[store.d["model"][rows]] > 0).all())


def nvlink_domains(state: State, members: np.ndarray) -> int:
    """NVLink domains spanned by the member servers (bool per device row): `domain_count`
    vectorised over the store (GPUs per row / the model's `nvlink_domain_gpus`)."""
    store = state.store
    rows = np.flatnonzero(members)
    if not len(rows):
        return 0
    size = _domain_sizes(state)
    gpus = store.d["gpus"][rows].astype(float)
    dom = size[store.d["model"][rows]]
    share = np.divide(gpus, dom, out=(gpus > 0).astype(float), where=dom > 0)
    total = float(np.sort(share).sum())  # sorted: the same sum in any member order
    return math.ceil(round(total, 9)) if total > 0 else 0


def allreduce_assumptions(placement: str, estimate: AllReduce, technology: FabricTechnology,
                          net_step_us: float, fallback: str | None = None) -> tuple[str, ...]:
    """What a workload's figures assume, in words for the CLI, the JSON and the GUI."""
    order = ("ranks scattered by the scheduler: a ring neighbour is anywhere on its rail"
             if placement == "scattered" else
             "ranks in topology order (best case): one ring stream per switch crossing")
    domains, gpus = estimate.domains, estimate.gpus_per_domain
    algorithm = {
        "ring": (f"NCCL ring over {domains} NVLink domain(s) of {gpus:g} GPUs; each domain's "
                 f"NICs carry 2(N-1)/N x S in parallel; {2 * max(domains - 1, 0)} of the "
                 f"2(N-1) steps pay the {net_step_us:g} us {technology.value} step latency"),
        "tree": (f"NCCL double binary tree over {domains} NVLink domain(s) of {gpus:g} GPUs; "
                 f"each domain's NICs carry 2 x S (NCCL rates a tree at half its bus "
                 f"bandwidth); 2 log2(M) network steps of {net_step_us:g} us"),
        "collnet": (f"IB SHARP (NCCL CollNet) over {domains} NVLink domain(s) of {gpus:g} GPUs: "
                    "each domain's NICs send S once up the switches' aggregation tree and "
                    f"receive the result once; one {net_step_us:g} us network step"),
        "nvls": (f"NVLink SHARP in each of {domains} NVSwitch domain(s) of {gpus:g} GPUs + IB "
                 "SHARP across them (NCCL NVLS): each domain's NICs send S once and receive "
                 f"the result once; one {net_step_us:g} us network step"),
    }[estimate.algorithm]
    text = [
        "traffic rail-aligned (NIC i talks to NIC i of the other servers)",
        f"placement: {order}",
        f"all-reduce: {algorithm}",
    ]
    if fallback:
        text.append(fallback)
    in_network = ("in-network reduction (SHARP/NVLS), " if estimate.algorithm in ("ring", "tree")
                  else "SHARP tree depth and switch aggregation time, ")
    text.append(f"not counted: {in_network}protocol efficiency (nccl-tests reach ~80-90 % of "
                "line rate), congestion, compute stragglers")
    if estimate.domains == 1 and estimate.ranks > 1:
        text.append("all ranks in one NVLink domain: the fabric carries no all-reduce traffic "
                    "and the catalog has no NVLink bandwidth, so no time is estimated")
    return tuple(text)
