"""A generated lossless (RoCEv2 + PFC) fabric sizes its PFC headroom for its own longest run, so
that the design it writes does not trip PFC-HEADROOM (analysis/rules_roce.py)."""

from __future__ import annotations

import numpy as np

from aicnet_gui.analysis import analyze
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.generators.build import _pfc_headroom
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import UpdateSettings


def test_the_headroom_is_raised_to_the_longest_run_rounded_up_to_10_m():
    changes = {"pfc": True}
    notes = _pfc_headroom(changes, np.array([3.0, 41.2, np.nan]), 25.0)
    assert changes["pfc_cable_length_m"] == 50.0
    assert notes == ["the longest run is 41.2 m: PFC headroom sized for 50 m cables (project "
                     "setting; set the switches' PFC cable length to match)"]
    # within the sized length, or without PFC, nothing changes
    for changes, sized in (({"pfc": True}, 100.0), ({"pfc": False}, 25.0)):
        assert _pfc_headroom(changes, np.array([41.2]), sized) == []
        assert "pfc_cable_length_m" not in changes


def test_a_generated_roce_fabric_has_no_pfc_headroom_finding(catalog):
    doc = FabricDocument(catalog)
    doc.apply([UpdateSettings({"pfc_cable_length_m": 2.0})])  # switches sized for 2 m runs
    result = generate(doc, RailOptimizedParams(sus=4, leaf="nvidia-sn5600", technology="rocev2"))
    assert doc.settings.pfc
    assert doc.settings.pfc_cable_length_m >= 10.0
    assert any("PFC headroom sized for" in n for n in result.notes)
    assert [f for f in analyze(doc).findings if f.code == "PFC-HEADROOM"] == []
