"""What physically fits: an optic in a cage, a cable end in a cage, a cable between two cages,
a device in rack slots.  One house for these facts: the analysis rules, the inspector, the wire
drag and the media generators all ask here, so they cannot disagree.

Every check returns the reason it fails (a short phrase) or None.

Hardware facts (hardware.md §1.2, §2):
- QSFP-family cages take the narrower QSFP generations (a QSFP28 module or DAC works in a
  QSFP112 or QSFP-DD cage, at its own lower rate); OSFP and SFP are their own families.
- OSFP tops: flat-top modules go into cages with a riding heat sink (NICs, liquid-cooled
  switches), finned-top modules into air-cooled switch cages.
- A module or copper cable has no gearbox towards the host: its electrical lane rate must not
  exceed the cage's.
- Lane rates: a 112G SerDes carries 100G PAM4 lanes, a 224G SerDes 200G lanes (IEEE 802.3ck /
  802.3dj).  "200G-PAM4-based transceivers cannot downshift to 100G-PAM4 or 50G-PAM4" (NVIDIA's
  XDR part list): a 224G-lane module in a 112G cage is refused, at either end of a link.
- Co-packaged optics (CPO): the port is a fibre adapter in front of an optical engine built
  into the switch (`CageGroup.optical_engine`); only that engine serves it (`installed_optic`),
  no pluggable or copper cable goes in, and the engine goes nowhere else.
- A technology may allow fewer modes than the cage has (`CageGroup.technology_modes`: a
  ConnectX-8 on Ethernet runs 2 x 400GbE, "800GbE link speed is not supported on a single port").
- A cage runs one breakout mode (legs x speed); an optic serves it when its optical ports
  divide the legs and each optical port runs its share (`port_gbps`, or one of its published
  breakouts such as 2x200G, or a lower single rate such as 1x200G on a 400G NIC optic).
- A straight copper cable fills the cage at each end and carries the whole cage; a splitter's
  common end sits in a cage split into as many legs, each leg in an unsplit cage.
- A link runs one technology, decided by its ends (`link_family`): a port runs what its cage
  group states (a DGX H100's slot-3 100GbE and BMC ports: Ethernet, also in an InfiniBand design),
  else what a single-technology model runs, else (a fabric port) the fabric's; every optic
  and cable of the link is judged in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from .catalog_entities import (
    CableAssembly,
    CableEnd,
    CageGroup,
    DeviceModel,
    Technology,
    Transceiver,
)
from .fabric import FabricTechnology
from .fec import optic_line
from .wording import ru_span

# cage form factor -> module / plug form factors it accepts
CAGE_ACCEPTS: dict[str, frozenset[str]] = {
    "OSFP": frozenset({"OSFP"}),
    "QSFP112": frozenset({"QSFP112", "QSFP56", "QSFP28"}),
    "QSFP56": frozenset({"QSFP56", "QSFP28"}),
    "QSFP28": frozenset({"QSFP28"}),
    "QSFP-DD": frozenset({"QSFP-DD", "QSFP112", "QSFP56", "QSFP28"}),
    "QSFP-DD800": frozenset({"QSFP-DD800", "QSFP-DD", "QSFP112", "QSFP56", "QSFP28"}),
    "SFP112": frozenset({"SFP112", "SFP28"}),
    "SFP28": frozenset({"SFP28"}),
    "RJ45": frozenset({"RJ45"}),
    "CPO": frozenset({"CPO"}),
}


class CageSpec(NamedTuple):
    """What decides which modules fit a cage: form factor, top, mode (legs x speed), the
    electrical lane rate, switch or NIC side, and (co-packaged optics) the built-in engine."""

    form_factor: str
    top: str
    legs: int
    speed: int
    lane: int
    switch: bool
    engine: str | None = None


def cage_spec(group: CageGroup, legs: int, speed: int, switch: bool) -> CageSpec:
    """The spec of a cage of `group` running `legs` x `speed` G."""
    return CageSpec(group.form_factor, group.top, legs, speed, group.lane_gbps, switch,
                    group.optical_engine)


def installed_optic(model: DeviceModel, cage: int, configured: str | None) -> str | None:
    """The catalog id of the optic a cage holds: the one configured, else (co-packaged optics)
    the engine built in behind it; None for an empty cage."""
    return configured or model.optical_engines.get(cage)


def serdes_name(lane_gbps: float) -> str:
    """The SerDes class of an electrical lane rate: 100G lanes run on 112G SerDes, 200G on 224G
    (the PAM4 signalling rate with FEC overhead); other rates as they are."""
    names = {200: "224G SerDes", 100: "112G SerDes", 50: "56G SerDes", 25: "28G SerDes"}
    return names.get(int(lane_gbps), f"{lane_gbps:g}G lanes")


def fabric_family(technology: FabricTechnology | str) -> Technology:
    """InfiniBand for an InfiniBand fabric; Ethernet for RoCEv2 and plain Ethernet."""
    value = technology.value if isinstance(technology, FabricTechnology) else str(technology)
    return Technology.INFINIBAND if value == "infiniband" else Technology.ETHERNET


# ---------------------------------------------------------------------- technology of a link
_TECH_NAME = {Technology.INFINIBAND: "InfiniBand", Technology.ETHERNET: "Ethernet"}


def _techs_text(techs: Iterable[Technology]) -> str:
    return "/".join(_TECH_NAME[t] for t in sorted(techs))


def end_technologies(group: CageGroup, model: DeviceModel, fabric: Technology) -> frozenset[Technology]:
    """What a port of `group` on `model` can run, in a fabric of `fabric`: the group's own
    `technology` when the catalog states it (a DGX H100's slot-3 100GbE card, a BMC: Ethernet; a
    VPI storage NIC: both), else the model's when it runs only one (an Ethernet-only switch),
    else the fabric's for a fabric port, else any the model runs (a management port of a VPI
    server)."""
    if group.technology:
        return frozenset(group.technology)
    if len(model.technology) == 1 or not group.fabric:
        return frozenset(model.technology)
    return frozenset({fabric})


def end_technology_reason(group: CageGroup, model: DeviceModel, fabric: Technology) -> str:
    """Why a port of `group` runs what `end_technologies` says, as a phrase."""
    if group.technology:
        return f"its {group.name} ports run {_techs_text(group.technology)}"
    if len(model.technology) == 1 or not group.fabric:
        return f"the {model.model} is {_techs_text(model.technology)} only" \
            if len(model.technology) == 1 else f"the {model.model} runs {_techs_text(model.technology)}"
    return f"its {group.name} ports are fabric ports and run the fabric's {_TECH_NAME[fabric]}"


def link_family(a_group: CageGroup, a_model: DeviceModel, b_group: CageGroup,
                b_model: DeviceModel, fabric: Technology) -> Technology:
    """The technology one link runs: the fabric's when both ends can run it, else the one both
    ends share (an in-band port to an Ethernet management switch in an InfiniBand design runs
    Ethernet); the fabric's when the ends share none (`link_technology_problem` says why)."""
    common = end_technologies(a_group, a_model, fabric) & end_technologies(b_group, b_model, fabric)
    if fabric in common or not common:
        return fabric
    return min(common)


