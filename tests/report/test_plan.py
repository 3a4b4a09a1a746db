"""The cable plan: orientation, rack sections, sort order, cable numbers and label ends.

Expectations are worked out by hand from the fixture in conftest.py.
"""

from __future__ import annotations

from collections import Counter

import pytest

from aicnet_gui.report.cables import build_plan

LEAF = "leaf-Łódź-01"


@pytest.fixture
def plan(small):
    return build_plan(small, "tia-606")


def _row(plan, link_id):
    return next(r for r in plan.rows if r.link_id == link_id)


def test_server_end_is_a_even_when_the_link_is_stored_switch_first(plan):
    row = _row(plan, "f3")
    assert (row.a.device, row.a.port, row.b.device, row.b.port) == ("dgx-b", "p1", LEAF, "2/1")
    assert row.cable_id == "1A.A02-12:p1/1A.A01-40:2-1"
    assert row.label_b == "1A.A01-40:2-1/1A.A02-12:p1"


def test_the_shared_end_of_a_splitter_is_a(plan):
    for link_id in ("s1", "s2"):
        assert _row(plan, link_id).a.device == LEAF


def test_one_section_per_rack_sorted_top_of_rack_down(plan):
    assert [s.title for s in plan.sections] == ["Rack R1", "Rack R2"]
    r1, r2 = plan.sections
    # R1: the leaf (top RU 40) starts the splitter (cage 3) and the twin DAC (cage 32)
    assert [r.link_id for r in r1.rows] == ["s1", "s2", "d1", "d2"]
    # R2: dgx-b (top RU 19) before dgx-a (top RU 9), ports in order
    assert [r.link_id for r in r2.rows] == ["f3", "f4", "f1", "f2"]
    assert dict(r1.arriving) == {"R2": 4}
    assert dict(r2.arriving) == {"R1": 1}  # one splitter, its two legs on two trays


def test_cable_numbers_follow_the_schedule_and_assemblies_share_one(plan):
    numbers = {r.link_id: r.number for r in plan.rows}
    assert numbers == {
        "s1": "C000001", "s2": "C000001", "d1": "C000002", "d2": "C000002",
        "f3": "C000003", "f4": "C000004", "f1": "C000005", "f2": "C000006",
    }
    assert plan.cables == 6


def test_breakout_legs_and_lengths(plan):
    row = _row(plan, "f1")
    assert (row.a.leg_text, row.b.leg_text) == ("1/2", "1/2")  # twin-port cages on both ends
    # dgx-a centre 0.32225 m, leaf centre 1.855775 m, tray 2.6 m, racks 0.6 m apart:
    # (2.27775 + 0.744225 + 0.6) * 1.1 + 1.0 = 4.98 m -> 5 m stock length
    assert row.length_m == pytest.approx(4.98)
    assert row.ordered_m == 5.0
    assert (row.a.optic, row.b.optic) == ("MMA4Z00-NS-FLT", "MMA4Z00-NS")
    assert (row.media, row.fibre, row.polarity) == ("MMF", "OM4", "crossover")
    splitter = _row(plan, "s1")
    assert splitter.a.optic == splitter.b.optic == "integrated"


def test_one_label_per_cable_end(plan):
    per_cable = Counter(label.number for label in plan.labels)
    assert per_cable == {"C000001": 3, "C000002": 2, "C000003": 2, "C000004": 2,
                         "C000005": 2, "C000006": 2}
    shared = next(label for label in plan.labels if label.number == "C000001")
    assert shared.this_id == "1A.A01-40:3"
    assert [far[0] for far in shared.far] == ["1A.A02-20:p1", "1A.A02-21:p1"]
    dac = [label.this_id for label in plan.labels if label.number == "C000002"]
    assert dac == ["1A.A01-40:32", "1A.A01-42:1"]


def test_splitter_longer_than_its_ladder_is_reported(plan):
    # tray-a at RU 20 in R2 is 4.3 m from the leaf: more than MCP7Y00's 3 m
    assert _row(plan, "s1").ordered_m is None
    assert any("longer than the longest stock length" in p for p in plan.problems)
