"""The line side of a link end: lanes, lane rate, modulation and the FEC IEEE 802.3 gives it.

Two ends of a link must run the same line: the same lane rate (there is no gearbox in a
fibre or a copper cable) and the same FEC.  What a part runs on its line:

- an optic: its PMD's optical lanes (`400GBASE-DR4`: 4, `100GBASE-DR`: 1, `400GBASE-SR4.2`:
  4 fibre pairs x 2 wavelengths = 8, `SR8`: 8), each at `port_gbps / lanes`; the module's
  electrical side (`lanes_per_port`) may differ (a QSFP28 100G-DR module gearboxes 4 x 25G
  electrical to 1 x 100G optical) and is checked against the cage in `fit.lane_problem`;
- a copper cable (DAC, ACC, AEC): no gearbox at all, its own lanes (`leg_gbps / lanes_per_leg`).

The FEC follows the lane rate and modulation (IEEE 802.3; Intel AN 846 "Stratix 10 Forward
Error Correction" restates the two Reed-Solomon codes):

- 25G NRZ lanes: RS(528,514) "KR4" FEC, clause 91 (100GBASE-SR4 clause 95 and -CR4 clause 92
  require it; 25GBASE-R clause 108); a 25G copper link may also run BASE-R FEC (clause 74) or
  none, by its cable class; 100GBASE-LR4 (clause 88) runs without FEC.
- 50G, 100G and 200G PAM4 lanes: RS(544,514) "KP4" FEC: clause 91 for 100GBASE-R (-DR, -FR1,
  -LR1 clause 140), clause 134 for 50GBASE-R, clause 119 for 200G/400GBASE-R (-SR8 clause 138,
  -DR4 clause 124, -FR4 clause 151, -SR4.2 clause 150), the 800GBASE-R PCS (IEEE 802.3df).
- 10G NRZ lanes: none or BASE-R FEC (clause 74).

InfiniBand links negotiate their FEC through the InfiniBand PHY, not IEEE 802.3: this module
says nothing about them (`fec_options` returns None).
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from .catalog_entities import CableAssembly, Transceiver

Fec = Literal["rs544", "rs528", "baser", "off"]
FEC_NAMES: dict[str, str] = {
    "rs544": "RS(544,514) KP4 FEC",
    "rs528": "RS(528,514) KR4 FEC",
    "baser": "BASE-R FEC (clause 74)",
    "off": "no FEC",
}
_FAMILY = re.compile(
    r"^(?:\d+X)?(?:\d+(?:\.\d+)?[GT](?:BASE)?-)?([A-Z]+)(\d+)?(?:\.(\d+))?(?:-\d+)?$")


class Line(NamedTuple):
    """What one logical port runs on its line: `lanes` x `lane_gbps`, NRZ or PAM4, the FEC
    choices IEEE 802.3 allows (the first is the default) and where that is written."""

    lanes: int
    lane_gbps: float
    fec: tuple[Fec, ...]
    clause: str

    @property
    def modulation(self) -> str:
        return "PAM4" if self.lane_gbps >= 50 else "NRZ"

    def text(self) -> str:
        return (f"{self.lanes} x {self.lane_gbps:g}G {self.modulation} lane"
                f"{'s' if self.lanes > 1 else ''} with {FEC_NAMES[self.fec[0]]}")


def optical_lanes(pmd: str) -> int | None:
    """Optical lanes of one port of a PMD: `400GBASE-DR4` 4, `100GBASE-DR` 1, `SR4.2` 8
    (lanes x wavelengths), `2xSR4` 4 (per port); None when the name is not parsed."""
    match = _FAMILY.match(pmd.strip().upper())
    if match is None:
        return None
    lanes = int(match.group(2) or 1)
    return lanes * int(match.group(3) or 1)


def _fec_for(lane_gbps: float, copper: bool, pmd: str = "") -> tuple[tuple[Fec, ...], str]:
    if lane_gbps >= 50:
        return ("rs544",), "RS(544,514) (clauses 91/134/119) is mandatory on PAM4 lanes"
    if lane_gbps > 10:
        if "LR4" in pmd.upper():
            return ("off", "rs528"), "100GBASE-LR4 (clause 88) runs without FEC"
        if copper:
            return (("rs528", "baser", "off"),
                    "RS(528,514) (clause 91/108), or BASE-R FEC / none by cable class")
        return ("rs528",), "RS(528,514) (clause 91) is required on 25G NRZ optical lanes"
    return ("off", "baser"), "none or BASE-R FEC (clause 74)"


def optic_line(optic: Transceiver, legs_per_port: int = 1) -> Line | None:
    """The line of one logical port of `optic` when each optical port carries
    `legs_per_port` logical ports (a breakout), or None when the PMD is not parsed."""
    lanes = optical_lanes(optic.pmd)
    if lanes is None or lanes % legs_per_port:
        return None
    rate = optic.port_gbps / lanes
    fec, clause = _fec_for(rate, False, optic.pmd)
    return Line(lanes // legs_per_port, rate, fec, clause)


def cable_line(cable: CableAssembly) -> Line | None:
    """The line of one leg of a copper cable (None for fibre, or a rate not given)."""
    if cable.type in ("fibre", "UTP") or cable.leg_gbps is None or not cable.lanes_per_leg:
        return None
    rate = cable.leg_gbps / cable.lanes_per_leg
    fec, clause = _fec_for(rate, True)
    return Line(cable.lanes_per_leg, rate, fec, clause)


def fec_problem(fec: str, line: Line) -> str | None:
    """Why a configured FEC cannot run on `line`, or None."""
    if fec in line.fec:
        return None
    return (f"{FEC_NAMES.get(fec, fec)} configured on {line.lanes} x {line.lane_gbps:g}G "
            f"{line.modulation} lanes: {line.clause}")
