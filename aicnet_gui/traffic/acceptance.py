"""The acceptance sheet: the bus bandwidth nccl-tests' `all_reduce_perf` and `alltoall_perf`
should show on a correct cluster, per message size (1 MiB to 8 GiB, nccl-tests `-b 1M -e 8G
-f 2`) and per job size (one node, one scalable unit, the whole workload).

For each job size the traffic model routes the flows of a ring, a tree and an all-to-all over
the drawn fabric in its load-balancing mode (`Settings.load_balancing`; flowlets as adaptive),
and finds the share of the NICs' rate the fabric delivers to each (mean, and the 5th
percentile of the ECMP draws: a correct cluster with static hashing may measure that low).
Per message size NCCL's tuning model picks the all-reduce algorithm (analysis/nccl_tuning.py:
the NVLS / ring inside a node, ring or (NVLS) tree across), the time follows with the network
part at that algorithm's share, and the busBW is what nccl-tests computes from the time:
algBW x 2(n-1)/n for all-reduce, x (n-1)/n for all-to-all (nccl-tests doc/PERFORMANCE.md).
Figures are in GB/s as nccl-tests prints them.

A job size is a prefix of the workload's servers in rank order: the first NVLink domain, the
servers of the first scalable unit (the `su` tag the generators write, else the catalog's
`su_nodes` for the fabric's technology), all of them.  A size that equals the next one is left
out.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..analysis.nccl_tuning import Tuning, alltoall_bus_gbps, alltoall_time_us
from ..fileio.atomic import write_atomic
from ..model.catalog_entities import Technology
from ..model.fabric import FabricTechnology
from .flows import TooLarge
from .model import Cancel, Progress, TrafficModel, _Job
from .routing import Cancelled

#: nccl-tests -b 1M -e 8G -f 2
SIZES = tuple(2 ** k for k in range(20, 34))
JOB_SIZES = ("1 node", "1 SU", "whole workload")
MODE_OF = {"ecmp": "ecmp", "flowlet": "adaptive", "adaptive": "adaptive", "spray": "spray"}
CSV_FIELDS = ("workload", "job", "servers", "gpus", "bytes", "allreduce_algorithm",
              "allreduce_protocol", "allreduce_time_us", "allreduce_busbw_GBps",
              "allreduce_busbw_low_GBps", "alltoall_time_us", "alltoall_busbw_GBps",
              "alltoall_busbw_low_GBps", "load_balancing")


@dataclass(frozen=True)
class AcceptanceRow:
    workload: str  # workload id
    job: str  # one of JOB_SIZES
    servers: int
    gpus: int
    size_bytes: int
    algorithm: str  # NCCL's all-reduce algorithm
    protocol: str
    allreduce_us: float | None
    allreduce_busbw: float | None  # GB/s
    allreduce_low: float | None  # GB/s, at the 5th percentile fabric share
    alltoall_us: float | None
    alltoall_busbw: float | None
    alltoall_low: float | None
    mode: str

    def csv_values(self) -> tuple:
        def r(value: float | None, digits: int = 2) -> str:
            return "" if value is None else f"{value:.{digits}f}"
        return (self.workload, self.job, self.servers, self.gpus, self.size_bytes, self.algorithm,
                self.protocol, r(self.allreduce_us, 1), r(self.allreduce_busbw), r(self.allreduce_low),
                r(self.alltoall_us, 1), r(self.alltoall_busbw), r(self.alltoall_low), self.mode)


def _job_servers(model: TrafficModel, job: _Job) -> list[tuple[str, list[int]]]:
    """(job size name, its servers) for the workload's job (see the module docstring)."""
    state = model.state
    servers = job.servers
    if not servers:
        return []
    sizes = [("1 node", servers[:job.domain_servers])]
    su = state.store.dev_obj[servers[0]].tags.get("su")
    if su is not None:
        first = [s for s in servers if state.store.dev_obj[s].tags.get("su") == su]
    else:
        model_ = state.store.dev_models[servers[0]]
        family = (Technology.INFINIBAND if state.settings.technology == FabricTechnology.INFINIBAND
                  else Technology.ETHERNET)
        count = model_.su_nodes.get(family) if model_ is not None else None
        first = servers[:count] if count else []
    if first:
        sizes.append(("1 SU", first))
    sizes.append(("whole workload", servers))
    kept: list[tuple[str, list[int]]] = []
    for name, rows in sizes:
        if kept and len(rows) <= len(kept[-1][1]):
            continue
        kept.append((name, rows))
    return kept


