"""Inspector page for one or several cables: media, length (estimated or manual), colour, rail.

Only cable assemblies that fit both ends are offered (form factor and top for DAC/AOC, optics'
media and connector for fibre cords).  The length is estimated from the racks' floor positions
and RU unless a manual length is typed; the ordered stock length is shown next to it.  The
patch section sets the structured cabling in the channel (`Link.patch`: mated connector pairs,
their loss, the panels' polish) that INSERTION-LOSS and PATCH-POLISH check, and its polarity
(the TIA-568.3-D method, the trunk's type, the cord at each end; model/polarity.py) with the
CHANNEL-POLARITY verdict under it.  The live validation's findings about the cable close the
page.
"""

from __future__ import annotations

from html import escape
from typing import Any, get_args

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from ...analysis import AnalysisReport, Finding
from ...analysis.lengths import link_length
from ...analysis.rules_cabling import channel_parts
from ...editing.compat import PortRef, cage_transceiver, compatible_cables, port_title
from ...editing.units import speed_label
from ...model import limits, polarity
from ...model.edits import Operation, UpdateLink
from ...model.fabric import Link, LinkPatch
from ...model.port_names_os import PortNamer
from ...model.rounding import metres
from ...model.summary import tier_pair
from .. import theme
from ..editor import Editor
from .findings import SEVERITY_COLOURS
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
from .object_findings import ObjectFindings, findings_about

#: the polarity parts of a patch, as model/polarity.py names them (LinkPatch fields)
POLARITY_FIELDS = ("method", "trunk", "cord_a", "cord_b")


def segment_title(segment: str) -> str:
    """`B` -> "Type B" (an MPO array part), `A-to-B` stays (a duplex part)."""
    return f"Type {segment}" if segment in polarity.ARRAY else segment


def polarity_choices(field: str) -> list[tuple[str, str]]:
    """(title, value) of each choice of a polarity field; value "" is "not given"."""
    if field == "method":
        return [("not given", "")] + [(f"Method {m}", m) for m in get_args(polarity.Method)]
    unset = "the method's type" if field == "trunk" else "the link's catalog cord"
    return [(f"({unset})", "")] + [(segment_title(s), s) for s in get_args(polarity.Segment)]


def verdict_html(finding: Finding, others: int = 0) -> str:
    """A CHANNEL-POLARITY finding under the polarity fields: without the cable's own name (the
    page's title), with the one-part change that fixes it."""
    colour = SEVERITY_COLOURS[finding.severity]
    head, sep, rest = finding.message.partition(": ")
    text = rest if sep and " - " in head else finding.message
    html = (f"<span style='color:{colour}'><b>{finding.severity.value} {finding.code}</b></span>"
            f" {escape(text)}")
    if finding.fix is not None:
        html += f"<br><b>Fix:</b> {escape(finding.fix.description)}"
    if others:
        html += f"<br><span style='color:#8a94a6'>and {others} more in the findings panel</span>"
    return html


def spin_mixed(box: Any) -> bool:
    """Does a spin box show "(mixed)" (the selected links disagree, nothing typed since)?"""
    return box.specialValueText() == MIXED_TEXT and box.value() == box.minimum()


def swatch(colour: str) -> QIcon:
    pixmap = QPixmap(14, 14)
    pixmap.fill(QColor(colour))
    return QIcon(pixmap)


