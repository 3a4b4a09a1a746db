"""The one error every bad `.fabric` input ends in: file, JSON path and a plain message."""

from __future__ import annotations

from pathlib import Path


class FabricFileError(Exception):
    """A `.fabric` file that cannot be read or written, with where and why."""

    def __init__(self, file: str | Path, message: str, json_path: str = "") -> None:
        self.file = str(file)
        self.json_path = json_path
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}: {self.json_path}" if self.json_path else self.file
        return f"{where}: {self.message}"
