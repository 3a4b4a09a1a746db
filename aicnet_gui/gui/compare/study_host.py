"""A study in a process of its own, away from the editor.  Qt-free; both ends live here.

Why a process: a study builds its candidates in worker processes (study/run.py, `forkserver`
or `spawn`), and each worker imports the main module of the process that launched the pool
again (as `__mp_main__`).  Launched from the editor, that would be whatever started the editor:
the `aicnet-gui` script, `python -m aicnet_gui.gui.app`, a script with PySide6 imported and a
window built at its top level, a test runner.  So the editor never starts the pool itself: it
starts this module (`python -m aicnet_gui.gui.compare.study_host TASK`), whose main module is
this small Qt-free one, and the workers start from there.  The process runs at a lower
priority (`nice`), so the window stays fluid while the study keeps the cores busy.

The protocol, one study per process:
- TASK: a file holding the pickled `HostTask` (the prepared `Study`, the folder, the number of
  workers); the host reads it and removes it.
- stdout: pickled messages: a `StudyProgress` at the start and after each finished candidate,
  then one `HostDone` (the `StudyResult`) or `HostFailed`.  Whatever else the study prints goes
  to stderr (file descriptor 1 is pointed at stderr once the channel is taken).
- stdin: the cancel.  A line, or its end (the editor closed it, or the editor is gone), cancels
  the study: no new candidate starts, the finished ones stay (run_study's own cancel).  Ctrl-C
  does the same.

`StudyProcess` is the editor's end: `start` returns at once (the GUI thread may call it),
`messages()` blocks (a worker thread reads it), `cancel()` may be called from any thread.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ...study import Study, StudyProgress, StudyResult, run_study

NICENESS = 5


@dataclass(frozen=True)
class HostTask:
    study: Study
    out_dir: str
    workers: int


@dataclass(frozen=True)
class HostDone:
    result: StudyResult


@dataclass(frozen=True)
class HostFailed:
    text: str
    details: str = ""


Message = StudyProgress | HostDone | HostFailed


# ---------------------------------------------------------------- the study's process
def _watch_cancel(stop: threading.Event) -> None:
    """A byte on stdin, or its end, cancels (read from the descriptor itself: a buffered
    reader's lock held by this daemon thread would stop the interpreter's shutdown)."""
    with contextlib.suppress(OSError):
        os.read(0, 1)
    stop.set()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # stray prints of the study (and of its workers) go to stderr
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda _signum, _frame: stop.set())
    threading.Thread(target=_watch_cancel, args=(stop,), name="aicnet-study-cancel",
                     daemon=True).start()

    def send(message: Message) -> None:
        try:
            pickle.dump(message, channel, protocol=pickle.HIGHEST_PROTOCOL)
            channel.flush()
        except (BrokenPipeError, OSError):
            stop.set()  # nobody reads: the editor is gone

    try:
        path = Path(args[0])
        task: HostTask = pickle.loads(path.read_bytes())
        path.unlink(missing_ok=True)
        result = run_study(task.study, task.out_dir, workers=task.workers, progress=send,
                           cancelled=stop.is_set)
    except Exception as exc:  # noqa: BLE001 - sent to the editor, which shows it
        send(HostFailed(f"{type(exc).__name__}: {exc}", traceback.format_exc()))
        return 1
    send(HostDone(result))
    return 0


# ---------------------------------------------------------------- the editor's end
def can_start() -> bool:
    """Whether this interpreter can start the study's process (a frozen bundle has no `-m`)."""
    return not getattr(sys, "frozen", False)


class StudyProcess:
    """The editor's end of one study's process."""

    def __init__(self, process: subprocess.Popen, task_file: Path) -> None:
        self._process = process
        self._task_file = task_file
        self._cancel_lock = threading.Lock()

    @classmethod
    def start(cls, study: Study, out_dir: str | Path, workers: int) -> StudyProcess:
        """Write the task, start the process; returns at once."""
        fd, name = tempfile.mkstemp(prefix="aicnet-study-", suffix=".pickle")
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(HostTask(study, str(out_dir), workers), handle,
                        protocol=pickle.HIGHEST_PROTOCOL)
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[3])  # the folder that holds aicnet_gui
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        process = subprocess.Popen(
            [sys.executable, "-m", __name__, name], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=env, start_new_session=os.name == "posix")
        return cls(process, Path(name))

    @property
    def pid(self) -> int:
        return self._process.pid

    def messages(self) -> Iterator[Message]:
        """Every message until the study's end (blocking); a process that ends without its
        last message gives a `HostFailed` saying so."""
        stream: IO[bytes] = self._process.stdout  # type: ignore[assignment]
        ended = False
        try:
            while not ended:
                try:
                    message: Any = pickle.load(stream)
                except EOFError:
                    break
                ended = isinstance(message, HostDone | HostFailed)
                yield message
        finally:
            stream.close()
            self.cancel()  # the study is over: its process stops watching for a cancel
            code = self._process.wait()
            self._task_file.unlink(missing_ok=True)
        if not ended:
            yield HostFailed(f"the study's process ended without a result (exit code {code})")

    def cancel(self) -> None:
        """Stop the study: no new candidate starts, the finished ones stay."""
        with self._cancel_lock:
            stdin = self._process.stdin
            if stdin is None or stdin.closed:
                return
            with contextlib.suppress(OSError):
                stdin.close()


if __name__ == "__main__":
    # run as the imported module, so what it pickles names `aicnet_gui.gui.compare.study_host`
    # classes, not `__main__` ones the editor cannot find
    from aicnet_gui.gui.compare.study_host import main as imported_main

    sys.exit(imported_main())
