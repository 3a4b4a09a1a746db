"""Fixtures for the editor tests: a main window on the real catalog, offscreen, no blocking dialogs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "small-hgx.fabric"


class DialogLog:
    """Stands in for QMessageBox: records what would have been shown and answers for the user."""

    def __init__(self) -> None:
        self.errors: list[tuple[str, str]] = []
        self.save_answer = "discard"
        self.recover_answer = "recover"
        self.asked_save = 0
        self.asked_recover = 0


@pytest.fixture
def dialogs(monkeypatch) -> DialogLog:
    from aicnet_gui.gui.dialogs import messages

    log = DialogLog()

    def show_error(_parent, title, text):  # noqa: ANN001, ANN202
        log.errors.append((title, text))

    def ask_save(_parent, _name):  # noqa: ANN001, ANN202
        log.asked_save += 1
        return log.save_answer

    def ask_recover(_parent, _recovery):  # noqa: ANN001, ANN202
        log.asked_recover += 1
        return log.recover_answer

    monkeypatch.setattr(messages, "show_error", show_error)
    monkeypatch.setattr(messages, "ask_save_changes", ask_save)
    monkeypatch.setattr(messages, "ask_recover", ask_recover)
    return log


@pytest.fixture
def make_window(qtbot, catalog, tmp_path, dialogs):  # noqa: ANN001, ANN201
    """Build main windows that share nothing with the user's settings; closes them at the end."""
    from PySide6.QtCore import QSettings

    from aicnet_gui.gui.main_window import MainWindow

    windows = []

    def make(show: bool = True):  # noqa: ANN202
        settings = QSettings(str(tmp_path / f"settings-{len(windows)}.ini"), QSettings.Format.IniFormat)
        window = MainWindow(catalog=catalog, settings=settings)
        window.resize(1400, 900)
        qtbot.addWidget(window)
        if show:
            window.show()
            qtbot.waitExposed(window)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.document.undo_stack.setClean()
        window.document.close()


@pytest.fixture
def window(make_window):  # noqa: ANN001, ANN201
    return make_window()


@pytest.fixture
def example_path() -> Path:
    return EXAMPLE


@pytest.fixture
def open_generated(window, tmp_path):  # noqa: ANN001, ANN201
    """open_generated(params) -> the window with the fabric those generator parameters make,
    saved to a file, opened from it and fitted (as a user opens a generated design)."""
    from aicnet_gui.fileio import save_fabric
    from aicnet_gui.generators import generate
    from aicnet_gui.model.document import FabricDocument

    def open_it(params, name: str = "generated.fabric"):  # noqa: ANN001, ANN202
        doc = FabricDocument(window.document.fabric.catalog)
        generate(doc, params)
        path = tmp_path / name
        save_fabric(doc, path)
        assert window.open_path(path, ask=False)
        window.topology_view.fit_all()
        return window

    return open_it
