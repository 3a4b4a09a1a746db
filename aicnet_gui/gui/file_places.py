"""Where the Open and Save As dialogs start: the last folder used, and a file name made from the
design's name ("DGX SuperPOD H100, 4 SU" -> `dgx-superpod-h100-4-su.fabric`)."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QSettings

KEY = "last-folder"


def last_folder(settings: QSettings) -> Path | None:
    """The folder a fabric was last opened from or saved to, if it still exists."""
    value = settings.value(KEY, "")
    folder = Path(str(value)) if value else None
    return folder if folder is not None and folder.is_dir() else None


def remember_folder(settings: QSettings, path: Path | None) -> None:
    """Note the folder of a file just opened or saved."""
    if path is not None:
        settings.setValue(KEY, str(Path(path).resolve().parent))


def file_stem(name: str) -> str:
    """A file name (without extension) for a design called `name`: lower case, words joined by
    hyphens; "fabric" when the name has no letter or digit."""
    stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return stem[:80].rstrip("-") or "fabric"


def open_start(settings: QSettings, document_path: Path | None) -> str:
    """The folder the Open dialog shows first: the last one used, else the open file's, else home."""
    folder = last_folder(settings) or (document_path.parent if document_path else None)
    return str(folder or Path.home())


def save_start(settings: QSettings, document_path: Path | None, design_name: str) -> str:
    """The path Save As proposes: the file itself once it has one, else the design's name in the
    last folder used (or home)."""
    if document_path is not None:
        return str(document_path)
    folder = last_folder(settings) or Path.home()
    return str(folder / f"{file_stem(design_name)}.fabric")
