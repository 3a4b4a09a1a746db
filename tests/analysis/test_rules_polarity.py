"""CHANNEL-POLARITY: MPO polarity end to end through patch panels and trunks (TIA-568.3-D
connectivity methods A, B, C), for parallel MPO-12 optics (800G 2xDR4: each port 400GBASE-DR4,
transmit lanes on positions 1-4, receive on 9-12) and duplex LC optics (800G 2xFR4), on a
leaf-spine link between two SN5600s in two racks."""

from __future__ import annotations

import pytest

from aicnet_gui.analysis import analyze
from aicnet_gui.model.edits import UpdateDevice, UpdateLink
from aicnet_gui.model.fabric import CageConfig, LinkPatch
from aicnet_gui.model.polarity import METHOD_PARTS, judge, method_of, suggest

DR4 = "generic-800g-2xdr4-osfp"  # MPO-12/APC, parallel
FR4 = "generic-800g-2xfr4-osfp"  # duplex LC
OS2_MPO = "nvidia-mfp7e30"  # MPO-12/APC cord, catalog polarity "crossover" (Type B)
OS2_LC = "generic-duplex-lc-os2-patch-cord"  # A-to-B


@pytest.fixture
def channel(dr4_leaf_spine):
    return dr4_leaf_spine.doc


def duplex(doc):
    cages = {1: CageConfig(transceiver=FR4)}
    doc.apply([UpdateDevice("leaf-1", {"cages": cages}), UpdateDevice("spine-1", {"cages": cages}),
               UpdateLink("u1", {"cable": OS2_LC})])
    return doc


def polarity(doc, **patch):
    doc.apply([UpdateLink("u1", {"patch": LinkPatch(mated_pairs=2, **patch)})])
    return [f for f in analyze(doc).findings if f.code == "CHANNEL-POLARITY"]


def test_the_three_duplex_methods_cross_the_pair_an_odd_number_of_times():
    # Method A: A-to-B (1) + Type A trunk through cassettes (0) + A-to-A (0) = 1 crossing
    assert judge("duplex", 2, ("A-to-B", "A", "A-to-A")).problem is None
    # Method B: 1 + Type B trunk (position 2k-1 -> 14-2k: A lands on B, 1) + 1 = 3
    assert judge("duplex", 2, ("A-to-B", "B", "A-to-B")).problem is None
    # Method C: 1 + pair-flipped trunk (1) + 1 = 3
    assert judge("duplex", 2, ("A-to-B", "C", "A-to-B")).problem is None
    # Method A with A-to-B cords at both ends: 2 crossings, transmit on transmit
    assert "2 time(s)" in judge("duplex", 2, ("A-to-B", "A", "A-to-B")).problem


def test_parallel_methods_land_each_transmit_lane_on_its_own_receive_lane():
    # Method A: Type B cord (1 -> 12), Type A trunk, Type A cord: lane 0 at 1 lands on 12
    assert judge("parallel", 12, ("B", "A", "A")) == (None, False)
    # Method B: three reversals are one reversal
    assert judge("parallel", 12, ("B", "B", "B")) == (None, False)
    assert judge("parallel", 16, ("B", "B", "B")) == (None, False)  # 8 lanes, MPO-16
    # two Type B cords on a Type A trunk: 1 -> 12 -> 12 -> 1, a transmitter
    assert "lands on position 1 of the far MPO-12, a transmitter" in \
        judge("parallel", 12, ("B", "A", "B")).problem
    # a Type C trunk: lane 0 (1) -> 1 -> 2 -> 11 = receive lane 1: up, lanes crossed
    assert judge("parallel", 12, ("B", "C", "A")) == (None, True)
    assert method_of("parallel", ("A", "A", "B")) == "A"  # either way round
    assert suggest("parallel", 12, ("B", "C", "A")).text == "make the trunk Type A (TIA-568.3-D Method A)"


def test_no_polarity_given_means_not_judged(channel):
    assert polarity(channel) == []  # loss and polish only, as before


