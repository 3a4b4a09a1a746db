"""Rewiring between switches keeps the incremental analysis equal to a full run (the oracle),
and every memoized ECMP reach equal to a fresh one: refresh.ecmp_peers keeps a memo entry when
analysis/ecmp_reach.ReachCheck says the edit left it alone, so a wrong answer there leaves a
stale entry (and, sooner or later, a missing or extra ECMP-IMBALANCE finding).

The edits: every cable between a lower and an upper switch removed at once (the lower one loses
that upper switch), two uplinks trading upper switches, undos of either, several merged into one
ChangeSet; on a two-tier rail-optimized fabric (leaf-spine) and a generated three-tier one
(leaf-spine-core), with the memo filled for every switch first (as a full run fills it when
many switches are ECMP candidates).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import two_leaf_fabric
from test_incremental import assert_update_equals_full, edit_batches

from aicnet_gui.analysis import Analyzer
from aicnet_gui.analysis.bandwidth import WorkloadModel
from aicnet_gui.analysis.rules_device import expected_uppers
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument, ModelError
from aicnet_gui.model.edits import AddLink, RemoveLink, UpdateDevice
from aicnet_gui.model.fabric import Link


def _three_tier(catalog) -> FabricDocument:
    doc = FabricDocument(catalog)
    # one SU per leaf: 32 leaves in 2 pods of 2 SUs (a leaf carrying 4 SUs of 8 would make
    # one pod, whose cores each link one spine: refused)
    generate(doc, RailOptimizedParams(sus=4, nodes_per_su=8, tiers="3", sus_per_pod=2,
                                      sus_per_leaf=1))
    return doc


def _two_tier(catalog) -> FabricDocument:
    from fabric_builder import build_rail_optimized

    return build_rail_optimized(catalog, 128)


def _uplinks(doc: FabricDocument) -> dict[tuple[str, str], list[str]]:
    """(lower switch, upper switch) -> the ids of the cables between them."""
    pairs: dict[tuple[str, str], list[str]] = {}
    for link_id in sorted(doc.links):
        link = doc.links[link_id]
        a, b = link.a.device, link.b.device
        ta, tb = doc.tier_of(a), doc.tier_of(b)
        if min(ta, tb) >= 1 and ta != tb:
            pairs.setdefault((a, b) if ta < tb else (b, a), []).append(link_id)
    return pairs


def _upper_end(doc: FabricDocument, link: Link) -> str:
    return "b" if doc.tier_of(link.b.device) > doc.tier_of(link.a.device) else "a"


def _rewire(doc: FabricDocument, rng: random.Random) -> list:
    pairs = _uplinks(doc)
    if not pairs:
        return []
    if len(pairs) < 2 or rng.random() < 0.5:  # the lower switch loses this upper switch
        return [RemoveLink(i) for i in pairs[rng.choice(sorted(pairs))]]
    # two uplinks of the same tiers trade their upper switches
    x_pair, y_pair = rng.sample(sorted(pairs), 2)
    x, y = doc.links[rng.choice(pairs[x_pair])], doc.links[rng.choice(pairs[y_pair])]
    sx, sy = _upper_end(doc, x), _upper_end(doc, y)
    x_up, y_up = getattr(x, sx), getattr(y, sy)
    if x_up.device == y_up.device or doc.tier_of(x_up.device) != doc.tier_of(y_up.device):
        return []
    return [RemoveLink(x.id), RemoveLink(y.id),
            AddLink(x.model_copy(update={"id": doc.new_id("rwa"), sx: y_up})),
            AddLink(y.model_copy(update={"id": doc.new_id("rwb"), sy: x_up}))]


def _apply_rewire(doc: FabricDocument, rng: random.Random):  # noqa: ANN202
    for _ in range(20):
        ops = _rewire(doc, rng)
        if ops:
            try:
                return doc.apply(ops)
            except ModelError:
                continue
    return None


def _fill_ecmp_memo(analyzer: Analyzer) -> None:
    state = analyzer.state
    state.run = {}
    d = state.store.d
    for row in state.store.device_rows().tolist():
        if d["switch"][row]:
            expected_uppers(state, row)


def _assert_memo_fresh(analyzer: Analyzer, where: str) -> int:
    state = analyzer.state
    d = state.store.d
    memo = state.memo.get("ecmp", {})
    for (upper, tier), reach in memo.items():
        fresh = state.topo.tier_reach(upper, tier, d["switch"], d["tier"])
        assert reach == fresh, (
            f"{where}: the memoized reach of {state.name(upper)} (tier {tier}) is stale: "
            f"{sorted(state.name(r) for r in reach ^ fresh)}")
    return len(memo)


def run_rewiring(doc: FabricDocument, seed: int, steps: int, batch: int = 1) -> tuple[int, int]:
    """Random rewiring edits and undos, each update compared with a full run; returns (updates
    checked, how many of them changed the ECMP findings)."""
    rng = random.Random(seed)
    analyzer = Analyzer(doc)
    before = analyzer.full()
    _fill_ecmp_memo(analyzer)
    assert analyzer.state.memo["ecmp"]
    checked = changed = 0
    for step, changes in edit_batches(doc, rng, steps, _apply_rewire, batch, undo_share=0.35):
        incremental = assert_update_equals_full(analyzer, doc, changes, f"seed {seed} step {step}")
        _assert_memo_fresh(analyzer, f"seed {seed} step {step}")
        _assert_workload_models_fresh(analyzer, f"seed {seed} step {step}")
        checked += 1
        changed += incremental.by_code("ECMP-IMBALANCE") != before.by_code("ECMP-IMBALANCE")
        before = incremental
        if step % 10 == 9:
            _fill_ecmp_memo(analyzer)  # entries dropped by edits that changed a reach
    return checked, changed


@pytest.mark.parametrize("seed", [1, 2])
def test_rewiring_a_leaf_spine_fabric_equals_full_runs(catalog, seed):
    checked, changed = run_rewiring(_two_tier(catalog), seed, 40)
    assert checked > 30 and changed >= 5  # the edits did move ECMP findings


@pytest.mark.parametrize("seed", [3, 4])
def test_rewiring_a_three_tier_fabric_equals_full_runs(catalog, seed):
    checked, changed = run_rewiring(_three_tier(catalog), seed, 40)
    assert checked > 30 and changed >= 5


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_rewiring_two_leaves_until_spines_drop_out_of_reach_equals_full_runs(build, seed):
    """With two leaves, a few edits leave a spine that no leaf under another spine reaches:
    the reach of that other spine shrinks (and grows back on undo)."""
    two_leaf_fabric(build)
    checked, _changed = run_rewiring(build.doc, seed, 30)
    assert checked > 20


def test_rewiring_edits_merged_into_one_change_set_equal_full_runs(catalog):
    checked, changed = run_rewiring(_three_tier(catalog), 5, 30, batch=3)
    assert checked > 20 and changed >= 3


def test_an_edit_that_leaves_a_reach_alone_keeps_its_memo_entry(catalog):
    """One cable fewer between a leaf and a spine (its twin still joins them), then every cable
    between them: what the other leaves reach through each spine is what it was, so the
    memoized reach stays, and only the leaf itself is checked again."""
    doc = _two_tier(catalog)
    analyzer = Analyzer(doc)
    analyzer.full()
    _fill_ecmp_memo(analyzer)
    size = _assert_memo_fresh(analyzer, "after the full run")
    (leaf, spine), cables = min(_uplinks(doc).items())
    assert len(cables) == 2
    for ids in ([cables[0]], [cables[1]]):
        edit = doc.apply([RemoveLink(i) for i in ids])
        report = analyzer.update(edit.changes)
        assert report == Analyzer(doc).full()
        state = analyzer.state
        assert _assert_memo_fresh(analyzer, f"after removing {ids}") == size
    # the leaf now misses the spine its peers reach: ECMP-IMBALANCE names it
    (finding,) = [f for f in report.by_code("ECMP-IMBALANCE") if leaf in f.objects]
    assert finding.objects[:2] == (leaf, spine)
    assert state.run["ecmp_direct"]


# ---------------------------------------------------------------------- server-leaf rewiring
def _nic_links(doc: FabricDocument) -> set[str]:
    return {i for i in doc.links
            if sorted((doc.tier_of(doc.links[i].a.device), doc.tier_of(doc.links[i].b.device)))
            == [0, 1]}


def _rewire_nic(doc: FabricDocument, rng: random.Random) -> list:
    nic_ids = _nic_links(doc)
    nics = sorted(nic_ids)
    if nics and rng.random() < 0.15:  # a leaf loses every NIC: no longer a first hop
        link = doc.links[rng.choice(nics)]
        leaf = link.a.device if doc.tier_of(link.a.device) == 1 else link.b.device
        return [RemoveLink(i) for i in sorted(doc.link_ids_of(leaf) & nic_ids)]
    if len(nics) < 2 or rng.random() < 0.4:  # a NIC cable fewer
        return [RemoveLink(rng.choice(nics))] if nics else []
    # two NIC cables trade their leaf ports (a NIC moves to another leaf, or another rail)
    x, y = (doc.links[i] for i in rng.sample(nics, 2))
    sx = "a" if doc.tier_of(x.a.device) == 1 else "b"
    sy = "a" if doc.tier_of(y.a.device) == 1 else "b"
    return [RemoveLink(x.id), RemoveLink(y.id),
            AddLink(x.model_copy(update={"id": doc.new_id("rwa"), sx: getattr(y, sy)})),
            AddLink(y.model_copy(update={"id": doc.new_id("rwb"), sy: getattr(x, sx)}))]


def _assert_workload_models_fresh(analyzer: Analyzer, where: str) -> None:
    """The per-switch matrices an update refreshed equal a model built from scratch, to the
    last bit (the same sums in the same order), and so do the rows an evaluation reads."""
    state = analyzer.state
    n = state.store.n_devices
    for wl_id, model in state.wl_models.items():
        fresh = WorkloadModel(state, state.doc.workloads[wl_id])
        for name in ("members", "count", "bw", "arrive", "cone", "first", "upper"):
            assert np.array_equal(getattr(model, name)[:n], getattr(fresh, name)[:n]), (
                f"{where}: {wl_id}.{name} differs from a fresh build")
        for one in (model, fresh):  # the row masks an evaluation reads, refreshed and built
            assert np.array_equal(one.first[:n], one.count[:n].any(axis=1))
            assert np.array_equal(one.upper[:n], one.cone[:n].any(axis=1))
        kept, built = _bounds(model, state), _bounds(fresh, state)
        for pattern in kept:
            assert np.array_equal(kept[pattern], built[pattern]), (
                f"{where}: {wl_id} keeps stale {pattern} bounds")


def _bounds(model: WorkloadModel, state) -> dict[str, np.ndarray]:  # noqa: ANN001
    """The per-switch bounds the model's evaluation reads (kept ones, after an update)."""
    n = state.store.n_devices
    first, uppers = np.flatnonzero(model.first[:n]), np.flatnonzero(model.upper[:n])
    up = state.store.d["up"][:n].astype(float)
    return model._bounds.bounds(first, uppers, model.count[:n][first].sum(axis=0), up,
                                (model.count[:n], model.bw[:n], model.arrive[:n], model.cone[:n]))


