"""What the comparison table shows of a candidate, column by column: the cell's words, the value
it sorts by and the tooltip behind it.  Qt-free: the table model (table_model.py) renders it.

Every number is the candidate's own (study/candidate.py); the words for cost, time and the
Pareto marks are the command line's (study/comparison_text.py), so the window and `aicnet compare` say
the same.  A candidate that was not built has its reason in the status column and no numbers.
Columns that depend on the study (one per workload; typical power and the share on unverified
catalog figures, once the BOM gives them) are made from the candidates present.  A workload's
all-reduce is its time under the candidate's own load balancing (the traffic model's; `*`: the
even-spread bound standing in, the tooltip says why); the primary workload's load balancing
and its even-spread bound have a column each.

The columns a comparison is decided by come first, after the candidate: cost, power, the
primary all-reduce, its load balancing, the even-spread bound and the Pareto mark, so that
they show without scrolling in a 1600-pixel window; the counts and the rest follow.  Long
titles take two lines, and every header has a tooltip saying what the column is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...model.wording import counted
from ...study.candidate import EVEN_SPREAD, Candidate, CandidateMetrics, WorkloadResult
from ...study.comparison_text import FALLBACK_MARK, balancing_text, kw, money, ms, pareto_text

ROLES = ("leaf", "spine", "core")
Value = float | str | None


@dataclass(frozen=True)
class Column:
    """One column: its title, the cell's text, the sort value (None sorts last), a tooltip."""

    key: str
    title: str
    text: Callable[[Candidate], str]
    sort: Callable[[Candidate], Value]
    tip: Callable[[Candidate], str] = lambda _c: ""
    numeric: bool = True
    #: what the column is (the header's tooltip)
    about: str = ""


def _metric(read: Callable[[CandidateMetrics], Value]) -> Callable[[Candidate], Value]:
    def value(c: Candidate) -> Value:
        m = c.metrics
        return None if m is None else read(m)

    return value


def _shown(read: Callable[[CandidateMetrics], str]) -> Callable[[Candidate], str]:
    def text(c: Candidate) -> str:
        m = c.metrics
        return "" if m is None else read(m)

    return text


# ---------------------------------------------------------------- the words of one cell
def status(c: Candidate) -> str:
    """Built, built but not fitting the site, or not buildable (the reason column says why)."""
    if c.metrics is None:
        return "cannot be built"
    if not c.feasible:
        return "does not fit the site"
    return "built"


def switches_text(m: CandidateMetrics) -> str:
    return " / ".join(str(sum(m.switches.get(r, {}).values())) for r in ROLES)


def switches_tip(m: CandidateMetrics) -> str:
    lines = [f"{role}: " + ", ".join(f"{n} × {model}" for model, n in sorted(models.items()))
             for role in ROLES if (models := m.switches.get(role))]
    return "\n".join(lines) or "no switches"


def total_switches(m: CandidateMetrics) -> int:
    return sum(sum(v.values()) for v in m.switches.values())


def _parts_tip(parts: dict[str, int]) -> str:
    return "\n".join(f"{n:,} × {part}" for part, n in sorted(parts.items())) or "none"


def cables_tip(m: CandidateMetrics) -> str:
    kinds = ", ".join(f"{kind} {n:,}" for kind, n in sorted(m.cables_by_type.items()))
    return f"{kinds}\nfibre ordered: {m.fibre_m:,.0f} m\n\n{_parts_tip(m.cables)}"


def cost_text(m: CandidateMetrics) -> str:
    """The total, or why there is none: no price list, or how many parts have no price."""
    if m.cost is not None:
        return money(m.cost, m.currency)
    if m.currency is None and not m.cost_known:
        return "no price list"
    if m.unpriced:
        return f"incomplete: {counted(len(m.unpriced), 'part')} unpriced"
    return "incomplete: price list problems"


def cost_tip(m: CandidateMetrics) -> str:
    lines = [m.cost_note]
    if m.cost is None and m.cost_known:
        lines.append(f"priced parts: {money(m.cost_known, m.currency)}")
    if m.unpriced:
        lines.append("no price: " + ", ".join(m.unpriced))
    return "\n".join(lines)


