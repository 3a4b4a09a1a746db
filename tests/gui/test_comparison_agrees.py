"""One comparison, three readers: `aicnet compare --json` (what scripts read), its PDF and the
window's table and charts (its own study process) say the same numbers for every candidate:
its number, cost, power, the all-reduce under its own load balancing, the load balancing, the
even-spread bound and the Pareto marks (tests/look_study.py's study)."""

from __future__ import annotations

import json

from pypdf import PdfReader
from PySide6.QtCore import Qt

from aicnet_gui.cli import main
from aicnet_gui.study import Study
from tests.look_study import CLI_OPTIONS, REQUIREMENT, TEST_PRICES, pdf_row

WAIT_MS = 120_000


def _expected(entry: dict, number: int) -> dict[str, str]:
    """What every reader should print for one candidate of the JSON."""
    m = entry["metrics"]
    w = m["primary_workload"]
    workload = next(x for x in m["workloads"] if x["id"] == w)
    star = "*" if m["collective_basis"][w] == "even-spread" else ""
    runs = workload["load_balancing_runs"]
    pareto = m["pareto"]
    on = [name for name, key in (("cost", "cost_time"), ("power", "power_time")) if pareto[key]]
    compared = [pareto[key] for key in ("cost_time", "power_time") if pareto[key] is not None]
    return {
        "number": str(number),
        "cost": f"{m['cost']:,.0f} {m['currency']}",
        "power": (">=" if m["power_unknown"] else "") + f"{m['power_kw']:,.1f}",
        "allreduce": f"{m['collective_ms'][w]:.2f} ms{star}",
        "load_balancing": "+".join(runs) if runs else f"{m['load_balancing']} (not routed)",
        "even_spread": f"{m['even_spread_ms'][w]:.2f} ms",
        "pareto": "+".join(on) if on else "dominated" if compared else "-",
    }


def test_the_window_the_pdf_and_the_json_say_the_same(window, qtbot, tmp_path, capsys):
    pdf = tmp_path / "look.pdf"
    assert main(["compare", *CLI_OPTIONS, "--prices", str(TEST_PRICES), "--pdf", str(pdf),
                 "--json", "--quiet", "--workers", "0"]) == 0
    data = json.loads(capsys.readouterr().out)
    entries = {c["name"]: (n, c) for n, c in enumerate(data["candidates"], start=1)
               if c["metrics"]}
    assert len(entries) == 8
    expected = {name: _expected(c, n) for name, (n, c) in entries.items()}
    # the study differs between the modes somewhere: the all-reduce is not the bound everywhere
    assert any(e["allreduce"] != e["even_spread"] for e in expected.values())

    comparison = window.comparison
    study = Study.prepare(REQUIREMENT, window.catalog, prices=TEST_PRICES)
    with qtbot.waitSignal(comparison.finished, timeout=WAIT_MS):
        comparison.start(study, tmp_path / "candidates", workers=0)
    model = comparison.dock.model
    keys = {c.key.split(":")[0]: i for i, c in enumerate(model.columns)}
    for row in range(model.rowCount()):
        c = model.candidate(row)
        if c.metrics is None:
            continue
        shown = {key: model.index(row, keys[key]).data(Qt.ItemDataRole.DisplayRole)
                 for key in expected[c.name]}
        assert shown == expected[c.name], c.name
        m = entries[c.name][1]["metrics"]
        w = m["primary_workload"]
        for chart, x in (("cost_time", m["cost"]), ("power_time", m["power_kw"])):
            point = comparison.dock.charts.point_of(chart, c.index)
            if chart == "power_time" and m["pareto"]["power_time"] is None:
                assert point is None  # not compared on power: not drawn
                continue
            assert point is not None and abs(point[0] - x) <= 0.05 * (chart == "power_time") \
                + 1e-6 * x, (chart, c.name)
            assert abs(point[1] - m["collective_ms"][w]) < 1e-9, (chart, c.name)

    first = PdfReader(pdf).pages[0].extract_text()
    for name, values in expected.items():
        cells = pdf_row(first, name, list(expected))
        assert cells[0] == values["number"], name
        for key in ("cost", "power", "allreduce", "load_balancing", "even_spread", "pareto"):
            assert values[key] in cells, (name, key, cells)
