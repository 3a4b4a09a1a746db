"""One candidate, from its combination to its metrics: the job a worker process runs.

build (generator_calls.py: the generator places, cables and equips the whole design) -> the
requirement's workloads, oversubscription targets and the requirement itself into the design
(one edit) -> written as `<name>.fabric` and read back, so every number comes from the file
the user opens -> analysis, BOM, failure sweep, growth plan -> a `Candidate`.

Cancellation is cooperative: between the steps the job asks `checkpoint()`, which raises
`Cancelled` once the study is cancelled; a job that stops removes the file it wrote, so the
folder holds exactly the candidates the study lists.  In a worker process the checkpoint reads
the study's shared cancel event (`init_worker`); the process ignores Ctrl-C, which the study's
own process turns into a cancel.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..analysis import Analyzer, compute_bom
from ..catalog.loader import load_catalog
from ..fileio import load_fabric, save_fabric
from ..model.catalog import Catalog
from ..model.document import FabricDocument, ModelError
from ..model.edits import (
    AddWorkload,
    Operation,
    RemoveWorkload,
    SetRequirement,
    UpdateMetadata,
    UpdateSettings,
)
from ..model.fabric import Requirement
from .axes import Combination
from .candidate import Candidate, CandidateMetrics
from .candidate_metrics import bom_fields, report_fields
from .generator_calls import Built, NotExpressible, Refused, build, port_speeds, template_params
from .headroom import growth_headroom
from .price_check import PriceCheck
from .reasons import refusal
from .requirement_workloads import workloads_for
from .resilience import worst_switch_failure
from .traffic_estimates import traffic_estimates


class Cancelled(Exception):
    """The study was cancelled while this candidate was being made."""


@dataclass(frozen=True)
class Task:
    """Everything a worker needs for one candidate (picklable)."""

    index: int
    name: str
    combination: Combination
    requirement: Requirement  # as written into the candidate's file
    servers: int
    gpus_per_server: int
    out_dir: str | None
    prices: PriceCheck | None


Checkpoint = Callable[[], None]


def _ops(built: Built, task: Task, description: str) -> list[Operation]:
    """The requirement's workloads, targets and the requirement itself, as one edit."""
    doc = built.doc
    ops: list[Operation] = []
    requirement = task.requirement
    if requirement.workloads:
        generated = next(iter(doc.workloads.values()))
        ops.append(RemoveWorkload(generated.id))
        ops += [AddWorkload(w) for w in workloads_for(requirement, list(generated.members),
                                                      task.gpus_per_server)]
    ops.append(UpdateSettings({"oversubscription": requirement.targets}))
    ops.append(UpdateMetadata({"description": f"{requirement.name}: {description}. "
                                              f"{doc.metadata.description}"}))
    ops.append(SetRequirement(requirement))
    return ops


def _speeds(catalog: Catalog, server: str, combo: Combination) -> dict[str, set[int]]:
    """The port speeds of the candidate's models, by the names the generator's messages use."""
    models = dict.fromkeys([server, combo.leaf, combo.spine])
    return {catalog.devices[m].model: port_speeds(catalog, m) for m in models
            if m in catalog.devices}


def broken(task: Task, catalog: Catalog, exc: BaseException) -> Candidate:
    """A candidate whose job failed with an error of aicnet's own: listed with the error (as
    text: an exception object may not survive the way back from a worker process)."""
    return Candidate(task.index, task.name, task.combination, task.combination.describe(catalog),
                     feasible=False, file=None, metrics=None,
                     reason=f"aicnet could not evaluate this candidate ({type(exc).__name__}: "
                            f"{exc}); this is a bug, please report it")


def evaluate_safely(task: Task, catalog: Catalog, checkpoint: Checkpoint) -> Candidate:
    """`evaluate`, with an unexpected error turned into a listed candidate (Cancelled passes)."""
    try:
        return evaluate(task, catalog, checkpoint)
    except Cancelled:
        raise
    except Exception as exc:  # noqa: BLE001 - one broken candidate must not end the study
        return broken(task, catalog, exc)


def _site_reason(requirement: Requirement, rows: int) -> str | None:
    limit = requirement.site.rows
    if limit is not None and rows > limit:
        return (f"needs {rows} rows of up to {requirement.site.racks_per_row} racks; the site "
                f"has {limit}")
    return None


