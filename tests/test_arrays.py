"""`model.arrays.unique` / `isin` replace numpy's in the analysis and the generators at scale:
they must return exactly what numpy returns, values, dtypes and order; `stable_argsort` returns
what `np.argsort(kind="stable")` returns, whether it sorts by radix (a span under 65,536) or not."""

from __future__ import annotations

import numpy as np
import pytest

from aicnet_gui.model.arrays import isin, stable_argsort, unique

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


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint32, np.uint64, np.int16])
@pytest.mark.parametrize("span", [1, 300, 65_535, 65_536, 65_537, 10**6])
def test_stable_argsort_and_unique_across_the_radix_span(dtype, span):
    rng = np.random.default_rng(span)
    info = np.iinfo(dtype)
    span = min(span, int(info.max) - int(info.min))
    for low in {int(info.min), 0 if info.min == 0 else -span // 2, int(info.max) - span}:
        for size in (4095, 4096, 50_000):
            offsets = rng.integers(0, span, size, endpoint=True).tolist()
            offsets[:2] = (0, span)  # the whole span, so the boundary is exercised
            values = np.array([low + offset for offset in offsets], dtype=dtype)
            order = stable_argsort(values)
            assert order.dtype == np.intp
            assert np.array_equal(order, np.argsort(values, kind="stable")), (low, size)
            for mine, theirs in zip(unique(values, True, True, True),
                                    np.unique(values, True, True, True), strict=True):
                assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs), (low, size)
            assert np.array_equal(unique(values), np.unique(values))
    assert np.array_equal(stable_argsort([3, 1, 3, 1]), [1, 3, 0, 2])
    assert np.array_equal(stable_argsort(np.array([], dtype=dtype)), [])