def _shares(model: TrafficModel, job: _Job, mode: str, cancel: Cancel | None,
            step: Callable[[float, str], None]) -> dict[str, tuple[float, float]]:
    """(mean, 5th percentile) fabric share of ring, tree and all-to-all flows for `job`."""
    shares: dict[str, tuple[float, float]] = {}
    for i, pattern in enumerate(("ring", "tree", "alltoall")):
        step(i / 3, f"{len(job.servers)} servers: {pattern} flows")
        if job.system.nodes <= 1:
            shares[pattern] = (1.0, 1.0)
            continue
        tuning = Tuning(job.system)
        kind = "alltoall" if pattern == "alltoall" else "allreduce"
        sub = _Job(job.workload, job.servers, job.system, kind, job.family, job.message_bytes,
                   job.domain_servers)
        try:
            result = model._mode(sub, tuning, None, pattern, mode, lambda f, t: None, cancel)
        except TooLarge:  # an all-to-all beyond the model: its column stays empty
            shares[pattern] = (0.0, 0.0)
            continue
        shares[pattern] = (result.share, result.share_p5)
    return shares


def acceptance_sheet(model: TrafficModel, workload_ids: Iterable[str] | None = None,
                     progress: Progress | None = None,
                     cancel: Cancel | None = None) -> list[AcceptanceRow]:
    """The rows of the sheet for the workloads (default: every workload of the design)."""
    ids = list(workload_ids) if workload_ids is not None else sorted(model.doc.workloads)
    mode = MODE_OF[model.state.settings.load_balancing]
    plans = []
    for wl_id in ids:
        base = model.job(wl_id)
        for name, servers in _job_servers(model, base):
            plans.append((wl_id, name, model.job(wl_id, servers=servers)))
    rows: list[AcceptanceRow] = []
    for i, (wl_id, name, job) in enumerate(plans):
        if cancel is not None and cancel():
            raise Cancelled

        def step(fraction: float, text: str, i: int = i, label: str = f"{wl_id}, {name}") -> None:
            if progress is not None:
                progress((i + fraction) / len(plans), f"{label}: {text}")

        shares = _shares(model, job, mode, cancel, step)
        rows.extend(_rows(wl_id, name, job, shares, mode))
    if progress is not None:
        progress(1.0, "done")
    return rows


def _rows(wl_id: str, name: str, job: _Job, shares: dict[str, tuple[float, float]],
          mode: str) -> list[AcceptanceRow]:
    system = job.system
    tuning = Tuning(system)
    out = []
    for size in SIZES:
        choice = tuning.choose("allreduce", size, job.family)
        ar = ar_low = ar_us = None
        algorithm = protocol = ""
        if choice is not None:
            algorithm, protocol = choice.algorithm, choice.protocol
            pattern = "ring" if algorithm == "ring" else "tree" if "tree" in algorithm else None
            mean, low = shares[pattern] if pattern else (1.0, 1.0)
            t = tuning.time_us("allreduce", algorithm, protocol, size, mean)
            t_low = tuning.time_us("allreduce", algorithm, protocol, size, low)
            if t and mean > 0:
                ar_us, ar = t, tuning.bus_gbps("allreduce", size, t) / 8
            if t_low and low > 0:
                ar_low = tuning.bus_gbps("allreduce", size, t_low) / 8
        a2a_mean, a2a_low = shares["alltoall"]
        t = alltoall_time_us(system, size, a2a_mean) if a2a_mean > 0 else None
        t_low = alltoall_time_us(system, size, a2a_low) if a2a_low > 0 else None
        out.append(AcceptanceRow(
            wl_id, name, len(job.servers), system.ranks, size, algorithm, protocol, ar_us, ar,
            ar_low, t, alltoall_bus_gbps(system, size, t) / 8 if t else None,
            alltoall_bus_gbps(system, size, t_low) / 8 if t_low else None, mode))
    return out


def write_acceptance_csv(rows: list[AcceptanceRow], path: str | Path) -> None:
    """The sheet as CSV (one row per workload, job size and message size), written atomically
    (the old file, or none, until the new one is whole)."""
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(CSV_FIELDS)
    for row in rows:
        writer.writerow(row.csv_values())
    write_atomic(path, text.getvalue().encode("utf-8"), keep_backup=False)


def size_label(size: int) -> str:
    """1048576 -> '1M', 8589934592 -> '8G' (as nccl-tests' -b / -e)."""
    for unit, scale in (("G", 2 ** 30), ("M", 2 ** 20), ("K", 2 ** 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale}{unit}"
    return str(size)



def export_acceptance_csv(doc, path: str | Path, progress: Progress | None = None,  # noqa: ANN001
                          cancel: Cancel | None = None) -> int:
    """Write the acceptance sheet of every workload of `doc` to `path`; the rows written.  The
    one call an export registry needs (name "acceptance-csv", option `--acceptance-csv OUT.csv`)."""
    rows = acceptance_sheet(TrafficModel(doc), None, progress, cancel)
    write_acceptance_csv(rows, path)
    return len(rows)
