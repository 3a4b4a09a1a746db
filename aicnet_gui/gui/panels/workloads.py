"""The workloads dock: what runs on the fabric, and what the fabric gives it.

Create a training, inference or storage workload, pick its servers from the canvas selection or
by rule (scalable unit, pod, rack, rail), choose its pattern (ring all-reduce or all-to-all), its
target bandwidth per GPU, message size and NCCL all-reduce algorithm (ring, tree, CollNet = IB
SHARP, NVLS); when the fabric cannot run the algorithm chosen, the estimate falls back to the
ring and the dock says why next to the choice.  The live validation's numbers for it follow every
edit: bandwidth per GPU (and through each tier), bisection bandwidth, the all-reduce estimate
and the bottleneck, which the canvas highlights together with the workload's servers.  Below
them the traffic section (traffic_section.py) shows the workload's collective routed by each
load-balancing mode the fabric runs (gui/traffic_panel.py computes it).  Every change is one
undo step through the editor.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QDoubleSpinBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...analysis import AnalysisReport
from ...analysis.collectives import NCCL_NAMES
from ...editing import workload_rules
from ...editing.units import counted, natural_key
from ...model.fabric import WORKLOAD_KIND_TITLES, WorkloadKind
from .. import resources
from ..editor import Editor
from .forms import form, on_commit, on_screen, section
from .metrics import gbps
from .traffic_section import TrafficSection

PATTERNS = {"ring-allreduce": "Ring all-reduce", "all-to-all": "All-to-all"}
PLACEMENTS = {"topology-aware": "Ranks in topology order", "scattered": "Ranks scattered"}
#: NCCL all-reduce algorithms of the estimate (`Workload.algorithm`, analysis/collectives.py)
ALGORITHMS = {"auto": "NCCL's choice (its tuning model)", "ring": "Ring",
              "tree": "Tree (double binary tree)",
              "collnet": "CollNet: InfiniBand SHARP", "nvls": "NVLS: NVLink SHARP + IB SHARP"}
ALGORITHM_TIPS = {
    "auto": "what NCCL runs with NCCL_ALGO unset: the fastest algorithm of its tuning model for "
            "the message and job size (ring, tree, NVLS tree; SHARP only when chosen)",
    "ring": "NCCL's ring: what nccl-tests measures a network with",
    "tree": "NCCL's double binary tree: fewer network steps, no faster for large messages",
    "collnet": "IB SHARP through the NCCL-SHARP plugin: each byte goes up the switches' "
               "aggregation tree once; needs InfiniBand (Quantum HDR or later)",
    "nvls": "NVLink SHARP inside each NVSwitch domain + IB SHARP across them; needs "
            "InfiniBand and NVSwitch servers",
}


def bisection_text(metrics) -> str:  # noqa: ANN001
    """The bisection bandwidth (the worst cut, the other beside it); on a multi-plane fabric also
    each plane's (its own fat tree)."""
    text = gbps(metrics.bisection_gbps)
    if metrics.cuts is not None:
        text += "<br>" + metrics.cuts.cuts_text(gbps)
    if metrics.plane_bisection:
        text += "<br>per plane: " + ", ".join(
            f"plane {plane} {gbps(value)}" for plane, value in metrics.plane_bisection)
    return text


def allreduce_text(metrics) -> str:  # noqa: ANN001
    """The all-reduce estimate in words: time, message, algorithm and nccl-tests' busBW."""
    if metrics.allreduce_ms is None:
        return "not applicable"
    name = NCCL_NAMES.get(metrics.algorithm, metrics.algorithm)
    text = (f"{metrics.allreduce_ms:.2f} ms for {metrics.message_mb:g} MB "
            f"(NCCL {name}{'/' + metrics.protocol if metrics.protocol else ''})")
    if metrics.allreduce_bus_gbps is not None:
        text += (f"<br>bus bandwidth {metrics.allreduce_bus_gbps / 8:,.0f} GB/s "
                 "(nccl-tests' busBW)")
    return text


def fallback_reason(wanted: str, metrics) -> str | None:  # noqa: ANN001
    """Why the estimate of `metrics` runs another algorithm than the workload's `wanted` one
    (the analysis's assumption line), or None when it runs the one chosen."""
    return next((a for a in metrics.assumptions if a.startswith(f"{wanted} asked")), None)


