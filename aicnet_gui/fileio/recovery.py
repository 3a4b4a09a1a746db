"""Recovery files: periodic autosaves of unsaved work, offered back after a crash.

A recovery file is a normal `.fabric` file in the per-user state folder, next to a small JSON
note that says which document it belongs to and which process wrote it.  It is written atomically like a save and removed
when the document is saved or closed cleanly, so one that is still there at start-up means the
program did not end cleanly - unless the process that wrote it is still running (a second
window of aicnet must not offer, or discard, the first one's live autosave).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from ..model.document import FabricDocument
from ..model.limits import MAX_TEXT
from .fabric_file import dumps_fabric, write_atomic


@dataclass(frozen=True)
class Recovery:
    recovery_file: Path
    original: str | None
    saved_at: float


class _Note(BaseModel):
    """The JSON note beside a recovery file (anything else in it is ignored)."""

    model_config = ConfigDict(extra="ignore")

    original: str | None = None
    saved_at: float = 0.0
    pid: int | None = None


def _read_note(path: Path) -> _Note | None:
    try:
        raw = path.read_bytes()
        return _Note.model_validate_json(raw) if len(raw) <= MAX_TEXT else None
    except (OSError, ValidationError):
        return None


def _key(original: str | Path | None, session: str) -> str:
    text = str(Path(original).resolve()) if original else f"untitled-{session}"
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def _still_running(pid: object) -> bool:
    """True when `pid` names a live process other than this one."""
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists but belongs to someone else, or the check is not supported
        return True
    return True


class RecoveryStore:
    """Writes, lists and removes the recovery files in one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def _paths(self, original: str | Path | None, session: str) -> tuple[Path, Path]:
        key = _key(original, session)
        return self.folder / f"{key}.fabric", self.folder / f"{key}.json"

    def write(self, doc: FabricDocument, original: str | Path | None, session: str, now: float) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        data_path, note_path = self._paths(original, session)
        write_atomic(data_path, dumps_fabric(doc), keep_backup=False)
        note = {"original": str(original) if original else None, "saved_at": now, "pid": os.getpid()}
        write_atomic(note_path, orjson.dumps(note), keep_backup=False)
        return data_path

    def discard(self, original: str | Path | None, session: str) -> None:
        for path in self._paths(original, session):
            path.unlink(missing_ok=True)

    def pending(self) -> list[Recovery]:
        """Recovery files left behind, newest first."""
        found: list[Recovery] = []
        if not self.folder.is_dir():
            return found
        for note_path in self.folder.glob("*.json"):
            data_path = note_path.with_suffix(".fabric")
            note = _read_note(note_path)
            if note is None:  # not a note aicnet wrote: nothing to offer
                continue
            if data_path.exists() and not _still_running(note.pid):
                found.append(Recovery(data_path, note.original, note.saved_at))
        return sorted(found, key=lambda r: r.saved_at, reverse=True)

    def remove(self, recovery: Recovery) -> None:
        recovery.recovery_file.unlink(missing_ok=True)
        recovery.recovery_file.with_suffix(".json").unlink(missing_ok=True)
