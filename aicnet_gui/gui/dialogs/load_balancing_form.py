"""The fabric's load-balancing mode in the settings dialog, with what its hardware runs of it.

`Settings.load_balancing` (static ECMP hashing, flowlet load balancing, adaptive routing,
packet spraying) is what the fabric asks its switches for; each switch runs it only when its
vendor documents it, and the per-packet modes need NICs that place out-of-order packets on
Ethernet (analysis/load_balancing.py).  This form offers the four modes and says, for this
design's switches and NICs and the technology chosen in the dialog, what each really runs
(editing/load_balancing_choice.py, computed in the background on a snapshot: the dialog opens
at once on a big design): the switch models and the modes their vendors document, whether the
servers' NICs reorder, and for the mode chosen what the switches run and why not the mode
asked.  The traffic model (Workloads dock, `aicnet traffic`) routes by the same.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QGroupBox, QLabel, QVBoxLayout, QWidget

from ...analysis.load_balancing import NAMES
from ...editing.load_balancing_choice import Support, support
from ...editing.units import counted
from ...model.document import FabricDocument
from ...model.load_balancing_modes import MODES
from ..validation import snapshot
from ..workers.background import BackgroundJob

GREY = "color: #52606d;"
WARN = "color: #b35c00;"


def mode_title(mode: str) -> str:
    name = NAMES[mode]
    return name[:1].upper() + name[1:]


class LoadBalancingForm(QGroupBox):
    """Choose `Settings.load_balancing`; see what the switches and NICs run of each mode."""

    #: the mode chosen changed
    changed = Signal()
    #: what the hardware runs is known (shown)
    support_ready = Signal()

    def __init__(self, doc: FabricDocument, technology: str, parent: QWidget | None = None) -> None:
        super().__init__("Load balancing", parent)
        self.technology = technology
        self.support: Support | None = None
        layout = QVBoxLayout(self)
        self.combo = QComboBox()
        for mode in MODES:
            self.combo.addItem(mode_title(mode), mode)
        self.combo.setCurrentIndex(max(self.combo.findData(doc.settings.load_balancing), 0))
        self.combo.setToolTip("how the switches spread traffic over equal-cost paths; the "
                              "traffic model (Workloads dock) routes by what they really run")
        self.combo.currentIndexChanged.connect(lambda _i: self._on_changed())
        layout.addWidget(self.combo)
        self.outcome = QLabel()
        self.outcome.setWordWrap(True)
        layout.addWidget(self.outcome)
        self.hardware = QLabel("checking what the switches and NICs run…")
        self.hardware.setWordWrap(True)
        self.hardware.setStyleSheet(GREY)
        layout.addWidget(self.hardware)
        snap = snapshot(doc)
        self._job = BackgroundJob(lambda: support(snap), "aicnet-load-balancing", self)
        self._job.finished.connect(self._on_support)
        self._job.failed.connect(self._on_failed)
        self._job.start()

    # ---------------------------------------------------------------- the value
    def value(self) -> str:
        return self.combo.currentData()

    def set_value(self, mode: str) -> None:
        index = self.combo.findData(mode)
        if index >= 0:
            self.combo.setCurrentIndex(index)

    def set_technology(self, technology: str) -> None:
        """The dialog's technology changed: the NICs' limit may too."""
        self.technology = technology
        self._show()

    def _on_changed(self) -> None:
        self._show()
        self.changed.emit()

    # ---------------------------------------------------------------- what runs
    def _on_support(self, found: Support) -> None:
        self.support = found
        self._show()
        self.support_ready.emit()

    def _on_failed(self, exc: object) -> None:
        self.hardware.setText(f"could not check the switches and NICs: {exc}")

    def _show(self) -> None:
        found = self.support
        if found is None:
            return
        technology = str(getattr(self.technology, "value", self.technology))
        for index in range(self.combo.count()):
            mode = self.combo.itemData(index)
            outcome = found.outcome(technology, mode)
            runs = ", ".join(NAMES[m] for m in outcome.runs)
            self.combo.setItemText(index, mode_title(mode) if outcome.as_asked else
                                   f"{mode_title(mode)} (the switches run {runs})")
        outcome = found.outcome(technology, self.value())
        if outcome.as_asked:
            self.outcome.setStyleSheet("color: #2b8a3e;")
            self.outcome.setText(f"Every fabric switch runs {NAMES[outcome.mode]}.")
        else:
            self.outcome.setStyleSheet(WARN)
            self.outcome.setText("<br>".join(outcome.reasons) or
                                 f"The switches run {', '.join(NAMES[m] for m in outcome.runs)}.")
        lines = []
        for switch in found.switches:
            documented = (", ".join(NAMES[m] for m in MODES
                                    if m in switch.documented or m == "ecmp")
                          if switch.documented is not None else
                          "not stated by the catalog (taken to hash)")
            lines.append(f"{switch.name} ({counted(switch.switches, 'switch')}): {documented}")
        for nic in found.nics:
            if technology == "infiniband":  # ConnectX-5 and later (MLNX_OFED, OOO placement)
                reorders = "InfiniBand: ConnectX-5 and later place out-of-order packets"
            else:
                reorders = {True: "place packets that arrive out of order",
                            False: "not known to place out-of-order packets on Ethernet",
                            None: "out-of-order placement on Ethernet not stated"}[nic.reorders]
            lines.append(f"{nic.name} NICs ({counted(nic.servers, 'server')}): {reorders}")
        self.hardware.setText("<br>".join(lines) if lines else
                              "No fabric switches or GPU servers yet.")
        for label in (self.outcome, self.hardware):  # word-wrapped: their height follows the text
            label.updateGeometry()
        self.updateGeometry()

    def outcome_text(self) -> str:
        return self.outcome.text()
