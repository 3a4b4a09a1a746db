"""The validation results the report prints, taken from `aicnet_gui.analysis`.

`gather(doc)` runs the analysis and `compute_bom(doc)` once per export and keeps their JSON
forms (the same shapes `aicnet validate --json` and `aicnet bom --json` print, fixes checked as
there), so the PDF shows exactly what the command line and the GUI report.  If the analysis raises, the export still goes
on: the cover and the findings section say that validation could not run, and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..catalog.prices import PriceList
from ..model.document import FabricDocument


@dataclass
class AnalysisData:
    findings: list[dict[str, Any]] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    bom: dict[str, Any] = field(default_factory=dict)
    failure: str = ""
    #: the `Bom` whose JSON is `bom` (the PDF's order list is drawn from it)
    parts: Any = None
    #: the traffic model's results (report/traffic_pages.TrafficData), when a section shows them
    traffic: Any = None

    @property
    def ran(self) -> bool:
        return not self.failure

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.get("severity") == severity)

    @property
    def errors(self) -> int:
        return self.count("error")

    @property
    def warnings(self) -> int:
        return self.count("warning")


def gather(doc: FabricDocument, with_bom: bool = True,
           prices: PriceList | None = None) -> AnalysisData:
    """Findings, metrics and BOM of `doc` as plain JSON-like data.

    The per-link reach table and per-device breakout table of the metrics are left out (100k
    entries on a big fabric); their summaries are kept.
    """
    from ..analysis import Analyzer, compute_bom
    from ..repair import CHECK_LIMIT, FixChecker

    data = AnalysisData()
    try:
        analyzer = Analyzer(doc)
        report = analyzer.full()
        metrics = report.metrics
        # the suggested fixes as aicnet validate prints them: checked on a copy first
        checker = FixChecker(doc, analyzer, report)
        data.findings = [f.to_json() for f in checker.checked_findings(report.findings, CHECK_LIMIT)]
        data.metrics = {
            "oversubscription": metrics.oversubscription.to_json(),
            "workloads": [workload.to_json() for workload in metrics.workloads],
            "reach": {"summary": metrics.reach.summary},
            "breakouts": {"total": metrics.breakouts.total},
        }
        if with_bom:
            data.parts = compute_bom(doc, prices)
            data.bom = data.parts.to_json(details=True)
    except Exception as exc:  # noqa: BLE001 - the plan still prints; the failure is reported
        data.failure = f"{type(exc).__name__}: {exc}"
    return data
