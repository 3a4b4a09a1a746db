"""Inspector page for one or several cables: media, length (estimated or manual), colour, rail.

Only cable assemblies that fit both ends are offered (form factor and top for DAC/AOC, optics'
media and connector for fibre cords).  The length is estimated from the racks' floor positions
and RU unless a manual length is typed; the ordered stock length is shown next to it.  The
patch section sets the structured cabling in the channel (`Link.patch`: mated connector pairs,
their loss, the panels' polish) that INSERTION-LOSS and PATCH-POLISH check.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout

from ...analysis.lengths import link_length
from ...editing.compat import PortRef, cage_transceiver, compatible_cables, port_title
from ...editing.units import speed_label
from ...model import limits
from ...model.fabric import Link, LinkPatch
from ...model.port_names_os import PortNamer
from ...model.rounding import metres
from ...model.summary import tier_pair
from .. import theme
from ..editor import Editor
from .forms import (
    MIXED,
    Header,
    Page,
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


def swatch(colour: str) -> QIcon:
    pixmap = QPixmap(14, 14)
    pixmap.fill(QColor(colour))
    return QIcon(pixmap)


class LinkPage(Page):
    def __init__(self, editor: Editor) -> None:
        super().__init__()
        self.editor = editor
        self.ids: list[str] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(6)
        self.header = Header()
        layout.addWidget(self.header)
        fields = form()
        self.cable = QComboBox()
        self.optics = QLabel()
        self.optics.setWordWrap(True)
        self.optics.setStyleSheet("color: #616e7c;")
        self.os_names = QLabel()
        self.os_names.setWordWrap(True)
        self.os_names.setStyleSheet("color: #616e7c;")
        self.os_names.setToolTip("The port as each operating system names it (catalog os_names; "
                                 "exports use the fabric's port_os setting with --port-names os)")
        fields.addRow("Media", self.cable)
        fields.addRow("Optics", self.optics)
        fields.addRow("OS names", self.os_names)
        layout.addLayout(fields)
        layout.addWidget(section("Length"))
        length_form = form()
        self.auto = QCheckBox("Estimate from the racks")
        row = QHBoxLayout()
        self.length = spin(0, 10_000, 2, " m")
        row.addWidget(self.auto)
        row.addWidget(self.length, 1)
        length_form.addRow("Length", row)
        self.estimate = QLabel()
        self.estimate.setStyleSheet("color: #616e7c;")
        self.estimate.setWordWrap(True)
        length_form.addRow("", self.estimate)
        layout.addLayout(length_form)
        self._build_patch(layout)
        layout.addWidget(section("Tags"))
        tag_form = form()
        self.colour = QComboBox()
        self.colour.addItem("By speed", "")
        for name, value in theme.LINK_COLOURS.items():
            self.colour.addItem(swatch(value), name, name)
        self.rail = spin(0, 256)
        self.plane = QLineEdit()
        self.plane.setPlaceholderText("e.g. A")
        self.notes = QLineEdit()
        tag_form.addRow("Colour", self.colour)
        tag_form.addRow("Rail", self.rail)
        tag_form.addRow("Plane", self.plane)
        tag_form.addRow("Notes", self.notes)
        layout.addLayout(tag_form)
        layout.addStretch(1)
        self.cable.activated.connect(self._commit_cable)
        self.auto.toggled.connect(self._commit_auto)
        self.length.valueChanged.connect(self._commit_length)
        self.colour.activated.connect(self._commit_colour)
        self.rail.valueChanged.connect(
            lambda v: self._update({"rail": v or None}, "Set rail"))
        on_commit(self.plane, lambda t: self._update({"plane": t.strip() or None}, "Set plane"))
        on_commit(self.notes, lambda t: self._update({"notes": t}, "Set cable notes"))

    def _build_patch(self, layout: QVBoxLayout) -> None:
        layout.addWidget(section("Patch panels"))
        patch_form = form()
        self.patched = QCheckBox("Through patch panels / trunks")
        self.pairs = spin(0, limits.MAX_MATED_PAIRS)
        self.pairs.setToolTip("mated connector pairs inside the channel, not the optics' own "
                              "ports: a panel in each rack with a trunk between is 2")
        self.pair_loss = spin(0, 5, 2, " dB")
        self.pair_loss.setToolTip("insertion loss of one mated pair; lowest value: the "
                                  "TIA-568.3 maximum of 0.75 dB")
        self.polish = QComboBox()
        for text, value in (("unknown", ""), ("UPC", "UPC"), ("APC", "APC")):
            self.polish.addItem(text, value)
        patch_form.addRow("", self.patched)
        patch_form.addRow("Mated pairs", self.pairs)
        patch_form.addRow("Loss per pair", self.pair_loss)
        patch_form.addRow("Polish", self.polish)
        layout.addLayout(patch_form)
        self.patched.toggled.connect(self._commit_patch)
        self.pairs.valueChanged.connect(self._commit_patch)
        self.pair_loss.valueChanged.connect(self._commit_patch)
        self.polish.activated.connect(self._commit_patch)

    def _fill_patch(self, links: list[Link]) -> None:
        patch = common(link.patch for link in links)
        known = patch is not MIXED and patch is not None
        self.patched.blockSignals(True)
        self.patched.setChecked(known)
        self.patched.blockSignals(False)
        set_spin(self.pairs, patch.mated_pairs if known else MIXED if patch is MIXED else 2)
        set_spin(self.pair_loss, patch.loss_per_pair_db if known else None)
        self.pair_loss.setSpecialValueText("TIA max 0.75 dB")
        set_combo(self.polish, (patch.polish or "") if known else "")
        for widget in (self.pairs, self.pair_loss, self.polish):
            widget.setEnabled(known)

    def _commit_patch(self, *_args: object) -> None:
        if not self.patched.isChecked():
            if any(link.patch is not None for link in self.links()):
                self._update({"patch": None}, "Remove patch panels")
            return
        polish = combo_value(self.polish)
        # keep the polarity parts this page does not edit (CHANNEL-POLARITY): each part the
        # selected patched links agree on
        patches = [link.patch for link in self.links() if link.patch is not None]
        kept = {name: values.pop() for name in ("method", "trunk", "cord_a", "cord_b")
                if len(values := {getattr(p, name) for p in patches}) == 1}
        patch = LinkPatch().model_copy(update={
            **kept,
            "mated_pairs": self.pairs.value(),
            "loss_per_pair_db": self.pair_loss.value() or None,
            "polish": polish if polish in ("UPC", "APC") else None})
        if any(link.patch != patch for link in self.links()):
            self._update({"patch": patch}, "Set patch panels")

    @property
    def doc(self):  # noqa: ANN201
        return self.editor.doc

    def links(self) -> list[Link]:
        return [self.doc.links[i] for i in self.ids if i in self.doc.links]

    def show_links(self, ids: list[str]) -> None:
        self.ids = list(ids)
        self.refresh()

    def refresh(self) -> None:
        links = self.links()
        if not links:
            return
        doc = self.doc
        first = links[0]
        port = doc.port(first.a.device, first.a.port)
        speed = speed_label(port.speed_gbps) if port else "?"
        if len(links) == 1:
            title = (f"{port_title(doc, PortRef(first.a.device, first.a.port))}  ⟷  "
                     f"{port_title(doc, PortRef(first.b.device, first.b.port))}")
            self.header.set(title, f"{speed} · {tier_pair(doc, first.a.device, first.b.device)} · id {first.id}")
        else:
            self.header.set(f"{len(links)} cables", "edits apply to all of them")
        self._fill_cables(links)
        optic_a = cage_transceiver(doc, first.a.device, port.cage) if port else None
        port_b = doc.port(first.b.device, first.b.port)
        optic_b = cage_transceiver(doc, first.b.device, port_b.cage) if port_b else None
        if len(links) == 1:
            text_a = optic_a.model if optic_a else "no optic"
            text_b = optic_b.model if optic_b else "no optic"
            self.optics.setText(f"A: {text_a} · B: {text_b}\n(set optics per cage on the devices)")
        else:
            self.optics.setText("set optics per cage on the devices")
        self.os_names.setText(self._os_names(first) if len(links) == 1 else "")
        manual = common(link.length_m for link in links)
        auto = all(link.length_m is None for link in links)
        self.auto.blockSignals(True)
        self.auto.setChecked(auto)
        self.auto.blockSignals(False)
        set_spin(self.length, manual if manual is MIXED else (manual or 0.0))
        self.length.setEnabled(not auto)
        if len(links) == 1:
            length = link_length(doc, first)
            estimate = "unknown: place both devices in racks" if length.length_m is None and auto else None
            if estimate is None:
                value = f"{metres(length.length_m)} m" if length.length_m is not None else "unknown"
                ordered = f", order {metres(length.ordered_m, 2)} m" if length.ordered_m is not None else ""
                kind = "manual" if length.manual else "estimated"
                if length.same_rack is not None:
                    kind += ", same rack" if length.same_rack else ", between racks"
                estimate = f"{value} ({kind}){ordered}"
            self.estimate.setText(estimate)
        else:
            self.estimate.setText("")
        self._fill_patch(links)
        set_combo(self.colour, common(link.colour or "" for link in links))
        set_spin(self.rail, common(link.rail for link in links))
        set_line(self.plane, common(link.plane or "" for link in links))
        set_line(self.notes, common(link.notes for link in links))

    def _os_names(self, link: Link) -> str:
        """Each end's port under every naming its model has, e.g. `A: cumulus swp1s0 · sonic
        Ethernet0`."""
        doc = self.doc
        namer = PortNamer(doc, fallback=self.editor.document.catalog.devices)
        lines = []
        for label, end in (("A", link.a), ("B", link.b)):
            names = [f"{os_name} {namer.name(end.device, end.port, os_name)}"
                     for os_name in namer.oses(end.device) if os_name != "design"
                     and namer.name(end.device, end.port, os_name) != end.port]
            lines.append(f"{label}: {' · '.join(names) if names else 'no other names known'}")
        return "\n".join(lines)

    def _fill_cables(self, links: list[Link]) -> None:
        doc = self.doc
        self.cable.blockSignals(True)
        self.cable.clear()
        self.cable.addItem("(not chosen)", "")
        fitting = None
        for link in links[:50]:
            ids = {c.id for c in compatible_cables(doc, link)}
            fitting = ids if fitting is None else fitting & ids
        for cable_id in sorted(fitting or ()):
            cable = doc.catalog.cables[cable_id]
            self.cable.addItem(f"{cable.model} · {cable.type} · up to {cable.max_length_m:g} m", cable_id)
        current = common(link.cable or "" for link in links)
        if current not in (MIXED, "") and self.cable.findData(current) < 0:
            self.cable.addItem(f"{current} (does not fit)", current)
        if self.cable.count() == 1:
            self.cable.setToolTip("no cable assembly in the catalog fits both ends; choose optics for the cages "
                                  "to use fibre cords")
        else:
            self.cable.setToolTip("")
        self.cable.blockSignals(False)
        set_combo(self.cable, current)

    def _update(self, changes: dict, text: str) -> None:
        self.editor.update_links(self.ids, changes, text)
        self.refresh_later()

    def _commit_cable(self) -> None:
        value = combo_value(self.cable)
        if value is MIXED:
            return
        self._update({"cable": value or None}, "Set cable media")

    def _commit_auto(self, checked: bool) -> None:
        if checked:
            self._update({"length_m": None}, "Estimate length")
        else:
            length = link_length(self.doc, self.links()[0]).length_m if self.links() else None
            self.length.setEnabled(True)
            if length:
                self._update({"length_m": float(length)}, "Set manual length")

    def _commit_length(self, value: float) -> None:
        if self.auto.isChecked() or value <= 0:
            return
        self._update({"length_m": float(value)}, "Set manual length")

    def _commit_colour(self) -> None:
        value = combo_value(self.colour)
        if value is MIXED:
            return
        self._update({"colour": value or None}, "Set cable colour")
