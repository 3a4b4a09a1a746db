"""The canvases' right-click menu: select what is under the cursor, then offer its verbs.

On the Topology a device offers to collapse the groups it belongs to, a collapsed group's box to
expand, and the wiring, alignment and layout actions that apply to the selection; on the Floor a
racked device can be taken out of its rack.  Every entry is one of the window's declared
actions (window_actions.py) or a verb of the editor, so the menu never edits by itself.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QMenu

from ..editing import layout as layout_ops
from . import resources
from .canvas import groups
from .canvas.hits import DeviceHit, GroupHit, Hit, LinkHit, RackHit
from .canvas.view import FabricView


class ContextMenus:
    """The right-click menu of one window's two canvases."""

    def __init__(self, window: Any) -> None:  # the MainWindow (annotated loosely: no cycle)
        self.window = window

    def show(self, view: FabricView, pos) -> None:  # noqa: ANN001
        """Right-click: select what is under the cursor (if it is not selected) and offer verbs."""
        window = self.window
        scene_pos = view.mapToScene(pos)
        if view.scene() is window.topology:
            hit = window.topology.hit_at(scene_pos, view.scale_factor())
        else:
            hit = window.floor.hit_at(scene_pos)
        self.select_hit(view.scene(), hit)
        devices, links, racks = window.selection()
        menu = QMenu(window)
        if devices or links or racks:
            for name in ("copy", "duplicate", "delete"):
                menu.addAction(window.actions_by_name[name])
            menu.addSeparator()
        if view.scene() is window.topology:
            self._topology_menu(menu, hit, devices)
        else:
            self._floor_menu(menu, devices)
        menu.addSeparator()
        menu.addAction(window.actions_by_name["fit"])
        menu.exec(view.viewport().mapToGlobal(pos))

    def select_hit(self, scene: object, hit: Hit | None) -> None:
        """A right-click on something not selected selects it (alone)."""
        window = self.window
        target = window.topology if scene is window.topology else window.floor
        match hit:
            case DeviceHit(device_id=device_id, selected=False):
                target.select_ids([device_id], [])
            case LinkHit(link_id=link_id, selected=False):
                window.topology.select_ids([], [link_id])
            case RackHit(rack_id=rack_id, selected=False):
                window.floor.select_ids([], [rack_id])

    def _topology_menu(self, menu: QMenu, hit: Hit | None, devices: list[str]) -> None:
        window = self.window
        act = window.actions_by_name
        fabric = window.document.fabric
        if isinstance(hit, GroupHit):
            expand = menu.addAction(resources.icon("expand"), f"Expand {hit.title}")
            expand.triggered.connect(lambda: window.topology.expand([hit.key]))
        if isinstance(hit, DeviceHit) and hit.device_id in fabric.devices:
            for key in groups.groups_of(fabric, fabric.devices[hit.device_id]):
                entry = menu.addAction(resources.icon("collapse"), f"Collapse {key.title(fabric)}")
                entry.triggered.connect(lambda _c=False, k=key: window.collapse([k]))
        if window.topology.collapsed:
            menu.addAction(act["expand-all"])
        menu.addSeparator()
        for name in ("connect-next", "connect-mesh", "connect-rail", "choose-media"):
            if act[name].isEnabled():
                menu.addAction(act[name])
        if len(devices) >= 2:
            align = menu.addMenu(resources.icon("align-left"), "Align")
            for how in layout_ops.ALIGNMENTS:
                align.addAction(act[f"align-{how}"])
        menu.addSeparator()
        menu.addAction(act["paste"])
        menu.addAction(act["auto-layout"])

    def _floor_menu(self, menu: QMenu, devices: list[str]) -> None:
        window = self.window
        racked = [d for d in devices if window.document.fabric.devices[d].rack]
        if racked:
            take_out = menu.addAction("Take Out of Rack")
            take_out.triggered.connect(
                lambda: window.editor.place_devices({d: (None, None) for d in racked}))
        menu.addAction(window.actions_by_name["add-rack"])
