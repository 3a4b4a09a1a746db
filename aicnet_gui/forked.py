"""Work done in a forked child process while this one goes on, its result sent back (child_wire.py).

`aicnet diff` of two 300k-link revisions counts two BOMs, each ~0.3 s of one core, and any
command reads a big file's links (~0.6 s at 300k).  On two cores each revision's BOM is counted
in a child while this process reads the other revision and matches the two, and a big file's
links are read in two halves, the second in a child (fileio/pieces.py).  A forked child starts
at once with everything this process holds (its modules, the documents read so far: nothing is
sent to it) and sends back only its result (marshalled or pickled, child_wire.py; read back
here with the collector held).

Only a caller that knows its process is short-lived and single-threaded (a CLI command) asks
for it, and only where a fork is safe and useful: on Linux (macOS's system libraries are not
safe in a forked child, Windows has no fork), with no other Python thread running and Qt not
loaded, and with two CPUs or more for this process.  Elsewhere, and when the child fails in any
way (an exception, a crash, a result that does not pickle), `result()` gives None and the
caller does the work
itself, so the outcome, errors included, is the one of doing it in this process.

Every layer may import this module (it imports nothing of aicnet's but gc_control and
spawned's count of cores).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any, Generic, TypeVar

from .child_wire import dump_result, load_result
from .gc_control import gc_held
from .spawned import cores_for_this_process

Result = TypeVar("Result")


def fork_useful() -> bool:
    """Whether a forked child can run beside this process safely and on a core of its own."""
    if not sys.platform.startswith("linux") or threading.active_count() > 1 or qt_loaded():
        return False
    return cores_for_this_process() >= 2


def qt_loaded() -> bool:
    """Whether Qt is loaded here: its threads are not Python's (`threading` does not see them),
    so a process that has it (the editor) never forks."""
    return "PySide6.QtCore" in sys.modules


class Forked(Generic[Result]):
    """`work()` run in a forked child from now on; `result()` its value, None when there is no
    child (`fork_useful` is false) or it failed.  As a context manager, a child still running
    when the block ends (by an exception) is stopped."""

    def __init__(self, work: Callable[[], Result]) -> None:
        self._process: Any = None
        self._receive: Any = None
        if not fork_useful():
            return
        import multiprocessing  # only here: ~20 ms of imports no other command needs

        context = multiprocessing.get_context("fork")
        receive, send = context.Pipe(duplex=False)
        for stream in (sys.stdout, sys.stderr):  # nothing buffered here is written twice
            stream.flush()
        process = context.Process(target=_child, args=(work, send, receive), daemon=True)
        try:
            process.start()
        except OSError:
            receive.close()
            return
        finally:
            send.close()
        self._process, self._receive = process, receive

    def result(self) -> Result | None:
        """The child's result (waiting for it), None without one; asked once."""
        process, receive = self._process, self._receive
        if process is None:
            return None
        self._process = self._receive = None
        try:
            data = receive.recv_bytes()
            if not data:
                return None
            with gc_held():  # 300k rows of columns: collections would find nothing
                return load_result(data)  # type: ignore[no-any-return]  # read while the child exits
        except (EOFError, OSError):  # the child died before it sent anything
            return None
        except Exception:  # noqa: BLE001 - a result that does not read back: the caller does the work
            return None
        finally:
            receive.close()
            process.join()

    def close(self) -> None:
        """Stop the child if it still runs (its result is not wanted)."""
        process, receive = self._process, self._receive
        if process is None:
            return
        self._process = self._receive = None
        receive.close()
        process.terminate()
        process.join()

    def __enter__(self) -> Forked[Result]:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


def _child(work: Callable[[], Any], send: Any, receive: Any) -> None:
    """In the child: `work()` pickled to the parent, or nothing (b"") when anything fails.

    The child closes its copy of the pipe's reading end, so that a parent that stopped reading
    (interrupted while it waited, or gone) is a broken pipe here, not a child blocked for ever
    on a result bigger than the pipe holds (and a parent blocked in `join` for it); SIGTERM and
    SIGHUP stop it outright (`close()`), not through the handlers the CLI set (a `Terminated`
    raised mid-send, its traceback printed); a result it cannot send is dropped quietly."""
    receive.close()
    for name in ("SIGTERM", "SIGHUP"):
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        with gc_held():
            data = dump_result(work())
    except BaseException:  # noqa: BLE001 - the parent then does the work and reports it
        data = b""
    try:
        send.send_bytes(data)
        send.close()
    except BaseException:  # noqa: BLE001, S110 - the parent stopped waiting: nothing to tell
        pass
