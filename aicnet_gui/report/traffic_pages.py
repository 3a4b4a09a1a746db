"""The traffic pages of the cabling plan: each workload's bus bandwidth per load-balancing mode
and the hottest links (aicnet_gui/traffic), then the acceptance sheet: what nccl-tests'
`all_reduce_perf` and `alltoall_perf` should show per message size and job size on a correct
cluster (the same rows `aicnet traffic FILE --acceptance-csv` writes).

`gather_traffic(doc)` runs the model once per export (fewer ECMP draws than the CLI's default:
`PDF_SEEDS`); a model that cannot run (an all-to-all too large for it, a design without
workloads) leaves a sentence on the page instead of the figures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..analysis.collectives import NCCL_NAMES
from ..analysis.load_balancing import NAMES
from ..model.document import FabricDocument
from ..model.wording import counted
from ..traffic import (
    MODES,
    ModeResult,
    TrafficModel,
    TrafficParams,
    WorkloadTraffic,
    acceptance_sheet,
)
from ..traffic.acceptance import AcceptanceRow, size_label
from ..traffic.flows import TooLarge
from .pdfpage import PdfWriter
from .text_flow import Column, Flow

PDF_SEEDS = 10
HOTTEST_ROWS = 8
HISTOGRAM_WIDTH, HISTOGRAM_HEIGHT = 300.0, 70.0  # points


@dataclass
class TrafficData:
    workloads: list[WorkloadTraffic] = field(default_factory=list)
    #: per workload, the median draw of each mode drawn several times (TrafficModel.median_draws)
    medians: list[dict[str, tuple[int, ModeResult]]] = field(default_factory=list)
    acceptance: list[AcceptanceRow] = field(default_factory=list)
    failure: str = ""


def gather_traffic(doc: FabricDocument, progress: Callable[[float, str], None] | None = None,
                   check: Callable[[], None] | None = None) -> TrafficData:
    """Every workload under every mode, and the acceptance sheet."""
    data = TrafficData()
    if not doc.workloads:
        data.failure = "the design has no workloads"
        return data

    def cancel() -> bool:
        if check is not None:
            check()  # raises when the export is cancelled
        return False

    def part(start: float, width: float) -> Callable[[float, str], None]:
        def report(fraction: float, text: str) -> None:
            if progress is not None:
                progress(start + fraction * width, text)
        return report

    try:
        model = TrafficModel(doc, TrafficParams(seeds=PDF_SEEDS))
        ids = sorted(doc.workloads)
        for i, wl_id in enumerate(ids):
            result = model.workload(wl_id, MODES, part(i / (2 * len(ids)), 1 / (2 * len(ids))),
                                    cancel)
            data.workloads.append(result)
            data.medians.append(model.median_draws(result, cancel))
        data.acceptance = acceptance_sheet(model, ids, part(0.5, 0.5), cancel)
    except TooLarge as exc:
        data.failure = str(exc)
    return data


def _gbs(gbps: float | None) -> str:
    return "-" if gbps is None else f"{gbps / 8:,.1f}"


def mode_rows(result: WorkloadTraffic) -> list[list[str]]:
    """Per mode: switches run, busBW (GB/s) mean and 5th-95th percentile, time, % of ideal."""
    rows = []
    for mode, r in result.modes.items():
        spread = (f"{_gbs(r.busbw_p5_gbps)} - {_gbs(r.busbw_p95_gbps)}" if r.seeds > 1 else "")
        rows.append([mode, ", ".join(NAMES[m] for m in r.runs), _gbs(r.busbw_gbps), spread,
                     f"{r.time_ms:.2f}" if r.time_ms is not None else "-", f"{r.ratio:.0%}",
                     f"{r.share:.0%}"])
    return rows


def traffic_line(result: WorkloadTraffic) -> str:
    """One line for the analysis pages: busBW per mode."""
    parts = []
    for mode, r in result.modes.items():
        spread = (f" ({_gbs(r.busbw_p5_gbps)}-{_gbs(r.busbw_p95_gbps)})"
                  if r.seeds > 1 and r.busbw_p5_gbps < r.busbw_p95_gbps - 0.4 else "")
        parts.append(f"{mode} {_gbs(r.busbw_gbps)}{spread}")
    return "nccl-tests busBW " + ", ".join(parts) + " GB/s"


def draw_traffic(writer: PdfWriter, doc: FabricDocument, data: TrafficData | None,
                 size: tuple[float, float], check: Callable[[], None] | None = None) -> None:
    flow = Flow(writer, "Traffic and acceptance", size, check).start()
    writer.bookmark("Traffic and acceptance sheet", 0)
    flow.heading("Traffic by load-balancing mode", 1)
    flow.para(
        "Each workload's collective as NCCL runs it (its tuning model picks the algorithm for "
        "the message and job size), its flows between the NICs (channels x queue pairs), routed "
        "by static ECMP hashing, adaptive routing or packet spraying where each switch and NIC "
        "can, with max-min fair rates.  busBW is what nccl-tests would print (GB/s); the share "
        "is the part of the NICs' rate the fabric delivers; ECMP is drawn "
        f"{PDF_SEEDS} times (5th-95th percentile).", size=8.5, rgb=(0.3, 0.3, 0.3))
    if data is None or data.failure:
        flow.para(f"No traffic figures: {data.failure if data else 'not computed'}.", size=9)
        flow.close()
        return
    for k, result in enumerate(data.workloads):
        name = NCCL_NAMES.get(result.algorithm, result.algorithm)
        flow.heading(f"{result.name}: {result.gpus} GPUs, {result.collective} of "
                     f"{result.message_bytes / 1e6:g} MB ({name}/{result.protocol})", 2)
        flow.table([Column("Mode", 0.1), Column("Switches run", 0.22),
                    Column("busBW", 0.1, "right"), Column("5th-95th", 0.16, "right"),
                    Column("ms", 0.1, "right"), Column("of ideal", 0.12, "right"),
                    Column("share", 0.1, "right")], mode_rows(result))
        notes = {n for r in result.modes.values() for n in r.notes} | set(result.notes)
        for note in sorted(notes):
            flow.para(note, size=8)
        fabric = doc.settings.load_balancing
        shown = result.modes.get("adaptive" if fabric == "flowlet" else fabric) or \
            next(iter(result.modes.values()))
        median = (data.medians[k].get(shown.mode)
                  if k < len(data.medians) and shown.draws_differ else None)
        hottest, which, pictured = shown.hottest, shown.mode, shown
        if median is not None:  # one hash's hot uplinks: the mean of the draws evens them out
            hottest, pictured = median[1].hottest, median[1]
            which = f"{shown.mode}, its median draw: {median[0] + 1} of {shown.seeds}"
        draw_load_histogram(flow, pictured, which if median is not None or shown.seeds <= 1
                            else f"{shown.mode}, mean of the draws")
        if hottest:
            flow.table([Column("Hottest links (" + which + ")", 0.7),
                        Column("Load", 0.15, "right"), Column("Speed", 0.15, "right")],
                       [[h.name, f"{h.load:.0%}", f"{h.capacity_gbps:g} Gb/s"]
                        for h in hottest[:HOTTEST_ROWS]], size=7.5)
    _draw_acceptance(flow, data.acceptance, doc)
    flow.close()


def draw_load_histogram(flow: Flow, result: ModeResult, which: str) -> None:
    """The links by load of `result` (`which`: its mode, and its draw when ECMP's draws
    differ, or that the bars are the mean of the draws), as the Workloads dock draws them: one
    bar per tenth of the links' speed, the number of links above it (links that carry no
    traffic left out, counted in the caption)."""
    bins = result.histogram
    if not any(b.links for b in bins):
        return
    flow.space(2)
    flow.ensure(HISTOGRAM_HEIGHT + 14)
    box, canvas, fonts = flow.box, flow.w.canvas, flow.fonts
    assert box is not None
    idle = sum(1 for load in result.link_load.values() if load <= 0)
    caption = (f"Links by load ({which}): {sum(b.links for b in bins):,} links carry traffic"
               + (f", {idle:,} idle" if idle else ""))
    flow.w.text(fonts.regular).text(box.left, flow.y - 8, caption, 8, width=box.width)
    top = flow.y - 12
    bar_w = HISTOGRAM_WIDTH / len(bins)
    tallest = max(b.links for b in bins)
    base = top - HISTOGRAM_HEIGHT + 10
    canvas.saveState()
    canvas.setLineWidth(0.4)
    canvas.setStrokeColorRGB(0.5, 0.5, 0.5)
    canvas.line(box.left, base, box.left + HISTOGRAM_WIDTH, base)
    for i, b in enumerate(bins):
        x = box.left + i * bar_w
        h = (HISTOGRAM_HEIGHT - 22) * b.links / tallest
        canvas.setFillColorRGB(*_load_colour(b.high))
        if b.links:
            canvas.rect(x + 1, base, bar_w - 2, max(h, 0.6), stroke=0, fill=1)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setFont(fonts.regular, 6)
        canvas.drawCentredString(x + bar_w / 2, base + h + 2, f"{b.links:,}")
    for edge in (0.0, 0.5, 1.0):
        canvas.drawCentredString(box.left + edge * HISTOGRAM_WIDTH, base - 7, f"{edge:.0%}")
    canvas.drawString(box.left + HISTOGRAM_WIDTH + 18, base - 7, "of the link's speed")
    canvas.restoreState()
    flow.y = top - HISTOGRAM_HEIGHT - 6


def _load_colour(load: float) -> tuple[float, float, float]:
    """From pale yellow (idle) to deep purple (full), as the editor's traffic colours run."""
    low, high = (0.99, 0.85, 0.45), (0.35, 0.08, 0.45)
    t = min(max(load, 0.0), 1.0)
    return tuple(a + (b - a) * t for a, b in zip(low, high, strict=True))  # type: ignore[return-value]


