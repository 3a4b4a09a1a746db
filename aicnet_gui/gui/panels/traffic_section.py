"""The Workloads dock's traffic section: the workload's collective on the drawn fabric.

For the workload selected in the dock it shows what the traffic model found
(editing/traffic_run.py): NCCL's algorithm and the flows on the network; per load-balancing
mode the fabric runs, nccl-tests' bus bandwidth and the collective's time, with the ratio to
the ideal (only the NICs limit) and for ECMP the 5th-95th percentile over its hash draws; the
modes the fabric cannot run and what its switches run instead (the model's own words); which
links set the pace; the hottest links by name (a click selects and centres one on the canvas);
and a histogram of link loads.  The mode picked with the radio buttons is the one the canvas
and the histogram show; for a mode drawn several times the pictures are of its median draw
(the mean over the draws smooths the collisions away) unless the mean is asked for.

The section only shows and asks: the runs, their progress and cancel are gui/traffic_panel.py's
(it connects the signals below).
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...analysis.collectives import NCCL_NAMES
from ...analysis.load_balancing import NAMES
from ...editing.traffic_run import MARKED_PACE, LoadPicture, ModeShown, TrafficRun
from ...editing.units import counted
from ...traffic import MODES
from .. import load_ramp, resources
from .forms import section
from .load_histogram import LoadHistogram

MODE_TITLES = {"ecmp": "ECMP (static hashing)", "adaptive": "Adaptive routing",
               "spray": "Packet spraying"}
GREY = "color: #616e7c;"
NOTE = "color: #8a5a00;"
#: ECMP draws the dock offers (the CLI's default 20)
DEFAULT_SEEDS = 20


def gbs(gbps: float) -> str:
    """Gb/s as nccl-tests prints busBW: GB/s."""
    return f"{gbps / 8:,.1f} GB/s"


def hot_text(rank: int, name: str, load: float) -> str:
    """`1.  100 %  leaf-02:swp58s1` over `spine-03:swp11s1`: the load first, each end on a line
    of its own (port names are long; the dock is narrow)."""
    first, _dash, second = name.partition(" – ")
    indent = " " * (len(f"{rank}.  {load:.0%}") + 2)
    return f"{rank}.  {load:.0%}  {first}" + (f"\n{indent}– {second}" if second else "")


def note(style: str = "") -> QLabel:
    """A word-wrapped label of the section in `style` (GREY, NOTE, or none)."""
    label = QLabel()
    label.setWordWrap(True)
    if style:
        label.setStyleSheet(style)
    return label


def swatch(colour: str) -> QIcon:
    """A small square of a load's colour, for a list row."""
    pixmap = QPixmap(12, 12)
    pixmap.fill(QColor(colour))
    return QIcon(pixmap)


