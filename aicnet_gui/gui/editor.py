"""The editor's verbs: every user gesture becomes model operations applied as one undo step.

Scenes, panels and menus call these methods; they build operations (with the pure builders in
`bulk`, `fragments` and `layout`), check what the model does not check itself (physical
compatibility of two ports, RU overlap in a rack) and hand them to `EditorDocument.execute`.
A refused edit changes nothing and says why through the `message` signal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QWidget

from ..editing import bulk, fragments, layout, rack_fill
from ..editing.compat import PortRef, connection_problem, port_title
from ..editing.units import counted
from ..media import choose_media
from ..model.catalog_entities import ROLE_TIER, Role
from ..model.document import FabricDocument
from ..model.edits import (
    AddDevice,
    AddRack,
    AddWorkload,
    Operation,
    RemoveWorkload,
    UpdateDevice,
    UpdateLink,
    UpdateMetadata,
    UpdateRack,
    UpdateSettings,
    UpdateWorkload,
)
from ..model.fabric import CageConfig, Device, Endpoint, FabricTechnology, Workload, WorkloadKind
from ..model.fit import rack_slot_problem, ru_overlap
from ..model.floor import rack_floor_xy
from ..model.network_defaults import network_defaults
from . import theme
from .canvas.geometry import device_geometry
from .dialogs.settings_dialog import FabricSettingsDialog
from .document import EditorDocument

INFO = 0
REFUSED = 1
KEEP: Any = object()
"""Marks an argument of `set_cages` that stays as it is."""


def _setting_text(name: str, old: Any, new: Any) -> str:
    """"MTU 4096 -> 9000", "PFC on", "ECMP policy 5-tuple hash"."""
    if isinstance(new, bool):
        return f"{name.upper()} {'on' if new else 'off'}"
    if name == "mtu":
        return f"MTU {old} → {new}"
    return f"{name.replace('_', ' ').replace('ecmp', 'ECMP')} {new}"


class Editor(QObject):
    """Turns gestures into undoable edits of the open document."""

    #: (text, level) for the status bar: INFO or REFUSED
    message = Signal(str, int)
    #: ask the views to select these ids after an edit (devices, links, racks)
    select_requested = Signal(object, object, object)

    def __init__(self, document: EditorDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        document.refused.connect(lambda text: self.message.emit(text, REFUSED))

    @property
    def doc(self) -> FabricDocument:
        return self.document.fabric

    def _run(self, ops: list[Operation], text: str) -> bool:
        if not ops:
            return False
        ok = self.document.execute(ops, text)
        if ok:
            self.message.emit(text, INFO)
        return ok

    def refuse(self, reason: str) -> bool:
        self.message.emit(reason, REFUSED)
        return False

    def size_of(self, device: Device) -> tuple[float, float]:
        geometry = device_geometry(self.doc.device_model(device), device.cages)
        return geometry.width, geometry.height

    # ---------------------------------------------------------------- devices
    def add_device(self, model_id: str, position: tuple[float, float] | None = None,
                   rack: str | None = None, ru: int | None = None) -> str | None:
        doc = self.doc
        if model_id not in doc.catalog.devices:
            self.refuse(f"unknown device model {model_id}")
            return None
        model = doc.catalog.devices[model_id]
        device_id = doc.new_id("dev")
        if position is None:
            geometry = device_geometry(model, {})
            position = layout.tier_row_slot(doc, model.tier, self.size_of, geometry.width)
        if rack is not None and ru is not None:
            problem = self.rack_problem(device_id, model_id, rack, ru)
            if problem:
                self.refuse(problem)
                return None
        device = Device(id=device_id, name=doc.next_name(model.role.value), model=model_id,
                        position=(float(position[0]), float(position[1])), rack=rack, ru=ru)
        if self._run([AddDevice(device)], f"Add {device.name} ({model.model})"):
            self.select_requested.emit([device_id], [], [])
            return device_id
        return None

    def move_devices(self, positions: Mapping[str, tuple[float, float]]) -> bool:
        ops = layout.move_ops(self.doc, dict(positions))
        count = len(ops)
        return self._run(ops, f"Move {counted(count, 'device')}")

    def update_devices(self, device_ids: Iterable[str], changes: dict[str, Any], text: str) -> bool:
        ops: list[Operation] = []
        for device_id in device_ids:
            device = self.doc.devices.get(device_id)
            if device is None:
                continue
            diff = {k: v for k, v in changes.items() if getattr(device, k) != v}
            if diff:
                ops.append(UpdateDevice(device_id, diff))
        return self._run(ops, text)

    def set_role(self, device_ids: Iterable[str], role: str) -> bool:
        """Use devices as another role (an SN5600 as a spine); the model's own role stores None.
        A device whose tier changes moves into its new tier's row (a free slot at its right
        end), in the same undo step: a spine left in the leaf row would sit in the leaf band."""
        doc = self.doc
        new_role = Role(role)
        updates: dict[str, dict[str, Any]] = {}
        new_tiers: dict[str, int] = {}
        for device_id in device_ids:
            device = doc.devices.get(device_id)
            if device is None:
                continue
            new = None if role == doc.device_model(device).role.value else new_role
            if device.role != new:
                updates[device_id] = {"role": new}
                if ROLE_TIER[new_role] != doc.tier_of(device):
                    new_tiers[device_id] = ROLE_TIER[new_role]
        for device_id, position in layout.tier_row_slots(doc, new_tiers, self.size_of).items():
            updates[device_id]["position"] = (float(position[0]), float(position[1]))
        ops: list[Operation] = [UpdateDevice(d, changes) for d, changes in updates.items()]
        return self._run(ops, f"Use as {role.replace('_', ' ')}")

    def rename_device(self, device_id: str, name: str) -> bool:
        name = name.strip()
        if not name:
            return self.refuse("a device needs a name")
        return self.update_devices([device_id], {"name": name}, f"Rename to {name}")

    def set_cages(self, device_ids: Iterable[str], cages: Iterable[int], mode: Any = KEEP,
                  transceiver: Any = KEEP, fec: Any = KEEP) -> bool:
        """Set the breakout mode, optic and/or configured FEC (None: the line's default) of
        cages on devices (one undo step)."""
        ops: list[Operation] = []
        cage_list = list(cages)
        changed = 0  # cages whose setting changes, on every device (the message says so)
        for device_id in device_ids:
            device = self.doc.devices.get(device_id)
            if device is None:
                continue
            model = self.doc.device_model(device)
            new = dict(device.cages)
            for cage in cage_list:
                group = model.cage_group_of.get(cage)
                if group is None:
                    continue
                config = new.get(cage, CageConfig())
                update: dict[str, Any] = {}
                if mode is not KEEP:
                    update["mode"] = None if mode == group.default_breakout else mode
                if transceiver is not KEEP:
                    update["transceiver"] = transceiver
                config = config.model_copy(update=update)
                if fec is not KEEP:
                    config = CageConfig(mode=config.mode, transceiver=config.transceiver, fec=fec)
                if config.mode is None and config.transceiver is None and config.fec is None:
                    new.pop(cage, None)
                else:
                    new[cage] = config
                changed += new.get(cage) != device.cages.get(cage)
            if new != device.cages:
                ops.append(UpdateDevice(device_id, {"cages": new}))
        what = " and ".join(name for name, value in (("breakout mode", mode), ("transceiver", transceiver),
                                                        ("FEC", fec))
                            if value is not KEEP) or "nothing"
        where = f" on {counted(len(ops), 'device')}" if len(ops) > 1 else ""
        return self._run(ops, f"Set {what} of {counted(changed, 'cage')}{where}")

    # ---------------------------------------------------------------- racks and RU
    def rack_problem(self, device_id: str, model_id: str, rack: str, ru: int,
                     ignore: Iterable[str] = ()) -> str | None:
        """Why a device of `model_id` cannot sit in `rack` at `ru`, or None."""
        doc = self.doc
        if rack not in doc.racks:
            return f"there is no rack {rack}"
        rack_obj = doc.racks[rack]
        skip = set(ignore) | {device_id}
        occupants = (
            (other.name, other.ru, doc.device_model(other).height_ru)
            for other in doc.devices.values()
            if other.id not in skip and other.rack == rack and other.ru is not None
        )
        return rack_slot_problem(rack_obj.name, rack_obj.height_ru, ru,
                                 doc.catalog.devices[model_id].height_ru, occupants)

    def place_devices(self, placements: Mapping[str, tuple[str | None, int | None]]) -> bool:
        """Move devices into racks and RU (None, None: out of any rack), one undo step."""
        doc = self.doc
        moving = set(placements)
        ops: list[Operation] = []
        claimed: list[tuple[str, int, int, str]] = []
        for device_id, (rack, ru) in placements.items():
            device = doc.devices.get(device_id)
            if device is None:
                continue
            if rack is not None and ru is not None:
                problem = self.rack_problem(device_id, device.model, rack, ru, ignore=moving)
                if problem:
                    return self.refuse(f"{device.name}: {problem}")
                height = doc.device_model(device).height_ru
                for other_rack, other_ru, other_h, other_name in claimed:
                    if other_rack == rack and ru_overlap(ru, height, other_ru, other_h):
                        return self.refuse(f"{device.name} and {other_name} would overlap in {doc.racks[rack].name}")
                claimed.append((rack, ru, height, device.name))
            if (device.rack, device.ru) != (rack, ru):
                ops.append(UpdateDevice(device_id, {"rack": rack, "ru": ru}))
        if not ops:
            return False
        first = doc.devices[next(iter(placements))]
        rack_id = placements[first.id][0]
        where = doc.racks[rack_id].name if rack_id else "no rack"
        text = (f"Place {first.name} in {where}" if len(ops) == 1
                else f"Place {len(ops)} devices")
        return self._run(ops, text)

    def add_rack(self, row: int | None = None, position: int | None = None, height_ru: int = 48) -> str | None:
        if row is None or position is None:
            row, position = row or 1, None
        rack = rack_fill.new_rack(self.doc, row, height_ru, position=position)
        if self._run([AddRack(rack)], f"Add rack {rack.name}"):
            self.select_requested.emit([], [], [rack.id])
            return rack.id
        return None

    def place_in_new_racks(self, device_ids: Iterable[str]) -> bool:
        """Put the devices that are in no rack into new racks, as the templates fill racks
        (editing/rack_fill.py): their cables get lengths; one undo step."""
        try:
            fill = rack_fill.fill_new_racks(self.doc, device_ids)
        except rack_fill.RackFillError as exc:
            return self.refuse(str(exc))
        if not fill.placed:
            return self.refuse("The devices are in racks already")
        return self._run(list(fill.ops), f"Place {counted(fill.placed, 'device')} in "
                                         f"{counted(len(fill.racks), 'new rack')}")

    def update_racks(self, rack_ids: Iterable[str], changes: dict[str, Any], text: str) -> bool:
        ops: list[Operation] = []
        for rack_id in rack_ids:
            rack = self.doc.racks.get(rack_id)
            if rack is None:
                continue
            diff = {k: v for k, v in changes.items() if getattr(rack, k) != v}
            if diff:
                ops.append(UpdateRack(rack_id, diff))
        return self._run(ops, text)

    def move_rack(self, rack_id: str, x_m: float, y_m: float) -> bool:
        """Move a rack to floor position (x, y) in metres.  On a floor laid out by row and
        position (no rack has coordinates) a position on that grid is stored as row/position."""
        doc = self.doc
        rack = doc.racks.get(rack_id)
        if rack is None:
            return False
        params = doc.settings.lengths
        for other in doc.racks.values():
            ox, oy = rack_floor_xy(other, params)
            if other.id != rack_id and abs(ox - x_m) < 1e-3 and abs(oy - y_m) < 1e-3:
                return self.refuse(f"{x_m:g} m, {y_m:g} m on the floor is taken by rack {other.name}")
        position = x_m / params.rack_width_m + 1
        row = y_m / params.row_pitch_m + 1
        on_grid = abs(position - round(position)) < 1e-6 and abs(row - round(row)) < 1e-6
        if on_grid and all(r.x_m is None and r.y_m is None for r in doc.racks.values()):
            changes: dict[str, Any] = {"row": round(row), "position": round(position), "x_m": None, "y_m": None}
        else:
            changes = {"x_m": x_m, "y_m": y_m}
        return self.update_racks([rack_id], changes, f"Move rack {rack.name}")

    # ---------------------------------------------------------------- wiring
    def connect(self, a: PortRef, b: PortRef) -> bool:
        problem = connection_problem(self.doc, a, b)
        if problem:
            return self.refuse(f"Cannot connect {port_title(self.doc, a)} to {port_title(self.doc, b)}: {problem}")
        factory = bulk.LinkFactory(self.doc)
        op = factory.make(a, b)
        if self._run([op], f"Connect {port_title(self.doc, a)} to {port_title(self.doc, b)}"):
            self.select_requested.emit([], [op.link.id], [])
            return True
        return False

    def move_link_end(self, link_id: str, end: str, target: PortRef) -> bool:
        doc = self.doc
        link = doc.links.get(link_id)
        if link is None:
            return False
        fixed = link.b if end == "a" else link.a
        problem = connection_problem(doc, PortRef(fixed.device, fixed.port), target, moving_link=link_id)
        if problem:
            return self.refuse(f"Cannot move the cable to {port_title(doc, target)}: {problem}")
        change = {end: Endpoint(device=target.device, port=target.port)}
        return self._run([UpdateLink(link_id, change)], f"Move cable to {port_title(doc, target)}")

    def connect_next_free(self, a: str, b: str, count: int = 1) -> bool:
        try:
            ops = bulk.connect_next_free(self.doc, a, b, count)
        except bulk.BulkError as exc:
            return self.refuse(str(exc))
        names = f"{self.doc.devices[a].name} and {self.doc.devices[b].name}"
        ok = self._run(ops, f"Connect {names} ({counted(len(ops), 'cable')})")
        if ok:
            self.select_requested.emit([], [op.link.id for op in ops], [])  # type: ignore[union-attr]
        return ok

    def full_mesh(self, lower: list[str], upper: list[str], per_pair: int) -> bool:
        try:
            ops = bulk.full_mesh(self.doc, lower, upper, per_pair)
        except bulk.BulkError as exc:
            return self.refuse(str(exc))
        cables = counted(len(ops), "cable")
        return self._run(ops, f"Full mesh: {len(lower)} x {len(upper)} devices, {cables}")

    def rail_wiring(self, servers: list[str], leaves: list[str]) -> bool:
        try:
            ops = bulk.rail_wiring(self.doc, servers, leaves)
        except bulk.BulkError as exc:
            return self.refuse(str(exc))
        return self._run(ops, (f"Rail wiring: {counted(len(servers), 'server')} to "
                                f"{counted(len(leaves), 'leaf')}, {counted(len(ops), 'cable')}"))

    def update_links(self, link_ids: Iterable[str], changes: dict[str, Any], text: str) -> bool:
        ops: list[Operation] = []
        for link_id in link_ids:
            link = self.doc.links.get(link_id)
            if link is None:
                continue
            diff = {k: v for k, v in changes.items() if getattr(link, k) != v}
            if diff:
                ops.append(UpdateLink(link_id, diff))
        return self._run(ops, text)

    # ---------------------------------------------------------------- clipboard and deletion
    def delete(self, device_ids: Iterable[str] = (), link_ids: Iterable[str] = (),
               rack_ids: Iterable[str] = ()) -> bool:
        devices, links, racks = list(device_ids), list(link_ids), list(rack_ids)
        ops = fragments.delete_ops(self.doc, devices, links, racks)
        parts = []
        for count, noun in ((len(devices), "device"), (len(links), "cable"), (len(racks), "rack")):
            if count:
                parts.append(counted(count, noun))
        return self._run(ops, "Delete " + ", ".join(parts))

    def paste(self, fragment: dict[str, Any], offset: tuple[float, float] = (40.0, 40.0)) -> list[str]:
        try:
            pasted = fragments.paste_ops(self.doc, fragment, offset)
        except fragments.FragmentError as exc:
            self.refuse(str(exc))
            return []
        count = len(pasted.device_ids)
        if self._run(pasted.ops, f"Paste {counted(count, 'device')}"):
            self.select_requested.emit(pasted.device_ids, pasted.link_ids, [])
            return pasted.device_ids
        return []

    def duplicate(self, device_ids: Iterable[str]) -> list[str]:
        fragment = fragments.make_fragment(self.doc, list(device_ids))
        if not fragment["devices"]:
            return []
        return self.paste(fragment)

    # ---------------------------------------------------------------- layout
    def auto_layout(self) -> bool:
        positions = layout.auto_layout(self.doc, self.size_of)
        ops = layout.move_ops(self.doc, positions)
        if not ops:
            self.message.emit("The layout is already tidy", INFO)
            return False
        return self._run(ops, "Auto-layout by tier")

    def align(self, device_ids: Iterable[str], how: str) -> bool:
        boxes = {}
        for device_id in device_ids:
            device = self.doc.devices.get(device_id)
            if device is not None:
                w, h = self.size_of(device)
                boxes[device_id] = (device.position[0], device.position[1], w, h)
        if len(boxes) < 2:
            return self.refuse("select two or more devices to align them")
        positions = layout.align(boxes, how)
        return self._run(layout.move_ops(self.doc, positions), f"Align {len(boxes)} devices")

    # ---------------------------------------------------------------- workloads
    def add_workload(self, kind: str, members: Iterable[str] = (), name: str | None = None) -> str | None:
        """A new workload of `kind` (training / inference / storage) with `members`."""
        doc = self.doc
        kind_ = WorkloadKind(kind)
        workload_id = doc.new_id("workload")
        taken = {w.name for w in doc.workloads.values()}
        if name is None:
            n = 1
            while f"{kind_.value} {n}" in taken:
                n += 1
            name = f"{kind_.value} {n}"
        serving = (WorkloadKind.INFERENCE, WorkloadKind.INFERENCE_DISAGGREGATED,
                   WorkloadKind.INFERENCE_WIDE_EP)
        pattern = "all-to-all" if kind_ in serving else "ring-allreduce"
        workload = Workload(id=workload_id, name=name, kind=kind_, members=list(members),
                            pattern=pattern)
        if self._run([AddWorkload(workload)], f"Add workload {name}"):
            return workload_id
        return None

    def update_workload(self, workload_id: str, changes: dict[str, Any], text: str) -> bool:
        workload = self.doc.workloads.get(workload_id)
        if workload is None:
            return False
        diff = {k: v for k, v in changes.items() if getattr(workload, k) != v}
        return self._run([UpdateWorkload(workload_id, diff)] if diff else [], text)

    def remove_workload(self, workload_id: str) -> bool:
        workload = self.doc.workloads.get(workload_id)
        if workload is None:
            return False
        return self._run([RemoveWorkload(workload_id)], f"Delete workload {workload.name}")

    def choose_media(self, link_ids: list[str]) -> bool:
        """Optics at both ends and a cord that reach, for these cables (whole cage components:
        a twin-port optic serves both its links), chosen as the templates choose them
        (`aicnet_gui.media.choose_media`); one undo step.  Pinned cables keep their media."""
        if not link_ids:
            return self.refuse("Select cables, or devices whose cables should get media")
        result = choose_media(self.doc, link_ids)
        if result.unresolved and not result.ops:
            cables = sum(len(u.links) for u in result.unresolved)
            return self.refuse(f"No media chosen for {counted(cables, 'cable')}: "
                               f"{result.unresolved[0].reason}")
        done = self._run(list(result.ops),
                         f"Choose media for {counted(len(link_ids), 'cable')}")
        if done and result.unresolved:
            self.message.emit(f"Media chosen; {counted(len(result.unresolved), 'cable')} "
                              "kept their media: nothing in the catalog reaches", REFUSED)
        if not result.ops and not result.unresolved:
            self.message.emit("The selected cables already have the media the templates would "
                              "choose", INFO)
        return done

    def apply_fix(self, ops: list[Operation], text: str) -> bool:
        """A finding's suggested fix, as one undo step."""
        return self._run(list(ops), text)

    # ---------------------------------------------------------------- fabric settings
    def update_settings(self, changes: dict[str, Any], text: str) -> bool:
        diff = {k: v for k, v in changes.items() if getattr(self.doc.settings, k) != v}
        return self._run([UpdateSettings(diff)] if diff else [], text)

    def set_technology(self, technology: FabricTechnology) -> bool:
        """Change the fabric's technology and bring its network defaults with it (MTU, PFC,
        ECN, DCB, ECMP: model/network_defaults.py) in the same undo step, and say what changed:
        a design switched to RoCEv2 kept InfiniBand's MTU 4096 and was then flagged for it."""
        settings = self.doc.settings
        technology = FabricTechnology(technology)
        if technology == settings.technology:
            return False
        wanted = {"technology": technology, **network_defaults(technology)}
        changes = {k: v for k, v in wanted.items() if getattr(settings, k) != v}
        title = theme.TECH_TITLES.get(technology.value, technology.value)
        if not self._run([UpdateSettings(changes)], f"Set technology {title}"):
            return False
        brought = [_setting_text(k, getattr(settings, k), v) for k, v in changes.items()
                   if k != "technology"]
        if brought:
            self.message.emit(f"Technology {title}, with its defaults: {', '.join(brought)} "
                              "(Undo keeps the old settings)", INFO)
        return True

    def update_metadata(self, changes: dict[str, Any], text: str) -> bool:
        diff = {k: v for k, v in changes.items() if getattr(self.doc.metadata, k) != v}
        return self._run([UpdateMetadata(diff)] if diff else [], text)

    def open_fabric_settings(self, parent: QWidget | None = None) -> FabricSettingsDialog:
        """Show the fabric settings dialog (window-modal); OK applies its changes as one step."""
        dialog = FabricSettingsDialog(self.doc, self.doc.catalog, parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._run(dialog.result_ops, "Edit fabric settings"))
        dialog.open()
        return dialog

    def apply_generated(self, ops: list[Operation], text: str) -> bool:
        """A generator run (or any bulk build) as one undo step."""
        return self._run(ops, text)
