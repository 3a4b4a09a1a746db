"""Speed of checking a fix before it is offered (aicnet_gui.repair.FixChecker).

On a rail-optimized fabric of --servers 8-GPU servers (bench_analysis.build), one server-leaf
link is set to 70 m (REACH-EXCEEDED) and, on another, a single-mode cord on SR4 optics
(MEDIA-MISMATCH).  With the analyzer of a full run borrowed as the GUI does, the script times:

- the first check of the document revision (includes the copy `doc.snapshot()`);
- one check: the rule's fix and/or the media re-choice applied to the copy, `Analyzer.update`,
  the inverse applied, `update` again, the analyzer pointed back (median over --repeats fresh
  checkers, the snapshot excluded);
- `aicnet validate`-style: every finding of the report checked.

The full analysis itself does not change: checking runs only for findings whose fix is shown
or requested (bench_analysis.py measures the analysis).

    .venv/bin/python benchmarks/bench_fixcheck.py [--servers 4096] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_analysis import build  # noqa: E402

from aicnet_gui.analysis import Analyzer  # noqa: E402
from aicnet_gui.catalog.loader import builtin_catalog  # noqa: E402
from aicnet_gui.model.edits import UpdateLink  # noqa: E402
from aicnet_gui.repair import FixChecker  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=4096)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    doc, source = build(builtin_catalog(), args.servers)
    fibre = sorted(i for i, link in doc.links.items() if link.cable == "nvidia-mfp7e10")
    doc.apply([UpdateLink(fibre[0], {"length_m": 70.0}),
               UpdateLink(fibre[-1], {"cable": "nvidia-mfp7e30", "length_m": 70.0})])
    analyzer = Analyzer(doc)
    start = time.perf_counter()
    report = analyzer.full()
    full_ms = (time.perf_counter() - start) * 1000
    targets = [f for f in report.findings if f.code in ("REACH-EXCEEDED", "MEDIA-MISMATCH")]
    print(f"{args.servers} servers ({source}): {len(doc.devices)} devices, {len(doc.links)} links; "
          f"full analysis {full_ms:.0f} ms; {len(report.findings)} findings, "
          f"{len(targets)} to fix")
    firsts, checks = [], []
    for _ in range(args.repeats):
        checker = FixChecker(doc, analyzer, report)
        start = time.perf_counter()
        checker._copy_doc()  # the per-revision copy, timed apart
        copy_ms = (time.perf_counter() - start) * 1000
        for i, finding in enumerate(targets):
            start = time.perf_counter()
            fix = checker.checked(finding)
            ms = (time.perf_counter() - start) * 1000
            (firsts if i == 0 else checks).append(ms + (copy_ms if i == 0 else 0.0))
            if i == 0 and len(firsts) == 1:
                print(f"  {finding.code}: {'one-click' if fix.applicable else 'words'}: "
                      f"{fix.description[:100]}")
    print(f"  first check of a revision (copy included)  median {statistics.median(firsts):7.1f} ms")
    print(f"  one more check                             median {statistics.median(checks):7.1f} ms")
    start = time.perf_counter()
    FixChecker(doc, analyzer, report).checked_findings(report.findings)
    print(f"  every finding's fix (aicnet validate)      {(time.perf_counter() - start) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
