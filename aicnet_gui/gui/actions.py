"""Actions declared as data: what a menu entry, toolbar button or shortcut is, and when it works.

An `ActionSpec` says everything about one command of the window: its id, text, shortcut, icon,
status tip, the handler it runs and the condition under which it is enabled.  The handler is a
dotted path from the window ("files.save", "edits.align") with optional arguments, resolved
when the actions are made, so a table of specs (window_actions.py) is plain data that a test
can walk; `enabled_when` is a pure function of an `ActionContext` (what is selected, on which
canvas), so "when is Delete enabled" is answered in one line of the table, not in the window.
This follows napari's app-model, where actions are declared with an id, a callback and an
`enablement` expression evaluated against a context, and rendered into Qt separately.

`make_actions` turns the specs into `QAction`s (parented to and added to the window, so their
shortcuts work everywhere in it); `refresh_enabled` applies every `enabled_when` to a context.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QWidget

from . import resources

Shortcut = str | QKeySequence.StandardKey
"""A key sequence as text or a standard key (made into a QKeySequence only when the action is
made: a QKeySequence needs the application, and the tables are read at import)."""


@dataclass(frozen=True, slots=True)
class ActionContext:
    """What an action's `enabled_when` may look at: the selection on the current canvas."""

    devices: tuple[str, ...] = ()
    links: tuple[str, ...] = ()
    racks: tuple[str, ...] = ()
    #: the selected devices' tiers (0 servers, 1 leaves, ...)
    tiers: frozenset[int] = frozenset()
    #: the Topology canvas is shown (else the Floor)
    topology: bool = True
    #: the document has devices
    has_devices: bool = False

    @property
    def anything(self) -> bool:
        return bool(self.devices or self.links or self.racks)


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One command of the window, declared.

    `handler` is a dotted path from the window ("files.save"); it is called with `args`, and
    with the new checked state after them when `takes_checked`.  Checkable actions that share a
    `group` are exclusive (a QActionGroup: one colour mode at a time).  `make`, when
    given, supplies the QAction instead (the undo stack's undo and redo actions, which enable
    themselves); the spec still sets its shortcut and icon.
    """

    id: str
    text: str
    handler: str | None = None
    args: tuple[Any, ...] = ()
    shortcut: Shortcut | Sequence[Shortcut] | None = None
    icon: str | None = None
    tip: str = ""
    enabled_when: Callable[[ActionContext], bool] | None = None
    checkable: bool = False
    checked: bool = False
    takes_checked: bool = False
    group: str | None = None
    #: disabled until something enables it (Failure Mode after a what-if)
    enabled: bool = True
    make: Callable[[Any], QAction] | None = field(default=None, compare=False)


def attribute_at(root: object, path: str) -> Any:
    """The attribute at dotted `path` from `root` ("files.save" -> root.files.save)."""
    target: Any = root
    for part in path.split("."):
        target = getattr(target, part)
    return target


def resolve(root: object, path: str) -> Callable[..., Any]:
    """The callable at dotted `path` from `root`."""
    target = attribute_at(root, path)
    if not callable(target):
        raise TypeError(f"action handler {path!r} is not callable")
    return target


def _key_sequences(shortcut: Shortcut | Sequence[Shortcut]) -> list[QKeySequence]:
    items = shortcut if isinstance(shortcut, list | tuple) else [shortcut]
    return [QKeySequence(item) for item in items]


def _connect(action: QAction, handler: Callable[..., Any], spec: ActionSpec) -> None:
    args = spec.args
    if spec.takes_checked:
        action.triggered.connect(lambda checked, h=handler, a=args: h(*a, checked))
    else:
        action.triggered.connect(lambda _checked=False, h=handler, a=args: h(*a))


def make_action(window: QWidget, spec: ActionSpec) -> QAction:
    """The QAction of `spec`, its handler resolved from `window`."""
    if spec.make is not None:
        action = spec.make(window)
    else:
        action = QAction(resources.icon(spec.icon or spec.id), spec.text, window)
    if spec.make is not None and spec.icon:
        action.setIcon(resources.icon(spec.icon))
    if spec.shortcut is not None:
        sequences = _key_sequences(spec.shortcut)
        if isinstance(spec.shortcut, list | tuple):
            action.setShortcuts(sequences)
        else:
            action.setShortcut(sequences[0])
    if spec.tip:
        action.setStatusTip(spec.tip)
        action.setToolTip(f"{spec.text.replace('&', '').replace('…', '')} — {spec.tip}")
    if spec.checkable:
        action.setCheckable(True)
        action.setChecked(spec.checked)
    if not spec.enabled:
        action.setEnabled(False)
    if spec.handler is not None:
        _connect(action, resolve(window, spec.handler), spec)
    if spec.make is None:
        window.addAction(action)
    return action


def make_actions(window: QWidget, specs: Iterable[ActionSpec]) -> tuple[dict[str, QAction],
                                                                       dict[str, QActionGroup]]:
    """Every spec's QAction by id (in the order of `specs`), and the exclusive groups by name."""
    actions: dict[str, QAction] = {}
    groups: dict[str, QActionGroup] = {}
    for spec in specs:
        if spec.id in actions:
            raise ValueError(f"action {spec.id!r} declared twice")
        action = actions[spec.id] = make_action(window, spec)
        if spec.group is not None:
            if spec.group not in groups:
                groups[spec.group] = QActionGroup(window)
            groups[spec.group].addAction(action)
    return actions, groups


def refresh_enabled(actions: dict[str, QAction], specs: Iterable[ActionSpec],
                    context: ActionContext) -> None:
    """Enable or disable every action that declares `enabled_when`, for `context`."""
    for spec in specs:
        if spec.enabled_when is not None:
            actions[spec.id].setEnabled(spec.enabled_when(context))
