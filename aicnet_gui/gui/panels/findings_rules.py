"""The findings dock's list of rules: one line per code found, its worst severity and count.

Thousands of findings of one rule are read as one line ("CABLE-UNSET 8,506"): choosing a line
shows that rule's findings in the table (the dock's rule filter), and "Fix all" applies the
merged, checked fixes of all of them as one undo step.  The list is rebuilt from the findings
model's counts per (code, severity), so a report costs the number of codes, not of findings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QHeaderView,
    QMenu,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...analysis import Severity
from .. import resources

CODE_ROLE = Qt.ItemDataRole.UserRole + 1


def rules_of(counts: Counter[tuple[str, Severity]]) -> list[tuple[str, Severity, int]]:
    """(code, worst severity, number of findings) per code, worst rules first."""
    worst: dict[str, Severity] = {}
    totals: Counter[str] = Counter()
    for (code, severity), n in counts.items():
        if n <= 0:
            continue
        totals[code] += n
        if code not in worst or severity.rank < worst[code].rank:
            worst[code] = severity
    return sorted(((c, worst[c], totals[c]) for c in totals), key=lambda r: (r[1].rank, r[0]))


FIX_ALL_TIP = ("Apply the fixes of every finding of the chosen rule together (checked on a copy "
               "first; one undo step)")


class RulesPane(QWidget):
    """The rules found, with counts; choose one to filter the table, fix all of one."""

    #: the code chosen (None: all rules)
    code_chosen = Signal(object)
    #: fix every finding of this code
    fix_all = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.tree = QTreeWidget()
        self.tree.setObjectName("findings-rules")
        self.tree.setHeaderLabels(["Rule", "Findings"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.tree.currentItemChanged.connect(self._on_current)
        layout.addWidget(self.tree, 1)
        self.fix_button = QPushButton(resources.icon("fix"), "Fix all")
        self.fix_button.setToolTip(FIX_ALL_TIP)
        self.fix_button.setEnabled(False)
        self.fix_button.clicked.connect(self._fix_all)
        layout.addWidget(self.fix_button)
        self.rules: list[tuple[str, Severity, int]] = []
        self.fixable = False
        #: why the findings of a rule cannot be fixed in one click (None: they may be); the
        #: dock sets it (repair.batch.fix_blocker over the rule's findings)
        self.blocker: Callable[[str], str | None] = lambda _code: None

    def set_rules(self, rules: list[tuple[str, Severity, int]], chosen: str | None) -> None:
        """Show `rules` (rules_of); keep `chosen` current."""
        if rules != self.rules:
            self.rules = rules
            self.tree.blockSignals(True)
            self.tree.clear()
            total = sum(n for _, _, n in rules)
            every = QTreeWidgetItem(["All rules", f"{total:,}"])
            every.setData(0, CODE_ROLE, None)
            self.tree.addTopLevelItem(every)
            for code, severity, n in rules:
                item = QTreeWidgetItem([code, f"{n:,}"])
                item.setIcon(0, resources.icon(f"severity-{severity.value}"))
                item.setData(0, CODE_ROLE, code)
                item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.tree.addTopLevelItem(item)
            self.tree.blockSignals(False)
        self.choose(chosen)

    def choose(self, code: str | None) -> None:
        """Make `code`'s line current without announcing it (the dock chose it)."""
        self.tree.blockSignals(True)
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item.data(0, CODE_ROLE) == code:
                self.tree.setCurrentItem(item)
                break
        self.tree.blockSignals(False)
        self.update_fix()

    def chosen(self) -> str | None:
        item = self.tree.currentItem()
        return item.data(0, CODE_ROLE) if item is not None else None

    def count_of(self, code: str) -> int:
        return next((n for c, _, n in self.rules if c == code), 0)

    def set_fixable(self, fixable: bool) -> None:
        self.fixable = fixable
        self.update_fix()

    def update_fix(self) -> None:
        code = self.chosen()
        if code is None:
            self.fix_button.setText("Fix all")
            self.fix_button.setEnabled(False)
            return
        self.fix_button.setText(f"Fix all {self.count_of(code):,} {code}")
        reason = self.blocker(code) if self.fixable else None
        self.fix_button.setEnabled(self.fixable and reason is None)
        self.fix_button.setToolTip(f"Nothing to fix in one click: {reason}" if reason else FIX_ALL_TIP)

    def _on_current(self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        self.update_fix()
        self.code_chosen.emit(current.data(0, CODE_ROLE) if current is not None else None)

    def _fix_all(self) -> None:
        code = self.chosen()
        if code is not None and self.fixable:
            self.fix_all.emit(code)

    def _context_menu(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        code = item.data(0, CODE_ROLE) if item is not None else None
        if code is None:
            return
        menu = QMenu(self.tree)
        act = menu.addAction(f"Fix all {self.count_of(code):,} {code}")
        reason = self.blocker(code) if self.fixable else None
        act.setEnabled(self.fixable and reason is None)
        if reason:
            act.setToolTip(reason)
            menu.setToolTipsVisible(True)
        act.triggered.connect(lambda: self.fix_all.emit(code))
        menu.exec(self.tree.viewport().mapToGlobal(pos))
