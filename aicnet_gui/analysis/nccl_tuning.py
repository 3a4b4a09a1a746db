"""NCCL's own choice of algorithm and protocol, and the time it predicts, for a collective.

NCCL does not run the ring for every all-reduce: at init it builds a table of latency and
bandwidth for every (collective, algorithm, protocol) from its topology search, and for each
call picks the pair with the smallest `latency + bytes / bandwidth` (`ncclTopoTuneModel` and
`ncclTopoGetAlgoTime`, NVIDIA/nccl `src/graph/tuning.cc`).  This module is that model, with the
inputs NCCL's topology search (`src/graph/search.cc`, `src/init.cc`, `src/graph/connect.cc`)
would find on the drawn hardware:

- a *node* is an NVLink domain (an HGX/DGX server, an NVL72 rack: NCCL's multi-node NVLink
  makes one node of it); `ppn` its GPUs;
- ring and tree graphs: a channel per NIC at the fastest entry of NCCL's inter-node speed array
  (`speedArrayInter`, sm90 / sm100 variants) that the NIC carries (a NIC's bandwidth is its
  line rate / 8000 Mb/s, `net->net.bw = mbps / 8000.0` in topo.cc: 50 GB/s for NDR 400G ->
  48 GB/s per channel), as many channels as the NICs hold and the GPU's NVLink total allows,
  at most `MAXCHANNELS / 2` = 32 (init.cc); channels doubled at half the speed when NCCL's
  `ncclTopoDupChannels` rule says so.  On one node the intra-node speed array against the
  NVLink total (`links x SMxx_NVLINK_BW`, topo.h);
- NVLS (NVLink SHARP, NVSwitch systems of Hopper and later): one channel per GPU on one node
  (at the intra speed whose channels fit the NVLink total x n/(n-1), inter bandwidth raised up
  to twice it by the search's second pass), one per NIC across nodes; NVLS across nodes needs
  CollNet (IB SHARP), else NVLS tree runs there;
- CollNet (IB SHARP through the NCCL-SHARP plugin) only where the fabric runs SHARP;
  CollNet Direct also only on NVSwitch systems (tuning.cc disables it without NVSwitches).

The latencies, per-channel caps, efficiency factors and the tree correction table are NCCL's
constants (`ncclTunerConstantsDefaults`, `treeCorrectionFactor`), quoted below.  PAT (one GPU per
node, all-gather / reduce-scatter) is not modelled.  The CPU is taken as x86 Intel or Arm (the
catalog does not say; AMD changes two LL constants and the network overhead).

The time it returns is NCCL's prediction on a fabric that carries every NIC's line rate; the
traffic model (aicnet_gui/traffic) and the workload model scale the network part by the share
of that rate the drawn fabric delivers (`fabric_share`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

ALGORITHMS = ("tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree")
PROTOCOLS = ("LL", "LL128", "Simple")
#: the collectives the model tunes (AllToAll is point-to-point in NCCL, see `alltoall_time`)
COLLECTIVES = ("allreduce", "allgather", "reducescatter")
#: what a workload may force (Workload.algorithm, NCCL_ALGO) -> the NCCL algorithms it allows
FAMILIES: dict[str, tuple[str, ...]] = {
    "auto": ALGORITHMS, "ring": ("ring",), "tree": ("tree",),
    "collnet": ("collnet_direct", "collnet_chain"), "nvls": ("nvls", "nvls_tree"),
}

# tuning.cc ncclTunerConstantsDefaults: baseLatencies[algorithm][protocol] (us)
_BASE_LAT = {"tree": (6.8, 14.0, 8.4), "ring": (6.6, 14.0, 8.4), "collnet_direct": (0, 0, 0),
             "collnet_chain": (0, 0, 0), "nvls": (0, 0, 0), "nvls_tree": (0, 0, 0)}
# hwLatencies[hw][algorithm][protocol] (us), hw = NVLINK, PCI, NET
_HW_LAT = {
    "nvlink": {"tree": (0.6, 1.25, 4.0), "ring": (0.6, 1.9, 3.4), "collnet_direct": (0, 0, 3.7),
               "collnet_chain": (0, 0, 2.8), "nvls": (0, 0, 25), "nvls_tree": (0, 0, 25)},
    "pci": {"tree": (1.0, 1.9, 4.0), "ring": (1.0, 2.5, 5.7), "collnet_direct": (0, 0, 3.7),
            "collnet_chain": (0, 0, 2.8), "nvls": (0, 0, 0), "nvls_tree": (0, 0, 0)},
    "net": {"tree": (5.0, 8.5, 14), "ring": (2.7, 4.0, 14.0), "collnet_direct": (0, 0, 31),
            "collnet_chain": (0, 0, 30), "nvls": (0, 0, 18), "nvls_tree": (0, 0, 20.9)},
}
# compute-capability rows: Volta, Ampere, Hopper, Blackwell; columns: 1 node, 2 nodes, more
_ARCH_INDEX = {"volta": 0, "ampere": 1, "hopper": 2, "blackwell": 3}
_LL_MAX_BW = ((39.0, 39.0, 20.4), (87.7, 22.5, 19.0), (141.0, 45.0, 35.0),
              (2 * 141.0, 2 * 45.0, 2 * 35.0))  # index1 0 (1 node: by GPU; else Intel/Arm)
_PER_CH_RING_LL128 = ((20.0,) * 3, (20.0,) * 3, (36.7,) * 3, (40.0,) * 3)
_PER_CH_TREE_LL128 = ((20.0,) * 3, (20.0,) * 3, (36.7, 36.7, 29.0), (55.6, 31.67, 20.0))
_PER_CH_TREE = ((26.5, 18.5, 10.0), (24.0, 23.6, 17.8), (38.7, 41.4, 36.0), (70.0, 42.8, 24.0))
_PER_CH_NVLS_TREE = ((26.5, 18.5, 10.0), (24.0, 23.6, 17.8), (0.0, 57.7, 45.5), (0.0, 96.0, 80.0))
_NVLS_EFFICIENCY = (0.0, 0.0, 0.85, 0.74)
# tuning.cc treeCorrectionFactor[protocol][log2(bytes / 64)], 64 B to 256 MB
_TREE_CORRECTION = (
    (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0,
     1.0, 1.0),
    (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0,
     1.0, 1.0),
    (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9,
     .9),
)
# search.cc speed arrays (GB/s per channel): generic, sm90, sm100
_SPEED_INTRA = {"generic": (40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0,
                            3.0),
                "hopper": (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0),
                "blackwell": (90.0, 80.0, 70.0, 60.0, 50.0, 45.0, 40.0, 30.0, 24.0, 20.0, 19.0,
                              18.0)}
_SPEED_INTER = {"generic": (48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0,
                            6.0, 5.0, 4.0, 3.0, 2.4, 1.2, 0.24, 0.12),
                "hopper": (48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0,
                           6.0, 3.0, 2.4, 1.2, 0.24, 0.12),
                "blackwell": (96.0, 86.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0,
                              17.5, 15.0, 12.0, 6.0, 3.0, 2.4, 1.2, 0.24, 0.12)}
#: topo.h SMxx_NVLINK_BW: GB/s NCCL counts per NVLink link
NVLINK_LINK_GBPS = {"volta": 20.0, "ampere": 20.0, "hopper": 20.6, "blackwell": 40.1}
MAX_RING_CHANNELS = 32  # init.cc: ringGraph->maxChannels = MAXCHANNELS / 2 (MAXCHANNELS 64)
MAX_NVLS_ARITY = 32  # device.h NCCL_MAX_NVLS_ARITY
NET_OVERHEAD_US = 1.0  # tuning.cc getNetOverhead: x86 Intel and the default (Arm); AMD 2.0
PCI_GEN5_X16_GBPS = 64.0  # topo.cc: width 16 x gen5 320 / 80


@dataclass(frozen=True)
class Graph:
    """What NCCL's topology search finds for one algorithm: channels and GB/s per channel."""

    channels: int
    bw_intra: float
    bw_inter: float


