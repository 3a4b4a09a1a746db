"""The validation pages: oversubscription and workload bandwidth tables, and the findings list.

Numbers come from `aicnet_gui.analysis` (see `analysis_data.gather`), the same as
`aicnet validate --json` prints.  Switch tables list every switch on small fabrics and group
switches by ratio on big ones; findings are listed most severe first, with the objects they
concern (by name) and the suggested fix.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from ..analysis.fabric_paths import Bisection
from ..model.document import FabricDocument
from ..model.rounding import metres
from ..model.wording import counted
from .analysis_data import AnalysisData
from .pdfpage import PdfWriter
from .text_flow import Column, Flow

SEVERITY_FILL = {
    "error": (0.98, 0.85, 0.85),
    "warning": (1.0, 0.94, 0.80),
    "info": None,
}
MAX_SWITCH_ROWS = 60
MAX_FINDING_ROWS = 1500
TIER_OF_ROLE = {"leaf": "leaf", "mgmt": "leaf", "spine": "spine", "core": "core"}


def _ratio(value: float | None) -> str:
    return "no uplinks" if value is None else f"{value:.2f}:1"


def _gbps(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value / 1000:.1f} Tb/s" if value >= 10_000 else f"{value:g} Gb/s"


def _switch_tiers(doc: FabricDocument, names: list[str]) -> dict[str, str]:
    out = {}
    for name in names:
        device = doc.device_by_name(name)
        out[name] = TIER_OF_ROLE.get(doc.role_of(device).value, "switch") if device else "?"
    return out


def _switch_planes(doc: FabricDocument, names: list[str]) -> dict[str, str]:
    """Switch name -> "plane 2" on a fabric whose switches sit in several compute planes, so
    that the per-switch table tells leaf-01 (plane 1) from leaf-02 (plane 2); {} otherwise."""
    planes = {}
    for name in names:
        device = doc.device_by_name(name)
        if device is not None and device.plane:
            planes[name] = device.plane
    if len(set(planes.values())) < 2:
        return {}
    return {name: f"plane {plane}" for name, plane in planes.items()}


def plane_ratio_text(over: dict[str, Any]) -> str:
    """`plane 1: leaf 1.00:1; plane 2: leaf 1.00:1` ("" on a one-plane fabric)."""
    planes: dict[str, dict[str, float]] = over.get("planes", {})
    return "; ".join(f"plane {plane}: " + ", ".join(f"{t} {_ratio(r)}" for t, r in tiers.items())
                     for plane, tiers in planes.items())


def _bisection_text(w: dict[str, Any]) -> str:
    """The bisection bandwidth (the worst of its cuts, the other beside it), and each plane's on a
    multi-plane fabric (its own fat tree)."""
    text = Bisection.from_json(w).describe(_gbps)
    planes: dict[str, float] = w.get("plane_bisection_gbps", {})
    if planes:
        text += " (" + ", ".join(f"plane {p} {_gbps(v)}" for p, v in planes.items()) + ")"
    return text


def _training_target(over: dict[str, Any]) -> float:
    return float(over.get("targets", {}).get("training", 1.0))


def ratio_summary_rows(analysis: AnalysisData,
                       doc: FabricDocument | None = None) -> list[list[str]]:
    """Per tier: switches, lowest and highest ratio, how many exceed the training target."""
    over = analysis.metrics.get("oversubscription", {})
    switches: dict[str, float | None] = over.get("switches", {})
    if not switches:
        return []
    if doc is not None:
        tiers = _switch_tiers(doc, list(switches))
    else:
        tiers = {name: "switch" for name in switches}
    target = _training_target(over)
    groups: dict[str, list[float | None]] = defaultdict(list)
    for name, ratio in switches.items():
        groups[tiers[name]].append(ratio)
    rows = []
    for tier, ratios in sorted(groups.items()):
        known = [r for r in ratios if r is not None]
        above = sum(1 for r in known if r > target + 1e-9) + (len(ratios) - len(known))
        rows.append([tier, str(len(ratios)), _ratio(min(known)) if known else "-",
                     _ratio(max(known)) if known else "-", str(above)])
    return rows


def _not_validated(flow: Flow, analysis: AnalysisData | None, lead: str) -> bool:
    """When validation did not run, say why (after `lead`), end the section and return True."""
    if analysis is not None and analysis.ran:
        return False
    reason = analysis.failure if analysis is not None else "validation was skipped"
    flow.para(f"{lead}: {reason}.", size=9)
    flow.close()
    return True


def draw_analysis(writer: PdfWriter, doc: FabricDocument, analysis: AnalysisData | None,
                  size: tuple[float, float], check: Callable[[], None] | None = None) -> None:
    flow = Flow(writer, "Oversubscription and bandwidth", size, check).start()
    writer.bookmark("Oversubscription and workload bandwidth", 0)
    flow.heading("Oversubscription", 1)
    if _not_validated(flow, analysis, "No metrics"):
        return
    over = analysis.metrics.get("oversubscription", {})
    _oversubscription(flow, over)
    switches: dict[str, float | None] = over.get("switches", {})
    if switches:
        _switch_ratios(flow, doc, switches, _training_target(over))
    _workloads(flow, analysis)
    _lengths_and_breakouts(flow, analysis.metrics)
    flow.close()


def _oversubscription(flow: Flow, over: dict[str, Any]) -> None:
    """What the ratio is, the targets, the worst path and switch, per tier, plane and rail."""
    targets = over.get("targets", {})
    flow.para(
        "Ratio = connected downlink bandwidth : connected uplink bandwidth of a switch. "
        "Targets per workload kind: " + ", ".join(f"{k} {v:.2f}:1" for k, v in targets.items())
        + ".", size=8.5, rgb=(0.3, 0.3, 0.3))
    worst = over.get("worst_switch")
    flow.key_values([
        ("Effective (worst path)", _ratio(over.get("effective")) if over.get("tiers") else "-"),
        ("Worst path", " \u2192 ".join(over.get("effective_path") or []) or "-"),
        ("Worst switch", f"{worst}: {_ratio(over.get('worst'))}" if worst else "-"),
        ("Per tier (averages)", ", ".join(f"{t} {_ratio(r)}" for t, r in over.get("tiers", {}).items())
         or "-"),
        *([("Per plane (own fat tree)", plane_ratio_text(over))] if over.get("planes") else []),
    ])
    rails = over.get("rails", {})
    if rails:
        flow.heading("Per rail", 2)
        flow.table([Column("Rail", 0.5), Column("Ratio", 0.5, "right")],
                   [[f"rail {r}", _ratio(v)] for r, v in rails.items()])


def _switch_ratios(flow: Flow, doc: FabricDocument, switches: dict[str, float | None],
                   target: float) -> None:
    """Every switch's ratio on a small fabric (those above the training target marked), the
    switches grouped by tier and ratio on a big one."""
    tiers = _switch_tiers(doc, list(switches))
    planes = _switch_planes(doc, list(switches))
    tiers = {name: ", ".join(x for x in (tier, planes.get(name, "")) if x)
             for name, tier in tiers.items()}
    if len(switches) <= MAX_SWITCH_ROWS:
        flow.heading("Per switch", 2)
        rows, fills = [], []
        for name, ratio in switches.items():
            bad = ratio is None or ratio > target + 1e-9
            rows.append([name, tiers[name], _ratio(ratio), "above training target" if bad
                         else ""])
            fills.append(SEVERITY_FILL["warning"] if bad else None)
        flow.table([Column("Switch", 0.35), Column("Tier", 0.15), Column("Ratio", 0.2, "right"),
                    Column("Note", 0.3)], rows, row_fills=fills)
        return
    flow.heading(f"Switches by ratio ({len(switches)} switches)", 2)
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for name, ratio in switches.items():
        groups[(tiers[name], _ratio(ratio))].append(name)
    rows = [[tier, ratio, str(len(names)), ", ".join(names[:4]) + (" ..." if len(names) > 4
                                                                     else "")]
            for (tier, ratio), names in sorted(groups.items())]
    flow.table([Column("Tier", 0.12), Column("Ratio", 0.14, "right"),
                Column("Switches", 0.12, "right"), Column("Examples", 0.62)], rows)


def _workloads(flow: Flow, analysis: AnalysisData) -> None:
    """Each workload's bandwidth figures and its per-GPU bandwidth through each tier."""
    flow.heading("Workload bandwidth", 1)
    workloads = analysis.metrics.get("workloads", [])
    if not workloads:
        flow.para("No workloads defined: add one (Project > Workloads) to get per-GPU bandwidth, "
                  "bottlenecks and all-reduce estimates.", size=9)
    for w in workloads:
        flow.heading(f"{w['name']} ({w['kind']}, {w['pattern']})", 2)
        flow.key_values(_workload_rows(analysis, w))
        tiers = w.get("tiers", {})
        if tiers:
            flow.table([Column("Tier", 0.5), Column("Per-GPU bandwidth through the tier", 0.5,
                                                    "right")],
                       [[t, _gbps(v)] for t, v in tiers.items()])


