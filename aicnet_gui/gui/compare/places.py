"""Where a comparison writes: the candidates' folder the form proposes, and the PDF's name.

The candidates go beside the project (`<project folder>/<study>-candidates/`), else into the
folder the last study used, else the last folder a fabric was opened from or saved to, else
home; the form shows the folder and the user may choose another before anything is written.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from ..file_places import file_stem, last_folder

KEY = "compare/last-study-parent"


def study_folder(settings: QSettings, document_path: Path | None, name: str) -> Path:
    """The folder proposed for a study called `name`."""
    value = settings.value(KEY, "")
    remembered = Path(str(value)) if value else None
    if document_path is not None:
        parent = Path(document_path).parent
    elif remembered is not None and remembered.is_dir():
        parent = remembered
    else:
        parent = last_folder(settings) or Path.home()
    return parent / f"{file_stem(name)}-candidates"


def remember_study_folder(settings: QSettings, folder: Path) -> None:
    settings.setValue(KEY, str(Path(folder).resolve().parent))


def pdf_path(settings: QSettings, name: str) -> Path:
    value = settings.value(KEY, "")
    parent = Path(str(value)) if value and Path(str(value)).is_dir() else last_folder(settings)
    return (parent or Path.home()) / f"{file_stem(name)}-comparison.pdf"
