"""Atomic file output: a temp file beside the target, fsynced, then moved over it.

Every file aicnet writes (designs, recovery copies, CSV and NetBox exports) goes through
`atomic_output`:

* the temp file is made in the target's folder as `tempfile.mkstemp` makes one: an
  unpredictable name, created exclusively (`O_EXCL`, `O_NOFOLLOW`), so a symlink planted at a
  guessable name is never followed; it is named `.<target name>.<random>.tmp`;
* while it is written the writer holds an exclusive `flock` on it (a temp file another writer
  deleted in the moment before the lock was taken is made again); a temp file that nobody
  holds is left over from a writer that was killed, and `remove_stale_temps` deletes those
  (every write to the same place does, and opening a design does), never a temp that a live
  writer still holds;
* each write in progress is noted in the user's state folder (`writes/`) before its temp file
  is made (a kill can come at any moment after), so the next start of
  aicnet (`remove_killed_writes`: the command line, the editor) removes what a writer killed
  with SIGKILL left anywhere; the command line turns SIGTERM and SIGHUP into an interrupt, so a
  write in progress removes its own temp file on the way out;
* on any failure (an exception, a full disk, an interrupt) the temp file is removed;
* a target that is a symlink of this user's (or of its folder's owner) is written through: the
  link stays and the file it points to is replaced (with its permissions), and the `.bak` copy
  of the previous version is made beside that file, as a hard link to the old data or, where
  hard links are not possible, a copy; a link someone else planted at the target's name is
  replaced by the new file, and what it pointed to is never touched.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from stat import S_ISREG
from typing import Any, BinaryIO

try:  # POSIX: a killed writer's lock is released by the kernel
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

TEMP_SUFFIX = ".tmp"
#: without file locks (Windows) a temp file this old is taken as left over
STALE_AGE_S = 3600.0
NOTE_SUFFIX = ".write"
#: symlinks followed in a chain before the write gives up (Linux's own limit is 40)
MAX_LINK_HOPS = 40


def _trusted_link(path: Path) -> bool:
    """Whether the symlink `path` may be followed: it belongs to this user or to the owner of
    its folder (the rule of Linux's fs.protected_symlinks for sticky folders such as /tmp), so a
    link another user planted at an output's name is replaced, never written through."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # pragma: no cover - Windows: links need privileges to make
        return True
    try:
        owner = os.lstat(path).st_uid
        return owner == getuid() or owner == os.stat(path.parent).st_uid
    except OSError:
        return False


def real_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to `path` must replace: `path` itself, or the file its symlinks lead
    to (a dangling link leads to the file it names, which the write creates) when the link is
    trusted (`_trusted_link`); an untrusted link is itself replaced by the file."""
    path = Path(path)
    for _ in range(MAX_LINK_HOPS):  # each link of a chain is judged, as the kernel does
        if not (path.is_symlink() and _trusted_link(path)):
            return path
        path = path.parent / os.readlink(path)  # an absolute link replaces the parent
    raise OSError(errno.ELOOP, "Too many levels of symbolic links", str(path))


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


def _remove_if_stale(temp: Path) -> bool | None:
    """Delete `temp` when no live writer holds it: True removed, False held (or not ours),
    None already gone.  Never raises."""
    try:
        fd = os.open(temp, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None
    except OSError:
        return False  # a symlink, or not readable: not ours to touch
    try:
        stat = os.fstat(fd)
        if not S_ISREG(stat.st_mode) or stat.st_uid != getattr(os, "getuid", lambda: stat.st_uid)():
            return False
        stale = _lock(fd, blocking=False) if fcntl is not None else \
            time.time() - stat.st_mtime > STALE_AGE_S
        if stale:
            temp.unlink()
        return stale
    except OSError:
        return False
    finally:
        os.close(fd)


def remove_stale_temps(path: str | os.PathLike[str]) -> int:
    """Delete the temp files of `path` (`.<name>.*.tmp` beside its real file) that no live
    writer holds; return how many were removed.  Never raises."""
    target = real_target(path)
    folder = target.parent
    prefix = _temp_prefix(target)
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(TEMP_SUFFIX)]
    except OSError:
        return 0
    return sum(1 for name in names if _remove_if_stale(folder / name))


def _journal() -> Path:
    """The folder where each write in progress notes its temp file."""
    # imported here, by its full name: this module imports nothing else of aicnet, and a test
    # runs it alone in a child that starts in milliseconds (tests/test_save_safety.py)
    from aicnet_gui.paths import user_state_dir

    return user_state_dir() / "writes"


def _note_write(temp: str) -> str | None:
    """Note the temp file of a write in progress; the note's path, or None when the state
    folder cannot take it (the write goes on: the note only helps a later start)."""
    try:
        folder = _journal()
        folder.mkdir(parents=True, exist_ok=True)
        fd, note = tempfile.mkstemp(prefix=f"{os.getpid()}-", suffix=NOTE_SUFFIX, dir=folder)
    except OSError:
        return None
    try:
        os.write(fd, os.fsencode(os.path.abspath(temp)))
    except OSError:
        with suppress(OSError):
            os.unlink(note)
        return None
    finally:
        os.close(fd)
    return note


def remove_killed_writes() -> int:
    """At a start of aicnet: remove the temp files that writers killed before they could
    (their notes in the state folder), never one a live writer holds; return how many were
    removed.  Never raises."""
    try:
        notes = [n for n in os.scandir(_journal()) if n.name.endswith(NOTE_SUFFIX)]
    except OSError:
        return 0
    removed = 0
    for note in notes:
        try:
            with open(note.path, "rb") as handle:
                temp = Path(os.fsdecode(handle.read(4096)))
        except OSError:
            continue
        if not (temp.name.startswith(".") and temp.name.endswith(TEMP_SUFFIX)):
            outcome: bool | None = None  # not a temp file of ours: the note alone goes
        else:
            outcome = _remove_if_stale(temp)
        if outcome is not False:  # removed, or gone already: the note is done with
            removed += bool(outcome)
            with suppress(OSError):
                os.unlink(note.path)
    return removed


#: how a temp file is created: exclusively, never through a symlink (as `tempfile.mkstemp` does)
_CREATE_FLAGS = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_BINARY", 0))


def _locked_temp(folder: Path, prefix: str) -> tuple[int, str, str | None]:
    """A new temp file in `folder`, noted, created exclusively and locked: (fd, path, note).

    The note is written before the file exists, so a writer killed at any moment after that
    (SIGKILL cannot be held) leaves a note naming its temp file; a note whose file was never
    made is dropped by the next start.  The name is random, unpredictable as mkstemp's.
    Between the creation and the lock another writer's `remove_stale_temps` may find the file
    unheld and delete it (it holds the lock while it does); the name is checked after the lock
    is taken, and a file that lost its name is made again."""
    while True:
        name = os.path.join(folder, f"{prefix}{os.urandom(6).hex()}{TEMP_SUFFIX}")
        note = _note_write(name)
        try:
            fd = os.open(name, _CREATE_FLAGS, 0o600)
        except BaseException as error:
            _drop_note(note)
            if isinstance(error, FileExistsError):
                continue
            raise
        _lock(fd, blocking=True)
        try:
            if os.stat(name).st_ino == os.fstat(fd).st_ino:
                return fd, name, note
        except FileNotFoundError:
            pass
        os.close(fd)
        _drop_note(note)


def _drop_note(note: str | None) -> None:
    """Remove a write's note (the write is over, or its file was never made)."""
    if note is not None:
        with suppress(OSError):
            os.unlink(note)


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


#: the signals the command line turns into an exception (cli/__init__.py)
_HELD = {getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)}


