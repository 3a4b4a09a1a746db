"""The requirement form (File › New Comparison…): what the fabric must do, and which designs may
do it, stated once before a study.

Three pages: the cluster (server model and count or GPUs, workloads, the oversubscription each
kind of workload accepts), the candidates (allowed technologies, leaf and spine models from
the catalog, the axes to sweep: speeds, tiers, planes, ratios, rail layouts), and the site
(rack power, height, racks per row, rows), growth target, price list and the folder the
candidates are written to.  Under the pages the form says, as the user types, how many
candidates the requirement makes or why it would be refused (the study's own check,
`Study.prepare`), and Compare stays disabled until it is one a study can run.

The form's value is a `model/fabric.py` `Requirement`; its price list is kept as an absolute
path and written relative to the file that holds the requirement (the project, or a
`NAME.requirement.json` saved from here).  Load reads a requirement file or the requirement a
`.fabric` carries.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...fileio.requirement_file import RequirementFileError, load_requirement, save_requirement
from ...model.catalog import Catalog
from ...model.fabric import (
    LAYOUTS,
    WORKLOAD_KIND_TITLES,
    GrowthTarget,
    OversubscriptionTargets,
    Requirement,
    SiteLimits,
    WorkloadKind,
)
from ...model.text_safety import error_message
from ...study import Study, StudyError
from ...study.axes import TECHNOLOGY_WORDS, catalog_switches, runs_technology
from ...study.generator_calls import port_speeds
from ..dialogs.model_form import ModelForm

REQUIREMENT_FILTER = ("aicnet requirement (*.requirement.json *.requirement.yaml *.requirement.yml);;"
                      "Requirement or design (*.json *.yaml *.yml *.fabric);;All files (*)")
PRICES_FILTER = "Price list (*.csv);;All files (*)"
DEFAULT_LEAVES = ("nvidia-qm9700", "nvidia-sn5600")
#: the speeds offered on the speed axis: those AI fabrics run (slower ones exist on the catalog's
#: management and campus switches)
MIN_FABRIC_SPEED = 100
ALGORITHMS = ("ring", "tree", "collnet", "nvls")
CHECK_DELAY_MS = 250


def default_requirement(catalog: Catalog) -> Requirement:
    """What the form shows for a project without a requirement: 32 servers of the catalog's
    default server, the two switches of the user guide's example (when the catalog has them)."""
    leaves = [m for m in DEFAULT_LEAVES if m in catalog.devices]
    return Requirement(servers=32, leaves=leaves)


def relative_prices(path: Path | None, base_dir: Path | None) -> str | None:
    """The price list as a requirement names it: relative to `base_dir` when there is one."""
    if path is None:
        return None
    if base_dir is None:
        return str(path)
    try:
        return os.path.relpath(path, base_dir)
    except ValueError:  # another drive
        return str(path)


def absolute_prices(requirement: Requirement, base_dir: Path | None) -> Path | None:
    if requirement.prices is None:
        return None
    path = Path(requirement.prices)
    return path if path.is_absolute() or base_dir is None else (base_dir / path).resolve()


def _checks(values: list[tuple[str, Any, str]]) -> tuple[QWidget, dict[Any, QCheckBox]]:
    """A row of check boxes (text, value, tooltip)."""
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    boxes = {}
    for text, value, tip in values:
        box = QCheckBox(text)
        box.setToolTip(tip)
        layout.addWidget(box)
        boxes[value] = box
    layout.addStretch(1)
    return row, boxes


