"""Autosave: the recovery copy follows the last edit by a few seconds, in the background for a
big design, and the status bar says when it was written."""

from __future__ import annotations

from aicnet_gui.fileio import dumps_fabric, load_fabric
from aicnet_gui.gui import autosave

LEAF = "nvidia-sn5600"


def _recovery_files(window) -> list:  # noqa: ANN001
    folder = window.document.recovery.folder
    return sorted(folder.glob("*.fabric")) if folder.is_dir() else []


def test_an_edit_is_autosaved_after_a_short_pause_and_the_status_bar_says_when(
        make_window, qtbot, catalog):
    window = make_window()
    window.autosaver.delay_ms = 50
    assert window.autosaver.label.text() == ""
    with qtbot.waitSignal(window.autosaver.saved, timeout=10_000):
        window.editor.add_device(LEAF, (0, 0))
        assert window.autosaver.pending()
    (written,) = _recovery_files(window)
    assert dumps_fabric(load_fabric(written, catalog)) == dumps_fabric(window.document.fabric)
    assert window.autosaver.label.text().startswith("Autosaved ")


def test_a_burst_of_edits_is_saved_once_after_the_last_one(make_window, qtbot):
    window = make_window()
    window.autosaver.delay_ms = 200
    saves: list[float] = []
    window.autosaver.saved.connect(saves.append)
    with qtbot.waitSignal(window.autosaver.saved, timeout=10_000):
        for x in range(5):
            window.editor.add_device(LEAF, (300 * x, 0))
    assert len(saves) == 1
    assert not window.autosaver.pending()


def test_saving_the_file_cancels_the_pending_autosave(make_window, tmp_path):
    window = make_window()
    window.autosaver.delay_ms = 60_000
    window.editor.add_device(LEAF, (0, 0))
    assert window.autosaver.pending()
    assert window._save_to(tmp_path / "saved.fabric")
    assert not window.autosaver.pending()
    assert window.autosaver.label.text() == ""


def test_a_big_design_is_autosaved_from_a_snapshot_in_the_background(
        make_window, qtbot, catalog, monkeypatch, tmp_path):
    monkeypatch.setattr(autosave, "BACKGROUND_LINKS", 0)  # every design counts as big
    window = make_window()
    window.autosaver.delay_ms = 50
    with qtbot.waitSignal(window.autosaver.saved, timeout=10_000):
        window.editor.add_device(LEAF, (0, 0))
    expected = dumps_fabric(window.document.fabric)
    (written,) = _recovery_files(window)
    assert dumps_fabric(load_fabric(written, catalog)) == expected
    # a save while nothing is pending leaves no recovery copy behind
    assert window._save_to(tmp_path / "saved.fabric")
    assert _recovery_files(window) == []


def test_a_background_autosave_that_ends_after_a_save_leaves_no_recovery_copy(
        make_window, qtbot, tmp_path):
    window = make_window()
    window.editor.add_device(LEAF, (0, 0))
    job = window.document.autosave_job()
    assert job is not None
    assert window._save_to(tmp_path / "saved.fabric")
    with qtbot.waitSignal(job.finished, timeout=10_000):
        job.start()  # its snapshot is written after the save
    assert _recovery_files(window) == []
