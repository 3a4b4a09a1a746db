"""Facts about media the analysis rules and the media choice share: what a cable is made of,
how it is labelled, the reach of an optic over a fibre grade, the port speeds and legs of an
optical port.

What fits where (a module or a cable end in a cage, an optic in a cage's mode, the PMDs of a
link) is `model/fit.py`'s job; this module holds what is said of one part alone.
"""

from __future__ import annotations

import re

from ..model.catalog_entities import CableAssembly, Transceiver

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
