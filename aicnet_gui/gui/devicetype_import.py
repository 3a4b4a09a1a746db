"""File > Import Device Types…: NetBox device-type library YAML into the user catalog.

The same import as `aicnet catalog import-netbox` (catalog/netbox_import.py): each file becomes
a catalog device in the user's catalog folder, joins this window's catalog and palette at once,
and the report says what each file lacked and what was assumed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from ..catalog.loader import user_catalog_path
from ..catalog.netbox_import import NetBoxImportError, catalog_yaml, import_device_type_file
from ..report.outfile import write_text
from .window_api import AppWindow


def import_files(window: AppWindow, paths: Iterable[str | Path]) -> tuple[list[str], list[str]]:
    """Import `paths`; return (report lines, errors).  Imported models are usable at once."""
    folder = user_catalog_path()
    lines: list[str] = []
    errors: list[str] = []
    for path in paths:
        try:
            result = import_device_type_file(path)
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / f"{result.model.id}.yaml"
            write_text(target, catalog_yaml([result.model]))
        except NetBoxImportError as exc:
            errors.append(str(exc))
            continue
        except OSError as exc:
            errors.append(f"cannot write to {folder}: {exc.strerror or exc}")
            continue
        model = result.model
        window.catalog.add(model, str(target))
        lines.append(f"{Path(path).name}: {model.vendor} {model.model} as {model.id} "
                     f"({model.role.value}, {model.height_ru} RU)")
        lines += [f"    missing: {m}" for m in result.missing]
        lines += [f"    assumed: {a}" for a in result.assumed]
        lines += [f"    not imported: {s}" for s in result.skipped]
    if lines:
        window.palette.rebuild()
    return lines, errors


def choose_and_import(window: AppWindow) -> None:
    """Ask for device-type files, import them and show the report."""
    paths, _ = QFileDialog.getOpenFileNames(
        window, "Import NetBox Device Types", "", "NetBox device types (*.yaml *.yml)")
    if not paths:
        return
    lines, errors = import_files(window, paths)
    imported = len(paths) - len(errors)
    summary = (f"Imported {imported} of {len(paths)} device types into your catalog "
               f"({user_catalog_path()}). They are not verified: check what was assumed.")
    if not window.interactive:
        print("\n".join([summary, *lines, *errors]), file=sys.stderr)
        return
    box = QMessageBox(QMessageBox.Icon.Warning if errors else QMessageBox.Icon.Information,
                      "Import Device Types", summary, parent=window)
    if errors:
        box.setInformativeText("\n".join(errors))
    box.setDetailedText("\n".join(lines))
    box.exec()
    window.show_message(summary)
