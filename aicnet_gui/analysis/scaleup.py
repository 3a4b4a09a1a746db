"""The scale-up (NVLink) domain in the collective model: two terms a fabric's collective
estimates need beside the network's own.

**Hierarchical all-reduce over NVLink domains** (an NVL72 rack is one domain of 72 GPUs; a DGX
is one of 8).  The reduction happens inside the domain first: reduce-scatter over NVLink (each
GPU ends with 1/G of the sum of its domain), then an all-reduce of those shards across the M
domains over the NICs (GPU g of every domain in one ring, on its own NIC: rail-aligned), then an
all-gather over NVLink.  Per GPU, for a message of S bytes:

    t_nvlink  = 2 (G - 1) / G x S / B_nvlink          (reduce-scatter + all-gather)
    t_network = 2 (M - 1) / M x (S / G) / B_network   (the shards' ring across domains)
    t         = max(t_nvlink, t_network)              (the stages overlap: the slower one paces)

with `B_nvlink` one GPU's NVLink bandwidth in one direction (the catalog's `nvlink_gbps`) and
`B_network` what the fabric delivers to one GPU.  NCCL cuts a message into chunks and runs them
through its stages one after another, so NVLink works on one chunk while the network carries
the previous one: the time is the slower stage's (a DGX H100 SU: 4.8 ms network against 3.9 ms
NVLink for 1 GB; nccl-tests' 384 GB/s bus bandwidth per node gives 5.2 ms, field-2026.md).
The network carries only 1/G of the message
per NIC and round, so a large domain moves the bottleneck onto NVLink: an NVL72 rack of GB300s
(7,200 Gb/s NVLink, 800G NICs) spends 2 x 71/72 x S / 7,200 Gb/s inside the rack and 2 x S /
(72 x 800 Gb/s) on the network: NVLink sets the pace, 8 x the network's part.  With one
domain (M = 1) the network carries nothing.  `hierarchical_allreduce` is the function a
collective model can call with those figures; NCCL's own tuning model (nccl_tuning.py) treats
an NVLink domain as one node and counts its NVLink by NCCL's per-link constants, where this
counts the vendor's NVLink rate (the catalog's `nvlink_gbps`).

**Rail-only all-to-all** (Wang, Ghobadi et al., "Rail-only", arXiv 2307.12169v5).  Without a
spine joining the rails, a GPU's bytes for a GPU of another rail on another server first cross
NVLink to the GPU of the right rail in its own server (NCCL PXN), then that rail's network.  Of
the bytes a GPU sends off its server in an all-to-all, the share for other rails is (R - 1) / R
with R rails; the NICs carry what they carried on a fat tree (every rail takes its share), and
the forwarding adds that share's NVLink time:

    overhead = (R - 1) / R x B_network / B_nvlink     (D: derived here, not the paper's formula)

DGX H100 (8 rails, 400G NICs, 3,600 Gb/s NVLink): 7/8 x 400 / 3,600 = 9.7 %; DGX B300 at 800G
per GPU over NVLink 5 (7,200 Gb/s): the same 9.7 %.  The paper measures 8.2-11.2 % all-to-all
completion-time overhead for MoE (v5); the term is checked against that range in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..model import arrays

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True)
class HierarchicalAllReduce:
    """One all-reduce over `domains` NVLink domains of `domain_gpus` GPUs, phase by phase."""

    ranks: int
    domains: int
    domain_gpus: int
    message_bytes: float
    nvlink_ms: float  # reduce-scatter and all-gather inside each domain
    network_ms: float  # the shards' all-reduce across domains
    time_ms: float  # the slower of the two (NCCL pipelines chunks through both)

    @property
    def bottleneck(self) -> str:
        """`nvlink` or `network`: the phase that takes longer."""
        return "nvlink" if self.nvlink_ms >= self.network_ms else "network"

    @property
    def bus_gbps(self) -> float:
        """nccl-tests' busBW of this time: algBW x 2 (n - 1) / n (Gb/s)."""
        if self.time_ms <= 0 or self.ranks < 2:
            return 0.0
        alg = self.message_bytes * 8 / (self.time_ms / 1000) / 1e9
        return alg * 2 * (self.ranks - 1) / self.ranks


