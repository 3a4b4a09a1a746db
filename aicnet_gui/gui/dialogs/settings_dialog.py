"""Fabric > Settings: every project setting of the `.fabric` file in one dialog.

Tabs: General (name, author, revision, description, site and label profile), Network
(technology, MTU, lossless options, ECMP, the load-balancing mode with what this design's
switches and NICs run of it (load_balancing_form.py), spares, all-reduce message size),
Oversubscription targets per workload kind, Cable lengths (the estimate's parameters), Naming
patterns per role and the Design notes printed in the design report.  The numeric tabs are rendered from the
pydantic models (`ModelForm`), so a new setting shows up here by itself.

OK checks the whole result with the same pydantic models the file uses and applies the changes
as ONE undo step; a value that does not validate keeps the dialog open and says which field and
why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...generators.errors import GeneratorError
from ...generators.naming import names
from ...model.catalog import Catalog
from ...model.edits import Operation, UpdateMetadata, UpdateSettings
from ...model.fabric import LengthEstimation, Metadata, Notes, OversubscriptionTargets, Settings
from ...model.network_defaults import network_defaults
from .. import theme
from .load_balancing_form import LoadBalancingForm
from .model_form import ModelForm
from .port_os_form import PortOsForm
from .services_form import ServicesForm

if TYPE_CHECKING:
    from ...model.document import FabricDocument

#: Settings fields that have a tab (or a place on General) of their own
_OWN_TABS = ("oversubscription", "lengths", "naming", "notes", "site", "label_profile", "port_os",
             "load_balancing")

ROLE_TITLES = {
    "gpu_server": "GPU servers", "storage": "Storage servers", "leaf": "Leaf switches",
    "spine": "Spine switches", "core": "Core switches", "mgmt": "Management switches",
}

NOTE_TITLES = {
    "ecmp": "ECMP and routing", "optics_plan": "Optics plan", "nccl": "NCCL and collectives",
    "firmware": "Firmware", "growth": "Growth", "general": "General",
}


class SettingsError(ValueError):
    """A value in the dialog that the file's models refuse; the message names the field."""


