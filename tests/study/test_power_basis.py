"""The comparison's power totals are on one basis: every part at its maximum figure.

The acceptance run found them mixed: the BOM counts a device at its maximum, else at its typical
figure, so a QM9700 candidate counted its switches at their 1,720 W maximum and an SN5600 one
at its 940 W typical (the catalog has no SN5600 maximum), and the SN5600 design came out the
cooler one, on the power frontier.  On one basis a model without a maximum is not counted and is
named: its total is a lower bound (`>=`) and is not compared on power."""

from __future__ import annotations

import json

from aicnet_gui.cli import main
from aicnet_gui.study.comparison_text import render


def _bom(capsys, path: str) -> dict:
    assert main(["bom", path, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _built(small_study):
    _study, result, _out = small_study
    return [c for c in result.candidates if c.metrics is not None]


def test_every_part_counts_at_its_maximum_and_a_part_without_one_is_named(small_study, capsys):
    built = _built(small_study)
    assert {leaf for c in built for leaf in c.metrics.switches["leaf"]} == {
        "nvidia-qm9700", "nvidia-sn5600"}
    for candidate in built:
        m = candidate.metrics
        bom = _bom(capsys, candidate.file)
        models = bom["power_basis"]["models"]
        typical = sum(f["watts_each"] * f["devices"] for f in models.values()
                      if f["figure"] == "typical")
        # the BOM's own total with the typical figures taken out, as the BOM states it
        assert m.power_w == bom["power_basis"]["maximum_w"] == round(bom["power_w"] - typical, 1)
        assert list(m.power_unknown) == bom["power_basis"]["no_maximum"] == sorted(
            k for k, f in models.items() if f["figure"] in ("typical", "none"))
        assert m.power_basis.startswith("maximum")
        assert m.power_by_class is not None
        assert abs(sum(m.power_by_class.values()) - m.power_w) <= 1.0
        if "nvidia-sn5600" in m.switches["leaf"]:
            assert "nvidia-sn5600" in m.power_unknown and m.comparable_power_kw is None
            assert m.power_w < bom["power_w"]  # its 940 W typical is not mixed in
            assert candidate.pareto.power_time is None
        else:  # QM9700: every device has a maximum, the BOM's total is already on it
            assert m.power_unknown == () and m.power_w == bom["power_w"]
            assert m.comparable_power_kw == m.power_kw


def test_the_basis_is_named_in_the_text_and_the_json(small_study, catalog):
    _study, result, _out = small_study
    text = "\n".join(render(result, catalog))
    assert "Power: every part at its maximum figure" in text
    assert "nvidia-sn5600: no maximum figure (940 W typical, not mixed in)" in text
    sn5600 = next(c for c in _built(small_study) if "nvidia-sn5600" in c.metrics.switches["leaf"])
    row = next(line for line in text.splitlines() if line.startswith(sn5600.name + " "))
    assert ">=" in row
    data = result.to_json()
    for entry in data["candidates"]:
        if entry["metrics"] is not None:
            assert entry["metrics"]["power_basis"].startswith("maximum")
    assert data["power_basis"].startswith("maximum")
