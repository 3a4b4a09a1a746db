"""The metrics dock: oversubscription, workloads, breakouts, cable lengths and the bill of
materials of the open fabric, as the live validation last computed them.

Oversubscription rows carry a bar against the target, left of the value: the marker in the
middle is the target, green within it, amber up to 1.5 times it, red beyond.  Two columns (the
labels, the values with their bars) so that the labels are whole at the dock's default width.  The target is the strictest of the
settings' targets for the kinds of workload the fabric carries (training 1:1 by default).
Clicking a switch selects it on the canvas.  Cost shows "unknown" while any part has no price.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRectF,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QHeaderView,
    QLabel,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...analysis import AnalysisReport, Bom
from ...editing.units import counted, plural
from ...model.document import FabricDocument
from ...model.rounding import metres
from .. import theme
from ..workers.background import BackgroundJob
from .forms import on_screen

BAR_ROLE = Qt.ItemDataRole.UserRole + 10
ID_ROLE = Qt.ItemDataRole.UserRole + 11
BAR_W = 56.0
"""How wide a ratio's bar against its target is drawn, left of its value (BAR_MIN when the
dock is narrow: the bar gives way before a text is cut)."""
BAR_MIN = 24.0
BAR_FLOOR = 10.0
"""The narrowest a bar is ever drawn (a dock narrower than the columns want)."""
BAR_GAP = 8
VALUE_SHARE = 0.4
"""The least part of the width the values keep when labels and values do not both fit."""
MAX_SWITCHES = 120
MAX_PARTS = 12
SYNC_LINKS = 5000


def fabric_target(doc: FabricDocument) -> tuple[float, str]:
    """The strictest oversubscription target over the workload kinds present (training when
    the fabric has no workload), and the kind it comes from."""
    targets = doc.settings.oversubscription
    kinds = {w.kind for w in doc.workloads.values()}
    if not kinds:
        return targets.training, "training"
    kind = min(kinds, key=lambda k: targets.for_kind(k))
    return targets.for_kind(kind), kind.value


def ratio_text(ratio: float | None) -> str:
    return "no uplinks" if ratio is None else f"{ratio:.2f}:1"


def power_text(bom: Bom) -> str:
    """The BOM's power; "at least" while a model in it has no power figure (the sum leaves
    those devices out, as the cost says "unknown" while a part has no price)."""
    text = f"{bom.power_w / 1000:,.1f} kW"
    return f"at least {text}" if bom.power_unknown else text


def model_name(doc: FabricDocument, model_id: str) -> str:
    """A catalog device as the dock names it: vendor and model (the id when unknown)."""
    entry = doc.catalog.devices.get(model_id)
    return f"{entry.vendor} {entry.model}" if entry else model_id


def gbps(value: float) -> str:
    if value >= 1000:
        return f"{value / 1000:,.1f} Tb/s"
    return f"{value:,.0f} Gb/s"


def cell_pad(widget: QWidget | None) -> int:
    """Room an item's text needs beyond its advance: the style's text margin on both sides."""
    style = widget.style() if widget is not None else QApplication.style()
    return 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1) + 2


class BarDelegate(QStyledItemDelegate):
    """The Value column: the value, and for a ratio against its target a bar at the cell's
    left with the target marked in the middle (one column for both: the rows without a bar,
    most of them, leave no empty column, and the labels get the width)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        value = index.data(BAR_ROLE)
        if not value:
            super().paint(painter, option, index)
            return
        ratio, target = value
        cell = QRectF(option.rect)
        text_w = option.fontMetrics.horizontalAdvance(index.data() or "") + cell_pad(option.widget)
        bar_w = min(max(cell.width() - text_w - BAR_GAP - 4, BAR_FLOOR), BAR_W)  # gives way first
        rect = QRectF(cell.left() + 4, cell.top() + 5, bar_w, max(cell.height() - 10, 4))
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(QColor("#e9ecef")))
        painter.drawRoundedRect(rect, 3, 3)
        cls = theme.oversub_class(ratio, target)
        colour = QColor(theme.OVERSUB_CLASSES[cls][1])
        if ratio is not None:
            fraction = min(ratio / (2 * target), 1.0) if target > 0 else 1.0
            painter.setBrush(QBrush(colour))
            painter.drawRoundedRect(QRectF(rect.left(), rect.top(), rect.width() * fraction,
                                           rect.height()), 3, 3)
        marker = rect.left() + rect.width() / 2
        painter.setPen(QPen(QColor("#343a40"), 1.4))
        painter.drawLine(int(marker), int(rect.top()) - 2, int(marker), int(rect.bottom()) + 2)
        painter.restore()
        text = QStyleOptionViewItem(option)
        text.rect = option.rect.adjusted(int(bar_w) + BAR_GAP + 4, 0, 0, 0)
        super().paint(painter, text, index)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        size = super().sizeHint(option, index)
        if index.data(BAR_ROLE):
            size.setWidth(size.width() + int(BAR_W) + BAR_GAP)
        return QSize(size.width(), max(size.height(), 20))


