"""Physical-layer facts the rules share: which module fits which cage, what a cable is made of,
the PMD family of an optic, the reach of an optic over a fibre grade.

What fits where (module or cable end in a cage, optic in a cage's mode) is model/fit.py's job;
this module re-exports its plug checks for the rules that import them from here.
"""

from __future__ import annotations

import re

from ..model.catalog_entities import CableAssembly, Transceiver

# the plug facts live in model/fit.py; these names stay importable from here
from ..model.fit import CAGE_ACCEPTS, fabric_family, fits, top_problem  # noqa: F401
from ..model.fit import cable_lane_gbps as lane_gbps_of_cable  # noqa: F401
from ..model.fit import optic_lane_gbps as lane_gbps_of_optic  # noqa: F401

COPPER_TYPES = frozenset({"DAC", "ACC", "AEC", "UTP"})


def cable_media(cable: CableAssembly) -> str:
    """`copper`, `MMF` or `SMF` (an AOC counts as multimode)."""
    if cable.type in COPPER_TYPES:
        return "copper"
    if cable.type == "AOC":
        return "MMF"
    return "SMF" if cable.fibre_grade == "OS2" else "MMF"


def media_label(cable: CableAssembly | None) -> str:
    if cable is None:
        return "unset"
    if cable.type == "fibre":
        return f"fibre {cable.fibre_grade or '?'}"
    return cable.type


_PMD_MULTI = re.compile(r"^\d+x", re.IGNORECASE)


def pmd_family(pmd: str) -> str:
    """`2xSR4` -> `SR4`, `400GBASE-DR4` -> `DR4`: what must match at the two ends of a fibre."""
    base = _PMD_MULTI.sub("", pmd.upper())
    return base.rsplit("-", 1)[-1]


# PMD families of a breakout: the parallel optic at the cord's common end and the optic of
# each leg (hardware.md breakout table: 400G DR4 -> 4 x 100G DR, R35; 800G DR8 -> 2 x 400G DR4
# or 8 x 100G DR, R34; 800G SR8 -> 2 x 400G SR4, R37; 400G SR8 -> 2 x 200G SR4, R34/R35)
BREAKOUT_PMDS = frozenset({("DR4", "DR"), ("DR4", "DR1"), ("DR8", "DR4"), ("DR8", "DR"),
                           ("DR8", "DR1"), ("SR8", "SR4")})


def pmds_link(a: Transceiver, b: Transceiver, breakout: bool) -> bool:
    """Can the PMDs of `a` and `b` talk: the same family, or over a breakout cord a parallel
    optic and the optic of its legs."""
    fa, fb = pmd_family(a.pmd), pmd_family(b.pmd)
    return fa == fb or (breakout and ((fa, fb) in BREAKOUT_PMDS or (fb, fa) in BREAKOUT_PMDS))


def optic_reach_m(optic: Transceiver, grade: str | None) -> float | None:
    """The optic's reach over `grade` fibre, None when the table has no entry for it."""
    if grade is None:
        return None
    return getattr(optic.reach_m, grade, None)


def optic_port_speeds(optic: Transceiver) -> frozenset[int]:
    """The logical port speeds one optical port can run (from its per-port breakouts)."""
    speeds = {optic.port_gbps}
    for mode in optic.breakouts:
        match = re.match(r"^(\d+)x(\d+)G$", mode)
        if match:
            speeds.add(int(match.group(2)))
    return frozenset(speeds)


def optic_legs_per_port(optic: Transceiver, speed: int) -> int:
    """How many logical ports at `speed` one optical port carries (2 for 2x200G)."""
    legs = 1
    for mode in optic.breakouts:
        match = re.match(r"^(\d+)x(\d+)G$", mode)
        if match and int(match.group(2)) == speed:
            legs = max(legs, int(match.group(1)))
    return legs


def fmt_m(value: float | None) -> str:
    """12.0 -> '12', 1.5 -> '1.5', None -> 'unknown'."""
    if value is None:
        return "unknown"
    return f"{value:g}"
