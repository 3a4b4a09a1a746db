"""Output shared by `aicnet grow` and `aicnet migrate`: the bill of change, the moved cables
with the reason, the planned design's validation, and the optional outputs (-o, --pdf)."""

from __future__ import annotations

import argparse
from collections import Counter
from typing import TYPE_CHECKING

from ..model.wording import counted
from .common import EXIT_FINDINGS, EXIT_OK, CliError, print_json

if TYPE_CHECKING:
    from ..analysis.report import AnalysisReport
    from ..change.growth import ChangePlan


def add_outputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="OUT.fabric", help="write the planned design")
    parser.add_argument("--pdf", metavar="OUT.pdf", help="write the MACD work order")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--moves", type=int, default=20, metavar="N",
                        help="list at most N moved cables (default 20; 0 for all)")


def _parts(lines: list[dict], sign: int) -> str:
    return ", ".join(f"{x['part']} {sign * x['delta']}" for x in lines) or "nothing"


def _cable_ends(rets: list, moves: int, reasons: dict[str, str]) -> list[str]:
    """At most `moves` (0: all) cables with their ends old -> new and the reason, if any."""
    shown = rets if moves <= 0 else rets[:moves]
    out = []
    for ret in shown:
        ends = ", ".join(f"{a.device}:{a.port} -> {b.device}:{b.port}" for a, b in ret.moved)
        why = reasons.get(ret.old.id, "")
        out.append(f"  {ret.new.id}: {ends}" + (f"  ({why})" if why else ""))
    if len(shown) < len(rets):
        out.append(f"  ... {len(rets) - len(shown)} more (--moves 0 for all)")
    return out


def render(plan: ChangePlan, title: str, moves: int) -> list[str]:
    bill = plan.bill()
    d = plan.diff
    out = [title, "Bill of change",
           f"  parts to buy:   {_parts(bill['buy'], 1)}",
           f"  parts freed:    {_parts(bill['freed'], -1)}",
           f"  cables: {bill['cables_to_pull']} to pull (new), {bill['cables_to_move']} to move "
           f"(re-terminate), {bill['cables_to_remove']} to remove, {bill['cables_kept']} stay"
           + (f" ({bill['cables_on_renamed_ports']} on renamed ports: same cage and leg, "
              "new label)" if bill["cables_on_renamed_ports"] else ""),
           f"  devices: {bill['devices_to_add']} to rack, {bill['devices_to_move']} to move, "
           f"{bill['devices_to_remove']} to remove"
           + (f"; swapped: {', '.join(bill['devices_swapped'])}" if bill["devices_swapped"] else ""),
           f"  cages with another optic or breakout: {bill['optic_changes']}"]
    if d.links_reterminated:
        out.append("Cables to move (why)")
        out += _cable_ends(d.links_reterminated, moves, plan.reasons)
    if d.ports_renamed:
        out.append("Cables that stay on renamed ports (same cage and leg; re-label)")
        out += _cable_ends(d.ports_renamed, moves, {})
    for note in plan.notes:
        out.append(f"note: {note}")
    return out


def _by_code(report: AnalysisReport) -> dict[str, int]:
    """Findings per code, errors first, then warnings, then notes (as aicnet validate lists)."""
    order = {"error": 0, "warning": 1, "info": 2}
    codes = Counter((order[f.severity.value], f.code) for f in report.findings)
    return {code: n for (_rank, code), n in sorted(codes.items())}


def closing_line(report: AnalysisReport) -> str:
    """What the planned design's validation says: every severity counted, and the codes behind
    the counts, so that no finding of the planned design goes unmentioned."""
    codes = _by_code(report)
    listed = ", ".join(f"{code} {n}" for code, n in codes.items())
    return (f"The planned design: {counted(report.errors, 'error')}, "
            f"{counted(report.warnings, 'warning')}, {counted(report.infos, 'note')}"
            + (f" ({listed})" if listed else "")
            + (" - see aicnet validate" if codes else ""))


def finish(plan: ChangePlan, args: argparse.Namespace, title: str) -> int:
    from ..analysis import analyze
    from ..fileio import save_fabric

    report = analyze(plan.result)
    if args.output:
        try:
            save_fabric(plan.result, args.output)
        except OSError as exc:
            raise CliError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    if args.pdf:
        from ..report.workorder import write_work_order

        try:
            write_work_order(plan.diff, args.pdf)
        except OSError as exc:
            raise CliError(f"cannot write {args.pdf}: {exc.strerror or exc}") from None
    if args.json:
        data = plan.to_json()
        data["validation"] = {"errors": report.errors, "warnings": report.warnings,
                              "notes": report.infos, "by_code": _by_code(report)}
        print_json(data)
    else:
        lines = render(plan, title, args.moves)
        lines.append(closing_line(report))
        for finding in [f for f in report.findings if f.severity.value == "error"][:3]:
            lines.append(f"  {finding.code}: {finding.message}")
        if args.output:
            lines.append(f"wrote {args.output}")
        if args.pdf:
            lines.append(f"wrote {args.pdf}")
        print("\n".join(lines))
    return EXIT_FINDINGS if report.errors else EXIT_OK


def planned(make) -> ChangePlan:  # noqa: ANN001 - a zero-argument callable returning a plan
    from ..change.growth import GrowthError

    try:
        return make()
    except GrowthError as exc:
        raise CliError(str(exc)) from None
