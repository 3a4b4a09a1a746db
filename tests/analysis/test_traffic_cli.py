"""`aicnet traffic` (issue 35): text and JSON per workload and mode, the acceptance sheet as
CSV, failures, bad input with the choices listed (exit 2), and the LOAD-BALANCING rule when the
hardware cannot run the mode asked (the model says which it ran instead)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.cli import main
from aicnet_gui.fileio import save_fabric
from aicnet_gui.generators import TwoTierParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateSettings
from aicnet_gui.traffic import TrafficModel

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SUPERPOD = EXAMPLES / "superpod-1su.fabric"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_has_every_mode_with_busbw_percentiles_time_and_hottest_links(capsys):
    code, out, _ = run(capsys, "traffic", str(SUPERPOD), "--json", "--seeds", "3")
    assert code == 0
    (workload,) = json.loads(out)["workloads"]
    assert workload["id"] == "workload-1" and workload["algorithm"] == "nvls_tree"
    assert set(workload["modes"]) == {"ecmp", "adaptive", "spray"}
    for mode in workload["modes"].values():
        assert {"busbw_gbps", "busbw_p5_gbps", "busbw_p95_gbps", "time_ms",
                "hottest_links"} <= set(mode)
        assert mode["busbw_p5_gbps"] <= mode["busbw_gbps"] <= mode["busbw_p95_gbps"]
        assert mode["hottest_links"][0]["load"] == pytest.approx(1.0)
    # the QM9700 runs adaptive routing, not spraying: the model says so and what it ran
    spray = workload["modes"]["spray"]
    assert spray["runs"] == ["adaptive"]
    assert any("not packet spraying: they run adaptive routing" in n for n in spray["notes"])


def test_one_mode_text_and_the_acceptance_sheet_as_csv(capsys, tmp_path):
    out_csv = tmp_path / "acceptance.csv"
    code, out, _ = run(capsys, "traffic", str(SUPERPOD), "--mode", "ecmp", "--seeds", "2",
                       "--acceptance-csv", str(out_csv))
    assert code == 0
    assert "ecmp: busBW" in out and "adaptive:" not in out
    assert "all_reduce_perf busBW" in out and f"acceptance sheet written: {out_csv}" in out
    rows = list(csv.DictReader(out_csv.open()))
    # 14 sizes (1 MiB .. 8 GiB) x (1 node, 1 SU); the workload is the SU
    assert len(rows) == 28 and {r["job"] for r in rows} == {"1 node", "1 SU"}
    assert rows[0]["bytes"] == "1048576" and rows[-1]["bytes"] == str(8 * 2 ** 30)
    one_node_8g = next(r for r in rows if r["job"] == "1 node" and r["bytes"] == str(8 * 2 ** 30))
    assert one_node_8g["allreduce_algorithm"] == "nvls"
    assert float(one_node_8g["allreduce_busbw_GBps"]) == pytest.approx(480, rel=0.1)


def test_unknown_workload_and_mode_are_refused_with_the_choices(capsys):
    code, _, err = run(capsys, "traffic", str(SUPERPOD), "--workload", "nope")
    assert code == 2
    assert "no workload 'nope'" in err and "workload-1 (training (all servers))" in err
    with pytest.raises(SystemExit) as exc:
        main(["traffic", str(SUPERPOD), "--mode", "flowlets"])
    assert exc.value.code == 2
    assert "invalid choice: 'flowlets' (choose from 'ecmp', 'adaptive', 'spray')" in \
        capsys.readouterr().err


def test_a_failed_leaf_is_part_of_the_graph(capsys):
    code, out, _ = run(capsys, "traffic", str(SUPERPOD), "--json", "--mode", "adaptive",
                       "--fail", "leaf-03")
    assert code == 0
    (workload,) = json.loads(out)["workloads"]
    adaptive = workload["modes"]["adaptive"]
    # rail 3's NICs lost their links: NCCL runs on the 7 NICs left (the what-if's figure:
    # NVLS tree, 7 channels of 45.5 GB/s, tests/change/test_whatif.py)
    assert adaptive["time_ms"] == pytest.approx(
        (234 + 1.024e9 / (1000 * 7 * 45.5 * 256 / 510)) / 1000, abs=1e-3)
    assert 0 < adaptive["busbw_gbps"] / 8 < 349.4  # the intact design's NVLS tree busBW
    code, _, err = run(capsys, "traffic", str(SUPERPOD), "--fail", "no-such-thing")
    assert code == 2 and "no-such-thing" in err


# ---------------------------------------------------------------- LOAD-BALANCING
@pytest.fixture
def dgx_on_spectrum(catalog) -> FabricDocument:
    """8 DGX H100 (ConnectX-7) on SN5600 (Spectrum-4) leaves and spines, RoCEv2."""
    doc = FabricDocument(catalog)
    generate(doc, TwoTierParams(servers=8, server="nvidia-dgx-h100", leaf="nvidia-sn5600",
                                spine="nvidia-sn5600", technology="rocev2"))
    return doc


def test_the_generator_sets_the_mode_its_hardware_runs(catalog, dgx_on_spectrum):
    # RoCEv2 starts from adaptive routing (model/network_defaults.py); a generated design is
    # set to the best mode its switches and NICs run, not flagged for its own setting:
    # ConnectX-7 does not reorder and the SN5600 documents no flowlets -> static ECMP; the
    # Cisco N9364E-SG2 documents flowlets -> flowlets; BlueField-3 on SN5600 -> adaptive
    assert dgx_on_spectrum.settings.load_balancing == "ecmp"
    assert not analyze(dgx_on_spectrum).by_code("LOAD-BALANCING")
    for server, leaf, mode in (("nvidia-dgx-h100", "cisco-n9364e-sg2-o", "flowlet"),
                               ("generic-hgx-8-gpu-b3140h", "nvidia-sn5600", "adaptive")):
        doc = FabricDocument(catalog)
        result = generate(doc, TwoTierParams(servers=8, server=server, leaf=leaf,
                                             technology="rocev2"))
        assert doc.settings.load_balancing == mode, (server, leaf)
        assert not analyze(doc).by_code("LOAD-BALANCING")
        assert any(n.startswith("load balancing:") for n in result.notes) == (mode != "adaptive")


def test_per_packet_modes_need_nics_that_reorder_on_ethernet(dgx_on_spectrum):
    doc = dgx_on_spectrum
    doc.apply([UpdateSettings({"load_balancing": "adaptive"})])  # asked for by hand
    findings = analyze(doc).by_code("LOAD-BALANCING")
    messages = [f.message for f in findings]
    # ConnectX-7 is not a Spectrum-X NIC: no per-packet AR; flowlets, which the SN5600 does not
    # document either: static ECMP
    assert any("nvidia-dgx-h100" in m and "out of order" in m for m in messages)
    assert any("not flowlet load balancing (what the NICs allow): they run static ECMP hashing"
               in m for m in messages)
    assert all(f.severity == "warning" for f in findings)
    (wl_id,) = doc.workloads
    adaptive = TrafficModel(doc).workload(wl_id, ("adaptive",)).modes["adaptive"]
    assert adaptive.runs == ("ecmp",) and adaptive.notes


def test_a_mode_the_switch_model_does_not_document_falls_back_and_can_be_fixed(catalog):
    doc = FabricDocument(catalog)
    generate(doc, TwoTierParams(servers=8, server="generic-hgx-8-gpu-b3140h", leaf="nvidia-sn5600",
                                spine="nvidia-sn5600", technology="rocev2"))  # BlueField-3
    assert not analyze(doc).by_code("LOAD-BALANCING")
    doc.apply([UpdateSettings({"load_balancing": "spray"})])
    (finding,) = analyze(doc).by_code("LOAD-BALANCING")
    assert "documented for static ECMP hashing, adaptive routing, not packet spraying" in \
        finding.message and "they run adaptive routing" in finding.message
    doc.apply(list(finding.fix.ops))
    assert doc.settings.load_balancing == "adaptive"
    assert not analyze(doc).by_code("LOAD-BALANCING")


def test_a_switch_whose_modes_the_catalog_does_not_state_is_a_note(catalog):
    doc = FabricDocument(catalog)
    generate(doc, TwoTierParams(servers=8, server="generic-hgx-8-gpu-b3140h",
                                leaf="arista-7060x6-64pe", spine="arista-7060x6-64pe",
                                technology="rocev2"))
    (finding,) = analyze(doc).by_code("LOAD-BALANCING")
    assert finding.severity == "info"
    assert "does not state which load-balancing modes arista-7060x6-64pe runs" in finding.message


def test_the_traffic_command_reads_a_saved_design(capsys, tmp_path, dgx_on_spectrum):
    path = tmp_path / "d.fabric"
    save_fabric(dgx_on_spectrum, path)
    code, out, _ = run(capsys, "traffic", str(path), "--mode", "spray", "--seeds", "2")
    assert code == 0 and "switches run static ECMP hashing" in out and "note:" in out


def test_the_one_call_api_gives_loads_by_link_id_progress_and_cancel(catalog):
    """What the canvas layer and the Workloads dock histogram call (in a worker thread)."""
    from aicnet_gui.fileio.fabric_file import load_fabric
    from aicnet_gui.traffic import Cancelled, traffic_for

    doc = load_fabric(EXAMPLES / "superpod-4su.fabric", catalog)
    seen = []
    result = traffic_for(doc, "workload-1", "ecmp", progress=lambda f, t: seen.append(f))
    assert set(result.link_load) == set(doc.links)  # every fabric link, by id
    assert max(result.link_load.values()) == pytest.approx(1.0)
    assert sum(b.links for b in result.histogram) == sum(v > 0 for v in result.link_load.values())
    assert seen[-1] == 1.0 and seen == sorted(seen)
    calls = []
    with pytest.raises(Cancelled):
        traffic_for(doc, "workload-1", "ecmp", cancel=lambda: calls.append(1) or len(calls) > 2)


def test_the_acceptance_sheet_export_call(catalog, tmp_path):
    """The writer an export registry calls (traffic/acceptance.export_acceptance_csv)."""
    from aicnet_gui.fileio.fabric_file import load_fabric
    from aicnet_gui.traffic.acceptance import export_acceptance_csv

    doc = load_fabric(SUPERPOD, catalog)
    out = tmp_path / "sheet.csv"
    assert export_acceptance_csv(doc, out) == 28
    assert out.read_text().splitlines()[0].startswith("workload,job,servers,gpus,bytes")


def test_ecmp_names_the_hot_uplinks_of_its_median_draw(capsys, tmp_path, catalog):
    # 64 HGX on top-of-rack leaves at 2:1, static ECMP: the all-reduce crosses the spines and
    # in any one hash some uplink is full while others idle.  The mean over the draws evens
    # that out (every NIC link looks hottest); the median draw names the full uplink, as the
    # editor's traffic layer does (editing/traffic_run.py)
    doc = FabricDocument(catalog)
    generate(doc, TwoTierParams(servers=64, oversubscription=2.0, attach="tor",
                                server="generic-hgx-8-gpu-b3140h", leaf="cisco-n9364e-sg2-o",
                                technology="rocev2"))
    doc.apply([UpdateSettings({"load_balancing": "ecmp"})])
    path = tmp_path / "tor.fabric"
    save_fabric(doc, path)
    code, out, _ = run(capsys, "traffic", str(path), "--mode", "ecmp", "--seeds", "8", "--json")
    assert code == 0
    ecmp = json.loads(out)["workloads"][0]["modes"]["ecmp"]
    assert ecmp["hottest_links"][0]["load"] < 1.0  # the mean of the draws
    median = ecmp["median_draw"]
    assert 0 <= median["draw"] < 8
    top = median["hottest_links"][0]
    assert top["load"] == pytest.approx(1.0)
    assert "leaf-" in top["name"] and "spine-" in top["name"]  # an uplink, not a NIC
    code, out, _ = run(capsys, "traffic", str(path), "--mode", "ecmp", "--seeds", "8")
    assert code == 0
    assert f"in the median draw (draw {median['draw'] + 1} of 8" in out
    assert f"hot: {top['name']}  100% of 400 Gb/s" in out
