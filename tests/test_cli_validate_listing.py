"""`aicnet validate` lists at most 20 findings of a code per severity and counts the rest: the
listing checked against one worked out from the report finding by finding."""

from __future__ import annotations

from pathlib import Path

from aicnet_gui.analysis import analyze
from aicnet_gui.cli.commands.validate import MAX_PER_CODE, TITLES, _finding_lines
from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.edits import UpdateLink

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _expected(report, show_all):
    lines = []
    for severity in ("error", "warning", "info"):
        found = [f for f in report.findings if f.severity.value == severity]
        if not found:
            continue
        lines += ["", f"{TITLES[severity]} ({len(found)})"]
        seen = {}
        for f in found:
            seen[f.code] = seen.get(f.code, 0) + 1
            if show_all or seen[f.code] <= MAX_PER_CODE:
                lines.append(f"  {f.code:<22} {f.message}")
                if f.fix is not None and f.fix.description:
                    lines.append(f"  {'':<22}   fix: {f.fix.description}"
                                 + ("  [one-click]" if f.fix.ops else ""))
        lines += [f"  {code:<22} ... and {n - MAX_PER_CODE} more (--all lists them)"
                  for code, n in sorted(seen.items()) if not show_all and n > MAX_PER_CODE]
    return lines


def test_the_listing_takes_twenty_of_each_code_and_counts_the_rest(catalog):
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    doc.apply([UpdateLink(link_id, {"cable": None}) for link_id in list(doc.links)[:70]])
    report = analyze(doc)
    codes = {f.code for f in report.findings}
    assert sum(f.code == "CABLE-UNSET" for f in report.findings) == 70 and len(codes) > 1
    for show_all in (False, True):
        assert _finding_lines(report, show_all, None) == _expected(report, show_all)
    assert any("... and 50 more" in line for line in _finding_lines(report, False, None))