def power_tip(m: CandidateMetrics) -> str:
    lines = [f"{m.power_kw:,.1f} kW: {m.power_basis}"]
    if m.power_typical_w is not None:
        lines.append(f"typical: {m.power_typical_w / 1000:,.1f} kW")
    if m.power_unverified_w is not None:
        lines.append(f"resting on unverified catalog figures: {m.power_unverified_w / 1000:,.1f} kW")
    if m.power_unknown:
        lines.append("no maximum figure (not counted): " + ", ".join(m.power_unknown))
    return "\n".join(lines)


def workload_text(w: WorkloadResult) -> str:
    """The all-reduce under the candidate's own load balancing; `*` the even-spread bound."""
    return ms(w.collective_ms) + (FALLBACK_MARK if w.collective_basis == EVEN_SPREAD else "")


def workload_tip(w: WorkloadResult) -> str:
    bus = "-" if w.collective_bus_gbps is None else f"{w.collective_bus_gbps / 8:,.0f} GB/s"
    if w.collective_basis == EVEN_SPREAD:
        how = f"the even-spread bound: no traffic-model time ({w.collective_note})"
    else:
        how = (f"under its own load balancing ({', '.join(w.runs)}), the traffic model")
    lines = [f"{w.name}: {w.kind}, {w.pattern}, {w.gpus:,} GPUs on {w.servers:,} servers",
             f"all-reduce ({w.algorithm}): {ms(w.collective_ms)}, bus bandwidth {bus}, {how}",
             f"even spread (the fabric's even-spread bound, the analysis): {ms(w.even_spread_ms)}",
             f"per GPU: {w.per_gpu_gbps:,.0f} Gb/s; bottleneck: {w.bottleneck}"]
    lines += [f"{e.model}: {ms(e.allreduce_ms)}" for e in w.estimates]
    return "\n".join(lines)


def growth_text(m: CandidateMetrics) -> str:
    g = m.growth
    if g is None:
        return "-"
    if not g.planned:
        return "cannot be planned"
    if g.fits:
        return "fits"
    if g.headroom_servers:
        return f"{counted(g.headroom_servers, 'server')} before changes"
    return "does not fit"


def findings_text(m: CandidateMetrics) -> str:
    f = m.findings
    return f"{f.get('error', 0)} E · {f.get('warning', 0)} W · {f.get('info', 0)} I"


def findings_tip(m: CandidateMetrics) -> str:
    lines = []
    for severity, codes in m.finding_codes.items():
        lines += [f"{severity}: {code} × {n}" for code, n in sorted(codes.items())]
    return "\n".join(lines) or "no findings"


def findings_rank(m: CandidateMetrics) -> float:
    """Errors weigh more than any number of warnings, warnings more than infos."""
    f = m.findings
    return f.get("error", 0) * 1e8 + f.get("warning", 0) * 1e4 + f.get("info", 0)


def pareto_rank(c: Candidate) -> Value:
    """On both frontiers first, then on one, then dominated; not compared last."""
    mark = c.pareto
    if mark is None or (mark.cost_time is None and mark.power_time is None):
        return None
    return 2.0 - sum(1 for v in (mark.cost_time, mark.power_time) if v)


def pareto_tip(c: Candidate) -> str:
    mark = c.pareto
    if mark is None:
        return "not compared (not built)"
    lines = []
    for key, title in (("cost_time", "cost and time"), ("power_time", "power and time")):
        value = getattr(mark, key)
        if value is None:
            lines.append(f"{title}: not compared")
        elif value:
            lines.append(f"{title}: on the frontier")
        else:
            lines.append(f"{title}: dominated by " + ", ".join(mark.dominated_by.get(key, ())))
    m = c.metrics
    if m is not None and m.collective_basis == EVEN_SPREAD:
        lines.append(f"compared at its even-spread bound ({ms(m.collective_ms)}{FALLBACK_MARK}): "
                     "the traffic model gave no time")
    return "\n".join(lines)


# ---------------------------------------------------------------- the columns
def _workload(c: Candidate, workload_id: str) -> WorkloadResult | None:
    m = c.metrics
    if m is None:
        return None
    return next((w for w in m.workloads if w.id == workload_id), None)