def link_technology_problem(a_group: CageGroup, a_model: DeviceModel, b_group: CageGroup,
                            b_model: DeviceModel, fabric: Technology) -> str | None:
    """Why the two ends of a link run no common technology, or None."""
    if end_technologies(a_group, a_model, fabric) & end_technologies(b_group, b_model, fabric):
        return None
    return f"{end_technology_reason(a_group, a_model, fabric)}; {end_technology_reason(b_group, b_model, fabric)}"


def cage_family(group: CageGroup, model: DeviceModel, fabric: Technology) -> Technology:
    """The technology an unwired cage of `group` is equipped for: the fabric's when the port
    can run it, else the one it runs (the family of a link from it to a port of any kind)."""
    techs = end_technologies(group, model, fabric)
    return fabric if fabric in techs else min(techs)


# ---------------------------------------------------------------------- plugs in a cage
def fits(cage_form: str, module_form: str | None) -> bool:
    """Does a module or plug of `module_form` go into a `cage_form` cage?"""
    if module_form is None:
        return False
    return module_form in CAGE_ACCEPTS.get(cage_form, frozenset({cage_form}))


def top_problem(cage_form: str, cage_top: str, module_top: str) -> str | None:
    """Why a module/plug top does not suit the cage, or None (OSFP only)."""
    if cage_form != "OSFP" or cage_top == "none" or module_top == "none" or cage_top == module_top:
        return None
    if module_top == "finned":
        return "a finned-top module does not fit a flat cage with a riding heat sink"
    return "a flat-top module in a finned (air-cooled) switch cage has no heat sink and overheats"