def _draw_acceptance(flow: Flow, rows: list[AcceptanceRow], doc: FabricDocument) -> None:
    flow.heading("Acceptance sheet: what nccl-tests should show", 1)
    flow.para(
        "all_reduce_perf and alltoall_perf -b 1M -e 8G -f 2 with NCCL's defaults, bus bandwidth "
        "in GB/s per message size and job size; a correct cluster reaches these figures "
        "(with static ECMP the lower figure is the 5th percentile of the hash draws).",
        size=8.5, rgb=(0.3, 0.3, 0.3))
    blocks: dict[tuple[str, str], list[AcceptanceRow]] = {}
    for row in rows:
        blocks.setdefault((row.workload, row.job), []).append(row)
    for (workload, job), block in blocks.items():
        first = block[0]
        named = doc.workloads.get(workload)
        flow.heading(f"{named.name if named else workload}, {job}: {counted(first.servers, 'server')}, "
                     f"{first.gpus} GPUs", 2)
        if all(r.allreduce_busbw is None and r.alltoall_busbw is None for r in block):
            flow.para("No figures: the catalog has no NVLink bandwidth or GPU architecture "
                      "for these servers.", size=8.5)
            continue
        flow.table([Column("Size", 0.12, "right"), Column("all_reduce_perf", 0.24, "right"),
                    Column("NCCL algorithm", 0.3), Column("alltoall_perf", 0.24, "right")],
                   [[size_label(r.size_bytes), _range(r.allreduce_low, r.allreduce_busbw),
                     f"{NCCL_NAMES.get(r.algorithm, r.algorithm)}/{r.protocol}"
                     if r.algorithm else "-", _range(r.alltoall_low, r.alltoall_busbw)]
                    for r in block], size=7.5)


def _range(low: float | None, value: float | None) -> str:
    if value is None:
        return "-"
    if low is not None and low < value - 0.05:
        return f"{low:,.1f} - {value:,.1f}"
    return f"{value:,.1f}"