class TrafficSection(QWidget):
    """Shows a `TrafficRun` and asks for runs (see the module docstring)."""

    run_requested = Signal()
    cancel_requested = Signal()
    #: ECMP draws per mode
    seeds_changed = Signal(int)
    #: the mode (and whether its median draw or the mean) the canvas and histogram show
    picture_changed = Signal()
    #: colour the canvas by load (the traffic colour mode) or not
    canvas_toggled = Signal(bool)
    #: a hottest link was clicked (its id)
    link_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.run: TrafficRun | None = None
        #: the mode shown: the fabric's own (★) until one is chosen (`mode_chosen`)
        self.mode: str | None = None
        self.mode_chosen = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(section("Traffic on the fabric"))
        controls = QHBoxLayout()
        self.run_button = QPushButton(resources.icon("validate"), "Run")
        self.run_button.setToolTip("compute the workload's traffic now (it follows every edit "
                                   "by itself while this dock or the canvas shows it)")
        self.run_button.clicked.connect(self.run_requested)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("stop the run; edits no longer start one until Run")
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(True)
        self.progress.setMaximumHeight(18)
        self.progress.setVisible(False)
        controls.addWidget(self.run_button)
        controls.addWidget(self.cancel_button)
        controls.addWidget(self.progress, 1)
        layout.addLayout(controls)
        self.status = note(GREY)
        layout.addWidget(self.status)
        options = QHBoxLayout()
        options.addWidget(QLabel("ECMP draws"))
        self.seeds = QSpinBox()
        self.seeds.setRange(1, 200)
        self.seeds.setValue(DEFAULT_SEEDS)
        self.seeds.setKeyboardTracking(False)
        self.seeds.setToolTip("static ECMP hashes each flow at random: the model draws the hashes "
                              "this many times (mean and 5th-95th percentile)")
        self.seeds.valueChanged.connect(self.seeds_changed)
        options.addWidget(self.seeds)
        options.addStretch(1)
        self.on_canvas = QCheckBox("Colour the canvas by load")
        self.on_canvas.setToolTip("View › Colour Cables › By traffic load")
        self.on_canvas.toggled.connect(self.canvas_toggled)
        options.addWidget(self.on_canvas)
        layout.addLayout(options)
        self.job = note()
        layout.addWidget(self.job)

        self.table = QGridLayout()
        self.table.setHorizontalSpacing(8)
        self.table.setVerticalSpacing(2)
        layout.addLayout(self.table)
        self.modes = QButtonGroup(self)
        self.modes.idToggled.connect(self._on_mode_toggled)
        self._mode_rows: dict[str, list[QWidget]] = {}
        self.ideal = note(GREY)
        layout.addWidget(self.ideal)
        self.same = note(NOTE)
        layout.addWidget(self.same)

        draw_row = QHBoxLayout()
        draw_row.addWidget(QLabel("Link loads of"))
        self.draw = QComboBox()
        self.draw.addItem("the median draw", True)
        self.draw.addItem("the mean of the draws", False)
        self.draw.setToolTip("which uplinks collide depends on the hash: one draw shows the hot "
                             "spots a cluster gets; the mean over the draws spreads them out")
        self.draw.currentIndexChanged.connect(lambda _i: self.picture_changed.emit())
        draw_row.addWidget(self.draw, 1)
        self.draw_box = QWidget()
        self.draw_box.setLayout(draw_row)
        draw_row.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.draw_box)
        self.pace = note()
        layout.addWidget(self.pace)
        self.hot_title = hot_title = note(GREY)
        layout.addWidget(hot_title)
        self.hottest = QListWidget()
        self.hottest.setMaximumHeight(190)
        self.hottest.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.hottest.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.hottest.itemClicked.connect(self._on_hot_clicked)
        self.hottest.itemActivated.connect(self._on_hot_clicked)
        layout.addWidget(self.hottest)
        self.histogram = LoadHistogram()
        layout.addWidget(self.histogram)
        self.notes = note(GREY)
        layout.addWidget(self.notes)
        self._results: list[QWidget] = [self.job, self.ideal, self.same, self.draw_box, self.pace,
                                        hot_title, self.hottest, self.histogram, self.notes]
        self.show_run(None)

    # ---------------------------------------------------------------- what is asked
    def one_draw(self) -> bool:
        return bool(self.draw.currentData())

    def picture(self) -> LoadPicture | None:
        """What the canvas and the histogram show now."""
        if self.run is None:
            return None
        return self.shown().picture(self.one_draw())

    def shown(self) -> ModeShown:
        assert self.run is not None
        return self.run.shown(self.mode)

    def set_on_canvas(self, on: bool) -> None:
        with QSignalBlocker(self.on_canvas):
            self.on_canvas.setChecked(on)

    # ---------------------------------------------------------------- progress
    def set_busy(self, busy: bool) -> None:
        self.cancel_button.setEnabled(busy)
        self.run_button.setEnabled(not busy)
        self.progress.setVisible(busy)
        if busy:
            self.progress.setValue(0)
            self.progress.setFormat("0 %")

    def show_progress(self, fraction: float, text: str) -> None:
        """The bar says how far, the line under it what the model does."""
        self.progress.setValue(round(fraction * 1000))
        self.progress.setFormat(f"{fraction:.0%}")
        self.set_status(f"computing: {text}")

    def set_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    # ---------------------------------------------------------------- the result
    def show_run(self, run: TrafficRun | None, stale: bool = False) -> None:
        """Show a run (None: nothing yet); `stale`: it describes the document before an edit."""
        self.run = run
        for widget in self._results:
            widget.setVisible(run is not None)
        self._clear_table()
        if run is None:
            self.hottest.clear()
            return
        if not self.mode_chosen or self.mode not in MODES:
            self.mode = run.fabric_mode
        elif self.mode not in run.modes:  # a mode this fabric routes as another
            self.mode = run.shown(self.mode).mode
        traffic = run.traffic
        algorithm = NCCL_NAMES.get(traffic.algorithm, traffic.algorithm)
        what = (f"all-reduce of {traffic.message_bytes / 1e6:g} MB, NCCL {algorithm}/"
                f"{traffic.protocol}" if traffic.collective == "allreduce" else
                f"all-to-all of {traffic.message_bytes / 1e6:g} MB per GPU")
        flows = {"none": "none on the network (one NVLink domain, or SHARP)"}.get(
            traffic.pattern, traffic.pattern)
        self.job.setText(f"{counted(traffic.gpus, 'GPU')} in {counted(traffic.nodes, 'NVLink domain')}"
                         f" · {what} · flows: {flows}")
        self._fill_table(run)
        first = next(iter(run.modes.values()))
        self.ideal.setText(f"Ideal {gbs(first.result.ideal_busbw_gbps)}: the same collective "
                           "when only the NICs limit it")
        self.same.setText("<br>".join(
            f"{MODE_TITLES[s.mode]}: not run here; the switches would run "
            f"{', '.join(NAMES[m] for m in s.runs)}, as for {MODE_TITLES[s.same_as].lower()}"
            for s in run.same))
        self.same.setToolTip("\n".join(f"{MODE_TITLES[s.mode]}: {note}" for s in run.same
                                       for note in s.notes))
        self.same.setVisible(bool(run.same))
        notes = list(traffic.notes)
        for mode, shown in run.modes.items():
            notes += [f"{MODE_TITLES[mode]}: {n}" for n in shown.result.notes]
        if run.failed_links:
            notes.insert(0, f"with {counted(len(run.failed_links), 'cable')} down "
                            "(Failure Mode)")
        self.notes.setText("<br>".join(notes))
        self.notes.setVisible(bool(notes))
        self.set_stale(stale)
        self._show_picture()

    def set_stale(self, stale: bool) -> None:
        """The numbers describe the design before the last edit (a new run is under way)."""
        for widgets in self._mode_rows.values():
            for widget in widgets:
                widget.setEnabled(not stale)

    def _clear_table(self) -> None:
        for button in self.modes.buttons():
            self.modes.removeButton(button)
        while self.table.count():
            item = self.table.takeAt(0)
            widget = item.widget()
            if widget is not None:
                widget.deleteLater()
        self._mode_rows.clear()

    def _fill_table(self, run: TrafficRun) -> None:
        for column, title in enumerate(("Mode", "busBW", "Time", "of ideal")):
            label = QLabel(title)
            label.setStyleSheet(GREY)
            self.table.addWidget(label, 0, column, Qt.AlignmentFlag.AlignRight if column else
                                 Qt.AlignmentFlag.AlignLeft)
        row = 1
        for index, (mode, shown) in enumerate(run.modes.items()):
            result = shown.result
            title = MODE_TITLES[mode] + ("  ★" if mode == run.fabric_mode else "")
            button = QRadioButton(title)
            button.setToolTip(("the fabric's own setting; " if mode == run.fabric_mode else "")
                              + "the switches run " + ", ".join(NAMES[m] for m in result.runs)
                              + "; show this mode on the canvas and in the histogram")
            self.modes.addButton(button, index)
            button.setProperty("mode", mode)
            time = f"{result.time_ms:.2f} ms" if result.time_ms is not None else "cannot finish"
            cells = [button, QLabel(gbs(result.busbw_gbps)), QLabel(time),
                     QLabel(f"{result.ratio:.0%}")]
            for column, widget in enumerate(cells):
                self.table.addWidget(widget, row, column, Qt.AlignmentFlag.AlignRight if column
                                     else Qt.AlignmentFlag.AlignLeft)
            self._mode_rows[mode] = cells
            row += 1
            if result.seeds > 1:
                spread = note(GREY)
                spread.setText(f"5th–95th percentile {gbs(result.busbw_p5_gbps)} – "
                               f"{gbs(result.busbw_p95_gbps)} over {result.seeds} draws"
                               + (f"; median draw {gbs(result.draw_busbw_gbps[shown.draw_index])}"
                                  if shown.draw_index is not None else ""))
                self.table.addWidget(spread, row, 0, 1, 4)
                self._mode_rows[mode].append(spread)
                row += 1
        self.table.setColumnStretch(0, 1)
        with QSignalBlocker(self.modes):
            for button in self.modes.buttons():
                button.setChecked(button.property("mode") == self.mode)

    def _on_mode_toggled(self, _id: int, checked: bool) -> None:
        button = self.modes.checkedButton()
        if not checked or button is None:
            return
        mode = button.property("mode")
        self.mode_chosen = True
        if mode != self.mode:
            self.mode = mode
            self._show_picture()
            self.picture_changed.emit()

    def choose_mode(self, mode: str) -> None:
        """Show `mode` (or the computed one it routes as); before a run, the mode to show."""
        if mode not in MODES:
            raise ValueError(f"unknown load-balancing mode {mode!r}")
        wanted = self.run.shown(mode).mode if self.run is not None else mode
        self.mode_chosen = True
        for button in self.modes.buttons():
            if button.property("mode") == wanted:
                button.setChecked(True)
                return
        self.mode = wanted

    def forget_mode(self) -> None:
        """A new document: show its fabric's own mode until one is chosen."""
        self.mode, self.mode_chosen = None, False

    def _show_picture(self) -> None:
        picture = self.picture()
        if picture is None:
            return
        shown = self.shown()
        self.draw_box.setVisible(shown.draw is not None)
        pace = picture.pace
        if pace is None:
            self.pace.setText("No link carries traffic of this workload.")
        else:
            tiers = ", ".join(f"{n:,} {pair}" for pair, n in pace.by_tier)
            at = f"{pace.count:,} link{'s' if pace.count != 1 else ''} at {pace.load:.0%} ({tiers})"
            if picture.nic_paced:
                self.pace.setText(f"The fabric delivers the NICs' full rate: the NICs set the "
                                  f"pace ({at}).")
            elif pace.count <= MARKED_PACE:
                self.pace.setText(f"<b>{at}</b> set the pace: marked on the canvas.")
            else:
                self.pace.setText(f"{at} set the pace together.")
        if picture.nic_paced and not picture.hottest:
            self.hot_title.setText("No switch-to-switch link carries any of it.")
        else:
            self.hot_title.setText(f"Hottest {'switch-to-switch ' if picture.nic_paced else ''}"
                                   "links (numbered on the canvas; click: select and centre)")
        self.hottest.setVisible(bool(picture.hottest))
        self.hottest.clear()
        for rank, hot in enumerate(picture.hottest, 1):
            item = QListWidgetItem(swatch(load_ramp.colour_of(hot.load)),
                                   hot_text(rank, hot.name, hot.load))
            item.setData(Qt.ItemDataRole.UserRole, hot.link_id)
            item.setToolTip(f"{hot.name}: {hot.load:.1%} of {hot.capacity_gbps:g} Gb/s over the "
                            "collective; click to select it on the canvas"
                            + ("" if rank <= picture.ranked else
                               " (not numbered on the canvas: others are as hot)"))
            self.hottest.addItem(item)
        if picture.tied and picture.hottest:
            more = QListWidgetItem(f"… and {picture.tied:,} more at "
                                   f"{picture.hottest[-1].load:.0%}")
            more.setFlags(Qt.ItemFlag.NoItemFlags)
            self.hottest.addItem(more)
        self.histogram.set_bins(picture.result.histogram, picture.idle())

    def _on_hot_clicked(self, item: QListWidgetItem) -> None:
        link_id = item.data(Qt.ItemDataRole.UserRole)
        if link_id:
            self.link_activated.emit(link_id)
