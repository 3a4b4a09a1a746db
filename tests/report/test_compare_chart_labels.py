"""The comparison PDF's scatter charts: candidates drawn on one spot share one label."""

from __future__ import annotations

from aicnet_gui.report.compare_pdf import free_label_spot, label_groups


def test_points_on_one_spot_share_a_label_and_far_ones_keep_their_own():
    # QM9700 and QM9790 designs have the same power and time: their numbers printed on top of
    # each other were unreadable ("1" over "2")
    drawn = [(100.0, 50.0, "qm9700"), (300.0, 50.0, "sn5600"), (101.5, 51.0, "qm9790"),
             (100.0, 60.0, "sn5400")]
    groups = label_groups(drawn)  # type: ignore[arg-type]
    assert [(x, y, members) for x, y, members in groups] == [
        (100.0, 50.0, ["qm9700", "qm9790"]), (300.0, 50.0, ["sn5600"]),
        (100.0, 60.0, ["sn5400"])]


def test_a_label_that_would_cover_another_moves_up_a_line():
    placed: list[tuple[float, float, float]] = []
    assert free_label_spot(100, 50, 20, placed) == (100, 50)
    assert free_label_spot(110, 50, 5, placed) == (110, 56)  # over "3, 5, 9": one line up
    assert free_label_spot(200, 50, 5, placed) == (200, 50)  # clear of both
    assert free_label_spot(112, 52, 5, placed) == (112, 64)  # two labels in its way


def test_a_label_moves_one_line_not_two_when_the_line_is_not_a_whole_number():
    # the window places its labels in pixels, a line of 17.6 px: -200 + 17.6 is 17.599999...
    # from -200, which had counted as still overlapping and moved the label a second line
    placed: list[tuple[float, float, float]] = []
    free_label_spot(100.0, -200.0, 15.6, placed, line=17.6)
    _x, y = free_label_spot(100.8, -200.0, 15.6, placed, line=17.6)
    assert abs(y - (-200.0 + 17.6)) < 1e-9


def test_points_that_differ_only_by_rounding_share_one_label():
    from aicnet_gui.report.compare_pdf import shared_labels

    # the same parts costed twice: 1,234,567.0001 and 1,234,567.0004 are one pixel
    points = [("4", 1234567.0001, 2.5000001), ("6", 1234567.0004, 2.5000004), ("7", 2e6, 2.5)]
    assert shared_labels(points) == ["4, 6", "", "7"]


def test_pdf_axis_ticks_of_close_values_are_told_apart():
    from aicnet_gui.report.compare_pdf import tick_format

    # the hall-a study's costs, 20.49M to 21.04M, and its times, 5.85 to 5.89 ms
    for low, high, step in ((20.45e6, 21.08e6, 0.1e6), (5.85, 5.90, 0.01)):
        label = tick_format(low, high)
        ticks = [low + k * step for k in range(int((high - low) / step) + 1)]
        labels = [label(t) for t in ticks]
        assert len(set(labels)) == len(labels), labels
    assert tick_format(0, 3e6)(2e6) == "2M"  # far apart: three digits, no noise
    assert tick_format(1.0, 9.0)(5.0) == "5"


def test_the_pdf_names_the_candidates_its_power_chart_leaves_out(tmp_path):
    """SN5600 has no maximum power figure (catalog): its candidates are drawn on the cost
    chart and named under the power chart, as the window's caption names them."""
    import subprocess
    import sys

    from pypdf import PdfReader

    out = tmp_path / "hall.pdf"
    done = subprocess.run(
        [sys.executable, "-m", "aicnet_gui.cli", "compare", "--servers", "32", "--technology",
         "infiniband", "--technology", "rocev2", "--leaf", "nvidia-qm9700", "--leaf",
         "nvidia-sn5600", "--out", str(tmp_path / "c"), "--pdf", str(out)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    text = " ".join(page.extract_text() for page in PdfReader(out).pages).replace("\n", " ")
    # numbered as in the window (#4: the fourth candidate; the PDF had numbered it 2, its row)
    assert "Not on the power chart: 4 (a switch without a maximum power figure)" in text
