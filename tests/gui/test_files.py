"""Files in the editor: save and open, the unsaved mark, bad files, recovery, the screenshot CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from aicnet_gui.editing.compat import PortRef
from aicnet_gui.fileio import dumps_fabric

ROOT = Path(__file__).resolve().parents[2]
SERVER = "generic-hgx-8-gpu-b3140h"
LEAF = "nvidia-sn5600"


def build(window) -> None:
    editor = window.editor
    server = editor.add_device(SERVER, (0, 400))
    leaf = editor.add_device(LEAF, (0, 0))
    rack = editor.add_rack()
    editor.place_devices({server: (rack, 1), leaf: (rack, 40)})
    editor.connect(PortRef(server, "p1"), PortRef(leaf, "swp1s0"))
    link = next(iter(window.document.fabric.links))
    editor.update_links([link], {"length_m": 3.5, "colour": "blue", "rail": 1}, "tags")


def test_save_then_open_gives_the_same_model(make_window, tmp_path):
    first = make_window()
    build(first)
    path = tmp_path / "pod.fabric"
    assert first._save_to(path)
    second = make_window()
    assert second.open_path(path, ask=False)
    # the same bytes out again: same devices, racks, links, settings and positions
    assert dumps_fabric(second.document.fabric) == dumps_fabric(first.document.fabric)
    assert len(second.topology.items_by_id) == 2
    assert len(second.topology.links) == 1
    assert second.document.path == path.resolve()
    assert not second.document.dirty


def test_the_unsaved_mark_follows_edits_undo_and_saves(window, tmp_path):
    assert window.windowTitle() == "Untitled — aicnet"
    window.editor.add_device(LEAF, (0, 0))
    assert window.windowTitle() == "Untitled* — aicnet"
    window.document.undo_stack.undo()
    assert window.windowTitle() == "Untitled — aicnet"  # back at the clean state
    window.document.undo_stack.redo()
    path = tmp_path / "a.fabric"
    assert window._save_to(path)
    assert window.windowTitle() == "a.fabric — aicnet"
    window.editor.add_device(LEAF, (0, 200))
    assert window.windowTitle() == "a.fabric* — aicnet"
    assert window.document.dirty
    window.document.undo_stack.undo()
    assert window.windowTitle() == "a.fabric — aicnet"


def test_closing_with_unsaved_changes_asks_and_cancel_keeps_the_window(window, dialogs):
    window.editor.add_device(LEAF, (0, 0))
    dialogs.save_answer = "cancel"
    assert not window.close()
    assert dialogs.asked_save == 1
    assert window.isVisible()
    dialogs.save_answer = "discard"
    assert window.close()


def test_opening_a_broken_file_shows_the_error_and_the_window_keeps_working(window, dialogs, tmp_path):
    window.editor.add_device(LEAF, (0, 0))
    window.document.undo_stack.setClean()
    broken = tmp_path / "broken.fabric"
    broken.write_text('{"format": "aicnet.fabric", "schema_version": 1, "devices": [{"id": 1}]')
    assert not window.open_path(broken, ask=False)
    assert len(dialogs.errors) == 1
    title, text = dialogs.errors[0]
    assert title == "Cannot open fabric"
    assert "broken.fabric" in text and "not valid JSON" in text
    # the document that was open is still there and still editable
    assert len(window.document.fabric.devices) == 1
    assert window.editor.add_device(LEAF, (0, 300)) is not None
    assert len(window.topology.items_by_id) == 2
    # a file that parses but breaks the model names the place
    bad_ref = tmp_path / "dangling.fabric"
    bad_ref.write_text('{"format": "aicnet.fabric", "schema_version": 1, "links": '
                       '[{"id": "l1", "a": {"device": "x", "port": "p1"}, "b": {"device": "y", "port": "p1"}}]}')
    assert not window.open_path(bad_ref, ask=False)
    assert "$.links[0]" in dialogs.errors[1][1]


def test_recovery_after_a_simulated_crash_restores_the_last_autosave(make_window, dialogs, tmp_path):
    first = make_window()
    build(first)
    path = tmp_path / "work.fabric"
    assert first._save_to(path)
    first.editor.add_device(SERVER, (400, 400))  # unsaved work
    written = first.autosave()
    assert written is not None and written.exists()
    expected = dumps_fabric(first.document.fabric)
    # the crash: the window is never closed, the recovery file stays behind
    first.document.recovery = type(first.document.recovery)(tmp_path / "elsewhere")
    second = make_window()
    assert second.offer_recovery()
    assert dialogs.asked_recover == 1
    assert dumps_fabric(second.document.fabric) == expected
    assert second.document.dirty
    assert second.document.path == path.resolve()
    assert second.windowTitle() == "work.fabric* — aicnet"
    assert len(second.topology.items_by_id) == 3
    # the recovery file was taken over; a third start finds nothing to offer
    third = make_window()
    assert not third.offer_recovery()


def test_nothing_to_recover_after_a_clean_close(make_window, dialogs):
    first = make_window()
    first.editor.add_device(LEAF, (0, 0))
    assert first.autosave() is not None
    dialogs.save_answer = "discard"
    assert first.close()
    second = make_window()
    assert not second.offer_recovery()
    assert dialogs.asked_recover == 0


def test_screenshot_option_writes_a_png_and_leaves_the_recent_list_alone(tmp_path, example_path):
    from PySide6.QtCore import QSettings

    out = tmp_path / "shot.png"
    # the user's settings (QSettings' native format on Linux: $XDG_CONFIG_HOME/aicnet/aicnet.conf)
    config = tmp_path / "cfg" / "aicnet" / "aicnet.conf"
    config.parent.mkdir(parents=True)
    mine = ["/projects/pod-a.fabric", "/projects/pod-b.fabric"]
    before = QSettings(str(config), QSettings.Format.IniFormat)
    before.setValue("recent", mine)
    before.sync()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_STATE_HOME=str(tmp_path / "state"))
    result = subprocess.run(
        [sys.executable, "-m", "aicnet_gui", "--screenshot", str(out), "--size", "1200x800", str(example_path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert (image.width(), image.height()) == (1200, 800)
    after = QSettings(str(config), QSettings.Format.IniFormat)
    assert after.value("recent") == mine  # a screenshot is not something the user opened


def test_screenshot_of_a_missing_file_fails_with_a_message(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_STATE_HOME=str(tmp_path / "state"))
    result = subprocess.run(
        [sys.executable, "-m", "aicnet_gui", "--screenshot", str(tmp_path / "x.png"), str(tmp_path / "nope.fabric")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 1
    assert "nope.fabric" in result.stderr and "no such file" in result.stderr
    assert "Traceback" not in result.stderr


def test_screenshot_of_a_link_that_is_not_there_names_it_and_fails(tmp_path, example_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_STATE_HOME=str(tmp_path / "state"))
    result = subprocess.run(
        [sys.executable, "-m", "aicnet_gui", "--screenshot", str(tmp_path / "x.png"),
         "--select-link", "link-nope", str(example_path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 1
    assert "no link with id 'link-nope'" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_a_file_dropped_on_the_window_opens_and_joins_the_recent_list(window, qtbot, example_path):
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QApplication

    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(example_path))])
    enter = QDragEnterEvent(window.rect().center(), Qt.DropAction.CopyAction, data,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(window.rect().center()), Qt.DropAction.CopyAction, data,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)
    qtbot.waitUntil(lambda: window.document.path == example_path.resolve())
    assert len(window.document.fabric.devices) == 8
    assert window.recent_files()[0] == str(example_path.resolve())
    assert window.windowTitle() == "small-hgx.fabric — aicnet"


def test_revert_drops_the_changes_after_asking(window, dialogs, example_path):
    assert window.open_path(example_path, ask=False)
    device = next(iter(window.document.fabric.devices))
    window.editor.delete([device])
    assert len(window.document.fabric.devices) == 7
    dialogs.save_answer = "discard"
    window.revert()
    assert dialogs.asked_save == 1
    assert len(window.document.fabric.devices) == 8
    assert not window.document.dirty


def test_new_from_template_shows_the_whole_generated_fabric(window):
    """The scene grows to the generated devices at once, so Fit to View reaches all of them."""
    from aicnet_gui.generators import RailOptimizedParams, build_ops
    from aicnet_gui.gui.dialogs.template_wizard import apply_template
    from aicnet_gui.model.document import FabricDocument

    ops, _ = build_ops(FabricDocument(window.catalog), RailOptimizedParams(sus=1, leaf="nvidia-qm9700"))
    assert apply_template(window, "rail-optimized", ops)
    content = window.topology.content_rect()
    assert content.width() > 2800
    assert window.topology.sceneRect().contains(content)
