"""A candidate's metrics, every one read from its own design, never from a formula of the study:

- counts, power and cost from the bill of materials (`analysis.compute_bom`, what `aicnet bom`
  prints): switches by role and model, optics per part, cables per part and ordered length,
  the fibre cords' ordered length, power (the BOM's total with every part at its maximum,
  `Bom.maximum_power`, and the models that have none) and cost from the
  price list (with the parts that had no price);
- racks, rows and rack units from the design's racks and devices;
- oversubscription, bisection (max-flow on the fabric graph) and the collective estimate of
  every workload from the analysis report (`Analyzer.full`, what `aicnet validate` runs);
- findings by severity from that same report.

The failure sweep and the growth plan are resilience.py and headroom.py.
"""

from __future__ import annotations

from collections import Counter
from contextlib import suppress

from ..analysis.bandwidth import WorkloadMetrics
from ..analysis.bom import Bom, Pricer
from ..analysis.report import AnalysisReport
from ..model.catalog_entities import Role
from ..model.document import FabricDocument
from .candidate import POWER_BASIS, CollectiveEstimate, WorkloadResult
from .classes import cost_by_class, power_by_class
from .price_check import PriceCheck

SWITCH_ROLES = ("leaf", "spine", "core")
#: what the analysis' collective estimate is (CollectiveEstimate.model)
ANALYSIS_MODEL = "analysis: fluid model of the fabric (ECMP), NCCL algorithm of the workload"


def switches(doc: FabricDocument) -> dict[str, dict[str, int]]:
    """Per switch role (leaf, spine, core), the models and how many of each."""
    counts: dict[str, Counter[str]] = {role: Counter() for role in SWITCH_ROLES}
    for device in doc.devices.values():
        role = doc.role_of(device).value
        if role in counts:
            counts[role][device.model] += 1
    return {role: dict(sorted(c.items())) for role, c in counts.items()}


def cable_types(doc: FabricDocument, bom: Bom) -> tuple[dict[str, int], float]:
    """Physical cables per type (DAC, ACC, AEC, AOC, fibre, UTP) and the ordered length of the
    fibre cords in metres (a cord of unknown length counts 0)."""
    types: Counter[str] = Counter()
    fibre = 0.0
    for key, count in bom.cables.items():
        part_id, _, length = key.partition("@")
        part = doc.catalog.cable(part_id)
        types[part.type] += count
        if part.type == "fibre":
            with suppress(ValueError):  # unknown, or past every stock length: not ordered
                fibre += float(length) * count
    return dict(sorted(types.items())), round(fibre, 1)


def floor_use(doc: FabricDocument) -> tuple[int, int, int]:
    """(racks, rows, rack units taken by racked devices)."""
    units = sum(doc.device_model(d).height_ru for d in doc.devices.values() if d.rack)
    rows = len({rack.row for rack in doc.racks.values()})
    return len(doc.racks), rows, units


def tiers_of(doc: FabricDocument) -> int:
    return max((doc.tier_of(d) for d in doc.devices.values()), default=0)


def _workload(m: WorkloadMetrics) -> WorkloadResult:
    bottleneck = m.bottleneck_tier + (f" ({m.bottleneck_name})" if m.bottleneck_name else "")
    return WorkloadResult(
        id=m.id, name=m.name, kind=m.kind, pattern=m.pattern, servers=m.servers, gpus=m.gpus,
        per_gpu_gbps=m.per_gpu_gbps, bisection_gbps=m.bisection_gbps,
        allreduce_ms=m.allreduce_ms, bus_gbps=m.allreduce_bus_gbps, algorithm=m.algorithm,
        bottleneck=bottleneck,
        estimates=(CollectiveEstimate(ANALYSIS_MODEL, m.allreduce_ms, m.allreduce_bus_gbps),))


def workloads(report: AnalysisReport) -> tuple[WorkloadResult, ...]:
    return tuple(_workload(m) for m in report.metrics.workloads)


