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


def _steps(doc: FabricDocument, options: ExportOptions, labels: bool) -> dict[str, float]:
    links = max(len(doc.links), 1)
    steps = {"plan": links * 0.3}
    if ANALYSIS_SECTIONS & set(options.sections):
        steps["validate"] = links * 0.05 + 1
    if TRAFFIC_SECTIONS & set(options.sections):
        steps["traffic-model"] = links * 0.1 + 2
    for name in (s for s in SECTIONS if s in options.sections):
        if name == "schedule":
            steps[name] = links * 1.0
        elif name == "labels":
            if labels:
                steps[name] = links * (4.0 if options.label_qr else 1.0)
        else:
            steps[name] = links * 0.02 + 5
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
    prog = Progress(_steps(doc, options, stock is not None), progress, cancelled)
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
    from .bom import bom_tables
    from .bom_pages import draw_bom
    from .cover import draw_cover
    from .design import draw_design
    from .labels import LabelSheets
    from .schedule import SchedulePages
    from .topology import draw_topology

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
