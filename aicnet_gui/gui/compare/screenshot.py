"""`aicnet-gui --screenshot-compare OUT.png [FILE]`: the comparison view rendered to a PNG, headless.

The study is the one File › New Comparison… would run, without the form: the requirement of
`--requirement FILE` (a requirement file, or a .fabric carrying one), else the one FILE's
project carries, else the form's default sized to FILE's GPU servers (their count and most
common model).  `--prices CSV` replaces the requirement's price list (without one the cost
charts say there is nothing to draw).  The candidates are written to a temporary folder,
removed at the end.

`CompareShot.start` prepares the study and starts it in the background (the window's own
`Comparison.start`); when the comparison's `finished` signal comes, the dock, floated and sized
to `--size`, shows the chart tab `--chart` asks for (and the candidate `--select-candidate`
names) and is saved; `done` then carries the exit code.  Nothing waits by sleeping: the
application's event loop runs until `done` (or the timeout's timer) ends it.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from ...fileio.requirement_file import RequirementFileError, load_requirement
from ...model.catalog_entities import Role
from ...model.fabric import Requirement
from ...study import Study, StudyError, StudyResult
from .requirement_form import default_requirement

#: the chart tabs, in the order of ComparisonCharts' tabs
CHARTS = ("cost-time", "power-time", "cost-parts", "power-parts", "counts")
TIMEOUT_S = 600


def _say(text: str) -> None:
    print(f"aicnet-gui: {text}", file=sys.stderr)


def design_requirement(window: Any) -> Requirement:
    """The form's default requirement, sized to the open design's GPU servers (when it has
    any): their count, and the model most of them are."""
    requirement = default_requirement(window.catalog)
    catalog = window.catalog.devices
    models = Counter(d.model for d in window.document.fabric.devices.values()
                     if (d.role or getattr(catalog.get(d.model), "role", None)) == Role.GPU_SERVER)
    if not models:
        return requirement
    model, _count = models.most_common(1)[0]
    name = Path(window.document.path).stem if window.document.path else requirement.name
    return requirement.model_copy(update={"servers": sum(models.values()), "server": model,
                                          "name": name or requirement.name})


def shot_requirement(window: Any, requirement_file: str | None) -> tuple[Requirement, Path | None]:
    """The requirement to compare and the folder its price list is named from; RequirementFileError
    when `requirement_file` cannot be read."""
    if requirement_file:
        return load_requirement(requirement_file), Path(requirement_file).resolve().parent
    own = window.document.fabric.requirement
    if own is not None:
        return own, window.comparison.base_dir()
    return design_requirement(window), None


class CompareShot(QObject):
    """One screenshot of the comparison view: start, wait for the study, save."""

    #: the shot is over: 0 written, 1 not (said on stderr)
    done = Signal(int)

    def __init__(self, window: Any, out: Path, size: tuple[int, int],
                 requirement_file: str | None = None, prices: str | None = None,
                 chart: str = "cost-time", select: str | None = None,
                 timeout_s: float = TIMEOUT_S) -> None:
        super().__init__(window)
        self.window = window
        self.out = Path(out)
        self.size = size
        self.requirement_file = requirement_file
        self.prices = prices
        self.chart = chart
        self.select = select
        self.timeout_s = timeout_s
        self.code: int | None = None
        self._folder: str | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._timed_out)

    def start(self) -> bool:
        """Prepare and start the study; False (said on stderr, `done` emitted) when it cannot."""
        window = self.window
        try:
            requirement, base_dir = shot_requirement(window, self.requirement_file)
            study = Study.prepare(requirement, window.catalog, base_dir, prices=self.prices)
        except (RequirementFileError, StudyError) as exc:
            return self._end(1, f"cannot compare: {exc}")
        comparison = window.comparison
        dock = comparison.dock
        dock.setFloating(True)  # the view alone, at the size asked for
        dock.resize(*self.size)
        self._folder = tempfile.mkdtemp(prefix="aicnet-shot-")
        comparison.finished.connect(self._on_finished)
        try:
            run = comparison.start(study, Path(self._folder) / "candidates")
        except StudyError as exc:
            return self._end(1, f"cannot compare: {exc}")
        run.failed.connect(lambda text: self._end(1, f"the comparison failed: {text}"))
        self._timer.start(int(self.timeout_s * 1000))
        return True

    def _on_finished(self, result: StudyResult) -> None:
        dock = self.window.comparison.dock
        dock.charts.setCurrentIndex(CHARTS.index(self.chart))
        if self.select:
            found = next((c for c in result.candidates if c.name == self.select), None)
            if found is None:
                names = ", ".join(c.name for c in result.candidates)
                self._end(1, f"no candidate {self.select!r}; the candidates: {names}")
                return
            dock.select(found.index)
        dock.resize(*self.size)
        # the labels' new texts lay the dock out again in posted events: let them run first
        QTimer.singleShot(0, self._save)

    def _save(self) -> None:
        QCoreApplication.sendPostedEvents()
        image = self.window.comparison.dock.grab()
        if not image.save(str(self.out)):
            self._end(1, f"could not write {self.out}")
            return
        self._end(0)

    def _timed_out(self) -> None:
        self.window.comparison.cancel()
        self._end(1, f"the comparison did not finish in {self.timeout_s:.0f} s")

    def _end(self, code: int, text: str = "") -> bool:
        if self.code is not None:
            return False
        if text:
            _say(text)
        self.code = code
        self._timer.stop()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
        self.done.emit(code)
        return code == 0
