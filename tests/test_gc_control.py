"""The one GC helper: the collector is paused inside, restored as it was after, even on error."""

import gc

import pytest

from aicnet_gui.gc_control import gc_held, gc_paused


def test_held_pauses_and_restores_even_when_the_body_fails() -> None:
    assert gc.isenabled()
    with pytest.raises(RuntimeError), gc_held():
        assert not gc.isenabled()
        raise RuntimeError("bulk load failed")
    assert gc.isenabled()


def test_held_inside_held_leaves_the_collector_off_until_the_outer_ends() -> None:
    with gc_held():
        with gc_held():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_paused_freezes_what_was_built() -> None:
    before = gc.get_freeze_count()
    try:
        with gc_paused():
            built = [[i] for i in range(100)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= before + len(built)
    finally:
        gc.unfreeze()
