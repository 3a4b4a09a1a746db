"""The As-Built dock: the differences `aicnet verify` finds, by rack, like the findings dock.

A summary line and a table of rack, kind, cable numbers, what is wrong and what to do; selecting
a row selects and centres its devices and cables on the canvas (`show_objects`).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...asbuilt import KIND_TITLES, Comparison, ReworkItem
from ..canvas.asbuilt_overlay import MARK, STYLES

COLUMNS = ("Rack", "Kind", "Cables", "Difference", "Action")
KIND_COLOURS = {"missing": STYLES["missing"][0], "unexpected": STYLES["unexpected"][0]}


class AsBuiltDock(QDockWidget):
    """The re-work list of the last verification; a row click shows its objects."""

    #: select and centre these ids (devices, links)
    show_objects = Signal(object)

    def __init__(self, parent=None) -> None:  # noqa: ANN001
        super().__init__("As Built", parent)
        self.setObjectName("asbuilt-dock")
        self.items: list[ReworkItem] = []
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 4, 6, 6)
        self.summary = QLabel("File ▸ Verify Against As-Built… compares LLDP, ibnetdiscover or "
                              "NetBox data with this design.")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(0, 90)
        header.resizeSection(1, 170)
        header.resizeSection(2, 130)
        header.resizeSection(4, 300)
        self.table.currentCellChanged.connect(lambda row, *_: self._show(row))
        self.table.cellClicked.connect(lambda row, _col: self._show(row))
        layout.addWidget(self.table, 1)
        self.setWidget(body)

    def set_result(self, comparison: Comparison, items: list[ReworkItem], observed: str) -> None:
        self.items = items
        c = comparison
        text = (f"{observed}: {c.checked} planned links checked, {c.matched} as planned, "
                f"{len(c.differences)} difference{'s' if len(c.differences) != 1 else ''}")
        if not items:
            text += " — as built = as designed."
        for note in c.notes:
            text += f"\nNote: {note}"
        self.summary.setText(text)
        self.table.setRowCount(0)
        self.table.setRowCount(len(items))
        for row, item in enumerate(items):
            cells = (item.rack, KIND_TITLES.get(item.kind, item.kind), " ".join(item.cables),
                     item.diff.message, item.diff.action)
            for column, text_ in enumerate(cells):
                cell = QTableWidgetItem(text_)
                cell.setToolTip(text_ if column != 2 else "; ".join(item.labels))
                if column == 1:
                    cell.setForeground(QColor(KIND_COLOURS.get(item.kind, MARK)))
                self.table.setItem(row, column, cell)

    def clear(self) -> None:
        self.items = []
        self.table.setRowCount(0)
        self.summary.setText("Verify again after opening another design.")

    def _show(self, row: int) -> None:
        if 0 <= row < len(self.items):
            diff = self.items[row].diff
            self.show_objects.emit([*diff.devices, *diff.links])

    def select_row(self, row: int) -> None:
        self.table.selectRow(row)
        self._show(row)
