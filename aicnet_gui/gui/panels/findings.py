"""The findings dock: what the live validation found, sortable and filtered, one click away.

A table of severity, code, message and the objects a finding concerns, sorted by any column and
filtered by severity (toggle buttons with counts), by code and by text, beside the list of the
rules found with their counts (choose one to see its findings, fix all of it).  A new report
reaches the table by difference (findings_model): rows inserted and removed, no reset.  Selecting a row selects
and centres its devices and cables on the canvas; "Fix" applies the finding's suggested fix as
one undo step when it has one and the report is still current (its operations were computed for
that revision).  The fix shown for the selected finding is the checked one (`checker`, set by
the window: the fix applied to a copy and re-validated, aicnet_gui.repair); a fix that would
cause a new error is shown in words and the button stays off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...analysis import AnalysisReport, Finding, Fix, Severity
from ...editing.units import counted
from ...repair.batch import by_code, fix_blocker, same_fix
from .. import resources
from .findings_model import (
    FINDING_ROLE,
    SEVERITY_COLOURS,
    FindingsChange,
    FindingsModel,
    object_label,
)
from .findings_rules import RulesPane, rules_of

__all__ = ["FINDING_ROLE", "SEVERITY_COLOURS", "FindingsDock", "FindingsFilter", "FindingsModel",
           "object_label"]

SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)
SEVERITY_TITLES = {Severity.ERROR: "Errors", Severity.WARNING: "Warnings", Severity.INFO: "Info"}
SEVERITY_NOUNS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "info"}
class FindingsFilter(QSortFilterProxyModel):
    """Rows of the chosen severities and code whose text contains the search words."""

    def __init__(self, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self.severities: set[Severity] = set(SEVERITIES)
        self.code: str | None = None
        self.text = ""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The source model keeps its rows sorted (by a precomputed key); this proxy keeps its
        order and only filters."""
        self.sourceModel().sort(column, order)

    def set_filter(self, severities: set[Severity], code: str | None, text: str) -> None:
        self.beginFilterChange()
        self.severities, self.code, self.text = severities, code, text.strip().lower()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        model: FindingsModel = self.sourceModel()  # type: ignore[assignment]
        finding = model.finding(row)
        if finding.severity not in self.severities:
            return False
        if self.code is not None and finding.code != self.code:
            return False
        if self.text:
            haystack = f"{finding.code} {finding.message} {model.objects_text(finding)}".lower()
            return all(word in haystack for word in self.text.split())
        return True


