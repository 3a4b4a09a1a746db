"""An optic must serve its cage's whole breakout mode, and the analysis says so on every leg.

Before model/fit.py the optic rule looked at each leg alone: a single-port optic in a cage
split 2x400G passed on leg 1 and failed on leg 2, while the inspector and the generator refused
it for the cage.  Now the three agree (tests/test_fit_agreement.py); this is the user's view.
"""

from __future__ import annotations

from conftest import MMF, SN5600, TWIN_SR4

from aicnet_gui.analysis import analyze
from aicnet_gui.editing.compat import transceiver_fits

DGX = "nvidia-dgx-h100"
GB200_TRAY = "nvidia-gb200-nvl72-compute-tray"  # OSFP flat NIC cages, 1x400G
SINGLE_PORT_NIC_OPTIC = "nvidia-mma4z00-ns400"  # flat single-port 400G SR4, NIC side
TWIN_FLAT = "nvidia-mma4z00-ns-flt"  # flat twin-port 2xSR4


def _legs(doc, device: str, cage: int) -> list[str]:
    return [name for name, port in doc.ports(device).items() if port.cage == cage]


def test_a_single_port_optic_in_a_split_nic_cage_is_flagged_on_both_legs(build):
    doc = build.doc
    build.dev("gpu-1", DGX, modes={1: "2x400G"}, optics={1: SINGLE_PORT_NIC_OPTIC})
    build.dev("leaf-1", SN5600, optics={1: TWIN_SR4, 2: TWIN_SR4})
    first, second = _legs(doc, "gpu-1", 1)
    build.link("c1", "gpu-1", first, "leaf-1", "swp1s0", cable=MMF, length_m=5)
    build.link("c2", "gpu-1", second, "leaf-1", "swp2s0", cable=MMF, length_m=5)
    flagged = {link for f in analyze(doc).by_code("SPEED-MISMATCH") for link in f.objects}
    assert {"c1", "c2"} <= flagged
    assert not transceiver_fits(doc, "gpu-1", 1, doc.catalog.transceivers[SINGLE_PORT_NIC_OPTIC])


def test_the_same_optic_in_a_single_port_nic_cage_is_clean_and_a_twin_port_one_is_not(build):
    doc = build.doc
    build.dev("tray-1", GB200_TRAY, optics={1: SINGLE_PORT_NIC_OPTIC, 2: TWIN_FLAT})
    build.dev("leaf-1", SN5600, optics={1: TWIN_SR4, 2: TWIN_SR4})
    (good,) = _legs(doc, "tray-1", 1)
    (bad,) = _legs(doc, "tray-1", 2)
    build.link("c1", "tray-1", good, "leaf-1", "swp1s0", cable=MMF, length_m=5)
    build.link("c2", "tray-1", bad, "leaf-1", "swp2s0", cable=MMF, length_m=5)
    flagged = {link for f in analyze(doc).by_code("SPEED-MISMATCH") for link in f.objects}
    assert "c1" not in flagged and "c2" in flagged  # a twin-port optic cannot serve 1x400G
    optics = doc.catalog.transceivers
    assert transceiver_fits(doc, "tray-1", 1, optics[SINGLE_PORT_NIC_OPTIC])
    assert not transceiver_fits(doc, "tray-1", 2, optics[TWIN_FLAT])
