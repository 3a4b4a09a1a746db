"""The incremental analysis returns what a full run returns, after any sequence of edits; a
failing rule becomes one INTERNAL-ERROR finding and the other rules still run."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import two_leaf_fabric
from edits import KINDS, KINDS_2026, MORE_KINDS, apply_random

from aicnet_gui.analysis import Analyzer, Rule, analyze
from aicnet_gui.analysis.engine import DEFAULT_RULES, SIGNATURE_RULES
from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.edits import ChangeSet
from tests.doc_edits import add_device, remove_link, update_device, update_link, update_settings

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "small-hgx.fabric"


def _first_difference(a: dict, b: dict) -> str:
    fa = [(f["code"], f["objects"], f["message"]) for f in a["findings"]]
    fb = [(f["code"], f["objects"], f["message"]) for f in b["findings"]]
    only_a = [x for x in fa if x not in fb][:3]
    only_b = [x for x in fb if x not in fa][:3]
    if only_a or only_b:
        return f"incremental only: {only_a}; full only: {only_b}"
    for key in a["metrics"]:
        if a["metrics"][key] != b["metrics"][key]:
            return f"metrics.{key} differ"
    return "fixes differ"


def edit_batches(doc, rng: random.Random, steps: int, make_edit, batch: int = 1,  # noqa: ANN001
                 undo_share: float = 0.3):  # noqa: ANN201
    """(step, ChangeSet) for `steps` steps of up to `batch` edits each: `make_edit(doc, rng)`
    (an applied edit or None) or, with probability `undo_share`, the undo of an earlier one;
    steps that changed nothing are skipped."""
    undo: list = []
    for step in range(steps):
        changes = ChangeSet()
        for _ in range(rng.randint(1, batch)):
            if undo and rng.random() < undo_share:
                edit = doc.apply(undo.pop())
            else:
                edit = make_edit(doc, rng)
                if edit is None:
                    continue
                undo.append(edit.inverse)
            changes.merge(edit.changes)
        if changes:
            yield step, changes


def assert_update_equals_full(analyzer: Analyzer, doc, changes: ChangeSet, where: str):  # noqa: ANN001, ANN201
    """The incremental update after `changes`, checked against a full run of `doc`."""
    incremental = analyzer.update(changes)
    full = Analyzer(doc).full()
    assert incremental == full, (
        f"{where}: {_first_difference(incremental.to_json(), full.to_json())}")
    return incremental


def run_random_edits(doc, seed: int, steps: int, kinds: tuple[str, ...] = KINDS,
                     batch: int = 1) -> int:
    """Random edits (and undos), each followed by an update compared with a full run; with
    `batch` > 1, up to that many edits merge into one ChangeSet first (as the live validator
    merges the edits of one debounce interval)."""
    rng = random.Random(seed)
    analyzer = Analyzer(doc)
    analyzer.full()
    checked = 0
    for step, changes in edit_batches(doc, rng, steps, lambda d, r: apply_random(d, r, kinds), batch):
        assert_update_equals_full(analyzer, doc, changes, f"seed {seed} step {step}")
        checked += 1
    return checked


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_incremental_equals_full_on_random_edits_of_the_example(catalog, seed):
    doc = load_fabric(EXAMPLE, catalog)
    assert run_random_edits(doc, seed, 120) > 80


@pytest.mark.parametrize("seed", [7, 12])  # 12: a leaf turned spine moves the SM fix's pick
def test_incremental_equals_full_on_random_edits_of_a_rail_optimized_fabric(catalog, seed):
    from fabric_builder import build_rail_optimized

    doc = build_rail_optimized(catalog, 128)
    assert run_random_edits(doc, seed, 60) > 40


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_incremental_equals_full_when_devices_are_added_and_wired(catalog, seed):
    doc = load_fabric(EXAMPLE, catalog)
    assert run_random_edits(doc, seed, 100, kinds=MORE_KINDS) > 70


@pytest.mark.parametrize("seed", [31, 32])
def test_incremental_equals_full_on_edits_merged_into_one_change_set(catalog, seed):
    doc = load_fabric(EXAMPLE, catalog)
    assert run_random_edits(doc, seed, 60, kinds=MORE_KINDS, batch=4) > 40


def test_incremental_equals_full_on_merged_edits_of_a_rail_optimized_fabric(catalog):
    from fabric_builder import build_rail_optimized

    doc = build_rail_optimized(catalog, 128)
    assert run_random_edits(doc, 41, 30, kinds=MORE_KINDS, batch=3) > 20


@pytest.mark.parametrize("seed", [51, 52, 53])
def test_incremental_equals_full_on_a_two_plane_fabric_with_cpo_and_liquid_racks(catalog, seed):
    """The 2026 rules (PLANE-UNBALANCED, PORTS-IDLE, RACK-COOLING, RACK-POWER-FEED) after random
    edits of a two-plane B300 fabric with a Quantum-X Photonics switch and NVL72 trays in its
    racks, racks stating cooling and feeds: incremental == full."""
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.model.document import FabricDocument
    from aicnet_gui.model.edits import UpdateRack
    from aicnet_gui.model.fabric import Device

    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, nodes_per_su=8, server="nvidia-dgx-b300",
                                      leaf="nvidia-sn5610", planes=2))
    racks = sorted(doc.racks)
    add_device(doc, Device(id="cpo", name="cpo-1", model="nvidia-q3450-ld", rack=racks[0], ru=1))
    add_device(doc, Device(id="tray", name="tray-1", model="nvidia-gb300-nvl72-compute-tray",
                           rack=racks[-1], ru=1))
    doc.apply([UpdateRack(racks[0], {"cooling": "air", "power_feeds": ["ac"]}),
               UpdateRack(racks[-1], {"cooling": "liquid", "power_feeds": ["dc-busbar"]})])
    assert run_random_edits(doc, seed, 60, kinds=KINDS_2026) > 40


def test_update_reads_a_snapshot_and_never_writes_the_document(build):
    two_leaf_fabric(build)
    build.workload("train", ["gpu-1", "gpu-2", "gpu-3", "gpu-4"])
    live = build.doc
    analyzer = Analyzer(live.snapshot())
    first = analyzer.full()
    before = live.revision
    edit = remove_link(live, "u10")
    report = analyzer.update(edit.changes, doc=live.snapshot())
    assert live.revision == before + 1  # only our own edit
    assert report == analyze(live) and report != first
    assert report.revision == live.revision


def test_reports_do_not_change_when_the_analyzer_moves_on(build):
    two_leaf_fabric(build)
    analyzer = Analyzer(build.doc)
    first = analyzer.full()
    snapshot = first.to_json()
    analyzer.update(update_link(build.doc, "s11", length_m=70.0).changes)
    assert first.to_json() == snapshot
    assert first.metrics.reach.links["s11"]["manual"] is False


def _boom(state, key):
    raise RuntimeError("boom")
    yield  # pragma: no cover - makes this a generator like the real rules


def test_a_raising_rule_becomes_an_internal_error_and_the_others_still_run(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)
    update_settings(build.doc, pfc=False, ecn=False)
    rules = [*DEFAULT_RULES, Rule("exploding", "device", _boom)]
    report = Analyzer(build.doc, rules=rules).full()
    (internal,) = report.by_code("INTERNAL-ERROR")
    assert "the rule 'exploding' failed on 8 objects (RuntimeError: boom" in internal.message
    assert set(internal.objects) == set(build.doc.devices)
    assert report.by_code("ROCE-NO-PFC-ECN") and report.by_code("OVERSUBSCRIBED")


def test_a_raising_compatibility_rule_reports_its_links(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)

    def fragile(ctx):
        if ctx.cable is not None and ctx.cable.type == "DAC":
            raise KeyError("no such thing")
        return []

    analyzer = Analyzer(build.doc, signature_rules=[*SIGNATURE_RULES, ("fragile", fragile)])
    report = analyzer.full()
    (internal,) = report.by_code("INTERNAL-ERROR")
    assert "'fragile' failed on 16 objects" in internal.message  # the 16 DAC uplinks
    # still reported after an edit elsewhere, and gone when the link is removed
    report = analyzer.update(remove_link(build.doc, "u10").changes)
    (internal,) = report.by_code("INTERNAL-ERROR")
    assert "failed on 15 objects" in internal.message


def test_renaming_the_bottleneck_switch_renames_it_in_the_metrics(build):
    two_leaf_fabric(build, uplinks_per_leaf=8)
    build.workload("train", ["gpu-1", "gpu-2", "gpu-3", "gpu-4"], pattern="all-to-all",
                   target_gbps_per_gpu=400)
    analyzer = Analyzer(build.doc)
    assert analyzer.full().metrics.workloads[0].bottleneck_name == "leaf-1"
    report = analyzer.update(update_device(build.doc, "leaf-1", name="leaf-A").changes)
    assert report.metrics.workloads[0].bottleneck_name == "leaf-A"
    assert "at leaf-A" in report.by_code("WORKLOAD-BANDWIDTH")[0].message
    assert report == analyze(build.doc)


@pytest.mark.parametrize("example", ["small-hgx", "roce-enterprise"])
def test_moving_devices_within_their_racks_equals_full_runs(catalog, example):
    """A device moved to another RU of its rack changes only its links' lengths: the far ends
    are not re-checked (Delta.lengths_only), so the findings must still equal a full run; the
    examples' splitter assemblies and DACs make many of these moves change findings."""
    doc = load_fabric(EXAMPLE.parent / f"{example}.fabric", catalog)
    analyzer = Analyzer(doc)
    before = analyzer.full()
    rng = random.Random(7)
    placed = sorted(d for d in doc.devices if doc.devices[d].ru is not None)
    changed = 0
    for step in range(40):
        device = rng.choice(placed)
        try:
            edit = update_device(doc, device, ru=rng.randint(1, 45))
        except ValueError:
            continue  # the RUs are taken
        incremental = analyzer.update(edit.changes)
        full = Analyzer(doc).full()
        assert incremental == full, (
            f"step {step}: {_first_difference(incremental.to_json(), full.to_json())}")
        changed += [f.message for f in incremental.findings] != [f.message for f in before.findings]
        before = incremental
    assert changed >= 10  # the moves did reach findings