class LinkPage(SelectionPage):
    def __init__(self, editor: Editor) -> None:
        super().__init__(editor)
        self.report: AnalysisReport | None = None
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
        layout.addWidget(section("Findings"))
        self.findings = ObjectFindings()
        layout.addWidget(self.findings)
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
        self.polarity: dict[str, QComboBox] = {}
        tips = {"method": "TIA-568.3-D connectivity method: the parts not given below are the "
                          "method's standard ones",
                "trunk": "polarity of the trunk between the panels: MPO Type A/B/C (or a duplex "
                         "A-to-A / A-to-B trunk)",
                "cord_a": "patch cord between the optic at end a and its panel",
                "cord_b": "patch cord between the optic at end b and its panel"}
        for field, title in (("method", "Polarity"), ("trunk", "Trunk"),
                             ("cord_a", "Cord at A"), ("cord_b", "Cord at B")):
            box = QComboBox()
            box.setObjectName(field)
            for text, value in polarity_choices(field):
                box.addItem(text, value)
            box.setToolTip(tips[field])
            box.activated.connect(lambda _i: self._commit_patch(text="Set channel polarity"))
            self.polarity[field] = box
            patch_form.addRow(title, box)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        patch_form.addRow("", self.verdict)
        self.polarity_fix = QPushButton("Apply the fix")
        self.polarity_fix.setToolTip("change the one part the CHANNEL-POLARITY finding names "
                                     "(one undo step)")
        self.polarity_fix.clicked.connect(self._apply_polarity_fix)
        self._fix: Finding | None = None
        patch_form.addRow("", self.polarity_fix)
        layout.addLayout(patch_form)
        self.patched.toggled.connect(self._commit_patch)
        self.pairs.valueChanged.connect(self._commit_patch)
        self.pair_loss.valueChanged.connect(self._commit_patch)
        self.polish.activated.connect(self._commit_patch)

    def _fill_patch(self, links: list[Link]) -> None:
        patched = [link.patch for link in links if link.patch is not None]
        every = bool(links) and len(patched) == len(links)
        self.patched.blockSignals(True)
        self.patched.setChecked(every)
        self.patched.blockSignals(False)
        if every:
            set_spin(self.pairs, common(p.mated_pairs for p in patched))
            loss = common(p.loss_per_pair_db for p in patched)
            set_combo(self.polish, common(p.polish or "" for p in patched))
            for field, box in self.polarity.items():
                set_combo(box, common(getattr(p, field) or "" for p in patched))
        else:
            set_spin(self.pairs, MIXED if patched else 2)
            loss = None
            set_combo(self.polish, "")
            for box in self.polarity.values():
                set_combo(box, "")
        set_spin(self.pair_loss, loss)
        if loss is not MIXED:
            self.pair_loss.setSpecialValueText("TIA max 0.75 dB")
        for widget in (self.pairs, self.pair_loss, self.polish, *self.polarity.values()):
            widget.setEnabled(every)
        self._show_verdict()

    def _commit_patch(self, *_args: object, text: str = "Set patch panels") -> None:
        links = self.links()
        if not self.patched.isChecked():
            if any(link.patch is not None for link in links):
                self._update({"patch": None}, "Remove patch panels")
            return
        # what the page shows for all the selected links; a field they disagree on and that
        # was not touched ("(mixed)") stays as each link has it
        fields: dict[str, Any] = {}
        if not spin_mixed(self.pairs):
            fields["mated_pairs"] = self.pairs.value()
        if not spin_mixed(self.pair_loss):
            fields["loss_per_pair_db"] = self.pair_loss.value() or None
        polish = combo_value(self.polish)
        if polish is not MIXED:
            fields["polish"] = polish if polish in ("UPC", "APC") else None
        for field, box in self.polarity.items():
            value = combo_value(box)
            if value is not MIXED:
                fields[field] = value or None
        ops: list[Operation] = []
        for link in links:
            base = link.patch.model_dump() if link.patch is not None else {}
            patch = LinkPatch(**{**base, **fields})
            if patch != link.patch:
                ops.append(UpdateLink(link.id, {"patch": patch}))
        if ops:
            self.editor.document.execute(ops, text)
            self.refresh_later()

    # ---------------------------------------------------------------- findings
    def set_report(self, report: AnalysisReport | None) -> None:
        """The live validation's latest report: the page shows its findings about the cables."""
        self.report = report
        if self.links():
            self._show_verdict()
            self.findings.show_findings(report, self.doc.revision, self.ids)

    def _show_verdict(self) -> None:
        """The CHANNEL-POLARITY verdict of the selected patched links, under their parts."""
        self._fix = None
        self.polarity_fix.setVisible(False)
        links = [link for link in self.links() if link.patch is not None]
        given = [link for link in links
                 if any(getattr(link.patch, f) is not None for f in POLARITY_FIELDS)]
        self.verdict.setToolTip(self._parts_text(given[0]) if len(given) == 1 else "")
        if not given:
            self.verdict.setText("<span style='color:#8a94a6'>polarity not given: not checked"
                                 "</span>" if links else "")
            return
        report = self.report
        if report is None or report.revision != self.doc.revision:
            self.verdict.setText("<span style='color:#8a94a6'>polarity: validating…</span>")
            return
        found = findings_about(report, [link.id for link in given], ("CHANNEL-POLARITY",))
        if found:
            self.verdict.setText(verdict_html(found[0], len(found) - 1))
            fix = found[0].fix
            if fix is not None and fix.ops and len(found) == 1:  # one cable's fix: its own
                self._fix = found[0]
                self.polarity_fix.setVisible(True)
            return
        kinds = {self._optic_kind(link) for link in given if self._optics_known(link)}
        if not kinds:
            self.verdict.setText("<span style='color:#8a94a6'>polarity not judged: the cable "
                                 "needs an optic at both ends</span>")
            return
        lane = " of its own lane" if kinds == {"parallel"} else ""
        self.verdict.setText("<span style='color:#2b8a3e'>polarity: every transmitter reaches "
                             f"a receiver{lane}</span>")

    def _apply_polarity_fix(self) -> None:
        finding = self._fix
        if finding is None or finding.fix is None:
            return
        report = self.report
        if report is None or report.revision != self.doc.revision:
            return  # the fix was worked out for another revision: wait for the new report
        text = finding.fix.description
        self.editor.apply_fix(list(finding.fix.ops), text[:1].upper() + text[1:])
        self.refresh_later()

    def _optics_known(self, link: Link) -> bool:
        doc = self.doc
        ports = (doc.port(link.a.device, link.a.port), doc.port(link.b.device, link.b.port))
        return all(p is not None and cage_transceiver(doc, end.device, p.cage) is not None
                   for p, end in zip(ports, (link.a, link.b), strict=True))

    def _optic_kind(self, link: Link) -> polarity.Kind | None:
        """"duplex" or "parallel" by the optic at end a (None: no optic, or one the polarity
        model does not cover)."""
        doc = self.doc
        port = doc.port(link.a.device, link.a.port)
        optic = cage_transceiver(doc, link.a.device, port.cage) if port else None
        kind = polarity.optic_kind(optic.connector) if optic else None
        return kind[0] if kind else None

    def _parts_text(self, link: Link) -> str:
        """The channel's three parts as CHANNEL-POLARITY reads them (what the method and the
        catalog cord fill in), for the verdict's tooltip."""
        kind = self._optic_kind(link)
        if kind is None or link.patch is None:
            return ""
        cable = self.doc.catalog.cables.get(link.cable) if link.cable else None
        parts, missing = channel_parts(link.patch, kind, cable)
        if parts is None:
            return f"not given: {', '.join(missing)}"
        return (f"as checked: cord at a {segment_title(parts[0])}, {segment_title(parts[1])} "
                f"trunk, cord at b {segment_title(parts[2])} ({kind} optics)")

    def links(self) -> list[Link]:
        return self.selected(self.doc.links)

    show_links = SelectionPage.show_ids

    def refresh(self) -> None:
        links = self.links()
        if not links:
            return
        doc = self.doc
        first = links[0]
        self._show_header(links)
        self._fill_cables(links)
        self._show_optics(links)
        self.os_names.setText(self._os_names(first) if len(links) == 1 else "")
        self._show_length(links)
        self._fill_patch(links)
        set_combo(self.colour, common(link.colour or "" for link in links))
        set_spin(self.rail, common(link.rail for link in links))
        set_line(self.plane, common(link.plane or "" for link in links))
        set_line(self.notes, common(link.notes for link in links))
        self.findings.show_findings(self.report, doc.revision, self.ids)

    def _show_header(self, links: list[Link]) -> None:
        """One cable: its two ports, speed, tiers and id; several: how many."""
        if len(links) != 1:
            self.header.set(f"{len(links)} cables", "edits apply to all of them")
            return
        doc = self.doc
        first = links[0]
        port = doc.port(first.a.device, first.a.port)
        speed = speed_label(port.speed_gbps) if port else "?"
        title = (f"{port_title(doc, PortRef(first.a.device, first.a.port))}  ⟷  "
                 f"{port_title(doc, PortRef(first.b.device, first.b.port))}")
        self.header.set(title, f"{speed} · {tier_pair(doc, first.a.device, first.b.device)} · id {first.id}")

    def _show_optics(self, links: list[Link]) -> None:
        """One cable: the optic in the cage at each end; several: where optics are set."""
        if len(links) != 1:
            self.optics.setText("set optics per cage on the devices")
            return
        doc = self.doc
        texts = []
        for end in (links[0].a, links[0].b):
            port = doc.port(end.device, end.port)
            optic = cage_transceiver(doc, end.device, port.cage) if port else None
            texts.append(optic.model if optic else "no optic")
        self.optics.setText(f"A: {texts[0]} · B: {texts[1]}\n(set optics per cage on the devices)")

    def _show_length(self, links: list[Link]) -> None:
        """The manual length (or "estimate" ticked) and, for one cable, what the estimate or
        the manual length gives and the stock length ordered."""
        manual = common(link.length_m for link in links)
        auto = all(link.length_m is None for link in links)
        self.auto.blockSignals(True)
        self.auto.setChecked(auto)
        self.auto.blockSignals(False)
        set_spin(self.length, manual if manual is MIXED else (manual or 0.0))
        self.length.setEnabled(not auto)
        if len(links) != 1:
            self.estimate.setText("")
            return
        length = link_length(self.doc, links[0])
        if length.length_m is None and auto:
            self.estimate.setText("unknown: place both devices in racks")
            return
        value = f"{metres(length.length_m)} m" if length.length_m is not None else "unknown"
        ordered = f", order {metres(length.ordered_m, 2)} m" if length.ordered_m is not None else ""
        kind = "manual" if length.manual else "estimated"
        if length.same_rack is not None:
            kind += ", same rack" if length.same_rack else ", between racks"
        self.estimate.setText(f"{value} ({kind}){ordered}")

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