class WorkloadsDock(QDockWidget):
    """Workloads of the fabric, their servers and their bandwidth."""

    #: the canvas selection is asked for (the window answers with `selected_servers`)
    selection_requested = Signal()
    #: highlight (members, bottleneck switch id or None) on the canvas; empty to clear
    highlight = Signal(object, object)
    #: select and centre these ids
    show_objects = Signal(object)
    #: the workload shown in the dock changed or was edited (its id, or None)
    workload_shown = Signal(object)

    def __init__(self, editor: Editor, selected_servers, parent=None) -> None:  # noqa: ANN001
        super().__init__("Workloads", parent)
        self.setObjectName("workloads-dock")
        self.editor = editor
        self._selected_servers = selected_servers
        self.report: AnalysisReport | None = None
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(6)
        self._build_list(layout)
        self.details = QWidget()
        details = QVBoxLayout(self.details)
        details.setContentsMargins(0, 0, 0, 0)
        self._build_fields(details)
        self._build_servers(details)
        self._build_results(details)
        layout.addWidget(self.details)
        layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        self.setWidget(scroll)
        self._scroll = scroll
        editor.document.changed.connect(self._on_changed)
        editor.document.reset.connect(self.refresh)
        self.visibilityChanged.connect(self._on_visibility)
        self.refresh()

    def _build_list(self, layout: QVBoxLayout) -> None:
        """The New (a menu of kinds) and Delete buttons over the list of workloads."""
        top = QHBoxLayout()
        self.new_button = QToolButton()
        self.new_button.setText("New")
        self.new_button.setIcon(resources.icon("workload"))
        self.new_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.new_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.new_button)
        for kind, title in WORKLOAD_KIND_TITLES.items():
            action = menu.addAction(f"{title} workload")
            action.triggered.connect(lambda _c=False, k=kind: self.create(k))
        self.new_button.setMenu(menu)
        self.new_button.setToolTip("A new workload on the selected servers (all servers if none)")
        top.addWidget(self.new_button)
        self.delete_button = QPushButton(resources.icon("delete"), "Delete")
        self.delete_button.clicked.connect(self.delete_current)
        top.addWidget(self.delete_button)
        top.addStretch(1)
        layout.addLayout(top)
        self.list = QListWidget()
        self.list.setMaximumHeight(110)
        self.list.currentItemChanged.connect(lambda *_: self._show_current())
        layout.addWidget(self.list)

    def _build_fields(self, details: QVBoxLayout) -> None:
        """The workload's own fields: name, kind, pattern, placement, target, message size and
        the all-reduce algorithm (with why the estimate runs another)."""
        fields = form()
        self.name = QLineEdit()
        on_commit(self.name, self._commit_name)
        self.kind = QComboBox()
        for kind, title in WORKLOAD_KIND_TITLES.items():
            self.kind.addItem(title, kind)
        self.kind.currentIndexChanged.connect(
            lambda: self._update({"kind": WorkloadKind(self.kind.currentData())}, "Set workload kind"))
        self.pattern = QComboBox()
        for pattern, title in PATTERNS.items():
            self.pattern.addItem(title, pattern)
        self.pattern.currentIndexChanged.connect(
            lambda: self._update({"pattern": self.pattern.currentData()}, "Set traffic pattern"))
        self.placement = QComboBox()
        for placement, title in PLACEMENTS.items():
            self.placement.addItem(title, placement)
        self.placement.currentIndexChanged.connect(
            lambda: self._update({"placement": self.placement.currentData()}, "Set rank placement"))
        self.target = QDoubleSpinBox()
        self.target.setRange(0, 100_000)
        self.target.setDecimals(0)
        self.target.setSuffix(" Gb/s per GPU")
        self.target.setSpecialValueText("no target")
        self.target.setKeyboardTracking(False)
        self.target.valueChanged.connect(
            lambda v: self._update({"target_gbps_per_gpu": v or None}, "Set bandwidth target"))
        self.message = QDoubleSpinBox()
        self.message.setRange(0, 1_000_000)
        self.message.setDecimals(0)
        self.message.setSuffix(" MB")
        self.message.setSpecialValueText("fabric default")
        self.message.setKeyboardTracking(False)
        self.message.valueChanged.connect(
            lambda v: self._update({"message_mb": v or None}, "Set all-reduce message size"))
        fields.addRow("Name", self.name)
        fields.addRow("Kind", self.kind)
        fields.addRow("Pattern", self.pattern)
        fields.addRow("Placement", self.placement)
        self.algorithm = QComboBox()
        for algorithm, title in ALGORITHMS.items():
            self.algorithm.addItem(title, algorithm)
            self.algorithm.setItemData(self.algorithm.count() - 1, ALGORITHM_TIPS[algorithm],
                                       Qt.ItemDataRole.ToolTipRole)
        self.algorithm.currentIndexChanged.connect(
            lambda: self._update({"algorithm": self.algorithm.currentData()},
                                 "Set all-reduce algorithm"))
        # why the estimate runs another algorithm than the one chosen (the analysis's fallback)
        self.algorithm_note = QLabel()
        self.algorithm_note.setWordWrap(True)
        self.algorithm_note.setStyleSheet("color: #b35c00;")
        self.algorithm_note.setVisible(False)
        fields.addRow("Target", self.target)
        fields.addRow("Message", self.message)
        fields.addRow("All-reduce", self.algorithm)
        fields.addRow("", self.algorithm_note)
        details.addLayout(fields)

    def _build_servers(self, details: QVBoxLayout) -> None:
        """Its servers: from the canvas selection, or picked by a rule."""
        details.addWidget(section("Servers"))
        self.members = QLabel()
        details.addWidget(self.members)
        picks = QHBoxLayout()
        for text, how, tip in (("Use selection", "set", "the workload runs on the selected servers"),
                               ("Add", "add", "add the selected servers"),
                               ("Remove", "remove", "remove the selected servers")):
            button = QPushButton(text)
            button.setToolTip(tip)
            button.clicked.connect(lambda _c=False, h=how: self.members_from_selection(h))
            picks.addWidget(button)
        details.addLayout(picks)
        rule_row = QHBoxLayout()
        self.rule = QComboBox()
        for rule, title in workload_rules.RULES.items():
            self.rule.addItem(title, rule)
        self.rule.currentIndexChanged.connect(self._fill_rule_values)
        self._rules_filled = False
        self.rule_value = QComboBox()
        self.rule_value.setMinimumWidth(90)
        self.apply_rule_button = QPushButton("Apply rule")
        self.apply_rule_button.setToolTip("replace the servers with the ones the rule picks")
        self.apply_rule_button.clicked.connect(self.apply_rule)
        rule_row.addWidget(self.rule, 1)
        rule_row.addWidget(self.rule_value, 1)
        rule_row.addWidget(self.apply_rule_button)
        details.addLayout(rule_row)

    def _build_results(self, details: QVBoxLayout) -> None:
        """What the fabric gives it (the live validation's numbers), the bottleneck button and
        the traffic section."""
        details.addWidget(section("What the fabric gives it"))
        grid = QGridLayout()
        grid.setHorizontalSpacing(10)
        self.values: dict[str, QLabel] = {}
        for row, (key, title) in enumerate((("per_gpu", "Bandwidth per GPU"),
                                            ("tiers", "Through each tier"),
                                            ("bisection", "Bisection bandwidth"),
                                            ("allreduce", "All-reduce estimate"),
                                            ("bottleneck", "Bottleneck"))):
            label = QLabel(title)
            label.setStyleSheet("color: #616e7c;")
            value = QLabel("–")
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(label, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(value, row, 1)
            self.values[key] = value
        grid.setColumnStretch(1, 1)
        details.addLayout(grid)
        self.show_bottleneck = QPushButton(resources.icon("fit"), "Show bottleneck")
        self.show_bottleneck.clicked.connect(self._show_bottleneck)
        details.addWidget(self.show_bottleneck)
        self.traffic = TrafficSection()
        details.addWidget(self.traffic)

    def scroll_to(self, widget: QWidget) -> None:
        """Scroll the dock so that `widget` (a part of it) starts at its top."""
        self._scroll.widget().adjustSize()
        top = widget.mapTo(self._scroll.widget(), widget.rect().topLeft()).y()
        self._scroll.verticalScrollBar().setValue(top)

    # ---------------------------------------------------------------- the list
    def current_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def select(self, workload_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == workload_id:
                self.list.setCurrentRow(row)
                return

    def refresh(self) -> None:
        doc = self.editor.doc
        current = self.current_id()
        with QSignalBlocker(self.list):
            self.list.clear()
            for workload in sorted(doc.workloads.values(), key=lambda w: natural_key(w.name)):
                item = QListWidgetItem(resources.icon("workload"),
                                       f"{workload.name}  ·  {counted(len(workload.members), 'server')}")
                item.setData(Qt.ItemDataRole.UserRole, workload.id)
                self.list.addItem(item)
        if current in doc.workloads:
            with QSignalBlocker(self.list):
                self.select(current)
        elif self.list.count():
            with QSignalBlocker(self.list):
                self.list.setCurrentRow(0)
        self._rules_filled = False
        if on_screen(self):
            self._fill_rule_values()
        self._show_current()

    def _on_visibility(self, visible: bool) -> None:
        if visible and not self._rules_filled:
            self._fill_rule_values()

    def _on_changed(self, changes) -> None:  # noqa: ANN001
        if changes.workloads or changes.reset:
            self.refresh()

    # ---------------------------------------------------------------- one workload
    def _show_current(self) -> None:
        doc = self.editor.doc
        workload = doc.workloads.get(self.current_id() or "")
        self.details.setEnabled(workload is not None)
        self.delete_button.setEnabled(workload is not None)
        if workload is None:
            self.members.setText("No workload yet: New ▸ Training workload")
            for value in self.values.values():
                value.setText("–")
            self._show_fallback(None)
            self.highlight.emit(set(), None)
            self.workload_shown.emit(None)
            return
        with QSignalBlocker(self.name):
            self.name.setText(workload.name)
        for combo, value in ((self.kind, workload.kind.value), (self.pattern, workload.pattern),
                             (self.placement, workload.placement),
                             (self.algorithm, workload.algorithm)):
            with QSignalBlocker(combo):
                combo.setCurrentIndex(max(combo.findData(value), 0))
        with QSignalBlocker(self.target):
            self.target.setValue(workload.target_gbps_per_gpu or 0)
        with QSignalBlocker(self.message):
            self.message.setValue(workload.message_mb or 0)
        devices = doc.devices
        per_model = {model_id: model.gpus for model_id, model in doc.catalog.devices.items()}
        gpus = sum(per_model.get(devices[m].model, 0) for m in workload.members if m in devices)
        self.members.setText(f"{counted(len(workload.members), 'server')}, {counted(gpus, 'GPU')}")
        self._show_metrics()
        self.workload_shown.emit(workload.id)

    def set_report(self, report: AnalysisReport) -> None:
        self.report = report
        self._show_metrics()

    def metrics(self):  # noqa: ANN201
        """The validation's WorkloadMetrics of the current workload, or None."""
        workload_id = self.current_id()
        if self.report is None or workload_id is None:
            return None
        for metrics in self.report.metrics.workloads:
            if metrics.id == workload_id:
                return metrics
        return None

    def _show_metrics(self) -> None:
        workload = self.editor.doc.workloads.get(self.current_id() or "")
        metrics = self.metrics()
        if workload is None:
            return
        if metrics is None:
            for value in self.values.values():
                value.setText("validating…")
            self._show_fallback(None)
            self.highlight.emit(set(workload.members), None)
            return
        target = metrics.target_gbps_per_gpu
        per_gpu = f"{gbps(metrics.per_gpu_gbps)} ({PATTERNS.get(metrics.pattern, metrics.pattern)})"
        per_gpu += f" of {gbps(metrics.injection_gbps_per_gpu)} injected"
        if metrics.pattern == "ring-allreduce":
            per_gpu += (f"<br>ring, ranks in topology order: {gbps(metrics.ring_gbps_per_gpu)}; "
                        f"scattered: {gbps(metrics.ring_scattered_gbps_per_gpu)}")
        if target:
            ok = metrics.per_gpu_gbps + 1e-9 >= target
            colour = "#2b8a3e" if ok else "#c92a2a"
            per_gpu += f"<br><span style='color:{colour}'>{'meets' if ok else 'misses'} the target of {gbps(target)}</span>"
        self.values["per_gpu"].setText(per_gpu)
        self.values["tiers"].setText(", ".join(f"{tier}: {gbps(v)}" for tier, v in metrics.tiers) or "–")
        self.values["bisection"].setText(bisection_text(metrics))
        self.values["per_gpu"].setToolTip("Assumes:\n" + "\n".join(f"- {a}" for a in metrics.assumptions))
        self.values["allreduce"].setText(allreduce_text(metrics))
        self.values["allreduce"].setToolTip(next(
            (a for a in metrics.assumptions if a.startswith("all-reduce:")), ""))
        self._show_fallback(fallback_reason(workload.algorithm, metrics))
        if metrics.bottleneck_name:
            self.values["bottleneck"].setText(f"{metrics.bottleneck_tier} tier · {metrics.bottleneck_name}")
        elif metrics.bottleneck_tier == "partitioned":
            self.values["bottleneck"].setText(
                "the fabric: its GPUs sit on switch islands with no path between them")
        elif metrics.bottleneck_tier == "server":
            self.values["bottleneck"].setText("the servers' NICs: the fabric is not the limit")
        else:
            self.values["bottleneck"].setText(f"{metrics.bottleneck_tier} tier")
        if metrics.unconnected_servers:
            self.values["bottleneck"].setText(self.values["bottleneck"].text()
                                              + f" ({counted(metrics.unconnected_servers, 'server')} not cabled)")
        self.show_bottleneck.setEnabled(bool(metrics.bottleneck_switch))
        self.highlight.emit(set(workload.members), metrics.bottleneck_switch)

    def _show_fallback(self, reason: str | None) -> None:
        """Say next to the algorithm why the estimate runs another one (None: it does not)."""
        self.algorithm_note.setText(reason or "")
        self.algorithm_note.setVisible(bool(reason))
        current = self.algorithm.currentData()
        self.algorithm.setToolTip(reason or ALGORITHM_TIPS.get(current, ""))

    def emit_highlight(self) -> None:
        """Tell the canvas what to highlight for the current workload (again)."""
        workload = self.editor.doc.workloads.get(self.current_id() or "")
        if workload is None:
            self.highlight.emit(set(), None)
            return
        metrics = self.metrics()
        self.highlight.emit(set(workload.members), metrics.bottleneck_switch if metrics else None)

    def _show_bottleneck(self) -> None:
        metrics = self.metrics()
        if metrics is not None and metrics.bottleneck_switch:
            self.show_objects.emit([metrics.bottleneck_switch])

    # ---------------------------------------------------------------- edits (one undo step each)
    def _update(self, changes: dict, text: str) -> None:
        workload_id = self.current_id()
        if workload_id is not None:
            self.editor.update_workload(workload_id, changes, text)

    def _commit_name(self, text: str) -> None:
        if text.strip():
            self._update({"name": text.strip()}, "Rename workload")
        else:
            self._show_current()

    def create(self, kind: str) -> str | None:
        """A new workload on the selected servers, or on every server when none is selected."""
        doc = self.editor.doc
        members = self._selected_servers() or workload_rules.servers(doc, "all", "")
        workload_id = self.editor.add_workload(kind, members)
        if workload_id is not None:
            self.refresh()
            self.select(workload_id)
        return workload_id

    def delete_current(self) -> None:
        workload_id = self.current_id()
        if workload_id is not None:
            self.editor.remove_workload(workload_id)

    def members_from_selection(self, how: str) -> bool:
        workload = self.editor.doc.workloads.get(self.current_id() or "")
        if workload is None:
            return False
        picked = self._selected_servers()
        if not picked:
            return self.editor.refuse("Select servers on the canvas first")
        if how == "set":
            members = list(picked)
        elif how == "add":
            members = workload.members + [d for d in picked if d not in workload.members]
        else:
            members = [d for d in workload.members if d not in set(picked)]
        verb = {"set": "Set", "add": "Add", "remove": "Remove"}[how]
        return self.editor.update_workload(workload.id, {"members": members},
                                           f"{verb} servers of {workload.name}")

    def _fill_rule_values(self) -> None:
        self._rules_filled = True
        rule = self.rule.currentData()
        with QSignalBlocker(self.rule_value):
            self.rule_value.clear()
            for value, label in workload_rules.choices(self.editor.doc, rule):
                self.rule_value.addItem(label, value)
        self.rule_value.setEnabled(rule != "all")

    def apply_rule(self) -> bool:
        if not self._rules_filled:
            self._fill_rule_values()
        workload = self.editor.doc.workloads.get(self.current_id() or "")
        if workload is None:
            return False
        rule = self.rule.currentData()
        value = self.rule_value.currentData() or ""
        members = workload_rules.servers(self.editor.doc, rule, value)
        if not members:
            return self.editor.refuse("The rule picks no server")
        label = self.rule_value.currentText() if rule != "all" else "all servers"
        return self.editor.update_workload(workload.id, {"members": members},
                                           f"Servers of {workload.name}: {label}")