def test_parallel_method_b_with_the_catalog_type_b_cords_passes(channel):
    # the link's cord is the catalog's crossover (Type B) MPO-12 cord at both ends
    assert polarity(channel, method="B") == []
    assert polarity(channel, trunk="B") == []


def test_parallel_method_a_with_type_b_cords_at_both_ends_trips_and_says_which_cord_to_flip(channel):
    [finding] = polarity(channel, method="A")
    assert finding.severity == "error"
    assert finding.objects == ("u1", "leaf-1", "spine-1")
    assert "transmit lane 0 (position 1) lands on position 1 of the far MPO-12, a transmitter" \
        in finding.message
    assert "cord at a Type B, Type A trunk, cord at b Type B, not the parts of Method A" in finding.message
    assert finding.fix.description == "make the cord at end b Type A (TIA-568.3-D Method A)"
    # the one-click fix sets that cord and clears the finding
    channel.apply(list(finding.fix.ops))
    assert channel.links["u1"].patch.cord_b == "A"
    assert [f for f in analyze(channel).findings if f.code == "CHANNEL-POLARITY"] == []


def test_parallel_type_c_trunk_crosses_lanes_a_warning_and_an_error_on_a_breakout(channel):
    [finding] = polarity(channel, trunk="C", cord_a="B", cord_b="A")
    assert finding.severity == "warning"
    assert "another lane" in finding.message and "PCS reorders lanes" in finding.message
    assert finding.fix.description == "make the trunk Type A (TIA-568.3-D Method A)"


def test_duplex_method_a_needs_one_a_to_a_cord(channel):
    doc = duplex(channel)
    # the catalog cord is A-to-B at both ends: Method A with it is two crossings
    [finding] = polarity(doc, method="A")
    assert finding.severity == "error"
    assert "crosses the pair 2 time(s)" in finding.message and "duplex LC optics" in finding.message
    assert finding.fix.description == "make the cord at end b A-to-A (TIA-568.3-D Method A)"
    assert polarity(doc, method="A", cord_b="A-to-A") == []


@pytest.mark.parametrize("method", ["B", "C"])
def test_duplex_methods_b_and_c_with_a_to_b_cords_pass(channel, method):
    assert polarity(duplex(channel), method=method) == []


def test_duplex_method_b_with_an_a_to_a_cord_trips(channel):
    [finding] = polarity(duplex(channel), method="B", cord_a="A-to-A")
    assert finding.severity == "error"
    assert finding.fix.description == "make the cord at end a A-to-B (TIA-568.3-D Method B)"


def test_an_array_cord_on_a_duplex_optic_is_named(channel):
    [finding] = polarity(duplex(channel), trunk="B", cord_a="B")
    assert "the cord at end a is a Type B array cord; duplex LC optics" in finding.message


def test_a_trunk_without_cord_polarity_is_a_note(channel):
    channel.apply([UpdateLink("u1", {"cable": None})])
    [finding] = polarity(channel, trunk="B")
    assert finding.severity == "info"
    assert "the cord at end a, the cord at end b not given" in finding.message


@pytest.mark.parametrize("kind, method, flipped", [
    ("parallel", "A", {"cord_a": "A"}),  # both cords Type A: no flip at all
    ("parallel", "B", {"cord_b": "A"}),  # two flips
    ("duplex", "A", {"cord_b": "A-to-B"}),
    ("duplex", "B", {"cord_a": "A-to-A"}),
    ("duplex", "C", {"cord_b": "A-to-A"}),
])
def test_each_method_trips_with_one_cord_of_the_wrong_kind_and_passes_with_its_own(
        channel, kind, method, flipped):
    doc = duplex(channel) if kind == "duplex" else channel
    cord_a, _, cord_b = METHOD_PARTS[(kind, method)]  # the trunk is the method's type
    assert polarity(doc, method=method, cord_a=cord_a, cord_b=cord_b) == []
    [finding] = polarity(doc, method=method, **{"cord_a": cord_a, "cord_b": cord_b, **flipped})
    assert finding.severity == "error"
    assert "never comes up" in finding.message