def plug_problem(spec: CageSpec, form_factor: str | None, top: str) -> str | None:
    """Why a module or cable plug (form factor, top) does not go into the cage, or None."""
    if spec.form_factor == "CPO" and form_factor != "CPO":
        return (f"a co-packaged optics port takes a fibre, not a {form_factor or 'fibre'} plug: "
                "its optical engine is built in")
    if form_factor == "CPO" and spec.form_factor != "CPO":
        return f"a co-packaged optical engine is built into its switch, not plugged into a {spec.form_factor} cage"
    if not fits(spec.form_factor, form_factor):
        return f"a {form_factor or 'fibre'} plug does not go into a {spec.form_factor} cage"
    return top_problem(spec.form_factor, spec.top, top)


# ---------------------------------------------------------------------- optics
def optic_split(optic: Transceiver, legs: int, speed: int) -> int | None:
    """Logical ports per optical port when `optic` serves a cage in `legs` x `speed` G; None
    when it cannot (its optical ports do not divide the legs, or no port rate matches)."""
    if legs % optic.optical_ports:
        return None
    per_port = legs // optic.optical_ports
    if per_port == 1:
        return 1 if speed == optic.port_gbps or f"1x{speed}G" in optic.breakouts else None
    return per_port if f"{per_port}x{speed}G" in optic.breakouts else None


def optic_lane_gbps(optic: Transceiver) -> float:
    return optic.port_gbps / optic.lanes_per_port


def side_problem(optic: Transceiver, switch: bool) -> str | None:
    """Why the optic does not belong on this side (switch / NIC) of a link, or None."""
    if optic.switch_side is None or optic.switch_side == switch:
        return None
    return f"the {optic.model} is made for {'switch' if optic.switch_side else 'NIC'} cages only"


def mode_problem(spec: CageSpec, optic: Transceiver) -> str | None:
    """Why the optic cannot serve the cage's breakout mode, or None."""
    if optic_split(optic, spec.legs, spec.speed) is not None:
        return None
    return (f"the {optic.model} ({optic.optical_ports} x {optic.port_gbps}G optical ports, "
            f"breakouts {', '.join(optic.breakouts) or 'none'}) cannot serve a cage in "
            f"{spec.legs}x{spec.speed}G")


def lane_problem(spec: CageSpec, lane_gbps: float | None) -> str | None:
    """Why a part of `lane_gbps` electrical lanes cannot run in the cage (no gearbox), or None."""
    if lane_gbps is None or lane_gbps <= spec.lane:
        return None
    return (f"it needs {lane_gbps:g}G electrical lanes ({serdes_name(lane_gbps)}) but the cage "
            f"runs {spec.lane}G lanes ({serdes_name(spec.lane)}): a module has no gearbox "
            "to slower lanes")


def engine_problem(spec: CageSpec, optic: Transceiver) -> str | None:
    """Why `optic` is not the optics of a co-packaged optics port (only its built-in engine
    is), or why a built-in engine is offered for another cage; None when neither."""
    if spec.engine is not None and optic.id != spec.engine:
        return "the port's optics are co-packaged with the switch: no other optic goes in"
    if optic.co_packaged and spec.engine != optic.id:
        return f"the {optic.model} is built into its switch, not a pluggable module"
    return None


def mode_technology_problem(group: CageGroup, legs: int, speed: int,
                            family: Technology) -> str | None:
    """Why a cage of `group` cannot run `legs` x `speed` G in a link of `family` (a ConnectX-8
    does not run 800GbE on one port), or None."""
    modes = group.modes_for(family)
    mode = f"{legs}x{speed}G"
    if mode in modes or mode not in group.breakouts:
        return None
    return (f"its {group.name} ports do not run {mode} on {_TECH_NAME[family]} "
            f"({', '.join(modes)} only)")


