"""The full-mesh dialog: which tier is below, which above, and how many cables per pair."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...editing.units import counted
from ...model.document import FabricDocument
from ..theme import TIER_TITLES


def split_by_tier(doc: FabricDocument, device_ids: list[str]) -> dict[int, list[str]]:
    tiers: dict[int, list[str]] = {}
    for device_id in device_ids:
        if device_id in doc.devices:
            tiers.setdefault(doc.tier_of(device_id), []).append(device_id)
    return tiers


class FullMeshDialog(QDialog):
    """Choose the two tiers of the selection and the cables per device pair."""

    def __init__(self, doc: FabricDocument, device_ids: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Full mesh")
        self.tiers = split_by_tier(doc, device_ids)
        layout = QVBoxLayout(self)
        intro = QLabel("Connect every device of the lower tier to every device of the upper tier. "
                       "Switches take uplinks from their highest free ports, downlinks from the lowest.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        fields = QFormLayout()
        self.lower = QComboBox()
        self.upper = QComboBox()
        for tier in sorted(self.tiers):
            text = f"{TIER_TITLES.get(tier, tier)} ({len(self.tiers[tier])} selected)"
            self.lower.addItem(text, tier)
            self.upper.addItem(text, tier)
        ordered = sorted(self.tiers)
        if len(ordered) >= 2:
            self.lower.setCurrentIndex(len(ordered) - 2)
            self.upper.setCurrentIndex(len(ordered) - 1)
        self.per_pair = QSpinBox()
        self.per_pair.setRange(1, 64)
        self.per_pair.setValue(1)
        fields.addRow("Lower tier", self.lower)
        fields.addRow("Upper tier", self.upper)
        fields.addRow("Cables per pair", self.per_pair)
        layout.addLayout(fields)
        self.preview = QLabel()
        self.preview.setStyleSheet("color: #616e7c;")
        layout.addWidget(self.preview)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Connect")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        for signal in (self.lower.currentIndexChanged, self.upper.currentIndexChanged, self.per_pair.valueChanged):
            signal.connect(self._update_preview)
        self._update_preview()

    def choice(self) -> tuple[list[str], list[str], int]:
        return (self.tiers.get(self.lower.currentData(), []), self.tiers.get(self.upper.currentData(), []),
                self.per_pair.value())

    def _update_preview(self) -> None:
        lower, upper, k = self.choice()
        ok = self.lower.currentData() != self.upper.currentData() and lower and upper
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(ok))
        if ok:
            cables = counted(len(lower) * len(upper) * k, "cable")
            self.preview.setText(f"{len(lower)} × {len(upper)} pairs × {k} = {cables}")
        else:
            self.preview.setText("Choose two different tiers.")
