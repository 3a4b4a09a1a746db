"""The Metrics dock says which power figures its total is built on (typical, unverified)."""

from __future__ import annotations

from tests.gui.test_review_2026 import open_generated, validated


def test_metrics_dock_names_the_unverified_maximum_behind_the_power_total(window, qtbot, tmp_path):  # noqa: ANN001
    """A 1-SU SuperPOD: the QM9700 counts at 1,720 W, a secondary figure; the dock showed the
    total alone."""
    open_generated(window, tmp_path, sus=1)
    window.metrics.show()
    window.metrics.raise_()
    validated(window, qtbot)
    qtbot.waitUntil(lambda: window.validator.bom is not None, timeout=30000)
    qtbot.waitUntil(lambda: "NVIDIA QM9700 x12" in window.metrics.row_texts("Bill of materials"))
    rows = window.metrics.row_texts("Bill of materials")
    assert rows["NVIDIA QM9700 x12"] == "1,720 W max, unverified"  # the whole caveat: its tooltip
    assert "NVIDIA DGX H100 x32" not in rows  # a verified maximum needs no word
