"""Many findings fixed in one step: "fix all N like this", a selection of findings, a rule.

`batch_fix` merges the one-click fixes of several findings into one list of operations (one undo
step) and checks the whole batch on a copy of the document, as `FixChecker` checks one fix: it is
offered only when it applies, clears findings of the batch and adds no error.  In that order it
tries:

1. the rules' own fixes, merged (identical operations once: 32 SPEED-MISMATCH findings that
   share one cause share one operation);
2. for link media findings, the media choice for all their links at once (optics at
   both ends and the cord together, `aicnet_gui.media.choose_media`) with the other findings'
   own fixes;
3. each finding's individually checked fix (at most `INDIVIDUAL_LIMIT` of them), merged.

`same_fix` groups findings by cause (the same fix operations) and `by_code` by rule, which is
what the findings dock offers as "Fix all N like this".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..analysis import Finding
from ..media import choose_media
from ..model.document import FabricDocument
from ..model.edits import Operation
from ..model.wording import counted
from .fix_checker import MEDIA_CODES, FixChecker, Key
from .media_fix import names_of, unplaced_ends

#: how many findings of a batch are checked one by one when the merged fixes fail
INDIVIDUAL_LIMIT = 200


@dataclass(frozen=True, slots=True)
class BatchFix:
    """The merged fix of several findings: `ops` empty when nothing could be offered."""

    ops: tuple[Operation, ...]
    findings: int  # findings in the batch
    cleared: int  # of those, how many the batch clears
    description: str
    reason: str = ""  # why nothing is offered, or what stays

    @property
    def applicable(self) -> bool:
        return bool(self.ops)


def _key(finding: Finding) -> Key:
    return finding.code, finding.objects


def merge_ops(groups: Iterable[Sequence[Operation]]) -> list[Operation]:
    """Operations of several fixes, each distinct operation once, in first-seen order."""
    seen: set[str] = set()
    merged: list[Operation] = []
    for ops in groups:
        for op in ops:
            text = repr(op)
            if text not in seen:
                seen.add(text)
                merged.append(op)
    return merged


def verify_batch(checker: FixChecker, findings: Sequence[Finding],
                 ops: Sequence[Operation]) -> tuple[int, str]:
    """(findings of the batch the ops clear, why not offered or ""): applied to the checker's
    copy, re-validated, undone.  Any (code, objects) pair with more errors than before refuses
    the batch."""
    if not ops:
        return 0, "no operations"
    outcome = checker.trial(ops)
    if isinstance(outcome, str):
        return 0, outcome
    grown = outcome.first_of(outcome.grown_errors())
    if grown:
        first = next(iter(grown.values()))
        more = f" and {len(grown) - 1} more" if len(grown) > 1 else ""
        return 0, f"applied, it would cause {first.code} ({first.message}){more}"
    wanted = Counter(_key(f) for f in findings)
    cleared = sum(max(0, n - outcome.count(k)) for k, n in wanted.items())
    if cleared == 0:
        return 0, "applied, it clears none of these findings"
    return cleared, ""


def batch_fix(checker: FixChecker, findings: Sequence[Finding], what: str = "") -> BatchFix:
    """The checked, merged fix of `findings` (see the module docstring)."""
    findings = list(findings)
    label = what or _label(findings)
    if not checker.current:
        raise RuntimeError("the document changed since this FixChecker was made; make a new one")
    reasons: list[str] = []
    for ops in _merged_tries(checker, findings):
        cleared, why = verify_batch(checker, findings, ops)
        if cleared:
            return BatchFix(tuple(ops), len(findings), cleared, _text(label, cleared, len(findings)))
        reasons.append(why)
    individual = [fix.ops for fix in (checker.checked(f) for f in findings[:INDIVIDUAL_LIMIT])
                  if fix is not None and fix.ops]
    if individual:
        ops = merge_ops(individual)
        cleared, why = verify_batch(checker, findings, ops)
        if cleared:
            note = (f"; only the first {INDIVIDUAL_LIMIT} were checked one by one"
                    if len(findings) > INDIVIDUAL_LIMIT else "")
            return BatchFix(tuple(ops), len(findings), cleared,
                            _text(label, cleared, len(findings)) + note)
        reasons.append(why)
    reason = reasons[0] if reasons else "none of them has a one-click fix"
    return BatchFix((), len(findings), 0, f"no one-click fix for {label}", reason)


def _merged_tries(checker: FixChecker, findings: list[Finding]) -> list[list[Operation]]:
    """The merged fixes to try first: the findings' own fixes, then (when some are media
    findings of cables) the media chosen again for those cables with the others' own fixes."""
    tries: list[list[Operation]] = []
    own = [f.fix.ops for f in findings if f.fix is not None and f.fix.ops]
    if own:
        tries.append(merge_ops(own))
    media_links = [f.objects[0] for f in findings
                   if f.code in MEDIA_CODES and f.objects and f.objects[0] in checker.doc.links]
    if media_links:
        media = choose_media(checker.doc, media_links)
        if media.ops:
            others = [f.fix.ops for f in findings if f.code not in MEDIA_CODES
                      and f.fix is not None and f.fix.ops]
            tries.append(merge_ops([*others, list(media.ops)]))
    return tries


def fix_blocker(doc: FabricDocument, findings: Sequence[Finding]) -> str | None:
    """Why no one-click fix can clear any of `findings`, in words; None when one may (a finding
    with ops of its own, or a media finding whose cable has a length: the media choice may
    equip it).  Cheap: it stops at the first finding that may be fixed, and asks nothing of the
    analyzer, so a "Fix all" button can say it before it is pressed."""
    media: list[str] = []
    words = None
    for finding in findings:
        if finding.fix is not None and finding.fix.ops:
            return None
        if finding.code in MEDIA_CODES and finding.objects and finding.objects[0] in doc.links:
            media.append(finding.objects[0])
        elif words is None and finding.fix is not None:
            words = finding.fix.description
    if media:
        devices, cables = unplaced_ends(doc, media)
        if cables < len(media):
            return None  # some cables have a length: the media choice may reach
        if devices:
            return (f"no length is known for {counted(cables, 'cable')}: "
                    f"{counted(len(devices), 'device')} at their ends "
                    f"{'is' if len(devices) == 1 else 'are'} in no rack "
                    f"({names_of(doc, devices)}); place them in racks, or type the lengths")
    reason = "none of them has a one-click fix"
    return f"{reason}: {words}" if words else reason


def by_code(findings: Iterable[Finding], code: str) -> list[Finding]:
    """The findings of one rule."""
    return [f for f in findings if f.code == code]


def same_fix(findings: Iterable[Finding], like: Finding) -> list[Finding]:
    """The findings whose fix has the same operations as `like`'s (one cause), or, when
    `like`'s fix has none, the same code and fix text."""
    if like.fix is not None and like.fix.ops:
        target = repr(list(like.fix.ops))
        return [f for f in findings if f.fix is not None and repr(list(f.fix.ops)) == target]
    text = like.fix.description if like.fix is not None else None
    return [f for f in findings if f.code == like.code
            and (f.fix.description if f.fix is not None else None) == text]


def _label(findings: Sequence[Finding]) -> str:
    codes = sorted({f.code for f in findings})
    noun = "finding" if len(findings) == 1 else "findings"
    return f"{len(findings)} {codes[0] if len(codes) == 1 else ''} {noun}".replace("  ", " ")


def _text(label: str, cleared: int, total: int) -> str:
    if cleared >= total:
        return f"fix {label}"
    return f"fix {label} ({cleared} of {total} cleared; the others need another change)"
