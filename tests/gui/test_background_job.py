"""A background job whose owner is gone before it ends hands its result to no one, quietly."""

from __future__ import annotations

import threading

import pytest
import shiboken6

from aicnet_gui.gui.workers.background import BackgroundJob


@pytest.mark.parametrize("outcome", ["result", "error"])
def test_a_job_outliving_its_owner_ends_without_an_exception_in_its_thread(qapp, outcome):
    release = threading.Event()
    raised: list[BaseException] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: raised.append(args.exc_value)

    def work() -> int:
        release.wait(10)
        if outcome == "error":
            raise ValueError("the file went away")
        return 42

    try:
        job = BackgroundJob(work, name="aicnet-test-job")
        job.start()
        thread = job._thread
        shiboken6.delete(job)  # the window closed while the job ran
        release.set()
        thread.join(10)
    finally:
        threading.excepthook = previous
    assert not thread.is_alive()
    assert raised == []


def test_a_job_delivers_its_result_to_a_live_owner(qtbot):
    job = BackgroundJob(lambda: 42, name="aicnet-test-job")
    with qtbot.waitSignal(job.finished, timeout=10_000) as blocker:
        job.start()
    assert blocker.args == [42]
