"""aicnet_gui/forked.py with real forks: the child exits without the parent's atexit handlers
or a second flush of its buffers, holds no end of its pipe but the one it writes, is reaped
whatever becomes of it, and never keeps its parent waiting: a parent interrupted while it
waits, or stopping a child under the CLI's signal handlers, goes on at once and quietly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from aicnet_gui import forked
from aicnet_gui.forked import Forked, fork_useful

ROOT = Path(__file__).resolve().parents[1]
#: a safety net only: each script below ends in well under a second when it works
STUCK_S = 120


@pytest.fixture(autouse=True)
def _needs_fork(monkeypatch):
    monkeypatch.setattr(forked, "qt_loaded", lambda: False)  # no Qt thread runs in tests
    if not fork_useful():
        pytest.skip("no fork here (forked.fork_useful)")


def run_script(body: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`body` run by this interpreter in a fresh process (no Qt, no pytest threads)."""
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(body))
    try:
        return subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                              text=True, timeout=STUCK_S, check=False,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the script never ended: {exc.stdout!r} {exc.stderr!r}")


def test_the_child_runs_no_atexit_handler_and_writes_no_buffer_twice(tmp_path):
    done = run_script("""
        import atexit, sys
        from aicnet_gui.forked import Forked, fork_useful
        assert fork_useful()
        atexit.register(lambda: print("atexit"))
        out = open("out.txt", "w")   # buffered, not flushed when the child is made
        out.write("parent line\\n")
        print("before", end=" ")      # stdout is a pipe: held in its buffer
        sys.stderr.write("err ")
        assert Forked(lambda: 42).result() == 42
        print("after")
        out.close()
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "before after\natexit\n"
    assert done.stderr == "err "
    assert (tmp_path / "out.txt").read_text() == "parent line\n"


def test_the_child_holds_no_reading_end_of_its_pipe():
    def pipes_read_here() -> set[str]:
        held = set()
        for fd in os.listdir("/proc/self/fd"):
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
                flags = next(line for line in Path(f"/proc/self/fdinfo/{fd}").read_text().split("\n")
                             if line.startswith("flags:"))
            except OSError:
                continue
            if target.startswith("pipe:") and int(flags.split()[1], 8) & os.O_ACCMODE == os.O_RDONLY:
                held.add(target)
        return held

    pending = Forked(pipes_read_here)
    ours = os.readlink(f"/proc/self/fd/{pending._receive.fileno()}")
    in_child = pending.result()
    assert in_child is not None and ours not in in_child


def test_a_parent_interrupted_while_it_waits_goes_on_at_once(tmp_path):
    # a result bigger than a pipe holds; the parent stops reading (Ctrl-C, SIGTERM through the
    # CLI's handler): the child must not block for ever on the rest, nor the parent in join()
    done = run_script("""
        from aicnet_gui.forked import Forked, fork_useful
        assert fork_useful()
        pending = Forked(lambda: b"x" * 10_000_000)
        child = pending._process

        class Interrupted:
            def __init__(self, inner):
                self.inner = inner
            def recv_bytes(self):
                raise KeyboardInterrupt
            def close(self):
                self.inner.close()

        pending._receive = Interrupted(pending._receive)
        try:
            pending.result()
        except KeyboardInterrupt:
            print("interrupted", child.exitcode)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("interrupted ") and done.stderr == ""


def test_a_child_stopped_under_the_clis_signal_handlers_stops_quietly(tmp_path):
    # the CLI turns SIGTERM into an exception (cli._stopped_cleanly); a child stopped by
    # close() while it sends its result must not print that exception's traceback
    done = run_script("""
        from aicnet_gui.cli import _stopped_cleanly
        from aicnet_gui.forked import Forked, fork_useful
        assert fork_useful()
        with _stopped_cleanly():
            pending = Forked(lambda: b"x" * 10_000_000)
            child = pending._process
            assert pending._receive.poll(60)  # it is sending: more than the pipe holds
            pending.close()
        print("stopped", child.exitcode)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in ("stopped -15", "stopped 0"), done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize("end", ["killed", "exits", "raises SystemExit"])
def test_a_child_that_ends_without_a_result_gives_none_and_is_reaped(end):
    work = {"killed": lambda: os.kill(os.getpid(), signal.SIGKILL),
            "exits": lambda: os._exit(0),
            "raises SystemExit": lambda: sys.exit(2)}[end]
    pending = Forked(work)
    pid = pending._process.pid
    assert pending.result() is None
    with pytest.raises(ChildProcessError):  # reaped: no zombie left
        os.waitpid(pid, os.WNOHANG)


def test_a_child_stopped_before_its_result_is_reaped():
    read, write = os.pipe()
    try:
        with Forked(lambda: os.read(read, 1)) as pending:  # waits for ever
            pid = pending._process.pid
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    finally:
        os.close(read)
        os.close(write)


class _ReadsBackBroken:
    """Pickles in the child; reading it back raises (as a class gone or changed would)."""

    def __reduce__(self):
        return (_fail_on_load, ())


def _fail_on_load():
    raise ValueError("cannot be read back")


def test_a_result_that_does_not_read_back_gives_none():
    # the caller then does the work itself, as for any other failure of the child
    assert Forked(_ReadsBackBroken).result() is None


def test_a_diff_whose_second_file_fails_stops_the_first_files_child(tmp_path, monkeypatch):
    from aicnet_gui.cli import common
    from aicnet_gui.fileio.errors import FabricFileError

    closed = []

    class Started:
        def close(self):
            closed.append(True)

    broken = tmp_path / "broken.fabric"
    broken.write_text("{")
    with pytest.raises(FabricFileError):
        common.open_two_documents(ROOT / "examples" / "small-hgx.fabric", broken,
                                  lambda _old: Started())
    assert closed == [True]