def _workload_rows(analysis: AnalysisData, w: dict[str, Any]) -> list[tuple[str, str]]:
    bottleneck = w.get("bottleneck", {})
    allreduce = w.get("allreduce", {})
    time_ms = allreduce.get("time_ms")
    target = w.get("target_gbps_per_gpu")
    return [
        ("Servers / GPUs / NICs", f"{w['servers']} / {w['gpus']} / {w['nics']}"
         + (f" ({w['unconnected_servers']} servers not connected)"
            if w.get("unconnected_servers") else "")),
        ("Injection per GPU", _gbps(w.get("injection_gbps_per_gpu"))),
        ("Per GPU under the pattern", _gbps(w.get("per_gpu_gbps"))
         + (f" (target {_gbps(target)})" if target else "")),
        ("Ring all-reduce / all-to-all", f"{_gbps(w.get('ring_allreduce_gbps_per_gpu'))} / "
                                         f"{_gbps(w.get('all_to_all_gbps_per_gpu'))} per GPU"),
        ("Bottleneck", f"{bottleneck.get('tier', '-')}"
         + (f" ({bottleneck['switch']})" if bottleneck.get("switch") else "")),
        ("Bisection bandwidth", _bisection_text(w)),
        ("All-reduce estimate", f"{time_ms:g} ms for {allreduce.get('message_mb', 0):g} MB"
         + (f" (NCCL {allreduce.get('algorithm')}/{allreduce.get('protocol')})"
            if allreduce.get("algorithm") else "") if time_ms is not None else "-"),
        *_traffic_rows(analysis, w["id"]),
    ]