def _workload_column(workload_id: str, primary: bool) -> Column:
    def time(c: Candidate) -> Value:
        w = _workload(c, workload_id)
        return None if w is None else w.collective_ms

    def text(c: Candidate) -> str:
        w = _workload(c, workload_id)
        return "" if w is None else workload_text(w)

    def tip(c: Candidate) -> str:
        w = _workload(c, workload_id)
        head = ("the Pareto marks' time (under the candidate's own load balancing)\n"
                if primary else "")
        return "" if w is None else head + workload_tip(w)

    about = (f"workload {workload_id}'s all-reduce under the candidate's own load balancing (the "
             "traffic model's time; * where the even-spread bound stands in for it)"
             + (". ★: the time the Pareto marks, the charts and the sort use" if primary else ""))
    return Column(f"allreduce:{workload_id}",
                  "All-reduce" + (" ★" if primary else "") + f"\n{workload_id}", text, time, tip,
                  about=about)


FIXED_HEAD: tuple[Column, ...] = (
    Column("number", "#", lambda c: str(c.index + 1), lambda c: float(c.index),
           about="the candidate's number, as on the charts and in the PDF"),
    Column("name", "Candidate", lambda c: c.name, lambda c: c.name,
           lambda c: "\n".join((c.description, *c.notes)), numeric=False,
           about="the candidate (hover over a name for what it is); bold: on a Pareto frontier"),
    Column("status", "Feasible", status, lambda c: 0 if c.feasible else 1 if c.built else 2,
           lambda c: c.reason or "built, fits the site", numeric=False,
           about="built; built but does not fit the site; or cannot be built (Why not says why)"),
)
COST = Column("cost", "Cost", _shown(cost_text), _metric(lambda m: m.cost),
              lambda c: cost_tip(c.metrics) if c.metrics else "",
              about="the bill of materials priced from your price list, spares included")
POWER = Column("power", "Power\nkW", _shown(kw), _metric(lambda m: m.power_w),
               lambda c: power_tip(c.metrics) if c.metrics else "",
               about="every part at its maximum figure; >=: a model without a maximum is not "
                     "counted (a lower bound)")
PARETO = Column("pareto", "Pareto", pareto_text, pareto_rank, pareto_tip, numeric=False,
                about="on the (cost, time) and/or (power, time) frontier, or dominated (hover: by "
                      "which); the time is the ★ all-reduce")
COUNTS: tuple[Column, ...] = (
    Column("switches", "Switches\nleaf/spine/core", _shown(switches_text),
           _metric(total_switches), lambda c: switches_tip(c.metrics) if c.metrics else "",
           about="switches per tier: leaves / spines / cores (hover: the models)"),
    Column("optics", "Optics", _shown(lambda m: f"{sum(m.optics.values()):,}"),
           _metric(lambda m: sum(m.optics.values())),
           lambda c: _parts_tip(c.metrics.optics) if c.metrics else "",
           about="transceivers, one per cage (hover: per part)"),
    Column("cables", "Cables", _shown(lambda m: f"{sum(m.cables.values()):,}"),
           _metric(lambda m: sum(m.cables.values())),
           lambda c: cables_tip(c.metrics) if c.metrics else "",
           about="physical cables (hover: per part and type, fibre metres)"),
    Column("racks", "Racks", _shown(lambda m: str(m.racks)), _metric(lambda m: m.racks),
           lambda c: f"{c.metrics.rows} rows, {c.metrics.rack_units:,} RU used" if c.metrics else "",
           about="racks used (hover: rows and rack units)"),
)
POWER_TYPICAL = Column(
    "power_typical", "Typical\nkW",
    _shown(lambda m: "" if m.power_typical_w is None else f"{m.power_typical_w / 1000:,.1f}"),
    _metric(lambda m: m.power_typical_w), lambda c: power_tip(c.metrics) if c.metrics else "",
    about="the total at typical figures")
POWER_UNVERIFIED = Column(
    "power_unverified", "Unverified\nkW",
    _shown(lambda m: "" if m.power_unverified_w is None else f"{m.power_unverified_w / 1000:,.1f}"),
    _metric(lambda m: m.power_unverified_w), lambda c: power_tip(c.metrics) if c.metrics else "",
    about="the part of the power total from devices counted at a secondary, unverified figure")
