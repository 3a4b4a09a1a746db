"""What the editor's traffic view computes (editing/traffic_run.py), checked against the traffic
model's own public call (`traffic_for`, what `aicnet traffic` runs) and against brute force over
its per-link loads: the modes the fabric runs, the median ECMP draw, the hottest links, the
links that set the pace."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from aicnet_gui.editing.traffic_run import (
    HOTTEST,
    PACE_TOLERANCE,
    median_draw,
    run_traffic,
)
from aicnet_gui.fileio.fabric_file import load_fabric
from aicnet_gui.generators import TwoTierParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateSettings
from aicnet_gui.traffic import TrafficParams, traffic_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HGX = "generic-hgx-8-gpu-b3140h"  # BlueField-3 SuperNICs: they reorder
CISCO = "cisco-n9364e-sg2-o"  # documented for flowlet and per-packet (spray) DLB


@pytest.fixture(scope="module")
def tor(catalog) -> FabricDocument:  # noqa: ANN001
    """64 HGX, each on its own top-of-rack leaf, 2:1 up to the spines, static ECMP: the
    collectives cross the spines, and hashing collides there."""
    doc = FabricDocument(catalog)
    generate(doc, TwoTierParams(servers=64, oversubscription=2.0, attach="tor", server=HGX,
                                leaf=CISCO, spine=CISCO, technology="rocev2"))
    doc.apply([UpdateSettings({"load_balancing": "ecmp"})])
    return doc


@pytest.fixture(scope="module")
def tor_run(tor):  # noqa: ANN001, ANN201
    (workload_id,) = tor.workloads
    return run_traffic(tor, workload_id, seeds=12)


def test_each_mode_a_switch_routes_differently_is_computed_once(catalog):
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    (workload_id,) = doc.workloads
    run = run_traffic(doc, workload_id, seeds=2)
    # QM9700: documented for hashing and adaptive routing; InfiniBand has no spraying
    assert list(run.modes) == ["ecmp", "adaptive"]
    (spray,) = run.same
    assert (spray.mode, spray.same_as, spray.runs) == ("spray", "adaptive", ("adaptive",))
    assert "not packet spraying" in spray.notes[0]
    assert run.fabric_mode == doc.settings.load_balancing == "adaptive"
    assert run.shown("spray") is run.modes["adaptive"]


def test_a_fabric_of_switches_that_run_every_mode_gets_every_mode(tor_run):
    assert list(tor_run.modes) == ["ecmp", "adaptive", "spray"] and tor_run.same == ()
    assert tor_run.fabric_mode == "ecmp"
    # adaptive asked of Cisco DLB on these NICs runs flowlets (the model's fallback, shown)
    assert tor_run.modes["adaptive"].result.runs == ("flowlet",)


def test_the_numbers_are_the_traffic_models_own(tor, tor_run):
    (workload_id,) = tor.workloads
    for mode, shown in tor_run.modes.items():
        alone = traffic_for(tor, workload_id, mode, TrafficParams(seeds=12))
        assert shown.result.busbw_gbps == pytest.approx(alone.busbw_gbps)
        assert shown.result.busbw_p5_gbps == pytest.approx(alone.busbw_p5_gbps)
        assert shown.result.time_ms == pytest.approx(alone.time_ms)
        assert shown.mean.loads.by_id() == pytest.approx(alone.link_load)


def test_the_picture_of_ecmp_is_its_median_draw_repeated_with_its_own_seed(tor, tor_run):
    (workload_id,) = tor.workloads
    ecmp = tor_run.modes["ecmp"]
    draws = ecmp.result.draw_busbw_gbps
    assert len(draws) == 12 and len(set(np.round(draws, 6))) > 1  # the hashes differ
    assert np.mean(draws) == pytest.approx(ecmp.result.busbw_gbps)
    assert sorted(draws)[(len(draws) - 1) // 2] == draws[ecmp.draw_index]
    assert median_draw(draws) == ecmp.draw_index
    one = traffic_for(tor, workload_id, "ecmp", TrafficParams(seed=ecmp.draw_index, seeds=1))
    assert ecmp.draw.result.busbw_gbps == pytest.approx(draws[ecmp.draw_index])
    assert ecmp.draw.loads.by_id() == pytest.approx(one.link_load)
    # one draw has hot spots the mean over the draws smooths away
    assert ecmp.draw.loads.loads.max() > ecmp.mean.loads.loads.max() or \
        ecmp.draw.loads.loads.std() > ecmp.mean.loads.loads.std()
    assert tor_run.modes["spray"].draw is None  # spraying draws nothing at random


def switch_links(doc: FabricDocument) -> set[str]:
    tier = {d.id: doc.tier_of(d) for d in doc.devices.values()}
    return {link.id for link in doc.links.values()
            if min(tier[link.a.device], tier[link.b.device]) >= 1}


def test_hottest_links_and_pace_setters_against_brute_force(tor, tor_run):
    for shown in tor_run.modes.values():
        picture = shown.picture()
        loads = picture.loads.by_id()
        ranked = sorted(loads.items(), key=lambda item: -item[1])
        top = ranked[0][1]
        pace = [link for link, load in loads.items() if load >= top * (1 - PACE_TOLERANCE)]
        assert picture.pace.count == len(pace) and picture.pace.load == pytest.approx(top)
        hottest = picture.hottest
        assert len({h.link_id for h in hottest}) == len(hottest) <= HOTTEST
        assert [h.load for h in hottest] == sorted((h.load for h in hottest), reverse=True)
        for hot in hottest:
            assert hot.load == pytest.approx(loads[hot.link_id], abs=1e-4)
            link = tor.links[hot.link_id]
            ends = {tor.devices[link.a.device].name, tor.devices[link.b.device].name}
            assert all(name in hot.name for name in ends)
        if not picture.nic_paced:
            assert hottest[0].load == pytest.approx(top, abs=1e-4)
        listed = {h.link_id for h in hottest}
        left_out = [load for link, load in loads.items() if link not in listed and load > 0
                    and (not picture.nic_paced or link in switch_links(tor))]
        if left_out:  # numbered: hotter than every link left out; tied: as hot as the last
            assert all(h.load > max(left_out) + 1e-6 for h in hottest[:picture.ranked])
            assert picture.tied == sum(1 for load in left_out
                                       if abs(load - hottest[-1].load) < 1e-6)


def test_when_every_nic_link_sets_the_pace_the_hottest_are_nic_paced(catalog):
    doc = load_fabric(EXAMPLES / "superpod-4su.fabric", catalog)
    (workload_id,) = doc.workloads
    picture = run_traffic(doc, workload_id, seeds=2).modes["adaptive"].picture()
    assert picture.nic_paced and picture.pace.by_tier[0][0] == "server-leaf"
    switch = {link_id: load for link_id, load in picture.loads.by_id().items()
              if min(doc.tier_of(doc.devices[doc.links[link_id].a.device]),
                     doc.tier_of(doc.devices[doc.links[link_id].b.device])) >= 1}
    best = max(switch.values())
    assert picture.hottest and all(switch.get(h.link_id) is not None for h in picture.hottest)
    assert picture.hottest[0].load == pytest.approx(best, abs=1e-4)
    assert picture.marked_pace() == []  # hundreds of NIC links: none is marked on the canvas


def test_a_collective_that_stays_on_the_rail_leaves_has_no_hot_switch_link(catalog):
    doc = load_fabric(EXAMPLES / "superpod-1su.fabric", catalog)
    (workload_id,) = doc.workloads
    picture = run_traffic(doc, workload_id, seeds=2).modes["adaptive"].picture()
    assert picture.nic_paced and picture.hottest == ()
