"""`aicnet-gui --screenshot-compare`: the comparison view rendered headless once its study has
finished (the study waited for by its signal), the PNG at the size asked for, the candidates in
the table; what it compares when the design carries no requirement; the errors it names; the
charts that have nothing to draw show only their caption."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from aicnet_gui.fileio.requirement_file import save_requirement

from .test_comparison import TEST_PRICES, WAIT_MS, small_requirement

ROOT = Path(__file__).resolve().parents[2]


def _distinct_colours(image, step: int = 7) -> int:  # noqa: ANN001
    return len({image.pixel(x, y) for x in range(0, image.width(), step)
                for y in range(0, image.height(), step)})


def test_the_shot_waits_for_the_study_and_shows_every_candidate(window, qtbot, tmp_path):
    from PySide6.QtGui import QImage

    from aicnet_gui.gui.compare.screenshot import CompareShot

    requirement = tmp_path / "small.requirement.json"
    save_requirement(requirement, small_requirement())
    out = tmp_path / "compare.png"
    window.comparison.workers = 0  # in the job's thread: no worker processes in a test
    shot = CompareShot(window, out, (1200, 700), requirement_file=str(requirement),
                       prices=str(TEST_PRICES), chart="cost-parts",
                       select="sn5600-2to1")
    with qtbot.waitSignal(shot.done, timeout=WAIT_MS) as blocker:
        assert shot.start()
    assert blocker.args == [0]
    dock = window.comparison.dock
    names = sorted(dock.model.candidate(r).name for r in range(dock.model.rowCount()))
    assert names == sorted(c.name for c in window.comparison.result.candidates)
    assert len(names) == 6
    assert dock.current().name == "sn5600-2to1"
    assert dock.charts.currentWidget() is dock.charts.cost_bars[1]
    # the cost is a whole number of dollars; the servers' share said without a stray ".0"
    assert dock.charts.cost_bars[1].caption.text().endswith(" USD in every candidate.")
    assert ".0 USD" not in dock.charts.cost_bars[1].caption.text()
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1200, 700)
    assert _distinct_colours(image) > 20  # table, bars and text, not a blank page
    assert not (Path(shot._folder) / "candidates").exists()  # the candidates' folder is gone


def test_a_chart_with_nothing_to_draw_shows_only_why(window, qtbot, tmp_path):
    from aicnet_gui.gui.compare.screenshot import CompareShot

    requirement = tmp_path / "small.requirement.json"
    save_requirement(requirement, small_requirement())
    window.comparison.workers = 0
    shot = CompareShot(window, tmp_path / "x.png", (1000, 600), requirement_file=str(requirement))
    with qtbot.waitSignal(shot.done, timeout=WAIT_MS) as blocker:
        assert shot.start()
    assert blocker.args == [0]
    charts = window.comparison.dock.charts
    # no price list: no cost on any candidate, so no empty 0..1 axes, only the caption
    assert charts.cost_time.panel.graphics.isHidden()
    assert "nothing to draw" in charts.cost_time.panel.caption.text()
    assert charts.cost_bars[1].graphics.isHidden()
    # the SN5600 has no maximum power figure: its candidates are said to be left out
    assert not charts.power_time.panel.graphics.isHidden()
    left = [c for c in window.comparison.result.candidates
            if c.built and c.metrics.comparable_power_kw is None]
    assert left
    caption = charts.power_time.panel.caption.text()
    assert "not drawn: a switch without a maximum power figure" in caption
    for c in left:
        assert f"#{c.index + 1}" in caption


def test_a_design_without_a_requirement_is_compared_at_its_own_size(window, example_path):
    from aicnet_gui.gui.compare.screenshot import shot_requirement
    from aicnet_gui.model.catalog_entities import Role

    assert window.open_path(example_path, ask=False)
    doc = window.document.fabric
    assert doc.requirement is None
    servers = [d for d in doc.devices.values()
               if window.catalog.devices[d.model].role == Role.GPU_SERVER]
    requirement, base_dir = shot_requirement(window, None)
    assert requirement.servers == len(servers) > 0
    assert requirement.server == servers[0].model
    assert requirement.name == example_path.stem and base_dir is None


def _run(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_STATE_HOME=str(tmp_path / "state"))
    return subprocess.run([sys.executable, "-m", "aicnet_gui", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_option_writes_a_png_of_the_size_asked_for(tmp_path):
    from PySide6.QtGui import QImage

    requirement = tmp_path / "small.requirement.json"
    save_requirement(requirement, small_requirement())
    out = tmp_path / "compare.png"
    result = _run(tmp_path, "--screenshot-compare", str(out), "--size", "1300x640",
                  "--requirement", str(requirement), "--prices", str(TEST_PRICES),
                  "--chart", "power-time")
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1300, 640)
    assert _distinct_colours(image) > 20


def test_the_option_names_what_it_cannot_do(tmp_path):
    missing = _run(tmp_path, "--screenshot-compare", str(tmp_path / "x.png"),
                   "--requirement", str(tmp_path / "nope.requirement.json"))
    assert missing.returncode == 1
    assert "nope.requirement.json" in missing.stderr and "Traceback" not in missing.stderr
    requirement = tmp_path / "small.requirement.json"
    save_requirement(requirement, small_requirement(leaves=["nvidia-qm9700"],
                                                    sweep={"oversubscription": [1]}))
    unknown = _run(tmp_path, "--screenshot-compare", str(tmp_path / "y.png"),
                   "--requirement", str(requirement), "--select-candidate", "nope")
    assert unknown.returncode == 1
    assert "no candidate 'nope'" in unknown.stderr and "Traceback" not in unknown.stderr
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "y.png").exists()


def test_the_chart_choices_are_the_tabs():
    from aicnet_gui.gui.app import parse_args
    from aicnet_gui.gui.compare.screenshot import CHARTS

    for chart in CHARTS:
        assert parse_args(["--screenshot-compare", "x.png", "--chart", chart]).chart == chart
    assert parse_args(["--screenshot-compare", "x.png"]).chart == CHARTS[0]


def test_close_ticks_keep_distinct_labels(qapp):  # noqa: ANN001
    from aicnet_gui.gui.compare.charts import _CompactAxis

    axis = _CompactAxis("bottom")
    # a study whose costs differ by less than 1%: 3 digits would write 10.5M twice
    ticks = [10_500_000.0, 10_525_000.0, 10_550_000.0, 10_575_000.0, 10_600_000.0]
    texts = axis.tickStrings(ticks, 1.0, 25_000.0)
    assert len(set(texts)) == len(texts)
    assert texts == ["10.5M", "10.525M", "10.55M", "10.575M", "10.6M"]
    assert axis.tickStrings([0.0, 500_000.0, 1_000_000.0], 1.0, 500_000.0) == ["0", "500k", "1M"]
