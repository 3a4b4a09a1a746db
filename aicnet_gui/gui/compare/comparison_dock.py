"""The Comparison dock: the study's progress, the table of candidates beside the charts, and the
buttons that act on the selected candidate.

The dock shows what it is given (`show_study`, `show_progress`, `show_candidates`,
`show_result`) and says what the user asked through signals; the comparison part
(comparison.py) owns the study and does the work.  Selecting a row rings the candidate on the
charts; clicking a point or bar selects its row.  The charts (pyqtgraph) are made when the
first study starts, so a window that never compares does not load them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...editing.units import counted
from ...study import Candidate, StudyProgress, StudyResult
from .. import resources
from .table_model import CANDIDATE_ROLE, CandidateSort, CandidateTable

MAX_COLUMN = 240
#: the table's and the charts' shares of the dock's width
TABLE_SHARE = (2, 1)


def _seconds(value: float) -> str:
    if value < 90:
        return f"{value:.0f} s"
    return f"{value / 60:.0f} min"


def progress_text(p: StudyProgress) -> str:
    """`3 of 12 candidates · 14 s · about 40 s left`."""
    parts = [f"{p.done} of {counted(p.total, 'candidate')}", _seconds(p.elapsed_s)]
    if p.cancelling:
        parts.append("cancelling: the running candidates stop at their next step")
    elif p.eta_s is not None and p.done < p.total:
        parts.append(f"about {_seconds(p.eta_s)} left")
    return " · ".join(parts)


def result_text(result: StudyResult) -> str:
    built = sum(1 for c in result.candidates if c.built)
    refused = len(result.candidates) - built
    if result.cancelled:
        return (f"Cancelled after {_seconds(result.seconds)}: "
                f"{counted(len(result.candidates), 'candidate')} finished ({built} built), "
                f"{len(result.not_run)} not run")
    return (f"{counted(len(result.candidates), 'candidate')} in {_seconds(result.seconds)}: "
            f"{built} built, {refused} cannot be built")


class ComparisonDock(QDockWidget):
    """The comparison view, as a dock of the main window."""

    new_requested = Signal()
    cancel_requested = Signal()
    open_requested = Signal(object)  # Candidate
    use_requested = Signal(object)  # Candidate
    export_requested = Signal()
    #: the selected candidate changed (None: none)
    selected = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Comparison", parent)
        self.setObjectName("comparison-dock")
        self.model = CandidateTable(self)
        self.proxy = CandidateSort(self)
        self.proxy.setSourceModel(self.model)
        self.charts: Any = None  # charts.ComparisonCharts, made with the first study
        self.pages = QStackedWidget()
        self.pages.addWidget(self._empty_page())
        self.pages.addWidget(self._study_page())
        self.setWidget(self.pages)

    # ---------------------------------------------------------------- building
    def _empty_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        text = QLabel("No comparison yet. State the requirement (servers, workloads, the "
                      "technologies and switches you would buy, site limits, your price list) "
                      "and aicnet builds every candidate fabric side by side.")
        text.setWordWrap(True)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        button = QPushButton(resources.icon("new-template"), "New Comparison…")
        button.clicked.connect(self.new_requested)
        layout.addWidget(text)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(1)
        return page

    def _study_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(6, 4, 6, 4)
        head = QHBoxLayout()
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: 600;")
        self.status = QLabel()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setMaximumHeight(16)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("no new candidate starts; the finished ones stay")
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.requirement_button = QPushButton("Requirement…")
        self.requirement_button.setToolTip("change the requirement and compare again")
        self.requirement_button.clicked.connect(self.new_requested)
        self.open_button = QPushButton(resources.icon("open"), "Open")
        self.open_button.setToolTip("open the selected candidate as a design (in this window "
                                    "when it is empty, else in a new one)")
        self.open_button.clicked.connect(lambda: self._ask(self.open_requested))
        self.use_button = QPushButton("Use This One")
        self.use_button.setToolTip("make the selected candidate this project's design (one "
                                   "undo step brings the previous design back)")
        self.use_button.clicked.connect(lambda: self._ask(self.use_requested))
        self.export_button = QPushButton(resources.icon("export-pdf"), "Export PDF…")
        self.export_button.setToolTip("the comparison report: table, charts, reasons")
        self.export_button.clicked.connect(self.export_requested)
        for widget in (self.title, self.status):
            head.addWidget(widget)
        head.addWidget(self.progress)
        head.addWidget(self.cancel_button)
        head.addStretch(1)
        for widget in (self.requirement_button, self.open_button, self.use_button,
                       self.export_button):
            head.addWidget(widget)
        layout.addLayout(head)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _i: self._ask(self.open_requested))
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color: #52606d;")
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.table, 1)
        left_layout.addWidget(self.notes)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.setChildrenCollapsible(False)
        layout.addWidget(self.splitter, 1)
        self._set_buttons()
        return page

    def _make_charts(self) -> None:
        if self.charts is not None:
            return
        from .charts import ComparisonCharts

        self.charts = ComparisonCharts()
        self.charts.picked.connect(self.select)
        self.splitter.addWidget(self.charts)
        # the table two thirds: its deciding columns (comparison's columns.py) show whole in a
        # 1600-pixel window; the charts keep a third
        self.splitter.setStretchFactor(0, TABLE_SHARE[0])
        self.splitter.setStretchFactor(1, TABLE_SHARE[1])
        width = max(self.width(), 900)
        total = sum(TABLE_SHARE)
        self.splitter.setSizes([width * TABLE_SHARE[0] // total, width * TABLE_SHARE[1] // total])

    # ---------------------------------------------------------------- what it shows
    def show_study(self, name: str, total: int) -> None:
        """A study starts: an empty table, the progress at 0."""
        self._make_charts()
        self.pages.setCurrentIndex(1)
        self.model.clear()
        self.charts.show_candidates([])
        self.title.setText(f"Which fabric: {name}")
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.cancel_button.setVisible(True)
        self.cancel_button.setEnabled(True)
        self.status.setText(f"0 of {counted(total, 'candidate')} · starting")
        self.notes.setText("")
        self._finished = False
        self._set_buttons()

    def show_progress(self, p: StudyProgress) -> None:
        self.progress.setRange(0, max(p.total, 1))
        self.progress.setValue(p.done)
        self.status.setText(progress_text(p))
        if p.cancelling:
            self.cancel_button.setEnabled(False)

    def show_candidates(self, candidates: Sequence[Candidate]) -> None:
        """Every candidate so far (with the Pareto marks among them)."""
        current = self.current()
        self.model.update(candidates)
        self.charts.show_candidates(self.model.candidates())
        if current is not None:
            self.select(current.index)
        else:
            self.charts.highlight(None)
        self._fit_columns()
        self._set_buttons()

    def _fit_columns(self) -> None:
        """Columns as wide as their contents, up to MAX_COLUMN (the last one stretches)."""
        self.table.resizeColumnsToContents()
        header = self.table.horizontalHeader()
        for column in range(self.model.columnCount() - 1):
            if header.sectionSize(column) > MAX_COLUMN:
                header.resizeSection(column, MAX_COLUMN)

    def show_result(self, result: StudyResult, notes: Sequence[str]) -> None:
        self.show_candidates(result.candidates)
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        self.status.setText(result_text(result))
        self.notes.setText("\n".join(notes))
        self._finished = True
        self._set_buttons()

    def show_failure(self, text: str) -> None:
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        self.status.setText("The study failed")
        self.notes.setText(text)
        self._finished = True
        self._set_buttons()

    # ---------------------------------------------------------------- selection
    def current(self) -> Candidate | None:
        index = self.table.currentIndex() if self.pages.currentIndex() == 1 else None
        if index is None or not index.isValid():
            return None
        return self.proxy.data(index, CANDIDATE_ROLE)

    def select(self, candidate_index: int) -> bool:
        """Select the candidate's row (and ring it on the charts)."""
        row = self.model.row_of(candidate_index)
        if row is None:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)
        if self.charts is not None:
            self.charts.highlight(candidate_index)
        return True

    def _on_current(self, *_args: object) -> None:
        candidate = self.current()
        if self.charts is not None:
            self.charts.highlight(None if candidate is None else candidate.index)
        self._set_buttons()
        self.selected.emit(candidate)

    def _ask(self, signal: Any) -> None:
        candidate = self.current()
        if candidate is not None and candidate.file:
            signal.emit(candidate)

    def _set_buttons(self) -> None:
        candidate = self.current() if hasattr(self, "table") else None
        has_file = candidate is not None and bool(candidate.file)
        self.open_button.setEnabled(has_file)
        self.use_button.setEnabled(has_file)
        self.export_button.setEnabled(getattr(self, "_finished", False)
                                      and self.model.rowCount() > 0)
