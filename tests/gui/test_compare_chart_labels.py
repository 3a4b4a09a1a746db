"""The comparison view's scatter charts: candidates on one spot share one label."""

from __future__ import annotations

from aicnet_gui.gui.compare.charts import same_spot_groups


def test_candidates_with_the_same_power_and_time_share_a_label():
    # QM9700 and QM9790 designs: the same power and all-reduce time, "1" drawn over "2"
    drawn = [("qm9700", 1395.84, 5.9385), ("sn5600", 1358.88, 5.9385),
             ("qm9790", 1395.84, 5.9385)]
    groups = same_spot_groups(drawn)  # type: ignore[arg-type]
    assert groups == [(1395.84, 5.9385, ["qm9700", "qm9790"]), (1358.88, 5.9385, ["sn5600"])]
