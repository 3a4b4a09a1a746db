"""File > Verify Against As-Built…: run `aicnet_gui.asbuilt` on the open design (in a background
thread, on a snapshot) and show the
result in the As Built dock and as an overlay on both views (missing cables dashed red,
unexpected ones dotted purple, wrong ports ringed); a row of the dock centres its difference.

The input kind follows the files chosen: `.json` files or a folder are lldpctl output, a `.csv`
a NetBox cable export, anything else ibnetdiscover text.  A bad file is one error dialog naming
the file and the place, as for a bad `.fabric`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtWidgets import QFileDialog

from ..asbuilt import (
    compare,
    read_ibnetdiscover,
    read_lldp,
    read_netbox_cables,
    rework_list,
)
from ..asbuilt.observed import Observation
from ..fileio.errors import FabricFileError
from ..gc_control import gc_held
from ..model.port_names_os import PortNamer
from .canvas.asbuilt_overlay import AsBuiltOverlay
from .dialogs import messages
from .panels.asbuilt import AsBuiltDock
from .window_api import AppWindow
from .workers.background import BackgroundJob

FILTER = ("As-built observations (*.json *.txt *.csv);;lldpctl -f json (*.json);;"
          "ibnetdiscover output (*.txt *.out);;NetBox cable export (*.csv);;All files (*)")


def read_observation(paths: Sequence[str | Path]) -> Observation:
    """The observation in `paths`, its kind told by the files (see the module docstring)."""
    chosen = [Path(p) for p in paths]
    if any(p.is_dir() or p.suffix.lower() == ".json" for p in chosen):
        return read_lldp(chosen)
    if len(chosen) == 1 and chosen[0].suffix.lower() == ".csv":
        return read_netbox_cables(chosen[0])
    if len(chosen) == 1:
        return read_ibnetdiscover(chosen[0])
    raise FabricFileError(", ".join(map(str, chosen)),
                          "choose lldpctl JSON files, or one ibnetdiscover or NetBox file")


class AsBuiltView(QObject):
    """The dock and the two overlays of one main window."""

    #: a verification ended (its Comparison, or None when the input was refused)
    done = Signal(object)

    def __init__(self, window: AppWindow) -> None:
        super().__init__(window)
        self.window = window
        self.dock = AsBuiltDock(window)
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        self.dock.hide()  # tabbed with the findings once it has something to show
        self._tabbed = False
        self.dock.show_objects.connect(window.show_objects)
        self.topology_overlay = AsBuiltOverlay()
        self.floor_overlay = AsBuiltOverlay()
        window.topology.addItem(self.topology_overlay)
        window.floor.addItem(self.floor_overlay)
        window.document.reset.connect(self.clear)
        window.topology.planes_changed.connect(self._redraw_topology)
        self.comparison = None
        self._job: BackgroundJob | None = None

    def choose_and_run(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self.window, "Verify against as-built: lldpctl JSON, ibnetdiscover or NetBox CSV",
            "", FILTER)
        if files:
            self.start(files)

    def start(self, paths: Sequence[str | Path]) -> BackgroundJob:
        """Read and compare in a background thread on a snapshot of the design; the dock and
        the overlays are filled when it finishes (`finished` of the returned job)."""
        window = self.window
        snap = window.document.fabric.snapshot()
        fallback = window.catalog.devices

        def work() -> tuple:
            try:
                with gc_held():  # 200k observed ends on a big fabric
                    observation = read_observation(paths)
                    comparison = compare(snap, observation, PortNamer(snap, fallback=fallback))
                    return observation, comparison, rework_list(snap, comparison)
            except FabricFileError as exc:
                return (exc,)

        job = BackgroundJob(work, "aicnet-verify", window)
        job.finished.connect(self._show)
        job.failed.connect(lambda exc: self._show((exc,)))
        self._job = job
        window.progress.setVisible(True)
        window.show_message("Verifying against the as-built data…")
        job.start()
        return job

    def _show(self, result: tuple) -> None:
        window = self.window
        window.progress.setVisible(False)
        if len(result) == 1:
            messages.show_error(window, "Cannot read the as-built data", str(result[0]))
            window.show_message("As built: not verified")
            self.done.emit(None)
            return
        observation, self.comparison, items = result
        doc = window.document.fabric
        observed = f"{observation.kind} ({', '.join(Path(f).name for f in observation.files)})"
        self.dock.set_result(self.comparison, items, observed)
        if not self._tabbed:
            self.window.tabifyDockWidget(self.window.findings, self.dock)
            self._tabbed = True
        self.dock.show()
        self.dock.raise_()
        differences = self.comparison.differences
        self.topology_overlay.set_differences(doc, differences, self._topology_position)
        self.floor_overlay.set_differences(doc, differences, self._floor_position)
        window.show_message(f"As built: {len(differences)} difference"
                            f"{'s' if len(differences) != 1 else ''}")
        self.done.emit(self.comparison)

    def _topology_position(self, device_id: str) -> QPointF | None:
        """A device's centre on the Topology view; None when its plane filter hides it."""
        if self.window.topology.plane_hidden([device_id], []):
            return None
        rect = self.window.topology.mirror.device_rect(device_id)
        return rect.center() if rect is not None else None

    def _redraw_topology(self) -> None:
        """The plane shown changed: nothing is drawn to or around a switch it hides."""
        if self.comparison is not None:
            self.topology_overlay.set_differences(self.window.document.fabric,
                                                  self.comparison.differences,
                                                  self._topology_position)

    def _floor_position(self, device_id: str) -> QPointF | None:
        rect = self.window.floor.mirror.device_rect(device_id)
        return rect.center() if rect is not None else None

    def clear(self) -> None:
        if self.comparison is not None:
            self.dock.clear()
        self.comparison = None
        self.topology_overlay.clear()
        self.floor_overlay.clear()
