"""The comparison as text for the terminal: one row per built candidate, then the candidates
that cannot be built with their reasons, then what the cost and the marks rest on."""

from __future__ import annotations

from ..model.catalog import Catalog
from ..model.wording import counted
from .candidate import EVEN_SPREAD, Candidate, CandidateMetrics, StudyResult
from .traffic_estimates import SEEDS, by_mode_line, fallback_lines

HEADER = ("candidate", "leaf/spine/core", "optics", "cables", "racks", "kW", "cost",
          "all-reduce", "load balancing", "even spread", "bisection", "findings",
          "worst switch failure", "pareto")
#: after a collective time that is the even-spread bound standing in for the traffic model's
FALLBACK_MARK = "*"


def _switches(c: Candidate) -> str:
    assert c.metrics is not None
    return "/".join(str(sum(c.metrics.switches[r].values())) for r in ("leaf", "spine", "core"))


def money(value: float | None, currency: str | None) -> str:
    if value is None:
        return "incomplete" if currency else "no prices"
    return f"{value:,.0f} {currency or ''}".strip()


def kw(m: CandidateMetrics) -> str:
    """The power total; `>=` when a device model in it has no maximum figure (a lower bound)."""
    return (">=" if m.power_unknown else "") + f"{m.power_kw:,.1f}"


def power_lines(built: list[Candidate], catalog: Catalog) -> list[str]:
    """The one basis of the kW column, and each device model it leaves out, with why."""
    lines = ["Power: every part at its maximum figure (devices' maximum, NVL72 trays their "
             "share of the rack's stated power; optics and active cables at their module power)"]
    unknown = sorted({u for c in built for u in c.metrics.power_unknown})  # type: ignore[union-attr]
    for model_id in unknown:
        typical = catalog.device(model_id).power_typical_w
        lines.append(f"  {model_id}: no maximum figure ("
                     + (f"{typical:,.0f} W typical, not mixed in" if typical is not None
                        else "no power figure") + "): not counted")
    if unknown:
        lines.append("  kW >= where a model is not counted; a candidate missing a switch's "
                     "figure is not compared on power")
    return lines


def power_left_out(built: list[Candidate]) -> list[Candidate]:
    """The candidates with a collective time that a power chart leaves out: a switch in them
    has no maximum power figure (`comparable_power_kw` None)."""
    return [c for c in built if c.metrics is not None and c.feasible
            and c.metrics.collective_ms is not None and c.metrics.comparable_power_kw is None]


def no_power_comparison(built: list[Candidate]) -> str:
    """Why no candidate is drawn on power against time: the switch models with no maximum
    figure, or that none was built with a collective time."""
    switches = sorted({model for c in built if c.metrics is not None
                       for by_model in c.metrics.switches.values() for model in by_model
                       if model in c.metrics.power_unknown})
    if switches:
        return (f"No candidate's power counts every switch at its maximum (no maximum figure "
                f"for {', '.join(switches)}): nothing compared on power.")
    return "No built candidate fits the site with a collective time: nothing to draw."


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} ms"


def collective_text(m: CandidateMetrics) -> str:
    """The collective time, `*` after it when it is the even-spread bound standing in."""
    mark = FALLBACK_MARK if m.collective_basis == EVEN_SPREAD else ""
    return ms(m.collective_ms) + mark


def balancing_text(m: CandidateMetrics) -> str:
    """The load balancing the collective time was routed by: the modes the switches run
    under the candidate's setting (`adaptive`, `flowlet`, `ecmp`), or the setting itself,
    `(not routed)`, when the traffic model gave no time."""
    w = m.primary_result
    if w is not None and w.runs:
        return "+".join(w.runs)
    return f"{m.load_balancing or '-'} (not routed)"


def time_lines(built: list[Candidate]) -> list[str]:
    """What the all-reduce and even-spread columns are, and each candidate whose all-reduce
    is the even-spread bound because the traffic model gives none."""
    first = built[0].metrics if built else None
    if first is None or not first.primary:
        return []
    lines = [f"all-reduce: workload {first.primary} under each candidate's own load balancing "
             f"(the traffic model: NCCL's flows routed as its switches run them, static ECMP "
             f"the mean of {SEEDS} hash draws): the Pareto marks' time",
             "even spread: the fabric's even-spread bound (the analysis: its bandwidth spread "
             "evenly over the links, no hash collisions)"]
    missing = fallback_lines(built)
    if missing:
        lines.append(f"{FALLBACK_MARK} no traffic-model time: the even-spread bound stands in "
                     "(and is compared):")
        lines += [f"  {line}" for line in missing]
    return lines


def pareto_text(c: Candidate) -> str:
    """`cost+power` on both frontiers, `power` on one, `dominated`, `-` not compared."""
    mark = c.pareto
    if mark is None:
        return "-"
    on = [name for name, value in (("cost", mark.cost_time), ("power", mark.power_time)) if value]
    compared = [v for v in (mark.cost_time, mark.power_time) if v is not None]
    if on:
        return "+".join(on)
    return "dominated" if compared else "-"


def row(c: Candidate) -> tuple[str, ...]:
    m = c.metrics
    assert m is not None
    failure = m.failure.words() if m.failure else "-"
    found = m.findings
    return (c.name + ("" if c.feasible else " (!)"), _switches(c), f"{sum(m.optics.values()):,}",
            f"{sum(m.cables.values()):,}", str(m.racks), kw(m),
            money(m.cost, m.currency), collective_text(m), balancing_text(m),
            ms(m.even_spread_ms), f"{m.bisection_gbps / 1000:g} Tb/s",
            f"{found['error']}E {found['warning']}W", failure, pareto_text(c))


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
            for r in rows]


def render(result: StudyResult, catalog: Catalog) -> list[str]:
    built = [c for c in result.candidates if c.metrics is not None]
    refused = [c for c in result.candidates if c.metrics is None]
    lines = [f"{result.name}: {counted(len(result.candidates), 'candidate')} in "
             f"{result.seconds:.1f} s ({len(built)} built, "
             f"{len(refused)} cannot be built)"]
    lines += [f"  {note}" for note in result.notes]
    if built:
        lines.append("")
        lines += _table([HEADER, *(row(c) for c in built)])
    lines += time_lines(built)
    if built:
        lines.append("pareto: on the (cost, time) and/or (power, time) frontier")
    routed = [line for line in map(by_mode_line, built) if line]
    if routed:
        lines.append("all-reduce by load balancing (the traffic model, where the modes or the "
                     "even spread differ):")
        lines += [f"  {line}" for line in routed]
    for c in built:
        if not c.feasible:
            lines.append(f"(!) {c.name}: {c.reason}")
    if refused:
        lines.append("")
        lines.append("Cannot be built:")
        lines += [f"  {c.name}: {c.reason}" for c in refused]
    if built:
        lines.append("")
        lines += power_lines(built, catalog)
    if built and all(c.metrics.cost is None for c in built):  # type: ignore[union-attr]
        lines.append("")
        lines.append(f"Cost: {built[0].metrics.cost_note}")  # type: ignore[union-attr]
    if result.price_problems:
        lines.append("")
        lines.append(f"Price list {result.price_list}: "
                     f"{counted(len(result.price_problems), 'problem')} (cost shown as "
                     "incomplete):")
        lines += [f"  {p}" for p in result.price_problems]
    if result.cancelled:
        lines.append("")
        lines.append(f"Cancelled: {counted(len(result.not_run), 'candidate')} not run: "
                     + ", ".join(result.not_run))
    return lines
