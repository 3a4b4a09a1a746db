"""Report export timings against the targets of shared/reference/performance.md §7.

    .venv/bin/python benchmarks/bench_report.py [--skip-big]

1. the whole plan PDF (every section, L7651 labels with QR codes) of superpod-1su  (< 3 s)
2. the cable schedule of the 4,096-server rail-optimized fabric (~98k links), including
   building the cable plan                                                          (< 15 s)
3. 1,000 QR cable labels                                                            (< 15 s)
plus the CSV exports of the big fabric.  Fabrics come from examples/ and the rail-optimized
generator (one `doc.apply`).  Prints one line per measurement; no assertions.

`--phases`: instead, the whole plan PDF of the 4,096-server fabric (every section, QR labels:
8,154 pages; issue 38: under 60 s on 2 cores) with the wall and CPU seconds of each step per
link and per label (the weights of report/plan_pdf.py's progress come from these), the peak memory
of this process, and the progress line's ETA against the time that was really left, so an ETA
that misses a step shows.  The load average is printed before and after.

    .venv/bin/python benchmarks/bench_report.py --phases
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aicnet_gui.catalog.loader import builtin_catalog  # noqa: E402
from aicnet_gui.fileio import load_fabric  # noqa: E402
from aicnet_gui.generators import RailOptimizedParams, generate  # noqa: E402
from aicnet_gui.model.document import FabricDocument  # noqa: E402
from aicnet_gui.report import (  # noqa: E402
    ExportOptions,
    build_plan,
    export_csv,
    export_labels_csv,
    export_netbox,
    export_p2p,
    export_pdf,
)
from aicnet_gui.report.fonts import fonts  # noqa: E402
from aicnet_gui.report.label_layout import AVERY_L7651  # noqa: E402
from aicnet_gui.report.labels import LabelSheets  # noqa: E402
from aicnet_gui.report.pdfpage import DocInfo, PdfWriter  # noqa: E402


def line(what: str, seconds: float, target: float | None = None, extra: str = "") -> None:
    verdict = "" if target is None else ("  OK" if seconds < target else f"  OVER {target:g} s")
    print(f"{what:<52} {seconds:7.2f} s{verdict}  {extra}", flush=True)


def superpod_1su(catalog, out: Path) -> FabricDocument:  # noqa: ANN001
    path = ROOT / "examples" / "superpod-1su.fabric"
    if path.exists():
        doc = load_fabric(path, catalog)
    else:
        doc = FabricDocument(catalog)
        generate(doc, RailOptimizedParams(sus=1))
    start = time.perf_counter()
    result = export_pdf(doc, out / "superpod-1su.pdf", ExportOptions())
    line(f"superpod-1su whole plan ({len(doc.links)} links, {result.labels} labels)",
         time.perf_counter() - start, 3.0, f"{result.pages} pages")
    return doc


def labels_1000(doc: FabricDocument, out: Path) -> None:
    plan = build_plan(doc)
    labels = plan.labels[:1000]
    start = time.perf_counter()
    writer = PdfWriter(str(out / "labels.pdf"), DocInfo("bench", "A", "", "today", plan.profile),
                       fonts())
    LabelSheets(writer, AVERY_L7651, qr=True).draw(labels)
    writer.finish()
    line(f"{len(labels)} QR labels (Avery L7651)", time.perf_counter() - start, 15.0,
         f"{writer.pages} pages, {os.path.getsize(out / 'labels.pdf') / 1e6:.1f} MB")


def big_fabric(catalog, out: Path) -> None:  # noqa: ANN001
    doc = FabricDocument(catalog)
    start = time.perf_counter()
    generate(doc, RailOptimizedParams(sus=128))
    gc.collect()
    print(f"(generated the 4,096-server fabric: {len(doc.devices)} devices, {len(doc.links)} "
          f"links in {time.perf_counter() - start:.1f} s)", flush=True)
    start = time.perf_counter()
    plan = build_plan(doc)
    built = time.perf_counter()
    result = export_pdf(doc, out / "schedule.pdf", ExportOptions(sections=("schedule",)),
                        plan=plan)
    done = time.perf_counter()
    size = os.path.getsize(out / "schedule.pdf") / 1e6
    line("  cable plan (rows, sections)", built - start)
    line("  schedule PDF", done - built, None, f"{result.pages} pages, {size:.1f} MB")
    line(f"4,096 servers: cable schedule, {len(plan.rows)} rows, total", done - start, 15.0)
    for name, export in (("schedule CSV", export_csv), ("labels CSV", export_labels_csv),
                         ("P2P CSV", export_p2p)):
        start = time.perf_counter()
        rows = export(doc, out / f"{name.split()[0]}.csv", plan=plan)
        line(f"  {name} ({rows} rows)", time.perf_counter() - start)
    start = time.perf_counter()
    export_netbox(doc, out / "netbox", plan=plan)
    line("  NetBox CSVs", time.perf_counter() - start)


def phases(catalog, out: Path) -> None:  # noqa: ANN001
    """The whole plan at 4,096 servers, step by step, and how good its ETA was."""
    import resource

    from aicnet_gui.report import progress

    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=128))
    gc.collect()
    marks: list[tuple[str, float, float]] = []
    step = progress.Progress.step

    def timed_step(self, name: str, message: str) -> None:  # noqa: ANN001
        marks.append((name, time.perf_counter(), time.process_time()))
        step(self, name, message)

    progress.Progress.step = timed_step  # type: ignore[method-assign]
    trace: list[tuple[float, float]] = []
    start = time.perf_counter()
    try:
        result = export_pdf(doc, out / "plan.pdf", ExportOptions(),
                            progress=lambda done, _m: trace.append((time.perf_counter() - start,
                                                                     done)))
    finally:
        progress.Progress.step = step  # type: ignore[method-assign]
    marks.append(("end", time.perf_counter(), time.process_time()))
    total = marks[-1][1] - start
    links, labels = len(doc.links), result.labels
    for (name, wall, cpu), (_next, wall2, cpu2) in itertools.pairwise(marks):
        per = labels if name == "labels" else links
        print(f"  {name:<10} {wall2 - wall:7.2f} s wall {cpu2 - cpu:7.2f} s CPU (this process)  "
              f"{1e6 * (wall2 - wall) / max(per, 1):7.1f} us wall per "
              f"{'label' if name == 'labels' else 'link'}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    line(f"4,096 servers: whole plan, {result.pages} pages, {labels} labels", total, 60.0,
         f"peak RSS {peak:.0f} MB (this process)")
    for share in (0.03, 0.1, 0.25, 0.5, 0.75):
        at, done = next((t, f) for t, f in trace if t >= share * total and f > 0)
        print(f"  ETA at {at:6.1f} s ({100 * done:4.1f} % done): {at * (1 - done) / done:6.1f} s, "
              f"really {total - at:6.1f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-big", action="store_true", help="skip the 4,096-server fabric")
    parser.add_argument("--phases", action="store_true",
                        help="only the whole 4,096-server plan, step by step, with its ETA")
    args = parser.parse_args()
    catalog = builtin_catalog()
    if args.phases:
        load = os.getloadavg()
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
              f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
        with tempfile.TemporaryDirectory() as folder:
            phases(catalog, Path(folder))
        load = os.getloadavg()
        print(f"load average after {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        return
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    start = time.perf_counter()
    font_set = fonts()
    line(f"register fonts once per process ({font_set.source})", time.perf_counter() - start)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        doc = superpod_1su(catalog, out)
        labels_1000(doc, out)
        if not args.skip_big:
            big_fabric(catalog, out)


if __name__ == "__main__":
    main()
