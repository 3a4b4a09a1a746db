"""Inspector page for one or several devices: name, model, rack and RU, firmware, tags, cages.

The cage tree has one row per cage group ("all 64 OSFP cages") whose mode, optic and FEC apply
to every cage of the group; expand it to set single cages.  Only breakout modes the cage
supports and optics that fit it (form factor, top, speed, breakout) are offered.  On Ethernet
fabrics each row also configures the FEC of its ports (`CageConfig.fec`, checked by
FEC-MISMATCH), showing the line's default when none is set; InfiniBand has no such choice.
The live validation's findings about the devices are listed under the cages.  The connection
list shows each port's cable; clicking one selects the cable on the canvas.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...analysis import AnalysisReport
from ...editing.cage_fec import FEC_CHOICES, fec_settable, fec_texts
from ...editing.compat import compatible_transceivers
from ...editing.units import natural_key
from ...model.catalog_entities import Role
from ...model.document import FabricDocument
from ...model.fabric import Device
from ...model.fec import FEC_NAMES
from ...model.ports import cage_mode
from ...model.rack_units import CONVENTION
from .. import resources, theme
from ..editor import Editor
from .forms import (
    MIXED,
    MIXED_TEXT,
    Header,
    SelectionPage,
    combo_value,
    common,
    form,
    on_commit,
    section,
    set_combo,
    set_line,
    set_spin,
    spin,
)
from .object_findings import ObjectFindings

CAGE_ROLE = Qt.ItemDataRole.UserRole + 1
#: the FEC choices of a cage as the combo shows them (docs: IEEE 802.3 clause names)
FEC_TITLES = {"rs544": "RS(544,514) KP4", "rs528": "RS(528,514) KR4",
              "baser": "BASE-R (clause 74)", "off": "FEC off"}


FIRMWARE_HINT = "e.g. 31.2012.1010"
TAGS_HINT = "su=1, pod=a"


def plane_hint(doc: FabricDocument, devices: list[Device]) -> str:
    """The grey text of an empty Plane field: on a multi-plane fabric a server is in no plane
    because its ports reach every plane; otherwise what the field is for."""
    planes = sorted({d.plane for d in doc.devices.values() if d.plane}, key=natural_key)
    if len(planes) > 1 and all(doc.tier_of(d) == 0 for d in devices):
        return f"none: a server's ports reach every plane ({', '.join(planes)})"
    return "compute plane of a switch, e.g. 1"


PLANE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")  # as Device.plane


def parse_tags(text: str) -> dict[str, str] | None:
    """`su=1, pod=a` -> {"su": "1", "pod": "a"}; None when the text is not of that form."""
    tags: dict[str, str] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            return None
        key, value = (s.strip() for s in part.split("=", 1))
        if not key:
            return None
        tags[key] = value
    return tags


def format_tags(tags: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(tags.items()))


class DevicePage(SelectionPage):
    """Edits the selected devices through the editor (one undo step per change)."""

    select_link = Signal(str)

    def __init__(self, editor: Editor) -> None:
        super().__init__(editor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(6)
        self.header = Header()
        layout.addWidget(self.header)
        fields = form()
        self.name = QLineEdit()
        self.model = QComboBox()
        self.role = QComboBox()
        for role in Role:
            self.role.addItem(resources.icon(f"role-{role.value}"), theme.ROLE_SINGULAR[role.value], role.value)
        self.rack = QComboBox()
        self.ru = spin(0, 60)
        self.ru.setToolTip(CONVENTION)  # the position as the schedules and NetBox write it
        self.firmware = QLineEdit()
        self.tags = QLineEdit()
        self.plane = QLineEdit()
        fields.addRow("Name", self.name)
        fields.addRow("Model", self.model)
        fields.addRow("Used as", self.role)
        fields.addRow("Rack", self.rack)
        fields.addRow("RU", self.ru)
        fields.addRow("Firmware", self.firmware)
        fields.addRow("Tags", self.tags)
        fields.addRow("Plane", self.plane)
        layout.addLayout(fields)
        layout.addWidget(section("Cages: breakout, optics and FEC"))
        self.cages = QTreeWidget()
        self.cages.setColumnCount(1)
        self.cages.setHeaderHidden(True)
        self.cages.setRootIsDecorated(True)
        self.cages.setIndentation(14)
        self.cages.setMinimumHeight(170)
        layout.addWidget(self.cages, 2)
        self.cage_note = QLabel()
        self.cage_note.setWordWrap(True)
        self.cage_note.setStyleSheet("color: #616e7c;")
        layout.addWidget(self.cage_note)
        layout.addWidget(section("Findings"))
        self.findings = ObjectFindings()
        layout.addWidget(self.findings)
        self.report: AnalysisReport | None = None
        layout.addWidget(section("Connections"))
        self.connections = QTreeWidget()
        self.connections.setColumnCount(3)
        self.connections.setHeaderLabels(["Port", "Peer", "Media"])
        self.connections.setRootIsDecorated(False)
        self.connections.setUniformRowHeights(True)
        self.connections.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.connections.header().setStretchLastSection(True)
        self.connections.setMinimumHeight(110)
        layout.addWidget(self.connections, 1)
        self._cage_key: tuple[Any, ...] | None = None

        on_commit(self.name, self._commit_name)
        on_commit(self.firmware, lambda text: self._update({"firmware": text.strip()}, "Set firmware"))
        on_commit(self.tags, self._commit_tags)
        on_commit(self.plane, self._commit_plane)
        self.model.activated.connect(self._commit_model)
        self.role.activated.connect(self._commit_role)
        self.rack.activated.connect(self._commit_rack)
        self.ru.valueChanged.connect(self._commit_ru)
        self.cages.itemExpanded.connect(self._fill_cage_children)
        self.connections.itemClicked.connect(
            lambda item, _c: self.select_link.emit(item.data(0, Qt.ItemDataRole.UserRole)))

    def devices(self) -> list[Device]:
        return self.selected(self.doc.devices)

    # ---------------------------------------------------------------- showing
    show_devices = SelectionPage.show_ids

    def refresh(self) -> None:
        devices = self.devices()
        if not devices:
            return
        doc = self.doc
        models = [doc.device_model(d) for d in devices]
        if len(devices) == 1:
            device, model = devices[0], models[0]
            role = doc.role_of(device).value
            self.header.set(device.name, f"{model.vendor} {model.model} · {model.height_ru}U · "
                                         f"{theme.ROLE_SINGULAR.get(role, role)}")
        else:
            kinds = common(m.id for m in models)
            text = models[0].model if kinds is not MIXED else "mixed models"
            self.header.set(f"{len(devices)} devices", f"{text}; edits apply to all of them")
        set_line(self.name, devices[0].name if len(devices) == 1 else MIXED)
        self.name.setEnabled(len(devices) == 1)
        self._fill_models(models[0].role.value)
        set_combo(self.model, common(d.model for d in devices))
        set_combo(self.role, common(doc.role_of(d).value for d in devices))
        self._fill_racks()
        set_combo(self.rack, common(d.rack or "" for d in devices))
        set_spin(self.ru, devices[0].ru if len(devices) == 1 else MIXED)
        self.ru.setEnabled(len(devices) == 1 and devices[0].rack is not None)
        set_line(self.firmware, common(d.firmware for d in devices), FIRMWARE_HINT)
        set_line(self.tags, common(format_tags(d.tags) for d in devices), TAGS_HINT)
        set_line(self.plane, common(d.plane or "" for d in devices), plane_hint(doc, devices))
        self._fill_cages(devices)
        self.findings.show_findings(self.report, doc.revision, self.ids)
        self._fill_connections(devices)

    def set_report(self, report: AnalysisReport | None) -> None:
        """The live validation's latest report: the page shows its findings about the devices
        (a FEC set on a cage shows its FEC-MISMATCH here)."""
        self.report = report
        if self.devices():
            self.findings.show_findings(report, self.doc.revision, self.ids)

    def _fill_models(self, role: str) -> None:
        with QSignalBlocker(self.model):
            self.model.clear()
            catalog = self.doc.catalog.devices
            ordered = sorted(catalog.values(), key=lambda m: (m.role.value != role, m.role.value, m.vendor, m.model))
            for model in ordered:
                self.model.addItem(resources.icon(f"role-{model.role.value}"),
                                   f"{model.vendor} {model.model}", model.id)

    def _fill_racks(self) -> None:
        with QSignalBlocker(self.rack):
            self.rack.clear()
            self.rack.addItem("(no rack)", "")
            for rack in sorted(self.doc.racks.values(), key=lambda r: natural_key(r.name)):
                self.rack.addItem(f"{rack.name}  (row {rack.row}, pos {rack.position})", rack.id)

    def _fill_cages(self, devices: list[Device]) -> None:
        doc = self.doc
        model_ids = {d.model for d in devices}
        if len(model_ids) > 1:
            self.cages.clear()
            self._cage_key = None
            self.cages.setEnabled(False)
            self.cage_note.setText("Select devices of one model to set their cages together.")
            return
        self.cages.setEnabled(True)
        model = doc.device_model(devices[0])
        key = (tuple(d.id for d in devices), model.id)
        expanded = {self.cages.topLevelItem(i).data(0, CAGE_ROLE) for i in range(self.cages.topLevelItemCount())
                    if self.cages.topLevelItem(i).isExpanded()} if key == self._cage_key else set()
        self._cage_key = key
        self.cages.clear()
        for group_index, group in enumerate(model.cages):
            first, last = group.first, group.first + group.count - 1
            label = (f"{group.name} · {group.count}× {group.form_factor}" if group.count > 1
                     else f"{group.name} · {group.form_factor}")
            item = QTreeWidgetItem(self.cages)
            item.setData(0, CAGE_ROLE, ("group", group_index))
            item.setToolTip(0, f"cages {first}-{last}: the mode and optic apply to all of them"
                            if group.count > 1 else f"cage {first}")
            self._cage_widgets(item, devices, list(group.cage_numbers), label, bold=True)
            if group.count > 1:
                QTreeWidgetItem(item, ["…"])  # filled on expand
                if ("group", group_index) in expanded:
                    item.setExpanded(True)
        used = sum(len(doc.link_ids_of(d.id)) for d in devices)
        total = sum(len(doc.ports(d)) for d in devices)
        note = (f"{used} of {total} ports carry a cable. Expand a group to set single "
                "cages; a mode that would remove a port with a cable is refused.")
        no_fec = fec_settable(doc)
        if no_fec:
            note += f" FEC: {no_fec}."
        self.cage_note.setText(note)

    def _fill_cage_children(self, item: QTreeWidgetItem) -> None:
        tag = item.data(0, CAGE_ROLE)
        if not tag or tag[0] != "group" or not (item.childCount() == 1 and item.child(0).text(0) == "…"):
            return
        devices = self.devices()
        if not devices:
            return
        model = self.doc.device_model(devices[0])
        group = model.cage_group_of[list(model.cages[tag[1]].cage_numbers)[0]]
        item.takeChildren()
        for cage in group.cage_numbers:
            child = QTreeWidgetItem(item)
            child.setData(0, CAGE_ROLE, ("cage", cage))
            self._cage_widgets(child, devices, [cage], f"cage {cage}", bold=False)

    def _cage_widgets(self, item: QTreeWidgetItem, devices: list[Device], cages: list[int],
                      label: str, bold: bool) -> None:
        doc = self.doc
        mode_box = self._mode_box(devices, cages)
        optic_box = self._optic_box(devices, cages)
        fec_box = self._fec_box(devices, cages)
        used = sum(1 for d in devices for c in cages for p in doc.ports(d).values()
                   if p.cage == c and doc.link_at(d.id, p.name) is not None)
        legs = sum(1 for d in devices for c in cages for p in doc.ports(d).values() if p.cage == c)
        card = QWidget()
        box = QVBoxLayout(card)
        box.setContentsMargins(2, 4, 4, 4)
        box.setSpacing(3)
        title = QLabel(f"<b>{label}</b>" if bold else label)
        title.setText((f"<b>{label}</b>" if bold else label) +
                      f" <span style='color:#8a94a6'>· {used}/{legs} used</span>")
        box.addWidget(title)
        combos = QHBoxLayout()
        combos.setSpacing(4)
        combos.addWidget(mode_box, 0)
        combos.addWidget(optic_box, 1)
        box.addLayout(combos)
        if fec_box is not None:
            box.addWidget(fec_box)
        ids = [d.id for d in devices]
        mode_box.activated.connect(lambda _i, b=mode_box: self._commit_mode(ids, cages, b))
        optic_box.activated.connect(lambda _i, b=optic_box: self._commit_optic(ids, cages, b))
        if fec_box is not None:
            fec_box.activated.connect(lambda _i, b=fec_box: self._commit_fec(ids, cages, b))
        item.setSizeHint(0, card.sizeHint())
        self.cages.setItemWidget(item, 0, card)

    def _mode_box(self, devices: list[Device], cages: list[int]) -> QComboBox:
        """The breakout mode of these cages: the modes their group supports."""
        model = self.doc.device_model(devices[0])
        group = model.cage_group_of[cages[0]]
        mode_box = QComboBox()
        for mode in group.breakouts:
            mode_box.addItem(mode, mode)
        set_combo(mode_box, common(cage_mode(model, d.cages, c) for d in devices for c in cages))
        mode_box.setEnabled(len(group.breakouts) > 1)
        mode_box.setToolTip("breakout mode: legs x speed")
        return mode_box

    def _optic_box(self, devices: list[Device], cages: list[int]) -> QComboBox:
        """The optic of these cages: none or one that fits the first cage and its mode (the
        one set, marked, when it does not fit)."""
        doc = self.doc
        group = doc.device_model(devices[0]).cage_group_of[cages[0]]
        optic_box = QComboBox()
        optic_box.addItem("no optic", "")
        for optic in compatible_transceivers(doc, devices[0].id, cages[0]):
            optic_box.addItem(f"{optic.model} · {optic.pmd}", optic.id)
            optic_box.setItemData(optic_box.count() - 1,
                                  f"{optic.vendor} {optic.model}: {optic.pmd}, {optic.media}, "
                                  f"{optic.connector}", Qt.ItemDataRole.ToolTipRole)
        current = common((d.cages.get(c).transceiver if d.cages.get(c) else None) or "" for d in devices for c in cages)
        if current not in (MIXED, "") and optic_box.findData(current) < 0:
            optic_box.addItem(f"{current} (does not fit)", current)
        set_combo(optic_box, current)
        optic_box.setEnabled(group.form_factor != "RJ45" and optic_box.count() > 1)
        optic_box.setToolTip("only optics that fit this cage and its mode are offered")
        return optic_box

    def _fec_box(self, devices: list[Device], cages: list[int]) -> QComboBox | None:
        """The FEC choice of these cages (None on InfiniBand, where the PHY negotiates it):
        the line's default first, named with what it is, then each IEEE 802.3 FEC."""
        doc = self.doc
        if fec_settable(doc) is not None or doc.device_model(devices[0]).cage_group_of[
                cages[0]].form_factor == "RJ45":
            return None
        fec_box = QComboBox()
        fec_box.setObjectName("fec")
        default, line = fec_texts(doc, devices, cages)
        fec_box.addItem(f"FEC: {default}", "")
        for fec in FEC_CHOICES:
            fec_box.addItem(f"FEC: {FEC_TITLES[fec]}", fec)
            fec_box.setItemData(fec_box.count() - 1, FEC_NAMES[fec], Qt.ItemDataRole.ToolTipRole)
        set_combo(fec_box, common((d.cages.get(c).fec if d.cages.get(c) else None) or ""
                                  for d in devices for c in cages))
        mixed = fec_box.findData(MIXED_TEXT)
        if mixed >= 0:
            fec_box.setItemText(mixed, f"FEC: {MIXED_TEXT}")
        fec_box.setToolTip("FEC configured on the cage's ports (FEC-MISMATCH checks it against "
                           "the line and the far end)" + (f"\n{line}" if line else ""))
        return fec_box

    def _fill_connections(self, devices: list[Device]) -> None:
        doc = self.doc
        self.connections.clear()
        rows = []
        for device in devices[:8]:
            for link in doc.links_of(device.id):
                mine, other = (link.a, link.b) if link.a.device == device.id else (link.b, link.a)
                peer = doc.devices.get(other.device)
                prefix = f"{device.name}:" if len(devices) > 1 else ""
                rows.append((natural_key(prefix + mine.port), prefix + mine.port,
                             f"{peer.name if peer else other.device}:{other.port}", link.cable or "—", link.id))
        rows.sort()
        for _key, port, peer, media, link_id in rows[:2000]:
            row = QTreeWidgetItem(self.connections, [port, peer, media])
            row.setData(0, Qt.ItemDataRole.UserRole, link_id)

    # ---------------------------------------------------------------- committing
    def _update(self, changes: dict[str, Any], text: str) -> None:
        self.editor.update_devices(self.ids, changes, text)
        self.refresh_later()

    def _commit_name(self, text: str) -> None:
        if len(self.ids) == 1:
            self.editor.rename_device(self.ids[0], text)
            self.refresh_later()

    def _commit_tags(self, text: str) -> None:
        tags = parse_tags(text)
        if tags is None:
            self.editor.refuse("tags are written as key=value, separated by commas (su=1, pod=a)")
            self.refresh_later()
            return
        self._update({"tags": tags}, "Set tags")

    def _commit_plane(self, text: str) -> None:
        plane = text.strip() or None
        if plane is not None and not PLANE_NAME.match(plane):
            self.editor.refuse("a plane is a short name of letters, digits, '.', '_' or '-' "
                               "(e.g. 1 or A)")
            self.refresh_later()
            return
        self._update({"plane": plane}, "Set plane")

    def _commit_model(self) -> None:
        value = combo_value(self.model)
        if value is MIXED or not value:
            return
        self._update({"model": value, "cages": {}}, "Change model")

    def _commit_role(self) -> None:
        value = combo_value(self.role)
        if value is MIXED or not value:
            return
        self.editor.set_role(self.ids, value)
        self.refresh_later()

    def _commit_rack(self) -> None:
        value = combo_value(self.rack)
        if value is MIXED:
            return
        rack = value or None
        if rack is None:
            self.editor.place_devices({i: (None, None) for i in self.ids})
        elif len(self.ids) == 1:
            ru = self.free_ru(self.ids[0], rack)
            if ru is None:
                self.editor.refuse(f"no free slot in {self.doc.racks[rack].name} fits this device")
            else:
                self.editor.place_devices({self.ids[0]: (rack, ru)})
        else:
            placements = {}
            for device_id in self.ids:
                ru = self.free_ru(device_id, rack, taken=placements)
                if ru is None:
                    self.editor.refuse(f"{self.doc.racks[rack].name} has no room for all {len(self.ids)} devices")
                    self.refresh_later()
                    return
                placements[device_id] = (rack, ru)
            self.editor.place_devices(placements)
        self.refresh_later()

    def free_ru(self, device_id: str, rack_id: str, taken: dict | None = None) -> int | None:
        """The first RU that fits: switches from the top of the rack, servers from the bottom."""
        doc = self.doc
        device = doc.devices[device_id]
        model = doc.device_model(device)
        height = max(model.height_ru, 1)
        rack = doc.racks[rack_id]
        occupied: set[int] = set()
        for other in doc.devices.values():
            if other.id != device_id and other.rack == rack_id and other.ru is not None:
                occupied.update(range(other.ru, other.ru + doc.device_model(other).height_ru))
        for other_id, (other_rack, other_ru) in (taken or {}).items():
            if other_rack == rack_id and other_ru is not None:
                occupied.update(range(other_ru, other_ru + doc.device_model(other_id).height_ru))
        candidates = range(rack.height_ru - height + 1, 0, -1) if model.is_switch else range(1, rack.height_ru - height + 2)
        for ru in candidates:
            if not occupied.intersection(range(ru, ru + height)):
                return ru
        return None

    def _commit_ru(self, value: int) -> None:
        if len(self.ids) != 1:
            return
        device = self.doc.devices.get(self.ids[0])
        if device is None or device.rack is None or value == (device.ru or 0):
            return
        self.editor.place_devices({device.id: (device.rack, value or None)})
        self.refresh_later()

    def _commit_mode(self, ids: list[str], cages: list[int], box: QComboBox) -> None:
        value = combo_value(box)
        if value is MIXED or value == MIXED_TEXT:
            return
        self.editor.set_cages(ids, cages, mode=value)
        self.refresh_later()

    def _commit_optic(self, ids: list[str], cages: list[int], box: QComboBox) -> None:
        value = combo_value(box)
        if value is MIXED:
            return
        self.editor.set_cages(ids, cages, transceiver=value or None)
        self.refresh_later()

    def _commit_fec(self, ids: list[str], cages: list[int], box: QComboBox) -> None:
        value = combo_value(box)
        if value is MIXED:
            return
        self.editor.set_cages(ids, cages, fec=value or None)
        self.refresh_later()
