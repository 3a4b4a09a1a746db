"""Work done in a fresh Python process while this one goes on, for a process that cannot fork.

The editor opens a big design in a loader thread; its links are most of the time (1.2M links:
~2 s of parsing and validating on one core).  The CLI reads the second half of them in a forked
child (forked.py), but a process with Qt's threads must not fork.  `Spawned(function, *args)`
runs `function(*args)` in `python -m aicnet_gui.spawned_worker` instead: a new interpreter of
this one (never a fork of the editor's threads, never a re-run of the caller's main script),
sent the function's module and name and its arguments, pickled, on its stdin; it sends back the
result on its stdout (marshalled or pickled, child_wire.py).  Everything the child needs
travels with the request (the bytes of the half to read), so what it reads is what this
process read.

Only where it is useful and can work: two CPUs or more for this process and a Python
interpreter to start (not a frozen application).  Elsewhere, and when the child fails in any
way (it cannot start, dies, raises, or its result does not pickle), `result()` gives None and
the caller does the work itself: the outcome, errors included, is the one of doing it here.

Every layer may import this module (it imports nothing of aicnet's but gc_control).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Generic, TypeVar

from .child_wire import dump_result, load_result
from .gc_control import gc_held

Result = TypeVar("Result")
WORKER_MODULE = "aicnet_gui.spawned_worker"  # no module of the package imports it
LENGTH = struct.Struct("<Q")


def cores_for_this_process() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def spawn_useful() -> bool:
    """Whether a spawned child can start here and run on a core of its own."""
    return not getattr(sys, "frozen", False) and cores_for_this_process() >= 2


def python_command(module: str) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of `python -m module` in this interpreter, with this
    copy of aicnet first on its path."""
    package_root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return [sys.executable, "-m", module], env


def write_message(stream: IO[bytes], data: bytes | memoryview) -> None:
    """`data` behind its length (what `read_message` reads)."""
    stream.write(LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def read_message(stream: IO[bytes]) -> bytes | None:
    """The next message `write_message` wrote, None when the stream ends first."""
    head = stream.read(LENGTH.size)
    if head is None or len(head) != LENGTH.size:
        return None
    size = LENGTH.unpack(head)[0]
    data = stream.read(size)
    return data if data is not None and len(data) == size else None


class Spawned(Generic[Result]):
    """`function(*args)` run in a spawned child from now on (`function` a module-level
    function the child can import by name); `result()` its value, None when there is no child
    (`spawn_useful` is false) or it failed.  As a context manager, a child still running when
    the block ends (by an exception) is stopped."""

    def __init__(self, function: Callable[..., Result], *args: Any) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._sender: threading.Thread | None = None
        if not spawn_useful():
            return
        # a `pickle.PickleBuffer` argument (a slice of a file's bytes) is sent as it is, not
        # copied into the pickle
        buffers: list[pickle.PickleBuffer] = []
        header = pickle.dumps((function.__module__, function.__qualname__, args), protocol=5,
                              buffer_callback=buffers.append)
        command, env = python_command(WORKER_MODULE)
        try:
            process = subprocess.Popen(  # noqa: S603 - our own module, this interpreter
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        except OSError:
            return
        self._process = process
        # the request written by a thread: this process goes on while the child takes it in
        self._sender = threading.Thread(target=_send, args=(process.stdin, header, buffers),
                                        name="aicnet-spawned-send", daemon=True)
        self._sender.start()

    def result(self) -> Result | None:
        """The child's result (waiting for it), None without one; asked once."""
        process = self._process
        if process is None:
            return None
        self._process = None
        assert process.stdout is not None and self._sender is not None
        value: Result | None = None
        try:
            data = read_message(process.stdout)
            if data:  # read back while the child exits (1.2M links: ~50 ms of freeing its half)
                with gc_held():  # rows of columns: collections would find nothing
                    value = load_result(data)
        except Exception:  # noqa: BLE001 - no result, or one that does not read back: the caller does the work
            value = None
        finally:
            self._sender.join()
            process.stdout.close()
            process.wait()
        return value if process.returncode == 0 else None

    def close(self) -> None:
        """Stop the child if it still runs (its result is not wanted)."""
        process = self._process
        if process is None:
            return
        self._process = None
        process.kill()
        if self._sender is not None:
            self._sender.join()
        if process.stdout is not None:
            process.stdout.close()
        process.wait()

    def __enter__(self) -> Spawned[Result]:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


def _send(stream: IO[bytes] | None, header: bytes, buffers: list[pickle.PickleBuffer]) -> None:
    """The request to the child (its pickle, the number of its out-of-band buffers, each
    buffer), then its stdin closed (a child gone meanwhile: nothing sent, its result is then
    missing)."""
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        write_message(stream, header)
        stream.write(LENGTH.pack(len(buffers)))
        for buffer in buffers:
            write_message(stream, buffer.raw())
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def serve_one(requests: IO[bytes], results: IO[bytes]) -> int:
    """In the child: read one request, run it, write its pickled result; 0, or 1 when the
    request does not arrive or the work fails (nothing is written then)."""
    header = read_message(requests)
    count = requests.read(LENGTH.size)
    if header is None or len(count) != LENGTH.size:
        return 1
    buffers = [read_message(requests) for _ in range(LENGTH.unpack(count)[0])]
    if None in buffers:
        return 1
    try:
        with gc_held():
            module, name, args = pickle.loads(header, buffers=buffers)  # noqa: S301 - our parent's
            function = _resolve(module, name)
            answer = dump_result(function(*args))
    except Exception:  # noqa: BLE001 - the parent then does the work and reports it
        return 1
    write_message(results, answer)
    return 0


def _resolve(module: str, name: str) -> Callable[..., Any]:
    import importlib

    target: Any = importlib.import_module(module)
    for part in name.split("."):
        target = getattr(target, part)
    return target  # type: ignore[no-any-return]
