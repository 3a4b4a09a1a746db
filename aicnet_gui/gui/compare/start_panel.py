"""The first screen of a new project: a card over the empty Topology view with the three ways
to start (compare candidate fabrics for a requirement, generate one from a template, open a
design).

It shows while the project's design has no device and no rack, and hides as soon as it has
one (a candidate used, a template generated, a file opened, a device dropped).  It covers
only its own card: the rest of the canvas takes clicks and drops as before (drops are not
accepted by the card, so Qt hands them to the view under it).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout

from .. import resources

CARD_WIDTH = 420
HINT_CLEARANCE = 64


class StartPanel(QFrame):
    """The start card; `comparison` is the part whose form the first button opens."""

    def __init__(self, window: Any, comparison: Any) -> None:
        view = window.topology_view
        super().__init__(view)
        self.window = window
        self.comparison = comparison
        self.setObjectName("start-panel")
        self.setStyleSheet("#start-panel { background: #ffffff; border: 1px solid #d3dae3; "
                           "border-radius: 8px; }")
        self.setFixedWidth(CARD_WIDTH)
        self.setAcceptDrops(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(22, 18, 22, 18)
        layout.setSpacing(8)
        title = QLabel("Start a project")
        title.setStyleSheet("font-size: 16px; font-weight: 600; color: #1f2933;")
        text = QLabel("Which fabric should you buy? State the cluster, its workloads and what "
                      "you would allow, and aicnet builds every candidate design from real "
                      "parts and sets them side by side: cost, power, performance, resilience.")
        text.setWordWrap(True)
        text.setStyleSheet("color: #52606d;")
        layout.addWidget(title)
        layout.addWidget(text)
        self.compare_button = QPushButton(resources.icon("new-template"), "New Comparison…")
        self.compare_button.setDefault(True)
        self.compare_button.clicked.connect(comparison.new_comparison)
        self.template_button = QPushButton(resources.icon("new-template"), "New from Template…")
        self.template_button.clicked.connect(lambda: window.files.new_from_template())
        self.open_button = QPushButton(resources.icon("open"), "Open a Design…")
        self.open_button.clicked.connect(lambda: window.files.open_dialog())
        for button in (self.compare_button, self.template_button, self.open_button):
            button.setMinimumHeight(30)
            layout.addWidget(button)
        view.installEventFilter(self)
        document = window.document
        document.reset.connect(self.follow)
        document.changed.connect(self.follow)
        comparison.dock.visibilityChanged.connect(self.follow)
        comparison.dock.topLevelChanged.connect(self.follow)
        self.follow()

    def wanted(self) -> bool:
        """An empty design, and no comparison in the window's dock (it offers the rest)."""
        doc = self.window.document.fabric
        dock = self.comparison.dock
        return not (doc.devices or doc.racks) and not (dock.isVisible() and not dock.isFloating())

    def follow(self, *_args: object) -> None:
        """Show or hide with the design; keep the card centred."""
        wanted = self.wanted()
        if wanted != self.isVisible():
            self.setVisible(wanted)
        if wanted:
            self._centre()

    def _centre(self) -> None:
        self.adjustSize()
        view = self.parentWidget()
        x = max(0, (view.width() - self.width()) // 2)
        # below the canvas' own hint, which is drawn at the centre
        y = max(4, min(view.height() // 2 + HINT_CLEARANCE, view.height() - self.height() - 24))
        self.move(x, y)
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show) and self.isVisible():
            self._centre()
        return False

