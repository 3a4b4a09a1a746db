"""`export_pdf`: the whole cabling plan as one PDF, with progress and clean cancellation.

Sections (any subset, always in this order): cover, topology, analysis (oversubscription and
workload bandwidth), findings, bill of materials, design report, cable schedule (landscape, one
rack per section) and label sheets (on the label stock's own page size, with an optional
calibration page).  The file is written to a temporary name next to the target and renamed at
the end, so a cancelled or failed export leaves nothing behind.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..fileio.atomic import atomic_output
from ..model.document import FabricDocument
from ..model.port_names_os import PortNamer
from . import qr_pool
from .analysis_data import AnalysisData, gather
from .cables import CablePlan, build_plan
from .fonts import fonts
from .label_layout import LabelStock
from .options import SECTIONS, ExportOptions
from .pdfpage import DocInfo, PdfWriter
from .progress import ExportCancelled, Progress

ANALYSIS_SECTIONS = {"cover", "analysis", "findings", "bom", "design", "traffic"}
TRAFFIC_SECTIONS = {"analysis", "traffic"}


@dataclass
class ExportResult:
    """What an export wrote, and what the user should know about it."""

    path: str
    pages: int = 0
    links: int = 0
    cables: int = 0
    labels: int = 0
    sections: tuple[str, ...] = ()
    warnings: list[str] = field(default_factory=list)


# Seconds per unit of each step (the progress line's ETA divides the time so far by the
# fraction these give, so its first estimate counts every step, labels included): the
# 4,096-server plan (98,304 links, 196,608 labels, benchmarks/bench_report.py --phases, 2 cores)
# per link, or per label.  A label's QR code (qr_pool.py: 100 us of a worker's CPU) and the
# compression of its page (a thread, 26 us) are shared by the cores, the rest (60 us) is one
# core's; on 2 cores the label sheets ran at 168 us a label, not the 93 us a perfect share of
# those would give (the workers, the zlib thread and the page writer wait on each other), so
# the shared part is divided by `LABEL_OVERLAP` x the cores.
US_PLAN, US_VALIDATE, US_TRAFFIC, US_DESIGN, US_SCHEDULE = 20.0, 6.0, 23.0, 45.0, 37.0
US_BOM, US_SMALL = 4.7, 1.0
US_LABEL_SERIAL, US_LABEL_SHARED, US_QR = 60.0, 26.0, 100.0
LABEL_OVERLAP = 0.55


def _label_us(count: int, qr: bool) -> float:
    """Expected wall microseconds per label on this machine's cores (the QR codes in workers
    as qr_pool.LabelQr decides it, else here)."""
    cores = max(qr_pool.worker_count(), 1)
    workers = qr and count >= qr_pool.PARALLEL_MIN and cores > 1
    serial = US_LABEL_SERIAL + (US_QR if qr and not workers else 0.0)
    shared = US_LABEL_SHARED + (US_QR if workers else 0.0)
    return max(serial, (serial + shared) / (max(cores * LABEL_OVERLAP, 1.0)))


def _steps(doc: FabricDocument, options: ExportOptions, labels: int | None) -> dict[str, float]:
    """Expected seconds of each step (`labels`: how many labels, None without label sheets)."""
    links = max(len(doc.links), 1)
    steps = {"plan": links * US_PLAN * 1e-6}
    if ANALYSIS_SECTIONS & set(options.sections):
        steps["validate"] = links * US_VALIDATE * 1e-6 + 0.05
    if TRAFFIC_SECTIONS & set(options.sections):
        steps["traffic-model"] = links * US_TRAFFIC * 1e-6 + 0.1
    for name in (s for s in SECTIONS if s in options.sections):
        if name == "schedule":
            steps[name] = links * US_SCHEDULE * 1e-6
        elif name == "labels":
            if labels is not None:
                steps[name] = max(labels, 1) * _label_us(labels, options.label_qr) * 1e-6
        elif name == "design":
            steps[name] = links * US_DESIGN * 1e-6 + 0.05
        elif name == "bom":
            steps[name] = links * US_BOM * 1e-6 + 0.05
        else:
            steps[name] = links * US_SMALL * 1e-6 + 0.02
    return steps


def export_pdf(
    doc: FabricDocument,
    out_path: str | os.PathLike[str],
    options: ExportOptions | None = None,
    progress: Callable[[float, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    plan: CablePlan | None = None,
    analysis: AnalysisData | None = None,
) -> ExportResult:
    """Write the cabling plan PDF; raise `ExportCancelled` (nothing written) when cancelled.

    `progress(fraction, message)` is called from the exporting thread with 0..1; `cancelled()`
    is polled at least once per page.  `plan` and `analysis` may be passed in when the caller
    already has them (the CLI builds the plan once for several exports).
    """
    options = options or ExportOptions()
    options.validate()
    stock = options.label_stock() if "labels" in options.sections and doc.links else None
    # the labels: the plan's, or about two per link when the plan is still to be built
    labels = None if stock is None else len(plan.labels) if plan is not None else 2 * len(doc.links)
    prog = Progress(_steps(doc, options, labels), progress, cancelled)
    font_set = fonts()

    prog.step("plan", "building the cable plan")
    if plan is None:
        namer = PortNamer(doc) if options.port_names == "os" else None
        plan = build_plan(doc, options.profile, prog.sub("building the cable plan"), namer)
    if ANALYSIS_SECTIONS & set(options.sections) and analysis is None:
        prog.step("validate", "validating the design")
        analysis = gather(doc, prices=options.prices)
    if TRAFFIC_SECTIONS & set(options.sections) and analysis is not None and analysis.traffic is None:
        from .traffic_pages import gather_traffic

        prog.step("traffic-model", "modelling the traffic")
        analysis.traffic = gather_traffic(doc, lambda f, t: prog.update(f, t), prog.check)

    generated = (options.generated or datetime.now(UTC)).strftime("%Y-%m-%d")
    info = DocInfo(doc.metadata.name, doc.metadata.revision, doc.metadata.author, generated,
                   plan.profile)
    target = Path(out_path)
    result = ExportResult(str(target), links=len(plan.rows), cables=plan.cables,
                          sections=tuple(s for s in options.sections))
    result.warnings.extend(plan.problems)
    if font_set.warning:
        result.warnings.append(font_set.warning)
    writer = None
    try:
        with atomic_output(target) as handle:  # the old file, or none, until it is whole
            writer = PdfWriter(handle, info, font_set)
            _write_sections(writer, doc, plan, analysis, options, stock, prog, result)
            prog.check()
            writer.finish()
    except BaseException:
        if writer is not None:
            writer.close()
        raise
    result.pages = writer.pages
    prog.done(f"wrote {writer.pages:,} pages")
    return result


def _write_sections(
    writer: PdfWriter,
    doc: FabricDocument,
    plan: CablePlan,
    analysis: AnalysisData | None,
    options: ExportOptions,
    stock: LabelStock | None,
    prog: Progress,
    result: ExportResult,
) -> None:
    from .analysis_pages import draw_analysis, draw_findings
    from .bom_lines import bom_tables
    from .bom_pages import draw_bom
    from .cable_schedule import SchedulePages
    from .cover import draw_cover
    from .design import draw_design
    from .labels import LabelSheets
    from .topology_diagram import draw_topology

    size = options.page_size
    wanted = set(options.sections)
    labels = plan.labels if stock is not None else []
    for name in SECTIONS:
        if name not in wanted:
            continue
        if name == "labels" and stock is None:
            continue
        prog.step(name, {
            "cover": "cover page", "topology": "topology diagram",
            "analysis": "oversubscription and bandwidth", "findings": "findings",
            "traffic": "traffic and acceptance sheet",
            "bom": "bill of materials", "design": "design report",
            "schedule": "cable schedule", "labels": "label sheets",
        }[name])
        if name == "cover":
            draw_cover(writer, doc, plan, analysis, size, options.sections, len(labels))
            writer.release()  # the cover is a page of its own (the text sections run on)
        elif name == "topology":
            draw_topology(writer, doc, size)
        elif name == "analysis":
            draw_analysis(writer, doc, analysis, size, prog.check)
        elif name == "findings":
            draw_findings(writer, doc, analysis, size, prog.check)
        elif name == "traffic":
            from .traffic_pages import draw_traffic

            draw_traffic(writer, doc, analysis.traffic if analysis is not None else None, size,
                         prog.check)
        elif name == "bom":
            parts = analysis.parts if analysis is not None and analysis.ran else None
            tables = bom_tables(doc, plan, parts, options.prices)
            draw_bom(writer, doc, tables, analysis, size, prog.check)
        elif name == "design":
            draw_design(writer, doc, plan, analysis, size, prog.check, options.prices)
        elif name == "schedule":
            SchedulePages(writer, plan, size).draw(
                _ticker(prog, len(plan.rows), "cable schedule", "links", writer))
        elif name == "labels":
            sheets = LabelSheets(writer, stock, options.label_start, options.label_offset_mm,
                                 options.label_qr)
            if options.calibration_page:
                sheets.calibration_page()
            sheets.draw(labels, _ticker(prog, len(labels), "label sheets", "labels", writer))
            result.labels = len(labels)
        prog.check()


def _ticker(prog: Progress, total: int, what: str, items: str,
            writer: PdfWriter) -> Callable[[int], None]:
    """A per-page callback: `done` items of `total` drawn, and the pages written so far (checks
    for cancellation)."""
    total = max(total, 1)
    return lambda done: prog.update(
        done / total, f"{what}: {done:,} of {total:,} {items}, {writer.pages:,} pages")


__all__ = ["ExportCancelled", "ExportResult", "export_pdf"]
