"""The palette: the device catalog as a tree by role and vendor, with search and filters.

Drag a model onto the Topology or Floor canvas to add a device (named by the project's naming
pattern); double-click adds it at the end of its tier.  Search matches vendor, model, catalog
id, part numbers and port form factors.  The Ports column is always as wide as its text; the
Model column takes the rest and elides a name that does not fit (its tooltip has it whole).
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...model.catalog import Catalog
from ...model.catalog_entities import DeviceModel, Role
from .. import resources, theme
from ..canvas.view import DEVICE_MIME

MODEL_ROLE = Qt.ItemDataRole.UserRole + 1


#: the widest the dock is made at first start to show both columns whole
MAX_DOCK_W = 360


def ports_summary(model: DeviceModel) -> str:
    """`64× OSFP · 2U`: the fabric cages of a model by form factor (two at most), its height."""
    cages: dict[str, int] = {}
    for group in model.cages:
        if group.fabric:
            cages[group.form_factor] = cages.get(group.form_factor, 0) + group.count
    parts = [f"{count}× {form_factor}" for form_factor, count in cages.items()]
    return ", ".join(parts[:2]) + f" · {model.height_ru}U"


def search_text(model: DeviceModel) -> str:
    words = [model.id, model.vendor, model.model, model.role.value, *model.part_numbers]
    words += [g.form_factor for g in model.cages] + [b for g in model.cages for b in g.breakouts]
    return " ".join(words).lower()


class PaletteTree(QTreeWidget):
    """A tree whose model rows drag out as device-model MIME data."""

    def mimeTypes(self) -> list[str]:  # noqa: N802
        return [DEVICE_MIME]

    def mimeData(self, items: list[QTreeWidgetItem]) -> QMimeData:  # noqa: N802
        data = QMimeData()
        for item in items:
            model_id = item.data(0, MODEL_ROLE)
            if model_id:
                data.setData(DEVICE_MIME, model_id.encode())
                data.setText(model_id)
                break
        return data


class PaletteDock(QDockWidget):
    """Dock with the catalog tree, search box and vendor / role filters."""

    #: add a device of this model (double-click)
    add_requested = Signal(str)

    def __init__(self, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__("Catalog", parent)
        self.setObjectName("palette")
        self.catalog = catalog
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(6)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search models, vendors, ports…")
        self.search.setClearButtonEnabled(True)
        self.search.addAction(resources.icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        layout.addWidget(self.search)
        filters = QHBoxLayout()
        filters.setSpacing(6)
        self.vendor = QComboBox()
        self.role = QComboBox()
        filters.addWidget(self.vendor, 1)
        filters.addWidget(self.role, 1)
        layout.addLayout(filters)
        self.tree = PaletteTree()
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Model", "Ports"])
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QTreeWidget.DragDropMode.DragOnly)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(False)
        self.tree.setIndentation(14)
        self.tree.setRootIsDecorated(True)
        layout.addWidget(self.tree, 1)
        hint = QLabel("Drag a model onto the canvas, or double-click it.")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #616e7c;")
        layout.addWidget(hint)
        self.setWidget(body)
        self._rows: list[tuple[QTreeWidgetItem, DeviceModel]] = []
        self._build()
        self.search.textChanged.connect(self.apply_filter)
        self.vendor.currentIndexChanged.connect(self.apply_filter)
        self.role.currentIndexChanged.connect(self.apply_filter)
        self.tree.itemDoubleClicked.connect(self._on_double_click)

    def rebuild(self) -> None:
        """Show the catalog again (after models were added to it)."""
        self.tree.clear()
        self._rows.clear()
        for combo in (self.vendor, self.role):
            combo.blockSignals(True)
            combo.clear()
        self._build()
        for combo in (self.vendor, self.role):
            combo.blockSignals(False)
        self.apply_filter()

    def _build(self) -> None:
        models = sorted(self.catalog.devices.values(), key=lambda m: (m.vendor.lower(), m.model.lower()))
        self.vendor.addItem("All vendors", "")
        for vendor in sorted({m.vendor for m in models}, key=str.lower):
            self.vendor.addItem(vendor, vendor)
        self.role.addItem("All roles", "")
        bold = QFont()
        bold.setBold(True)
        for role in Role:
            members = [m for m in models if m.role == role]
            if not members:
                continue
            self.role.addItem(resources.icon(f"role-{role.value}"), theme.ROLE_TITLES[role.value], role.value)
            group = QTreeWidgetItem(self.tree, [theme.ROLE_TITLES[role.value], ""])
            group.setIcon(0, resources.icon(f"role-{role.value}"))
            group.setFont(0, bold)
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            group.setFirstColumnSpanned(True)
            vendors: dict[str, QTreeWidgetItem] = {}
            for model in members:
                parent = vendors.get(model.vendor)
                if parent is None:
                    parent = QTreeWidgetItem(group, [model.vendor, ""])
                    parent.setFlags(Qt.ItemFlag.ItemIsEnabled)
                    parent.setForeground(0, theme.DEVICE_SUBTEXT)
                    vendors[model.vendor] = parent
                row = QTreeWidgetItem(parent, [model.model, ports_summary(model)])
                row.setData(0, MODEL_ROLE, model.id)
                row.setIcon(0, resources.icon(f"role-{role.value}"))
                row.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled)
                cages = "<br>".join(f"{g.count}× {g.form_factor} {g.name} ({', '.join(g.breakouts)})"
                                    for g in model.cages)
                tip = (f"<b>{model.vendor} {model.model}</b> ({model.id})<br>{cages}<br>{model.height_ru}U · "
                       f"{', '.join(t.value for t in model.technology)}"
                       + (f" · {model.gpus} GPUs" if model.gpus else "")
                       + ("" if model.verified else "<br><i>catalog entry not fully verified</i>"))
                row.setToolTip(0, tip)
                row.setToolTip(1, tip)
                self._rows.append((row, model))
        self.tree.expandAll()

    def preferred_width(self) -> int:
        """A dock width showing both columns whole, at most MAX_DOCK_W."""
        tree = self.tree
        columns = tree.sizeHintForColumn(0) + tree.sizeHintForColumn(1)
        margins = self.widget().layout().contentsMargins()
        chrome = margins.left() + margins.right() + 2 * tree.frameWidth()
        bar = tree.verticalScrollBar().sizeHint().width()  # when the tree is taller than the dock
        return min(columns + chrome + bar, MAX_DOCK_W)

    def model_ids(self) -> list[str]:
        return [m.id for _row, m in self._rows]

    def row_for(self, model_id: str) -> QTreeWidgetItem | None:
        return next((row for row, m in self._rows if m.id == model_id), None)

    def apply_filter(self) -> None:
        words = self.search.text().lower().split()
        vendor = self.vendor.currentData()
        role = self.role.currentData()
        for row, model in self._rows:
            text = search_text(model)
            visible = all(w in text for w in words) and (not vendor or model.vendor == vendor) and (
                not role or model.role.value == role)
            row.setHidden(not visible)
        for index in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(index)
            any_group = False
            for v in range(group.childCount()):
                vendor_item = group.child(v)
                shown = any(not vendor_item.child(k).isHidden() for k in range(vendor_item.childCount()))
                vendor_item.setHidden(not shown)
                any_group = any_group or shown
            group.setHidden(not any_group)
        if words or vendor or role:
            self.tree.expandAll()

    def visible_model_ids(self) -> list[str]:
        return [m.id for row, m in self._rows if not row.isHidden()]

    def _on_double_click(self, item: QTreeWidgetItem, _column: int) -> None:
        model_id = item.data(0, MODEL_ROLE)
        if model_id:
            self.add_requested.emit(model_id)
