"""`Analyzer.trial_update` tells a fix checker what a trial edit changed among the findings, and
the checker judges the fix from that and the counts of the report before (not from a new report
of every finding).  Checked against full runs of the edited design (independent of the
incremental analysis) on every example, whole and broken in the ways
test_checked_fixes.py breaks them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from test_checked_fixes import BREAKS, _break

from aicnet_gui.analysis import Analyzer, analyze
from aicnet_gui.analysis.engine import FindingChanges
from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.edits import ChangeSet
from aicnet_gui.repair import FixChecker
from aicnet_gui.repair.fix_checker import Outcome
from aicnet_gui.repair.media_fix import media_fix

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _counted(findings) -> Counter:
    return Counter((f.code, f.severity, f.objects, f.message) for f in findings)


def _broken(name, how, catalog):
    """The example `name` broken as test_checked_fixes breaks it (`how`)."""
    doc = load_fabric(EXAMPLES / name, catalog)
    _break(doc, how)
    return doc


def _trials(doc, report):
    """Every fix of the report's findings that has operations, and the media fix of its
    media findings' links (what the checker tries)."""
    seen = set()
    for finding in report.findings:
        tries = [finding.fix.ops] if finding.fix is not None and finding.fix.ops else []
        if finding.objects and finding.objects[0] in doc.links:
            media = media_fix(doc, finding.objects[0])
            if media is not None and media.ops:
                tries.append(media.ops)
        for ops in tries:
            if repr(ops) not in seen:
                seen.add(repr(ops))
                yield finding, ops


@pytest.mark.parametrize("how", BREAKS)
@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.fabric")))
def test_the_changes_of_a_trial_are_the_difference_of_two_full_runs(name, how, catalog):
    doc = _broken(name, how, catalog)
    analyzer = Analyzer(doc)
    report = analyzer.full()
    tried = 0
    for _finding, ops in list(_trials(doc, report))[:12]:
        copy = doc.snapshot()
        applied = copy.apply(list(ops))
        changes = analyzer.trial_update(applied.changes, copy)
        undone = copy.apply(applied.inverse)
        analyzer.trial_update(undone.changes, doc)
        fixed = doc.snapshot()
        fixed.apply(list(ops))
        expected = _counted(analyze(fixed).findings)
        if isinstance(changes, FindingChanges):
            got = _counted(report.findings)
            got.subtract(_counted(changes.removed))
            got.update(_counted(changes.added))
            assert +got == expected, f"{name}/{how}: {ops}"
            # what was removed was in the report
            assert not _counted(changes.removed) - _counted(report.findings)
        else:  # a full run: its whole report
            assert _counted(changes.findings) == expected
        tried += 1
    # the analyzer is where it started: its report now is the first one
    assert _counted(analyzer.update(ChangeSet(), doc).findings) == _counted(report.findings)
    if how in ("exceed-reach", "single-mode-cord", "no-optic", "no-cable"):
        assert tried, f"nothing to try on {name} broken by {how}"


@pytest.mark.parametrize("how", ("no-cable", "exceed-reach", "wrong-optic", "speed"))
@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.fabric")))
def test_a_verdict_from_the_changes_is_the_verdict_from_a_full_report(name, how, catalog):
    doc = _broken(name, how, catalog)
    checker = FixChecker(doc)
    for finding, ops in list(_trials(doc, checker.report))[:12]:
        outcome = checker.trial(ops)
        fixed = doc.snapshot()
        fixed.apply(list(ops))
        whole = Outcome(checker, analyze(fixed))
        grown = outcome.grown_errors()
        assert grown == whole.grown_errors()
        assert outcome.first_of(grown) == whole.first_of(grown)
        assert list(outcome.first_of(grown)) == list(whole.first_of(grown))
        key = (finding.code, finding.objects)
        assert outcome.count(key) == whole.count(key)


@pytest.mark.parametrize("how", BREAKS)
@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.fabric")))
def test_link_compat_of_all_links_at_once_is_link_by_link(name, how, catalog):
    from aicnet_gui.analysis.rules_link import compat_all, compat_candidates, compat_check
    from aicnet_gui.analysis.state import Failure

    doc = _broken(name, how, catalog)
    analyzer = Analyzer(doc)
    analyzer.full()
    state = analyzer.state
    rows = list(compat_candidates(state)) + list(state.store.link_rows().tolist()[:50])
    at_once = list(compat_all(state, rows))
    one_by_one = []
    for row in rows:
        items = list(compat_check(state, row))
        one_by_one.append((tuple(i for i in items if not isinstance(i, Failure)),
                           tuple(i for i in items if isinstance(i, Failure))))
    assert at_once == one_by_one
    if how == "no-cable":
        assert any(f.code == "CABLE-UNSET" for found, _ in at_once for f in found)


def _link_rule(check_all):
    from aicnet_gui.analysis import Rule
    from aicnet_gui.analysis.findings import WARNING, Finding

    def check(state, row):
        if row % 7 == 0:
            raise RuntimeError("row seven")
        yield Finding("TEST-LINK", WARNING, f"link {state.link_id(row)}", (state.link_id(row),))

    return Rule("test-link", "link", check, check_all=check_all)


@pytest.mark.parametrize("check_all", [
    lambda state, rows: iter([((), ())] * (len(rows) - 1)),  # one short
    lambda state, rows: (_ for _ in ()).throw(RuntimeError("bulk")),  # raises at once
], ids=["miscounts", "raises"])
def test_a_bulk_check_that_fails_is_run_key_by_key(check_all, catalog):
    doc = load_fabric(EXAMPLES / "small-hgx.fabric", catalog)
    by_key = Analyzer(doc, rules=[_link_rule(None)], signature_rules=[]).full()
    bulk = Analyzer(doc, rules=[_link_rule(check_all)], signature_rules=[]).full()
    assert _counted(bulk.findings) == _counted(by_key.findings)
    assert any(f.code == "INTERNAL-ERROR" for f in bulk.findings)
    assert sum(f.code == "TEST-LINK" for f in bulk.findings) > 0


@pytest.mark.parametrize("how", BREAKS)
@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.fabric")))
def test_a_trial_undone_puts_back_the_findings_a_full_run_finds(name, how, catalog):
    doc = _broken(name, how, catalog)
    analyzer = Analyzer(doc)
    first = analyzer.full()
    for _finding, ops in list(_trials(doc, first))[:12]:
        copy = doc.snapshot()
        applied = copy.apply(list(ops))
        trial = analyzer.trial_update(applied.changes, copy)
        undone = copy.apply(applied.inverse)
        analyzer.undo_trial(undone.changes, doc, trial)
        # the next trial starts from the design as it is: a full run's findings, and the
        # metrics of one
        now = analyzer.update(ChangeSet(), doc)
        fresh = Analyzer(doc).full()
        assert _counted(now.findings) == _counted(fresh.findings), f"{name}/{how}: {ops}"
        assert now.metrics.to_json() == fresh.metrics.to_json()
