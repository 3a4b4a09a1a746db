"""`aicnet whatif`: failures against a copy of the design, per-GPU impact, max-flow, sweeps."""

from __future__ import annotations

import json

import pytest

from aicnet_gui.change.failures import FailureError, resolve
from aicnet_gui.change.sweep import sweep
from aicnet_gui.change.whatif import WhatIf, what_if
from aicnet_gui.cli import main
from aicnet_gui.model.edits import RemoveWorkload
from tests.doc_edits import remove_link, update_link
from tests.graph_oracle import bisection_maxflow


def test_leaf_failure_in_one_su_hand_checked(example):
    """superpod-1su: 32 DGX H100 (8 GPUs, 8 x 400G NICs p1..p8, GPU i's NIC -> leaf i), 8 QM9700
    rail leaves, 4 spines; one training workload over all 256 GPUs, ring all-reduce of 1024 MB, IB.

    leaf-03 fails: it carries rail 3, the third GPU (NVIDIA's GPU 2), whose NIC is OSFP3P1 = p5
    (DGX H100 User Guide, Table 6).  NIC p5 of every server loses its only link, so GPU 3 of
    each of the 32 servers loses all paths: 32 GPUs.  The other 224 GPUs keep 400 Gb/s (their leaves and the
    spines are untouched; ring traffic is rail-aligned and stays on its leaf).
    Per-GPU injection of the workload = 224 NICs x 400 / 256 GPUs = 350 Gb/s (was 400).
    Max-flow bisection, the worst of two cuts: the servers in halves (rail-aligned), 16 servers
    per half, each now with 7 x 400 = 2,800 Gb/s of NICs: 16 x 2,800 = 44,800 Gb/s (was 16 x
    3,200 = 51,200); every server's GPUs in halves by rail (cross-rail: rails 1-4 against 5-8,
    rail 3 dead), 32 servers x 3 live NICs x 400 = 38,400 Gb/s on the first side: 38,400.
    All-reduce: NCCL's choice, the NVLS tree over M = 32 NVLink domains (nccl_tuning.py,
    tuning.cc): one channel per NIC at min(48 x .85 x 7/8 x 2, 48, 45.5) = 45.5 GB/s, algBW
    channels x 45.5 x 256/510, latency 25 + 2 log2(32) x 20.9 = 234 us: with 8 NICs 5.84 ms,
    with the 7 left 6.64 ms.  The servers still reach each
    other through their other 7 NICs: no partition.
    """
    doc = example("superpod-1su")
    result = what_if(doc, resolve(doc, ["leaf-03"]))
    assert result.links == 64
    (w,) = result.workloads
    assert w.gpus == 256
    assert len(w.lost) == 32
    assert {(g.gpu, g.ports) for g in w.lost} == {(3, ("p5",))}
    assert {g.server for g in w.lost} == {f"gpu-{n:03d}" for n in range(1, 33)}
    assert all(g.before_gbps == 400 and g.after_gbps == 0 for g in w.lost)
    assert w.reduced == ()
    assert (w.before.per_gpu_gbps, w.after.per_gpu_gbps) == (400, 350)
    assert (w.before.rail_aligned_gbps, w.after.rail_aligned_gbps) == (51200, 44800)
    assert (w.before.cross_rail_gbps, w.after.cross_rail_gbps) == (51200, 38400)
    assert (w.before.bisection_gbps, w.after.bisection_gbps) == (51200, 38400)
    assert w.before.allreduce_ms == pytest.approx(
        (234 + 1.024e9 / (1000 * 8 * 45.5 * 256 / 510)) / 1000, abs=1e-4)
    assert w.after.allreduce_ms == pytest.approx(
        (234 + 1.024e9 / (1000 * 7 * 45.5 * 256 / 510)) / 1000, abs=1e-4)
    assert not w.partitioned and not result.partitioned


