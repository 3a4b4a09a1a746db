"""The comparison view (issue 37): a study started from the window fills the table as candidates
arrive, with Pareto marks that agree with a brute-force dominance check; a candidate opens as a
design; "use this one" makes it the project's design and one undo brings the previous one back;
a cancelled study keeps its finished candidates; the PDF is written; the requirement form
states a requirement, keeps it with the project (undoably) and in a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aicnet_gui.analysis import compute_bom
from aicnet_gui.fileio import load_fabric
from aicnet_gui.fileio.fabric_file import dumps_fabric
from aicnet_gui.model.fabric import Requirement
from aicnet_gui.study import Study

TEST_PRICES = Path(__file__).resolve().parents[1] / "study" / "data" / "test-prices.csv"
WAIT_MS = 120_000


def small_requirement(**changes) -> Requirement:  # noqa: ANN003
    """The small study of tests/study: 16 DGX H100 on QM9700, SN5600 and SN4600C (which cannot
    carry the servers' 400G NICs) at 1:1 and 2:1."""
    values = dict(name="small", servers=16,
                  leaves=["nvidia-qm9700", "nvidia-sn5600", "nvidia-sn4600c"],
                  sweep={"oversubscription": [1, 2]})
    values.update(changes)
    return Requirement(**values)


def run_in(window, qtbot, tmp_path, requirement=None, workers=0, on_arrival=None):  # noqa: ANN001, ANN201
    """Start a study from the window's comparison and wait for its end; (result, row counts
    seen at each arrival)."""
    comparison = window.comparison
    study = Study.prepare(requirement or small_requirement(), window.catalog, prices=TEST_PRICES)
    rows_seen: list[int] = []

    def arrived(_candidate):  # noqa: ANN001, ANN202
        rows_seen.append(comparison.dock.model.rowCount())
        if on_arrival is not None:
            on_arrival()

    with qtbot.waitSignal(comparison.finished, timeout=WAIT_MS) as blocker:
        run = comparison.start(study, tmp_path / "candidates", workers=workers)
        run.arrived.connect(arrived)
    qtbot.waitUntil(lambda: len(rows_seen) >= len(blocker.args[0].candidates), timeout=WAIT_MS)
    return blocker.args[0], rows_seen


def cells(dock, key: str) -> dict[str, str]:
    """Candidate name -> the text of column `key`."""
    model = dock.model
    column = next(i for i, c in enumerate(model.columns) if c.key == key)
    return {model.candidate(r).name: model.index(r, column).data() for r in range(model.rowCount())}


def test_the_table_fills_as_candidates_arrive(window, qtbot, tmp_path):
    result, rows_seen = run_in(window, qtbot, tmp_path)
    dock = window.comparison.dock
    assert dock.isVisible()
    # every candidate is a row, each arrived as its own row while the study ran
    assert dock.model.rowCount() == len(result.candidates) == 6
    assert rows_seen == list(range(1, 7))
    status = cells(dock, "status")
    reasons = cells(dock, "reason")
    for c in result.candidates:
        if c.built:
            assert status[c.name] == "built"
        else:  # listed with the generator's reason, in words
            assert status[c.name] == "cannot be built"
            assert reasons[c.name] == c.reason and "port speed" in c.reason
    # the numbers are the candidate's own file's: its BOM's optics and priced total
    optics, cost = cells(dock, "optics"), cells(dock, "cost")
    for c in result.candidates:
        if not c.built:
            continue
        doc = load_fabric(c.file, window.catalog)
        bom = compute_bom(doc)
        assert optics[c.name] == f"{sum(bom.transceivers.values()):,}"
        assert cost[c.name] == f"{c.metrics.cost:,.0f} USD"
    assert "4 built, 2 cannot be built" in dock.status.text()


def _dominated(points: dict[str, tuple[float, float]], name: str) -> bool:
    """Some other candidate is no worse on both axes and better on one."""
    a = points[name]
    return any(b[0] <= a[0] and b[1] <= a[1] and (b[0] < a[0] or b[1] < a[1])
               for other, b in points.items() if other != name)


def test_pareto_marks_in_the_table_agree_with_a_brute_force_check(window, qtbot, tmp_path):
    result, _rows = run_in(window, qtbot, tmp_path)
    marks = cells(window.comparison.dock, "pareto")
    built = [c for c in result.candidates if c.built and c.feasible]
    cost = {c.name: (c.metrics.cost, c.metrics.collective_ms) for c in built}
    # compared on power: the totals with every switch at its maximum (not the SN5600's)
    power = {c.name: (c.metrics.comparable_power_kw, c.metrics.collective_ms) for c in built
             if c.metrics.comparable_power_kw is not None}
    for c in result.candidates:
        if not c.built:
            assert marks[c.name] == "-"
            continue
        on = [axis for axis, points in (("cost", cost), ("power", power))
              if c.name in points and not _dominated(points, c.name)]
        assert marks[c.name] == ("+".join(on) if on else "dominated"), c.name
    # the charts draw the same frontier: red points are the candidates marked on it
    charts = window.comparison.dock.charts
    for c in built:
        assert charts.point_of("cost_time", c.index) == (c.metrics.cost, c.metrics.collective_ms)


def test_selecting_a_row_rings_its_point_and_a_point_selects_its_row(window, qtbot, tmp_path):
    result, _rows = run_in(window, qtbot, tmp_path)
    dock = window.comparison.dock
    second = next(c for c in result.candidates if c.built and c.index == 1)
    assert dock.select(second.index)
    ring = dock.charts.cost_time._ring.data
    assert len(ring) == 1 and (ring[0]["x"], ring[0]["y"]) == dock.charts.point_of(
        "cost_time", second.index)
    first = next(c for c in result.candidates if c.built and c.index == 0)
    dock.charts.picked.emit(first.index)  # what a click on its point emits
    assert dock.current().name == first.name


def test_a_candidate_opens_in_the_empty_window_else_in_a_new_one(window, qtbot, tmp_path,
                                                               example_path):
    result, _rows = run_in(window, qtbot, tmp_path)
    comparison = window.comparison
    first, second = [c for c in result.candidates if c.built][:2]
    with qtbot.waitSignal(comparison.opened, timeout=WAIT_MS) as opened:
        comparison.open_candidate(first)
    assert opened.args[0] is window
    assert window.document.path == Path(first.file).resolve()
    with qtbot.waitSignal(comparison.opened, timeout=WAIT_MS) as opened:
        comparison.open_candidate(second)
    other = opened.args[0]
    try:
        assert other is not window and other.isVisible()
        assert other.document.path == Path(second.file).resolve()
        assert window.document.path == Path(first.file).resolve()  # the project stays
    finally:
        other.close()


def _design(document) -> dict:  # noqa: ANN001
    """The design as saved, each list of objects by id (an undo puts back the same objects,
    in the order the inverse adds them)."""
    fabric = json.loads(dumps_fabric(document.fabric))  # what a save writes
    fabric["metadata"].pop("modified")
    for section in ("racks", "devices", "links", "workloads"):
        fabric[section] = {item["id"]: item for item in fabric[section]}
    for section in ("devices", "transceivers", "cables"):
        fabric["catalog"][section] = {item["id"]: item for item in fabric["catalog"][section]}
    return fabric


def test_use_this_one_makes_it_the_design_and_one_undo_restores_the_previous(
        window, qtbot, tmp_path, example_path):
    assert window.open_path(example_path, ask=False)
    before = _design(window.document)
    result, _rows = run_in(window, qtbot, tmp_path)
    comparison = window.comparison
    chosen = next(c for c in result.candidates if c.built and c.name == "sn5600-1to1")
    stack = window.document.undo_stack
    steps = stack.count()
    with qtbot.waitSignal(comparison.used, timeout=WAIT_MS):
        comparison.use_candidate(chosen)
    assert stack.count() == steps + 1
    doc = window.document.fabric
    candidate = load_fabric(chosen.file, window.catalog)
    assert set(doc.devices) == set(candidate.devices)
    assert len(doc.links) == len(candidate.links) and doc.settings == candidate.settings
    assert doc.requirement == result_requirement(comparison)
    assert doc.metadata.name == "sn5600-1to1"
    assert window.document.dirty
    stack.undo()
    assert _design(window.document) == before
    stack.redo()
    assert set(window.document.fabric.devices) == set(candidate.devices)


def result_requirement(comparison) -> Requirement:  # noqa: ANN001
    return comparison.study.requirement


def test_cancel_keeps_the_finished_candidates(window, qtbot, tmp_path):
    comparison = window.comparison
    requirement = small_requirement(leaves=["nvidia-qm9700", "nvidia-sn5600", "nvidia-sn5610",
                                            "arista-7060x6-64pe"])
    result, _rows = run_in(window, qtbot, tmp_path, requirement, workers=2,
                           on_arrival=lambda: comparison.run.cancel())
    assert result.cancelled and result.not_run
    finished = {c.name for c in result.candidates}
    assert finished and not finished & set(result.not_run)
    assert len(finished) + len(result.not_run) == 8
    # the table keeps them, and the folder holds exactly their files
    assert set(cells(comparison.dock, "name")) == finished
    folder = tmp_path / "candidates"
    assert sorted(p.name for p in folder.glob("*.fabric")) == sorted(
        Path(c.file).name for c in result.candidates)
    assert "Cancelled" in comparison.dock.status.text()
    assert "Not run (cancelled)" in comparison.dock.notes.text()


def test_the_comparison_pdf_is_written_from_the_view(window, qtbot, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    result, _rows = run_in(window, qtbot, tmp_path)
    assert window.comparison.dock.export_button.isEnabled()
    target = tmp_path / "small.pdf"
    with qtbot.waitSignal(window.comparison.exported, timeout=WAIT_MS):
        window.comparison.export_pdf(target)
    text = "".join(page.extract_text() for page in pypdf.PdfReader(target).pages)
    assert "Which fabric: small" in text
    assert all(c.name in text for c in result.candidates)


def test_the_form_states_keeps_and_saves_the_requirement(window, qtbot, tmp_path, monkeypatch):
    comparison = window.comparison
    comparison.workers = 0
    form = comparison.make_form()
    form.set_requirement(small_requirement(leaves=["nvidia-qm9700"], site={"rack_power_kw": 30},
                                           growth={"sus": 2}), None)
    form.folder.setText(str(tmp_path / "out"))
    form._set_prices(TEST_PRICES)
    assert form.check(), form.summary.text()
    assert form.summary.text().startswith("2 candidates for 16 servers (128 GPUs)")
    stated = form.requirement()
    assert stated.leaves == ["nvidia-qm9700"] and stated.site.rack_power_kw == 30
    assert stated.growth.sus == 2 and stated.prices == str(TEST_PRICES)
    # saved beside a file: its price list relative to that file, and read back the same
    saved = tmp_path / "hall.requirement.json"
    assert form.save(saved)
    again = comparison.make_form()
    assert again.load(saved)
    assert again.requirement() == stated
    # a requirement nothing can meet is refused in the form, with the reason
    form.set_requirement(small_requirement(site={"rack_power_kw": 5}), None)
    assert not form.check() and not form.compare_button.isEnabled()
    assert "rack" in form.summary.text()
    # Compare keeps it with the project, as one undo step, and runs the study
    form.set_requirement(stated, None)
    assert form.check()
    with qtbot.waitSignal(comparison.finished, timeout=WAIT_MS):
        assert comparison.compare(form)
    assert window.document.fabric.requirement == stated
    window.document.undo_stack.undo()
    assert window.document.fabric.requirement is None


def test_the_start_card_shows_on_an_empty_project_only(window, example_path):
    panel = window.comparison.start_panel
    assert panel.isVisible()
    assert window.open_path(example_path, ask=False)
    assert not panel.isVisible()
    window.files.new_document()
    assert panel.isVisible()


def test_closing_the_window_cancels_its_study(window, qtbot, tmp_path):
    comparison = window.comparison
    requirement = small_requirement(leaves=["nvidia-qm9700", "nvidia-sn5600", "nvidia-sn5610",
                                            "arista-7060x6-64pe"])
    study = Study.prepare(requirement, window.catalog)
    with qtbot.waitSignal(comparison.dock.model.rowsInserted, timeout=WAIT_MS):
        run = comparison.start(study, tmp_path / "candidates", workers=2)
    process = run._process._process
    assert window.close()
    qtbot.waitUntil(lambda: process.poll() is not None, timeout=WAIT_MS)
    assert run.job.is_abandoned()
    assert len(list((tmp_path / "candidates").glob("*.fabric"))) < 8


def test_candidates_at_one_spot_share_one_label_on_the_charts(window, qtbot, tmp_path):
    # the same SN5600 design on RoCEv2 and on Ethernet: the same cost and time, so the two
    # points coincide; their numbers are printed once as "1, 2", never over each other.  The
    # SN5600 has no maximum power figure: neither is drawn on power, and the chart says why
    pypdf = pytest.importorskip("pypdf")
    import pyqtgraph as pg

    requirement = small_requirement(leaves=["nvidia-sn5600"], technologies=["rocev2", "ethernet"],
                                    sweep={})
    result, _rows = run_in(window, qtbot, tmp_path, requirement)
    assert [c.metrics is not None for c in result.candidates] == [True, True]
    charts = window.comparison.dock.charts

    def labels(scatter):  # noqa: ANN001, ANN202
        return [item.toPlainText() for item in scatter.plot.items if isinstance(item, pg.TextItem)]

    assert labels(charts.cost_time) == ["1, 2"]
    assert labels(charts.power_time) == []
    assert "no maximum figure for nvidia-sn5600" in charts.power_time.panel.caption.text()
    target = tmp_path / "two.pdf"
    with qtbot.waitSignal(window.comparison.exported, timeout=WAIT_MS):
        window.comparison.export_pdf(target)
    charts_page = next(p.extract_text() for p in pypdf.PdfReader(target).pages
                       if "Cost against collective time" in p.extract_text())
    assert charts_page.count("1, 2") == 1, charts_page
    assert "no maximum figure for nvidia-sn5600" in " ".join(charts_page.split()), charts_page
