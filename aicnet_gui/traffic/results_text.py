"""The traffic results and the acceptance sheet as text a person reads (`aicnet traffic`)."""

from __future__ import annotations

from ..analysis.collectives import NCCL_NAMES
from ..analysis.load_balancing import NAMES
from ..model.wording import counted
from .acceptance import AcceptanceRow, size_label
from .result import ModeResult, WorkloadTraffic


def gbs(gbps: float) -> str:
    """Gb/s as nccl-tests' GB/s."""
    return f"{gbps / 8:,.1f} GB/s"


def render_workload(result: WorkloadTraffic,
                    medians: dict[str, tuple[int, ModeResult]] | None = None) -> list[str]:
    """The workload's lines; a mode drawn several times (static ECMP) names the hot links of
    its median draw (`medians`, TrafficModel.median_draws): over the mean of the draws every
    uplink carries about the same and the NICs look hottest."""
    algorithm = NCCL_NAMES.get(result.algorithm, result.algorithm)
    what = (f"all-reduce of {result.message_bytes / 1e6:g} MB: NCCL {algorithm}/{result.protocol}"
            if result.collective == "allreduce" else
            f"all-to-all of {result.message_bytes / 1e6:g} MB per GPU")
    lines = [f"{result.name} ({result.id}): {result.gpus} GPUs in {result.nodes} NVLink "
             f"domain(s); {what}; flows on the network: {result.pattern}"]
    lines += [f"  note: {note}" for note in result.notes]
    for mode, r in result.modes.items():
        runs = ", ".join(NAMES[m] for m in r.runs)
        spread = (f" (5th-95th percentile {gbs(r.busbw_p5_gbps)} - {gbs(r.busbw_p95_gbps)}, "
                  f"{r.seeds} draws)" if r.draws_differ else
                  f" (every one of {r.seeds} draws)" if r.seeds > 1 else "")
        time = f"{r.time_ms:.3f} ms" if r.time_ms is not None else "cannot complete"
        lines.append(f"  {mode}: busBW {gbs(r.busbw_gbps)}{spread}, {time}, "
                     f"{r.ratio:.0%} of the ideal {gbs(r.ideal_busbw_gbps)}; the fabric delivers "
                     f"{r.share:.0%} of the NICs' rate; switches run {runs}")
        lines += [f"    note: {note}" for note in r.notes]
        median = (medians or {}).get(mode) if r.draws_differ else None
        hottest = r.hottest if median is None else median[1].hottest
        if median is not None:
            lines.append(f"    in the median draw (draw {median[0] + 1} of {r.seeds}, busBW "
                         f"{gbs(median[1].busbw_gbps)}):")
        for hot in hottest[:5]:
            lines.append(f"    hot: {hot.name}  {hot.load:.0%} of {hot.capacity_gbps:g} Gb/s")
    return lines


def render_acceptance(rows: list[AcceptanceRow]) -> list[str]:
    """One table per workload and job size: size, algorithm, all-reduce and all-to-all busBW."""
    lines: list[str] = []
    key = None
    for row in rows:
        if (row.workload, row.job) != key:
            key = (row.workload, row.job)
            lines += ["", f"{row.workload}, {row.job}: {counted(row.servers, 'server')}, "
                          f"{row.gpus} GPUs ({NAMES[row.mode]})",
                      f"  {'size':>6}  {'all_reduce_perf busBW':>22}  {'algorithm':<16} "
                      f"{'alltoall_perf busBW':>20}"]
        ar = f"{row.allreduce_busbw:8.1f} GB/s" if row.allreduce_busbw is not None else "-"
        if row.allreduce_low is not None and row.allreduce_busbw is not None and \
                row.allreduce_low < row.allreduce_busbw - 0.05:
            ar = f"{row.allreduce_low:.1f}-{ar.strip()}"
        a2a = f"{row.alltoall_busbw:8.1f} GB/s" if row.alltoall_busbw is not None else "-"
        algorithm = f"{NCCL_NAMES.get(row.algorithm, row.algorithm)}/{row.protocol}" \
            if row.algorithm else "-"
        lines.append(f"  {size_label(row.size_bytes):>6}  {ar:>22}  {algorithm:<16} {a2a:>20}")
    return lines[1:]