_Held = tuple[dict[int, Any], list[int]]


def _hold_signals() -> _Held | None:
    """Hold back the Python handlers of SIGTERM, SIGHUP and SIGINT while a temp file is made
    and noted: a signal that comes is only recorded, and `_release_signals` (which
    `atomic_output` calls inside the `try` that removes the file) runs its handler.

    The handlers are swapped, not the signals blocked: with the signals blocked, a pending
    one's handler ran the moment the mask was put back (CPython checks for signals inside
    `pthread_sigmask`), before the cleanup was in place, and the temp file stayed.  Only the
    main thread runs Python handlers, so in another thread there is nothing to hold."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous: dict[int, Any] = {}
    came: list[int] = []
    for signum in _HELD:
        handler = signal.getsignal(signum)
        if handler is not None:  # None: set outside Python, which cannot be put back
            previous[signum] = signal.signal(signum, lambda number, _frame: came.append(number))
    return previous, came


def _release_signals(held: _Held | None) -> None:
    """Undo `_hold_signals`: the handlers back, then each signal that came handled as it
    would have been (an exception from the command line's handler, the default action)."""
    if held is None:
        return
    previous, came = held
    for signum, handler in previous.items():
        signal.signal(signum, handler)
    for signum in dict.fromkeys(came):
        handler = previous[signum]
        if callable(handler):
            handler(signum, None)
        elif handler == signal.SIG_DFL:
            signal.raise_signal(signum)


@contextmanager
def atomic_output(path: str | os.PathLike[str], keep_backup: bool = False) -> Iterator[BinaryIO]:
    """A binary handle whose bytes become `path` when the block ends without an exception
    (see the module docstring); the old file, or no file, otherwise."""
    target = real_target(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
    remove_stale_temps(target)
    held = _hold_signals()  # a SIGTERM now is handled once the temp file is ours to remove
    try:
        fd, temp_name, note = _locked_temp(folder, _temp_prefix(target))
    except BaseException:
        _release_signals(held)
        raise
    try:
        _release_signals(held)  # inside the try: a signal held back removes the temp file
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
        _drop_note(note)


def write_atomic(path: str | os.PathLike[str], payload: bytes | list[bytes],
                 keep_backup: bool = True) -> None:
    """Write `payload` (bytes, or pieces written in order) to `path` so that a crash at any
    moment leaves the old or the new file; the previous one stays as `<name>.bak`."""
    with atomic_output(path, keep_backup) as handle:
        handle.writelines([payload] if isinstance(payload, bytes) else payload)
