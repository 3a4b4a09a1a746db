"""Report export timings against the targets of shared/reference/performance.md §7.

    .venv/bin/python benchmarks/bench_report.py [--skip-big]

1. the whole plan PDF (every section, L7651 labels with QR codes) of superpod-1su  (< 3 s)
2. the cable schedule of the 4,096-server rail-optimized fabric (~98k links), including
   building the cable plan                                                          (< 15 s)
3. 1,000 QR cable labels                                                            (< 15 s)
plus the CSV exports of the big fabric.  Fabrics come from examples/ and the rail-optimized
generator (one `doc.apply`).  Prints one line per measurement; no assertions.
"""

from __future__ import annotations

import argparse
import gc
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-big", action="store_true", help="skip the 4,096-server fabric")
    args = parser.parse_args()
    catalog = builtin_catalog()
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
