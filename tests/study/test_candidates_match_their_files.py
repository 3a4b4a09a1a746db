"""Every built candidate of a study says exactly what `aicnet bom --json` and `aicnet validate
--json` say for its own written file: the commands' code paths (aicnet_gui.cli.main) are run on
each file and compared part by part."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from aicnet_gui.cli import main

from .conftest import TEST_PRICES


def _command(capsys, *argv: str) -> dict:
    code = main(list(argv))
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return json.loads(out)


def _built(small_study):
    _study, result, _out = small_study
    built = [c for c in result.candidates if c.metrics is not None]
    assert len(built) == 4  # QM9700 and SN5600, each at 1:1 and 2:1
    return built


def test_each_candidate_is_a_written_file(small_study):
    _study, result, out = small_study
    written = sorted(p.name for p in Path(out).glob("*.fabric"))
    assert written == sorted(Path(c.file).name for c in _built(small_study))
    assert all(c.file is None for c in result.candidates if c.metrics is None)


def test_counts_power_and_cost_equal_the_bom_of_the_file(small_study, capsys):
    for candidate in _built(small_study):
        bom = _command(capsys, "bom", candidate.file, "--json", "--details",
                       "--prices", str(TEST_PRICES))
        m = candidate.metrics
        assert m.devices == bom["devices"]["by_model"], candidate.name
        roles = {role: sum(models.values()) for role, models in m.switches.items()}
        assert {r: n for r, n in roles.items() if n} == {
            r: n for r, n in bom["devices"]["by_role"].items() if r in ("leaf", "spine", "core")}
        switch_models = Counter()
        for models in m.switches.values():
            switch_models.update(models)
        assert all(bom["devices"]["by_model"][k] == n for k, n in switch_models.items())
        assert m.optics == bom["transceivers"]
        assert m.cables == bom["cables"]
        assert m.links == bom["links"]["total"]
        # the BOM's total with every part at its maximum (the comparison's one basis)
        at_max = bom["power_basis"]["maximum_w"]
        assert m.power_w == at_max and m.power_kw == at_max / 1000
        assert list(m.power_unknown) == bom["power_basis"]["no_maximum"]
        assert m.cost == bom["cost"] and m.cost is not None  # every part has a test price
        assert m.cost_known == bom["details"]["cost_known_usd"]
        assert list(m.unpriced) == bom["details"]["unpriced_parts"] == []


def test_the_part_class_splits_add_up_to_the_bom(small_study):
    for candidate in _built(small_study):
        m = candidate.metrics
        assert m.cost_by_class is not None and m.power_by_class is not None
        assert sum(m.cost_by_class.values()) == pytest.approx(m.cost_known, abs=0.05)
        assert sum(m.power_by_class.values()) == pytest.approx(m.power_w, abs=1.0)
        assert m.power_by_class["servers"] == 16 * 10_200  # DGX H100: 10.2 kW at maximum


def test_findings_and_performance_equal_validate_of_the_file(small_study, capsys):
    for candidate in _built(small_study):
        report = _command(capsys, "validate", candidate.file, "--json")
        m = candidate.metrics
        severities = Counter(f["severity"] for f in report["findings"])
        assert m.findings == {s: severities.get(s, 0) for s in ("error", "warning", "info")}
        codes = {s: Counter(f["code"] for f in report["findings"] if f["severity"] == s)
                 for s in ("error", "warning", "info")}
        assert m.finding_codes == {s: dict(c) for s, c in codes.items()}
        workloads = {w["id"]: w for w in report["metrics"]["workloads"]}
        assert m.allreduce_ms == {i: w["allreduce"]["time_ms"] for i, w in workloads.items()}
        for w in m.workloads:
            assert w.bisection_gbps == workloads[w.id]["bisection_gbps"]
            assert w.bus_gbps == workloads[w.id]["allreduce"]["bus_gbps"]
            assert w.per_gpu_gbps == workloads[w.id]["per_gpu_gbps"]
        over = report["metrics"]["oversubscription"]
        assert m.oversubscription == over["effective"]
        assert list(m.oversubscription_path) == over["effective_path"]
        assert m.bisection_gbps == workloads[m.bisection_workload]["bisection_gbps"]


def test_the_worst_switch_failure_is_the_whatif_sweeps(small_study, capsys):
    for candidate in _built(small_study):
        failure = candidate.metrics.failure
        worst = []
        for kind in ("leaf", "spine", "core"):
            sweep = _command(capsys, "whatif", candidate.file, "--each", kind, "--json",
                             "--top", "1")
            worst += [(kind, r) for r in sweep["ranked"]]
        names = {(kind, r["failed"]) for kind, r in worst}
        assert (failure.kind, failure.failed) in names
        listed = next(r for kind, r in worst if (kind, r["failed"]) == (failure.kind,
                                                                        failure.failed))
        assert failure.gpus_lost == listed["gpus_lost_all_paths"]
        assert failure.gpus_reduced == listed["gpus_bandwidth_reduced"]
        assert failure.partitioned == listed["partitioned"]


def test_the_json_document_has_the_keys_scripts_rely_on(small_study):
    _study, result, _out = small_study
    data = result.to_json()
    for entry in data["candidates"]:
        assert {"name", "file", "feasible", "reason", "metrics"} <= set(entry)
        if entry["metrics"] is None:
            assert entry["feasible"] is False and entry["reason"]
            continue
        metrics = entry["metrics"]
        assert {"switches", "optics", "cables", "power_kw", "cost", "cost_incomplete",
                "unpriced", "bisection_gbps", "allreduce_ms", "pareto"} <= set(metrics)
        assert set(metrics["switches"]) == {"leaf", "spine", "core"}
        assert metrics["cost_incomplete"] is False
        assert set(metrics["allreduce_ms"]) == {"workload-1"}
