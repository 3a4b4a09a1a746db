"""The design report: fabric settings, oversubscription, optics plan, NCCL, the fabric's shape
(compute planes, rail-only, NVLink domain: design_fabric.py), firmware, growth.

Text the architect wrote comes from `Settings.notes` (Edit > Fabric Settings > Design notes);
a section without a note shows its tables only, and the report says once where notes are
written.  The tables are derived
from the document and the cable plan: optics and cables per tier, firmware versions per model,
free switch ports per role, and the length-estimation assumptions the ordered lengths rest on.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable

from ..analysis.load_balancing import NAMES as LOAD_BALANCING_NAMES
from ..catalog.prices import PriceList
from ..model.document import FabricDocument
from ..model.rack_units import CONVENTION
from .analysis_data import AnalysisData
from .cables import CablePlan
from .pdfpage import PdfWriter
from .text_flow import Column, Flow

NOTES_WHERE = "Edit > Fabric Settings > Design notes"
NO_NOTES = (f"No design notes written yet. Write them in {NOTES_WHERE} (ECMP, optics plan, NCCL, "
            "firmware baseline, growth, general): each prints here in its section.")
SOME_NOTES = (f"Notes written in {NOTES_WHERE} print in their sections; a section without one "
              "shows its tables only.")


def _yes(value: bool) -> str:
    return "on" if value else "off"


def optics_rows(plan: CablePlan) -> list[list[str]]:
    """Tier, A optic, cable part, B optic, links, physical cables (one row per combination)."""
    links: Counter[tuple[str, str, str, str]] = Counter()
    cables: dict[tuple[str, str, str, str], set[str]] = defaultdict(set)
    for row in plan.rows:
        key = (row.tier, row.a.optic or "-", row.part_name, row.b.optic or "-")
        links[key] += 1
        cables[key].add(row.number)
    return [[*key, str(n), str(len(cables[key]))] for key, n in sorted(links.items())]


def firmware_rows(doc: FabricDocument) -> tuple[list[list[str]], list[str]]:
    versions: dict[str, Counter[str]] = defaultdict(Counter)
    for device in doc.devices.values():
        versions[doc.device_model(device).model][device.firmware or "(not set)"] += 1
    rows, drift = [], []
    for model, counter in sorted(versions.items()):
        text = ", ".join(f"{v} ({n})" for v, n in counter.most_common())
        rows.append([model, text])
        if len(counter) > 1:
            drift.append(model)
    return rows, drift


def free_port_rows(doc: FabricDocument) -> list[list[str]]:
    free: Counter[str] = Counter()
    total: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for device in doc.devices.values():
        role = doc.role_of(device).value
        if doc.tier_of(device) == 0:
            continue
        ports = doc.ports(device)
        fabric = [p for p in ports.values() if p.group.fabric]
        linked = sum(1 for p in fabric if doc.link_at(device.id, p.name) is not None)
        free[role] += len(fabric) - linked
        total[role] += len(fabric)
        count[role] += 1
    return [[role, str(count[role]), str(total[role]), str(free[role])] for role in sorted(count)]


def draw_design(writer: PdfWriter, doc: FabricDocument, plan: CablePlan,
                analysis: AnalysisData | None, size: tuple[float, float],
                check: Callable[[], None] | None = None,
                prices: PriceList | None = None) -> None:
    s = doc.settings
    notes = s.notes
    flow = Flow(writer, "Design report", size, check).start()
    writer.bookmark("Design report", 0)
    flow.heading("Design report", 1)
    written = any(getattr(notes, name) for name in type(notes).model_fields)
    flow.para(SOME_NOTES if written else NO_NOTES, size=8.5, rgb=(0.3, 0.3, 0.3))
    _technology_section(flow, doc)
    _oversubscription_section(flow, doc, analysis)
    _optics_section(flow, doc, plan)
    flow.heading("NCCL tuning notes", 2)
    if notes.nccl:
        flow.para(notes.nccl, size=9)
    flow.para(f"All-reduce message size used for time estimates: {s.allreduce_message_mb:g} MB.",
              size=8.5, rgb=(0.3, 0.3, 0.3))

    from .design_fabric import draw_fabric_shape

    draw_fabric_shape(flow, doc, analysis, prices)
    _firmware_section(flow, doc)
    _growth_section(flow, doc)

    from .resilience_table import draw_resilience

    draw_resilience(flow, doc, plan)
    _lengths_section(flow, doc, plan)
    if notes.general:
        flow.heading("General notes", 2)
        flow.para(notes.general, size=9)
    flow.close()


def _technology_section(flow: Flow, doc: FabricDocument) -> None:
    """Technology, MTU, PFC/ECN/DCB, the ECMP policy and load-balancing mode."""
    s = doc.settings
    notes = s.notes
    flow.heading("Fabric technology", 2)
    flow.key_values([
        ("Technology", s.technology.value),
        ("MTU", str(s.mtu)),
        ("PFC", f"{_yes(s.pfc)}" + (f", priority {s.pfc_priority}" if s.pfc else "")),
        ("ECN", _yes(s.ecn)),
        ("DCB", _yes(s.dcb)),
        ("ECMP / routing policy", s.ecmp_policy or "-"),
        ("Load-balancing mode", LOAD_BALANCING_NAMES[s.load_balancing]),
        *([("ECMP notes", notes.ecmp)] if notes.ecmp else []),
    ])


def _oversubscription_section(flow: Flow, doc: FabricDocument,
                              analysis: AnalysisData | None) -> None:
    """The targets, and the measured ratios per tier when the validation ran."""
    flow.heading("Oversubscription", 2)
    targets = doc.settings.oversubscription
    flow.key_values([
        ("Targets (down:up)", f"training {targets.training:g}:1, storage {targets.storage:.2f}:1, "
                              f"inference {targets.inference:g}:1"),
    ])
    if analysis is not None and analysis.ran:
        from .analysis_pages import ratio_summary_rows

        rows = ratio_summary_rows(analysis, doc)
        if rows:
            flow.table([Column("Tier", 0.3), Column("Switches", 0.15, "right"),
                        Column("Lowest", 0.18, "right"), Column("Highest", 0.18, "right"),
                        Column("Above target", 0.19, "right")], rows)
    else:
        flow.para("Measured ratios need the validation, which did not run for this export.",
                  size=8.5)


def _optics_section(flow: Flow, doc: FabricDocument, plan: CablePlan) -> None:
    """The optics plan's note and the optics and cables per tier."""
    flow.heading("Optics deployment plan", 2)
    notes = doc.settings.notes
    if notes.optics_plan:
        flow.para(notes.optics_plan, size=9)
    rows = optics_rows(plan)
    if rows:
        flow.table([Column("Tier", 62), Column("A-end optic", 0.3), Column("Cable", 0.22),
                    Column("B-end optic", 0.3), Column("Links", 40, "right"),
                    Column("Cables", 44, "right")], rows, size=7.5)


