"""View › Failure What-If: choose what fails, then read per workload what it costs, in tables.

The upper part chooses the failed parts: the canvas selection ("Add Selection"), or a name typed
with completion (devices by name, `rail:N`, `plane:NAME`, `optic:DEVICE:CAGE`, a cable's link
id: the tokens of `aicnet whatif --fail`, resolved by `change.failures.resolve`).  The lower part
shows the result as tables built from `change.whatif`'s result objects, never from its text: one
row per workload (`WORKLOAD_COLUMNS`: a column is a title and a function of a
`WorkloadImpact`, so a new field of the result is one more entry there), and for the workload
chosen, the GPUs that lose every path and the drops of the GPUs that are slowed.

The dialog holds no analysis: Run asks its `run` callback (ChangeTools runs the what-if in the
background on a snapshot) and `show_result` fills the tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..change.whatif import WhatIfResult, WorkloadImpact, WorkloadState
from ..editing.units import counted, natural_key
from ..model.document import FabricDocument

MAX_ROWS = 8
"""Workloads shown without scrolling; the detail tables take the rest of the window."""


def _gbps(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.3g}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.3g}"


def _both(w: WorkloadImpact, read: Callable[[WorkloadState], str]) -> str:
    """"before → after" of one number of a workload (just the value when it did not change)."""
    before, after = read(w.before), read(w.after)
    return before if before == after else f"{before} → {after}"


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the workloads table: its title, its text per workload, its tooltip."""

    title: str
    text: Callable[[WorkloadImpact], str]
    tip: str = ""
    left: bool = False


WORKLOAD_COLUMNS: tuple[Column, ...] = (
    Column("Workload", lambda w: w.name, left=True),
    Column("GPUs", lambda w: f"{w.gpus:,}"),
    Column("Partitioned", lambda w: f"yes: {w.after.groups} groups" if w.partitioned else "no",
           "its servers no longer form one connected group over the fabric"),
    Column("GPUs cut off", lambda w: f"{len(w.lost):,}",
           "GPUs that lose every path (all their NICs down, or their switch cut off)"),
    Column("GPUs slower", lambda w: f"{len(w.reduced):,}", "GPUs whose bandwidth drops"),
    Column("Per GPU (Gb/s)", lambda w: _both(w, lambda s: _gbps(s.per_gpu_gbps)),
           "mean per-GPU bandwidth under the workload's pattern, before → after"),
    Column("Drop", lambda w: f"{w.drop_fraction * 100:.1f} %",
           "share of the per-GPU bandwidth lost"),
    Column("Bottleneck", lambda w: _both(w, lambda s: s.bottleneck), left=True),
    Column("Bisection (Tb/s)", lambda w: _both(w, lambda s: f"{s.bisection_gbps / 1000:,.4g}"),
           "max-flow between the two halves of its servers, before → after"),
    Column("All-reduce (ms)", lambda w: _both(w, lambda s: _ms(s.allreduce_ms)),
           "the all-reduce estimate, at the pace of the slowest member server"),
    Column("Slowest server", lambda w: (f"{w.after.slowest_server} "
                                        f"({_gbps(w.after.slowest_gbps or 0)} Gb/s per GPU)"
                                        if w.after.slowest_server else "-"), left=True),
)


def failure_tokens(doc: FabricDocument) -> list[str]:
    """What can be typed as a failed part: device names, then rails, planes, in natural order."""
    names = sorted({d.name for d in doc.devices.values()}, key=natural_key)
    rails = {r for r in doc.links.column("rail") if r is not None}
    planes = {lk for lk in doc.links.column("plane") if lk is not None}
    planes |= {d.plane for d in doc.devices.values() if d.plane is not None}
    return (names + [f"rail:{r}" for r in sorted(rails)]
            + [f"plane:{p}" for p in sorted(planes, key=natural_key)])


