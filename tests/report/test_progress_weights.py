"""The plan PDF's progress weights follow what each step costs (issue 38: the ETA of a 4,096-server
plan rose from 0:41 to 0:53 because the steps after the schedule weighed too little)."""

from __future__ import annotations

from types import SimpleNamespace

from aicnet_gui.report import plan_pdf, qr_pool
from aicnet_gui.report.options import ExportOptions


def _doc(links: int) -> SimpleNamespace:
    return SimpleNamespace(links=range(links))


def test_every_step_weighs_what_it_costs_at_4096_servers(monkeypatch):
    """Measured at 4,096 servers (98,304 links, 196,608 labels, bench_report.py --phases):
    the design report's what-if sweep costs about as much as the schedule, and the label
    sheets about nine times the schedule even on two cores."""
    monkeypatch.setattr(qr_pool, "worker_count", lambda: 2)
    steps = plan_pdf._steps(_doc(98_304), ExportOptions(), 196_608)
    assert list(steps)[:2] == ["plan", "validate"] and list(steps)[-2:] == ["schedule", "labels"]
    assert {"design", "bom"} <= steps.keys()
    assert 1.0 <= steps["design"] / steps["schedule"] <= 1.6
    assert 6.0 <= steps["labels"] / steps["schedule"] <= 12.0  # measured 33.1 s / 3.6 s
    assert 0.4 <= steps["plan"] / steps["schedule"] <= 0.6


def test_labels_on_more_cores_weigh_less_and_without_qr_less_still(monkeypatch):
    weights = {}
    for cores in (1, 2, 8):
        monkeypatch.setattr(qr_pool, "worker_count", lambda cores=cores: cores)
        weights[cores] = plan_pdf._steps(_doc(98_304), ExportOptions(), 196_608)["labels"]
    assert weights[1] > weights[2] > weights[8] > 0
    plain = plan_pdf._steps(_doc(98_304), ExportOptions(label_qr=False), 196_608)["labels"]
    assert plain < weights[2]
