"""The cover page: project, revision, author, date, counts, validation status, contents."""

from __future__ import annotations

from ..model.document import FabricDocument
from ..model.summary import summarize
from .analysis_data import AnalysisData
from .cables import CablePlan
from .options import SECTION_TITLES
from .pdfpage import PdfWriter
from .text_flow import Flow

RED = (0.80, 0.12, 0.12)
AMBER = (0.85, 0.55, 0.0)
GREEN = (0.15, 0.55, 0.2)
GREY = (0.45, 0.45, 0.45)


def _status(analysis: AnalysisData | None) -> tuple[str, str, tuple[float, float, float]]:
    if analysis is None:
        return "Not validated", "This export skipped the validation.", GREY
    if not analysis.ran:
        return "Validation failed", f"The analysis could not run: {analysis.failure}", RED
    errors, warnings = analysis.errors, analysis.warnings
    detail = f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    if errors:
        return "Errors found", detail + " - see Findings before ordering or cabling.", RED
    if warnings:
        return "Valid with warnings", detail + ".", AMBER
    return "Valid", "No errors or warnings.", GREEN


def draw_cover(
    writer: PdfWriter,
    doc: FabricDocument,
    plan: CablePlan,
    analysis: AnalysisData | None,
    size: tuple[float, float],
    sections: tuple[str, ...],
    labels: int,
) -> None:
    flow = Flow(writer, "Cover", size).start()
    writer.bookmark("Cover", 0)
    box = flow.box
    assert box is not None
    meta = doc.metadata
    bold = writer.text(writer.fonts.bold)
    flow.space(40)
    bold.text(box.left, flow.y, "Cabling plan", 28)
    flow.space(30)
    bold.text(box.left, flow.y, meta.name, 18, width=box.width)
    flow.space(14)
    if meta.description:
        flow.para(meta.description, size=10, rgb=(0.25, 0.25, 0.25))
    flow.space(8)

    title, detail, colour = _status(analysis)
    canvas = writer.canvas
    canvas.setFillColorRGB(*colour)
    canvas.roundRect(box.left, flow.y - 46, box.width, 46, 6, stroke=0, fill=1)
    bold.text(box.left + 14, flow.y - 20, f"Validation: {title}", 15, rgb=(1, 1, 1),
              width=box.width - 28)
    writer.text().text(box.left + 14, flow.y - 37, detail, 9.5, rgb=(1, 1, 1),
                       width=box.width - 28)
    flow.space(62)

    summary = summarize(doc)
    s = doc.settings
    flow.key_values([
        ("Project", meta.name),
        ("Revision", meta.revision),
        ("Author", meta.author or "-"),
        ("Date", writer.info.generated),
        ("Created / modified", f"{meta.created} / {meta.modified}"),
        ("Technology", f"{s.technology.value}, MTU {s.mtu}"),
        ("Site", s.site),
        ("Label profile", plan.profile),
    ], size=10)
    flow.heading("Counts", 2)
    roles = ", ".join(f"{n} {r.replace('_', ' ')}" for r, n in summary.devices_by_role.items())
    tiers = ", ".join(f"{n} {t}" for t, n in summary.links_by_tier.items())
    flow.key_values([
        ("Devices", f"{summary.devices} ({roles})" if roles else "0"),
        ("GPUs", str(summary.gpus)),
        ("Racks", str(summary.racks)),
        ("Links", f"{summary.links} ({tiers})" if tiers else "0"),
        ("Physical cables", f"{plan.cables} (splitters and twin-port assemblies count once)"),
        ("Cable labels", str(labels)),
        ("Workloads", str(summary.workloads)),
    ], size=10)
    flow.heading("Contents", 2)
    flow.para("\n".join(f"- {SECTION_TITLES[name]}" for name in sections if name != "cover"),
              size=10)
    if plan.problems:
        flow.heading("Notes on this plan", 2)
        for problem in plan.problems[:12]:
            flow.para(f"- {problem}", size=8.5, rgb=(0.3, 0.3, 0.3), gap=1)
        if len(plan.problems) > 12:
            flow.para(f"- and {len(plan.problems) - 12} more", size=8.5, rgb=(0.3, 0.3, 0.3))
    flow.close()