def _table(headers: Sequence[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(list(headers))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setAlternatingRowColors(True)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(22)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table


def _cell(text: str, left: bool = False, tip: str = "") -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setTextAlignment((Qt.AlignmentFlag.AlignLeft if left else Qt.AlignmentFlag.AlignRight)
                          | Qt.AlignmentFlag.AlignVCenter)
    if tip:
        item.setToolTip(tip)
    return item


class WhatIfDialog(QDialog):
    """Choose failed parts, run, read the tables (see the module docstring)."""

    def __init__(self, parent: QWidget, document: Callable[[], FabricDocument],
                 selection: Callable[[], list[str]], run: Callable[[list[str]], None]) -> None:
        """`selection`: the tokens of what is selected on the canvas; `run`: start the what-if
        for these tokens (the result comes back through `show_result`)."""
        super().__init__(parent)
        self.setWindowTitle("Failure What-If")
        self._document = document
        self._selection = selection
        self._run = run
        self.result: WhatIfResult | None = None
        self._made_for: tuple[int, int] | None = None
        # ---- what fails
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("a device name, rail:N, plane:NAME, optic:DEVICE:CAGE or a "
                                      "cable's link id")
        self.entry.setClearButtonEnabled(True)
        self.tokens_model = QStringListModel(self)
        completer = QCompleter(self.tokens_model, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setMaxVisibleItems(12)
        self.entry.setCompleter(completer)
        self.entry.returnPressed.connect(self.add_entry)
        add = QPushButton("Add")
        add.clicked.connect(self.add_entry)
        from_selection = QPushButton("Add Selection")
        from_selection.setToolTip("the devices and cables selected on the canvas")
        from_selection.clicked.connect(lambda: self.add_tokens(self._selection()))
        row = QHBoxLayout()
        row.addWidget(QLabel("Fail:"))
        row.addWidget(self.entry, 1)
        row.addWidget(add)
        row.addWidget(from_selection)
        self.chosen = QListWidget()
        self.chosen.setMaximumHeight(90)
        self.chosen.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        remove = QPushButton("Remove")
        remove.clicked.connect(self.remove_chosen)
        clear = QPushButton("Clear")
        clear.clicked.connect(self.chosen.clear)
        self.run_button = QPushButton("Run")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.run)
        side = QVBoxLayout()
        side.addWidget(self.run_button)
        side.addWidget(remove)
        side.addWidget(clear)
        side.addStretch(1)
        chosen_row = QHBoxLayout()
        chosen_row.addWidget(self.chosen, 1)
        chosen_row.addLayout(side)
        self.status = QLabel("Choose what fails: the canvas selection, or type a name.")
        self.status.setWordWrap(True)
        # ---- the result
        self.workloads = _table([c.title for c in WORKLOAD_COLUMNS])
        for k, column in enumerate(WORKLOAD_COLUMNS):
            if column.tip:
                self.workloads.horizontalHeaderItem(k).setToolTip(column.tip)
        self.workloads.itemSelectionChanged.connect(self._show_details)
        self.lost = _table(["Server", "GPU", "NIC ports"])
        self.slowed = _table(["GPUs", "Before (Gb/s)", "After (Gb/s)", "Change"])
        self.lost_title = QLabel("GPUs that lose every path")
        self.slowed_title = QLabel("GPUs with less bandwidth")
        details = QWidget()
        details_layout = QHBoxLayout(details)
        details_layout.setContentsMargins(0, 0, 0, 0)
        for title, table in ((self.lost_title, self.lost), (self.slowed_title, self.slowed)):
            box = QVBoxLayout()
            box.addWidget(title)
            box.addWidget(table)
            details_layout.addLayout(box)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.workloads)
        split.addWidget(details)
        split.setSizes([150, 200])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addLayout(chosen_row)
        layout.addWidget(self.status)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        self.resize(min(1180, screen.width() - 80) if screen is not None else 1180, 560)

    # ---------------------------------------------------------------- choosing
    def refresh_tokens(self) -> None:
        """The completions: the names of the document as it is now (once per revision)."""
        doc = self._document()
        key = (id(doc), doc.revision)
        if key != self._made_for:
            self._made_for = key
            self.tokens_model.setStringList(failure_tokens(doc))

    def tokens(self) -> list[str]:
        return [self.chosen.item(k).text() for k in range(self.chosen.count())]

    def add_tokens(self, tokens: Sequence[str]) -> None:
        have = set(self.tokens())
        for token in tokens:
            if token and token not in have:
                self.chosen.addItem(token)
                have.add(token)

    def add_entry(self) -> None:
        token = self.entry.text().strip()
        if token:
            self.add_tokens([token])
            self.entry.clear()

    def remove_chosen(self) -> None:
        for item in self.chosen.selectedItems():
            self.chosen.takeItem(self.chosen.row(item))

    def set_tokens(self, tokens: Sequence[str]) -> None:
        self.chosen.clear()
        self.add_tokens(tokens)

    def run(self) -> None:
        self.add_entry()  # a name typed and not added yet counts
        tokens = self.tokens()
        if not tokens:
            self.show_error("Choose what fails first: Add Selection, or type a name and Add.")
            return
        self.status.setStyleSheet("")
        self.status.setText(f"Running the what-if for {', '.join(tokens)}…")
        self._run(tokens)

    def show_error(self, text: str) -> None:
        self.status.setStyleSheet("color: #c92a2a;")
        self.status.setText(text)

    # ---------------------------------------------------------------- the result
    def show_result(self, result: WhatIfResult) -> None:
        self.result = result
        self.status.setStyleSheet("color: #c92a2a;" if result.partitioned else "")
        parts = [f"Failed: {result.failure.label} ({counted(result.links, 'link')} down)",
                 f"{counted(result.gpus_lost, 'GPU')} lose every path",
                 f"{counted(result.gpus_reduced, 'GPU')} slower"]
        if result.partitioned:
            parts.append("a workload is PARTITIONED")
        if not result.workloads:
            parts.append("the design has no workloads: nothing to measure (add one in the "
                         "Workloads dock)")
        self.status.setText(" · ".join(parts))
        table = self.workloads
        table.setRowCount(len(result.workloads))
        for row, impact in enumerate(result.workloads):
            for k, column in enumerate(WORKLOAD_COLUMNS):
                table.setItem(row, k, _cell(column.text(impact), column.left, column.tip))
        if result.workloads:
            table.selectRow(0)
        # as tall as its rows (up to MAX_ROWS): the GPUs below get the rest of the window
        rows = min(max(len(result.workloads), 1), MAX_ROWS)
        table.setMaximumHeight(table.horizontalHeader().height() + rows
                               * table.verticalHeader().defaultSectionSize()
                               + table.horizontalScrollBar().sizeHint().height() + 6)
        self._show_details()

    def _show_details(self) -> None:
        result = self.result
        rows = self.workloads.selectionModel().selectedRows() if result else []
        impact = result.workloads[rows[0].row()] if result and rows else None
        lost = impact.lost if impact is not None and result.like is None else ()
        self.lost.setRowCount(len(lost))
        for row, gpu in enumerate(lost):
            self.lost.setItem(row, 0, _cell(gpu.server, left=True))
            self.lost.setItem(row, 1, _cell(str(gpu.gpu)))
            self.lost.setItem(row, 2, _cell(", ".join(gpu.ports), left=True))
        drops = impact.reduced_summary() if impact is not None else []
        self.slowed.setRowCount(len(drops))
        for row, (before, after, count) in enumerate(drops):
            self.slowed.setItem(row, 0, _cell(f"{count:,}"))
            self.slowed.setItem(row, 1, _cell(_gbps(before)))
            self.slowed.setItem(row, 2, _cell(_gbps(after)))
            self.slowed.setItem(row, 3, _cell(f"{after - before:+,.4g}"))
        name = f" ({impact.name})" if impact is not None else ""
        self.lost_title.setText(f"GPUs that lose every path{name}: {len(impact.lost) if impact else 0}")
        self.slowed_title.setText(f"GPUs with less bandwidth{name}: {len(impact.reduced) if impact else 0}")

    def cell(self, title: str, row: int = 0) -> str:
        """The text of the workloads table under `title` in `row` (for tests and tooltips)."""
        column = [c.title for c in WORKLOAD_COLUMNS].index(title)
        item = self.workloads.item(row, column)
        return item.text() if item is not None else ""