@dataclass(frozen=True)
class NcclSystem:
    """The hardware NCCL tunes for: ranks in NVLink-domain nodes, their NICs and NVLink."""

    ranks: int
    nodes: int
    nics_per_node: int
    nic_gbps: float  # line rate of one NIC, Gb/s
    arch: str | None = None  # volta / ampere / hopper / blackwell; None: not known
    nvlink_links: int | None = None  # per GPU; None: not known
    nvswitch: bool = False  # the node's GPUs sit on NVSwitches (NVLS, CollNet Direct)
    sharp: bool = False  # the fabric runs IB SHARP (CollNet) for this job
    notes: tuple[str, ...] = field(default=())

    @property
    def ppn(self) -> float:
        return self.ranks / self.nodes if self.nodes else 0.0

    @property
    def arch_index(self) -> int:
        return _ARCH_INDEX.get(self.arch or "", 1)  # not known: NCCL's Ampere row

    @property
    def speeds(self) -> str:
        return self.arch if self.arch in ("hopper", "blackwell") else "generic"

    @property
    def nvlink_gbps(self) -> float | None:
        """NCCL's NVLink total of one GPU (GB/s), None when the catalog does not say."""
        if self.nvlink_links is None or self.arch is None:
            return None
        return self.nvlink_links * NVLINK_LINK_GBPS[self.arch]

    @property
    def nvlink(self) -> bool:
        """Are the node's GPUs joined by NVLink (an NVSwitch domain, or links the catalog
        states)?  Else NCCL sees PCIe paths inside the node."""
        return self.nvswitch or self.nvlink_gbps is not None

    @property
    def nvls_capable(self) -> bool:
        return self.nvswitch and self.arch in ("hopper", "blackwell") and self.ranks > 1


