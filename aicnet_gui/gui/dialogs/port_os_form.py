"""Fabric settings › Port names: which operating system's port names each device model of the
design shows in exports (`Settings.port_os`, `model/port_names_os.py`)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QWidget

from ...model.catalog import Catalog
from ...model.document import FabricDocument
from ...model.port_names_os import OS_TITLES, PortNamer, default_os


class PortOsForm(QWidget):
    """One choice per device model used in the design: its default OS, or another naming the
    catalog has for it."""

    def __init__(self, doc: FabricDocument, catalog: Catalog) -> None:
        super().__init__()
        form = QFormLayout(self)
        hint = QLabel("Exports with port names \"os\" (aicnet export --port-names os) print ports "
                      "the way each model's operating system names them.")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #52606d;")
        form.addRow(hint)
        self.original = dict(doc.settings.port_os)
        namer = PortNamer(doc, fallback=catalog.devices)
        self.boxes: dict[str, QComboBox] = {}
        first_device: dict[str, str] = {}
        for device in doc.devices.values():
            first_device.setdefault(device.model, device.id)
        for model_id, device_id in sorted(first_device.items()):
            model = doc.catalog.device(model_id)
            local = catalog.devices.get(model_id)
            default = default_os(local if local is not None and local.default_os else model)
            box = QComboBox()
            box.addItem(f"default: {OS_TITLES.get(default, default)}", None)
            for os_name in namer.oses(device_id):
                box.addItem(OS_TITLES.get(os_name, os_name), os_name)
            chosen = self.original.get(model_id)
            if chosen is not None:
                box.setCurrentIndex(max(box.findData(chosen), 0))
            self.boxes[model_id] = box
            form.addRow(f"{model.vendor} {model.model}", box)
        if not self.boxes:
            form.addRow(QLabel("No devices yet."))

    def values(self) -> dict[str, str]:
        """model id -> OS for the models not left at their default (choices for models no
        longer in the design are kept)."""
        values = {k: v for k, v in self.original.items() if k not in self.boxes}
        for model_id, box in self.boxes.items():
            if box.currentData() is not None:
                values[model_id] = box.currentData()
        return values
