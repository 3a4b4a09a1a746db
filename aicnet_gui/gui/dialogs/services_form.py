"""The fabric services part of Fabric > Settings: where the InfiniBand subnet manager runs and
the firmware baseline of each firmware family (lists and mappings the generated form skips).

Subnet managers are typed as device names, master first, separated by commas; firmware
baselines as `family = version` pairs separated by commas (`quantum-2 = 31.2012.1068`).
`values()` gives the settings values (device ids, a dict) or raises ValueError naming the entry
it cannot read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit, QWidget

if TYPE_CHECKING:
    from ...model.document import FabricDocument


class ServicesForm(QWidget):
    """Subnet managers and firmware baselines as two text fields."""

    def __init__(self, doc: FabricDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        settings = doc.settings
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        self.subnet_managers = QLineEdit(", ".join(
            doc.devices[d].name if d in doc.devices else d for d in settings.subnet_managers))
        self.subnet_managers.setPlaceholderText("e.g. spine-01, spine-02 (master first)")
        self.subnet_managers.setToolTip(
            "InfiniBand: devices running the subnet manager, master first, then standbys")
        self.firmware = QLineEdit(", ".join(f"{k} = {v}" for k, v in settings.firmware_baselines.items()))
        self.firmware.setPlaceholderText("e.g. quantum-2 = 31.2012.1068 (unset: newest seen)")
        self.firmware.setToolTip("firmware baseline per firmware family (catalog firmware_family) "
                                 "or device model id")
        form.addRow(QLabel("Subnet managers"), self.subnet_managers)
        form.addRow(QLabel("Firmware baselines"), self.firmware)

    def values(self) -> dict[str, object]:
        by_name = {d.name: d.id for d in self.doc.devices.values()}
        managers = []
        for part in self.subnet_managers.text().split(","):
            name = part.strip()
            if not name:
                continue
            device_id = by_name.get(name, name if name in self.doc.devices else None)
            if device_id is None:
                raise ValueError(f"subnet managers: no device is named {name!r}")
            managers.append(device_id)
        baselines: dict[str, str] = {}
        for part in self.firmware.text().split(","):
            if not part.strip():
                continue
            family, sep, version = part.partition("=")
            if not sep or not family.strip() or not version.strip():
                raise ValueError(f"firmware baselines: {part.strip()!r} is not 'family = version'")
            baselines[family.strip()] = version.strip()
        return {"subnet_managers": managers, "firmware_baselines": baselines}