def _lengths_and_breakouts(flow: Flow, metrics: dict[str, Any]) -> None:
    reach = metrics.get("reach", {}).get("summary", {})
    breakouts = metrics.get("breakouts", {}).get("total", {})
    flow.heading("Lengths and breakouts", 1)
    longest = reach.get("longest_m")
    flow.key_values([
        ("Link lengths", f"{reach.get('estimated', 0)} estimated, {reach.get('manual', 0)} manual, "
                         f"{reach.get('unknown', 0)} unknown; longest "
                         + (f"{metres(longest)} m" if longest is not None else "-")),
        ("Over reach / no stock length", f"{reach.get('over_reach', 0)} / "
                                         f"{reach.get('no_stock_length', 0)}"),
        ("Cages by mode", ", ".join(f"{m}: {n}" for m, n in
                                    breakouts.get("cages_by_mode", {}).items()) or "-"),
        ("Legs used / stranded", f"{breakouts.get('legs_used', 0)} / "
                                 f"{breakouts.get('legs_stranded', 0)}"),
        ("Free ports", f"{breakouts.get('free_ports', 0)} "
                       f"({breakouts.get('free_switch_ports', 0)} on switches)"),
    ])


def _traffic_rows(analysis: AnalysisData, workload_id: str) -> list[tuple[str, str]]:
    """The traffic model's busBW per load-balancing mode, when it ran (traffic_pages.py)."""
    from .traffic_pages import traffic_line

    traffic = analysis.traffic
    if traffic is None or traffic.failure:
        return []
    found = [t for t in traffic.workloads if t.id == workload_id]
    return [("Traffic by mode", traffic_line(found[0]))] if found else []


