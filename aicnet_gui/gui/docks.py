"""The main window's docks in one table: where each comes from, where it sits, how it behaves.

A `DockSpec` names a dock and says where its widget comes from: `make` builds it (a dock with
no other owner: the catalog palette, the inspector), or `source` is a dotted path from the
window to a dock that a part of the window owns and wires (the live validation's findings,
metrics and workloads docks, the As Built dock).  The spec also says the area it opens in,
which dock it shares a tab with, whether it opens hidden or in front of its tab, its size at
the first start (later starts restore the user's layout by the dock's object name), and
whether it is locked while a file is being opened (the old document must not be edited then).

`place_docks` adds every dock in table order, View › docks lists them in the same order
(`dock_toggles`), and the window's first showing sizes them (`first_start_sizes`).  Adding a
dock to the window is one `DockSpec` in `DOCKS`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu

from .actions import attribute_at
from .panels.inspector import InspectorDock
from .panels.palette import PaletteDock

Area = Qt.DockWidgetArea
SizeOf = Callable[[Any], int]


@dataclass(frozen=True, slots=True)
class DockSpec:
    """One dock of the window, declared."""

    id: str
    area: Area
    #: builds the dock (given the window); or
    make: Callable[[Any], QDockWidget] | None = None
    #: a dotted path from the window to a dock another part owns ("live.findings")
    source: str | None = None
    #: the dock (placed before this one) it shares a tab with
    tab_with: str | None = None
    #: brought to the front of its tab group
    front: bool = False
    #: opens hidden (shown by its owner when it has something to show)
    hidden: bool = False
    #: its width (left, right) or height (bottom) when the window is built, and at the first
    #: start once the window knows its own size (a number or a function of the window)
    size: int | None = None
    first_size: int | SizeOf | None = None
    #: disabled while a file is opened in the background
    locked_while_loading: bool = False

    def widget(self, window: object) -> QDockWidget:
        if self.make is not None:
            return self.make(window)
        if self.source is None:
            raise ValueError(f"dock {self.id!r} has neither make nor source")
        dock = attribute_at(window, self.source)
        if not isinstance(dock, QDockWidget):
            raise TypeError(f"dock {self.id!r}: {self.source} is not a QDockWidget")
        return dock


def _palette_width(window: Any) -> int:
    return max(280, min(window.palette.preferred_width(), window.width() // 4))


DOCKS: tuple[DockSpec, ...] = (
    DockSpec("palette", Area.LeftDockWidgetArea, make=lambda w: PaletteDock(w.catalog, w),
             size=300, first_size=_palette_width, locked_while_loading=True),
    DockSpec("inspector", Area.RightDockWidgetArea, make=lambda w: InspectorDock(w.editor, w),
             front=True, size=360, first_size=400, locked_while_loading=True),
    DockSpec("findings", Area.BottomDockWidgetArea, source="live.findings", size=190,
             first_size=200, locked_while_loading=True),
    DockSpec("metrics", Area.RightDockWidgetArea, source="live.metrics", tab_with="inspector"),
    DockSpec("workloads", Area.RightDockWidgetArea, source="live.workloads", tab_with="metrics",
             locked_while_loading=True),
    DockSpec("asbuilt", Area.BottomDockWidgetArea, source="asbuilt.dock", hidden=True),
    DockSpec("comparison", Area.BottomDockWidgetArea, source="comparison.dock",
             tab_with="findings", hidden=True),
)
"""The docks of the main window, in the order the View menu lists them."""


def make_docks(window: object, specs: Iterable[DockSpec]) -> dict[str, QDockWidget]:
    """The widget of every dock that `make` builds (those with a `source` exist already)."""
    return {spec.id: spec.make(window) for spec in specs if spec.make is not None}


def place_docks(window: QMainWindow, docks: dict[str, QDockWidget],
                specs: Iterable[DockSpec]) -> dict[str, QDockWidget]:
    """Add every dock of `specs` to `window` (their widgets from `docks` or their `source`),
    tab them, size them; returns every dock by id, in table order."""
    specs = list(specs)
    placed: dict[str, QDockWidget] = {}
    for spec in specs:
        dock = docks.get(spec.id)
        if dock is None:
            dock = spec.widget(window)
        placed[spec.id] = dock
        window.addDockWidget(spec.area, dock)
        if spec.hidden:
            dock.hide()
    for spec in specs:
        if spec.tab_with is not None:
            window.tabifyDockWidget(placed[spec.tab_with], placed[spec.id])
    for spec in specs:
        if spec.front:
            placed[spec.id].raise_()
    _resize(window, placed, specs, lambda spec: spec.size)
    return placed


def first_start_sizes(window: QMainWindow, docks: dict[str, QDockWidget],
                      specs: Iterable[DockSpec]) -> None:
    """Size the docks for a first start (no saved layout), now that the window has its size."""
    def size(spec: DockSpec) -> int | None:
        value = spec.first_size
        return value(window) if callable(value) else value

    _resize(window, docks, list(specs), size)


def _resize(window: QMainWindow, docks: dict[str, QDockWidget], specs: list[DockSpec],
            size_of: Callable[[DockSpec], int | None]) -> None:
    across: list[tuple[QDockWidget, int]] = []
    down: list[tuple[QDockWidget, int]] = []
    for spec in specs:
        size = size_of(spec)
        if size is None:
            continue
        vertical = spec.area in (Area.TopDockWidgetArea, Area.BottomDockWidgetArea)
        (down if vertical else across).append((docks[spec.id], size))
    for pairs, orientation in ((across, Qt.Orientation.Horizontal), (down, Qt.Orientation.Vertical)):
        if pairs:
            window.resizeDocks([d for d, _s in pairs], [s for _d, s in pairs], orientation)


def locked_while_loading(docks: dict[str, QDockWidget], specs: Iterable[DockSpec]) -> list[QDockWidget]:
    """The docks to disable while a file is being opened."""
    return [docks[spec.id] for spec in specs if spec.locked_while_loading]


def dock_toggles(menu: QMenu, docks: dict[str, QDockWidget]) -> None:
    """View › the show/hide entry of every dock, in table order."""
    for dock in docks.values():
        menu.addAction(dock.toggleViewAction())