def technology_problem(technology: Iterable[Technology], family: Technology) -> str | None:
    if family in technology:
        return None
    return f"it does not support {'InfiniBand' if family == Technology.INFINIBAND else 'Ethernet'}"


def optic_in_cage(spec: CageSpec, optic: Transceiver, family: Technology) -> str | None:
    """Why `optic` cannot go into a cage of `spec` in a fabric of `family`, or None."""
    return (engine_problem(spec, optic)
            or plug_problem(spec, optic.form_factor, optic.top)
            or side_problem(optic, spec.switch)
            or technology_problem(optic.technology, family)
            or lane_problem(spec, optic_lane_gbps(optic))
            or mode_problem(spec, optic))


# ---------------------------------------------------------------------- cables
def cable_lane_gbps(cable: CableAssembly) -> float | None:
    if cable.leg_gbps is None or not cable.lanes_per_leg:
        return None
    return cable.leg_gbps / cable.lanes_per_leg


def leg_rate_problem(cable: CableAssembly, side: str, legs: int, speed: int) -> str | None:
    """Why end `side` ("A": common end, "B": leg end) of an integrated cable does not carry a
    cage in `legs` x `speed` G, or None: a splitter's common end needs Nx<leg>G, each leg an
    unsplit cage at <leg>G; a straight cable carries the whole cage."""
    if cable.leg_gbps is None:
        return None
    if cable.legs > 1:
        want_legs = cable.legs if side == "A" else 1
        if legs == want_legs and speed == cable.leg_gbps:
            return None
        return f"the {cable.model} carries {want_legs}x{cable.leg_gbps}G at this end"
    if legs * speed == cable.leg_gbps:
        return None
    return f"the {cable.model} carries {cable.leg_gbps}G in total per cage"


def cable_end_in_cage(cable: CableAssembly, side: str, spec: CageSpec) -> str | None:
    """Why end `side` ("A" or "B") of an integrated cable (DAC/ACC/AEC/AOC) does not go into a
    cage of `spec`, or None."""
    end: CableEnd = cable.a_end if side == "A" else cable.b_end
    if cable.type == "UTP":  # twisted pair is rated, not clocked: the ports negotiate down
        return plug_problem(spec, end.form_factor, end.top) or utp_rating_problem(cable, spec)
    return (plug_problem(spec, end.form_factor, end.top)
            or leg_rate_problem(cable, side, spec.legs, spec.speed)
            or lane_problem(spec, cable_lane_gbps(cable)))


def utp_rating_problem(cable: CableAssembly, spec: CageSpec) -> str | None:
    """A twisted-pair cord (Cat5e, Cat6A ...) carries any speed up to its rating (IEEE 802.3
    BASE-T autonegotiation): a Cat6A cord on a 1000BASE-T BMC port is fine, not on 25GBASE-T."""
    if cable.leg_gbps is None or spec.legs * spec.speed <= cable.leg_gbps:
        return None
    return f"the {cable.model} is rated for {cable.leg_gbps}G; the port runs {spec.speed}G"


def integrated_cable_between(
    cable: CableAssembly, a: CageSpec, b: CageSpec, family: Technology,
    optic_a: bool = False, optic_b: bool = False,
) -> str | None:
    """Why an integrated cable cannot join a cage of `a` and one of `b` (either way round), or
    None.  `optic_a`/`optic_b`: the cage already holds an optic (one cage takes one module)."""
    if cable.type == "fibre":
        return f"the {cable.model} is a fibre cord, not a cable with its own plugs"
    if optic_a or optic_b:
        return "a cage of the link holds an optic; the cable brings its own plug"
    problem = technology_problem(cable.technology, family)
    if problem:
        return problem
    straight = cable_end_in_cage(cable, "A", a) or cable_end_in_cage(cable, "B", b)
    if straight is None:
        return None
    swapped = cable_end_in_cage(cable, "B", a) or cable_end_in_cage(cable, "A", b)
    return None if swapped is None else straight