def test_spine_failure_halves_an_oversubscribed_leafs_uplinks(example):
    """inference-ethernet: 4 ToR leaves (12 servers x 8 NICs down, 32 links up: 16 to each of 2
    spines), all-to-all.  The leaf is the bottleneck; losing one spine halves every leaf's
    uplink bandwidth, so every one of the 384 GPUs drops to half its bandwidth."""
    doc = example("inference-ethernet")
    (w,) = what_if(doc, resolve(doc, ["spine-01"])).workloads
    assert not w.lost
    assert len(w.reduced) == 384
    assert all(g.after_gbps == pytest.approx(g.before_gbps / 2, rel=1e-4) for g in w.reduced)
    assert w.after.per_gpu_gbps == pytest.approx(w.before.per_gpu_gbps / 2, rel=1e-4)
    assert w.after.bisection_gbps == w.before.bisection_gbps / 2


def test_the_users_document_is_never_changed(example):
    doc = example("superpod-1su")
    revision, links = doc.revision, dict(doc.links)
    engine = WhatIf(doc)
    engine.run(resolve(doc, ["leaf-01", "spine-02"]))
    sweep(doc, "leaf", engine=engine)
    assert doc.revision == revision and doc.links == links
    # and the engine's own copy is whole again after a sweep
    assert set(engine.copy.links) == set(links)


def test_maxflow_matches_graph_bisection_on_the_failed_design(example):
    doc = example("inference-ethernet")
    failure = resolve(doc, ["spine-01", "link-1"])
    (w,) = what_if(doc, failure).workloads
    failed = doc.snapshot()
    for link_id in failure.links:
        remove_link(failed, link_id)
    members = doc.workloads["workload-1"].members
    assert w.after.bisection_gbps == bisection_maxflow(failed, members)
    assert w.before.bisection_gbps == bisection_maxflow(doc, members)


def test_a_server_cut_off_partitions_its_workload(example):
    doc = example("small-hgx")
    result = what_if(doc, resolve(doc, ["gpu-001"]))
    (w,) = result.workloads
    assert w.partitioned and w.after.groups == 2
    assert len(w.lost) == 8


def test_failure_tokens(example):
    doc = example("superpod-1su")
    cage_one = {doc.link_at("leaf-01", p.name).id for p in doc.ports("leaf-01").values()
                if p.cage == 1}
    assert len(cage_one) == 2  # a twin-port optic serves two links
    assert resolve(doc, ["optic:leaf-01:1"]).links == cage_one
    rail = resolve(doc, ["rail:3"]).links
    assert rail and rail == {i for i, lk in doc.links.items() if lk.rail == 3}
    update_link(doc, next(iter(rail)), rail=None)  # an untagged link is in no rail
    assert resolve(doc, ["rail:3"]).links == rail - {next(iter(rail))}
    with pytest.raises(FailureError, match="nope"):
        resolve(doc, ["nope"])
    with pytest.raises(FailureError, match="cage 99"):
        resolve(doc, ["optic:leaf-01:99"])


@pytest.mark.parametrize(("name", "kind"), [("superpod-4su", "leaf"), ("inference-ethernet", "spine"),
                                            ("small-hgx", "cable")])
def test_structural_classes_give_the_exact_sweep(example, name, kind):
    doc = example(name)

    def numbers(result):  # what a sweep reports for a failure (copied results name no GPUs)
        return (result.failure.label, result.impact_key(),
                [(w.after.per_gpu_gbps, w.after.bisection_gbps, w.after.allreduce_ms, len(w.lost),
                  len(w.reduced)) for w in result.workloads])

    fast, exact = sweep(doc, kind), sweep(doc, kind, exact=True)
    assert fast.classes < len(fast.entries)
    assert [numbers(e.result) for e in fast.entries] == [numbers(e.result) for e in exact.entries]


def test_sweep_ranks_the_worst_first(example):
    doc = example("small-hgx")
    result = sweep(doc, "cable")
    keys = [e.result.impact_key() for e in result.entries]
    assert keys == sorted(keys, reverse=True)
    assert sum(len(e.result.failure.links) for e in result.entries) == len(doc.links)


