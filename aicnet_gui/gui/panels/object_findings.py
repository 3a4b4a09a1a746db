"""The live validation's findings about the objects an inspector page shows.

A page (a cable, a device) lists the findings whose objects include what it shows, coloured by
severity as in the findings dock, so that an edit's effect (FEC-MISMATCH, CHANNEL-POLARITY ...)
is read where the edit was made.  A report older than the document is not shown: the page says
"validating…" until the report of the current revision arrives.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from ...analysis import AnalysisReport, Finding
from .findings import SEVERITY_COLOURS

#: at most this many findings are listed on a page (the findings dock has them all)
SHOWN = 8


def findings_about(report: AnalysisReport, ids: Iterable[str], codes: Iterable[str] = ()
                   ) -> list[Finding]:
    """The report's findings that name one of `ids` (only of `codes` when given), in the
    report's order (worst first)."""
    wanted = set(ids)
    only = set(codes)
    return [f for f in report.findings
            if (not only or f.code in only) and not wanted.isdisjoint(f.objects)]


def finding_html(finding: Finding) -> str:
    colour = SEVERITY_COLOURS[finding.severity]
    return (f"<span style='color:{colour}'><b>{finding.severity.value} {finding.code}</b></span>"
            f" {escape(finding.message)}")


class ObjectFindings(QLabel):
    """A word-wrapped list of the findings about some objects."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.shown: list[Finding] = []

    def show_findings(self, report: AnalysisReport | None, revision: int,
                      ids: Iterable[str]) -> None:
        """Show the findings of `report` about `ids`, if the report describes `revision`."""
        if report is None or report.revision != revision:
            self.shown = []
            self.setText("<span style='color:#8a94a6'>validating…</span>")
            return
        self.shown = findings_about(report, ids)
        if not self.shown:
            self.setText("<span style='color:#2b8a3e'>no findings</span>")
            return
        lines = [finding_html(f) for f in self.shown[:SHOWN]]
        if len(self.shown) > SHOWN:
            lines.append(f"<span style='color:#8a94a6'>… {len(self.shown) - SHOWN} more in the "
                         "findings panel</span>")
        self.setText("<br>".join(lines))
