"""Design-report sections on the fabric's shape: compute planes, rail-only, the NVLink domain.

- **Compute planes** (a multi-plane design: switches carry their plane): how the NICs split,
  each plane's part of the BOM, and where the parts come from: NVIDIA's multi-plane reference
  architectures list the NIC-to-leaf and leaf-to-spine cables and transceivers in sections that
  could not be reached (docs/sources-2026.md §1.1), so the optics and cables are the catalog's
  automatic media choice, and the report says so.
- **Rail-only fabric** (`settings.rail_planes`): the NCCL settings such a fabric needs (NCCL user
  guide, `NCCL_CROSS_NIC`; NVIDIA/nccl issue 2345 on fully isolated rails), the all-to-all
  penalty of the collective model (analysis/scaleup.py), and its network cost and power beside
  the rail-optimized design of the same servers (change/counterpart.py).
- **NVLink domain** (servers of a rack-scale system: an NVL72 rack): the all-reduce reduced
  inside each domain first, over NVLink, then across domains over the NICs (scaleup.py).
"""

from __future__ import annotations

from ..analysis.bom_planes import PLANES_TITLE, plane_label
from ..analysis.scaleup import hierarchical_allreduce
from ..catalog.prices import PriceList
from ..change.counterpart import Counterpart, NetworkCost, counterpart
from ..model.document import FabricDocument
from ..model.nvlink_domains import nvlink_domains
from .analysis_data import AnalysisData
from .text_flow import Column, Flow

SOURCES_2026 = "docs/sources-2026.md"

#: the NCCL environment of a rail-only fabric: (variable, value, why); NCCL user guide,
#: Environment Variables, and NVIDIA/nccl issues 1933, 918 and 2345
RAIL_ONLY_NCCL: tuple[tuple[str, str, str], ...] = (
    ("NCCL_CROSS_NIC", "0",
     "\"Always use the same NIC for the same ring/tree, to avoid crossing network rails. Suited "
     "for networks with per NIC switches (rails), with a slow inter-rail connection\" (NCCL user "
     "guide, Environment Variables; default 2). NCCL does not detect the network topology: "
     "this setting is how it learns that rails do not meet (NVIDIA/nccl issue 1933)"),
    ("NCCL_PXN_DISABLE", "unset (PXN on)",
     "PXN moves data over NVLink to the GPU on the destination's rail first: the only way "
     "between rails here (on by default, NVIDIA/nccl issue 918)"),
    ("communicators", "the same GPUs on every node",
     "NCCL may still pick different NICs on different nodes for one ring; older NCCL guides: "
     "\"there are corner cases for which NCCL may still cause cross-rail communication, so "
     "rails still need to be connected at the top\""),
    ("NCCL_NET_DISABLE_INTRA", "1 (if a job hangs)",
     "NVIDIA/nccl issue 2345 (NCCL 2.30.7): fully isolated rails hung although "
     "NCCL_CROSS_NIC=0 (maintainer: \"setting crossNIC = 0 for ring will only impact the "
     "intra-host NIC selection. It will not force all the GPUs to align on which NET to "
     "choose\"); the reporter's run completed with NCCL_NET_DISABLE_INTRA=1 plus "
     "NCCL_CROSS_NIC=0, which is not a maintainer's recommendation: test it at bring-up"),
)


def draw_fabric_shape(flow: Flow, doc: FabricDocument, analysis: AnalysisData | None,
                      prices: PriceList | None = None) -> None:
    """The compute-plane, rail-only and NVLink-domain sections that apply to `doc`."""
    if analysis is not None and analysis.ran and analysis.bom.get("planes"):
        _planes(flow, doc, analysis)
    if doc.settings.rail_planes:
        _rail_only(flow, doc, analysis, prices)
    _nvlink_domain(flow, doc, analysis)


def _planes(flow: Flow, doc: FabricDocument, analysis: AnalysisData) -> None:
    planes = analysis.bom["planes"]
    count = len([name for name in planes if name != "shared"])
    flow.heading("Compute planes", 2)
    flow.para(
        f"{count} planes: every GPU's NIC runs {count} ports, port k in plane k; each plane is "
        "its own fat tree, and a switch, optic or cable failure costs one plane's share of the "
        "bandwidth, not the job (NVIDIA: \"each compute networking plane forms a separate "
        "fabric, where the resiliency and the load balancing between the two planes is "
        "handled by the NCCL on the host\", NVL72 AI Factory RA).", size=9)
    flow.para(
        "Parts: NVIDIA's multi-plane reference architectures list the NIC-to-leaf and "
        "leaf-to-spine cables and transceivers in sections that could not be reached "
        f"({SOURCES_2026} §1.1): the optics and cables of this design are the catalog's "
        "automatic media choice (see the optics deployment plan), not NVIDIA's list. Counts: "
        "NVIDIA's table for the twin-plane DGX B300 Spectrum-X SU is RA-11337-001 Table 3 (16 "
        "leaves and 8 spines per 64-node SU); four planes and planes on XDR InfiniBand have no "
        "NVIDIA count table and are aicnet's own sizing.", size=8.5, rgb=(0.3, 0.3, 0.3))
    rows = []
    for name, part in planes.items():
        devices = sum(part["devices"].values())
        optics = sum(part["transceivers"].values())
        cables = sum(part["cables"].values())
        rows.append([plane_label(name), str(devices), str(optics), str(cables),
                     str(part["links"]["total"])])
    flow.para(PLANES_TITLE + ".", size=8.5, rgb=(0.3, 0.3, 0.3))
    flow.table([Column("Plane", 0.2), Column("Devices", 0.2, "right"),
                Column("Optics", 0.2, "right"), Column("Cables", 0.2, "right"),
                Column("Links", 0.2, "right")], rows, size=7.5)


