"""A study reports its progress and can be cancelled: no new candidate starts, the running ones
stop at their next step and remove what they wrote, and every candidate that finished stays,
written and listed."""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.model.fabric import Requirement
from aicnet_gui.study import Study, run_study


@pytest.fixture(scope="module")
def eight(catalog):
    """Eight candidates: four switch models at 1:1 and 2:1."""
    return Study.prepare(Requirement(servers=16, leaves=[
        "nvidia-qm9700", "nvidia-sn5600", "nvidia-sn5610", "arista-7060x6-64pe"],
        sweep={"oversubscription": [1, 2]}), catalog)


def _cancel_after_first():
    seen = []

    def progress(p):
        seen.append(p)

    return seen, progress, lambda: any(p.last is not None for p in seen)


@pytest.mark.parametrize("workers", [0, 2])
def test_a_cancelled_study_keeps_the_finished_candidates(eight, tmp_path, workers):
    seen, progress, cancelled = _cancel_after_first()
    result = run_study(eight, tmp_path, workers=workers, progress=progress, cancelled=cancelled)
    assert result.cancelled and result.not_run
    finished = {c.name for c in result.candidates}
    assert finished and not finished & set(result.not_run)
    assert len(finished) + len(result.not_run) == 8
    assert all(c.metrics is not None for c in result.candidates)
    # the folder holds exactly the finished candidates' files: a stopped job removed its own
    assert sorted(p.name for p in Path(tmp_path).glob("*.fabric")) == \
        sorted(Path(c.file).name for c in result.candidates)
    assert seen[0].done == 0 and seen[-1].cancelling
    if workers == 0:
        assert len(finished) == 1  # in this process the next candidate never starts


def test_progress_counts_every_candidate_with_an_estimate(eight, tmp_path):
    seen = []
    result = run_study(eight, tmp_path, workers=2, progress=seen.append)
    assert not result.cancelled and result.workers == 2
    assert [p.done for p in seen] == list(range(9))
    assert all(p.total == 8 for p in seen)
    assert seen[1].eta_s is not None and seen[-1].eta_s == 0
    assert {p.last.name for p in seen[1:]} == {c.name for c in result.candidates}


def test_workers_and_one_process_give_the_same_candidates(eight, tmp_path):
    pooled = run_study(eight, tmp_path / "pool", workers=2)
    alone = run_study(eight, tmp_path / "alone", workers=0)

    def numbers(result):
        out = []
        for c in result.candidates:
            data = c.to_json()
            data.pop("file"), data.pop("seconds")
            out.append(data)
        return out

    assert numbers(pooled) == numbers(alone)