def hierarchical_allreduce(ranks: int, domain_gpus: int, nvlink_gbps: float,
                           network_gbps: float, message_bytes: float) -> HierarchicalAllReduce:
    """All-reduce of `message_bytes` over `ranks` GPUs in NVLink domains of `domain_gpus`,
    reduced inside each domain first (see the module docstring); `nvlink_gbps` one GPU's NVLink
    rate per direction, `network_gbps` what the fabric delivers to one GPU."""
    if ranks < 1 or domain_gpus < 1 or nvlink_gbps <= 0:
        raise ValueError("ranks, GPUs per domain and the NVLink rate must be positive")
    gpus = min(domain_gpus, ranks)
    domains = -(-ranks // gpus)
    nvlink_s = 2 * (gpus - 1) / gpus * message_bytes * 8 / (nvlink_gbps * 1e9)
    if domains > 1:
        if network_gbps <= 0:
            raise ValueError("domains that the fabric does not join cannot all-reduce")
        network_s = 2 * (domains - 1) / domains * message_bytes / gpus * 8 / (network_gbps * 1e9)
    else:
        network_s = 0.0
    return HierarchicalAllReduce(ranks, domains, gpus, message_bytes, nvlink_s * 1000,
                                 network_s * 1000, max(nvlink_s, network_s) * 1000)


@dataclass(frozen=True)
class RailOnlyAllToAll:
    """The all-to-all of a rail-only fabric beside the same servers on a fat tree."""

    rails: int
    network_gbps: float  # per GPU, what the fabric's all-to-all gets on the network
    nvlink_gbps: float
    overhead: float  # extra completion time, as a share of the fat tree's

    @property
    def effective_gbps(self) -> float:
        """The per-GPU all-to-all rate with the forwarding counted."""
        return self.network_gbps / (1 + self.overhead)


def rail_only_alltoall(rails: int, network_gbps: float, nvlink_gbps: float) -> RailOnlyAllToAll:
    """The forwarding overhead of an all-to-all on `rails` separate rails (see the module
    docstring): (R - 1) / R x network rate / NVLink rate."""
    if rails < 1 or nvlink_gbps <= 0:
        raise ValueError("rails and the NVLink rate must be positive")
    overhead = (rails - 1) / rails * network_gbps / nvlink_gbps
    return RailOnlyAllToAll(rails, network_gbps, nvlink_gbps, overhead)


def rail_only_term(state: State, members: np.ndarray,
                   network_gbps: float) -> RailOnlyAllToAll | str:
    """The rail-only forwarding term of a workload's all-to-all (bool per device row of its
    servers, `network_gbps` its all-to-all rate per GPU on the network), or why there is none:
    the rails are the distinct rails of the member servers' NIC links, the NVLink rate the
    lowest `nvlink_gbps` of their models."""
    from .fabric_paths import attachments

    store = state.store
    rows = np.flatnonzero(members[:store.n_devices])
    rows = rows[store.d["gpus"][rows] > 0]
    if not len(rows):
        return "no GPU servers"
    models = [state.cindex.models[i] for i in arrays.unique(store.d["model"][rows]).tolist()]
    rates = [m.nvlink_gbps for m in models]
    if any(rate is None for rate in rates):
        missing = sorted(m.model for m in models if m.nvlink_gbps is None)
        return f"the catalog has no NVLink bandwidth for {', '.join(missing)}"
    att = attachments(state)
    mine = arrays.isin(att.server, rows)
    rails = arrays.unique(att.rail[mine])
    rails = rails[rails > 0]
    if not len(rails):
        return "the servers' NIC links carry no rail"
    return rail_only_alltoall(len(rails), network_gbps, min(rates))  # type: ignore[type-var]
