"""`FixChecker`: a fix is applied to a copy of the document and re-validated before it is offered.

The check runs the incremental analyzer (`Analyzer.update`) on a copy of the document: apply the
fix's ops, compare the error findings with those of the current report, apply the inverse ops
and update again (reading the original document, which the copy equals again), so the analyzer
ends where it started.  A fix is offered (keeps its ops) only
when it applies, clears its finding (one fewer finding of that code on those objects) and adds
no error: no (code, objects) pair has more error findings than before.  Otherwise the finding
keeps its fix in words, with the reason the one-click version is withheld.

The comparison reads only what the trial changed (`Analyzer.trial_update`: the findings of the
rules and keys it ran again, before and after) against the counts of the report, worked out
once: a design with a finding on every one of 300k links is not counted and sorted again for
each fix checked.

For link media findings the checker also tries the generators' media choice for the link
(media_fix.py): optics at both ends and the cord together.  Results are cached per finding.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..analysis import AnalysisReport, Analyzer, Finding, Fix, Severity
from ..analysis.engine import FindingChanges
from ..analysis.findings import sort_findings
from ..model.document import FabricDocument, ModelError
from ..model.edits import Operation

#: how many fixes one listing (`aicnet validate`, the PDF) checks; the rest stay in words
CHECK_LIMIT = 500

#: link findings a re-chosen set of media (optics at both ends + cord) can clear
MEDIA_CODES = frozenset({
    "REACH-EXCEEDED", "DAC-ACROSS-RACKS", "MEDIA-MISMATCH", "OPTIC-MISSING", "FORM-FACTOR",
    "TECH-MISMATCH", "CABLE-UNSET", "PORT-DUPLICATE",
})

Key = tuple[str, tuple[str, ...]]


def _key(finding: Finding) -> Key:
    return finding.code, finding.objects


def _content(finding: Finding) -> tuple[str, str, tuple[str, ...], str]:
    """What tells two findings apart in a report (its order: severity, code, objects, message)."""
    return finding.code, finding.severity, finding.objects, finding.message


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a fix may be offered; `reason` says why not; `new_errors` what it would cause."""

    ok: bool
    reason: str = ""
    new_errors: tuple[Finding, ...] = ()


class FixChecker:
    """Checks the fixes of one analysed revision of a document.

    `analyzer` and `report` are the analysis of `doc` as it is now; the analyzer is borrowed
    (it is pointed at a private copy during a check and back at `doc` after it).  Without them
    the checker analyses its own copy once.
    """

    def __init__(self, doc: FabricDocument, analyzer: Analyzer | None = None,
                 report: AnalysisReport | None = None) -> None:
        self.doc = doc
        self.revision = doc.revision
        self._own = analyzer is None
        self._copy: FabricDocument | None = None
        if analyzer is None:
            self._copy = doc.snapshot()
            analyzer = Analyzer(self._copy)
            report = analyzer.full()
        elif report is None:
            raise ValueError("a borrowed analyzer needs the report of its last run")
        self.analyzer = analyzer
        self.report = report
        # (code, objects) -> count, for the errors and for every finding: worked out on the
        # first `verify` (a listing of 200k findings whose fixes are in words never needs them)
        self._counts: tuple[Counter[Key], Counter[Key]] | None = None
        self._cache: dict[tuple[str, tuple[str, ...], str], Fix | None] = {}

    def report_counts(self) -> tuple[Counter[Key], Counter[Key]]:
        """(errors, all findings) of the checked report, per (code, objects)."""
        if self._counts is None:
            findings = self.report.findings
            self._counts = (Counter(_key(f) for f in findings if f.severity == Severity.ERROR),
                            Counter(_key(f) for f in findings))
        return self._counts

    @property
    def current(self) -> bool:
        """True while the document is still at the revision the checker was made for."""
        return self.doc.revision == self.revision

    def _copy_doc(self) -> FabricDocument:
        if self._copy is None:
            self._copy = self.doc.snapshot()
        return self._copy

    # ------------------------------------------------------------------ one fix
    def trial(self, ops: Sequence[Operation]) -> Outcome | str:
        """Apply `ops` to the copy, re-validate, restore: what the findings would be (an
        `Outcome`), or why the ops do not apply."""
        copy = self._copy_doc()
        try:
            applied = copy.apply(list(ops))
        except ModelError as exc:
            return f"it does not apply to the design ({exc})"
        after: FindingChanges | AnalysisReport | None = None
        try:
            after = self.analyzer.trial_update(applied.changes, copy)
        finally:
            undone = copy.apply(applied.inverse)
            # the copy is the document again: a borrowed analyzer goes back to reading `doc`
            self.analyzer.undo_trial(undone.changes, copy if self._own else self.doc, after)
        return Outcome(self, after)

    def verify(self, finding: Finding, ops: Sequence[Operation]) -> Verdict:
        """Apply `ops` to the copy, re-validate, restore; may the fix be offered for `finding`?"""
        if not ops:
            return Verdict(False, "it has no operations")
        outcome = self.trial(ops)
        if isinstance(outcome, str):
            return Verdict(False, outcome)
        new = outcome.first_of(outcome.grown_errors())
        if new:
            first = next(iter(new.values()))
            more = f" and {len(new) - 1} more" if len(new) > 1 else ""
            return Verdict(False, f"applied, it would cause {first.code} ({first.message}){more}",
                           tuple(new.values()))
        if outcome.count(_key(finding)) >= self.report_counts()[1].get(_key(finding), 0):
            return Verdict(False, "applied, it does not clear this finding")
        return Verdict(True)

    def checked(self, finding: Finding) -> Fix | None:
        """The fix to offer for `finding`: with ops only if they passed `verify`, else in words."""
        if not self.current:
            raise RuntimeError("the document changed since this FixChecker was made; make a new one")
        cache_key = (finding.code, finding.objects, finding.message)
        if cache_key in self._cache:
            return self._cache[cache_key]
        fix = self._checked(finding)
        self._cache[cache_key] = fix
        return fix

    def _checked(self, finding: Finding) -> Fix | None:
        fix = finding.fix
        reasons: list[str] = []
        if fix is not None and fix.ops:
            verdict = self.verify(finding, fix.ops)
            if verdict.ok:
                return fix
            reasons.append(verdict.reason)
        media: Fix | None = None
        if finding.code in MEDIA_CODES and finding.objects and finding.objects[0] in self.doc.links:
            # the media chooser (generators) is imported only when a media finding is checked:
            # `aicnet validate` of a clean design never pays for it
            from .media_fix import media_fix

            media = media_fix(self.doc, finding.objects[0])
            if media is not None and media.ops and (fix is None or media.ops != fix.ops):
                verdict = self.verify(finding, media.ops)
                if verdict.ok:
                    return media
                reasons.append(verdict.reason)
        words = [fix.description] if fix is not None and fix.description else []
        if media is not None and not media.ops:
            words.append(media.description)
        if not words and not reasons:
            return fix
        text = "; ".join(words) or "no mechanical fix found"
        if reasons:
            text += f" (not offered as a one-click fix: {reasons[0]})"
        return Fix(text)

    def checked_findings(self, findings: Iterable[Finding], limit: int | None = None) -> list[Finding]:
        """`findings` with their fixes replaced by the checked ones; once this checker has
        checked `limit` fixes the rest keep their fix in words only (a fix is never offered
        unchecked)."""
        out: list[Finding] = []
        for f in findings:
            if not _may_offer(f):
                out.append(f)
            elif limit is None or len(self._cache) < limit:
                out.append(replace(f, fix=self.checked(f)))
            else:
                fix = _unchecked(f.fix, limit)
                out.append(f if fix is f.fix else replace(f, fix=fix))
        return out