def _fastest(speeds: tuple[float, ...], fits) -> int:  # noqa: ANN001
    """Index of the first (fastest) speed that fits, else the slowest."""
    for i, speed in enumerate(speeds):
        if fits(speed):
            return i
    return len(speeds) - 1


def _dup(channels: int, bw: float, arch: str | None) -> tuple[int, float]:
    """search.cc ncclTopoDupChannels: twice the channels at half the speed, unless slow or
    (after Ampere) below 50 GB/s with more than 4 channels."""
    if bw < 25.0 or ((arch in ("hopper", "blackwell")) and bw < 50.0 and channels > 4):
        return channels, bw
    doubled = min(channels * 2, MAX_RING_CHANNELS)
    return doubled, bw / math.ceil(doubled / channels)


class Tuning:
    """NCCL's latency / bandwidth table for one system (tuning.cc), and its choice."""

    def __init__(self, system: NcclSystem) -> None:
        self.system = system

    # ------------------------------------------------------------------ graphs (search.cc)
    @cached_property
    def ring_graph(self) -> Graph:
        s = self.system
        nvlink = s.nvlink_gbps
        if s.nodes <= 1:
            total = nvlink if nvlink is not None else 0.0
            speeds = _SPEED_INTRA[s.speeds]
            if not total:
                return Graph(0, 0.0, 0.0)
            at = _fastest(speeds, lambda v: v <= total)
            channels = max(1, min(MAX_RING_CHANNELS, int(total // speeds[at])))
            channels, bw = _dup(channels, speeds[at], s.arch)
            return Graph(channels, bw, bw)
        nic = s.nic_gbps / 8.0  # GB/s, topo.cc net.bw
        reach = min(nic, PCI_GEN5_X16_GBPS)
        speeds = _SPEED_INTER[s.speeds]
        speed = speeds[_fastest(speeds, lambda v: v <= reach)]
        channels = s.nics_per_node * max(1, int(nic // speed))
        if nvlink is not None:  # search.cc: stop once channels x speed reach the GPU's total
            channels = min(channels, max(1, math.ceil(nvlink / speed)))
        channels = max(1, min(channels, MAX_RING_CHANNELS))
        channels, bw = _dup(channels, speed, s.arch)
        return Graph(channels, bw, bw)

    @cached_property
    def nvls_graph(self) -> Graph | None:
        s = self.system
        if not s.nvls_capable:
            return None
        if s.nodes <= 1:
            total = s.nvlink_gbps
            if total is None:
                return None
            gpus = max(int(round(s.ppn)), 1)
            channels = min(MAX_NVLS_ARITY, gpus)
            speeds = _SPEED_INTRA[s.speeds]
            # search.cc: totalBw x n/(n-1) for patterns other than the ring
            budget = total * gpus / (gpus - 1) if gpus > 1 else total
            at = _fastest(speeds, lambda v: v <= total and v * channels <= budget)
            # second pass: inter bandwidth raised while below twice the intra one
            up = _fastest(speeds, lambda v: v < 2 * speeds[at])
            return Graph(channels, speeds[at], speeds[min(up, at)])
        ring = self.ring_graph
        speed = ring.bw_inter if ring.channels else 0.0
        return Graph(min(s.nics_per_node, MAX_NVLS_ARITY, max(int(round(s.ppn)), 1)), speed, speed)

    def graph(self, algorithm: str) -> Graph | None:
        if algorithm in ("nvls", "nvls_tree"):
            return self.nvls_graph
        return self.ring_graph if self.ring_graph.channels else None

    # ------------------------------------------------------------------ which run at all
    def enabled(self, algorithm: str, collective: str) -> bool:
        s = self.system
        if collective != "allreduce" and algorithm in ("tree", "collnet_chain", "nvls_tree"):
            return False  # tuning.cc: AG/RS run on ring, NVLS, CollNet Direct (and PAT)
        if algorithm in ("collnet_direct", "collnet_chain"):
            if not s.sharp or s.nodes <= 1 or (algorithm == "collnet_direct" and not s.nvswitch):
                return False
            return collective == "allreduce"  # AG/RS CollNet needs the plugin's iallgather
        if algorithm == "nvls":
            return s.nvls_capable and (s.nodes == 1 or s.sharp) and (
                collective == "allreduce" or s.nodes == 1)
        if algorithm == "nvls_tree":
            return s.nvls_capable and s.nodes > 1
        if algorithm == "tree" and s.nodes <= 1 and s.nvlink_gbps is None:
            return False
        return self.graph(algorithm) is not None

    # ------------------------------------------------------------------ the table
    def bandwidth(self, collective: str, algorithm: str, protocol: str) -> float:
        """Algorithm bandwidth (GB/s) NCCL's model gives (0: not used), tuning.cc."""
        s = self.system
        graph = self.graph(algorithm)
        if graph is None or not self.enabled(algorithm, collective):
            return 0.0
        if not self._protocol_runs(algorithm, protocol):
            return 0.0
        bw = self._channel_bw(graph, collective, algorithm)
        if bw is None:
            return 0.0
        bus = self._capped(graph.channels * bw, graph, collective, algorithm, protocol)
        nsteps = self.steps(collective)
        if algorithm in ("ring", "nvls", "nvls_tree"):
            bus *= s.ranks / nsteps
        else:
            bus *= .5
        return bus

    def _protocol_runs(self, algorithm: str, protocol: str) -> bool:
        """NVLS and CollNet run Simple only; LL128 needs NVLink inside the node (tuning.cc)."""
        p = PROTOCOLS.index(protocol)
        if algorithm in ("nvls", "nvls_tree", "collnet_direct", "collnet_chain") and p != 2:
            return False
        return not (protocol == "LL128" and not self.system.nvlink)  # no NVLink: PCIe paths

    def _column(self) -> int:
        """The column of NCCL's per-channel tables: one node, two, more."""
        nodes = self.system.nodes
        return 0 if nodes <= 1 else (1 if nodes == 2 else 2)

    def _channel_bw(self, graph: Graph, collective: str, algorithm: str) -> float | None:
        """One channel's bandwidth (GB/s): intra-node on up to two nodes and for CollNet, else
        inter-node; NVLS's from its efficiency and channels (None: too few channels)."""
        s = self.system
        arch, nodes = s.arch_index, s.nodes
        bw = graph.bw_intra if nodes <= 2 or algorithm.startswith("collnet") else graph.bw_inter
        if algorithm in ("nvls", "nvls_tree"):
            if graph.channels < 2:
                return None
            intra = graph.bw_intra * _NVLS_EFFICIENCY[arch] * (graph.channels - 1) / graph.channels
            intra *= 2.0 if collective == "allreduce" else (s.ppn - 1) / s.ppn
            inter = graph.bw_inter * (2 if nodes <= 2 and algorithm == "nvls_tree" else 1)
            bw = min(intra, inter, _PER_CH_NVLS_TREE[arch][self._column()]
                     if algorithm == "nvls_tree" else math.inf)
        return bw

    def _capped(self, bus: float, graph: Graph, collective: str, algorithm: str,
                protocol: str) -> float:
        """The bus bandwidth after NCCL's per-protocol caps and efficiencies (tuning.cc)."""
        s = self.system
        arch, nodes, col = s.arch_index, s.nodes, self._column()
        if algorithm == "ring" and protocol == "LL":
            bus = min(_LL_MAX_BW[arch if nodes == 1 else 0][col], bus * .5)
        if algorithm == "ring" and protocol == "LL128":
            bus = min(bus * 0.92, graph.channels * _PER_CH_RING_LL128[arch][col])
        if algorithm == "tree" and collective == "allreduce":
            bus = min(bus * .92, graph.channels * _PER_CH_TREE[arch][col])
        if algorithm == "tree" and protocol == "LL":
            bus = min(bus / 3.8, _LL_MAX_BW[arch if nodes == 1 else 0][col])
        if algorithm == "tree" and protocol == "LL128":
            bus = min(bus * (7.0 / 9.0 if nodes == 1 else 120.0 / 128.0),
                      graph.channels * _PER_CH_TREE_LL128[arch][col])
        if algorithm == "collnet_direct":
            factor = s.ppn / graph.channels
            factor -= (factor - 1) / 2
            bus /= factor
            if arch >= 2:
                bus *= .85
        return bus

    def steps(self, collective: str) -> int:
        n = self.system.ranks
        return 2 * (n - 1) if collective == "allreduce" else n - 1

    def latency(self, collective: str, algorithm: str, protocol: str) -> float:
        """Latency (us) NCCL's model gives, tuning.cc."""
        s = self.system
        p = PROTOCOLS.index(protocol)
        intra_hw = "nvlink" if s.nvlink else "pci"
        lat = _BASE_LAT[algorithm][p]
        intra = _HW_LAT[intra_hw][algorithm][p]
        inter = _HW_LAT["net"]["tree" if s.ppn == 1 else algorithm][p]
        nodes, ppn = s.nodes, round(s.ppn)
        if algorithm == "ring":
            overhead = 0.0
            if nodes > 1:
                overhead = NET_OVERHEAD_US * (3 if protocol == "Simple" else 1)
            intra = max(intra, overhead)
            nsteps = self.steps(collective)
            inter_steps = 0 if nodes == 1 else (2 * (nodes - 1) if collective == "allreduce"
                                                else nodes - 1)
            return lat + (nsteps - inter_steps) * intra + inter_steps * inter
        if algorithm == "tree":
            return lat + 2 * ((ppn - 1) * intra + _log2i(nodes) * inter)
        if algorithm == "collnet_direct":
            return lat + 2 * (min(1, ppn - 1) * intra + (ppn - 1) * 0.4) + inter
        if algorithm == "collnet_chain":
            return lat + 2 * (ppn - 1) * intra + inter
        if algorithm == "nvls":
            return intra + (inter if nodes > 1 else 0.0)
        return lat + intra + 2 * _log2i(nodes) * inter  # nvls_tree

    # ------------------------------------------------------------------ time and choice
    def time_us(self, collective: str, algorithm: str, protocol: str, nbytes: float,
                net_share: float = 1.0) -> float | None:
        """tuning.cc ncclTopoGetAlgoTime; `net_share` scales the bandwidth of an algorithm whose
        data crosses the network (the share of the NICs' rate the fabric delivers)."""
        bw = self.bandwidth(collective, algorithm, protocol)
        if bw <= 0:
            return None
        lat = self.latency(collective, algorithm, protocol)
        log_size = _log2i(int(nbytes) >> 6)
        if algorithm == "tree" and collective == "allreduce" and 0 <= log_size < 23:
            bw *= _TREE_CORRECTION[PROTOCOLS.index(protocol)][log_size]
        if (algorithm == "ring" and protocol == "Simple" and self.system.nodes > 1
                and collective == "allreduce"
                and nbytes / (self.runtime_channels * self.system.ranks) >= 64):
            lat *= 1.9 if self.system.arch_index < 1 else 1.4  # "plateau effect of ring"
        if self.system.nodes > 1:
            bw *= max(min(net_share, 1.0), 1e-9)
        return lat + nbytes / (1000 * bw)

    @property
    def runtime_channels(self) -> int:
        """connect.cc: the ring graph's channels, duplicated once more at run time."""
        return max(1, min(64, self.ring_graph.channels * 2))

    def choose(self, collective: str, nbytes: float, family: str = "auto",
               net_share: float = 1.0) -> Choice | None:
        """The (algorithm, protocol) NCCL runs for `nbytes`: the fastest of its table among those
        `family` allows (NCCL_ALGO); None when none can run."""
        best: Choice | None = None
        for algorithm in FAMILIES[family]:
            for protocol in PROTOCOLS:
                # NCCL decides on its own table, which does not know the fabric
                t = self.time_us(collective, algorithm, protocol, nbytes)
                if t is not None and (best is None or t < best.nccl_us):
                    best = Choice(algorithm, protocol, t, t)
        if best is None:
            return None
        actual = self.time_us(collective, best.algorithm, best.protocol, nbytes, net_share)
        return Choice(best.algorithm, best.protocol, best.nccl_us, actual or best.nccl_us)

    def bus_gbps(self, collective: str, nbytes: float, time_us: float) -> float:
        """nccl-tests' bus bandwidth (Gb/s) of a run of `time_us`: algBW x 2(n-1)/n for an
        all-reduce, x (n-1)/n for all-gather and reduce-scatter (nccl-tests PERFORMANCE.md)."""
        n = self.system.ranks
        factor = 2 * (n - 1) / n if collective == "allreduce" else (n - 1) / n
        return nbytes * 8 / (time_us * 1e-6) / 1e9 * factor


@dataclass(frozen=True)
class Choice:
    algorithm: str
    protocol: str
    nccl_us: float  # NCCL's own prediction (a fabric that carries the NICs' rate)
    time_us: float  # with the network part at the fabric's share


def _log2i(n: int) -> int:
    """tuning.cc log2i: floor(log2(n)), -1 for n < 1."""
    return n.bit_length() - 1 if n >= 1 else -1


def alltoall_time_us(system: NcclSystem, nbytes: float, net_share: float = 1.0) -> float | None:
    """An all-to-all of `nbytes` per rank (nccl-tests alltoall_perf).  NCCL runs it as
    point-to-point sends; across nodes, with PXN rail-aligned, each GPU's share for the other
    nodes, (n - ppn) / n of its bytes, leaves over its NIC at NCCL's per-channel speed for that
    NIC (48 GB/s for NDR 400G: "CX-7 NICs at NDR rate should achieve up to 48-49 GB/s per NIC",
    and "Alltoall cannot aggregate the bandwidth of multiple NICs", nccl-tests issue 267), its
    intra-node share over NVLink meanwhile.  On one node the NVLink bus bandwidth of NCCL's ring
    graph ("an effective NVLink bandwidth of 370GB/s, which you can observe as BusBw when
    running non-allreduce operations", nccl-tests issue 212).  None without either."""
    n, ppn = system.ranks, system.ppn
    latency = _HW_LAT["net"]["ring"][2] + _BASE_LAT["ring"][2]
    if n < 2:
        return None
    if system.nodes <= 1:
        ring = Tuning(system).ring_graph
        bus = ring.channels * ring.bw_intra
        if bus <= 0:
            return None
        return _HW_LAT["nvlink"]["ring"][2] + _BASE_LAT["ring"][2] + nbytes * (n - 1) / n / (1000 * bus)
    if system.nics_per_node <= 0:
        return None
    speeds = _SPEED_INTER[system.speeds]
    nic = system.nic_gbps / 8.0
    speed = speeds[_fastest(speeds, lambda v: v <= min(nic, PCI_GEN5_X16_GBPS))]
    per_gpu = speed * system.nics_per_node / ppn * max(min(net_share, 1.0), 1e-9)
    return latency + nbytes * (n - ppn) / n / (1000 * per_gpu)


def alltoall_bus_gbps(system: NcclSystem, nbytes: float, time_us: float) -> float:
    """nccl-tests' alltoall bus bandwidth (Gb/s): algBW x (n-1)/n."""
    n = system.ranks
    return nbytes * 8 / (time_us * 1e-6) / 1e9 * (n - 1) / n