def primary_workload(results: tuple[WorkloadResult, ...]) -> str | None:
    """The workload the Pareto marks time: the first training job, else the first workload."""
    for w in results:
        if w.kind == "training":
            return w.id
    return results[0].id if results else None


def bisection(results: tuple[WorkloadResult, ...]) -> tuple[float, str]:
    """The bisection of the workload spanning the most servers (the whole cluster, unless the
    requirement splits it): max-flow between the two halves of its servers."""
    if not results:
        return 0.0, ""
    widest = max(results, key=lambda w: w.servers)  # max keeps the first of equals
    return widest.bisection_gbps, widest.id


def findings(report: AnalysisReport) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Counts per severity, and per severity the codes with their counts."""
    codes: dict[str, Counter[str]] = {s: Counter() for s in ("error", "warning", "info")}
    for finding in report.findings:
        codes[finding.severity.value][finding.code] += 1
    return ({"error": report.errors, "warning": report.warnings, "info": report.infos},
            {s: dict(sorted(c.items())) for s, c in codes.items()})


def cost_fields(bom: Bom, prices: PriceCheck | None
                ) -> tuple[float | None, str | None, bool, str]:
    """(cost, currency, incomplete, note): a total only when every part has a price and the
    price list had no bad row."""
    if prices is None and bom.cost_usd is None and not bom.cost_known_usd:
        return None, None, True, "no price list: cost unknown (aicnet ships no prices)"
    currency = bom.currency
    if prices is not None and not prices.complete:
        return (None, currency, True,
                f"the price list has {len(prices.problems)} bad or unknown row(s): cost "
                "incomplete")
    if bom.cost_usd is None:
        return (None, currency, True,
                f"no price for {len(bom.unpriced)} part(s): cost incomplete")
    source = "price list" if prices is not None else "catalog prices"
    return bom.cost_usd, currency, False, f"{source}, spares included"


def bom_fields(doc: FabricDocument, bom: Bom, prices: PriceCheck | None) -> dict[str, object]:
    """The metrics read from the bill of materials, as CandidateMetrics fields."""
    by_type, fibre_m = cable_types(doc, bom)
    cost, currency, incomplete, note = cost_fields(bom, prices)
    pricer = Pricer(doc, prices.prices if prices is not None else None)
    power_w, left_out = bom.maximum_power()  # one basis for every part (POWER_BASIS)
    return {
        "switches": switches(doc), "devices": dict(bom.devices_by_model),
        "optics": dict(bom.transceivers), "cables": dict(bom.cables),
        "cables_by_type": by_type, "fibre_m": fibre_m, "links": bom.links_total,
        "power_w": power_w, "power_basis": POWER_BASIS,
        "power_unknown": left_out, "power_typical_w": None,
        "power_unverified_w": bom.power_unverified_w(maximum_only=True),
        "power_by_class": power_by_class(doc, bom),
        "cost": cost, "cost_known": bom.cost_known_usd, "currency": currency,
        "cost_incomplete": incomplete, "cost_note": note, "unpriced": tuple(bom.unpriced),
        "cost_by_class": cost_by_class(doc, bom, pricer) if bom.cost_known_usd else None,
    }


def report_fields(doc: FabricDocument, report: AnalysisReport) -> dict[str, object]:
    """The metrics read from the analysis report, as CandidateMetrics fields."""
    results = workloads(report)
    over = report.metrics.oversubscription
    width, widest = bisection(results)
    counts, codes = findings(report)
    servers = [d for d in doc.devices.values() if doc.role_of(d) == Role.GPU_SERVER]
    racks, rows, units = floor_use(doc)
    return {
        "tiers": tiers_of(doc), "servers": len(servers),
        "gpus": sum(doc.device_model(d).gpus for d in servers),
        "racks": racks, "rows": rows, "rack_units": units,
        "bisection_gbps": width, "bisection_workload": widest,
        "oversubscription": over.effective, "oversubscription_path": tuple(over.effective_path),
        "oversubscription_tiers": dict(over.tiers), "workloads": results,
        "primary": primary_workload(results), "findings": counts, "finding_codes": codes,
    }
