"""Atomic file output: a temp file beside the target, fsynced, then moved over it.

Every file aicnet writes (designs, recovery copies, CSV and NetBox exports) goes through
`atomic_output`:

* the temp file is made by `tempfile.mkstemp` in the target's folder: an unpredictable name,
  created exclusively (`O_EXCL`), so a symlink planted at a guessable name is never followed;
  it is named `.<target name>.<random>.tmp`;
* while it is written the writer holds an exclusive `flock` on it; a temp file that nobody
  holds is left over from a writer that was killed, and `remove_stale_temps` deletes those
  (each save does, and opening a design does), never a temp that a live writer still holds;
* on any failure (an exception, a full disk, an interrupt) the temp file is removed;
* a target that is a symlink is written through: the link stays and the file it points to is
  replaced (with its permissions), and the `.bak` copy of the previous version is made beside
  that file, as a hard link to the old data or, where hard links are not possible, a copy.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

try:  # POSIX: a killed writer's lock is released by the kernel
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

TEMP_SUFFIX = ".tmp"
#: without file locks (Windows) a temp file this old is taken as left over
STALE_AGE_S = 3600.0


def real_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to `path` must replace: `path` itself, or the file its symlinks lead
    to (a dangling link leads to the file it names, which the write creates)."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _temp_prefix(target: Path) -> str:
    return f".{target.name}."


def _lock(fd: int, blocking: bool) -> bool:
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
    except OSError:
        return False
    return True


def remove_stale_temps(path: str | os.PathLike[str]) -> int:
    """Delete the temp files of `path` (`.<name>.*.tmp` beside its real file) that no live
    writer holds; return how many were removed.  Never raises."""
    target = real_target(path)
    folder = target.parent
    prefix = _temp_prefix(target)
    removed = 0
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(TEMP_SUFFIX)]
    except OSError:
        return 0
    for name in names:
        temp = folder / name
        try:
            fd = os.open(temp, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue  # gone, or a symlink: not ours to touch
        try:
            stale = _lock(fd, blocking=False) if fcntl is not None else \
                time.time() - os.fstat(fd).st_mtime > STALE_AGE_S
            if stale:
                temp.unlink()
                removed += 1
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def _file_mode(path: Path) -> int:
    """The target's current permissions, or what a new file gets under the umask."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _keep_backup(target: Path) -> None:
    """`<name>.bak` beside `target`: the previous data (a hard link, so there is no moment
    without a file; a copy where the file system has none)."""
    if not target.is_file():
        return
    backup = target.with_name(target.name + ".bak")
    backup.unlink(missing_ok=True)
    try:
        os.link(target, backup, follow_symlinks=False)
    except OSError:
        shutil.copyfile(target, backup, follow_symlinks=False)


@contextmanager
def atomic_output(path: str | os.PathLike[str], keep_backup: bool = False) -> Iterator[BinaryIO]:
    """A binary handle whose bytes become `path` when the block ends without an exception
    (see the module docstring); the old file, or no file, otherwise."""
    target = real_target(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
    remove_stale_temps(target)
    fd, temp_name = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=TEMP_SUFFIX, dir=folder)
    try:
        _lock(fd, blocking=True)
        os.fchmod(fd, _file_mode(target))
        with os.fdopen(fd, "wb", closefd=False) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if keep_backup:
            _keep_backup(target)
        os.replace(temp_name, target)
        _fsync_folder(folder)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp_name)
        raise
    finally:
        os.close(fd)


def write_atomic(path: str | os.PathLike[str], payload: bytes | list[bytes],
                 keep_backup: bool = True) -> None:
    """Write `payload` (bytes, or pieces written in order) to `path` so that a crash at any
    moment leaves the old or the new file; the previous one stays as `<name>.bak`."""
    with atomic_output(path, keep_backup) as handle:
        handle.writelines([payload] if isinstance(payload, bytes) else payload)
