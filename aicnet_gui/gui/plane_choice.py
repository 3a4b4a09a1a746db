"""View ▸ Plane and the toolbar's plane box: show one compute plane of a multi-plane fabric.

NVIDIA's DGX B300 / GB300 designs split each GPU's NIC into one port per plane and give every
plane its own fat tree; a switch carries its plane (`Device.plane`), a cable too (`Link.plane`).
Choosing "Plane 2" hides the switches of the other planes and every cable of another plane on
the Topology canvas (`TopologyScene.set_plane`); servers, which reach every plane, stay.

It is a view setting like the colour mode and the collapsed groups: no edit, nothing on the undo
stack, nothing in the file; a new or opened document shows every plane.  The choice is offered
only when the document has planes (the menu is disabled, the box hidden otherwise) and follows
the document: an open, a new document, an edit that adds or removes a plane.  Selecting what is
hidden (a finding's switch, a cable of another plane) first shows its plane, or every plane
when the objects are in several (`reveal`).  The status bar says which plane is shown.

The Floor view is not filtered: it is the physical plan, where a rack holds the leaves of both
planes side by side and its space, power and cable runs are those of every plane; hiding half
of a rack's switches there would misstate what is installed.  The status bar's note is shown
with the Topology view only.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QComboBox, QLabel, QMenu, QStatusBar, QToolBar, QWidget

from . import resources
from .canvas.topology_scene import TopologyScene
from .editor import INFO

ALL = "All planes"


class PlaneWindow(Protocol):
    """What the plane choice needs of the main window."""

    topology: TopologyScene

    def show_message(self, text: str, level: int = INFO) -> None: ...


def plane_title(plane: str) -> str:
    return f"Plane {plane}"


class PlaneChoice:
    """The plane menu, the toolbar box and the status bar note of one window."""

    def __init__(self, window: PlaneWindow, parent: QWidget) -> None:
        self.window = window
        self.scene = window.topology
        self.menu = QMenu("&Plane", parent)
        self.menu.setIcon(resources.icon("view-topology"))
        self.menu.setToolTipsVisible(True)
        self.group = QActionGroup(parent)
        self.combo = QComboBox()
        self.combo.setToolTip("Show one compute plane of a multi-plane fabric on the Topology "
                              "view (servers stay; the Floor view shows every plane)")
        self.combo.currentIndexChanged.connect(self._on_combo)
        self.label = QLabel()
        self.label.setVisible(False)
        self._toolbar_actions: list[QAction] = []
        self._shown_planes: list[str] | None = None
        self._floor = False
        self.scene.planes_changed.connect(self.refresh)
        self.refresh()

    def add_to_toolbar(self, bar: QToolBar) -> None:
        self._toolbar_actions = [bar.addWidget(QLabel("  Plane: ")), bar.addWidget(self.combo)]
        self.refresh()

    def add_to_status_bar(self, bar: QStatusBar) -> None:
        bar.addPermanentWidget(self.label)

    # ---------------------------------------------------------------- following the scene
    def refresh(self) -> None:
        """The planes of the document or the plane shown changed: menu, box and note follow."""
        planes = self.scene.planes()
        current = self.scene.plane
        if planes != self._shown_planes:
            self._shown_planes = planes
            self._fill(planes)
        for action in self.group.actions():
            action.setChecked(action.data() == current)
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(max(self.combo.findData(current), 0))
        self.combo.blockSignals(False)
        has = bool(planes)
        self.menu.setEnabled(has)
        for action in self._toolbar_actions:
            action.setVisible(has)
        if current is None:
            self.label.setVisible(False)
            self.label.setText("")
        else:
            position = planes.index(current) + 1 if current in planes else 0
            self.label.setText(f"Plane {current} of {len(planes)} shown")
            self.label.setToolTip(f"Only the switches and cables of plane {current} are drawn "
                                  f"(servers reach every plane); {ALL.lower()}: View ▸ Plane")
            self.label.setVisible(position > 0 and not self._floor)

    def set_floor(self, floor: bool) -> None:
        """The Floor view is current (not filtered: the note is hidden) or the Topology view."""
        self._floor = floor
        self.refresh()

    def _fill(self, planes: list[str]) -> None:
        self.menu.clear()
        for action in self.group.actions():
            self.group.removeAction(action)
        self.combo.blockSignals(True)
        self.combo.clear()
        for plane in [None, *planes]:
            title = ALL if plane is None else plane_title(plane)
            action = QAction(title, self.menu)
            action.setCheckable(True)
            action.setData(plane)
            action.setStatusTip("show every plane" if plane is None else
                                f"show only the switches and cables of plane {plane}")
            action.triggered.connect(lambda _c=False, p=plane: self.choose(p))
            self.group.addAction(action)
            self.menu.addAction(action)
            if plane is None and planes:
                self.menu.addSeparator()
            self.combo.addItem(title, plane)
        self.combo.blockSignals(False)

    def _on_combo(self) -> None:
        self.choose(self.combo.currentData())

    # ---------------------------------------------------------------- choosing
    def choose(self, plane: str | None) -> None:
        """Show `plane` (None: every plane)."""
        self.scene.set_plane(plane)
        shown = self.scene.plane
        if shown is None:
            self.window.show_message("Every plane shown")
        else:
            self.window.show_message(f"Plane {shown} shown: the switches and cables of the other "
                                     "planes are hidden, servers stay")

    def reveal(self, devices: list[str], links: list[str]) -> None:
        """Before selecting these objects: show their plane when the filter hides one of them
        (every plane when they are in several)."""
        scene = self.scene
        if not scene.plane_hidden(devices, links):
            return
        plane = scene.plane_of(devices, links)
        scene.set_plane(plane)
        if plane is None:
            self.window.show_message("Every plane shown: the selection is in several planes")
        else:
            self.window.show_message(f"Plane {plane} shown: the selection is in it")
