"""File > Verify Against As-Built…: run `aicnet_gui.asbuilt` on the open design and show the
result in the As Built dock and as an overlay on both views (missing cables dashed red,
unexpected ones dotted purple, wrong ports ringed); a row of the dock centres its difference.

The input kind follows the files chosen: `.json` files or a folder are lldpctl output, a `.csv`
a NetBox cable export, anything else ibnetdiscover text.  A bad file is one error dialog naming
the file and the place, as for a bad `.fabric`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
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
from ..fileio.fabric_file import gc_held
from ..model.port_names_os import PortNamer
from .canvas.asbuilt_overlay import AsBuiltOverlay
from .dialogs import messages
from .panels.asbuilt import AsBuiltDock

if TYPE_CHECKING:
    from .main_window import MainWindow

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


class AsBuiltView:
    """The dock and the two overlays of one main window."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.dock = AsBuiltDock(window)
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        window.tabifyDockWidget(window.findings, self.dock)
        self.dock.hide()
        self.dock.show_objects.connect(window.show_objects)
        self.topology_overlay = AsBuiltOverlay()
        self.floor_overlay = AsBuiltOverlay()
        window.topology.addItem(self.topology_overlay)
        window.floor.addItem(self.floor_overlay)
        window.document.reset.connect(self.clear)
        self.comparison = None

    def choose_and_run(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self.window, "Verify against as-built: lldpctl JSON, ibnetdiscover or NetBox CSV",
            "", FILTER)
        if files:
            self.run(files)

    def run(self, paths: Sequence[str | Path]) -> bool:
        """Compare the open design with the observation in `paths`; False on bad input."""
        window = self.window
        doc = window.document.fabric
        try:
            with gc_held():
                observation = read_observation(paths)
                self.comparison = compare(doc, observation,
                                          PortNamer(doc, fallback=window.catalog.devices))
                items = rework_list(doc, self.comparison)
        except FabricFileError as exc:
            messages.show_error(window, "Cannot read the as-built data", str(exc))
            return False
        observed = f"{observation.kind} ({', '.join(Path(f).name for f in observation.files)})"
        self.dock.set_result(self.comparison, items, observed)
        self.dock.show()
        self.dock.raise_()
        differences = self.comparison.differences
        self.topology_overlay.set_differences(doc, differences, self._topology_position)
        self.floor_overlay.set_differences(doc, differences, self._floor_position)
        window.show_message(f"As built: {len(differences)} difference"
                            f"{'s' if len(differences) != 1 else ''}")
        return True

    def _topology_position(self, device_id: str) -> QPointF | None:
        item = self.window.topology.items_by_id.get(device_id)
        return item.sceneBoundingRect().center() if item is not None else None

    def _floor_position(self, device_id: str) -> QPointF | None:
        item = self.window.floor.items_by_id.get(device_id)
        return item.sceneBoundingRect().center() if item is not None else None

    def clear(self) -> None:
        if self.comparison is not None:
            self.dock.clear()
        self.comparison = None
        self.topology_overlay.clear()
        self.floor_overlay.clear()
