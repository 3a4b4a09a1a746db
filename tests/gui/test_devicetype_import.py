"""File > Import Device Types…: a NetBox device-type file joins the user catalog and the palette
at once, and the report names what the file lacked."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

from aicnet_gui.gui.devicetype_import import import_files
from aicnet_gui.gui.main_window import MainWindow
from aicnet_gui.model.catalog import Catalog

DATA = Path(__file__).resolve().parents[1] / "data" / "netbox-devicetypes" / "Nvidia"


def test_import_device_types_from_the_file_menu(qtbot, catalog, tmp_path):
    own = catalog.merged(Catalog())  # the session catalog stays as it is
    window = MainWindow(catalog=own, settings=QSettings(str(tmp_path / "s.ini"),
                                                        QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    assert "Import &Device Types…" in [a.text() for a in menu.actions()]
    assert "netbox-nvidia-qm9700" not in window.palette.model_ids()
    lines, errors = import_files(window, [DATA / "QM9700.yaml", tmp_path / "nothing.yaml"])
    assert len(errors) == 1 and "nothing.yaml" in errors[0]
    assert lines[0] == "QM9700.yaml: Nvidia QM9700 as netbox-nvidia-qm9700 (leaf, 1 RU)"
    assert "    missing: P22.1: port 2 of cage 22 is not in the file" in lines
    assert "netbox-nvidia-qm9700" in window.palette.model_ids()
    assert window.catalog.device("netbox-nvidia-qm9700").cages[0].count == 32
    user = Path(os.environ["AICNET_USER_CATALOG_DIR"])
    assert (user / "netbox-nvidia-qm9700.yaml").exists()
    window.document.close()

