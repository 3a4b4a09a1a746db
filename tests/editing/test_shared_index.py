"""`SharedIndex` reads like a dict copied from its base and changed since, on random changes
(checked against that dict), and never changes its base."""

from __future__ import annotations

import random

import pytest

from aicnet_gui.editing.shared_index import SharedIndex


def test_a_shared_index_follows_random_changes_as_a_copied_dict_does():
    base = {f"c{i:04d}": i for i in range(200)}
    frozen = dict(base)
    index, copy = SharedIndex(base), dict(base)
    rng = random.Random(7)
    keys = [*base, *(f"n{i}" for i in range(60))]
    for step in range(2000):
        key = rng.choice(keys)
        if rng.random() < 0.5:
            row = rng.randrange(1000)
            index[key] = row
            copy[key] = row
        elif key in copy:
            assert index.pop(key) == copy.pop(key)
        else:
            assert index.pop(key, None) is None
            with pytest.raises(KeyError):
                del index[key]
        probe = rng.choice(keys)
        assert (probe in index) == (probe in copy)
        assert index.get(probe) == copy.get(probe)
        if step % 97 == 0:
            assert len(index) == len(copy)
            assert sorted(index) == sorted(copy)
            assert dict(index.items()) == copy
    assert base == frozen
