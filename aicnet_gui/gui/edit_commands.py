"""The Edit, Connect and Arrange menus' verbs on the current selection.

`EditCommands` reads the selection of the canvas shown (window.selection()) and hands it to the
`Editor`, which turns it into one undoable edit: delete, the clipboard (copy, cut, paste and
duplicate a fragment of the design), connecting (next free port, full mesh, rail wiring),
choosing media, alignment, a new rack, a device from the palette.  It holds no state but the
paste offset (each paste lands one step further from the original).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtWidgets import QApplication

from ..editing.fragments import (
    FRAGMENT_MIME,
    FragmentError,
    fragment_bytes,
    make_fragment,
    parse_fragment,
)
from ..editing.units import counted
from ..repair.media_fix import names_of, unplaced_ends
from .dialogs import messages
from .dialogs.bulk_connect import FullMeshDialog, split_by_tier
from .find_device import FindDevice

PASTE_STEP = 40.0
"""How far each further paste of the same fragment lands from the one before (scene units)."""


class EditCommands:
    """The editing verbs of one main window, on its current selection."""

    def __init__(self, window: Any) -> None:  # the MainWindow (annotated loosely: no cycle)
        self.window = window
        self.editor = window.editor
        self.paste_count = 0
        self.find_box: FindDevice | None = None

    @property
    def doc(self):  # noqa: ANN201
        return self.window.document.fabric

    # ---------------------------------------------------------------- delete and clipboard
    def delete_selection(self) -> None:
        devices, links, racks = self.window.selection()
        if devices or links or racks:
            self.editor.delete(devices, links, racks)

    def copy(self) -> bool:
        devices, links, _racks = self.window.selection()
        if not devices:
            return False
        fragment = make_fragment(self.doc, devices, links)
        data = QMimeData()
        raw = fragment_bytes(fragment)
        data.setData(FRAGMENT_MIME, raw)
        data.setText(raw.decode())
        QApplication.clipboard().setMimeData(data)
        self.paste_count = 0
        self.window.show_message(f"Copied {counted(len(fragment['devices']), 'device')} and "
                                 f"{counted(len(fragment['links']), 'cable')}")
        return True

    def cut(self) -> None:
        if self.copy():
            self.delete_selection()

    def paste(self) -> None:
        data = QApplication.clipboard().mimeData()
        raw = bytes(data.data(FRAGMENT_MIME).data()) if data and data.hasFormat(FRAGMENT_MIME) else (
            data.text().encode() if data and data.hasText() else b"")
        try:
            fragment = parse_fragment(raw)
        except FragmentError as exc:
            self.window.show_message(str(exc), 1)
            return
        self.paste_count += 1
        step = PASTE_STEP * self.paste_count
        self.window.show_tab(0)
        self.editor.paste(fragment, (step, step))

    def duplicate(self) -> None:
        devices, _links, _racks = self.window.selection()
        self.window.show_tab(0)
        self.editor.duplicate(devices)

    def select_all(self) -> None:
        self.window.current_scene().select_all()

    def find(self) -> FindDevice:
        """Edit › Find Device: the box that goes to a device by name or id."""
        if self.find_box is None:
            self.find_box = FindDevice(self.window)
        self.find_box.open_for_window()
        return self.find_box

    # ---------------------------------------------------------------- connect
    def connect_next_free(self) -> None:
        devices, _l, _r = self.window.selection()
        if len(devices) != 2:
            self.window.show_message("Select exactly two devices to connect them", 1)
            return
        self.editor.connect_next_free(devices[0], devices[1])

    def full_mesh(self) -> None:
        devices, _l, _r = self.window.selection()
        dialog = FullMeshDialog(self.doc, devices, self.window)
        if dialog.exec():
            lower, upper, per_pair = dialog.choice()
            self.editor.full_mesh(lower, upper, per_pair)

    def rail_wiring(self) -> None:
        devices, _l, _r = self.window.selection()
        tiers = split_by_tier(self.doc, devices)
        self.editor.rail_wiring(tiers.get(0, []), tiers.get(1, []))

    def choose_media(self) -> None:
        devices, links, _r = self.window.selection()
        doc = self.doc
        ids = set(links)
        for device in devices:
            ids |= doc.link_ids_of(device)
        link_ids = sorted(ids)
        unplaced, cables = unplaced_ends(doc, link_ids)
        if unplaced and not self._offer_placing(unplaced, cables):
            return
        self.editor.choose_media(link_ids)

    def _offer_placing(self, unplaced: list[str], cables: int) -> bool:
        """Media are chosen by length, and a cable whose devices are in no rack has none: say
        so, and offer to place the devices (then go on) or to show them on the Floor (stop
        there).  True to go on choosing media."""
        doc = self.doc
        text = (f"No length is known for {counted(cables, 'cable')} of the selection: "
                f"{counted(len(unplaced), 'device')} at their ends "
                f"{'is' if len(unplaced) == 1 else 'are'} in no rack "
                f"({names_of(doc, unplaced)}).\n\nA cable's length comes from the places of "
                "its two racks on the floor, and the media are chosen by length. Place the "
                "devices in new racks (servers by rack power, switches in network racks, as the "
                "templates do; one undo step), or show them on the Floor to drag them into "
                "racks yourself.")
        answer = messages.ask_place_devices(self.window, text)
        if answer == messages.PLACE:
            return self.editor.place_in_new_racks(unplaced)
        if answer == messages.SHOW:
            self.window.show_tab(1)
            self.window.select_ids(unplaced, [], [], centre=True)
            self.window.show_message(f"{counted(len(unplaced), 'device')} wait in the tray: drag "
                                     "them into rack slots, then choose media again")
        return False

    # ---------------------------------------------------------------- arrange
    def align(self, how: str) -> None:
        devices, _l, _r = self.window.selection()
        self.editor.align(devices, how)

    def add_rack(self) -> None:
        window = self.window
        rack_id = self.editor.add_rack()
        if rack_id:
            window.show_tab(1)
            window.floor.select_ids([], [rack_id])
            item = window.floor.racks_by_id.get(rack_id)
            if item is not None:
                window.floor_view.ensureVisible(item.sceneBoundingRect(), 40, 40)

    def add_device_from_palette(self, model_id: str) -> None:
        window = self.window
        if window.current_scene() is window.floor:
            self.editor.add_device(model_id)
        else:
            device_id = self.editor.add_device(model_id)
            if device_id:
                rect = window.topology.ensure_item_visible_rect([device_id], [])
                window.topology_view.ensureVisible(rect, 60, 60)

    def fabric_settings(self) -> None:
        self.editor.open_fabric_settings(self.window)

    def edit_device(self, _device_id: str) -> None:
        """A double-click on a device: its name in the inspector, ready to type."""
        inspector = self.window.inspector
        inspector.show()
        inspector.raise_()
        name = inspector.device_page.name
        name.setFocus(Qt.FocusReason.OtherFocusReason)
        name.selectAll()