def _hint(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setStyleSheet("color: #616e7c;")
    return label


class RequirementForm(QDialog):
    """Edit a requirement and the candidates' folder; `accepted` when Compare is pressed."""

    def __init__(self, catalog: Catalog, requirement: Requirement | None, base_dir: Path | None,
                 out_dir: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New Comparison — which fabric to buy")
        self.catalog = catalog
        self.base_dir = base_dir
        self.prices: Path | None = None
        self._loading = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(CHECK_DELAY_MS)
        self._timer.timeout.connect(self.check)
        self.study: Study | None = None
        self.tabs = QTabWidget()
        self.tabs.addTab(self._cluster_page(), "Cluster and workloads")
        self.tabs.addTab(self._candidates_page(), "Candidates")
        self.tabs.addTab(self._site_page(), "Site, growth and prices")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.keep = QCheckBox("Keep the requirement with the project (one undo step)")
        self.keep.setChecked(True)
        self.keep.setToolTip("saved in the .fabric file, and in every candidate's file")
        buttons = QDialogButtonBox()
        load = buttons.addButton("Load…", QDialogButtonBox.ButtonRole.ResetRole)
        save = buttons.addButton("Save As…", QDialogButtonBox.ButtonRole.ResetRole)
        load.setToolTip("read a NAME.requirement.json / .yaml, or the requirement a .fabric carries")
        save.setToolTip("write the requirement as NAME.requirement.json (or .yaml)")
        load.clicked.connect(self.load_dialog)
        save.clicked.connect(self.save_dialog)
        self.compare_button = buttons.addButton("Compare", QDialogButtonBox.ButtonRole.AcceptRole)
        self.compare_button.setDefault(True)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.keep)
        layout.addWidget(buttons)
        self.folder.setText(str(out_dir))
        self.set_requirement(requirement or default_requirement(catalog), base_dir)
        self.resize(980, 680)

    # ---------------------------------------------------------------- pages
    def _cluster_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        form = QFormLayout()
        self.name = QLineEdit()
        self.name.textChanged.connect(self.changed)
        self.server = QComboBox()
        for model in sorted(self.catalog.devices.values(), key=lambda m: (m.vendor, m.model)):
            if model.role.value == "gpu_server":
                self.server.addItem(f"{model.vendor} {model.model}", model.id)
        self.server.currentIndexChanged.connect(self.changed)
        size = QWidget()
        size_layout = QHBoxLayout(size)
        size_layout.setContentsMargins(0, 0, 0, 0)
        self.count = QSpinBox()
        self.count.setRange(1, 1_000_000)
        self.count.setKeyboardTracking(False)
        self.count.valueChanged.connect(self.changed)
        self.count_unit = QComboBox()
        self.count_unit.addItem("servers", "servers")
        self.count_unit.addItem("GPUs (whole servers)", "gpus")
        self.count_unit.currentIndexChanged.connect(self.changed)
        size_layout.addWidget(self.count)
        size_layout.addWidget(self.count_unit)
        size_layout.addStretch(1)
        form.addRow("Study name", self.name)
        form.addRow("Server model", self.server)
        form.addRow("Cluster size", size)
        layout.addLayout(form)
        box = QGroupBox("Workloads")
        inner = QVBoxLayout(box)
        inner.addWidget(_hint("Each on consecutive servers, as a topology-aware scheduler places a "
                              "job. Size 0: every server. None listed: one training job over "
                              "every server. The first training job's all-reduce is the Pareto "
                              "marks' time."))
        self.workloads = QTableWidget(0, 5)
        self.workloads.setHorizontalHeaderLabels(["Id", "Kind", "Size", "Unit", "All-reduce"])
        self.workloads.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # the kind's name whole ("Inference, wide expert parallelism"), the others share the rest
        self.workloads.horizontalHeader().setSectionResizeMode(
            1, QHeaderView.ResizeMode.ResizeToContents)
        self.workloads.verticalHeader().setVisible(False)
        self.workloads.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.workloads.itemChanged.connect(self.changed)
        inner.addWidget(self.workloads, 1)
        row = QHBoxLayout()
        add = QPushButton("Add Workload")
        remove = QPushButton("Remove")
        add.clicked.connect(lambda: self._add_workload(None))
        remove.clicked.connect(self._remove_workload)
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        inner.addLayout(row)
        layout.addWidget(box, 1)
        targets = QGroupBox("Highest oversubscription each kind of workload accepts (1 is 1:1)")
        self.targets = ModelForm(OversubscriptionTargets, self.catalog)
        self.targets.changed.connect(self.changed)
        QVBoxLayout(targets).addWidget(self.targets)
        layout.addWidget(targets)
        return page

    def _candidates_page(self) -> QWidget:
        page = QWidget()
        grid = QGridLayout(page)
        tech_row, self.technologies = _checks(
            [(TECHNOLOGY_WORDS[t], t, f"allow {TECHNOLOGY_WORDS[t]} fabrics") for t in TECHNOLOGY_WORDS])
        for box in self.technologies.values():
            box.toggled.connect(self._filter_switches)
        tech = QGroupBox("Technologies")
        tech_layout = QVBoxLayout(tech)
        tech_layout.addWidget(tech_row)
        tech_layout.addWidget(_hint("None ticked: each switch model's own (InfiniBand on an "
                                    "InfiniBand switch, else RoCEv2)."))
        grid.addWidget(tech, 0, 0, 1, 2)
        self.leaves = self._switch_list()
        self.spines = self._switch_list()
        for title, widget, hint, column in (
                ("Leaf switch models", self.leaves, "None ticked: every catalog switch of an "
                 "allowed technology, each also as its own spine.", 0),
                ("Spine and core switch models", self.spines, "None ticked: the leaf model.", 1)):
            box = QGroupBox(title)
            inner = QVBoxLayout(box)
            inner.addWidget(widget, 1)
            inner.addWidget(_hint(hint))
            grid.addWidget(box, 1, column)
        axes = QGroupBox("Axes to sweep (every combination is one candidate)")
        form = QFormLayout(axes)
        speeds = sorted({s for m in catalog_switches(self.catalog)
                         for s in port_speeds(self.catalog, m.id) if s >= MIN_FABRIC_SPEED})
        row, self.speeds = _checks([(f"{s}G", s, f"{s} Gb/s ports") for s in speeds])
        form.addRow("Port speeds", row)
        form.addRow("", _hint("None ticked: the fastest the server and the switches share."))
        row, self.tiers = _checks([("auto", "auto", "two tiers when they hold the cluster, else "
                                    "three"), ("2 tiers", "2", ""), ("3 tiers", "3", "")])
        form.addRow("Tiers", row)
        row, self.planes = _checks([(f"{p} plane{'s' if p > 1 else ''}", p,
                                     "each GPU's NIC split over the planes") for p in (1, 2, 4)])
        form.addRow("Planes", row)
        self.ratios = QLineEdit()
        self.ratios.setPlaceholderText("1, 2, 3")
        self.ratios.setToolTip("leaf downlink:uplink ratios, separated by commas (1 is 1:1, up "
                               "to 16); rail-optimized SUs are 1:1 by design")
        self.ratios.textChanged.connect(self.changed)
        form.addRow("Oversubscription", self.ratios)
        row, self.layouts = _checks([(name, name, text) for name, text in LAYOUTS.items()])
        form.addRow("Rail layouts", row)
        form.addRow("", _hint("None ticked: rail, or rail-optimized when more than one plane "
                              "is asked for. Hover over a layout for what it builds."))
        for boxes in (self.speeds, self.tiers, self.planes, self.layouts):
            for box in boxes.values():
                box.toggled.connect(self.changed)
        grid.addWidget(axes, 2, 0, 1, 2)
        grid.setRowStretch(1, 1)
        return page

    def _switch_list(self) -> QListWidget:
        widget = QListWidget()
        for model in catalog_switches(self.catalog):
            techs = "/".join(TECHNOLOGY_WORDS.get(t.value, t.value) for t in model.technology)
            item = QListWidgetItem(f"{model.vendor} {model.model}  ({techs})")
            item.setData(Qt.ItemDataRole.UserRole, model.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            item.setToolTip(model.id)
            widget.addItem(item)
        widget.itemChanged.connect(self.changed)
        return widget

    def _site_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        site = QGroupBox("Site limits")
        self.site = ModelForm(SiteLimits, self.catalog)
        self.site.changed.connect(self.changed)
        for box in self.site.findChildren(QSpinBox):  # the one optional field: rows
            if box.specialValueText():
                box.setSpecialValueText("no limit")
        site_layout = QVBoxLayout(site)
        site_layout.addWidget(self.site)
        site_layout.addWidget(_hint("A candidate that needs more rows than the site has is built "
                                    "and listed as not fitting the site."))
        layout.addWidget(site)
        self.growth = QGroupBox("Growth target: the fabric must grow to")
        self.growth.setCheckable(True)
        self.growth.toggled.connect(self.changed)
        growth = QHBoxLayout(self.growth)
        self.growth_size = QSpinBox()
        self.growth_size.setRange(1, 1_000_000)
        self.growth_size.setKeyboardTracking(False)
        self.growth_size.valueChanged.connect(self.changed)
        self.growth_unit = QComboBox()
        for text, key in (("servers in total", "servers"), ("GPUs in total", "gpus"),
                          ("scalable units in total", "sus")):
            self.growth_unit.addItem(text, key)
        self.growth_unit.currentIndexChanged.connect(self.changed)
        self.same_spines = QCheckBox("within the spines bought now")
        self.same_spines.setToolTip(GrowthTarget.model_fields["same_spines"].description or "")
        self.same_spines.toggled.connect(self.changed)
        growth.addWidget(self.growth_size)
        growth.addWidget(self.growth_unit)
        growth.addWidget(self.same_spines)
        growth.addStretch(1)
        layout.addWidget(self.growth)
        prices = QGroupBox("Price list")
        prices_layout = QVBoxLayout(prices)
        row = QHBoxLayout()
        self.prices_edit = QLineEdit()
        self.prices_edit.setReadOnly(True)
        self.prices_edit.setPlaceholderText("no price list: the cost column says so")
        choose = QPushButton("Choose…")
        clear = QPushButton("Clear")
        choose.clicked.connect(self._choose_prices)
        clear.clicked.connect(lambda: self._set_prices(None))
        row.addWidget(self.prices_edit, 1)
        row.addWidget(choose)
        row.addWidget(clear)
        prices_layout.addLayout(row)
        prices_layout.addWidget(_hint("A CSV with part, unit_price, currency, date (the one "
                                      "aicnet bom --prices reads). aicnet ships no prices."))
        layout.addWidget(prices)
        out = QGroupBox("Candidates folder: one .fabric per candidate is written here")
        row = QHBoxLayout(out)
        self.folder = QLineEdit()
        self.folder.textChanged.connect(self.changed)
        pick = QPushButton("Choose…")
        pick.clicked.connect(self._choose_folder)
        row.addWidget(self.folder, 1)
        row.addWidget(pick)
        layout.addWidget(out)
        layout.addStretch(1)
        return page

    # ---------------------------------------------------------------- workloads
    def _add_workload(self, need: Any) -> None:
        table = self.workloads
        row = table.rowCount()
        table.insertRow(row)
        kind = QComboBox()
        for k in WorkloadKind:
            kind.addItem(WORKLOAD_KIND_TITLES.get(k.value, k.value), k.value)
        size = QSpinBox()
        size.setRange(0, 1_000_000)
        size.setSpecialValueText("all servers")
        unit = QComboBox()
        unit.addItem("GPUs", "gpus")
        unit.addItem("servers", "servers")
        algorithm = QComboBox()
        for a in ALGORITHMS:
            algorithm.addItem(a, a)
        algorithm.setToolTip("NCCL algorithm of the estimate: collnet is IB SHARP, nvls NVLink "
                             "SHARP + IB SHARP (InfiniBand only)")
        if need is not None:
            kind.setCurrentIndex(kind.findData(need.kind.value))
            if need.gpus is not None:
                size.setValue(need.gpus)
            elif need.servers is not None:
                size.setValue(need.servers)
                unit.setCurrentIndex(1)
            algorithm.setCurrentIndex(max(algorithm.findData(need.algorithm or "ring"), 0))
        self._loading, was = True, self._loading
        table.setItem(row, 0, QTableWidgetItem(need.id if need is not None else self._next_id()))
        self._loading = was
        for column, widget in ((1, kind), (2, size), (3, unit), (4, algorithm)):
            table.setCellWidget(row, column, widget)
            signal = widget.valueChanged if isinstance(widget, QSpinBox) else widget.currentIndexChanged
            signal.connect(self.changed)
        self.changed()

    def _next_id(self) -> str:
        taken = {self.workloads.item(r, 0).text() for r in range(self.workloads.rowCount())
                 if self.workloads.item(r, 0) is not None}
        n = 1
        while f"workload-{n}" in taken:
            n += 1
        return f"workload-{n}"

    def _remove_workload(self) -> None:
        rows = sorted({i.row() for i in self.workloads.selectedIndexes()}, reverse=True)
        if not rows and self.workloads.rowCount():
            rows = [self.workloads.rowCount() - 1]
        for row in rows:
            self.workloads.removeRow(row)
        self.changed()

    def _workload_values(self) -> list[dict[str, Any]]:
        out = []
        table = self.workloads
        for row in range(table.rowCount()):
            item = table.item(row, 0)
            kind, size, unit, algorithm = (table.cellWidget(row, c) for c in range(1, 5))
            need: dict[str, Any] = {"id": item.text().strip() if item else "",
                                    "kind": kind.currentData()}  # type: ignore[union-attr]
            if size.value():  # type: ignore[union-attr]
                need[unit.currentData()] = size.value()  # type: ignore[union-attr]
            if algorithm.currentData() != "ring":  # type: ignore[union-attr]
                need["algorithm"] = algorithm.currentData()  # type: ignore[union-attr]
            out.append(need)
        return out

    # ---------------------------------------------------------------- switches
    def _filter_switches(self) -> None:
        """Only the switches of the ticked technologies are offered (ticked ones stay)."""
        allowed = [t for t, box in self.technologies.items() if box.isChecked()]
        for widget in (self.leaves, self.spines):
            for row in range(widget.count()):
                item = widget.item(row)
                model = self.catalog.devices[item.data(Qt.ItemDataRole.UserRole)]
                runs = not allowed or any(runs_technology(model, t) for t in allowed)
                item.setHidden(not runs and item.checkState() != Qt.CheckState.Checked)
        self.changed()

    @staticmethod
    def _checked(widget: QListWidget) -> list[str]:
        return [widget.item(r).data(Qt.ItemDataRole.UserRole) for r in range(widget.count())
                if widget.item(r).checkState() == Qt.CheckState.Checked]

    @staticmethod
    def _tick(widget: QListWidget, ids: list[str]) -> None:
        for row in range(widget.count()):
            item = widget.item(row)
            item.setCheckState(Qt.CheckState.Checked if item.data(Qt.ItemDataRole.UserRole) in ids
                               else Qt.CheckState.Unchecked)

    # ---------------------------------------------------------------- prices and folder
    def _set_prices(self, path: Path | None) -> None:
        self.prices = path
        self.prices_edit.setText("" if path is None else str(path))
        self.changed()

    def _choose_prices(self) -> None:
        start = str(self.prices.parent if self.prices else self.base_dir or Path.home())
        path, _f = QFileDialog.getOpenFileName(self, "Price list", start, PRICES_FILTER)
        if path:
            self._set_prices(Path(path).resolve())

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Candidates folder",
                                                  str(Path(self.folder.text()).parent))
        if folder:
            self.folder.setText(folder)

    def out_dir(self) -> Path:
        return Path(self.folder.text().strip()).expanduser()

    # ---------------------------------------------------------------- the value
    def set_requirement(self, requirement: Requirement, base_dir: Path | None) -> None:
        """Show `requirement` (its price list relative to `base_dir`)."""
        self._loading = True
        try:
            self.name.setText(requirement.name)
            index = self.server.findData(requirement.server)
            if index < 0:  # a server this catalog does not list: shown, and refused by the check
                self.server.addItem(requirement.server, requirement.server)
                index = self.server.count() - 1
            self.server.setCurrentIndex(index)
            by_gpus = requirement.servers is None
            self.count.setValue(requirement.gpus if by_gpus else requirement.servers)  # type: ignore[arg-type]
            self.count_unit.setCurrentIndex(1 if by_gpus else 0)
            self.workloads.setRowCount(0)
            for need in requirement.workloads:
                self._add_workload(need)
            self.targets.set_values(requirement.targets.model_dump())
            for t, box in self.technologies.items():
                box.setChecked(t in {x.value for x in requirement.technologies})
            self._tick(self.leaves, list(requirement.leaves))
            self._tick(self.spines, list(requirement.spines))
            sweep = requirement.sweep
            for values, boxes in ((sweep.speeds_gbps, self.speeds), (sweep.tiers, self.tiers),
                                  (sweep.planes, self.planes), (sweep.layouts, self.layouts)):
                for value, box in boxes.items():
                    box.setChecked(value in values)
            self.ratios.setText(", ".join(f"{r:g}" for r in sweep.oversubscription))
            self.site.set_values(requirement.site.model_dump())
            growth = requirement.growth
            self.growth.setChecked(growth is not None)
            if growth is not None:
                key = next(k for k in ("servers", "gpus", "sus") if getattr(growth, k) is not None)
                self.growth_size.setValue(getattr(growth, key))
                self.growth_unit.setCurrentIndex(self.growth_unit.findData(key))
                self.same_spines.setChecked(growth.same_spines)
            else:
                self.same_spines.setChecked(True)
            self._set_prices(absolute_prices(requirement, base_dir))
        finally:
            self._loading = False
        self._filter_switches()
        self.check()

    def values(self, base_dir: Path | None) -> dict[str, Any]:
        """The form as the requirement's fields (not validated)."""
        count_key = self.count_unit.currentData()
        values: dict[str, Any] = {
            "name": self.name.text().strip(), "server": self.server.currentData(),
            "servers": None, "gpus": None, count_key: self.count.value(),
            "workloads": self._workload_values(), "targets": self.targets.values(),
            "site": self.site.values(),
            "prices": relative_prices(self.prices, base_dir),
            "technologies": [t for t, box in self.technologies.items() if box.isChecked()],
            "leaves": self._checked(self.leaves), "spines": self._checked(self.spines),
            "sweep": {"speeds_gbps": [s for s, b in self.speeds.items() if b.isChecked()],
                      "tiers": [t for t, b in self.tiers.items() if b.isChecked()] or ["auto"],
                      "planes": [p for p, b in self.planes.items() if b.isChecked()] or [1],
                      "oversubscription": self._ratios(),
                      "layouts": [x for x, b in self.layouts.items() if b.isChecked()]},
        }
        if self.growth.isChecked():
            values["growth"] = {self.growth_unit.currentData(): self.growth_size.value(),
                                "same_spines": self.same_spines.isChecked()}
        return values

    def _ratios(self) -> list[Any]:
        text = self.ratios.text().replace(":1", "").strip()
        if not text:
            return [1.0]
        out: list[Any] = []
        for part in text.replace(";", ",").split(","):
            part = part.strip()
            try:
                out.append(float(part))
            except ValueError:
                out.append(part)  # pydantic names it
        return out

    def requirement(self, base_dir: Path | None = None) -> Requirement:
        """The requirement the form states; ValueError says what is wrong, where."""
        try:
            return Requirement.model_validate(self.values(base_dir if base_dir is not None
                                                          else self.base_dir))
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"]) or "requirement"
            raise ValueError(f"{where}: {error_message(first)}") from None

    # ---------------------------------------------------------------- checking
    def changed(self, *_args: object) -> None:
        if not self._loading:
            self._timer.start()

    def check(self) -> bool:
        """Check the requirement as a study would; the summary says how many candidates it
        makes, or why it is refused.  True when Compare may run it."""
        self._timer.stop()
        self.study = None
        try:
            requirement = self.requirement()
            if not self.folder.text().strip():
                raise ValueError("choose the folder the candidates are written to")
            study = Study.prepare(requirement, self.catalog, self.base_dir, prices=self.prices)
        except (ValueError, StudyError) as exc:
            self._say(str(exc), error=True)
            return False
        self.study = study
        n = len(study.planned)
        notes = " ".join(study.notes)
        prices = study.prices
        priced = ("no price list" if prices is None else
                  f"prices: {prices.prices.describe()}"
                  + (f" ({len(prices.lines())} problem(s): cost will show as incomplete)"
                     if prices.lines() else ""))
        self._say(f"{n} candidate{'s' if n != 1 else ''} for {study.servers:,} servers "
                  f"({study.servers * study.gpus_per_server:,} GPUs); {priced}. {notes}".strip(),
                  error=False)
        return True

    def _say(self, text: str, error: bool) -> None:
        self.summary.setStyleSheet("color: #c92a2a;" if error else "color: #1f2933;")
        self.summary.setText(text)
        self.compare_button.setEnabled(not error)

    def _accept(self) -> None:
        if self.check():
            self.accept()

    # ---------------------------------------------------------------- files
    def load_dialog(self) -> None:
        start = str(self.base_dir or Path.home())
        path, _f = QFileDialog.getOpenFileName(self, "Load requirement", start, REQUIREMENT_FILTER)
        if path:
            self.load(Path(path))

    def load(self, path: Path) -> bool:
        try:
            requirement = load_requirement(path)
        except RequirementFileError as exc:
            self._say(str(exc), error=True)
            return False
        self.set_requirement(requirement, path.resolve().parent)
        return True

    def save_dialog(self) -> None:
        stem = (self.name.text().strip() or "cluster").lower().replace(" ", "-")
        start = str((self.base_dir or Path.home()) / f"{stem}.requirement.json")
        path, _f = QFileDialog.getSaveFileName(self, "Save requirement", start, REQUIREMENT_FILTER)
        if path:
            self.save(Path(path))

    def save(self, path: Path) -> bool:
        if not path.name.endswith((".json", ".yaml", ".yml")):
            path = path.with_name(path.name + ".requirement.json")
        try:
            save_requirement(path, self.requirement(path.resolve().parent))
        except (ValueError, RequirementFileError) as exc:
            self._say(str(exc), error=True)
            return False
        self._say(f"Saved {path}", error=False)
        return True
