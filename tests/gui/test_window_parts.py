"""The main window is built from its tables: every declared action works, every menu entry names
a declared action, and a dock declared in one place is placed, listed and locked like the rest."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from aicnet_gui.gui import docks
from aicnet_gui.gui.actions import ActionContext, resolve
from aicnet_gui.gui.window_actions import ACTIONS
from aicnet_gui.gui.window_menus import MENUS, TOOLBAR, Slot, Submenu


def _ids(entries) -> list[str]:  # noqa: ANN001
    out: list[str] = []
    for entry in entries:
        if isinstance(entry, Submenu):
            out += _ids(entry.entries)
        elif isinstance(entry, str):
            out.append(entry)
    return out


def test_every_declared_handler_resolves_on_the_window(window):
    for spec in ACTIONS:
        if spec.handler is not None:
            assert callable(resolve(window, spec.handler)), spec.id
        assert spec.id in window.actions_by_name


def test_menus_and_toolbar_name_only_declared_actions_and_known_slots(window):
    declared = {spec.id for spec in ACTIONS}
    placed = [i for _title, entries in MENUS for i in _ids(entries)] + _ids(TOOLBAR)
    assert set(placed) <= declared
    slots = {e.name for _t, entries in MENUS for e in entries if isinstance(e, Slot)}
    slots |= {e.name for e in TOOLBAR if isinstance(e, Slot)}
    assert slots <= set(window._menu_slots())
    # every command is reachable from a menu (the shortcut alone is not enough to discover it)
    assert declared - set(placed) == set()


def test_enabled_when_follows_the_selection(window):
    act = window.actions_by_name
    window.select_ids([], [], [])
    assert not act["delete"].isEnabled() and not act["connect-next"].isEnabled()
    leaf = window.editor.add_device("nvidia-sn5600", (0, 0))
    gpu = window.editor.add_device("nvidia-dgx-h100", (0, 400))
    window.select_ids([leaf, gpu], [], [])
    assert act["delete"].isEnabled() and act["connect-next"].isEnabled()
    assert act["connect-rail"].isEnabled()  # a server and a leaf
    context = window.action_context()
    assert context.tiers == frozenset({0, 1}) and context.topology
    assert ActionContext().anything is False


def test_a_dock_declared_in_the_table_is_placed_listed_and_locked(make_window, monkeypatch):
    extra = docks.DockSpec("extra", Qt.DockWidgetArea.RightDockWidgetArea,
                           make=lambda w: QDockWidget("Extra", w), tab_with="workloads",
                           locked_while_loading=True)
    monkeypatch.setattr(docks, "DOCKS", (*docks.DOCKS, extra))
    window = make_window()
    dock = window.docks["extra"]
    assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
    assert window.docks["workloads"] in window.tabifiedDockWidgets(dock)
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    assert dock.toggleViewAction() in view.actions()
    window.set_loading(True, "Opening…")
    assert not dock.isEnabled()
    window.set_loading(False)
    assert dock.isEnabled()


def test_a_dock_names_where_it_comes_from():
    spec = replace(docks.DOCKS[0], make=None, source=None)
    try:
        spec.widget(object())
    except ValueError as exc:
        assert spec.id in str(exc)
    else:
        raise AssertionError("a dock without make or source must be refused")
