"""The inspector refuses a device, rack or workload name with a control character and says why,
through the model's own refusal (the editor's edits go through the mutation API): the name stays
what it was, the refusal and its reason are on screen, and nothing reaches the undo stack."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

_GUI = importlib.util.spec_from_file_location(
    "gui_fixtures", Path(__file__).resolve().parents[1] / "gui" / "conftest.py")
_fixtures = importlib.util.module_from_spec(_GUI)
_GUI.loader.exec_module(_fixtures)
dialogs, make_window, window = _fixtures.dialogs, _fixtures.make_window, _fixtures.window

LEAF = "nvidia-sn5600"




def _paste(edit, text: str) -> None:  # noqa: ANN001
    """Replace the field's text as a paste does (a key press cannot type most of these) and
    press Return."""
    edit.setFocus()
    edit.selectAll()
    edit.insert(text)
    assert edit.text() == text  # the field took it: the model is what refuses
    QTest.keyClick(edit, Qt.Key.Key_Return)


def _refused(window, depth: int) -> None:  # noqa: ANN001
    assert window.document.undo_stack.count() == depth
    shown = window.message_label.text()
    assert "name: U+" in shown and "one line of printable text" in shown, shown


@pytest.mark.parametrize("text", ["tor\u2028evil", "tor\tb", "tor\x1b[31m", "tor\u0085x"])
def test_renaming_a_device_with_a_control_character_is_refused_with_the_reason(window, text):
    device = window.editor.add_device(LEAF, (0, 0))
    window.topology.select_ids([device], [])
    page = window.inspector.device_page
    assert window.inspector.current_page() is page
    depth = window.document.undo_stack.count()
    _paste(page.name, text)
    doc = window.document.fabric
    assert doc.devices[device].name == "leaf-01"
    _refused(window, depth)
    _paste(page.name, "tor-a")  # the same field still renames
    assert doc.devices[device].name == "tor-a"


def test_renaming_a_rack_or_the_fabric_with_a_line_break_is_refused_with_the_reason(window):
    rack = window.editor.add_rack()
    window.inspector.show_selection([], [], [rack])  # a rack picked on the floor
    page = window.inspector.rack_page
    assert window.inspector.current_page() is page
    doc = window.document.fabric
    name, depth = doc.racks[rack].name, window.document.undo_stack.count()
    _paste(page.name, "R1\u2029x")
    assert doc.racks[rack].name == name
    _refused(window, depth)
    window.inspector.show_selection([], [], [])
    page = window.inspector.fabric_page
    assert window.inspector.current_page() is page
    name = doc.metadata.name
    _paste(page.name, "pod\x0bSwitchName=evil")
    assert doc.metadata.name == name
    _refused(window, depth)
