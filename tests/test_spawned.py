"""aicnet_gui/spawned.py with real child processes: the result is the function's, a failure of
any kind is None (the caller then does the work), a big buffer travels whole, a child still
running is stopped, and nothing is spawned where it cannot help."""

from __future__ import annotations

import os
import pickle
import time

import pytest

from aicnet_gui import spawned
from aicnet_gui.spawned import Spawned, spawn_useful


@pytest.fixture(autouse=True)
def _needs_two_cores():
    if not spawn_useful():
        pytest.skip("one CPU here: nothing is spawned (spawned.spawn_useful)")


def test_the_result_is_the_functions():
    assert Spawned(sorted, [3, 1, 2]).result() == [1, 2, 3]
    assert Spawned(divmod, 17, 5).result() == (3, 2)


def test_the_work_runs_in_another_process():
    assert Spawned(os.getpid).result() not in (None, os.getpid())


def test_a_buffer_argument_arrives_as_the_bytes_sent():
    data = os.urandom(3_000_000) + b"end"
    view = pickle.PickleBuffer(memoryview(data)[1_000:])
    assert Spawned(_hex_tail, view, 8).result() == data[-8:].hex()


def _hex_tail(data: bytes, size: int) -> str:
    return data[-size:].hex()


def test_a_function_that_raises_gives_none():
    assert Spawned(int, "not a number").result() is None


def test_a_function_the_child_cannot_import_gives_none():
    def local() -> int:  # not importable by name
        return 1

    assert Spawned(local).result() is None


def test_a_result_that_does_not_pickle_gives_none():
    assert Spawned(_generator).result() is None  # a generator does not pickle


def _generator():  # noqa: ANN202
    yield 1


def test_a_child_that_fails_after_sending_its_result_gives_none():
    """The result is read back while the child exits; a child that then exits with an error
    is still a failed child."""
    assert Spawned(_answer_then_fail).result() is None


def _answer_then_fail() -> int:
    import atexit

    atexit.register(os._exit, 3)  # after the result is written, the child exits with 3
    return 42


def test_a_child_still_running_is_stopped_when_the_block_ends():
    with pytest.raises(RuntimeError), Spawned(time.sleep, 600) as pending:
        process = pending._process
        assert process is not None
        raise RuntimeError("the caller failed")
    assert process.poll() is not None  # ended, and reaped


def test_nothing_is_spawned_on_one_core(monkeypatch):
    monkeypatch.setattr(spawned, "cores_for_this_process", lambda: 1)
    pending = Spawned(os.getpid)
    assert pending._process is None and pending.result() is None