def _firmware_section(flow: Flow, doc: FabricDocument) -> None:
    """The firmware note, the versions per model and the models whose versions differ."""
    flow.heading("Firmware baseline", 2)
    notes = doc.settings.notes
    if notes.firmware:
        flow.para(notes.firmware, size=9)
    firmware, drift = firmware_rows(doc)
    if firmware:
        flow.table([Column("Model", 0.3), Column("Firmware versions (devices)", 0.7)], firmware,
                   size=7.5)
    if drift:
        flow.para(f"Firmware differs within: {', '.join(drift)}.", size=8.5, rgb=(0.75, 0.1, 0.1))


def _growth_section(flow: Flow, doc: FabricDocument) -> None:
    """The growth note and the free fabric ports per switch role."""
    flow.heading("Growth", 2)
    notes = doc.settings.notes
    if notes.growth:
        flow.para(notes.growth, size=9)
    free = free_port_rows(doc)
    if free:
        flow.table([Column("Switch role", 0.4), Column("Switches", 0.2, "right"),
                    Column("Fabric ports", 0.2, "right"), Column("Free ports", 0.2, "right")],
                   free, size=7.5)


def _lengths_section(flow: Flow, doc: FabricDocument, plan: CablePlan) -> None:
    """How lengths are estimated and ordered, the spares and the label profile."""
    s = doc.settings
    flow.heading("Cable lengths and labels", 2)
    lengths = s.lengths
    flow.key_values([
        ("Length estimate", f"route x (1 + {lengths.slack_percent:g} %) + {lengths.slack_m:g} m; "
                            f"tray at {lengths.tray_height_m:g} m, {lengths.in_rack_m:g} m extra "
                            "inside one rack; racks from row/position on a "
                            f"{lengths.rack_width_m:g} m x {lengths.row_pitch_m:g} m grid"),
        ("Ordered length", "the next stock length in each part's own ladder (catalog)"),
        ("Spares", f"{s.spares_percent:g} % of each line of the BOM order list (an optic "
                   "part; a cable part at one ordered length), rounded up once per line"),
        ("Label profile", f"{plan.profile}, site {s.site}; {CONVENTION}"),
    ])