def cord_connectors(cable: CableAssembly, a_legs: int, optic_a: Transceiver | None,
                    b_legs: int, optic_b: Transceiver | None) -> tuple[str | None, str | None]:
    """The cord connector at link end a and b.  A breakout cord has different connectors at its
    common end (A) and its legs (B): the common end goes where the optic takes its connector
    and the port is split, the legs at the other end."""
    common, leg = cable.a_end.connector, cable.b_end.connector
    if common == leg:
        return common, common

    def score(legs: int, optic: Transceiver | None, connector: str | None) -> int:
        value = 2 if optic is not None and optic.connector == connector else 0
        return value + (1 if (legs > 1) == (connector == common) else 0)

    straight = score(a_legs, optic_a, common) + score(b_legs, optic_b, leg)
    swapped = score(a_legs, optic_a, leg) + score(b_legs, optic_b, common)
    return (common, leg) if straight >= swapped else (leg, common)


def polarity_flips(cable: CableAssembly) -> bool | None:
    """Does the cord cross transmit over to receive (TIA-568.3-D: MPO Type B, duplex A-to-B)?
    None when its polarity is not given or not recognised."""
    text = (cable.polarity or "").strip().lower()
    if text in ("type b", "crossover", "a-to-b"):
        return True
    if text in ("type a", "straight", "straight-through", "a-to-a"):
        return False
    return None


