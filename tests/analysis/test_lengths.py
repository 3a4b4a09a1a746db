"""Cable length estimates (lengths.py) and their agreement with the analysis columns."""

from __future__ import annotations

from conftest import DAC800, SN5600

from aicnet_gui.analysis import analyze
from aicnet_gui.analysis.lengths import estimate_route_m, link_length
from aicnet_gui.model.floor import rack_floor_xy
from tests.doc_edits import update_link


def test_rack_position_from_row_and_position(build):
    build.doc.apply([])
    from aicnet_gui.model.fabric import LengthEstimation, Rack

    params = LengthEstimation()
    assert rack_floor_xy(Rack(id="r", name="R", row=3, position=5), params) == (2.4, 8.4)
    assert rack_floor_xy(Rack(id="r", name="R", x_m=1.5, y_m=2.0), params) == (1.5, 2.0)


def test_same_rack_and_between_racks(build):
    doc = build.doc
    build.rack("r1", x=0.0)
    build.rack("r2", x=6.0)
    build.dev("a", SN5600, rack="r1", ru=41)
    build.dev("b", SN5600, rack="r2", ru=1)
    build.dev("c", SN5600, rack="r1", ru=1)
    a, b, c = (doc.devices[i] for i in "abc")
    # between racks: (2.6 - 1.92245) + (2.6 - 0.14445) + 6 = 9.1331 -> x 1.1 + 1 = 11.05
    assert estimate_route_m(doc, a, b) == (11.05, False)
    # same rack: |1.92245 - 0.14445| + 0.5 = 2.278 -> x 1.1 + 1 = 3.51
    assert estimate_route_m(doc, a, c) == (3.51, True)
    build.link("l1", "a", "swp1s0", "c", "swp1s0", cable=DAC800)
    assert link_length(doc, doc.links["l1"]).length_m == 3.51
    assert link_length(doc, doc.links["l1"]).ordered_m is None  # the DAC ends at 2 m
    update_link(doc, "l1", length_m=1.2)
    length = link_length(doc, doc.links["l1"])
    assert (length.length_m, length.manual, length.ordered_m) == (1.2, True, 1.5)


def test_unplaced_devices_have_no_estimate(build):
    doc = build.doc
    build.dev("a", SN5600)
    build.dev("b", SN5600)
    assert estimate_route_m(doc, doc.devices["a"], doc.devices["b"]) == (None, None)


def test_analysis_uses_the_same_estimate(build):
    doc = build.doc
    for i, x in enumerate((0.0, 0.6, 7.3)):
        build.rack(f"r{i}", x=x, y=1.7 * i)
    for i in range(6):
        build.dev(f"d{i}", SN5600, rack=f"r{i % 3}", ru=1 + 3 * i)
    for i in range(5):
        build.link(f"l{i}", f"d{i}", "swp1s0", f"d{i + 1}", "swp1s1", cable=DAC800)
    links = analyze(doc).metrics.reach.links
    for link_id, link in doc.links.items():
        assert links[link_id]["length_m"] == link_length(doc, link).length_m
