"""The comparison, as a part of the main window: File › New Comparison… to the chosen design.

`Comparison` owns the Comparison dock (comparison_dock.py), the start panel of an empty project
(start_panel.py) and the study that runs (runner.py).  It opens the requirement form with the
project's requirement (or the last one of this window), keeps the requirement with the project
when asked (one `SetRequirement` undo step), prepares the study (a refused requirement stays in
the form, with the reason) and starts it in the background; candidates show as they arrive,
with the Pareto marks among those so far (study/pareto.py's `mark`, recomputed on every
arrival; the result's own marks replace them at the end).

On a selected candidate: Open (a new window, or this one when its design is empty, as File ›
Open opens a file), Use This One (the candidate becomes this project's design, with the
requirement, in one undo step: replace_design.py), and Export PDF (report/compare_pdf.py).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QFileDialog

from ...fileio import FabricFileError, load_fabric
from ...model.catalog import Catalog
from ...model.document import FabricDocument
from ...model.edits import SetRequirement
from ...model.fabric import Requirement
from ...study import Candidate, Study, StudyError, StudyProgress, StudyResult
from ...study.comparison_text import FALLBACK_MARK, power_lines, time_lines
from ...study.pareto import mark
from ...study.traffic_estimates import fallback_lines
from ..dialogs import messages
from ..workers.background import BackgroundJob
from . import places
from .comparison_dock import ComparisonDock
from .replace_design import replacement_ops
from .requirement_form import RequirementForm
from .runner import StudyRun
from .start_panel import StartPanel

#: the share of the window's height the dock takes when a study starts
DOCK_SHARE = 0.6
#: candidates shown as each arrives; past that, the table and charts follow every REFRESH_MS
SHOWN_AT_ONCE = 100
REFRESH_MS = 500
_windows: set[Any] = set()  # windows opened for a candidate (kept until they close)


class Comparison(QObject):
    """The comparison part of one main window."""

    #: a study ended (its result): tests and the window wait for it
    finished = Signal(object)
    #: a candidate was made the project's design (its name)
    used = Signal(str)
    #: a candidate was opened (the window it opened in)
    opened = Signal(object)
    #: the PDF was written (its path)
    exported = Signal(object)

    def __init__(self, window: Any) -> None:  # the MainWindow (loosely: no import cycle)
        super().__init__(window)
        self.window = window
        self.dock = ComparisonDock(window)
        self.dock.hide()
        self.dock.new_requested.connect(self.new_comparison)
        self.dock.cancel_requested.connect(self.cancel)
        self.dock.open_requested.connect(self.open_candidate)
        self.dock.use_requested.connect(self.use_candidate)
        self.dock.export_requested.connect(self.export_pdf)
        self.start_panel = StartPanel(window, self)
        self.run: StudyRun | None = None
        self.study: Study | None = None
        self.result: StudyResult | None = None
        self._arrived: dict[int, Candidate] = {}
        self._requirement: Requirement | None = None  # the last one of this window
        self._job: BackgroundJob | None = None
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(REFRESH_MS)
        self._refresh.timeout.connect(self._show_arrived)
        #: worker processes of a study (None: the study's default; 0: one after the other)
        self.workers: int | None = None

    # ---------------------------------------------------------------- the requirement
    def base_dir(self) -> Path | None:
        """The folder the project's requirement names its price list from."""
        path = self.window.document.path
        return Path(path).parent if path is not None else None

    def requirement(self) -> Requirement | None:
        """The project's requirement, else the last one stated in this window."""
        return self.window.document.fabric.requirement or self._requirement

    def make_form(self) -> RequirementForm:
        requirement = self.requirement()
        name = requirement.name if requirement is not None else "cluster"
        out_dir = places.study_folder(self.window.settings, self.window.document.path, name)
        return RequirementForm(self.window.catalog, requirement, self.base_dir(), out_dir,
                               self.window)

    def new_comparison(self) -> bool:
        """File › New Comparison…: the form, then the study; False when cancelled."""
        if self.running():
            self.window.show_message("A comparison is still running: cancel it first", 1)
            return False
        form = self.make_form()
        if not form.exec():
            return False
        return self.compare(form)

    def compare(self, form: RequirementForm) -> bool:
        """Run the study `form` states (it was checked: form.study is ready)."""
        requirement = form.requirement(self.base_dir())
        study = form.study
        if study is None:
            return False
        self._requirement = requirement
        places.remember_study_folder(self.window.settings, form.out_dir())
        if form.keep.isChecked() and requirement != self.window.document.fabric.requirement:
            self.window.document.execute([SetRequirement(requirement)],
                                         f"Set the requirement “{requirement.name}”")
        self.start(study, form.out_dir())
        return True

    # ---------------------------------------------------------------- the study
    def running(self) -> bool:
        return self.run is not None and self.run.running()

    def start(self, study: Study, out_dir: Path, workers: int | None = None) -> StudyRun:
        """Start `study` in the background, its candidates written to `out_dir`."""
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StudyError(f"{out_dir}: cannot make the folder: {exc.strerror or exc}") from None
        self.study, self.result, self._arrived = study, None, {}
        workers = self.workers if workers is None else workers
        run = StudyRun(study, out_dir, self) if workers is None else StudyRun(
            study, out_dir, self, workers=workers)
        run.arrived.connect(self._on_arrived)
        run.progressed.connect(self.dock.show_progress)
        run.finished.connect(self._on_finished)
        run.failed.connect(self._on_failed)
        self.run = run
        self.dock.show_study(study.requirement.name, len(study.planned))
        self.show_dock()
        run.start()
        self.window.show_message(f"Comparing {len(study.planned)} candidates in the background…")
        return run

    def cancel(self) -> None:
        if self.run is not None:
            self.run.cancel()
            self.dock.show_progress(StudyProgress(len(self._arrived), len(self.study.planned)
                                                  if self.study else 0, 0.0, None, None, True))

    def _on_arrived(self, candidate: Candidate) -> None:
        self._arrived[candidate.index] = candidate
        if len(self._arrived) <= SHOWN_AT_ONCE:
            self._show_arrived()
        elif not self._refresh.isActive():
            self._refresh.start()

    def _show_arrived(self) -> None:
        """The candidates so far, with the Pareto marks among them (an n² pass: past a few
        hundred candidates it runs once per REFRESH_MS, not once per candidate)."""
        self.dock.show_candidates(mark([self._arrived[i] for i in sorted(self._arrived)]))

    def _on_finished(self, result: StudyResult) -> None:
        self._refresh.stop()
        self.result = result
        self.dock.show_result(result, self.notes(result, self.window.catalog))
        self.window.show_message(f"Comparison {result.name}: " + self.dock.status.text())
        self.finished.emit(result)

    def _on_failed(self, text: str) -> None:
        self.dock.show_failure(text)
        self.window.show_message("The comparison failed", 1)

    @staticmethod
    def notes(result: StudyResult, catalog: Catalog) -> list[str]:
        """What the numbers rest on: the study's notes, the power basis and the models it
        leaves out, cost, price list problems, not run."""
        lines = list(result.notes)
        built = [c for c in result.candidates if c.metrics is not None]
        if built:
            m = built[0].metrics
            assert m is not None
            lines.append("; ".join(line.strip() for line in power_lines(built, catalog)) + ".")
            lines.append(f"Cost: {m.cost_note}.")
            times = time_lines(built)
            if times:  # what the columns are; then the stand-ins, a sentence of their own
                lines.append("★ " + "; ".join(line.strip() for line in times[:2]) + ".")
            missing = fallback_lines(built)
            if missing:
                lines.append(f"{FALLBACK_MARK} no traffic-model time, the even-spread bound "
                             "stands in (and is compared): " + "; ".join(missing) + ".")
        if result.price_problems:
            lines.append(f"Price list {result.price_list}: {len(result.price_problems)} "
                         "problem(s), cost shown as incomplete: " + "; ".join(result.price_problems))
        if result.cancelled:
            lines.append("Not run (cancelled): " + ", ".join(result.not_run))
        return lines

    def show_dock(self) -> None:
        """Show the dock in front of its tab, taking most of the window's height."""
        window, dock = self.window, self.dock
        dock.show()
        dock.raise_()
        if not dock.isFloating() and window.isVisible():
            window.resizeDocks([dock], [int(window.height() * DOCK_SHARE)], Qt.Orientation.Vertical)

    # ---------------------------------------------------------------- a candidate
    def design_is_empty(self) -> bool:
        doc = self.window.document.fabric
        return not (doc.devices or doc.racks or doc.links)

    def open_candidate(self, candidate: Candidate) -> Any:
        """Open the candidate's file: in this window when its design is empty, else in a new
        window (as File › Open would, without replacing the project)."""
        if not candidate.file:
            return None
        path = Path(candidate.file)
        window = self.window
        if self.design_is_empty():
            target = window
        else:
            target = type(window)(catalog=window.catalog, settings=window.settings,
                                  interactive=window.interactive,
                                  record_recent=window.record_recent)
            target.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            _windows.add(target)
            target.destroyed.connect(lambda _o=None, t=target: _windows.discard(t))
            target.resize(window.size())
            target.show()
        target.files.opened.connect(lambda _p: self.opened.emit(target),
                                    Qt.ConnectionType.SingleShotConnection)
        target.files.open_in_background(path, ask=False)
        return target

    def use_candidate(self, candidate: Candidate) -> BackgroundJob | None:
        """Make the candidate this project's design, with the requirement: one undo step.  The
        file is read in the background; the edit is applied when it is."""
        if not candidate.file or self._job is not None:
            return None
        path, catalog = Path(candidate.file), self.window.catalog
        job = BackgroundJob(lambda: load_fabric(path, catalog), "aicnet-use-candidate", self)
        job.finished.connect(lambda chosen: self._use(candidate, chosen))
        job.failed.connect(lambda exc: self._use_failed(path, exc))
        self._job = job
        self.window.show_message(f"Reading {path.name}…")
        job.start()
        return job

    def _use(self, candidate: Candidate, chosen: FabricDocument) -> None:
        self._job = None
        window = self.window
        requirement = self.study.requirement if self.study is not None else chosen.requirement
        if requirement is not None and self._requirement is not None \
                and requirement.name == self._requirement.name:
            requirement = self._requirement  # its price list as the project names it
        ops = replacement_ops(window.document.fabric, chosen, requirement)
        if not window.editor.apply_generated(ops, f"Use candidate {candidate.name}"):
            return
        window.fit_to_view()
        window.show_message(f"{candidate.name} is the design now ({candidate.description}); "
                            "Edit › Undo brings the previous one back")
        self.used.emit(candidate.name)

    def _use_failed(self, path: Path, exc: object) -> None:
        self._job = None
        text = str(exc) if isinstance(exc, FabricFileError) else f"{path}: {exc}"
        self._error("Cannot use the candidate", text)

    # ---------------------------------------------------------------- the report
    def export_pdf(self, path: str | Path | None = None) -> BackgroundJob | None:
        """Write the comparison PDF (asks where when `path` is None)."""
        result, study = self.result, self.study
        if result is None or study is None:
            return None
        if path is None:
            start = places.pdf_path(self.window.settings, result.name)
            chosen, _f = QFileDialog.getSaveFileName(self.window, "Export comparison", str(start),
                                                     "PDF (*.pdf)")
            if not chosen:
                return None
            path = chosen if chosen.endswith(".pdf") else chosen + ".pdf"
        target = Path(path)
        requirement, catalog = study.requirement, study.catalog

        def write() -> Path:
            from ...report.compare_pdf import write_comparison

            write_comparison(result, requirement, catalog, target)
            return target

        job = BackgroundJob(write, "aicnet-compare-pdf", self)
        job.finished.connect(self._exported)
        job.failed.connect(lambda exc: self._error("Cannot write the comparison", f"{target}: {exc}"))
        job.start()
        self.window.show_message(f"Writing {target.name}…")
        return job

    def _exported(self, path: Path) -> None:
        self.window.show_message(f"Written: {path}")
        self.exported.emit(path)

    def _error(self, title: str, text: str) -> None:
        if self.window.interactive:
            messages.show_error(self.window, title, text)
        else:
            print(f"aicnet-gui: {text}", file=sys.stderr)
        self.window.show_message(title, 1)