class MetricsDock(QDockWidget):
    """Numbers of the last validation; a switch row selects that switch."""

    #: select and centre these device ids
    show_objects = Signal(object)

    def __init__(self, doc_getter, parent=None) -> None:  # noqa: ANN001
        super().__init__("Metrics", parent)
        self.setObjectName("metrics-dock")
        self._doc = doc_getter
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 4, 6, 6)
        self.status = QLabel("Waiting for the first validation…")
        self.status.setStyleSheet("color: #616e7c;")
        layout.addWidget(self.status)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["", "Value"])
        self.tree.headerItem().setToolTip(1, "a ratio's bar: green within its target (the "
                                          "marker), amber up to 1.5 times it, red beyond")
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setItemDelegateForColumn(1, BarDelegate(self.tree))
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # (a cut value keeps both ends)
        self.tree.viewport().installEventFilter(self)  # its width changes: the columns follow
        self.tree.setIndentation(12)
        self.tree.itemClicked.connect(self._on_click)
        self.visibilityChanged.connect(self._on_visibility)
        layout.addWidget(self.tree, 1)
        self.setWidget(body)
        self.report: AnalysisReport | None = None
        self.bom: Bom | None = None
        self._dirty = False
        self._lengths_summary: dict[str, Any] | None = None
        self._lengths_job: BackgroundJob | None = None
        self._sections: dict[str, QTreeWidgetItem] = {}
        self._expanded: dict[str, bool] = {"Oversubscription": True, "Bill of materials": True,
                                           "Workloads": True}

    # ---------------------------------------------------------------- filling
    def clear(self) -> None:
        self.report = None
        self.bom = None
        self._lengths_summary = None
        self.tree.clear()
        self._sections.clear()
        self.status.setText("Waiting for the first validation…")

    def set_report(self, report: AnalysisReport) -> None:
        self.report = report
        self._lengths_summary = None
        self.refresh()

    def set_bom(self, bom: Bom) -> None:
        self.bom = bom
        self.refresh()

    def refresh(self) -> None:
        """Rebuild now if the dock is shown; otherwise when it is next shown."""
        if on_screen(self) or not self.parent():
            self._dirty = False
            self._rebuild()
        else:
            self._dirty = True

    def _on_visibility(self, visible: bool) -> None:
        if visible and self._dirty:
            self._dirty = False
            self._rebuild()

    def _lengths_ready(self, report: AnalysisReport) -> dict[str, Any] | None:
        """The report's length summary: at once for a small fabric, from a worker thread for a
        big one (it walks every cable in Python, ~0.4 s at 100k)."""
        if self._lengths_summary is not None:
            return self._lengths_summary
        if len(self._doc().links) <= SYNC_LINKS:
            self._lengths_summary = report.metrics.reach.summary
            return self._lengths_summary
        if self._lengths_job is None:
            job = BackgroundJob(lambda: (report, report.metrics.reach.summary), "aicnet-lengths", self)
            job.finished.connect(self._on_lengths)
            self._lengths_job = job
            job.start()
        return None

    def _on_lengths(self, result: tuple[AnalysisReport, dict[str, Any]]) -> None:
        self._lengths_job = None
        report, summary = result
        if report is self.report:
            self._lengths_summary = summary
            self.refresh()
        elif self.report is not None:
            self._lengths_ready(self.report)

    def section(self, title: str) -> QTreeWidgetItem | None:
        return self._sections.get(title)

    def _remember_expanded(self) -> None:
        for title, item in self._sections.items():
            self._expanded[title] = item.isExpanded()

    def _rebuild(self) -> None:
        self._remember_expanded()
        scroll = self.tree.verticalScrollBar().value()
        self.tree.setUpdatesEnabled(False)
        self.tree.clear()
        self._sections.clear()
        doc = self._doc()
        if self.report is not None:
            self.status.setText(f"As of the last validation ({counted(len(self.report.findings), 'finding')})")
            self._oversubscription(doc, self.report)
            self._workloads(self.report)
            self._breakouts(self.report)
            self._lengths(self.report)
        self._bill(doc)
        for title, item in self._sections.items():
            item.setExpanded(self._expanded.get(title, False))
        self._fit_columns()
        self.tree.setUpdatesEnabled(True)
        self.tree.verticalScrollBar().setValue(scroll)

    # ---------------------------------------------------------------- column widths
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.tree.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_columns()
        return super().eventFilter(watched, event)

    def _needed(self) -> tuple[int, int, int]:
        """(the width the longest label needs with its indentation, the widest value with its
        bar at full width, and with its bar at its narrowest), over every row, folded or not
        (the columns do not jump as rows open)."""
        metrics = QFontMetrics(self.tree.font())
        indent = self.tree.indentation()
        label = full = least = 0
        stack = [(self.tree.topLevelItem(i), 1) for i in range(self.tree.topLevelItemCount())]
        while stack:
            item, depth = stack.pop()
            for k in range(item.childCount()):
                child = item.child(k)
                label = max(label, indent * (depth + 1) + metrics.horizontalAdvance(child.text(0)))
                text = metrics.horizontalAdvance(child.text(1))
                bar = child.data(1, BAR_ROLE) is not None
                full = max(full, text + (int(BAR_W) + BAR_GAP + 4 if bar else 0))
                least = max(least, text + (int(BAR_MIN) + BAR_GAP + 4 if bar else 0))
                stack.append((child, depth + 1))
        pad = cell_pad(self.tree)
        return label + pad, full + pad, least + pad

    def _fit_columns(self) -> None:
        """The labels and values whole where the dock allows it: the bars give way first
        (down to BAR_MIN), then the values (down to VALUE_SHARE of the width, cut in the
        middle with the whole text in their tooltip), the labels last."""
        width = self.tree.viewport().width()
        if width <= 0:
            return
        label, full, least = self._needed()
        room = width - label
        value = full if room >= full else max(room, min(least, int(width * VALUE_SHARE)))
        header = self.tree.header()
        header.resizeSection(1, value)
        header.resizeSection(0, max(width - value, 40))

    def _add_section(self, title: str, value: str = "") -> QTreeWidgetItem:
        """A top-level row spanning the columns: "Title · summary"."""
        item = QTreeWidgetItem([f"{title}  ·  {value}" if value else title, ""])
        font = QFont(item.font(0))
        font.setBold(True)
        item.setFont(0, font)
        item.setData(0, Qt.ItemDataRole.UserRole, value)
        self.tree.addTopLevelItem(item)
        item.setFirstColumnSpanned(True)
        self._sections[title] = item
        return item

    def section_value(self, title: str) -> str:
        item = self._sections.get(title)
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None else ""

    def _row(self, parent: QTreeWidgetItem, label: str, value: str, bar: Any = None,
             object_id: str | None = None, tip: str = "") -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [label, value])
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if bar is not None:
            item.setData(1, BAR_ROLE, bar)
            cls = theme.oversub_class(bar[0], bar[1])
            item.setForeground(1, QBrush(QColor(theme.OVERSUB_CLASSES[cls][1])))
        if object_id:
            item.setData(0, ID_ROLE, object_id)
        if tip:
            item.setToolTip(0, tip)
            item.setToolTip(1, tip)
        else:  # the whole texts, should the dock be too narrow for them
            item.setToolTip(0, label)
            item.setToolTip(1, value)
        return item

    def _oversubscription(self, doc: FabricDocument, report: AnalysisReport) -> None:
        over = report.metrics.oversubscription
        target, kind = fabric_target(doc)
        section = self._add_section("Oversubscription", f"target {target:.2f}:1 ({kind})")
        effective = over.effective
        self._row(section, "Effective", ratio_text(effective),
                  (effective, target) if effective is not None else None,
                  tip="the worst leaf-to-top path: the running product of the down:up ratios "
                  "of its switches (" + " \u2192 ".join(over.effective_path) + ")")
        tiers_label = "Per tier (averages)"
        tiers = self._row(section, tiers_label, "")
        for name, ratio in over.tiers.items():
            self._row(tiers, name.capitalize(), ratio_text(ratio), (ratio, target))
        tiers.setExpanded(True)
        if over.rails:
            rails = self._row(section, "Per rail", "", tip="the leaves of each rail together")
            for rail, ratio in over.rails.items():
                self._row(rails, f"Rail {rail}", ratio_text(ratio), (ratio, target))
        if over.planes:
            planes = self._row(section, "Per plane", "",
                               tip="each compute plane is its own fat tree: the down:up of its "
                                   "switches, per tier")
            for plane, ratios in over.planes.items():
                for tier, ratio in ratios.items():
                    self._row(planes, f"Plane {plane} · {tier}", ratio_text(ratio), (ratio, target))
            planes.setExpanded(True)
        switches = over.switches
        ordered = sorted(switches.items(), key=lambda kv: (-(kv[1] if kv[1] is not None else 1e9), kv[0]))
        over_target = sum(1 for _n, r in ordered if r is None or r > target + 1e-9)
        group = self._row(section, "Per switch",
                          f"{over_target} over target" if over_target else "all within target")
        for name, ratio in ordered[:MAX_SWITCHES]:
            device = doc.device_by_name(name)
            self._row(group, name, ratio_text(ratio), (ratio, target), device.id if device else None,
                      tip="click to select it on the canvas")
        if len(ordered) > MAX_SWITCHES:
            self._row(group, f"… {len(ordered) - MAX_SWITCHES} more", "")
        group.setExpanded(over_target > 0)

    def _workloads(self, report: AnalysisReport) -> None:
        workloads = report.metrics.workloads
        if not workloads:
            return
        section = self._add_section("Workloads", str(len(workloads)))
        for w in workloads:
            target = w.target_gbps_per_gpu
            bar = (target / w.per_gpu_gbps, 1.0) if target and w.per_gpu_gbps > 0 else None
            item = self._row(section, w.name, f"{gbps(w.per_gpu_gbps)} per GPU", bar,
                             tip=f"{w.pattern}; bottleneck: {w.bottleneck_name or w.bottleneck_tier}")
            self._row(item, "Bisection bandwidth", gbps(w.bisection_gbps),
                      tip=w.cuts.cuts_text(gbps) if w.cuts is not None else "")
            for plane, value in w.plane_bisection:
                self._row(item, f"Bisection, plane {plane}", gbps(value),
                          tip="each compute plane is its own fat tree")
            if w.allreduce_ms is not None:
                self._row(item, f"All-reduce of {w.message_mb:g} MB", f"{w.allreduce_ms:.2f} ms")
            self._row(item, "Bottleneck", w.bottleneck_name or w.bottleneck_tier,
                      object_id=w.bottleneck_switch)

    def _breakouts(self, report: AnalysisReport) -> None:
        total = report.metrics.breakouts.total
        section = self._add_section("Breakouts", f"{total['split_cages']} split cages")
        modes = self._row(section, "Cages by mode", "")
        for mode, count in total["cages_by_mode"].items():
            self._row(modes, mode, f"{count:,}")
        self._row(section, "Legs used", f"{total['legs_used']:,}")
        self._row(section, "Legs stranded", f"{total['legs_stranded']:,}",
                  tip="legs of a split cage that can carry no cable in this design")
        self._row(section, "Free ports", f"{total['free_ports']:,} "
                  f"({total['free_switch_ports']:,} on switches)",
                  tip="ports without a cable; the switches' are the room the fabric has to grow")

    def _lengths(self, report: AnalysisReport) -> None:
        summary = self._lengths_ready(report)
        if summary is None:
            self._add_section("Cable lengths", "computing…")
            return
        longest = summary["longest_m"]
        section = self._add_section("Cable lengths",
                                    f"longest {metres(longest)} m" if longest is not None else "")
        self._row(section, "Estimated", f"{summary['estimated']:,}")
        self._row(section, "Manual", f"{summary['manual']:,}")
        self._row(section, "Unknown (device not in a rack)", f"{summary['unknown']:,}")
        self._row(section, "Longer than the media reaches", f"{summary['over_reach']:,}")
        self._row(section, "No stock length long enough", f"{summary['no_stock_length']:,}")

    def _bill(self, doc: FabricDocument) -> None:
        bom = self.bom
        if bom is None:
            section = self._add_section("Bill of materials", "computing…")
            return
        cost = ("unknown" if bom.cost_usd is None else f"${bom.cost_usd:,.0f}")
        section = self._add_section("Bill of materials", power_text(bom))
        devices = self._row(section, "Devices", f"{sum(bom.devices_by_role.values()):,}")
        for model, count in bom.devices_by_model.items():
            self._row(devices, model_name(doc, model), f"{count:,}")
        for name, racks in bom.rack_systems.items():
            self._row(devices, f"ordered as {plural(name)}", f"{racks:,}",
                      tip="a rack-scale system: its compute trays come in whole racks")
        unlinked = f" ({bom.unlinked_optics:,} not linked)" if bom.unlinked_optics else ""
        optics = self._row(section, "Transceivers", f"{sum(bom.transceivers.values()):,}{unlinked}")
        for part, count in list(bom.transceivers.items())[:MAX_PARTS]:
            spare = bom.transceiver_spares.get(part, 0)
            self._row(optics, part, f"{count:,}" + (f" + {spare} spare" if spare else ""))
        cables = self._row(section, "Cables", f"{sum(bom.cables.values()):,}")
        for part, count in list(bom.cables.items())[:MAX_PARTS]:
            self._row(cables, part, f"{count:,}")
        if len(bom.cables) > MAX_PARTS:
            self._row(cables, f"… {counted(len(bom.cables) - MAX_PARTS, 'more line')}", "")
        unknown = [model_name(doc, m) for m in bom.power_unknown]
        power_tip = ("devices at maximum power, plus optics and active cables"
                     + (f"; no figure for {', '.join(unknown)}" if unknown else ""))
        power = self._row(section, "Power", power_text(bom), tip=power_tip)
        if unknown:
            self._row(power, "No power figure", ", ".join(unknown), tip=power_tip)
        for model, count, caveat in bom.power_caveats():  # typical or unverified figures
            basis = bom.power_figures[model]
            if basis.figure != "none":
                self._row(power, f"{model_name(doc, model)} x{count}", basis.short_caveat,
                          tip=f"{caveat}; {basis.source}")
        if bom.power_caveats():
            power.setExpanded(True)
        cost_tip = (f"no price for {counted(len(bom.unpriced), 'part')}: {', '.join(bom.unpriced[:6])}"
                    + ("…" if len(bom.unpriced) > 6 else "") if bom.unpriced else "list prices")
        self._row(section, "Cost", cost, tip=cost_tip)
        if bom.unpriced:
            self._row(section, "Unpriced parts", f"{len(bom.unpriced)}", tip=cost_tip)

    # ---------------------------------------------------------------- clicks
    def _on_click(self, item: QTreeWidgetItem, _column: int) -> None:
        object_id = item.data(0, ID_ROLE)
        if object_id:
            self.show_objects.emit([object_id])

    def row_texts(self, title: str) -> dict[str, str]:
        """Label -> value of a section's rows (and their children), for tests and tooltips."""
        section = self._sections.get(title)
        if section is None:
            return {}
        out: dict[str, str] = {}
        stack = [section]
        while stack:
            item = stack.pop()
            for i in range(item.childCount()):
                child = item.child(i)
                out[child.text(0)] = child.text(1)
                stack.append(child)
        return out