def test_cli_whatif(example, tmp_path, capsys):
    path = "examples/superpod-1su.fabric"
    assert main(["whatif", path, "--fail", "leaf-03", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["gpus_lost_all_paths"] == 32 and data["links_down"] == 64
    assert main(["whatif", path, "--each", "leaf", "--json", "--top", "0"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["failures"] == 8 and len(data["ranked"]) == 8 and data["any_partition"] is False
    assert main(["whatif", path, "--fail", "leaf-99"]) == 2
    assert "leaf-99" in capsys.readouterr().err
    assert main(["whatif", path]) == 2


def test_design_report_has_the_resilience_table(example, tmp_path):
    from pypdf import PdfReader

    from aicnet_gui.report.options import ExportOptions
    from aicnet_gui.report.plan_pdf import export_pdf
    from aicnet_gui.report.resilience_table import resilience_rows

    doc = example("superpod-1su")
    rows, partition = resilience_rows(doc)
    assert [r[0] for r in rows] == ["single leaf", "single spine", "single cable"]
    leaf = rows[0]
    assert leaf[1:6] == ["8", "leaf-01", "no", "32", "0"]  # as the hand-checked leaf failure
    assert partition is False
    out = tmp_path / "design.pdf"
    export_pdf(doc, out, ExportOptions(sections=("design",)))
    text = "\n".join(p.extract_text() for p in PdfReader(out).pages)
    assert "Resilience (single failures)" in text
    assert "single leaf 8 leaf-01 no 32" in text
    assert "A single failure partitions a workload: no." in text
    doc.apply([RemoveWorkload(w) for w in list(doc.workloads)])
    assert resilience_rows(doc) == ([], False)


def test_the_all_reduce_runs_at_the_pace_of_the_slowest_server(example):
    """superpod-1su, one NIC cable of gpu-001 fails.  The mean per-GPU bandwidth hardly moves:
    (255 x 400) / 256 = 398.4 Gb/s.  But a ring all-reduce moves in lock step, every step
    waiting for its slowest rank: gpu-001's 8 GPUs now share 7 x 400 Gb/s = 350 Gb/s each, so
    the collective runs as when every server had lost a NIC (leaf-03 above): 6.639 ms (NCCL's
    NVLS tree at 350 / 400 of its modelled rate), not the 5.84 ms of the intact design."""
    doc = example("superpod-1su")
    (cable,) = [i for i, lk in doc.links.items() if ("gpu-001", "p8") in (lk.a, lk.b)]
    (w,) = what_if(doc, resolve(doc, [cable])).workloads
    assert w.after.per_gpu_gbps == pytest.approx(398.4375, abs=1e-3)
    assert (w.after.slowest_server, w.after.slowest_gbps) == ("gpu-001", 350.0)
    assert w.after.allreduce_ms == pytest.approx(
        (234 + 1.024e9 / (1000 * 8 * 45.5 * 256 / 510 * 350 / 400)) / 1000, abs=1e-4)
    assert w.before.allreduce_ms == pytest.approx(5.8384, abs=1e-4)  # intact: the analysis' own
    whole_rail = what_if(doc, resolve(doc, ["leaf-03"])).workloads[0]
    assert whole_rail.after.allreduce_ms == w.after.allreduce_ms


def test_a_cable_fails_with_every_link_it_carries(example):
    """small-hgx: leaf-01's uplinks c033 and c034 are the two legs of one twin-port DAC
    (assembly dac-01): pulling that cable takes both down, and the cable sweep counts physical
    cables (16 twin DACs carry 32 of the 64 links: 48 cables)."""
    doc = example("small-hgx")
    assert what_if(doc, resolve(doc, ["c033"])).links == 2
    result = sweep(doc, "cable")
    assert len(result.entries) == 48
    assert any(e.result.failure.links == {"c033", "c034"} for e in result.entries)


def test_a_copied_sweep_result_names_no_other_failures_server(example):
    """A result the sweep copies from another failure of its class keeps that failure's
    numbers, not the names in them: no lost GPUs, no pacing server of the other failure."""
    doc = example("small-hgx")
    copied = [e.result for e in sweep(doc, "cable").entries if e.result.like]
    assert copied
    for result in copied:
        for workload in result.to_json()["workloads"]:
            assert "lost" not in workload and "slowest_server" not in workload["after"]