def ports_per_optical_port(legs: int, optic: Transceiver) -> int:
    """How many logical ports of a cage in `legs` legs ride one optical port of `optic`."""
    return max(1, legs // optic.optical_ports)


def optics_problem(optic_a: Transceiver, optic_b: Transceiver) -> str | None:
    """Why no fibre cord can join these two optics (media, or PMDs that do not talk even over
    a breakout cord), or None."""
    if optic_a.media != optic_b.media:
        return (f"{optic_a.model} is {optic_a.media} ({optic_a.pmd}), "
                f"{optic_b.model} is {optic_b.media} ({optic_b.pmd})")
    if not pmds_link(optic_a, optic_b, breakout=True):
        return (line_rate_problem(optic_a, optic_b) or
                f"{optic_a.model} runs {optic_a.pmd}, {optic_b.model} {optic_b.pmd}: they cannot talk")
    return None


def cord_between(cable: CableAssembly, a: CageSpec, optic_a: Transceiver | None,
                 b: CageSpec, optic_b: Transceiver | None, family: Technology) -> str | None:
    """Why a fibre cord cannot join the optics in a cage of `a` and one of `b`, or None: an
    optic at both ends, each taking the cord's connector at its end, of the cord's media and
    with a published reach over its grade; optics whose PMDs talk; a cord that crosses
    transmit to receive; a splitter where one optical port carries as many ports as it has
    legs, a straight cord where both carry the same number."""
    if cable.type != "fibre":
        return f"the {cable.model} is not a fibre cord"
    problem = technology_problem(cable.technology, family)
    if problem:
        return problem
    if optic_a is None or optic_b is None:
        return "a fibre cord needs an optic at both ends"
    connectors = cord_connectors(cable, a.legs, optic_a, b.legs, optic_b)
    for optic, connector in zip((optic_a, optic_b), connectors, strict=True):
        if connector and optic.connector != connector:
            return f"the {optic.model} takes {optic.connector}, the cord has {connector} there"
        if cable.media != optic.media:
            return f"the {optic.model} is {optic.media}, the cord is {cable.media}"
        if cable.fibre_grade is None or getattr(optic.reach_m, cable.fibre_grade) is None:
            return f"the {optic.model} has no published reach over {cable.fibre_grade} fibre"
    if optic_a.media != optic_b.media or not pmds_link(optic_a, optic_b, cable.legs > 1):
        return line_rate_problem(optic_a, optic_b) or f"{optic_a.pmd} and {optic_b.pmd} optics cannot talk"
    if polarity_flips(cable) is False:
        return f"the {cable.model} does not cross transmit over to receive"
    per_a = ports_per_optical_port(a.legs, optic_a)
    per_b = ports_per_optical_port(b.legs, optic_b)
    if cable.legs > 1 and max(per_a, per_b) < cable.legs:
        return f"a 1:{cable.legs} splitter cord needs an optical port split in {cable.legs}"
    if cable.legs == 1 and per_a != per_b:
        return f"a straight cord joins one port of an optical port carrying {max(per_a, per_b)}"
    return None


def cable_between(cable: CableAssembly, a: CageSpec, optic_a: Transceiver | None,
                  b: CageSpec, optic_b: Transceiver | None, family: Technology) -> str | None:
    """Why `cable` cannot be the media between a cage of `a` and one of `b` holding these
    optics (None: empty cage), or None."""
    if cable.type == "fibre":
        return cord_between(cable, a, optic_a, b, optic_b, family)
    return integrated_cable_between(cable, a, b, family, optic_a is not None, optic_b is not None)


# ---------------------------------------------------------------------- PMDs
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
    optic and the optic of its legs; and the same optical lane rate (model/fec.py: a 25G NRZ
    100GBASE-SR4 and a 100G PAM4 400G SR4 share a family name, not a line)."""
    fa, fb = pmd_family(a.pmd), pmd_family(b.pmd)
    if not (fa == fb or (breakout and ((fa, fb) in BREAKOUT_PMDS or (fb, fa) in BREAKOUT_PMDS))):
        return False
    return line_rate_problem(a, b) is None


def line_rate_problem(a: Transceiver, b: Transceiver) -> str | None:
    """Why the optical lanes of `a` and `b` run at different rates (no gearbox in a fibre),
    with the numbers, or None (the same rate, or a PMD name not parsed)."""
    line_a, line_b = optic_line(a), optic_line(b)
    if line_a is None or line_b is None or line_a.lane_gbps == line_b.lane_gbps:
        return None
    return (f"the {a.model} ({a.pmd}) runs {line_a.text()}, the {b.model} ({b.pmd}) "
            f"{line_b.text()}: no gearbox in a fibre")


# ---------------------------------------------------------------------- rack slots
def ru_overlap(ru: int, height: int, other_ru: int, other_height: int) -> bool:
    """Do RU `ru`..`ru+height-1` and `other_ru`..`other_ru+other_height-1` share a unit?"""
    return ru <= other_ru + other_height - 1 and other_ru <= ru + height - 1


def rack_slot_problem(
    rack_name: str, rack_height: int, ru: int, height: int,
    occupants: Iterable[tuple[str, int, int]],
) -> str | None:
    """Why a device `height` U tall cannot sit at `ru` of a rack, or None.  `occupants`: the
    (name, ru, height) of the devices already there."""
    if ru < 1 or ru + height - 1 > rack_height:
        return f"{height}U at RU {ru} does not fit {rack_name} ({rack_height}U)"
    for name, other_ru, other_height in occupants:
        if ru_overlap(ru, height, other_ru, other_height):
            return (f"{ru_span(ru, ru + height - 1)} of {rack_name} overlaps {name} "
                    f"({ru_span(other_ru, other_ru + other_height - 1)})")
    return None


def overlapping_racks(rack: np.ndarray, ru: np.ndarray, height: np.ndarray) -> np.ndarray:
    """The rack indices where two placed devices share a unit (`ru_overlap` over whole columns:
    one row per device with its rack index, bottom RU and height, all placed)."""
    if not len(rack):
        return np.zeros(0, dtype=rack.dtype)
    order = np.lexsort((ru, rack))
    rack, ru, top = rack[order], ru[order], (ru + height - 1)[order]
    clash = np.zeros(len(rack), dtype=bool)
    clash[1:] = (rack[1:] == rack[:-1]) & (ru[1:] <= _running_max_per_rack(rack, top)[:-1])
    return np.unique(rack[clash])


def _running_max_per_rack(rack: np.ndarray, top: np.ndarray) -> np.ndarray:
    """The highest top RU seen so far within each rack (rows sorted by rack, RU)."""
    starts = np.r_[True, rack[1:] != rack[:-1]]
    group = np.cumsum(starts) - 1
    # lift each rack's values above the previous racks' so the running max stays per rack
    offset = group * (int(top.max()) + 1)
    return np.maximum.accumulate(top + offset) - offset


# ---------------------------------------------------------------------- compute cages
def compute_group(model: DeviceModel) -> CageGroup | None:
    """The cage group of a server that carries its GPU NICs: `compute`, else the first fabric
    group (None for a model without fabric cages)."""
    for group in model.cages:
        if group.name == "compute":
            return group
    for group in model.cages:
        if group.fabric:
            return group
    return None
