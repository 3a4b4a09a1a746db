"""The plan PDF's traffic pages: the busBW per mode, the histogram of link loads and the hottest
links of the mode the fabric runs, as the traffic model computes them (issue 35: "the same in
the PDF's analysis pages")."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader

from aicnet_gui.fileio import load_fabric
from aicnet_gui.report import ExportOptions
from aicnet_gui.report.plan_pdf import export_pdf
from aicnet_gui.report.traffic_pages import PDF_SEEDS
from aicnet_gui.traffic import TrafficModel, TrafficParams

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_traffic_page_draws_the_models_link_load_histogram(catalog, tmp_path):
    doc = load_fabric(EXAMPLES / "small-hgx.fabric", catalog)
    out = tmp_path / "plan.pdf"
    export_pdf(doc, out, ExportOptions(sections=("traffic",), labels="none"))
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)

    model = TrafficModel(doc, TrafficParams(seeds=PDF_SEEDS))
    wl_id = sorted(doc.workloads)[0]
    fabric_mode = doc.settings.load_balancing
    shown_mode = "adaptive" if fabric_mode == "flowlet" else fabric_mode
    whole = model.workload(wl_id, (shown_mode,))
    result = whole.modes[shown_mode]
    if result.draws_differ:  # the page pictures ECMP's median draw, as the editor does
        result = model.median_draws(whole)[shown_mode][1]
    carrying = sum(b.links for b in result.histogram)
    assert carrying > 0
    caption = re.search(r"Links by load \((\w+)[^)]*\): ([\d,]+) links carry traffic", text)
    assert caption is not None, text[:2000]
    assert caption.group(1) == shown_mode
    assert int(caption.group(2).replace(",", "")) == carrying
    # every bar's count is printed above it, in bin order, between the caption and the axis
    after = text[caption.end():]
    counts = [int(n.replace(",", "")) for n in re.findall(r"^([\d,]+)$", after, re.M)[:10]]
    assert counts == [b.links for b in result.histogram]


def test_an_ecmp_histogram_of_the_mean_of_equal_draws_says_so(catalog, tmp_path):
    # small-hgx run on static ECMP: its draws give one busBW (no median draw to picture), so
    # the bars are the mean of the PDF's draws, and the caption says it as it did before the
    # histogram learnt to picture the median draw
    doc = load_fabric(EXAMPLES / "small-hgx.fabric", catalog)
    doc.settings.load_balancing = "ecmp"
    model = TrafficModel(doc, TrafficParams(seeds=PDF_SEEDS))
    result = model.workload(sorted(doc.workloads)[0], ("ecmp",)).modes["ecmp"]
    assert result.seeds > 1 and not result.draws_differ
    out = tmp_path / "plan.pdf"
    export_pdf(doc, out, ExportOptions(sections=("traffic",), labels="none"))
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(out).pages).split())
    assert "Links by load (ecmp, mean of the draws):" in text, text[:3000]
    assert "Hottest links (ecmp)" in text


def test_an_ecmp_histogram_whose_draws_differ_is_the_median_draws(catalog, tmp_path):
    # inference-ethernet runs static ECMP and its draws differ: the bars are the median draw's,
    # the draw the hottest links below them come from (the edaab33 merge's resolution)
    doc = load_fabric(EXAMPLES / "inference-ethernet.fabric", catalog)
    assert doc.settings.load_balancing == "ecmp"
    model = TrafficModel(doc, TrafficParams(seeds=PDF_SEEDS))
    whole = model.workload(sorted(doc.workloads)[0], ("ecmp",))
    assert whole.modes["ecmp"].draws_differ
    index, median = model.median_draws(whole)["ecmp"]
    out = tmp_path / "plan.pdf"
    export_pdf(doc, out, ExportOptions(sections=("traffic",), labels="none"))
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    caption = re.search(r"Links by load \(ecmp, its median draw: (\d+) of (\d+)\): ([\d,]+) links",
                        text)
    assert caption is not None, text[:3000]
    assert (int(caption.group(1)), int(caption.group(2))) == (index + 1, PDF_SEEDS)
    assert int(caption.group(3).replace(",", "")) == sum(b.links for b in median.histogram)
    after = text[caption.end():]
    counts = [int(n.replace(",", "")) for n in re.findall(r"^ ?([\d,]+)$", after, re.M)[:10]]
    assert counts == [b.links for b in median.histogram]
