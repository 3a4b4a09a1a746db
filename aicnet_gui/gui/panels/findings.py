"""The findings dock: what the live validation found, sortable and filtered, one click away.

A table of severity, code, message and the objects a finding concerns, sorted by any column and
filtered by severity (toggle buttons with counts), by code and by text.  Selecting a row selects
and centres its devices and cables on the canvas; "Fix" applies the finding's suggested fix as
one undo step when it has one and the report is still current (its operations were computed for
that revision).  The fix shown for the selected finding is the checked one (`checker`, set by
the window: the fix applied to a copy and re-validated, aicnet_gui.repair); a fix that would
cause a new error is shown in words and the button stays off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor
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
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...analysis import AnalysisReport, Finding, Fix, Severity
from ...editing.units import counted
from ...model.document import FabricDocument
from ...repair.batch import by_code, same_fix
from .. import resources

SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)
SEVERITY_TITLES = {Severity.ERROR: "Errors", Severity.WARNING: "Warnings", Severity.INFO: "Info"}
SEVERITY_NOUNS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "info"}
SEVERITY_COLOURS = {Severity.ERROR: "#c92a2a", Severity.WARNING: "#e67700", Severity.INFO: "#1c7ed6"}
MAX_OBJECTS_SHOWN = 4
FINDING_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2


def object_label(doc: FabricDocument, object_id: str) -> str:
    """A readable name for an id a finding mentions (device name, cable ends, rack name ...)."""
    device = doc.devices.get(object_id)
    if device is not None:
        return device.name
    link = doc.links.get(object_id)
    if link is not None:
        a, b = doc.devices.get(link.a.device), doc.devices.get(link.b.device)
        return (f"{a.name if a else link.a.device}:{link.a.port} ↔ "
                f"{b.name if b else link.b.device}:{link.b.port}")
    rack = doc.racks.get(object_id)
    if rack is not None:
        return f"rack {rack.name}"
    workload = doc.workloads.get(object_id)
    if workload is not None:
        return f"workload {workload.name}"
    model = doc.catalog.devices.get(object_id)
    if model is not None:
        return f"{model.vendor} {model.model}"
    return object_id


class FindingsModel(QAbstractTableModel):
    """The findings of one report as rows (object names are resolved when a row is shown)."""

    COLUMNS = ("Severity", "Code", "Message", "Objects")

    def __init__(self, doc_getter, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self._doc = doc_getter
        self.findings: list[Finding] = []
        self._labels: dict[int, str] = {}

    def set_findings(self, findings: list[Finding]) -> None:
        self.beginResetModel()
        self.findings = list(findings)
        self._labels.clear()
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.findings)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def objects_text(self, row: int) -> str:
        text = self._labels.get(row)
        if text is None:
            finding = self.findings[row]
            doc = self._doc()
            names = [object_label(doc, o) for o in finding.objects[:MAX_OBJECTS_SHOWN]]
            more = len(finding.objects) - MAX_OBJECTS_SHOWN
            text = ", ".join(names) + (f" and {more} more" if more > 0 else "")
            self._labels[row] = text
        return text

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        finding = self.findings[index.row()]
        column = index.column()
        if role == FINDING_ROLE:
            return finding
        if role == SORT_ROLE:
            if column == 0:
                return finding.severity.rank
            if column == 3:
                return self.objects_text(index.row())
            return (finding.code, finding.message)[column - 1]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return finding.severity.value
            if column == 1:
                return finding.code
            if column == 2:
                return finding.message
            return self.objects_text(index.row())
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            return resources.icon(f"severity-{finding.severity.value}")
        if role == Qt.ItemDataRole.ForegroundRole and column in (0, 1):
            return QColor(SEVERITY_COLOURS[finding.severity])
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = f"<b>{finding.code}</b> ({finding.severity.value})<br>{finding.message}"
            if finding.fix is not None:
                tip += f"<br><br><i>Suggested fix (select the row to check it):</i> {finding.fix.description}"
            return tip
        return None


class FindingsFilter(QSortFilterProxyModel):
    """Rows of the chosen severities and code whose text contains the search words."""

    def __init__(self, parent=None) -> None:  # noqa: ANN001
        super().__init__(parent)
        self.severities: set[Severity] = set(SEVERITIES)
        self.code: str | None = None
        self.text = ""
        self.setSortRole(SORT_ROLE)

    def lessThan(self, left: QModelIndex | QPersistentModelIndex,  # noqa: N802
                 right: QModelIndex | QPersistentModelIndex) -> bool:
        """By the column's value, then by the finding itself (severity, code, objects,
        message): unchanged findings keep their order from one validation to the next."""
        model = self.sourceModel()
        a, b = left.data(SORT_ROLE), right.data(SORT_ROLE)
        if a != b:
            return a < b
        return model.findings[left.row()].sort_key() < model.findings[right.row()].sort_key()

    def set_filter(self, severities: set[Severity], code: str | None, text: str) -> None:
        self.beginFilterChange()
        self.severities, self.code, self.text = severities, code, text.strip().lower()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        model = self.sourceModel()
        finding: Finding = model.findings[row]
        if finding.severity not in self.severities:
            return False
        if self.code is not None and finding.code != self.code:
            return False
        if self.text:
            haystack = f"{finding.code} {finding.message} {model.objects_text(row)}".lower()
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
        layout.addWidget(self.table, 1)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setStyleSheet("color: #3e4c59; padding: 2px;")
        layout.addWidget(self.detail)
        self.setWidget(body)
        self._update_counts()

    # ---------------------------------------------------------------- showing a report
    def set_report(self, report: AnalysisReport, current: bool = True) -> None:
        """Show `report`'s findings; keep the selected finding selected if it is still there."""
        selected = [f for f in self._selected_raw()]
        top = self._top_finding()
        self.report = report
        self.fixable = current
        self.model.set_findings(report.findings)
        self._refill_codes(report)
        self._update_counts()
        if selected:
            self._reselect_all(selected)
        if top is not None:
            self._scroll_to(top)
        self._show_detail()
        self._update_fix()

    def set_stale(self) -> None:
        """The document moved on; the fixes of the shown report no longer apply."""
        self.fixable = False
        self._update_fix()

    def clear(self) -> None:
        self.report = None
        self.detail.setText("")
        self.model.set_findings([])
        self._refill_codes(None)
        self._update_counts()
        self._update_fix()

    def _refill_codes(self, report: AnalysisReport | None) -> None:
        counts: dict[str, int] = {}
        for finding in report.findings if report else []:
            counts[finding.code] = counts.get(finding.code, 0) + 1
        current = self.code.currentData()
        self.code.blockSignals(True)
        self.code.clear()
        self.code.addItem("All rules", None)
        for code in sorted(counts):
            self.code.addItem(f"{code} ({counts[code]})", code)
        index = self.code.findData(current) if current else 0
        self.code.setCurrentIndex(max(index, 0))
        self.code.blockSignals(False)
        self._apply_filter()

    def _update_counts(self) -> None:
        report = self.report
        numbers = {Severity.ERROR: report.errors if report else 0,
                   Severity.WARNING: report.warnings if report else 0,
                   Severity.INFO: report.infos if report else 0}
        for severity, button in self.buttons.items():
            button.setText(counted(numbers[severity], SEVERITY_NOUNS[severity]))
        total = sum(numbers.values())
        self.setWindowTitle(f"Findings ({total})" if report else "Findings")

    def _apply_filter(self) -> None:
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
        for row, candidate in enumerate(self.model.findings):
            if candidate.code == finding.code and candidate.objects == finding.objects:
                index = self.proxy.mapFromSource(self.model.index(row, 0))
                return index.row() if index.isValid() else None
        return None

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
        findings = self.model.findings
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
