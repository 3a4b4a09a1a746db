"""Fixes checked before they are offered (no Qt).

A finding's one-click fix (`analysis.findings.Fix`) is built by a rule from the finding alone.
`FixChecker` applies it to a copy of the document, re-analyses the copy incrementally
(`Analyzer.update`) and offers the ops only when they remove the finding and create no new
error; otherwise the finding keeps a fix in words that says why.  For link media findings
(reach, fibre kind, missing optic ...) it also proposes re-equipping the whole link - optics at
both ends and the cord together - with the media choice (`aicnet_gui.media.choose_media`),
checked the same way.

    checker = FixChecker(doc, analyzer, report)   # analyzer/report: the current analysis
    fix = checker.checked(finding)                # what to offer for this finding

Only findings whose fix is shown or requested are checked, so the analysis itself is not slowed.
"""

from .fix_checker import CHECK_LIMIT, FixChecker, Verdict, checked_report

__all__ = ["CHECK_LIMIT", "FixChecker", "Verdict", "checked_report"]