def _rail_only(flow: Flow, doc: FabricDocument, analysis: AnalysisData | None,
               prices: PriceList | None) -> None:
    flow.heading("Rail-only fabric", 2)
    flow.para(
        "Every rail is its own network; no spine joins two rails (Wang, Ghobadi et al., "
        "\"Rail-only\", arXiv 2307.12169v5). GPUs of different rails on different servers "
        "reach each other only through NVLink inside a server: NCCL must keep each ring and "
        "tree on one rail and forward between rails over NVLink (PXN).", size=9)
    flow.table([Column("NCCL setting", 0.22), Column("Value", 0.16), Column("Why", 0.62)],
               [list(row) for row in RAIL_ONLY_NCCL], size=7.3)
    terms = _alltoall_terms(analysis)
    if terms:
        flow.para("All-to-all (MoE expert traffic): " + "; ".join(terms) + ".", size=8.5)
    _beside(flow, doc, prices)


def _alltoall_terms(analysis: AnalysisData | None) -> list[str]:
    """The collective model's rail-only all-to-all line of each workload."""
    if analysis is None or not analysis.ran:
        return []
    out = []
    for workload in analysis.metrics.get("workloads", []):
        for line in workload.get("assumptions", []):
            if line.startswith("rail-only all-to-all"):
                rate = workload.get("all_to_all_gbps_per_gpu")
                out.append(f"{workload['name']}: {rate:g} Gb/s per GPU; {line}")
    return out


def _beside(flow: Flow, doc: FabricDocument, prices: PriceList | None) -> None:
    """This rail-only design's network beside the rail-optimized design of its servers."""
    found = counterpart(doc, prices)
    if isinstance(found, str):
        flow.para(f"Beside the rail-optimized design: not shown ({found}).", size=8.5)
        return
    flow.para(
        "The network of the same servers as a rail-optimized fat tree, generated with the same "
        "switches and floor; servers and the optics in them are the same in both and left out. "
        "Wang et al. count 38-77 % less network cost and 37-75 % less network power for "
        "rail-only at their scale; the saving depends on the tiers a rail needs.", size=8.5,
        rgb=(0.3, 0.3, 0.3))
    rows = [_cost_row(found.this, " (this design)"), _cost_row(found.other, "")]
    rows.append(["rail-only saves", *[_share(found, f) for f in
                                      ("switches", "optics", "cables", "power_w", "cost")]])
    flow.table([Column("Network", 0.26), Column("Switches", 0.12, "right"),
                Column("Optics", 0.12, "right"), Column("Cables", 0.12, "right"),
                Column("Power", 0.16, "right"), Column(f"Cost {found.this.currency}", 0.22,
                                                        "right")], rows, size=7.5)


def _cost_row(cost: NetworkCost, suffix: str) -> list[str]:
    power = "unknown" if cost.power_w is None else f"{cost.power_w / 1000:,.1f} kW"
    money = "no price list" if cost.cost is None else f"{cost.cost:,.0f}"
    return [cost.label + suffix, f"{cost.switches:,}", f"{cost.optics:,}", f"{cost.cables:,}",
            power, money]


def _share(found: Counterpart, field: str) -> str:
    value = found.saving(field)
    return "-" if value is None else f"{value:.0%}"


def _nvlink_domain(flow: Flow, doc: FabricDocument, analysis: AnalysisData | None) -> None:
    """An NVL72-class design's all-reduce, reduced inside each NVLink domain first."""
    domains = nvlink_domains(doc)
    if not domains or analysis is None or not analysis.ran:
        return
    first = doc.devices[domains[0].devices[0]]
    model = doc.device_model(first)
    workloads = analysis.metrics.get("workloads", [])
    if model.nvlink_gbps is None or not workloads:
        return
    size = doc.settings.allreduce_message_mb * 1e6
    flow.heading("NVLink domain", 2)
    flow.para(
        f"{len(domains)} NVLink domain(s) of {domains[0].gpus} GPUs ({domains[0].system}). An "
        "all-reduce reduces inside each domain first (reduce-scatter over NVLink at "
        f"{model.nvlink_gbps:,.0f} Gb/s per GPU and direction), then across domains over the "
        "NICs (one ring per GPU index, 1/G of the message each), then gathers inside the "
        "domain again (analysis/scaleup.py).", size=8.5)
    rows = []
    for workload in workloads:
        gpus = workload.get("gpus") or 0
        network = workload.get("per_gpu_gbps") or 0.0
        if gpus < 2 or network <= 0:
            continue
        estimate = hierarchical_allreduce(gpus, domains[0].gpus, model.nvlink_gbps, network, size)
        rows.append([workload["name"], str(gpus), f"{estimate.nvlink_ms:.3f}",
                     f"{estimate.network_ms:.3f}", f"{estimate.time_ms:.3f}",
                     estimate.bottleneck])
    if rows:
        flow.table([Column("Workload", 0.3), Column("GPUs", 0.1, "right"),
                    Column("NVLink ms", 0.15, "right"), Column("Network ms", 0.15, "right"),
                    Column("Time ms", 0.15, "right"), Column("Sets the pace", 0.15)], rows,
                   size=7.5)
        flow.para(f"Message {doc.settings.allreduce_message_mb:g} MB; bandwidth terms only "
                  "(no latency, no protocol efficiency).", size=8, rgb=(0.3, 0.3, 0.3))
