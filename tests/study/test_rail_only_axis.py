"""The `rail-only` layout of a study is built for real: every rail its own network (Wang et
al., arXiv 2307.12169v5), priced beside the rail-optimized fat tree of the same servers from
the candidates' own designs."""

from __future__ import annotations

import pytest

from aicnet_gui.fileio import load_fabric
from aicnet_gui.model.fabric import Requirement
from aicnet_gui.study import Study, run_study

from .conftest import TEST_PRICES


@pytest.fixture(scope="module")
def layouts(catalog, tmp_path_factory):
    requirement = Requirement(servers=64, leaves=["nvidia-qm9700"],
                              sweep={"layouts": ["rail-optimized", "rail-only"]})
    study = Study.prepare(requirement, catalog, prices=TEST_PRICES)
    out = tmp_path_factory.mktemp("layouts")
    result = run_study(study, out, workers=0)
    return {c.combination.layout: c for c in result.candidates}, out


def test_rail_only_candidate_has_no_spine_joining_rails(layouts, catalog):
    """64 DGX H100 = 2 SUs: each rail's 64 NICs fill one 64-port QM9700; the fat tree has
    NVIDIA's 16 leaves and 8 spines for 2 SUs."""
    found, out = layouts
    rail_only, fat = found["rail-only"], found["rail-optimized"]
    assert rail_only.feasible and fat.feasible
    assert rail_only.metrics.switches == {"leaf": {"nvidia-qm9700": 8}, "spine": {}, "core": {}}
    assert fat.metrics.switches == {"leaf": {"nvidia-qm9700": 16}, "spine": {"nvidia-qm9700": 8},
                                    "core": {}}
    doc = load_fabric(out / rail_only.file, catalog)
    assert doc.settings.rail_planes
    rails_of = {d.id: d.tags.get("rail") for d in doc.devices.values()}
    for link in doc.links.values():
        ends = {rails_of[e.device] for e in (link.a, link.b)} - {None}
        assert len(ends) == 1  # a switch carries one rail; no link joins two rails


def test_rail_only_costs_and_draws_less_than_the_fat_tree(layouts):
    found, _ = layouts
    rail_only, fat = found["rail-only"].metrics, found["rail-optimized"].metrics
    assert rail_only.cost is not None and fat.cost is not None
    assert rail_only.cost < fat.cost and rail_only.power_w < fat.power_w
    assert rail_only.links == 512 and fat.links == 1024


@pytest.mark.parametrize("servers", [32, 64])
def test_three_tiers_of_one_switch_rails_cannot_be_built(catalog, servers):
    """32 or 64 DGX H100 (1 or 2 SUs): a rail's NICs fit one QM9700, so spines and cores above
    it would join nothing (the study used to build 8/8/8 chains for 32 servers); the candidate
    cannot be built, and the reason says why and that tiers auto builds one switch per rail."""
    requirement = Requirement(servers=servers, leaves=["nvidia-qm9700"],
                              technologies=["infiniband"],
                              sweep={"tiers": ["3"], "layouts": ["rail-only"]})
    result = run_study(Study.prepare(requirement, catalog), None, workers=0)
    (candidate,) = result.candidates
    assert not candidate.feasible and candidate.metrics is None
    reason = candidate.reason
    assert reason is not None
    assert "so each rail is one switch; three tiers would put a spine and a core" in reason
    assert "carries nothing" in reason and "use tiers auto for one switch per rail" in reason
    assert "--" not in reason  # said in the study's words, not the generator's flags


def test_three_tiers_of_multi_leaf_rails_build(catalog):
    """128 DGX H100 (4 SUs), three tiers: 4 leaves per rail in 2 pods of 2, 2 spines per pod,
    2 cores (test_rail_only.py counts it by hand): 32 leaves, 32 spines, 16 cores."""
    requirement = Requirement(servers=128, leaves=["nvidia-qm9700"],
                              technologies=["infiniband"],
                              sweep={"tiers": ["3"], "layouts": ["rail-only"]})
    result = run_study(Study.prepare(requirement, catalog), None, workers=0)
    (candidate,) = result.candidates
    assert candidate.feasible
    assert candidate.metrics.switches == {"leaf": {"nvidia-qm9700": 32},
                                          "spine": {"nvidia-qm9700": 32},
                                          "core": {"nvidia-qm9700": 16}}
