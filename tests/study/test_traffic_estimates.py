"""The study's all-reduce by load-balancing mode (issue 37: "once the traffic issue lands, its
load-balancing modes too"): each candidate carries the traffic model's estimate per mode, the
same as the traffic model gives on the candidate's own file."""

from __future__ import annotations

from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.fabric import Requirement
from aicnet_gui.study import Study, run_study
from aicnet_gui.study.comparison_text import render
from aicnet_gui.study.traffic_estimates import SEEDS
from aicnet_gui.traffic import TrafficModel, TrafficParams


def test_a_top_of_rack_candidate_shows_what_static_ecmp_costs(catalog, tmp_path):
    # 64 HGX on top-of-rack Cisco leaves at 2:1: the all-reduce crosses the spines; under
    # static ECMP hashing flows collide there, under the fabric's adaptive setting (flowlets on
    # these switches) they do not
    requirement = Requirement(servers=64, server="generic-hgx-8-gpu-b3140h",
                              leaves=["cisco-n9364e-sg2-o"],
                              sweep={"layouts": ["tor"], "oversubscription": [2]})
    result = run_study(Study.prepare(requirement, catalog), tmp_path, workers=0)
    (candidate,) = result.candidates
    (workload,) = candidate.metrics.workloads
    by_model = {e.model.split(" ")[1]: e for e in workload.estimates if e.model.startswith("traffic")}
    assert set(by_model) == {"ecmp", "adaptive"}
    assert by_model["ecmp"].allreduce_ms > 1.2 * by_model["adaptive"].allreduce_ms
    # the numbers are the traffic model's on the candidate's file
    doc = load_fabric(candidate.file, catalog)
    again = TrafficModel(doc, TrafficParams(seeds=SEEDS)).workload(workload.id, ("ecmp",))
    assert by_model["ecmp"].allreduce_ms == round(again.modes["ecmp"].time_ms, 4)
    text = "\n".join(render(result, catalog))
    assert "all-reduce by load balancing" in text and f"{candidate.name}: ecmp " in text
    assert f"; even spread {workload.allreduce_ms:.2f} ms" in text


def test_one_mode_that_differs_from_the_analysis_is_said_too(catalog, tmp_path):
    # DGX H100 (ConnectX-7) on SN5600 top-of-rack leaves at 2:1: the generator sets static
    # ECMP (the only mode this hardware runs); its traffic differs from the analysis' even
    # spread, and the study says so although there is no second mode to set it against
    requirement = Requirement(servers=64, leaves=["nvidia-sn5600"],
                              sweep={"layouts": ["tor"], "oversubscription": [2]})
    result = run_study(Study.prepare(requirement, catalog), tmp_path, workers=0)
    (candidate,) = result.candidates
    modes = [e.model for e in candidate.metrics.workloads[0].estimates if e.model.startswith("traffic")]
    assert len(modes) == 1 and modes[0].startswith("traffic: ecmp")
    assert f"  {candidate.name}: ecmp " in "\n".join(render(result, catalog))


def test_the_comparison_pdf_says_it_too(catalog, tmp_path):
    from pypdf import PdfReader

    from aicnet_gui.report.compare_pdf import comparison_pdf

    requirement = Requirement(servers=64, server="generic-hgx-8-gpu-b3140h",
                              leaves=["cisco-n9364e-sg2-o"],
                              sweep={"layouts": ["tor"], "oversubscription": [2]})
    result = run_study(Study.prepare(requirement, catalog), tmp_path, workers=0)
    path = tmp_path / "c.pdf"
    path.write_bytes(comparison_pdf(result, requirement, catalog))
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(path).pages)
    assert "All-reduce by load balancing" in text and "ecmp" in text and "adaptive" in text
