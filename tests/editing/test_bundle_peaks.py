"""The overview's trunks in the traffic colours: each bundle's most loaded cable
(editing/overview.py `bundle_peaks`) against a loop over the cables."""

from __future__ import annotations

import numpy as np

from aicnet_gui.editing.overview import bundle_members, bundle_peaks, count_bundles


def test_each_bundle_gets_the_load_of_its_most_loaded_cable():
    rng = np.random.default_rng(7)
    devices, blocks, cables = 40, 6, 500
    block_of = rng.integers(-1, blocks, devices)
    dev_a, dev_b = rng.integers(0, devices, cables), rng.integers(0, devices, cables)
    loads = rng.random(cables)
    loads[rng.random(cables) < 0.1] = np.nan  # edited since: no load yet
    bundles = count_bundles(block_of, blocks, dev_a, dev_b)
    members = bundle_members(bundles, block_of[dev_a], block_of[dev_b], blocks)
    peaks = bundle_peaks(bundles, members, loads)
    expected: dict[tuple[int, int], float] = {}
    for a, b, load in zip(block_of[dev_a].tolist(), block_of[dev_b].tolist(), loads.tolist(),
                          strict=True):
        if a < 0 or b < 0 or a == b:
            continue
        pair = (min(a, b), max(a, b))
        if load == load:
            expected[pair] = max(expected.get(pair, -1.0), load)
    for i, pair in enumerate(zip(bundles.a.tolist(), bundles.b.tolist(), strict=True)):
        if pair in expected:
            assert peaks[i] == expected[pair]
        else:  # every cable of the bundle is pending
            assert np.isnan(peaks[i])
