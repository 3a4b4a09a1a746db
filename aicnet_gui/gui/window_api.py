"""What the main window offers the views, dialogs and panels it opens.

`MainWindow` builds these helpers and passes itself; they annotate it with `AppWindow`, a
structural type, instead of importing `main_window` back (which would make an import cycle:
tests/test_import_cycles.py).  The window is a `QMainWindow`, so it is also the Qt parent of
their dialogs and docks.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QProgressBar

from ..model.catalog import Catalog
from .canvas.floor_scene import FloorScene
from .canvas.legend import Legend
from .canvas.topology_scene import TopologyScene
from .document import EditorDocument
from .editor import INFO, Editor
from .panels.findings import FindingsDock
from .panels.palette import PaletteDock


class AppWindow(Protocol):
    """The main window as its helpers see it."""

    interactive: bool
    catalog: Catalog
    document: EditorDocument
    editor: Editor
    topology: TopologyScene
    floor: FloorScene
    legend: Legend
    palette: PaletteDock
    findings: FindingsDock
    progress: QProgressBar
    export_job: object | None

    def show_message(self, text: str, level: int = INFO) -> None: ...

    def show_objects(self, ids: list[str]) -> None: ...

    def selected_servers(self) -> list[str]: ...

    def fit_to_view(self) -> None: ...

    def addDockWidget(self, area: Qt.DockWidgetArea, dock: QDockWidget) -> None: ...  # noqa: N802

    def tabifyDockWidget(self, first: QDockWidget, second: QDockWidget) -> None: ...  # noqa: N802
