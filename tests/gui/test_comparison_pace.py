"""The comparison window shows each candidate's all-reduce under its own load balancing (the
traffic model's), the load balancing it ran and the even-spread bound, sorts and marks by the
first and draws it on the charts: two candidates built by hand from one oversubscribed
RoCEv2 top-of-rack design, set to static ECMP and to adaptive routing and nothing else."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.edits import UpdateSettings
from aicnet_gui.model.fabric import Requirement
from aicnet_gui.study import Study, run_study
from aicnet_gui.study.pareto import mark
from aicnet_gui.study.worker import measure
from aicnet_gui.traffic import TrafficModel, TrafficParams

REQUIREMENT = Requirement(name="pace", servers=64, server="generic-hgx-8-gpu-b3140h",
                          technologies=["rocev2"], leaves=["cisco-n9364e-sg2-o"],
                          sweep={"layouts": ["tor"], "oversubscription": [2]})


@pytest.fixture(scope="module")
def pair(catalog, tmp_path_factory):
    """The 2:1 design measured under static ECMP and under adaptive routing, with the traffic
    model's time of each, run here."""
    (built,) = run_study(Study.prepare(REQUIREMENT, catalog), tmp_path_factory.mktemp("pace"),
                         workers=0).candidates
    out = []
    for index, mode in enumerate(("ecmp", "adaptive")):
        doc = load_fabric(built.file, catalog)
        doc.apply([UpdateSettings({"load_balancing": mode})])
        metrics = measure(doc, built.metrics.template, built.metrics.speed_gbps, REQUIREMENT)
        time = TrafficModel(doc, TrafficParams(seeds=5)).workload(
            metrics.primary, (mode,)).modes[mode].time_ms
        out.append((replace(built, index=index, name=mode, file=None, metrics=metrics), time))
    return out


def _cells(dock, key: str, role=Qt.ItemDataRole.DisplayRole) -> dict[str, object]:  # noqa: ANN001
    model = dock.model
    column = next(i for i, c in enumerate(model.columns) if c.key == key)
    return {model.candidate(r).name: model.index(r, column).data(role)
            for r in range(model.rowCount())}


def test_the_window_shows_sorts_and_draws_the_time_under_each_load_balancing(qtbot, pair):
    from aicnet_gui.gui.compare.comparison_dock import ComparisonDock
    from aicnet_gui.gui.compare.table_model import CANDIDATE_ROLE

    dock = ComparisonDock()
    qtbot.addWidget(dock)
    dock.show_study("pace", 2)
    candidates = mark([c for c, _t in pair])
    dock.show_candidates(candidates)
    by_traffic = {c.name: t for c, t in pair}
    assert by_traffic["ecmp"] > 1.2 * by_traffic["adaptive"]
    workload = candidates[0].metrics.primary
    times = _cells(dock, f"allreduce:{workload}")
    assert times == {name: f"{t:.2f} ms" for name, t in by_traffic.items()}
    assert _cells(dock, "load_balancing") == {"ecmp": "ecmp", "adaptive": "flowlet"}
    even = candidates[0].metrics.even_spread_ms
    assert _cells(dock, "even_spread") == {"ecmp": f"{even:.2f} ms", "adaptive": f"{even:.2f} ms"}
    assert "under its own load balancing" in _cells(
        dock, f"allreduce:{workload}", Qt.ItemDataRole.ToolTipRole)["ecmp"]
    # ECMP is dominated by the same fabric with adaptive routing (power: the same switches)
    assert _cells(dock, "pareto") == {"ecmp": "dominated", "adaptive": "power"}
    # the charts draw the same times
    for c in candidates:
        _x, t = dock.charts.point_of("power_time", c.index)
        assert t == pytest.approx(by_traffic[c.name], abs=1e-4)
    # sorting by the all-reduce puts adaptive routing first
    column = next(i for i, c in enumerate(dock.model.columns) if c.key == f"allreduce:{workload}")
    dock.table.sortByColumn(column, Qt.SortOrder.AscendingOrder)
    first = dock.proxy.index(0, 0).data(CANDIDATE_ROLE)
    assert first.name == "adaptive"
