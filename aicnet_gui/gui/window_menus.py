"""The main window's menus and toolbar, declared: which action ids go where, in which order.

Entries are action ids (window_actions.py), `SEP` for a separator, a `Submenu` of further
entries, or a `Slot`: a place the window fills itself (File › Open Recent, View › Plane, the
dock toggles, the toolbar's colour box), because what it holds is made at run time.
`build_menu_bar` and `fill_toolbar` render the tables; they never decide what an action does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QMenuBar, QToolBar

from . import colouring, resources
from .window_actions import ALIGN_TEXTS

SEP = None
"""A separator between entries."""


@dataclass(frozen=True, slots=True)
class Slot:
    """A place in a menu or the toolbar that the window fills (its filler gets the menu or bar)."""

    name: str


@dataclass(frozen=True, slots=True)
class Submenu:
    title: str
    icon: str
    entries: tuple[Entry, ...]


Entry = str | Slot | Submenu | None

ALIGN_IDS = tuple(f"align-{how}" for how, _text in ALIGN_TEXTS)

MENUS: tuple[tuple[str, tuple[Entry, ...]], ...] = (
    ("&File", ("new", "new-template", "new-comparison", "open", Slot("recent"), SEP, "save", "save-as", "revert",
               SEP, "export-pdf", "compare", "verify-asbuilt", "import-devicetypes", SEP, "quit")),
    ("&Edit", ("undo", "redo", SEP, "cut", "copy", "paste", "duplicate", "delete", SEP,
               "select-all", "find", SEP, "fabric-settings", "update-catalog")),
    ("&Connect", ("connect-next", "connect-mesh", "connect-rail", SEP, "choose-media")),
    ("&Arrange", ("auto-layout", SEP, *ALIGN_IDS[:6], SEP, *ALIGN_IDS[6:], SEP, "add-rack")),
    ("&View", ("view-topology", "view-floor", SEP, "zoom-in", "zoom-out", "fit", SEP, "snap-grid",
               "legend", SEP,
               Submenu("&Colour Cables", "colour-mode", tuple(f"colour-{m}" for m in colouring.MODES)),
               "traffic-layer",
               Submenu("&Groups", "collapse", ("collapse-su", "collapse-rack", "collapse-rail",
                                               "collapse-plane", SEP, "expand-all")),
               Slot("planes"), "validate", "whatif", "failure-mode", SEP, Slot("docks"))),
    ("&Help", ("about",)),
)

TOOLBAR: tuple[Entry, ...] = (
    "new", "open", "save", SEP, "undo", "redo", SEP, "duplicate", "delete", SEP, "connect-next",
    "connect-mesh", "connect-rail", SEP, "auto-layout", "align-left", "align-top",
    "align-hdistribute", SEP, "add-rack", SEP, "zoom-out", "zoom-in", "fit", SEP,
    Slot("colour"), Slot("planes"), SEP, "collapse-su", "expand-all")

Fillers = Mapping[str, Callable[[QMenu | QToolBar], object]]


def fill(target: QMenu | QToolBar, entries: Sequence[Entry], actions: Mapping[str, QAction],
         fillers: Fillers) -> None:
    """Add `entries` to a menu or toolbar, in order."""
    for entry in entries:
        if entry is SEP:
            target.addSeparator()
        elif isinstance(entry, Slot):
            fillers[entry.name](target)
        elif isinstance(entry, Submenu):
            assert isinstance(target, QMenu), "a submenu belongs in a menu"
            sub = target.addMenu(resources.icon(entry.icon), entry.title)
            fill(sub, entry.entries, actions, fillers)
        else:
            target.addAction(actions[entry])


def build_menu_bar(bar: QMenuBar, actions: Mapping[str, QAction], fillers: Fillers) -> dict[str, QMenu]:
    """Every menu of `MENUS` in `bar`; returns them by title."""
    menus = {}
    for title, entries in MENUS:
        menu = menus[title] = bar.addMenu(title)
        fill(menu, entries, actions, fillers)
    return menus
