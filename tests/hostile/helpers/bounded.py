"""Run `aicnet` on one hostile input in a child process whose memory and CPU time are bounded
by resource limits.

The child is forked from the test process (no interpreter start-up, the catalog already
imported), sets `RLIMIT_AS` to what it maps plus `HEADROOM` and `RLIMIT_CPU` to `CPU_S`, runs
the command line and exits with its code.  An input that allocates gigabytes gets a MemoryError,
one that loops (even inside C, where no Python signal handler runs) is killed by the kernel when
its CPU time is up: either way the test fails with what happened instead of taking the machine
or hanging.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

from aicnet_gui.cli import main

#: what one input may allocate on top of what the test process already maps
HEADROOM = 1536 * 1024 * 1024
#: CPU seconds one input may use (a normal one takes well under one)
CPU_S = 20
#: wall-clock bound of the wait for a child that does not use its CPU (a safety net only)
WAIT_S = 120

Runner = Callable[..., tuple[int, str, str]]


def _vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def _child(argv: list[str], env: dict[str, str], out_fd: int, err_fd: int,
           fsize: int | None) -> None:
    """In the forked child: bound it, run the command, exit with its code (never returns)."""
    code = 99
    try:
        size = _vm_size()
        if size:
            resource.setrlimit(resource.RLIMIT_AS, (size + HEADROOM, size + HEADROOM))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_S, CPU_S + 5))
        if fsize is not None:  # a "full disk": writes past `fsize` bytes fail with EFBIG
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        os.environ.update(env)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        sys.stdout = os.fdopen(1, "w", closefd=False)
        sys.stderr = os.fdopen(2, "w", closefd=False)
        code = main(argv)
    except BaseException:  # noqa: BLE001 - reported to the parent as exit 99 + traceback
        traceback.print_exc()
        code = 99
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if isinstance(code, int) else 98)


class Running:
    """`aicnet` started in a bounded child; `wait()` gives (exit code, stdout, stderr)."""

    def __init__(self, argv: list[str], env: dict[str, str] | None, fsize: int | None) -> None:
        self._out = tempfile.TemporaryFile()  # noqa: SIM115 - closed by wait()
        self._err = tempfile.TemporaryFile()  # noqa: SIM115
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:
            _child(argv, env or {}, self._out.fileno(), self._err.fileno(), fsize)

    def wait(self) -> tuple[int, str, str]:
        pid = self.pid

        def expire(_signum: int, _frame: object) -> None:
            os.kill(pid, signal.SIGKILL)

        previous = signal.signal(signal.SIGALRM, expire)
        signal.alarm(WAIT_S)
        try:
            _, status = os.waitpid(pid, 0)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        with self._out as out, self._err as err:
            out.seek(0)
            err.seek(0)
            stdout = out.read().decode("utf-8", "replace")
            stderr = err.read().decode("utf-8", "replace")
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            return -sig, stdout, stderr + f"\n[killed by {signal.Signals(sig).name}: a limit was hit]"
        return os.WEXITSTATUS(status), stdout, stderr


def start_bounded(argv: list[str], env: dict[str, str] | None = None,
                  fsize: int | None = None) -> Running:
    """`aicnet argv` started in a bounded child (several may run at once); `fsize` bounds
    the size of every file it writes."""
    return Running(argv, env, fsize)


def run_bounded(argv: list[str], env: dict[str, str] | None = None,
                fsize: int | None = None) -> tuple[int, str, str]:
    """`aicnet argv` in a bounded child: (exit code, stdout, stderr).  A child ended by a
    signal (CPU limit) gives exit code -signal and says so in stderr."""
    return start_bounded(argv, env, fsize).wait()