def evaluate(task: Task, catalog: Catalog, checkpoint: Checkpoint) -> Candidate:
    """The candidate of `task`: built and measured, or why it cannot be built."""
    started = time.perf_counter()
    combo = task.combination
    description = combo.describe(catalog)

    def result(**fields: Any) -> Candidate:
        return Candidate(index=task.index, name=task.name, combination=combo,
                         description=description, seconds=time.perf_counter() - started,
                         **fields)

    def refused(reason: str) -> Candidate:
        return result(feasible=False, reason=reason, file=None, metrics=None)

    def generator_refused(exc: Refused) -> Candidate:
        return refused(refusal(combo, [str(e) for _p, e in exc.errors],
                               _speeds(catalog, task.requirement.server, combo)))

    try:
        options = template_params(catalog, combo, task.requirement, task.servers, task.name)
    except NotExpressible as exc:
        return refused(str(exc))
    except Refused as exc:  # the generator refused the hardware while sizing the SUs
        return generator_refused(exc)
    checkpoint()
    try:
        built = build(catalog, options)
    except Refused as exc:
        return generator_refused(exc)
    description = replace(combo, technology=built.doc.settings.technology.value).describe(catalog)
    try:
        built.doc.apply(_ops(built, task, description))
    except ModelError as exc:
        return refused(f"the requirement's workloads do not fit the design: {exc}")
    checkpoint()
    path = Path(task.out_dir) / f"{task.name}.fabric" if task.out_dir else None
    try:
        metrics = _measure(built, task, path, catalog, checkpoint)
    except BaseException:
        if path is not None:
            path.unlink(missing_ok=True)
        raise
    reason = _site_reason(task.requirement, metrics.rows)
    return result(feasible=reason is None, reason=reason,
                  file=str(path) if path is not None else None, metrics=metrics,
                  notes=built.notes)


def _measure(built: Built, task: Task, path: Path | None, catalog: Catalog,
             checkpoint: Checkpoint) -> CandidateMetrics:
    doc = built.doc
    if path is not None:
        save_fabric(doc, path, keep_backup=False)
        doc = load_fabric(path, catalog)
    return measure(doc, built.template, built.speed_gbps, task.requirement, task.prices,
                   checkpoint)


def measure(doc: FabricDocument, template: str, speed_gbps: int | None,
            requirement: Requirement, prices: PriceCheck | None = None,
            checkpoint: Checkpoint = lambda: None) -> CandidateMetrics:
    """Every metric of a candidate, read from its design `doc`: the analysis, the BOM (priced
    by `prices`), the traffic model's collective times, the failure sweep and the growth plan
    to the requirement's target."""
    report = Analyzer(doc).full()
    bom = compute_bom(doc, prices.prices if prices is not None else None)
    fields = {**bom_fields(doc, bom, prices), **report_fields(doc, report)}
    checkpoint()
    traffic = traffic_estimates(doc, checkpoint)
    fields["workloads"] = tuple(  # type: ignore[assignment]
        replace(w, estimates=w.estimates + traffic.estimates.get(w.id, ()),
                load_balancing=traffic.mode, traffic_note=traffic.missing.get(w.id))
        for w in fields["workloads"])  # type: ignore[attr-defined]
    failure = worst_switch_failure(doc, fields["primary"], checkpoint)  # type: ignore[arg-type]
    growth = None
    if requirement.growth is not None:
        growth = growth_headroom(doc, report, requirement.growth, checkpoint)
    return CandidateMetrics(template=template, technology=doc.settings.technology.value,
                            speed_gbps=speed_gbps, failure=failure, growth=growth,
                            load_balancing=doc.settings.load_balancing,
                            **fields)  # type: ignore[arg-type]


# ------------------------------------------------------------- in a worker process
_cancel: Any = None
_catalog: Catalog | None = None


def init_worker(cancel: Any) -> None:
    """A worker process: Ctrl-C is the study's (it cancels), the shared cancel event, the
    catalog loaded once."""
    global _cancel, _catalog
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _cancel = cancel
    _catalog = load_catalog().catalog


def _checkpoint() -> None:
    if _cancel is not None and _cancel.is_set():
        raise Cancelled


def run_task(task: Task) -> Candidate | None:
    """A worker process's job: the candidate, or None when the study was cancelled first."""
    assert _catalog is not None, "init_worker was not run"
    try:
        _checkpoint()
        return evaluate_safely(task, _catalog, _checkpoint)
    except Cancelled:
        return None
