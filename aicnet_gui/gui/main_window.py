"""The main window: palette, the Topology and Floor canvases, inspector, menus, status bar.

The window arranges the parts and routes user commands to them: file commands to the
`EditorDocument`, edits to the `Editor`, selection between the scenes and the inspector.  It
holds no editing logic of its own.  Autosave follows each edit by a few seconds (autosave.py);
at start-up the window offers
to recover work a crash left behind.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from PySide6.QtCore import QByteArray, QMimeData, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QTabWidget,
    QToolBar,
)

from ..catalog.loader import load_catalog
from ..catalog.updates import entry_updates, updated_catalog
from ..editing import layout as layout_ops
from ..editing.counts import counts
from ..editing.fragments import (
    FRAGMENT_MIME,
    FragmentError,
    fragment_bytes,
    make_fragment,
    parse_fragment,
)
from ..editing.units import counted
from ..fileio import FabricFileError
from ..model.catalog import Catalog
from ..model.edits import ChangeSet, ReplaceCatalog
from . import colouring, file_places, resources, undo_messages
from .asbuilt_view import AsBuiltView
from .autosave import Autosaver
from .canvas import groups
from .canvas.floor_scene import FloorScene
from .canvas.groups import GroupKey
from .canvas.hits import DeviceHit, GroupHit, Hit, LinkHit, RackHit
from .canvas.legend import Legend
from .canvas.topology_scene import TopologyScene
from .canvas.view import FabricView
from .change_tools import ChangeTools
from .devicetype_import import choose_and_import
from .dialogs import messages
from .dialogs.bulk_connect import FullMeshDialog, split_by_tier
from .document import EditorDocument
from .editor import INFO, Editor
from .live import LivePanels
from .panels.inspector import InspectorDock
from .panels.palette import PaletteDock
from .plane_choice import PlaneChoice
from .workers.background import BackgroundJob, abandon_jobs
from .workers.load_worker import LoadedFabric, load_for_editor

FILE_FILTER = "aicnet fabric (*.fabric);;All files (*)"
MAX_RECENT = 10
PREPARING = "preparing the devices for editing…"
"""The status bar's note while the device items of a file just opened are being made (zoom, pan,
a click and the findings work meanwhile)."""


class MainWindow(QMainWindow):
    """One window, one open fabric document."""

    #: a file opened in the background is shown (its path)
    opened = Signal(object)
    #: a file could not be opened (path, message)
    open_failed = Signal(object, str)

    def __init__(self, catalog: Catalog | None = None, settings: QSettings | None = None,
                 interactive: bool = True, record_recent: bool = True) -> None:
        """`interactive`: errors in dialogs (else on stderr); `record_recent`: files opened and
        saved join File > Open Recent (a screenshot run leaves the user's list alone)."""
        super().__init__()
        self.interactive = interactive
        self.record_recent = record_recent
        problems: list = []
        if catalog is None:
            result = load_catalog()
            catalog, problems = result.catalog, result.problems
        self.catalog = catalog
        self.settings = settings or QSettings()
        self.document = EditorDocument(catalog, self)
        self.editor = Editor(self.document, self)
        self.topology = TopologyScene(self.editor, self)
        self.floor = FloorScene(self.editor, self)
        self.topology_view = FabricView(self.topology)
        self.floor_view = FabricView(self.floor)
        self.legend = Legend(self.topology_view)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.topology_view, resources.icon("view-topology"), "Topology")
        self.tabs.addTab(self.floor_view, resources.icon("view-floor"), "Floor")
        self.setCentralWidget(self.tabs)
        self.palette = PaletteDock(catalog, self)
        self.inspector = InspectorDock(self.editor, self)
        self.live = LivePanels(self)
        self.findings, self.metrics, self.workloads = (self.live.findings, self.live.metrics,
                                                       self.live.workloads)
        self.validator = self.live.validator
        self.live.shown.connect(self.inspector.set_report)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.palette)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.inspector)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.metrics)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.workloads)
        self.tabifyDockWidget(self.inspector, self.metrics)
        self.tabifyDockWidget(self.metrics, self.workloads)
        self.inspector.raise_()
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.findings)
        self.resizeDocks([self.palette, self.inspector], [300, 360], Qt.Orientation.Horizontal)
        self.resizeDocks([self.findings], [190], Qt.Orientation.Vertical)
        self.asbuilt = AsBuiltView(self)
        self._load_job: BackgroundJob | None = None
        self._sized_docks = False
        self._fit_floor = False
        self._load_started = 0.0
        #: the status text of a file just opened whose device items are still being made
        self._opened_text: str | None = None
        self.setWindowIcon(resources.app_icon())
        self.setAcceptDrops(True)
        self._paste_count = 0
        self._syncing_selection = False
        self.export_job = None
        self.plane_choice = PlaneChoice(self, self)
        self._build_status_bar()
        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self._connect()
        self.autosaver.failed.connect(lambda text: self.show_message(text, 1))
        self._counts_timer = QTimer(self)
        self._counts_timer.setSingleShot(True)
        self._counts_timer.setInterval(150)
        self._counts_timer.timeout.connect(self._update_counts)
        self._update_title()
        self._update_counts()
        self._update_actions()
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        if problems:
            self.show_message(f"{counted(len(problems), 'catalog problem')}; first: {problems[0]}", 1)

    # ---------------------------------------------------------------- building
    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.message_label = QLabel()
        self.message_label.setMinimumWidth(200)
        self.counts_label = QLabel()
        self.zoom_label = QLabel("100 %")
        self.zoom_label.setMinimumWidth(60)
        self.zoom_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(160)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.progress.setVisible(False)
        bar.addWidget(self.message_label, 1)
        bar.addPermanentWidget(self.progress)
        self.autosaver = Autosaver(self.document, self)
        bar.addPermanentWidget(self.autosaver.label)
        bar.addPermanentWidget(self.live.status_label)
        self.plane_choice.add_to_status_bar(bar)
        bar.addPermanentWidget(self.counts_label)
        bar.addPermanentWidget(self.zoom_label)
        self._message_timer = QTimer(self)
        self._message_timer.setSingleShot(True)
        self._message_timer.timeout.connect(lambda: self.message_label.setText(""))

    def _action(self, name: str, text: str, slot, shortcut=None, icon: str | None = None,  # noqa: ANN001
                tip: str = "") -> QAction:
        action = QAction(resources.icon(icon) if icon else resources.icon(name), text, self)
        if shortcut is not None:
            if isinstance(shortcut, list):
                action.setShortcuts(shortcut)
            else:
                action.setShortcut(shortcut)
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(f"{text.replace('&', '').replace('…', '')} — {tip}")
        action.triggered.connect(slot)
        self.actions_by_name[name] = action
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.actions_by_name: dict[str, QAction] = {}
        key = QKeySequence.StandardKey
        a = self._action
        a("new", "&New", self.new_document, key.New, tip="start an empty fabric")
        a("new-template", "New from &Template…", self.new_from_template, "Ctrl+Shift+N",
          tip="generate a fabric from a template")
        a("open", "&Open…", self.open_dialog, key.Open, tip="open a .fabric file")
        a("save", "&Save", self.save, key.Save, tip="save the fabric")
        a("save-as", "Save &As…", self.save_as, key.SaveAs, tip="save under a new name")
        a("revert", "&Revert", self.revert, tip="reload the saved file, dropping changes")
        a("export-pdf", "&Export…", self.export_pdf, "Ctrl+E",
          tip="the cabling plan PDF, cable schedule and label CSVs, NetBox import files")
        a("verify-asbuilt", "&Verify Against As-Built…", self.asbuilt.choose_and_run,
          icon="validate", tip="compare LLDP, ibnetdiscover or NetBox data of the installed "
          "cluster with this design")
        a("import-devicetypes", "Import &Device Types…", lambda: choose_and_import(self),
          icon="open", tip="add NetBox device-type library YAML files to your catalog")
        a("quit", "&Quit", self.close, key.Quit, icon="quit")
        undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(key.Undo)
        undo.setIcon(resources.icon("undo"))
        redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence(key.Redo), QKeySequence("Ctrl+Y")])
        redo.setIcon(resources.icon("redo"))
        self.actions_by_name["undo"], self.actions_by_name["redo"] = undo, redo
        undo_messages.connect(undo, redo, self.document.undo_stack, self.show_message)
        a("cut", "Cu&t", self.cut, key.Cut)
        a("copy", "&Copy", self.copy, key.Copy)
        a("paste", "&Paste", self.paste, key.Paste)
        a("duplicate", "&Duplicate", self.duplicate, "Ctrl+D", tip="copy and paste the selected devices")
        a("delete", "De&lete", self.delete_selection, [QKeySequence(key.Delete), QKeySequence("Backspace")],
          tip="remove the selection")
        a("select-all", "Select &All", self.select_all, key.SelectAll)
        a("update-catalog", "Update Catalog &Entries…", self.update_catalog_entries,
          tip="take newer data (prices, power, reach) for the parts this design uses from your catalog")
        a("fabric-settings", "Fabric &Settings…", lambda: self.editor.open_fabric_settings(self),
          "Ctrl+,", tip="site, labels, network, oversubscription targets, cable lengths, "
          "naming, design notes")
        a("connect-next", "Connect to &Next Free Port", self.connect_next_free, "Ctrl+L",
          tip="one cable between the next free same-speed ports of two selected devices")
        a("connect-mesh", "&Full Mesh…", self.full_mesh, "Ctrl+M",
          tip="every lower-tier device to every upper-tier device")
        a("connect-rail", "&Rail Wiring", self.rail_wiring, "Ctrl+Shift+W",
          tip="NIC i of every selected server to the leaf of rail i")
        a("choose-media", "Choose &Media for Selection", self.choose_media, "Ctrl+Shift+M",
          tip="optics and cords that reach, for the selected cables (or every cable of the "
          "selected devices), as the templates choose them; one undo step")
        a("auto-layout", "Auto-&Layout by Tier", self.editor.auto_layout, "Ctrl+Shift+L",
          tip="tidy the topology: core, spines, leaves, servers")
        for how, text in (("left", "Align Left"), ("hcenter", "Align Centres Horizontally"),
                          ("right", "Align Right"), ("top", "Align Top"),
                          ("vcenter", "Align Middles Vertically"), ("bottom", "Align Bottom"),
                          ("hdistribute", "Distribute Horizontally"), ("vdistribute", "Distribute Vertically")):
            a(f"align-{how}", text, lambda _c=False, h=how: self.align(h))
        a("add-rack", "Add &Rack", self.add_rack, "Ctrl+Shift+R", tip="a 48U rack at the end of row 1")
        a("view-topology", "&Topology", lambda: self.tabs.setCurrentIndex(0), "Ctrl+1")
        a("view-floor", "&Floor", lambda: self.tabs.setCurrentIndex(1), "Ctrl+2")
        a("zoom-in", "Zoom &In", lambda: self.current_view().zoom_by(1.25), [QKeySequence(key.ZoomIn), QKeySequence("Ctrl+=")])
        a("zoom-out", "Zoom &Out", lambda: self.current_view().zoom_by(0.8), key.ZoomOut)
        a("fit", "&Fit to View", self.fit_current, "Ctrl+0", tip="show the whole fabric")
        snap = a("snap-grid", "&Snap to Grid", self._toggle_snap)
        snap.setCheckable(True)
        snap.setChecked(True)
        legend = a("legend", "&Legend", lambda checked: self.legend.setVisible(checked))
        legend.setCheckable(True)
        legend.setChecked(True)
        a("validate", "&Validate Now", self.validator.revalidate, "F5", icon="validate",
          tip="check the whole fabric again")
        self.change_tools = ChangeTools(self)
        a("compare", "Compare &With…", self.change_tools.compare_dialog, icon="open",
          tip="select what differs from another revision of this design")
        a("whatif", "Failure &What-If on Selection", self.change_tools.whatif_selection,
          "Ctrl+Shift+F", icon="severity-warning",
          tip="what failing the selected devices and cables does to every workload")
        failure = a("failure-mode", "&Failure Mode", self.change_tools.set_failure_mode,
                    icon="severity-warning",
                    tip="grey out the devices and cables of the last failure what-if (the "
                    "design is not edited)")
        failure.setCheckable(True)
        failure.setEnabled(False)
        self.colour_group = QActionGroup(self)
        for mode, title in colouring.MODES.items():
            action = a(f"colour-{mode}", f"By {title.lower()}" if mode != "cable" else title,
                       lambda _c=False, m=mode: self.set_colour_mode(m), icon="colour-mode")
            action.setCheckable(True)
            action.setChecked(mode == "cable")
            self.colour_group.addAction(action)
        for kind, title in (("su", "Scalable Units"), ("rack", "Racks"), ("rail", "Rails"),
                            ("plane", "Planes")):
            a(f"collapse-{kind}", f"Collapse All {title}", lambda _c=False, k=kind: self.collapse_all(k),
              icon="collapse", tip=f"draw each {kind if kind != 'su' else 'scalable unit'} as one box")
        a("expand-all", "E&xpand All Groups", self.expand_all, icon="expand",
          tip="show every device of the collapsed groups")
        a("about", "&About aicnet", self.about, icon="aicnet-small")

    def _build_menus(self) -> None:
        act = self.actions_by_name
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        for name in ("new", "new-template", "open"):
            file_menu.addAction(act[name])
        self.recent_menu = file_menu.addMenu(resources.icon("recent"), "Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file_menu.addSeparator()
        for name in ("save", "save-as", "revert"):
            file_menu.addAction(act[name])
        file_menu.addSeparator()
        file_menu.addAction(act["export-pdf"])
        file_menu.addAction(act["compare"])
        file_menu.addAction(act["verify-asbuilt"])
        file_menu.addAction(act["import-devicetypes"])
        file_menu.addSeparator()
        file_menu.addAction(act["quit"])
        edit = bar.addMenu("&Edit")
        for name in ("undo", "redo", None, "cut", "copy", "paste", "duplicate", "delete", None, "select-all",
                     None, "fabric-settings", "update-catalog"):
            edit.addSeparator() if name is None else edit.addAction(act[name])
        wire = bar.addMenu("&Connect")
        for name in ("connect-next", "connect-mesh", "connect-rail", None, "choose-media"):
            wire.addSeparator() if name is None else wire.addAction(act[name])
        arrange = bar.addMenu("&Arrange")
        arrange.addAction(act["auto-layout"])
        arrange.addSeparator()
        for how in ("left", "hcenter", "right", "top", "vcenter", "bottom"):
            arrange.addAction(act[f"align-{how}"])
        arrange.addSeparator()
        arrange.addAction(act["align-hdistribute"])
        arrange.addAction(act["align-vdistribute"])
        arrange.addSeparator()
        arrange.addAction(act["add-rack"])
        view = bar.addMenu("&View")
        for name in ("view-topology", "view-floor", None, "zoom-in", "zoom-out", "fit", None, "snap-grid", "legend"):
            view.addSeparator() if name is None else view.addAction(act[name])
        view.addSeparator()
        colour = view.addMenu(resources.icon("colour-mode"), "&Colour Cables")
        for mode in colouring.MODES:
            colour.addAction(act[f"colour-{mode}"])
        collapse = view.addMenu(resources.icon("collapse"), "&Groups")
        for name in ("collapse-su", "collapse-rack", "collapse-rail", "collapse-plane", None,
                     "expand-all"):
            collapse.addSeparator() if name is None else collapse.addAction(act[name])
        view.addMenu(self.plane_choice.menu)
        view.addAction(act["validate"])
        view.addAction(act["whatif"])
        view.addAction(act["failure-mode"])
        view.addSeparator()
        for dock in (self.palette, self.inspector, self.findings, self.metrics, self.workloads,
                     self.asbuilt.dock):
            view.addAction(dock.toggleViewAction())
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(act["about"])

    def _build_toolbar(self) -> None:
        act = self.actions_by_name
        bar = QToolBar("Main")
        bar.setObjectName("main-toolbar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        for name in ("new", "open", "save", None, "undo", "redo", None, "duplicate", "delete", None,
                     "connect-next", "connect-mesh", "connect-rail", None, "auto-layout", "align-left",
                     "align-top", "align-hdistribute", None, "add-rack", None, "zoom-out", "zoom-in", "fit"):
            bar.addSeparator() if name is None else bar.addAction(act[name])
        bar.addSeparator()
        self.colour_combo = QComboBox()
        self.colour_combo.setToolTip("Colour cables (and switches) by…")
        for mode, title in colouring.MODES.items():
            self.colour_combo.addItem(resources.icon("colour-mode"), title, mode)
        self.colour_combo.currentIndexChanged.connect(
            lambda: self.set_colour_mode(self.colour_combo.currentData()))
        bar.addWidget(QLabel("  Colour: "))
        bar.addWidget(self.colour_combo)
        self.plane_choice.add_to_toolbar(bar)
        bar.addSeparator()
        bar.addAction(act["collapse-su"])
        bar.addAction(act["expand-all"])
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.toolbar = bar

    def _connect(self) -> None:
        doc = self.document
        doc.dirty_changed.connect(self._update_title)
        doc.path_changed.connect(self._update_title)
        doc.changed.connect(self._on_changed)
        doc.reset.connect(self._on_reset)
        self.editor.message.connect(self.show_message)
        self.editor.select_requested.connect(self.select_ids)
        self.topology.selection_changed_ids.connect(lambda: self._on_selection(self.topology))
        self.floor.selection_changed_ids.connect(lambda: self._on_selection(self.floor))
        self.topology.hint.connect(self._show_hint)
        self.topology.built.connect(self._on_topology_built)
        self.floor.hint.connect(self._show_hint)
        self.topology_view.zoom_changed.connect(lambda s: self._on_zoom(s, self.topology_view))
        self.topology_view.zoom_changed.connect(self.topology.set_view_scale)
        self.floor_view.zoom_changed.connect(lambda s: self._on_zoom(s, self.floor_view))
        self.floor_view.zoom_changed.connect(self.floor.set_view_scale)
        self.tabs.currentChanged.connect(self._on_tab)
        self.palette.add_requested.connect(self.add_device_from_palette)
        self.inspector.select_link.connect(lambda link_id: self.select_ids([], [link_id], [], centre=True))
        self.topology.edit_requested.connect(self._edit_device)
        for view in (self.topology_view, self.floor_view):
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.customContextMenuRequested.connect(lambda pos, v=view: self._context_menu(v, pos))

    # ---------------------------------------------------------------- helpers
    def current_view(self) -> FabricView:
        return self.floor_view if self.tabs.currentIndex() == 1 else self.topology_view

    def current_scene(self) -> TopologyScene | FloorScene:
        return self.floor if self.tabs.currentIndex() == 1 else self.topology

    def selection(self) -> tuple[list[str], list[str], list[str]]:
        if self.current_scene() is self.floor:
            return self.floor.selected_device_ids(), [], self.floor.selected_rack_ids()
        return self.topology.selected_device_ids(), self.topology.selected_link_ids(), []

    def show_message(self, text: str, level: int = INFO) -> None:
        colour = "#c92a2a" if level else "#1f2933"
        self.message_label.setStyleSheet(f"color: {colour};")
        self.message_label.setText(text)
        self.message_label.setToolTip(text)
        self._message_timer.start(12_000 if level else 6_000)

    def _show_hint(self, text: str) -> None:
        if text:
            self.show_message(text)
        else:
            self.message_label.setText("")

    def _update_title(self, *_args: object) -> None:
        mark = "*" if self.document.dirty else ""
        self.setWindowTitle(f"{self.document.display_name()}{mark} — aicnet")
        self.actions_by_name["revert"].setEnabled(self.document.path is not None and self.document.dirty)

    def _update_counts(self) -> None:
        summary = counts(self.document.fabric)
        devices, links, racks = self.selection()
        selected = len(devices) + len(links) + len(racks)
        text = " · ".join([counted(summary.devices, "device"), counted(summary.links, "cable"),
                           counted(summary.racks, "rack"), counted(summary.gpus, "GPU")])
        if selected:
            text += f"   |   {selected} selected"
        self.counts_label.setText(text)

    def _update_legend(self, device_ids: set[str] | None = None) -> None:
        """The speeds in the legend: those of the panel geometries in use now (shared by the
        devices of a model and breakout mode, so a few), after every change, undo and redo."""
        speeds: set[int] = set()
        for geometry in self.topology.panel_geometries():
            speeds.update(p.speed_gbps for p in geometry.ports.values() if p.fabric)
        self.legend.set_speeds(speeds)

    def _update_actions(self) -> None:
        devices, links, racks = self.selection()
        topology = self.current_scene() is self.topology
        act = self.actions_by_name
        act["delete"].setEnabled(bool(devices or links or racks))
        act["cut"].setEnabled(bool(devices))
        act["copy"].setEnabled(bool(devices))
        act["duplicate"].setEnabled(bool(devices))
        act["connect-next"].setEnabled(len(devices) == 2)
        tiers = split_by_tier(self.document.fabric, devices)
        act["connect-mesh"].setEnabled(len(tiers) >= 2)
        act["connect-rail"].setEnabled(0 in tiers and 1 in tiers)
        act["choose-media"].setEnabled(bool(links or devices))
        for how in layout_ops.ALIGNMENTS:
            act[f"align-{how}"].setEnabled(topology and len(devices) >= 2)
        act["auto-layout"].setEnabled(topology and bool(self.document.fabric.devices))

    # ---------------------------------------------------------------- reactions
    def _on_changed(self, changes: ChangeSet) -> None:
        self._counts_timer.start()
        if changes.devices:
            self._update_legend(changes.devices)

    def _on_reset(self) -> None:
        self._paste_count = 0
        self._update_counts()
        self._update_legend()
        self._update_actions()
        self._update_title()

    def _on_selection(self, scene: TopologyScene | FloorScene) -> None:
        if self._syncing_selection or scene is not self.current_scene():
            return
        devices, links, racks = self.selection()
        self.inspector.show_selection(devices, links, racks)
        self._update_counts()
        self._update_actions()

    def _on_tab(self, index: int) -> None:
        self.floor.set_eager(index == 1)
        self.plane_choice.set_floor(index == 1)
        if index == 1 and self._fit_floor:
            self._fit_floor = False
            self.floor_view.fit_all()
        # carry the device selection over to the other view
        other = self.topology if index == 1 else self.floor
        current = self.current_scene()
        devices = other.selected_device_ids()
        self._syncing_selection = True
        try:
            if current is self.topology:
                self.topology.select_ids(devices, [])
            else:
                self.floor.select_ids(devices, [])
        finally:
            self._syncing_selection = False
        self._on_selection(current)
        self._on_zoom(self.current_view().scale_factor())

    def _on_zoom(self, scale: float, view: FabricView | None = None) -> None:
        if view is None or view is self.current_view():
            self.zoom_label.setText(f"{scale * 100:.0f} %")

    def _toggle_snap(self, checked: bool) -> None:
        self.topology.snap = checked

    def selected_servers(self) -> list[str]:
        """The servers (tier 0) selected on the current canvas."""
        doc = self.document.fabric
        devices, _links, _racks = self.selection()
        return [d for d in devices if d in doc.devices and doc.tier_of(doc.devices[d]) == 0]

    def show_objects(self, ids: list[str]) -> None:
        """Select and centre what a finding or metric names (devices and cables; racks on the
        floor; a workload in its dock)."""
        doc = self.document.fabric
        devices = [i for i in ids if i in doc.devices]
        links = [i for i in ids if i in doc.links]
        racks = [i for i in ids if i in doc.racks]
        workloads = [i for i in ids if i in doc.workloads]
        if workloads and not (devices or links or racks):
            self.workloads.show()
            self.workloads.raise_()
            self.workloads.select(workloads[0])
            return
        if racks and not (devices or links):
            self.tabs.setCurrentIndex(1)
        elif devices or links:
            self.tabs.setCurrentIndex(0)
        self.select_ids(devices, links, racks, centre=True)

    def select_ids(self, devices, links, racks, centre: bool = False) -> None:  # noqa: ANN001
        if self.current_scene() is self.floor:
            self.floor.select_ids(devices, racks)
            if centre:
                items = [self.floor.items_by_id[d] for d in devices if d in self.floor.items_by_id]
                items += [self.floor.racks_by_id[r] for r in racks if r in self.floor.racks_by_id]
                if items:
                    rect = items[0].sceneBoundingRect()
                    for item in items[1:]:
                        rect = rect.united(item.sceneBoundingRect())
                    self.floor_view.centerOn(rect.center())
        else:
            self.plane_choice.reveal(list(devices), list(links))  # a hidden plane's objects
            self.topology.select_ids(devices, links)
            if centre:
                rect = self.topology.ensure_item_visible_rect(devices, links)
                if not rect.isNull():
                    self.centre_on(rect)

    def centre_on(self, rect) -> None:  # noqa: ANN001
        """Centre the Topology view on `rect`, zooming out if it does not fit (never in)."""
        view = self.topology_view
        visible = view.mapToScene(view.viewport().rect()).boundingRect()
        if rect.width() > visible.width() * 0.9 or rect.height() > visible.height() * 0.9:
            view.fit_rect(rect, max_scale=view.scale_factor())
        view.centerOn(rect.center())

    # ---------------------------------------------------------------- file commands
    def maybe_save(self) -> bool:
        """True when the current document may be replaced (saved, discarded or clean)."""
        if not self.document.dirty:
            return True
        answer = messages.ask_save_changes(self, self.document.display_name())
        if answer == messages.SAVE:
            return self.save()
        return answer == messages.DISCARD

    def new_document(self) -> None:
        if self.maybe_save():
            self.document.new()
            self.fit_to_view()

    def new_from_template(self) -> None:
        from .dialogs.template_wizard import run_template_wizard

        if not self.maybe_save():
            return
        run_template_wizard(self)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = file_places.open_start(self.settings, self.document.path)
        path, _filter = QFileDialog.getOpenFileName(self, "Open fabric", start, FILE_FILTER)
        if path:
            self.open_in_background(path, ask=False)

    def loading(self) -> bool:
        return self._load_job is not None

    def open_in_background(self, path: str | Path, ask: bool = True) -> bool:
        """Open a file without blocking the window: it is read and prepared in a worker thread
        (a progress bar shows meanwhile), then shown; `opened` or `open_failed` follows."""
        if self._load_job is not None:
            self.show_message("Still opening the previous file", 1)
            return False
        if ask and not self.maybe_save():
            return False
        path = Path(path)
        catalog = self.catalog
        job = BackgroundJob(lambda: load_for_editor(path, catalog), "aicnet-open", self)
        job.finished.connect(self._on_loaded)
        job.failed.connect(lambda exc: self._on_load_failed(path, exc))
        self._load_job = job
        self._load_started = time.perf_counter()
        self._opened_text = None
        self._set_loading(True, f"Opening {path.name}…")
        job.start()
        return True

    def _set_loading(self, loading: bool, text: str = "") -> None:
        self.progress.setVisible(loading)
        # the old document must not be edited while it is being replaced
        for widget in (self.tabs, self.inspector, self.palette, self.workloads, self.findings):
            widget.setEnabled(not loading)
        if loading:
            self.message_label.setStyleSheet("color: #1f2933;")
            self.message_label.setText(text)
            QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        else:
            QGuiApplication.restoreOverrideCursor()

    def _on_loaded(self, loaded: LoadedFabric) -> None:
        self._load_job = None
        shown_from = time.perf_counter()
        try:
            self.document.adopt(loaded)
        finally:
            self._set_loading(False)
        self._add_recent(self.document.path)
        self.fit_to_view()
        total = (time.perf_counter() - self._load_started) * 1000
        gui = (time.perf_counter() - shown_from) * 1000
        layout = ", laid out by tier" if loaded.laid_out else ""
        text = (f"Opened {self.document.display_name()} in {total:.0f} ms (read "
                f"{loaded.load_ms:.0f} ms, prepared {loaded.prepare_ms:.0f} ms{layout}, "
                f"shown {gui:.0f} ms)")
        if self.topology.items_pending():  # its device items follow the first frame, in slices
            self._opened_text = text
            self.show_message(f"{text} · {PREPARING}")
        else:
            self.show_message(text)
        QTimer.singleShot(500, self._hint_catalog_updates)  # not urgent: after the first frames
        self.opened.emit(self.document.path)

    def _on_topology_built(self) -> None:
        """The device items of a file just opened are all made: the status bar says so."""
        text, self._opened_text = self._opened_text, None
        if text is not None and self.message_label.text().endswith(PREPARING):
            ready = (time.perf_counter() - self._load_started) * 1000
            self.show_message(f"{text} · every device ready {ready:.0f} ms after the open")

    def update_catalog_entries(self) -> bool:
        """Offer the local catalog's version of every entry the design uses that differs from
        the one the design embeds; taking them is one checked, undoable edit."""
        doc = self.document.fabric
        updates = entry_updates(doc, self.catalog)
        if not updates:
            self.show_message("Every catalog entry this design uses matches your catalog")
            return False
        if not messages.ask_update_catalog(self, [u.describe() for u in updates]):
            return False
        catalog = updated_catalog(doc, self.catalog, [u.entry_id for u in updates])
        return self.document.execute([ReplaceCatalog(catalog)],
                                     f"Update {counted(len(updates), 'catalog entry')}")

    def _hint_catalog_updates(self) -> None:
        """After opening: say so when the local catalog has other versions of used entries."""
        updates = entry_updates(self.document.fabric, self.catalog)
        if updates:
            self.show_message(f"{counted(len(updates), 'catalog entry')} of this design "
                              f"{'differs' if len(updates) == 1 else 'differ'} from your catalog: "
                              "Edit › Update Catalog Entries…")

    def _on_load_failed(self, path: Path, exc: object) -> None:
        self._load_job = None
        self._set_loading(False)
        text = str(exc) if isinstance(exc, FabricFileError) else f"{path}: {type(exc).__name__}: {exc}"
        if self.interactive:
            messages.show_error(self, "Cannot open fabric", text)
        else:
            print(f"aicnet-gui: {text}", file=sys.stderr)
        self.show_message(f"Could not open {path.name}", 1)
        self.open_failed.emit(path, text)

    def open_path(self, path: str | Path, ask: bool = True) -> bool:
        """Open a file; a bad file shows its error and the current document stays."""
        if ask and not self.maybe_save():
            return False
        started = time.perf_counter()
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.document.open(path)
        except FabricFileError as exc:
            QGuiApplication.restoreOverrideCursor()
            if self.interactive:
                messages.show_error(self, "Cannot open fabric", str(exc))
            else:
                print(f"aicnet-gui: {exc}", file=sys.stderr)
            self.show_message(f"Could not open {Path(path).name}", 1)
            return False
        QGuiApplication.restoreOverrideCursor()
        self._add_recent(self.document.path)
        self.fit_to_view()
        elapsed = (time.perf_counter() - started) * 1000
        self.show_message(f"Opened {self.document.display_name()} in {elapsed:.0f} ms")
        self._hint_catalog_updates()
        return True

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        start = file_places.save_start(self.settings, self.document.path, self.document.fabric.metadata.name)
        path, _filter = QFileDialog.getSaveFileName(self, "Save fabric as", start, FILE_FILTER)
        if not path:
            return False
        if not path.endswith(".fabric"):
            path += ".fabric"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.document.save(path)
        except FabricFileError as exc:
            messages.show_error(self, "Cannot save fabric", str(exc))
            return False
        self._add_recent(self.document.path)
        self.show_message(f"Saved {self.document.display_name()}")
        return True

    def revert(self) -> None:
        if self.document.path is None:
            return
        if self.document.dirty:
            answer = messages.ask_save_changes(self, self.document.display_name())
            if answer == messages.CANCEL:
                return
            if answer == messages.SAVE:
                self.save()
                return
        try:
            self.document.revert()
        except FabricFileError as exc:
            messages.show_error(self, "Cannot revert", str(exc))
            return
        self.fit_to_view()
        self.show_message(f"Reverted to the saved {self.document.display_name()}")

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _add_recent(self, path: Path | None) -> None:
        file_places.remember_folder(self.settings, path)  # Open and Save As start there next
        if path is None or not self.record_recent:
            return
        recent = [p for p in self.recent_files() if p != str(path)]
        recent.insert(0, str(path))
        self.settings.setValue("recent", recent[:MAX_RECENT])

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        if not recent:
            empty = self.recent_menu.addAction("(no recent files)")
            empty.setEnabled(False)
            return
        for index, path in enumerate(recent, start=1):
            action = self.recent_menu.addAction(f"&{index % 10}  {Path(path).name}")
            action.setToolTip(path)
            action.setStatusTip(path)
            action.setEnabled(Path(path).exists())
            action.triggered.connect(lambda _c=False, p=path: self.open_in_background(p))
        self.recent_menu.addSeparator()
        clear = self.recent_menu.addAction("Clear the list")
        clear.triggered.connect(lambda: self.settings.setValue("recent", []))

    def export_pdf(self) -> None:
        from .dialogs.export_dialog import run_export

        run_export(self)

    # ---------------------------------------------------------------- recovery
    def autosave(self) -> Path | None:
        try:
            return self.document.autosave()
        except OSError as exc:
            self.show_message(f"Autosave failed: {exc}", 1)
            return None

    def start(self, file: str | None) -> None:
        """At start-up: offer work a crash left behind first, then open `file` (if any)."""
        if self.offer_recovery():
            if file:
                self.show_message(f"Recovered unsaved work; {Path(file).name} was not opened", 1)
            return
        if file:
            self.open_in_background(file, ask=False)

    def offer_recovery(self) -> bool:
        """Offer the newest recovery file a crash left behind; True if one was restored."""
        for recovery in self.document.pending_recoveries():
            answer = messages.ask_recover(self, recovery)
            if answer == messages.RECOVER:
                try:
                    self.document.recover(recovery)
                except FabricFileError as exc:
                    messages.show_error(self, "Cannot recover", str(exc))
                    self.document.recovery.remove(recovery)
                    continue
                self.fit_to_view()
                self.show_message("Recovered unsaved work; save it to keep it")
                return True
            if answer == messages.DISCARD:
                self.document.recovery.remove(recovery)
                continue
            return False
        return False

    # ---------------------------------------------------------------- edit commands
    def add_device_from_palette(self, model_id: str) -> None:
        if self.current_scene() is self.floor:
            self.editor.add_device(model_id)
        else:
            device_id = self.editor.add_device(model_id)
            if device_id:
                rect = self.topology.ensure_item_visible_rect([device_id], [])
                self.topology_view.ensureVisible(rect, 60, 60)

    def delete_selection(self) -> None:
        devices, links, racks = self.selection()
        if devices or links or racks:
            self.editor.delete(devices, links, racks)

    def copy(self) -> bool:
        devices, links, _racks = self.selection()
        if not devices:
            return False
        fragment = make_fragment(self.document.fabric, devices, links)
        data = QMimeData()
        raw = fragment_bytes(fragment)
        data.setData(FRAGMENT_MIME, raw)
        data.setText(raw.decode())
        QApplication.clipboard().setMimeData(data)
        self._paste_count = 0
        self.show_message(f"Copied {counted(len(fragment['devices']), 'device')} and "
                          f"{counted(len(fragment['links']), 'cable')}")
        return True

    def cut(self) -> None:
        if self.copy():
            self.delete_selection()

    def paste(self) -> None:
        data = QApplication.clipboard().mimeData()
        raw = bytes(data.data(FRAGMENT_MIME).data()) if data and data.hasFormat(FRAGMENT_MIME) else (
            data.text().encode() if data and data.hasText() else b"")
        try:
            fragment = parse_fragment(raw)
        except FragmentError as exc:
            self.show_message(str(exc), 1)
            return
        self._paste_count += 1
        step = 40.0 * self._paste_count
        self.tabs.setCurrentIndex(0)
        self.editor.paste(fragment, (step, step))

    def duplicate(self) -> None:
        devices, _links, _racks = self.selection()
        self.tabs.setCurrentIndex(0)
        self.editor.duplicate(devices)

    def select_all(self) -> None:
        self.current_scene().select_all()

    def connect_next_free(self) -> None:
        devices, _l, _r = self.selection()
        if len(devices) != 2:
            self.show_message("Select exactly two devices to connect them", 1)
            return
        self.editor.connect_next_free(devices[0], devices[1])

    def full_mesh(self) -> None:
        devices, _l, _r = self.selection()
        dialog = FullMeshDialog(self.document.fabric, devices, self)
        if dialog.exec():
            lower, upper, per_pair = dialog.choice()
            self.editor.full_mesh(lower, upper, per_pair)

    def rail_wiring(self) -> None:
        devices, _l, _r = self.selection()
        tiers = split_by_tier(self.document.fabric, devices)
        self.editor.rail_wiring(tiers.get(0, []), tiers.get(1, []))

    def choose_media(self) -> None:
        devices, links, _r = self.selection()
        doc = self.document.fabric
        ids = set(links)
        for device in devices:
            ids |= doc.link_ids_of(device)
        self.editor.choose_media(sorted(ids))

    def align(self, how: str) -> None:
        devices, _l, _r = self.selection()
        self.editor.align(devices, how)

    def add_rack(self) -> None:
        rack_id = self.editor.add_rack()
        if rack_id:
            self.tabs.setCurrentIndex(1)
            self.floor.select_ids([], [rack_id])
            item = self.floor.racks_by_id.get(rack_id)
            if item is not None:
                self.floor_view.ensureVisible(item.sceneBoundingRect(), 40, 40)

    def _edit_device(self, _device_id: str) -> None:
        self.inspector.show()
        self.inspector.raise_()
        name = self.inspector.device_page.name
        name.setFocus(Qt.FocusReason.OtherFocusReason)
        name.selectAll()

    def _context_menu(self, view: FabricView, pos) -> None:  # noqa: ANN001
        """Right-click: select what is under the cursor (if it is not selected) and offer verbs."""
        scene_pos = view.mapToScene(pos)
        if view.scene() is self.topology:
            hit = self.topology.hit_at(scene_pos, view.scale_factor())
        else:
            hit = self.floor.hit_at(scene_pos)
        self._select_hit(view.scene(), hit)
        devices, links, racks = self.selection()
        menu = QMenu(self)
        if devices or links or racks:
            for name in ("copy", "duplicate", "delete"):
                menu.addAction(self.actions_by_name[name])
            menu.addSeparator()
        if view.scene() is self.topology:
            self._topology_menu(menu, hit, devices)
        else:
            self._floor_menu(menu, devices)
        menu.addSeparator()
        menu.addAction(self.actions_by_name["fit"])
        menu.exec(view.viewport().mapToGlobal(pos))

    def _select_hit(self, scene: object, hit: Hit | None) -> None:
        """A right-click on something not selected selects it (alone)."""
        target = self.topology if scene is self.topology else self.floor
        match hit:
            case DeviceHit(device_id=device_id, selected=False):
                target.select_ids([device_id], [])
            case LinkHit(link_id=link_id, selected=False):
                self.topology.select_ids([], [link_id])
            case RackHit(rack_id=rack_id, selected=False):
                self.floor.select_ids([], [rack_id])

    def _topology_menu(self, menu: QMenu, hit: Hit | None, devices: list[str]) -> None:
        act = self.actions_by_name
        fabric = self.document.fabric
        if isinstance(hit, GroupHit):
            expand = menu.addAction(resources.icon("expand"), f"Expand {hit.title}")
            expand.triggered.connect(lambda: self.topology.expand([hit.key]))
        if isinstance(hit, DeviceHit) and hit.device_id in fabric.devices:
            for key in groups.groups_of(fabric, fabric.devices[hit.device_id]):
                entry = menu.addAction(resources.icon("collapse"), f"Collapse {key.title(fabric)}")
                entry.triggered.connect(lambda _c=False, k=key: self.collapse([k]))
        if self.topology.collapsed:
            menu.addAction(act["expand-all"])
        menu.addSeparator()
        for name in ("connect-next", "connect-mesh", "connect-rail", "choose-media"):
            if act[name].isEnabled():
                menu.addAction(act[name])
        if len(devices) >= 2:
            align = menu.addMenu(resources.icon("align-left"), "Align")
            for how in layout_ops.ALIGNMENTS:
                align.addAction(act[f"align-{how}"])
        menu.addSeparator()
        menu.addAction(act["paste"])
        menu.addAction(act["auto-layout"])

    def _floor_menu(self, menu: QMenu, devices: list[str]) -> None:
        racked = [d for d in devices if self.document.fabric.devices[d].rack]
        if racked:
            take_out = menu.addAction("Take Out of Rack")
            take_out.triggered.connect(
                lambda: self.editor.place_devices({d: (None, None) for d in racked}))
        menu.addAction(self.actions_by_name["add-rack"])

    # ---------------------------------------------------------------- colour modes and groups
    def set_colour_mode(self, mode: str) -> None:
        self.live.set_colour_mode(mode)
        self.actions_by_name[f"colour-{mode}"].setChecked(True)
        index = self.colour_combo.findData(mode)
        if index != self.colour_combo.currentIndex():
            self.colour_combo.blockSignals(True)
            self.colour_combo.setCurrentIndex(index)
            self.colour_combo.blockSignals(False)
        self.show_message(f"Cables coloured by {colouring.MODES[mode].lower()}")

    def collapse_all(self, kind: str) -> int:
        keys = groups.all_groups(self.document.fabric, kind)
        count = self.topology.collapse(keys)
        if not keys:
            self.show_message(f"No {kind if kind != 'su' else 'scalable unit'} groups in this fabric", 1)
        else:
            far = self.topology.overview.active  # the boxes show closer in, not over blocks
            self.show_message(f"Collapsed {counted(count, 'group')}; "
                              + ("zoom in to see the boxes" if far else
                                 "double-click a box to open it"))
        return count

    def collapse(self, keys: list[GroupKey]) -> None:
        self.tabs.setCurrentIndex(0)
        self.topology.collapse(keys)

    def expand_all(self) -> None:
        self.topology.expand_all()

    # ---------------------------------------------------------------- view
    def fit_current(self) -> None:
        self.current_view().fit_all()

    def fit_to_view(self) -> None:
        self.topology_view.fit_all()
        if self.floor.stale:
            self._fit_floor = True  # fitted once it is built, when the Floor tab is shown
        else:
            self.floor_view.fit_all()

    def about(self) -> None:
        from .dialogs.about import show_about

        show_about(self)

    # ---------------------------------------------------------------- window events
    def showEvent(self, event) -> None:  # noqa: ANN001, N802
        super().showEvent(event)
        if not self._sized_docks and self.settings.value("window/state") is None:
            # first start: room for the metrics and findings (later starts restore the layout)
            self._sized_docks = True
            palette = max(280, min(self.palette.preferred_width(), self.width() // 4))
            self.resizeDocks([self.palette, self.inspector], [palette, 400], Qt.Orientation.Horizontal)
            self.resizeDocks([self.findings], [200], Qt.Orientation.Vertical)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        files = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if files:
            event.acceptProposedAction()
            QTimer.singleShot(0, lambda: self.open_in_background(files[0]))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.maybe_save():
            event.ignore()
            return
        # whatever a job of this window still delivers is dropped: no slot of a closed window
        # runs (workers/background.py); a file being opened is never shown
        abandon_jobs(self)
        if self._load_job is not None:
            self._load_job = None
            self._set_loading(False)
        self.validator.enabled = False
        self.validator.wait()
        self.autosaver.wait()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.document.close()
        event.accept()