def _scrolled(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(widget)
    return area


def _error_text(section: str, exc: ValidationError) -> str:
    first = exc.errors(include_url=False)[0]
    where = " › ".join(str(part).replace("_", " ") for part in first["loc"])
    return f"{section}: {where}: {first['msg']}"


def _diff(current: BaseModel, wanted: dict[str, Any]) -> dict[str, Any]:
    """The fields of `wanted` that differ from `current` (nested models compared as values)."""
    changes = {}
    for name, value in wanted.items():
        old = getattr(current, name)
        if isinstance(old, BaseModel):
            if old.model_dump() != (value.model_dump() if isinstance(value, BaseModel) else value):
                changes[name] = value
        elif old != value:
            changes[name] = value
    return changes


class NamingForm(QWidget):
    """One pattern per role, with the names it gives the first two devices."""

    def __init__(self, naming: dict[str, str]) -> None:
        super().__init__()
        self.original = dict(naming)
        form = QFormLayout(self)
        hint = QLabel("Use {n} for the number; {n:03d} pads it to three digits and widens "
                      "by itself when a fabric has more devices.")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #52606d;")
        form.addRow(hint)
        self.edits: dict[str, QLineEdit] = {}
        self.previews: dict[str, QLabel] = {}
        for role in dict.fromkeys([*ROLE_TITLES, *naming]):
            edit = QLineEdit(naming.get(role, ""))
            preview = QLabel()
            preview.setStyleSheet("color: #52606d;")
            edit.textChanged.connect(lambda _t, r=role: self._preview(r))
            self.edits[role] = edit
            self.previews[role] = preview
            form.addRow(ROLE_TITLES.get(role, role.replace("_", " ")), edit)
            form.addRow("", preview)
            self._preview(role)

    def _preview(self, role: str) -> None:
        pattern = self.edits[role].text().strip()
        if not pattern:
            self.previews[role].setText("default: role name and number")
            return
        try:
            first, second = names(pattern, 2)
        except GeneratorError as exc:
            self.previews[role].setText(f"⚠ {exc}")
            return
        self.previews[role].setText(f"{first}, {second}, …")

    def values(self) -> dict[str, str]:
        """The patterns, checked: a SettingsError names the first role whose pattern is unusable.
        A pattern left as it was comes back unchanged; a cleared one is dropped."""
        naming = {}
        for role, edit in self.edits.items():
            if role in self.original and edit.text() == self.original[role]:
                naming[role] = self.original[role]
                continue
            pattern = edit.text().strip()
            if not pattern:
                continue
            try:
                names(pattern, 2)
            except GeneratorError as exc:
                raise SettingsError(f"Naming: {ROLE_TITLES.get(role, role)}: {exc}") from None
            naming[role] = pattern
        return naming


class NotesForm(QWidget):
    """The free-text sections of the design report."""

    def __init__(self, notes: Notes) -> None:
        super().__init__()
        form = QFormLayout(self)
        hint = QLabel("Printed in the design report of the cabling plan (File › Export).")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #52606d;")
        form.addRow(hint)
        self.original = notes
        self.edits: dict[str, QPlainTextEdit] = {}
        for name in Notes.model_fields:
            edit = QPlainTextEdit(getattr(notes, name))
            edit.setTabChangesFocus(True)
            edit.setFixedHeight(76)
            self.edits[name] = edit
            form.addRow(NOTE_TITLES.get(name, name.replace("_", " ").capitalize()), edit)

    def values(self) -> dict[str, str]:
        """The notes; one left as it was comes back unchanged, an edited one without trailing
        blank lines."""
        values = {}
        for name, edit in self.edits.items():
            text, before = edit.toPlainText(), getattr(self.original, name)
            values[name] = before if text == before else text.rstrip()
        return values


class FabricSettingsDialog(QDialog):
    """Edit metadata and settings; `operations()` gives what OK should apply."""

    def __init__(self, doc: FabricDocument, catalog: Catalog, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Fabric settings")
        self.resize(620, 560)
        self.doc = doc
        self.result_ops: list[Operation] = []
        settings = doc.settings
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs, 1)

        self.general = ModelForm(Metadata, catalog, skip=("created", "modified"))
        self.general.set_values(doc.metadata.model_dump())
        self.place = ModelForm(Settings, catalog, skip=tuple(
            name for name in Settings.model_fields if name not in ("site", "label_profile")))
        self.place.set_values({"site": settings.site, "label_profile": settings.label_profile})
        general = QWidget()
        general_layout = QVBoxLayout(general)
        general_layout.addWidget(self.general)
        general_layout.addWidget(self.place)
        general_layout.addStretch(1)
        self.tabs.addTab(general, "General")

        self.network = ModelForm(Settings, catalog, skip=_OWN_TABS)
        self.network.set_values(settings.model_dump())
        self._technology = settings.technology
        self.network.changed.connect(self._on_network_changed)
        self.technology_note = QLabel()
        self.technology_note.setWordWrap(True)
        self.technology_note.setStyleSheet("color: #1864ab;")
        self.technology_note.hide()
        self.services = ServicesForm(doc)
        self.load_balancing = LoadBalancingForm(doc, settings.technology)
        network = QWidget()
        network_layout = QVBoxLayout(network)
        network_layout.addWidget(self.technology_note)
        network_layout.addWidget(self.network)
        network_layout.addWidget(self.services)
        network_layout.addWidget(self.load_balancing)
        network_layout.addStretch(1)
        self.tabs.addTab(_scrolled(network), "Network")

        self.targets = ModelForm(OversubscriptionTargets, catalog)
        self.targets.set_values(settings.oversubscription.model_dump())
        targets = QWidget()
        targets_layout = QVBoxLayout(targets)
        hint = QLabel("Highest acceptable downlink:uplink ratio per workload kind (1.00 is 1:1, "
                      "non-blocking). The validator flags switches above the target of the "
                      "workloads they carry.")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #52606d;")
        targets_layout.addWidget(hint)
        targets_layout.addWidget(self.targets)
        targets_layout.addStretch(1)
        self.tabs.addTab(targets, "Oversubscription")

        self.lengths = ModelForm(LengthEstimation, catalog)
        self.lengths.set_values(settings.lengths.model_dump())
        self.tabs.addTab(_scrolled(self.lengths), "Cable lengths")

        self.naming = NamingForm(settings.naming)
        self.tabs.addTab(_scrolled(self.naming), "Naming")
        self.notes = NotesForm(settings.notes)
        self.tabs.addTab(_scrolled(self.notes), "Design notes")
        self.port_os = PortOsForm(doc, catalog)
        self.tabs.addTab(_scrolled(self.port_os), "Port names")

        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c92a2a;")
        self.error.hide()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _on_network_changed(self) -> None:
        """Another technology chosen: its network defaults fill MTU, PFC, ECN, DCB and ECMP
        (model/network_defaults.py), and a note says so; the user may change them before OK."""
        technology = self.network.values().get("technology")
        if technology is None or technology == self._technology:
            return
        self._technology = technology
        defaults = network_defaults(technology)
        self.network.blockSignals(True)
        self.network.set_values(defaults)
        self.network.blockSignals(False)
        self.load_balancing.set_technology(technology)
        self.load_balancing.set_value(defaults["load_balancing"])
        title = theme.TECH_TITLES.get(technology.value, technology.value)
        lossless = [name.upper() for name in ("pfc", "ecn", "dcb") if defaults[name]]
        self.technology_note.setText(
            f"{title}'s defaults are filled in: MTU {defaults['mtu']}, "
            + (", ".join(lossless) + " on" if lossless else "no PFC, ECN or DCB")
            + f", ECMP {defaults['ecmp_policy']}, load balancing "
            + f"{defaults['load_balancing']}. Change them here if your fabric differs.")
        self.technology_note.show()

    # ---------------------------------------------------------------- result
    def wanted_settings(self) -> dict[str, Any]:
        values = {**self.network.values(), **self.place.values(),
                  "load_balancing": self.load_balancing.value()}
        try:
            values.update(self.services.values())
        except ValueError as exc:
            raise SettingsError(f"Network: {exc}") from None
        values["oversubscription"] = self.targets.values()
        values["lengths"] = self.lengths.values()
        values["naming"] = self.naming.values()
        values["notes"] = self.notes.values()
        values["port_os"] = self.port_os.values()
        return values

    def operations(self) -> list[Operation]:
        """The edit OK applies (empty when nothing changed); SettingsError names a bad value."""
        metadata = self.general.values()
        settings = self.wanted_settings()
        try:
            Metadata.model_validate({**self.doc.metadata.model_dump(), **metadata})
        except ValidationError as exc:
            raise SettingsError(_error_text("General", exc)) from None
        try:
            checked = Settings.model_validate({**self.doc.settings.model_dump(), **settings})
        except ValidationError as exc:
            raise SettingsError(_error_text("Settings", exc)) from None
        ops: list[Operation] = []
        metadata_changes = _diff(self.doc.metadata, metadata)
        if metadata_changes:
            ops.append(UpdateMetadata(metadata_changes))
        settings_changes = _diff(self.doc.settings, {n: getattr(checked, n) for n in settings})
        if settings_changes:
            ops.append(UpdateSettings(settings_changes))
        return ops

    def accept(self) -> None:
        try:
            self.result_ops = self.operations()
        except SettingsError as exc:
            self.error.setText(str(exc))
            self.error.show()
            return
        super().accept()
