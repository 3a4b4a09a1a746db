"""`aicnet validate FILE [--json]`: check a fabric; exit 0 clean, 1 errors, 2 bad input.

Loading enforces the structural invariants (ids unique, endpoints exist, a port carries at most
one link, catalog ids known, breakout modes supported); then every design rule and metric of
`aicnet_gui.analysis` runs (docs/rules.md).  Without --json: the findings grouped by severity
with their counts and the key metrics; with --json: `{"findings": [...], "metrics": {...}}`.

A fix is printed as one-click (`[one-click]`, or with its `ops` in JSON) only after it was
applied to a copy of the fabric and re-validated without a new error (aicnet_gui.repair);
only the fixes printed are checked, at most `CHECK_LIMIT` per run (the others are printed in
words).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from itertools import groupby
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..common import EXIT_FINDINGS, EXIT_OK, open_document, print_json

if TYPE_CHECKING:
    from ...analysis import AnalysisReport, Finding
    from ...analysis.bandwidth import WorkloadMetrics
    from ...repair import FixChecker

HELP = "check a fabric (exit 0 clean, 1 errors, 2 bad input)"
#: the section titles, by severity value
TITLES = {"error": "Errors", "warning": "Warnings", "info": "Notes"}
MAX_PER_CODE = 20
#: findings turned into JSON values at a time in `--json`
FINDINGS_CHUNK = 32_768


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("validate", help=HELP)
    parser.add_argument("file", help="a .fabric file")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--all", action="store_true",
                        help=f"list every finding (default: at most {MAX_PER_CODE} per code)")
    parser.set_defaults(func=run)


def _bisection(w: WorkloadMetrics) -> str:
    return (w.cuts.describe(lambda gbps: f"{gbps / 1000:g} Tb/s") if w.cuts is not None
            else f"{w.bisection_gbps / 1000:g} Tb/s")


def _ratio(value: float | None) -> str:
    return "no uplinks" if value is None else f"{value:g}:1"


def render(report: AnalysisReport, source: str, show_all: bool = False,
           checker: FixChecker | None = None) -> str:
    from ...model.wording import counted

    lines = [f"{source}: {counted(report.errors, 'error')}, {counted(report.warnings, 'warning')}, "
             f"{counted(report.infos, 'note')}  ({report.duration_ms:.0f} ms)"]
    lines += _finding_lines(report, show_all, checker)
    lines += _metric_lines(report)
    for w in report.metrics.workloads:
        lines += _workload_lines(w)
    return "\n".join(lines)


def _finding_lines(report: AnalysisReport, show_all: bool,
                   checker: FixChecker | None) -> list[str]:
    """The findings by severity, at most MAX_PER_CODE of a code unless `show_all`; a fix marked
    one-click only when `checker` checked it."""
    from ...analysis import Severity
    from ...repair import CHECK_LIMIT

    lines: list[str] = []
    by_severity = _runs(report.findings, _SEVERITY)
    # a report is sorted by severity, then code: runs read in C (2.4M findings)
    for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO):
        by_code = _runs(by_severity.get(severity, ()), _CODE)
        found = sum(map(len, by_code.values()))
        if not found:
            continue
        lines.append("")
        lines.append(f"{TITLES[severity.value]} ({found})")
        listed: list[Finding] = []
        for of_code in by_code.values():
            listed.extend(of_code if show_all else of_code[:MAX_PER_CODE])
        if checker is not None:
            listed = checker.checked_findings(listed, CHECK_LIMIT)
        for finding in listed:
            lines.append(f"  {finding.code:<22} {finding.message}")
            fix = finding.fix
            if fix is not None and fix.description:
                lines.append(f"  {'':<22}   fix: {fix.description}"
                             + ("  [one-click]" if fix.applicable else ""))
        for code, of_code in sorted(by_code.items()):
            if not show_all and len(of_code) > MAX_PER_CODE:
                lines.append(f"  {code:<22} ... and {len(of_code) - MAX_PER_CODE} more "
                             "(--all lists them)")
    return lines


def _runs(findings: Iterable[Finding], key: Callable[[Finding], Any]) -> dict[Any, list[Finding]]:
    """The findings by `key`, each in their order (a run of equal keys taken at once)."""
    found: dict[Any, list[Finding]] = {}
    for value, run in groupby(findings, key=key):
        found.setdefault(value, []).extend(run)
    return found


_SEVERITY, _CODE = attrgetter("severity"), attrgetter("code")


def _metric_lines(report: AnalysisReport) -> list[str]:
    """The Metrics section: oversubscription (per plane too), link lengths, breakouts."""
    from ...model.rounding import metres

    metrics = report.metrics
    over = metrics.oversubscription
    lines = ["", "Metrics"]
    tiers = ", ".join(f"{k} {_ratio(v)}" for k, v in over.tiers.items()) or "no uplinks"
    worst_name, worst = over.worst
    path = " -> ".join(over.effective_path)
    lines.append(f"  oversubscription: {tiers} (tier averages); effective {_ratio(over.effective)}"
                 + (f" on the worst path {path}" if len(over.effective_path) > 1 else "")
                 + (f"; worst switch {worst_name} {_ratio(worst)}" if worst_name else ""))
    for plane, ratios in over.planes.items():
        lines.append(f"  plane {plane}: " + ", ".join(f"{k} {_ratio(v)}" for k, v in ratios.items())
                     + " (its own fat tree)")
    reach = metrics.reach.summary
    longest = reach["longest_m"]
    lines.append(f"  links: {reach['links']} ({reach['estimated']} estimated, {reach['manual']} typed "
                 f"in, {reach['unknown']} unknown length); longest "
                 f"{'-' if longest is None else f'{metres(longest)} m'}; {reach['over_reach']} over reach")
    total = metrics.breakouts.total
    lines.append(f"  breakouts: {total['split_cages']} split cages, {total['legs_used']} legs used, "
                 f"{total['legs_stranded']} stranded, {total['free_ports']} free ports "
                 f"({total['free_switch_ports']} on switches)")
    return lines


def _workload_lines(w: WorkloadMetrics) -> list[str]:
    """One workload's bandwidth, bottleneck, bisection, all-reduce time and assumptions."""
    from ...analysis.collectives import NCCL_NAMES

    time_ms = "-" if w.allreduce_ms is None else f"{w.allreduce_ms:g} ms"
    if w.allreduce_ms is not None and w.algorithm:
        time_ms += f" (NCCL {NCCL_NAMES.get(w.algorithm, w.algorithm)}/{w.protocol})"
    if w.slowest_server and w.allreduce_ms is not None:
        time_ms += f" (paced by {w.slowest_server}: {w.slowest_gbps_per_gpu:g} Gb/s per GPU)"
    where = f" at {w.bottleneck_name}" if w.bottleneck_name else ""
    lines = [
        f"  workload {w.name} ({w.kind}, {w.pattern}): {w.gpus} GPUs, {w.per_gpu_gbps:g} Gb/s "
        f"per GPU (NIC {w.injection_gbps_per_gpu:g}); bottleneck {w.bottleneck_tier}{where}; "
        f"bisection {_bisection(w)} by max-flow; all-reduce of {w.message_mb:g} MB "
        f"{time_ms}"]
    if w.pattern == "ring-allreduce":
        lines.append(f"    ring per GPU: {w.ring_gbps_per_gpu:g} Gb/s with ranks in topology "
                     f"order, {w.ring_scattered_gbps_per_gpu:g} Gb/s scattered "
                     f"(this workload: {w.placement})")
    lines.append("    assumptions: " + "; ".join(w.assumptions))
    if w.plane_bisection:
        lines.append("    bisection per plane: " + ", ".join(
            f"plane {p} {g / 1000:g} Tb/s" for p, g in w.plane_bisection))
    return lines


def run(args: argparse.Namespace) -> int:
    from ...analysis import Analyzer
    from ...json_stream import Streamed
    from ...repair import CHECK_LIMIT, FixChecker

    doc = open_document(args.file)
    analyzer = Analyzer(doc)
    report = analyzer.full()  # frozen when made: the fixes checked next never walk it
    checker = FixChecker(doc, analyzer, report)
    if args.json:
        # report.to_json() with the checked fixes (the findings are turned into JSON once)
        # both written a chunk at a time (json_stream.py): 2.4M findings or 1.2M links' reach
        # never whole in memory as JSON values
        findings = checker.checked_findings(report.findings, CHECK_LIMIT)
        print_json({"findings": Streamed(list, (
                        [f.to_json() for f in findings[start:start + FINDINGS_CHUNK]]
                        for start in range(0, len(findings), FINDINGS_CHUNK))),
                    "metrics": report.metrics.to_json(streamed=True)})
    else:
        print(render(report, args.file, getattr(args, "all", False), checker))
    return EXIT_FINDINGS if report.errors else EXIT_OK
