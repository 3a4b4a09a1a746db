"""The comparison table: one row per candidate, the columns of columns.py, sortable.

Rows are kept in arrival order; a candidate that arrives is inserted as a row, and a later
version of one (its Pareto marks recomputed over the candidates so far) replaces its row in
place, so the view's selection and sort survive a running study.  The columns follow the
candidates (workload columns appear with the first built candidate).  `CandidateSort` sorts by
each column's value, missing values last in either direction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QFont

from ...study.candidate import Candidate
from .columns import Column, columns_for

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
CANDIDATE_ROLE = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex

FRONTIER = QColor("#c44e52")
NOT_BUILT = QColor("#8a8f98")
NOT_FITTING = QColor("#b35c00")


class CandidateTable(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Candidate] = []
        self._row_of: dict[int, int] = {}  # candidate index -> row
        self.columns: tuple[Column, ...] = columns_for([])
        self._bold = QFont()
        self._bold.setBold(True)

    # ---------------------------------------------------------------- contents
    def candidates(self) -> list[Candidate]:
        return list(self._rows)

    def candidate(self, row: int) -> Candidate:
        return self._rows[row]

    def row_of(self, candidate_index: int) -> int | None:
        return self._row_of.get(candidate_index)

    def clear(self) -> None:
        self.beginResetModel()
        self._rows, self._row_of = [], {}
        self.columns = columns_for([])
        self.endResetModel()

    def update(self, candidates: Sequence[Candidate]) -> None:
        """Take `candidates` (every one so far, each possibly a newer version): new ones become
        rows, known ones replace theirs."""
        columns = columns_for([*self._rows, *candidates])
        if [c.key for c in columns] != [c.key for c in self.columns]:
            self.beginResetModel()
            self.columns = columns
            self._put(candidates)
            self.endResetModel()
            return
        new = [c for c in candidates if c.index not in self._row_of]
        if new:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
            self._put(new)
            self.endInsertRows()
        for c in candidates:
            self._rows[self._row_of[c.index]] = c
        if self._rows:
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(self._rows) - 1, len(self.columns) - 1))

    def _put(self, candidates: Sequence[Candidate]) -> None:
        for c in candidates:
            row = self._row_of.get(c.index)
            if row is None:
                self._row_of[c.index] = len(self._rows)
                self._rows.append(c)
            else:
                self._rows[row] = c

    # ---------------------------------------------------------------- Qt's model API
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].title
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.columns[section].about or None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        c = self._rows[index.row()]
        column = self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.text(c)
        if role == SORT_ROLE:
            return column.sort(c)
        if role == CANDIDATE_ROLE:
            return c
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.tip(c) or None
        if role == Qt.ItemDataRole.TextAlignmentRole and column.numeric:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            if c.metrics is None:
                return NOT_BUILT
            if column.key == "status" and not c.feasible:
                return NOT_FITTING
            if column.key == "pareto" and c.pareto and (c.pareto.cost_time or c.pareto.power_time):
                return FRONTIER
        if role == Qt.ItemDataRole.FontRole and column.key == "name" and c.pareto \
                and (c.pareto.cost_time or c.pareto.power_time):
            return self._bold
        return None


class CandidateSort(QSortFilterProxyModel):
    """Sorts by each column's value; candidates without one go last either way."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def lessThan(self, left: Index, right: Index) -> bool:  # noqa: N802
        a, b = left.data(SORT_ROLE), right.data(SORT_ROLE)
        if a is None or b is None:
            if a is None and b is None:
                return left.row() < right.row()
            # missing last: ascending puts "greater" last, descending puts "smaller" last
            ascending = self.sortOrder() == Qt.SortOrder.AscendingOrder
            return (a is not None) == ascending
        if type(a) is not type(b) and not all(isinstance(v, int | float) for v in (a, b)):
            return str(a) < str(b)
        if a == b:
            return left.row() < right.row()
        return a < b
