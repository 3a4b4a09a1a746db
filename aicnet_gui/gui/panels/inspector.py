"""The inspector dock: edit whatever is selected, or the fabric's own settings.

One page per kind of selection: devices, cables, racks, a mix (counts only), or nothing (the
fabric: name, technology, MTU, PFC/ECN, ECMP policy).  Every field commits one undo step through
the editor; the page re-reads the model after any change that touches what it shows.  The live
validation's reports come in through `set_report` (the device and cable pages show their findings).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ...analysis import AnalysisReport
from ...editing.counts import counts
from ...editing.units import counted
from ...model.edits import ChangeSet
from ...model.fabric import FabricTechnology, Rack
from .. import theme
from ..editor import Editor
from .device_page import DevicePage
from .forms import (
    MIXED,
    Header,
    Page,
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
from .link_page import LinkPage

TECH_TITLES = theme.TECH_TITLES


class RackPage(SelectionPage):
    """Edits the selected racks: name, row and position, height, power budget."""

    def __init__(self, editor: Editor) -> None:
        super().__init__(editor)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        self.header = Header()
        layout.addWidget(self.header)
        fields = form()
        self.name = QLineEdit()
        self.row = spin(0, 999)
        self.position = spin(0, 999)
        self.height_ru = spin(1, 60, suffix=" U")
        self.power = spin(0, 500, 1, " kW")
        fields.addRow("Name", self.name)
        fields.addRow("Row", self.row)
        fields.addRow("Position", self.position)
        fields.addRow("Height", self.height_ru)
        fields.addRow("Power budget", self.power)
        layout.addLayout(fields)
        self.contents = QLabel()
        self.contents.setWordWrap(True)
        self.contents.setStyleSheet("color: #616e7c;")
        layout.addWidget(self.contents)
        layout.addStretch(1)
        on_commit(self.name, self._commit_name)
        self.row.valueChanged.connect(lambda v: self._update({"row": v, "x_m": None, "y_m": None}, "Move rack"))
        self.position.valueChanged.connect(
            lambda v: self._update({"position": v, "x_m": None, "y_m": None}, "Move rack"))
        self.height_ru.valueChanged.connect(lambda v: self._update({"height_ru": v}, "Set rack height"))
        self.power.valueChanged.connect(lambda v: self._update({"power_kw": v or None}, "Set rack power"))

    def racks(self) -> list[Rack]:
        return self.selected(self.doc.racks)

    show_racks = SelectionPage.show_ids

    def refresh(self) -> None:
        racks = self.racks()
        if not racks:
            return
        doc = self.doc
        if len(racks) == 1:
            self.header.set(f"Rack {racks[0].name}", f"id {racks[0].id}")
        else:
            self.header.set(f"{len(racks)} racks", "edits apply to all of them")
        set_line(self.name, racks[0].name if len(racks) == 1 else MIXED)
        self.name.setEnabled(len(racks) == 1)
        set_spin(self.row, common(r.row for r in racks))
        set_spin(self.position, common(r.position for r in racks))
        self.position.setEnabled(len(racks) == 1)
        set_spin(self.height_ru, common(r.height_ru for r in racks))
        set_spin(self.power, common(r.power_kw for r in racks))
        lines = []
        for rack in racks[:6]:
            devices = doc.devices_in_rack(rack.id)
            used = sum(doc.device_model(d).height_ru for d in devices)
            power = sum((doc.device_model(d).power_max_w or 0) for d in devices) / 1000
            lines.append(f"{rack.name}: {counted(len(devices), 'device')}, {used}/{rack.height_ru} U, "
                         f"{power:.1f} kW max (known parts)")
        self.contents.setText("\n".join(lines))

    def _update(self, changes: dict, text: str) -> None:
        self.editor.update_racks(self.ids, changes, text)
        self.refresh_later()

    def _commit_name(self, text: str) -> None:
        if text.strip():
            self._update({"name": text.strip()}, "Rename rack")
        else:
            self.refresh_later()


class FabricPage(Page):
    """Nothing selected: the fabric's name and network settings."""

    def __init__(self, editor: Editor) -> None:
        super().__init__()
        self.editor = editor
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        self.header = Header()
        layout.addWidget(self.header)
        fields = form()
        self.name = QLineEdit()
        self.author = QLineEdit()
        self.description = QLineEdit()
        fields.addRow("Name", self.name)
        fields.addRow("Author", self.author)
        fields.addRow("Description", self.description)
        layout.addLayout(fields)
        layout.addWidget(section("Network"))
        net = form()
        self.technology = QComboBox()
        for tech in FabricTechnology:
            self.technology.addItem(TECH_TITLES[tech.value], tech.value)
        self.mtu = spin(576, 9216)
        self.pfc = QCheckBox("PFC (lossless class)")
        self.ecn = QCheckBox("ECN marking")
        self.dcb = QCheckBox("DCB")
        self.ecmp = QLineEdit()
        self.spares = spin(0, 100, 1, " %")
        net.addRow("Technology", self.technology)
        net.addRow("MTU", self.mtu)
        net.addRow("", self.pfc)
        net.addRow("", self.ecn)
        net.addRow("", self.dcb)
        net.addRow("ECMP policy", self.ecmp)
        net.addRow("Spares", self.spares)
        layout.addLayout(net)
        more = QPushButton("All fabric settings…")
        more.setToolTip("site, label profile, oversubscription targets, cable length estimate, "
                        "naming patterns and design notes")
        more.clicked.connect(lambda: editor.open_fabric_settings(self.window()))
        layout.addWidget(more, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(section("Contents"))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setStyleSheet("color: #3e4c59;")
        layout.addWidget(self.summary)
        hint = QLabel("Select devices, cables or racks on the canvas to edit them.")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #8a94a6; padding-top: 8px;")
        layout.addWidget(hint)
        layout.addStretch(1)
        on_commit(self.name, lambda t: editor.update_metadata({"name": t.strip() or "Untitled fabric"}, "Rename fabric"))
        on_commit(self.author, lambda t: editor.update_metadata({"author": t.strip()}, "Set author"))
        on_commit(self.description, lambda t: editor.update_metadata({"description": t}, "Set description"))
        self.technology.activated.connect(  # brings the technology's MTU, PFC, ECN ... with it
            lambda _i: editor.set_technology(FabricTechnology(combo_value(self.technology))))
        self.mtu.valueChanged.connect(lambda v: editor.update_settings({"mtu": v}, "Set MTU"))
        self.pfc.toggled.connect(lambda v: editor.update_settings({"pfc": v}, "Set PFC"))
        self.ecn.toggled.connect(lambda v: editor.update_settings({"ecn": v}, "Set ECN"))
        self.dcb.toggled.connect(lambda v: editor.update_settings({"dcb": v}, "Set DCB"))
        on_commit(self.ecmp, lambda t: editor.update_settings({"ecmp_policy": t.strip()}, "Set ECMP policy"))
        self.spares.valueChanged.connect(lambda v: editor.update_settings({"spares_percent": v}, "Set spares"))

    def refresh(self) -> None:
        doc = self.editor.doc
        self.header.set(doc.metadata.name, "Fabric settings (nothing selected)")
        set_line(self.name, doc.metadata.name)
        set_line(self.author, doc.metadata.author)
        set_line(self.description, doc.metadata.description)
        settings = doc.settings
        set_combo(self.technology, settings.technology.value)
        set_spin(self.mtu, settings.mtu)
        for box, value in ((self.pfc, settings.pfc), (self.ecn, settings.ecn), (self.dcb, settings.dcb)):
            box.blockSignals(True)
            box.setChecked(value)
            box.blockSignals(False)
        set_line(self.ecmp, settings.ecmp_policy)
        set_spin(self.spares, settings.spares_percent)
        summary = counts(doc)
        roles = ", ".join(counted(n, theme.ROLE_SINGULAR.get(r, r.replace("_", " ")))
                          for r, n in summary.devices_by_role.items()) or "no devices"
        tiers = ", ".join(f"{n} {t}" for t, n in summary.links_by_tier.items())
        cables = counted(summary.links, "cable") + (f": {tiers}" if tiers else "")
        self.summary.setText(f"{roles}\n{cables}\n"
                             f"{counted(summary.racks, 'rack')} · {counted(summary.gpus, 'GPU')} · "
                             f"{counted(summary.workloads, 'workload')}")


class MixedPage(Page):
    def __init__(self) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        self.header = Header()
        layout.addWidget(self.header)
        layout.addStretch(1)

    def show_counts(self, devices: int, links: int, racks: int) -> None:
        parts = [counted(n, noun) for n, noun in
                 ((devices, "device"), (links, "cable"), (racks, "rack")) if n]
        self.header.set(", ".join(parts) + " selected",
                        "Select only devices, only cables or only racks to edit them together.")

    def refresh(self) -> None:
        pass


class InspectorDock(QDockWidget):
    """Shows the page for the current selection and keeps it in step with the model."""

    #: the user clicked a cable in a device's connection list
    select_link = Signal(str)

    def __init__(self, editor: Editor, parent: QWidget | None = None) -> None:
        super().__init__("Inspector", parent)
        self.setObjectName("inspector")
        self.editor = editor
        self.stack = QStackedWidget()
        self.fabric_page = FabricPage(editor)
        self.device_page = DevicePage(editor)
        self.link_page = LinkPage(editor)
        self.rack_page = RackPage(editor)
        self.mixed_page = MixedPage()
        for page in (self.fabric_page, self.device_page, self.link_page, self.rack_page, self.mixed_page):
            self.stack.addWidget(page)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.stack)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setWidget(scroll)
        self.selection: tuple[list[str], list[str], list[str]] = ([], [], [])
        self.device_page.select_link.connect(self.select_link)
        editor.document.changed.connect(self._on_changed)
        editor.document.reset.connect(lambda: self.show_selection([], [], []))
        self.show_selection([], [], [])

    def set_report(self, report: AnalysisReport) -> None:
        """The live validation's current report: the device and cable pages show their
        findings."""
        self.device_page.set_report(report)
        self.link_page.set_report(report)

    def current_page(self) -> Page:
        return self.stack.currentWidget()  # type: ignore[return-value]

    def show_selection(self, devices: list[str], links: list[str], racks: list[str]) -> None:
        self.selection = (list(devices), list(links), list(racks))
        kinds = sum(1 for ids in self.selection if ids)
        if kinds == 0:
            self.stack.setCurrentWidget(self.fabric_page)
            self.fabric_page.refresh()
        elif kinds > 1:
            self.mixed_page.show_counts(len(devices), len(links), len(racks))
            self.stack.setCurrentWidget(self.mixed_page)
        elif devices:
            self.device_page.show_devices(devices)
            self.stack.setCurrentWidget(self.device_page)
        elif links:
            self.link_page.show_links(links)
            self.stack.setCurrentWidget(self.link_page)
        else:
            self.rack_page.show_racks(racks)
            self.stack.setCurrentWidget(self.rack_page)

    def _on_changed(self, changes: ChangeSet) -> None:
        devices, links, racks = self.selection
        page = self.current_page()
        if page is self.fabric_page:
            page.refresh_later()
            return
        touched = changes.ids
        gone = [i for i in devices if i not in self.editor.doc.devices] + \
               [i for i in links if i not in self.editor.doc.links] + \
               [i for i in racks if i not in self.editor.doc.racks]
        if gone:
            self.show_selection([i for i in devices if i in self.editor.doc.devices],
                                [i for i in links if i in self.editor.doc.links],
                                [i for i in racks if i in self.editor.doc.racks])
            return
        if touched & (set(devices) | set(links) | set(racks)) or changes.racks:
            page.refresh_later()
