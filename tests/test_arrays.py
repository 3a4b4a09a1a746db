"""`model.arrays.unique` / `isin` replace numpy's in the analysis and the generators at scale:
they must return exactly what numpy returns, values, dtypes and order."""

from __future__ import annotations

import numpy as np
import pytest

from aicnet_gui.model.arrays import isin, unique

FLAGS = [(False, False, False), (True, False, False), (False, True, False), (False, False, True),
         (True, True, True), (True, False, True), (False, True, True)]


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, bool])
@pytest.mark.parametrize("size", [0, 1, 7, 1000, 20000])
def test_unique_and_isin_are_numpys(dtype, size):
    rng = np.random.default_rng(size)
    values = rng.integers(0, max(2, size // 3 + 1), size).astype(dtype)
    for flags in FLAGS:
        ours, ref = unique(values, *flags), np.unique(values, *flags)
        ours = ours if isinstance(ours, tuple) else (ours,)
        ref = ref if isinstance(ref, tuple) else (ref,)
        assert len(ours) == len(ref)
        for mine, theirs in zip(ours, ref, strict=True):
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs), flags
    others = rng.integers(0, max(2, size // 3 + 1), size // 2 + 1).astype(dtype)
    assert np.array_equal(isin(values, others), np.isin(values, others))
    assert np.array_equal(isin(values, []), np.isin(values, []))


def test_other_dtypes_and_shapes_go_to_numpy():
    floats = np.array([2.0, np.nan, 1.0, np.nan, 2.0])
    assert np.array_equal(unique(floats), np.unique(floats), equal_nan=True)
    grid = np.array([[3, 1], [1, 2]])
    assert np.array_equal(unique(grid, return_inverse=True)[1], np.unique(grid, return_inverse=True)[1])