class Outcome:
    """The findings after a trial (`FixChecker.trial`), asked about by (code, objects): from
    the changes the trial made to the checked report's counts, or from a whole report when the
    analyzer gave one (a full run)."""

    def __init__(self, checker: FixChecker, after: FindingChanges | AnalysisReport) -> None:
        self._checker = checker
        self._after = after
        self._errors: Counter[Key] = Counter()  # the change of each pair's error count
        self._all: Counter[Key] = Counter()  # ... and of its count of findings
        if isinstance(after, FindingChanges):
            for sign, findings in ((-1, after.removed), (1, after.added)):
                for f in findings:
                    key = _key(f)
                    self._all[key] += sign
                    if f.severity == Severity.ERROR:
                        self._errors[key] += sign

    def grown_errors(self) -> set[Key]:
        """The (code, objects) pairs with more error findings than the checked report."""
        if isinstance(self._after, AnalysisReport):
            before = self._checker.report_counts()[0]
            errors = Counter(_key(f) for f in self._after.findings if f.severity == Severity.ERROR)
            return {k for k, n in errors.items() if n > before.get(k, 0)}
        return {k for k, n in self._errors.items() if n > 0}

    def count(self, key: Key) -> int:
        """How many findings the pair has after the trial."""
        if isinstance(self._after, AnalysisReport):
            return sum(1 for f in self._after.findings if _key(f) == key)
        return self._checker.report_counts()[1].get(key, 0) + self._all[key]

    def first_of(self, keys: set[Key]) -> dict[Key, Finding]:
        """The first finding (in a report's order) of each pair of `keys` that has one after
        the trial, in the order of those findings."""
        if not keys:
            return {}
        after = self._after
        if isinstance(after, AnalysisReport):
            findings: Iterable[Finding] = after.findings
        else:
            # the report's findings of those pairs, less the ones the trial removed (an equal
            # finding may be another object: a restore makes its findings again), plus the
            # ones it added, in a report's order
            gone = Counter(_content(f) for f in after.removed if _key(f) in keys)
            kept: list[Finding] = []
            for f in self._checker.report.findings:
                if _key(f) in keys:
                    content = _content(f)
                    if gone[content] > 0:
                        gone[content] -= 1
                    else:
                        kept.append(f)
            findings = [*kept, *(f for f in after.added if _key(f) in keys)]
            sort_findings(findings)
        first: dict[Key, Finding] = {}
        for f in findings:
            key = _key(f)
            if key in keys and key not in first:
                first[key] = f
        return first


def _unchecked(fix: Fix | None, limit: int) -> Fix | None:
    if fix is None or not fix.ops:
        return fix
    return Fix(f"{fix.description} (not checked, so not offered as a one-click fix: only the "
               f"first {limit} fixes are checked; fix those first)")


def _may_offer(finding: Finding) -> bool:
    return (finding.fix is not None and finding.fix.applicable) or finding.code in MEDIA_CODES


def checked_report(doc: FabricDocument, analyzer: Analyzer, report: AnalysisReport,
                   findings: Iterable[Finding] | None = None, limit: int | None = None
                   ) -> list[Finding]:
    """The findings of `report` (or the given subset) with checked fixes (see `checked_findings`)."""
    checker = FixChecker(doc, analyzer, report)
    return checker.checked_findings(report.findings if findings is None else findings, limit)