def _object_names(doc: FabricDocument, ids: list[str]) -> str:
    names = []
    for object_id in ids[:6]:
        if object_id in doc.devices:
            names.append(doc.devices[object_id].name)
        elif object_id in doc.links:
            link = doc.links[object_id]
            a, b = doc.devices.get(link.a.device), doc.devices.get(link.b.device)
            names.append(f"{a.name if a else link.a.device}:{link.a.port}-"
                         f"{b.name if b else link.b.device}:{link.b.port}")
        elif object_id in doc.racks:
            names.append(f"rack {doc.racks[object_id].name}")
        elif object_id in doc.workloads:
            names.append(f"workload {doc.workloads[object_id].name}")
        else:
            names.append(object_id)
    if len(ids) > 6:
        names.append(f"+{len(ids) - 6} more")
    return ", ".join(names)


def _counts_text(counts: Counter) -> str:
    return (f"{counted(counts['error'], 'error')}, {counted(counts['warning'], 'warning')}, "
            f"{counted(counts['info'], 'note')}.")


def draw_findings(writer: PdfWriter, doc: FabricDocument, analysis: AnalysisData | None,
                  size: tuple[float, float], check: Callable[[], None] | None = None) -> None:
    flow = Flow(writer, "Findings", size, check).start()
    writer.bookmark("Findings", 0)
    flow.heading("Findings", 1)
    if _not_validated(flow, analysis, "The design was not validated"):
        return
    findings = analysis.findings
    counts = Counter(f.get("severity") for f in findings)
    flow.para(_counts_text(counts),
              size=10, bold=True)
    if not findings:
        flow.para("The validator found nothing to report.", size=9)
        flow.close()
        return
    by_code: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for f in findings:
        by_code[(f.get("severity", ""), f.get("code", ""))].append(f)
    order = {"error": 0, "warning": 1, "info": 2}
    flow.heading("By rule", 2)
    summary = sorted(by_code.items(), key=lambda kv: (order.get(kv[0][0], 3), kv[0][1]))
    flow.table([Column("Severity", 54), Column("Code", 0.25), Column("Count", 40, "right"),
                Column("Example", 0.75)],
               [[sev, code, str(len(items)), items[0].get("message", "")]
                for (sev, code), items in summary],
               row_fills=[SEVERITY_FILL.get(sev) for (sev, _), _ in summary])
    flow.heading("All findings", 2)
    shown = findings[:MAX_FINDING_ROWS]
    flow.table([Column("Severity", 48), Column("Code", 0.16), Column("Message", 0.38),
                Column("Objects", 0.22), Column("Suggested fix", 0.24)],
               [[f.get("severity", ""), f.get("code", ""), f.get("message", ""),
                 _object_names(doc, list(f.get("objects", []))),
                 (f.get("fix") or {}).get("description", "")] for f in shown],
               size=7, row_fills=[SEVERITY_FILL.get(f.get("severity")) for f in shown])
    if len(findings) > len(shown):
        flow.para(f"{len(findings) - len(shown)} more findings are not listed here; "
                  "run `aicnet validate FILE --json` for all of them.", size=8.5)
    flow.close()