class FindingsDock(QDockWidget):
    """Findings of the live validation; selecting one shows its objects on the canvas."""

    #: select and centre these ids (devices, links, racks)
    show_objects = Signal(object)
    #: apply this finding's fix (one undo step)
    fix_requested = Signal(object)
    #: apply the merged, checked fix of these findings (one undo step)
    fix_many_requested = Signal(object)

    def __init__(self, doc_getter, parent=None) -> None:  # noqa: ANN001
        super().__init__("Findings", parent)
        self.setObjectName("findings-dock")
        self._doc = doc_getter
        self.report: AnalysisReport | None = None
        self.fixable = False
        #: the checked fix of a finding of the current report (None: show the rule's fix)
        self.checker: Callable[[Finding], Fix | None] | None = None
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.setSpacing(4)
        bar = QHBoxLayout()
        bar.setSpacing(4)
        self.buttons: dict[Severity, QToolButton] = {}
        for severity in SEVERITIES:
            button = QToolButton()
            button.setCheckable(True)
            button.setChecked(True)
            button.setIcon(resources.icon(f"severity-{severity.value}"))
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setToolTip(f"Show {SEVERITY_TITLES[severity].lower()}")
            button.toggled.connect(self._apply_filter)
            self.buttons[severity] = button
            bar.addWidget(button)
        self.code = QComboBox()
        self.code.setMinimumWidth(120)
        self.code.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.code.setMinimumContentsLength(14)
        self.code.setToolTip("Show one rule's findings")
        self.code.currentIndexChanged.connect(self._apply_filter)
        bar.addWidget(self.code)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter by text, device, cable…")
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(80)
        self.search.textChanged.connect(self._apply_filter)
        bar.addWidget(self.search, 1)
        self.fix_button = QPushButton(resources.icon("fix"), "Fix")
        self.fix_button.setToolTip("Apply the suggested fix of the selected finding (one undo step)")
        self.fix_button.setEnabled(False)
        self.fix_button.clicked.connect(self._fix)
        bar.addWidget(self.fix_button)
        layout.addLayout(bar)
        self.model = FindingsModel(doc_getter, self)
        self.proxy = FindingsFilter(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(0, 96)
        header.resizeSection(1, 190)
        header.resizeSection(3, 260)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.table.clicked.connect(lambda index: self._on_current(index, QModelIndex()))
        self.rules = RulesPane()
        self.rules.blocker = self._fix_blocker
        self._blocked: tuple[int, str, str | None] | None = None  # (report, code, reason)
        self.rules.code_chosen.connect(self._on_rule_chosen)
        self.rules.fix_all.connect(self._fix_all_of)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.rules)
        split.addWidget(self.table)
        split.setStretchFactor(1, 1)
        split.setSizes([240, 760])
        layout.addWidget(split, 1)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setStyleSheet("color: #3e4c59; padding: 2px;")
        layout.addWidget(self.detail)
        self.setWidget(body)
        self._update_counts()

    # ---------------------------------------------------------------- showing a report
    def set_report(self, report: AnalysisReport, current: bool = True) -> FindingsChange:
        """Show `report`'s findings: the rows of the findings gone are removed and the new ones
        inserted (the table keeps its selection and scroll position by itself); after a reset
        the selected finding is selected again if it is still there.  Returns what changed."""
        selected = self._selected_raw()
        top = self._top_finding()
        self.report = report
        self.fixable = current
        change = self.model.set_findings(report.findings)
        self.rules.set_fixable(current)
        if change.reset or change.removed or change.added:
            self._refill_codes()
        self._update_counts()
        if selected and (change.reset or not {id(f) for f in change.removed}.isdisjoint(
                map(id, selected))):
            self._reselect_all(selected)
        if change.reset and top is not None:
            self._scroll_to(top)
        self._show_detail()
        self._update_fix()
        return change

    def set_stale(self) -> None:
        """The document moved on; the fixes of the shown report no longer apply."""
        self.fixable = False
        self.rules.set_fixable(False)
        self._update_fix()

    def clear(self) -> None:
        self.report = None
        self.detail.setText("")
        self.rules.set_fixable(False)
        self.model.clear()
        self._refill_codes()
        self._update_counts()
        self._update_fix()

    def _refill_codes(self) -> None:
        """The rule filter lists the codes found, with their counts (kept by the model)."""
        counts = self.model.code_counts
        self.rules.set_rules(rules_of(self.model.rule_counts), self.code.currentData())
        wanted = [(f"{code} ({counts[code]})", code) for code in sorted(counts)]
        have = [(self.code.itemText(i), self.code.itemData(i)) for i in range(1, self.code.count())]
        if wanted == have:
            return
        current = self.code.currentData()
        self.code.blockSignals(True)
        if [c for _, c in wanted] == [c for _, c in have]:
            for i, (text, _) in enumerate(wanted, start=1):
                self.code.setItemText(i, text)
            self.code.blockSignals(False)
            return
        self.code.clear()
        self.code.addItem("All rules", None)
        for text, code in wanted:
            self.code.addItem(text, code)
        index = self.code.findData(current) if current else 0
        self.code.setCurrentIndex(max(index, 0))
        self.code.blockSignals(False)
        if self.code.currentData() != current:
            self._apply_filter()
            self.rules.choose(self.code.currentData())

    def _on_rule_chosen(self, code: str | None) -> None:
        """A line of the rules list chosen: the table shows that rule's findings."""
        self.code.setCurrentIndex(max(self.code.findData(code), 0) if code else 0)

    def _fix_blocker(self, code: str) -> str | None:
        """Why "Fix all" can fix no finding of `code` (None: it may), once per report and rule."""
        if self._blocked is None or self._blocked[:2] != (id(self.report), code):
            reason = fix_blocker(self._doc(), by_code(self.model.all_findings(), code))
            self._blocked = (id(self.report), code, reason)
        return self._blocked[2]

    def _fix_all_of(self, code: str) -> None:
        if self.fixable:
            self.fix_many_requested.emit(by_code(self.model.all_findings(), code))

    def _update_counts(self) -> None:
        report = self.report
        numbers = {s: self.model.severity_counts[s] if report else 0 for s in SEVERITIES}
        for severity, button in self.buttons.items():
            button.setText(counted(numbers[severity], SEVERITY_NOUNS[severity]))
        total = sum(numbers.values())
        self.setWindowTitle(f"Findings ({total})" if report else "Findings")

    def _apply_filter(self) -> None:
        self.rules.choose(self.code.currentData())
        severities = {s for s, b in self.buttons.items() if b.isChecked()}
        self.proxy.set_filter(severities, self.code.currentData(), self.search.text())

    # ---------------------------------------------------------------- selection and fixes
    def selected_finding(self) -> Finding | None:
        """The selected finding (one row selected), with its checked fix while the report is
        current; None when none or several are selected."""
        rows = self._selected_raw()
        if len(rows) != 1:
            return None
        return self.with_checked_fix(rows[0])

    def selected_findings(self) -> list[Finding]:
        """Every selected finding, in table order (the rules' fixes, unchecked)."""
        return self._selected_raw()

    def _selected_raw(self) -> list[Finding]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        found = [self.proxy.data(self.proxy.index(r, 0), FINDING_ROLE) for r in rows]
        return [f for f in found if f is not None]

    def _top_finding(self) -> Finding | None:
        index = self.table.indexAt(self.table.viewport().rect().topLeft())
        return self.proxy.data(index, FINDING_ROLE) if index.isValid() else None

    def _proxy_row_of(self, finding: Finding) -> int | None:
        row = self.model.row_of(finding)
        if row is None:
            return None
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        return index.row() if index.isValid() else None

    def _reselect_all(self, findings: list[Finding]) -> None:
        selection = self.table.selectionModel()
        selection.blockSignals(True)
        selection.clearSelection()
        first = None
        for finding in findings:
            row = self._proxy_row_of(finding)
            if row is None:
                continue
            index = self.proxy.index(row, 0)
            selection.select(index, selection.SelectionFlag.Select | selection.SelectionFlag.Rows)
            first = index if first is None else first
        if first is not None:
            selection.setCurrentIndex(first, selection.SelectionFlag.NoUpdate)
        selection.blockSignals(False)

    def _scroll_to(self, finding: Finding) -> None:
        row = self._proxy_row_of(finding)
        if row is not None:
            self.table.scrollTo(self.proxy.index(row, 0),
                                QAbstractItemView.ScrollHint.PositionAtTop)

    def with_checked_fix(self, finding: Finding) -> Finding:
        if self.checker is None or not self.fixable:
            return finding
        return replace(finding, fix=self.checker(finding))

    def select_row(self, row: int) -> None:
        """Select the row-th visible finding (as a click would)."""
        index = self.proxy.index(row, 0)
        self.table.setCurrentIndex(index)
        self.table.selectRow(row)
        self._on_current(index, QModelIndex())

    def _on_current(self, index: QModelIndex, _previous: QModelIndex) -> None:
        self._on_selection()
        finding = self.selected_finding()
        if finding is not None and finding.objects:
            self.show_objects.emit(list(finding.objects))

    def _on_selection(self, *_args: object) -> None:
        self._show_detail()
        self._update_fix()

    def _show_detail(self) -> None:
        """The detail line describes what is selected now: one finding, several, or nothing."""
        rows = self._selected_raw()
        if not rows:
            self.detail.setText("")
            return
        if len(rows) > 1:
            codes = sorted({f.code for f in rows})
            self.detail.setText(
                f"<b>{len(rows)} findings selected</b> ({', '.join(codes[:4])}"
                f"{' …' if len(codes) > 4 else ''}): <i>Fix selected</i> applies their fixes "
                "together as one undo step, after checking them on a copy")
            return
        finding = self.with_checked_fix(rows[0])
        text = f"<b>{finding.code}</b>: {finding.message}"
        if finding.fix is not None:
            text += f"<br><span style='color:#2b8a3e'>Fix:</span> {finding.fix.description}"
        self.detail.setText(text)

    def _update_fix(self) -> None:
        rows = self._selected_raw()
        if len(rows) > 1:
            self.fix_button.setText(f"Fix selected ({len(rows)})")
            self.fix_button.setEnabled(self.fixable and any(f.fix is not None for f in rows))
            self.fix_button.setToolTip("Apply the fixes of the selected findings together (checked "
                                       "on a copy first; one undo step)")
            return
        self.fix_button.setText("Fix")
        finding = self.selected_finding()
        ok = bool(finding and finding.fix and finding.fix.applicable and self.fixable)
        self.fix_button.setEnabled(ok)
        if finding is not None and finding.fix is not None and finding.fix.applicable and not self.fixable:
            self.fix_button.setToolTip("The fabric changed since this finding; wait for validation")
        else:
            self.fix_button.setToolTip("Apply the suggested fix of the selected finding (one undo step)")

    def _fix(self) -> None:
        rows = self._selected_raw()
        if len(rows) > 1:
            if self.fixable:
                self.fix_many_requested.emit(rows)
            return
        finding = self.selected_finding()
        if finding is not None and finding.fix is not None and finding.fix.applicable and self.fixable:
            self.fix_requested.emit(finding)

    # ---------------------------------------------------------------- fix at scale
    def like_this(self, finding: Finding) -> tuple[list[Finding], list[Finding]]:
        """(the findings with the same fix as `finding`, the findings of its rule)."""
        findings = self.model.all_findings()
        return same_fix(findings, finding), by_code(findings, finding.code)

    def _context_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        finding = self.proxy.data(index, FINDING_ROLE) if index.isValid() else None
        if finding is None:
            return
        rows = self._selected_raw()
        menu = QMenu(self.table)
        alike, rule = self.like_this(finding)
        if len(rows) > 1:
            act = menu.addAction(f"Fix selected ({len(rows)})")
            act.triggered.connect(lambda: self.fix_many_requested.emit(rows))
        if len(alike) > 1:
            act = menu.addAction(f"Fix all {len(alike)} like this (same cause)")
            act.triggered.connect(lambda: self.fix_many_requested.emit(alike))
        if len(rule) > 1:
            act = menu.addAction(f"Fix all {len(rule)} {finding.code}")
            act.triggered.connect(lambda: self.fix_many_requested.emit(rule))
        if menu.isEmpty():
            act = menu.addAction("Fix")
            act.triggered.connect(lambda: self.fix_requested.emit(self.with_checked_fix(finding)))
        for action in menu.actions():
            action.setEnabled(self.fixable)
        menu.exec(self.table.viewport().mapToGlobal(pos))