BISECTION = Column("bisection", "Bisection", _shown(lambda m: f"{m.bisection_gbps / 1000:g} Tb/s"),
                   _metric(lambda m: m.bisection_gbps),
                   lambda c: f"workload {c.metrics.bisection_workload}" if c.metrics else "",
                   about="max-flow between the two halves of the widest workload's servers")
FIXED_TAIL: tuple[Column, ...] = (
    Column("failure", "Worst switch\nfailure",
           _shown(lambda m: m.failure.words() if m.failure else "-"),
           _metric(lambda m: None if m.failure is None
                   else m.failure.gpus_lost * 1e6 + m.failure.worst_drop * 1e3 + m.failure.gpus_reduced),
           lambda c: c.metrics.failure.evaluated if c.metrics and c.metrics.failure else "",
           numeric=False, about="the worst single switch failure, every switch failed alone"),
    Column("growth", "Growth", _shown(growth_text),
           _metric(lambda m: None if m.growth is None
                   else (1e9 if m.growth.fits else float(m.growth.headroom_servers or 0))),
           lambda c: c.metrics.growth.verdict if c.metrics and c.metrics.growth else
           "the requirement sets no growth target", numeric=False,
           about="whether the growth target fits, or how many servers fit before a change"),
    Column("findings", "Findings", _shown(findings_text), _metric(findings_rank),
           lambda c: findings_tip(c.metrics) if c.metrics else "", numeric=False,
           about="the design's findings: errors, warnings, infos (hover: per code)"),
    Column("reason", "Why not", lambda c: c.reason or "", lambda c: c.reason,
           lambda c: c.reason or "", numeric=False,
           about="why a candidate cannot be built or does not fit the site"),
)


def _balancing_tip(c: Candidate) -> str:
    m = c.metrics
    if m is None:
        return ""
    w = m.primary_result
    lines = [f"setting: {m.load_balancing or '-'}"]
    if w is not None and w.runs:
        lines.append(f"the switches run: {', '.join(w.runs)} (the traffic model's routing of "
                     "the ★ all-reduce)")
    elif w is not None:
        lines.append(f"not routed: {w.collective_note}")
    return "\n".join(lines)


BALANCING = Column("load_balancing", "Load\nbalancing", _shown(balancing_text),
                   _shown(balancing_text), _balancing_tip, numeric=False,
                   about="what the switches run for the ★ all-reduce under the candidate's "
                         "setting (static ECMP, adaptive routing, flowlets, spraying)")
EVEN_SPREAD_TIME = Column(
    "even_spread", "Even\nspread ★", _shown(lambda m: ms(m.even_spread_ms)),
    _metric(lambda m: m.even_spread_ms),
    lambda c: ("the ★ workload's all-reduce with the fabric's bandwidth spread evenly over its "
               "links (the analysis: no hash collisions), the fabric's even-spread bound"
               if c.metrics else ""),
    about="the ★ all-reduce with the bandwidth spread evenly over the links (the analysis, no "
          "hash collisions): the fabric's even-spread bound")


def columns_for(candidates: Sequence[Candidate]) -> tuple[Column, ...]:
    """The columns of a table of `candidates`: the candidate; what decides (cost, power, the
    primary workload's all-reduce, its load balancing and even-spread bound, the Pareto mark);
    the other workloads' all-reduce; the counts (with typical and unverified power when any
    candidate has them) and bisection; failure, growth, findings and why not."""
    built = [c.metrics for c in candidates if c.metrics is not None]
    power = tuple(col for col, read in ((POWER_TYPICAL, "power_typical_w"),
                                        (POWER_UNVERIFIED, "power_unverified_w"))
                  if any(getattr(m, read) is not None for m in built))
    workloads: dict[str, bool] = {}
    for m in built:
        for w in m.workloads:
            workloads[w.id] = workloads.get(w.id, False) or w.id == m.primary
    starred = tuple(_workload_column(w, True) for w, primary in workloads.items() if primary)
    others = tuple(_workload_column(w, False) for w, primary in workloads.items() if not primary)
    primary = (BALANCING, EVEN_SPREAD_TIME) if starred else ()
    return (FIXED_HEAD + (COST, POWER) + starred + primary + (PARETO,) + others + COUNTS
            + power + (BISECTION,) + FIXED_TAIL)
