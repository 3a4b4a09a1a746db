"""Running a study: prepare the requirement, build every candidate in worker processes (one
design each), report progress, stop on cancel, mark the Pareto frontiers.

    study = Study.prepare(requirement, catalog, base_dir)       # StudyError: refused
    result = run_study(study, out_dir, workers=2, progress=..., cancelled=...)

Made for a worker thread (the GUI's) as much as for the command line: `progress` is called in
the calling thread with a `StudyProgress` after every finished candidate, `cancelled` is asked
a few times a second; once it says yes, no new candidate starts, the running ones stop at their
next step (worker.py) and the result holds every candidate that finished, written and listed,
with the names of those that did not run.

Workers are processes of the `forkserver` start method where there is one (the server forks
them from a process that imported the study and nothing of the caller's threads; `spawn`
elsewhere), each loading the catalog once.  `workers=0` runs the candidates one after the
other in the calling process (tests, debugging).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from ..catalog.prices import PriceListError
from ..model.catalog import Catalog
from ..model.fabric import MAX_CANDIDATES, Requirement
from .axes import Combination, combinations, names
from .candidate import Candidate, StudyResult
from .feasibility import StudyError, check
from .pareto import mark
from .price_check import PriceCheck, check_price_list
from .worker import Cancelled, Task, broken, evaluate_safely, init_worker, run_task

DEFAULT_WORKERS = 2
POLL_S = 0.2  # how often a running study asks `cancelled`


@dataclass(frozen=True)
class StudyProgress:
    done: int
    total: int
    elapsed_s: float
    eta_s: float | None
    last: Candidate | None  # the candidate that just finished
    cancelling: bool = False

    def text(self) -> str:
        line = f"{self.done} of {self.total} candidates"
        if self.last is not None:
            state = "built" if self.last.built else "not buildable"
            line += f"; {self.last.name} {state} in {self.last.seconds:.1f} s"
        if self.cancelling:
            line += "; cancelling"
        return line


@dataclass(frozen=True)
class Planned:
    index: int
    name: str
    combination: Combination
    description: str


class Study:
    """A requirement made ready to run: checked, its combinations named, its prices read."""

    def __init__(self, requirement: Requirement, catalog: Catalog, planned: list[Planned],
                 servers: int, gpus_per_server: int, prices: PriceCheck | None,
                 notes: tuple[str, ...]) -> None:
        self.requirement = requirement
        self.catalog = catalog
        self.planned = planned
        self.servers = servers
        self.gpus_per_server = gpus_per_server
        self.prices = prices
        self.notes = notes

    @classmethod
    def prepare(cls, requirement: Requirement, catalog: Catalog,
                base_dir: str | Path | None = None,
                prices: str | Path | None = None) -> Study:
        """Check `requirement` and list its candidates; `prices` (else the requirement's own
        price list, relative to `base_dir`) is read line by line.  StudyError when nothing can
        meet the requirement or the price list is not one."""
        sized = check(requirement, catalog)
        combos = combinations(requirement, catalog)
        if not combos:
            raise StudyError("no catalog switch runs the allowed technologies; allow another "
                             "technology or name the switch models")
        if len(combos) > MAX_CANDIDATES:
            raise StudyError(f"the allowed values make {len(combos)} candidates; a study builds "
                             f"at most {MAX_CANDIDATES}: allow fewer values on an axis")
        planned = [Planned(i, name, combo, combo.describe(catalog))
                   for i, (name, combo) in enumerate(zip(names(combos), combos, strict=True))]
        price_check = None
        path = prices if prices is not None else _requirement_prices(requirement, base_dir)
        if path is not None:
            try:
                price_check = check_price_list(path, catalog)
            except PriceListError as exc:
                raise StudyError(str(exc)) from None
        return cls(requirement, catalog, planned, sized.servers, sized.gpus_per_server,
                   price_check, sized.notes)

    def tasks(self, out_dir: str | Path | None) -> list[Task]:
        """The jobs of the study; each candidate's file carries the requirement, its price
        list named relative to the folder the candidates are written to."""
        requirement = self.requirement
        if self.prices is not None:
            where = Path(self.prices.path).resolve()
            shown = os.path.relpath(where, Path(out_dir).resolve()) if out_dir else str(where)
            requirement = requirement.model_copy(update={"prices": shown})
        folder = str(out_dir) if out_dir is not None else None
        return [Task(p.index, p.name, p.combination, requirement, self.servers,
                     self.gpus_per_server, folder, self.prices) for p in self.planned]


def _requirement_prices(requirement: Requirement, base_dir: str | Path | None) -> Path | None:
    if requirement.prices is None:
        return None
    path = Path(requirement.prices)
    return path if path.is_absolute() or base_dir is None else Path(base_dir) / path


def _start_method() -> str:
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


class _Tracker:
    """Finished candidates and the progress reports."""

    def __init__(self, total: int, progress: Callable[[StudyProgress], None] | None) -> None:
        self.total = total
        self.progress = progress
        self.started = time.perf_counter()
        self.finished: dict[int, Candidate] = {}
        self.cancelling = False

    def report(self, last: Candidate | None = None) -> None:
        if last is not None:
            self.finished[last.index] = last
        if self.progress is None:
            return
        done = len(self.finished)
        elapsed = time.perf_counter() - self.started
        eta = elapsed / done * (self.total - done) if done and not self.cancelling else None
        self.progress(StudyProgress(done, self.total, elapsed, eta, last, self.cancelling))


def _in_process(tasks: list[Task], catalog: Catalog, tracker: _Tracker,
                cancelled: Callable[[], bool]) -> None:
    def checkpoint() -> None:
        if cancelled():
            raise Cancelled

    for task in tasks:
        try:
            checkpoint()
            candidate = evaluate_safely(task, catalog, checkpoint)
        except Cancelled:
            tracker.cancelling = True
            tracker.report()
            return
        tracker.report(candidate)


def _in_pool(tasks: list[Task], catalog: Catalog, tracker: _Tracker,
             cancelled: Callable[[], bool], workers: int, start_method: str | None) -> None:
    context = multiprocessing.get_context(start_method or _start_method())
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(["aicnet_gui.study.worker"])
    event = context.Event()
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context,
                             initializer=init_worker, initargs=(event,)) as pool:
        futures: dict[Future, Task] = {pool.submit(run_task, task): task for task in tasks}
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for future in done:
                if future.cancelled():
                    continue
                try:
                    candidate = future.result()
                except Exception as exc:  # noqa: BLE001 - one broken job is listed, not fatal
                    candidate = broken(futures[future], catalog, exc)
                if candidate is not None:
                    tracker.report(candidate)
            if not tracker.cancelling and cancelled():
                tracker.cancelling = True
                event.set()
                for future in pending:
                    future.cancel()
                tracker.report()


def run_study(study: Study, out_dir: str | Path | None = None, workers: int = DEFAULT_WORKERS,
              progress: Callable[[StudyProgress], None] | None = None,
              cancelled: Callable[[], bool] | None = None,
              start_method: str | None = None) -> StudyResult:
    """Build and measure every candidate of `study` (see the module docstring)."""
    tasks = study.tasks(out_dir)
    if out_dir is not None:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    tracker = _Tracker(len(tasks), progress)
    asked = cancelled or (lambda: False)
    tracker.report()
    if workers <= 0 or len(tasks) <= 1:
        _in_process(tasks, study.catalog, tracker, asked)
    else:
        _in_pool(tasks, study.catalog, tracker, asked, workers, start_method)
    finished = [tracker.finished[i] for i in sorted(tracker.finished)]
    not_run = tuple(t.name for t in tasks if t.index not in tracker.finished)
    prices = study.prices
    return StudyResult(
        name=study.requirement.name, candidates=tuple(mark(finished)),
        cancelled=tracker.cancelling and bool(not_run), not_run=not_run,
        price_list=prices.prices.describe() if prices is not None else None,
        price_problems=tuple(prices.lines()) if prices is not None else (),
        notes=study.notes, seconds=time.perf_counter() - tracker.started,
        workers=0 if workers <= 0 or len(tasks) <= 1 else min(workers, len(tasks)))