@pytest.mark.parametrize("seed", [11, 12])
def test_rewiring_server_nics_equals_full_runs_and_fresh_workload_models(catalog, seed):
    doc = _two_tier(catalog)
    rng = random.Random(seed)
    analyzer = Analyzer(doc)
    analyzer.full()
    assert analyzer.state.wl_models
    for step, changes in edit_batches(doc, rng, 30, lambda d, r: d.apply(_rewire_nic(d, r)),
                                      undo_share=0.35):
        assert_update_equals_full(analyzer, doc, changes, f"seed {seed} step {step}")
        _assert_workload_models_fresh(analyzer, f"seed {seed} step {step}")


def _as_nvl72_trays(doc: FabricDocument, servers: list[str]) -> list:
    """Ops: these servers become GB200 NVL72 compute trays (their NIC cables removed first)."""
    ops: list = []
    for server in servers:
        ops.extend(RemoveLink(i) for i in sorted(doc.link_ids_of(server)))
        ops.append(UpdateDevice(server, {"model": "nvidia-gb200-nvl72-compute-tray"}))
    return ops


def test_member_servers_with_a_new_model_change_the_nvlink_domains_of_their_workload(catalog):
    """The NVLink figures of a workload are kept between updates until its members or their
    models change: DGX H100s (8 GPUs, one 8-GPU domain each) becoming GB200 NVL72 trays (4 GPUs
    of a 72-GPU domain) change the GPUs and the domains the workload spans."""
    doc = _two_tier(catalog)
    analyzer = Analyzer(doc)
    (before,) = analyzer.full().metrics.workloads
    servers = sorted(d for d in doc.devices if doc.tier_of(d) == 0)
    report = analyzer.update(doc.apply(_as_nvl72_trays(doc, servers[:1])).changes)
    (after,) = report.metrics.workloads
    assert (before.gpus, after.gpus) == (1024, 1020)
    assert after.domains == before.domains  # 127 DGX domains + 4/72 of an NVL72 domain
    assert report == Analyzer(doc).full()
    report = analyzer.update(doc.apply(_as_nvl72_trays(doc, servers[1:18])).changes)
    (after,) = report.metrics.workloads
    assert after.domains == before.domains - 18 + 1  # 110 DGX domains + 72/72 of one
    assert report == Analyzer(doc).full()
