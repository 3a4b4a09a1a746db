"""Analysis of a fabric (pure Python, no Qt): design rules, metrics and the bill of materials.

    report = analyze(doc)                 # everything, once
    analyzer = Analyzer(doc)              # keeps state between runs
    report = analyzer.full()
    report = analyzer.update(changes)     # after doc.apply(...): only what the edit touched
    bom = compute_bom(doc)

Every finding has a stable code, a severity, a message, the ids it concerns and, where there
is one, a `Fix` (text, plus model operations the GUI can apply in one click).  The rules and
the metric formulas are documented in docs/rules.md.
"""

from .bom import Bom, compute_bom
from .engine import DEFAULT_RULES, Analyzer, analyze
from .findings import Finding, Fix, Severity
from .report import AnalysisReport
from .state import Rule

__all__ = [
    "DEFAULT_RULES",
    "AnalysisReport",
    "Analyzer",
    "Bom",
    "Finding",
    "Fix",
    "Rule",
    "Severity",
    "analyze",
    "compute_bom",
]
