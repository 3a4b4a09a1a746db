"""The main window: it assembles the parts and routes between them.

The window is a table of parts.  Its commands are declared as data (`window_actions.py`: id,
text, shortcut, enabled-when, handler) and placed by id in the menus and the toolbar
(`window_menus.py`); its docks are declared in one table (`docks.py`); the work behind the
commands lives in the parts the handlers name: `FileCommands` (file_commands.py: new, open,
save, recent files, recovery), `EditCommands` (edit_commands.py: the verbs on the selection),
`ChangeTools` (compare, what-if), `AsBuiltView`, `LivePanels` (the live validation and its
docks), `ContextMenus` (the canvases' right-click menu).  What stays here is what ties them:
the two canvases and which one is shown, the selection carried between them, selecting and
centring what a finding names, the status bar, and the window's own events.  It holds no
editing logic.  Autosave follows each edit by a few seconds (autosave.py); at start-up the
window offers to recover work a crash left behind (FileCommands.start).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QTabWidget,
    QToolBar,
)

from ..catalog.loader import load_catalog
from ..editing.counts import counts
from ..editing.units import counted
from ..model.catalog import Catalog
from ..model.edits import ChangeSet
from . import colouring, docks, resources, undo_messages
from .actions import ActionContext, make_actions, refresh_enabled
from .asbuilt_view import AsBuiltView
from .autosave import Autosaver
from .canvas import groups
from .canvas.floor_scene import FloorScene
from .canvas.groups import GroupKey
from .canvas.hits import Hit
from .canvas.legend import Legend
from .canvas.topology_scene import TopologyScene
from .canvas.view import FabricView
from .change_tools import ChangeTools
from .compare.comparison import Comparison
from .context_menu import ContextMenus
from .dialogs.bulk_connect import split_by_tier
from .document import EditorDocument
from .edit_commands import EditCommands
from .editor import INFO, Editor
from .file_commands import FileCommands
from .live import LivePanels
from .plane_choice import PlaneChoice
from .traffic_panel import TrafficPanel
from .window_actions import ACTIONS
from .window_menus import TOOLBAR, build_menu_bar, fill
from .workers.background import abandon_jobs


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
        # the parts (their order is the order they add overlays to the scenes)
        #: the docks, declared (docks.DOCKS: read when the window is made)
        self.dock_specs = docks.DOCKS
        made = docks.make_docks(self, self.dock_specs)
        self.palette, self.inspector = made["palette"], made["inspector"]
        self.live = LivePanels(self)
        self.findings, self.metrics, self.workloads = (self.live.findings, self.live.metrics,
                                                       self.live.workloads)
        self.validator = self.live.validator
        self.live.shown.connect(self.inspector.set_report)
        self.asbuilt = AsBuiltView(self)
        self.comparison = Comparison(self)
        #: every dock by id, in the order of docks.DOCKS (View › lists them so)
        self.docks = docks.place_docks(self, made, self.dock_specs)
        self.files = FileCommands(self)
        self.files.opened.connect(self.opened)
        self.files.open_failed.connect(self.open_failed)
        self.edits = EditCommands(self)
        self.context_menus = ContextMenus(self)
        self._sized_docks = False
        self._fit_floor = False
        self.setWindowIcon(resources.app_icon())
        self.setAcceptDrops(True)
        self._syncing_selection = False
        self.export_job = None
        self.plane_choice = PlaneChoice(self, self)
        self._build_status_bar()
        self.change_tools = ChangeTools(self)
        self.traffic = TrafficPanel(self)
        self.actions_by_name, action_groups = make_actions(self, ACTIONS)
        self.colour_group = action_groups["colour"]
        undo_messages.connect(self.actions_by_name["undo"], self.actions_by_name["redo"],
                              self.document.undo_stack, self.show_message)
        build_menu_bar(self.menuBar(), self.actions_by_name, self._menu_slots())
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

    def _menu_slots(self) -> dict:
        """What the menus' and the toolbar's slots (window_menus.Slot) hold."""
        return {"recent": self.files.add_recent_menu,
                "planes": self._add_plane_choice,
                "docks": lambda menu: docks.dock_toggles(menu, self.docks),
                "colour": self._add_colour_box}

    def _add_plane_choice(self, target: QMenu | QToolBar) -> None:
        if isinstance(target, QToolBar):
            self.plane_choice.add_to_toolbar(target)
        else:
            target.addMenu(self.plane_choice.menu)

    def _add_colour_box(self, bar: QToolBar) -> None:
        self.colour_combo = QComboBox()
        self.colour_combo.setToolTip("Colour cables (and switches) by…")
        for mode, title in colouring.MODES.items():
            self.colour_combo.addItem(resources.icon("colour-mode"), title, mode)
        self.colour_combo.currentIndexChanged.connect(
            lambda: self.set_colour_mode(self.colour_combo.currentData()))
        bar.addWidget(QLabel("  Colour: "))
        bar.addWidget(self.colour_combo)

    def _build_toolbar(self) -> None:
        bar = QToolBar("Main")
        bar.setObjectName("main-toolbar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        fill(bar, TOOLBAR, self.actions_by_name, self._menu_slots())
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
        self.floor.hint.connect(self._show_hint)
        self.topology_view.zoom_changed.connect(lambda s: self._on_zoom(s, self.topology_view))
        self.topology_view.zoom_changed.connect(self.topology.set_view_scale)
        self.floor_view.zoom_changed.connect(lambda s: self._on_zoom(s, self.floor_view))
        self.floor_view.zoom_changed.connect(self.floor.set_view_scale)
        self.tabs.currentChanged.connect(self._on_tab)
        self.palette.add_requested.connect(self.edits.add_device_from_palette)
        self.inspector.select_link.connect(lambda link_id: self.select_ids([], [link_id], [], centre=True))
        self.topology.edit_requested.connect(self.edits.edit_device)
        for view in (self.topology_view, self.floor_view):
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.customContextMenuRequested.connect(lambda pos, v=view: self.context_menus.show(v, pos))

    # ---------------------------------------------------------------- helpers
    def show_tab(self, index: int) -> None:
        """Show the Topology (0) or the Floor (1)."""
        self.tabs.setCurrentIndex(index)

    def zoom_by(self, factor: float) -> None:
        self.current_view().zoom_by(factor)

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

    def action_context(self) -> ActionContext:
        """What the declared actions' `enabled_when` look at: the current selection."""
        devices, links, racks = self.selection()
        return ActionContext(tuple(devices), tuple(links), tuple(racks),
                             frozenset(split_by_tier(self.document.fabric, devices)),
                             self.current_scene() is self.topology,
                             bool(self.document.fabric.devices))

    def _update_actions(self) -> None:
        refresh_enabled(self.actions_by_name, ACTIONS, self.action_context())

    # ---------------------------------------------------------------- reactions
    def _on_changed(self, changes: ChangeSet) -> None:
        self._counts_timer.start()
        if changes.devices:
            self._update_legend(changes.devices)

    def _on_reset(self) -> None:
        self.edits.paste_count = 0
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

    def set_snap(self, checked: bool) -> None:
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

    def set_loading(self, loading: bool, text: str = "") -> None:
        """While a file is opened in the background: the progress bar shows, and the canvases
        and the docks that edit are locked (the old document must not be edited meanwhile)."""
        self.progress.setVisible(loading)
        for widget in (self.tabs, *docks.locked_while_loading(self.docks, self.dock_specs)):
            widget.setEnabled(not loading)
        if loading:
            self.message_label.setStyleSheet("color: #1f2933;")
            self.message_label.setText(text)
            QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
        else:
            QGuiApplication.restoreOverrideCursor()

    # ---------------------------------------------------------------- window events
    def showEvent(self, event) -> None:  # noqa: ANN001, N802
        super().showEvent(event)
        if not self._sized_docks and self.settings.value("window/state") is None:
            # first start: room for the metrics and findings (later starts restore the layout)
            self._sized_docks = True
            docks.first_start_sizes(self, self.docks, self.dock_specs)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        files = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if files:
            event.acceptProposedAction()
            QTimer.singleShot(0, lambda: self.files.open_in_background(files[0]))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.files.maybe_save():
            event.ignore()
            return
        # whatever a job of this window still delivers is dropped: no slot of a closed window
        # runs (workers/background.py); a file being opened is never shown
        abandon_jobs(self)
        self.files.abandon_open()
        self.validator.enabled = False
        self.validator.wait()
        self.autosaver.wait()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.document.close()
        event.accept()


    # ---------------------------------------------------------------- the parts' verbs, as the window's API
    # (app.py, the dialogs and the tests call these on the window; the work is in the parts)
    def new_document(self) -> None:
        self.files.new_document()

    def open_dialog(self) -> None:
        self.files.open_dialog()

    def open_in_background(self, path: str | Path, ask: bool = True) -> bool:
        return self.files.open_in_background(path, ask)

    def open_path(self, path: str | Path, ask: bool = True) -> bool:
        return self.files.open_path(path, ask)

    def loading(self) -> bool:
        return self.files.loading()

    def save_as(self) -> bool:
        return self.files.save_as()

    def _save_to(self, path: Path) -> bool:
        return self.files.save_to(path)

    def revert(self) -> None:
        self.files.revert()

    def recent_files(self) -> list[str]:
        return self.files.recent_files()

    def update_catalog_entries(self) -> bool:
        return self.files.update_catalog_entries()

    def autosave(self) -> Path | None:
        return self.files.autosave()

    def start(self, file: str | None) -> None:
        self.files.start(file)

    def offer_recovery(self) -> bool:
        return self.files.offer_recovery()

    def copy(self) -> bool:
        return self.edits.copy()

    def paste(self) -> None:
        self.edits.paste()

    def delete_selection(self) -> None:
        self.edits.delete_selection()

    def select_all(self) -> None:
        self.edits.select_all()

    def _select_hit(self, scene: object, hit: Hit | None) -> None:
        self.context_menus.select_hit(scene, hit)
