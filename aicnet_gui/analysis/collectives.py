"""All-reduce time of a workload: NCCL's choice of algorithm over NVLink domains joined by the
fabric (docs/rules.md, "All-reduce time").

- `N` ranks (GPUs) sit in `M` NVLink domains of `G = N / M` GPUs (8 on an HGX/DGX board, 72 in
  a GB200 NVL72 rack: the catalog's `nvlink_domain_gpus`); NCCL treats a domain as one node.
- NCCL picks the algorithm and protocol with the smallest predicted time from its tuning model
  (nccl_tuning.py: NVIDIA/nccl src/graph/tuning.cc): on one node NVLS (NVLink SHARP) or the
  ring over NVLink, across nodes the ring for few nodes and large messages, the (NVLS) tree at
  scale, where the ring's 2(N-1) steps cost more than its bandwidth saves.  A workload may
  force a family (`Workload.algorithm`, NCCL_ALGO): ring, tree, collnet (IB SHARP: CollNet
  Direct / Chain), nvls (NVLS / NVLS tree); `auto` (the default) is NCCL's own choice, without
  SHARP (CollNet needs the NCCL-SHARP plugin, which NCCL does not load by itself).
- NCCL's model knows the NICs, not the fabric: the time it predicts assumes every NIC sends at
  its rate.  The estimate scales the network part of the chosen algorithm by the fabric's share
  of that rate (the workload model's per-GPU bandwidth through the fabric, or the slowest
  member server's, over the NICs' own), so a 2:1 fabric takes longer, NVLink inside a domain
  does not.
- nccl-tests reports `algBW = S / T` and `busBW = algBW x 2 (n - 1) / n` for all-reduce; with
  the ring across nodes that is NCCL's per-channel speed x the channels: 48 GB/s per NDR 400G
  NIC, 384 GB/s for a DGX H100 ("For NDR @ 400Gbps you should see 46-48GB/s per NIC", nccl-tests
  issue 290).  With NVLS or SHARP the busBW reads above the NICs' total (nccl-tests issue 196).

An algorithm the hardware cannot run (SHARP on Ethernet, NVLS without NVSwitch domains of
Hopper or later) falls back to NCCL's own choice, and the assumptions say why.  Without the
GPUs' NVLink in the catalog a workload inside one NVLink domain gets no time.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..model import arrays
from ..model.fabric import FabricTechnology
from .nccl_tuning import FAMILIES, NcclSystem, Tuning

if TYPE_CHECKING:
    from .state import State

ALGORITHMS = tuple(FAMILIES)
#: readable names of NCCL's algorithms and protocols (its NCCL_ALGO / NCCL_PROTO spellings)
NCCL_NAMES = {"ring": "Ring", "tree": "Tree", "collnet_direct": "CollNetDirect",
              "collnet_chain": "CollNetChain", "nvls": "NVLS", "nvls_tree": "NVLSTree"}


@dataclass(frozen=True)
class AllReduce:
    """One all-reduce estimate and the quantities it was computed from."""

    algorithm: str  # NCCL's algorithm (nccl_tuning.ALGORITHMS), "" when none runs
    ranks: int  # N
    domains: int  # M
    domain_gbps: float  # the NICs' line rate of one NVLink domain (Gb/s)
    message_bytes: float
    time_ms: float | None
    bus_gbps: float | None  # nccl-tests busBW (Gb/s) implied by time_ms
    protocol: str = ""
    fabric_share: float = 1.0  # share of the NICs' rate the fabric delivers
    nccl_ms: float | None = None  # NCCL's own prediction (the fabric delivering every NIC's rate)

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


def allreduce(system: NcclSystem, message_bytes: float, family: str = "auto",
              fabric_share: float = 1.0) -> AllReduce:
    """The all-reduce NCCL runs for `message_bytes` on `system` (within `family`), its time
    with the network part at `fabric_share` of the NICs' rate, and nccl-tests' busBW."""
    ranks, domains = system.ranks, system.nodes
    domain_gbps = system.nics_per_node * system.nic_gbps
    if ranks < 2 or domains < 1:
        return AllReduce("", ranks, domains, domain_gbps, message_bytes,
                         0.0 if ranks == 1 else None, None)
    tuning = Tuning(system)
    choice = tuning.choose("allreduce", message_bytes, family, fabric_share)
    if choice is None or (domains > 1 and fabric_share <= 0):
        return AllReduce("", ranks, domains, domain_gbps, message_bytes, None, None,
                         fabric_share=fabric_share)
    bus = tuning.bus_gbps("allreduce", message_bytes, choice.time_us)
    return AllReduce(choice.algorithm, ranks, domains, domain_gbps, message_bytes,
                     round(choice.time_us / 1000, 4), round(bus, 4), choice.protocol,
                     fabric_share, round(choice.nccl_us / 1000, 4))


def usable_algorithm(wanted: str, technology: FabricTechnology, nvswitch: bool,
                     arch: str | None) -> tuple[str, bool, str | None]:
    """(the family NCCL may use, whether SHARP runs, why it differs from `wanted` or None).
    SHARP (collnet, nvls across domains) needs an InfiniBand fabric; nvls also NVSwitch domains
    of Hopper or later GPUs."""
    if wanted in ("collnet", "nvls") and technology != FabricTechnology.INFINIBAND:
        return "auto", False, (f"{wanted} asked, but IB SHARP needs an InfiniBand fabric "
                               f"(Quantum HDR or later), this one is {technology.value}: "
                               "NCCL's own choice assumed")
    if wanted == "nvls" and not (nvswitch and arch in ("hopper", "blackwell")):
        return "auto", False, ("nvls asked, but NVLink SHARP needs every member server in an "
                               "NVSwitch NVLink domain of Hopper or later GPUs (catalog): "
                               "NCCL's own choice assumed")
    return wanted, wanted in ("collnet", "nvls"), None


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


def gpu_facts(state: State, members: np.ndarray) -> tuple[str | None, int | None]:
    """(GPU architecture, NVLink links per GPU) shared by the member servers' models; None
    where the catalog does not say or the members differ."""
    store = state.store
    rows = np.flatnonzero(members)
    rows = rows[store.d["gpus"][rows] > 0]
    models = [state.cindex.models[i] for i in arrays.unique(store.d["model"][rows]).tolist()]
    archs = {m.gpu_architecture for m in models}
    links = {m.nvlink_links for m in models}
    return (archs.pop() if len(archs) == 1 else None, links.pop() if len(links) == 1 else None)


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
                          fallback: str | None = None, arch: str | None = None) -> tuple[str, ...]:
    """What a workload's figures assume, in words for the CLI, the JSON and the GUI."""
    order = ("ranks scattered by the scheduler: a ring neighbour is anywhere on its rail"
             if placement == "scattered" else
             "ranks in topology order (best case): one ring stream per switch crossing")
    domains, gpus = estimate.domains, estimate.gpus_per_domain
    text = [
        "traffic rail-aligned (NIC i talks to NIC i of the other servers)",
        f"placement: {order}",
    ]
    if estimate.algorithm:
        name = NCCL_NAMES[estimate.algorithm]
        share = (f"; the network part at {estimate.fabric_share:.0%} of the NICs' rate, what "
                 "the fabric delivers" if domains > 1 and estimate.fabric_share < 1 else "")
        text.append(f"all-reduce: NCCL {name}/{estimate.protocol} over {domains} NVLink "
                    f"domain(s) of {gpus:g} GPUs, the fastest of NCCL's tuning model "
                    f"(src/graph/tuning.cc) for this message and job size on "
                    f"{technology.value}{share}")
    if fallback:
        text.append(fallback)
    if arch is None:
        text.append("GPU architecture not in the catalog: NCCL's pre-Hopper constants, no NVLS")
    text.append("not counted: congestion beyond the fabric's share, compute stragglers; "
                "nccl-tests reach NCCL's modelled speed (48 GB/s per NDR NIC) on a healthy "
                "cluster")
    if estimate.domains == 1 and estimate.ranks > 1 and estimate.time_ms is None:
        text.append("all ranks in one NVLink domain: the fabric carries no all-reduce traffic "
                    "and the catalog has no NVLink bandwidth for these GPUs, so no time is "
                    "estimated")
    return tuple(text)
