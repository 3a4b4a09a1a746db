"""Compatibility rules of one link, evaluated once per link signature (signatures.py).

Each rule looks at the two ends (logical port, cage group, device model, optic in the cage) and
the cable, and returns issue templates:

- CABLE-UNSET: no cable or cord chosen;
- SPEED-MISMATCH: the two ports run at different speeds, or an optic / cable cannot run the
  port's speed, lanes or breakout;
- FORM-FACTOR: optic or cable plug vs cage (OSFP vs QSFP, flat vs finned top), fibre connector
  vs optic connector;
- MEDIA-MISMATCH: multimode vs single-mode, SR vs DR, cord grade vs optic, splitter vs
  straight cord at the wrong end;
- TECH-MISMATCH: InfiniBand vs Ethernet: an optic or cable that does not run the link's
  technology (model/fit.link_family: the fabric's, or Ethernet for an in-band / management port
  on an Ethernet switch), or two ends that run no common technology (a compute port of an
  InfiniBand design on an Ethernet switch);
- OPTIC-MISSING: a fibre cord to a cage without an optic;
- PORT-DUPLICATE: a DAC/ACC/AOC plug in a cage that already holds an optic.
"""

from __future__ import annotations

from ..media.facts import cable_media, optic_legs_per_port, optic_port_speeds, optic_reach_m
from ..model.catalog_entities import BreakoutMode, CableAssembly, Technology, Transceiver
from ..model.fec import optic_line
from ..model.fit import (
    CageSpec,
    cable_lane_gbps,
    cage_spec,
    cord_connectors,
    end_technology_reason,
    engine_problem,
    fits,
    lane_problem,
    leg_rate_problem,
    link_technology_problem,
    mode_problem,
    mode_technology_problem,
    optic_in_cage,
    optic_lane_gbps,
    plug_problem,
    pmd_family,
    pmds_link,
    polarity_flips,
    ports_per_optical_port,
    side_problem,
    top_problem,
    utp_rating_problem,
)
from ..model.wording import counted
from .findings import ERROR, WARNING
from .signatures import End, Issue, SigContext, SigRule

TECH_NAMES = {Technology.INFINIBAND: "InfiniBand", Technology.ETHERNET: "Ethernet"}


def _lbl(end: End) -> str:
    return "{" + end.label + "}"


def _cage(end: End) -> str:
    return "{c" + end.label + "}"


def _modes_at(end: End, speed: int) -> list[str]:
    """Modes of the end's cage group with legs at `speed`, most legs first."""
    found = [BreakoutMode.parse(m) for m in end.group.breakouts]
    return [m.name for m in sorted(found, key=lambda m: -m.legs) if m.speed_gbps == speed]


def _spec(end: End) -> CageSpec:
    return cage_spec(end.group, end.port.legs, end.port.speed_gbps, end.model.is_switch)


def _optic_ok(ctx: SigContext, end: End, optic: Transceiver) -> bool:
    """Does `optic` suit the end's cage, its breakout mode, side and the fabric technology?"""
    return optic_in_cage(_spec(end), optic, ctx.family) is None


def suggest_optic(ctx: SigContext, end: End) -> Transceiver | None:
    """A catalog optic that fits this end and matches the far end's optic and the cord."""
    other = ctx.other(end).optic
    cable = ctx.cable
    for optic in ctx.catalog_optics:
        if not _optic_ok(ctx, end, optic):
            continue
        if other is not None and (
            optic.media != other.media or pmd_family(optic.pmd) != pmd_family(other.pmd)
        ):
            continue
        if cable is not None and cable.type == "fibre" and (
            optic.connector != cable.a_end.connector or optic.media != cable_media(cable)
        ):
            continue
        return optic
    return None


def _optic_fix(ctx: SigContext, end: End, why: str) -> tuple[tuple | None, str]:
    better = suggest_optic(ctx, end)
    if better is None:
        return None, f"choose an optic that {why}"
    return ("optic", end.label, better.id), f"install {better.model} in cage {_cage(end)} of {{{end.label.upper()}}}"


# ---------------------------------------------------------------------------- rules
def cable_unset(ctx: SigContext) -> list[Issue]:
    if ctx.cable is not None:
        return []
    fix, fix_text = None, "choose a DAC/ACC/AOC or, with optics at both ends, a fibre cord"
    a, b = ctx.a.optic, ctx.b.optic
    if a is not None and b is not None and a.media == b.media and a.connector == b.connector:
        for cable in ctx.catalog_cables:
            if (cable.type == "fibre" and cable.legs == 1 and cable.a_end.connector == a.connector
                    and cable_media(cable) == a.media and ctx.family in cable.technology):
                fix, fix_text = ("cable", cable.id), f"use a {cable.model} fibre cord"
                break
    return [Issue(
        "CABLE-UNSET", WARNING,
        "{a} - {b}: no cable or fibre cord is chosen, so the BOM cannot count it and its "
        "reach is not checked",
        fix, fix_text,
    )]


def port_speed(ctx: SigContext) -> list[Issue]:
    a, b = ctx.a, ctx.b
    if a.port.speed_gbps == b.port.speed_gbps:
        return []
    fast, slow = (a, b) if a.port.speed_gbps > b.port.speed_gbps else (b, a)
    text = (
        f"{_lbl(a)} runs at {a.port.speed_gbps}G ({a.mode}) but {_lbl(b)} at "
        f"{b.port.speed_gbps}G ({b.mode}): the link would not come up at the intended speed"
    )
    fix, fix_text = None, "set both cages to breakout modes of the same speed"
    for end, target in ((fast, slow.port.speed_gbps), (slow, fast.port.speed_gbps)):
        modes = _modes_at(end, target)
        if modes and end.port.leg <= BreakoutMode.parse(modes[0]).legs:
            fix = ("mode", end.label, modes[0])
            fix_text = f"set cage {_cage(end)} of {{{end.label.upper()}}} to {modes[0]}"
            break
    return [Issue("SPEED-MISMATCH", ERROR, text, fix, fix_text)]


def optic_fit(ctx: SigContext) -> list[Issue]:
    issues: list[Issue] = []
    for end in ctx.ends:
        optic = end.optic
        if optic is None:
            continue
        group, port, where = end.group, end.port, f"{_lbl(end)} (cage {_cage(end)})"
        problem = engine_problem(_spec(end), optic)
        if problem:  # co-packaged optics: only the port's built-in engine serves it
            fix, fix_text = (("optic", end.label, None), "remove the optic: the port's optics "
                             "are built in") if group.optical_engine else (None, "remove it")
            issues.append(Issue("FORM-FACTOR", ERROR, f"{where}: {problem}", fix, fix_text))
            continue
        if not fits(group.form_factor, optic.form_factor):
            fix, fix_text = _optic_fix(ctx, end, f"fits a {group.form_factor} cage")
            issues.append(Issue(
                "FORM-FACTOR", ERROR,
                f"{where}: the {optic.model} is a {optic.form_factor} module; the cage is "
                f"{group.form_factor}", fix, fix_text))
            continue
        problem = top_problem(group.form_factor, group.top, optic.top)
        if problem:
            fix, fix_text = _optic_fix(ctx, end, f"has a {group.top} top")
            issues.append(Issue(
                "FORM-FACTOR", ERROR,
                f"{where}: the {optic.model} is {optic.top}-top but the cage is {group.top}: "
                f"{problem}", fix, fix_text))
        problem = lane_problem(_spec(end), optic_lane_gbps(optic))
        if problem:  # first: a module of faster lanes runs in no mode of the cage
            fix, fix_text = _optic_fix(ctx, end, f"runs {group.lane_gbps}G lanes")
            issues.append(Issue(
                "SPEED-MISMATCH", ERROR, f"{where}: the {optic.model}: {problem}", fix,
                fix_text if fix else "choose an optic of the cage's lane rate"))
            continue
        speeds = optic_port_speeds(optic)
        if port.speed_gbps not in speeds:
            fix, fix_text = None, f"run the port at {optic.port_gbps}G or choose another optic"
            modes = _modes_at(end, optic.port_gbps)
            if modes:
                fix, fix_text = ("mode", end.label, modes[0]), (
                    f"set cage {_cage(end)} of {{{end.label.upper()}}} to {modes[0]}")
            issues.append(Issue(
                "SPEED-MISMATCH", ERROR,
                f"{where}: the port runs at {port.speed_gbps}G ({end.mode}) but the "
                f"{optic.model} carries {'/'.join(f'{s}G' for s in sorted(speeds))} per optical "
                f"port", fix, fix_text))
            continue
        served = optic.optical_ports * optic_legs_per_port(optic, port.speed_gbps)
        if port.leg > served:
            issues.append(Issue(
                "SPEED-MISMATCH", ERROR,
                f"{where}: the cage runs {end.mode} but the {optic.model} serves only "
                f"{counted(served, 'port')}; port leg {port.leg} has no optical lane", None,
                "use a twin-port optic or a mode with fewer legs"))
        elif (problem := mode_problem(_spec(end), optic)) is not None:
            fix, fix_text = _optic_fix(ctx, end, f"serves a cage in {end.mode}")
            issues.append(Issue("SPEED-MISMATCH", ERROR, f"{where}: {problem}", fix, fix_text))
        problem = side_problem(optic, end.model.is_switch)
        if problem:
            side = "switch" if end.model.is_switch else "NIC"
            fix, fix_text = _optic_fix(ctx, end, f"is made for {side} cages")
            issues.append(Issue("FORM-FACTOR", ERROR, f"{where}: {problem}", fix, fix_text))
    return issues


def _runs(ctx: SigContext) -> str:
    """`this fabric runs X`, or `this link runs X` when the link's ends decide it."""
    name = TECH_NAMES[ctx.family]
    if ctx.family == ctx.fabric_family:
        return f"this fabric runs {name}"
    return f"this link runs {name} (its ends run {name}, not the fabric's {TECH_NAMES[ctx.fabric_family]})"


def technology(ctx: SigContext) -> list[Issue]:
    issues: list[Issue] = []
    family = ctx.family
    name = TECH_NAMES[family]
    for end in ctx.ends:
        optic = end.optic
        if optic is not None and family not in optic.technology:
            fix, fix_text = _optic_fix(ctx, end, f"supports {name}")
            issues.append(Issue(
                "TECH-MISMATCH", ERROR,
                f"{_lbl(end)}: the {optic.model} is "
                f"{'/'.join(TECH_NAMES[t] for t in optic.technology)} only; {_runs(ctx)}",
                fix, fix_text))
    cable = ctx.cable
    if cable is not None and family not in cable.technology:
        fix, fix_text = None, f"choose a cable that supports {name}"
        for other in ctx.catalog_cables:
            if (family in other.technology and other.type == cable.type and other.legs == cable.legs
                    and other.a_end == cable.a_end and other.b_end == cable.b_end):
                fix, fix_text = ("cable", other.id), f"use the {other.model}"
                break
        issues.append(Issue(
            "TECH-MISMATCH", ERROR,
            f"{{a}} - {{b}}: the {cable.model} is "
            f"{'/'.join(TECH_NAMES[t] for t in cable.technology)} only; {_runs(ctx)}",
            fix, fix_text))
    for end in ctx.ends:
        problem = mode_technology_problem(end.group, end.port.legs, end.port.speed_gbps, family)
        if problem:
            issues.append(Issue(
                "TECH-MISMATCH", ERROR, f"{_lbl(end)} (cage {_cage(end)}, {end.mode}): "
                f"the {end.model.model}: {problem}", None,
                f"set the cage to one of {', '.join(end.group.modes_for(family))} (and the far "
                "end to match)"))
    a, b = ctx.a, ctx.b
    fabric = ctx.fabric_family
    if link_technology_problem(a.group, a.model, b.group, b.model, fabric):
        why_a = end_technology_reason(a.group, a.model, fabric)
        why_b = end_technology_reason(b.group, b.model, fabric)
        issues.append(Issue(
            "TECH-MISMATCH", ERROR,
            f"the two ends of {{a}} - {{b}} cannot talk: at {{A}} ({a.model.model}) {why_a}, at "
            f"{{B}} ({b.model.model}) {why_b}", None,
            "wire the port to a switch of its technology (an InfiniBand and an Ethernet port "
            "need a gateway, not a link)"))
    return issues


def _cable_sides(ctx: SigContext, cable: CableAssembly) -> dict[str, str]:
    """Which end of the cable ('A' common end / 'B' leg end) sits at link end a and b."""

    def score(end: End, side: str) -> int:
        spec = cable.a_end if side == "A" else cable.b_end
        value = 0
        if fits(end.group.form_factor, spec.form_factor):
            value += 2
        if not top_problem(end.group.form_factor, end.group.top, spec.top):
            value += 1
        if side == "A" and cable.legs > 1 and end.port.legs == cable.legs:
            value += 4
        return value

    straight = score(ctx.a, "A") + score(ctx.b, "B")
    swapped = score(ctx.a, "B") + score(ctx.b, "A")
    return {"a": "A", "b": "B"} if straight >= swapped else {"a": "B", "b": "A"}


def _cable_modes(breakouts: list[str], legs: int, leg_gbps: int, side: str) -> list[str]:
    """Cage modes that match a cable end: the common end of a 1:N splitter needs Nx<leg>G, a
    splitter leg <leg>G, a straight cable <legs x speed> = its rate."""
    modes = [BreakoutMode.parse(m) for m in breakouts]
    if legs > 1 and side == "A":
        fitting = [m for m in modes if m.legs == legs and m.speed_gbps == leg_gbps]
    elif legs > 1:
        fitting = sorted((m for m in modes if m.speed_gbps == leg_gbps), key=lambda m: m.legs)
    else:
        fitting = [m for m in modes if m.legs * m.speed_gbps == leg_gbps]
    return [m.name for m in fitting]


def integrated_cable(ctx: SigContext) -> list[Issue]:
    cable = ctx.cable
    if cable is None or cable.type == "fibre":
        return []
    issues: list[Issue] = []
    sides = _cable_sides(ctx, cable)
    for end in ctx.ends:
        where = f"{_lbl(end)} (cage {_cage(end)})"
        if end.group.optical_engine is not None:  # co-packaged optics: a fibre port
            issues.append(Issue(
                "FORM-FACTOR", ERROR,
                f"{where}: the {cable.model} ({cable.type}) cannot go in: "
                f"{plug_problem(_spec(end), 'OSFP', 'none')}", None,
                "use a fibre cord to the port's built-in optics"))
            continue
        if end.optic is not None:
            issues.append(Issue(
                "PORT-DUPLICATE", ERROR,
                f"{where} holds the {end.optic.model} optic, and the {cable.model} "
                f"({cable.type}) brings its own plug for the same cage: one cage takes one module",
                ("optic", end.label, None),
                f"remove the optic from cage {_cage(end)} of {{{end.label.upper()}}}"))
        side = sides[end.label]
        spec = cable.a_end if side == "A" else cable.b_end
        group, port = end.group, end.port
        if not fits(group.form_factor, spec.form_factor):
            issues.append(Issue(
                "FORM-FACTOR", ERROR,
                f"{where}: the {cable.model} has a {spec.form_factor} plug at this end; the cage "
                f"is {group.form_factor}", None, "choose a cable with the cage's plug"))
            continue
        problem = top_problem(group.form_factor, group.top, spec.top)
        if problem:
            issues.append(Issue(
                "FORM-FACTOR", ERROR,
                f"{where}: the {cable.model} plug is {spec.top}-top, the cage is {group.top}: "
                f"{problem}", None, "use the cable variant with the matching top (e.g. -FLT)"))
        if cable.type == "UTP":  # rated, not clocked: BASE-T ports negotiate down
            rating = utp_rating_problem(cable, _spec(end))
            if rating:
                issues.append(Issue("SPEED-MISMATCH", ERROR, f"{where}: {rating}", None,
                                    "choose a cord rated for the port's speed"))
            continue
        if cable.leg_gbps is not None:
            bad = leg_rate_problem(cable, side, port.legs, port.speed_gbps) is not None
            if cable.legs > 1:
                expect = cable.leg_gbps
                want = f"{cable.legs}x{expect}G" if side == "A" else f"1x{expect}G"
            else:
                expect = cable.leg_gbps
                want = f"{expect}G in total per cage"
            if bad:
                fix, fix_text = None, f"run the cage at {want}"
                for mode in _cable_modes(group.breakouts, cable.legs, expect, side):
                    if port.leg <= BreakoutMode.parse(mode).legs:
                        fix = ("mode", end.label, mode)
                        fix_text = f"set cage {_cage(end)} of {{{end.label.upper()}}} to {mode}"
                        break
                issues.append(Issue(
                    "SPEED-MISMATCH", ERROR,
                    f"{where}: the {cable.model} carries {want} at this end but the port runs "
                    f"{end.mode}", fix, fix_text))
        problem = lane_problem(_spec(end), cable_lane_gbps(cable))
        if problem:
            issues.append(Issue(
                "SPEED-MISMATCH", ERROR, f"{where}: the {cable.model}: {problem}", None,
                "choose a cable of the cage's lane rate"))
    return issues


def _cord_connectors(ctx: SigContext, cable: CableAssembly) -> dict[str, str | None]:
    """The cord connector at link end a and b (model/fit.py decides)."""
    a, b = cord_connectors(cable, ctx.a.port.legs, ctx.a.optic, ctx.b.port.legs, ctx.b.optic)
    return {"a": a, "b": b}


def _polish_clash(cord: str, optic: str) -> str | None:
    """Why two connectors of one type but different polish do not mate, or None."""
    (c_type, _, c_polish), (o_type, _, o_polish) = cord.partition("/"), optic.partition("/")
    if c_type == o_type and {c_polish, o_polish} == {"APC", "UPC"}:
        return ("an angled (APC) and a flat (UPC) ferrule do not mate: the gap loses light and "
                "the end faces get damaged")
    return None


def _lines_detail(ctx: SigContext) -> str:
    """` (<line at a> against <line at b>)` when the two optics' lines differ (model/fec.py:
    lanes, lane rate, modulation, FEC per logical port), else ``."""
    lines = []
    for end in ctx.ends:
        if end.optic is not None:
            line = optic_line(end.optic, ports_per_optical_port(end.port.legs, end.optic))
            if line is not None:
                lines.append(line)
    if len(lines) != 2 or lines[0] == lines[1]:
        return ""
    return f" ({lines[0].text()} against {lines[1].text()})"


def fibre_cord(ctx: SigContext) -> list[Issue]:
    cable = ctx.cable
    if cable is None or cable.type != "fibre":
        return []
    issues: list[Issue] = []
    connectors = _cord_connectors(ctx, cable)
    for end in ctx.ends:
        issues.extend(_cord_end(ctx, cable, end, connectors[end.label]))
    issues.extend(_cord_optic_pair(ctx, cable))
    issues.extend(_cord_split(ctx, cable))
    return issues


def _cord_end(ctx: SigContext, cable: CableAssembly, end: End, connector: str | None) -> list[Issue]:
    """One end of a fibre cord: an optic is installed, with the cord's connector and media."""
    media = cable_media(cable)
    optic = end.optic
    where = f"{_lbl(end)} (cage {_cage(end)})"
    if optic is None:
        fix, fix_text = _optic_fix(ctx, end, f"takes a {connector} {media} cord")
        return [Issue(
            "OPTIC-MISSING", ERROR,
            f"{where}: the {cable.model} fibre cord needs an optic in the cage, and none is "
            f"installed", fix, fix_text)]
    issues: list[Issue] = []
    if connector and optic.connector != connector:
        polish = _polish_clash(connector, optic.connector)
        issues.append(Issue(
            "FORM-FACTOR", ERROR,
            f"{where}: the {cable.model} has {connector} at this end but the {optic.model} "
            f"takes {optic.connector}" + (f": {polish}" if polish else ""), None,
            f"use a {optic.connector} cord"))
    if optic.media != media:
        fix, fix_text = None, f"use a {optic.media} cord"
        for other in ctx.catalog_cables:
            if (other.type == "fibre" and cable_media(other) == optic.media
                    and other.legs == cable.legs and other.a_end.connector == optic.connector
                    and ctx.family in other.technology):
                fix, fix_text = ("cable", other.id), f"use the {other.model} ({other.fibre_grade})"
                break
        issues.append(Issue(
            "MEDIA-MISMATCH", ERROR,
            f"{where}: {cable.fibre_grade} {media} cord on the {optic.media} "
            f"{optic.model} ({optic.pmd})", fix, fix_text))
    elif optic_reach_m(optic, cable.fibre_grade) is None:
        issues.append(Issue(
            "MEDIA-MISMATCH", WARNING,
            f"{where}: the {optic.model} has no reach specified over {cable.fibre_grade} "
            f"fibre; only the cord's own maximum is checked", None,
            "use a fibre grade the optic's datasheet lists"))
    return issues


def _cord_optic_pair(ctx: SigContext, cable: CableAssembly) -> list[Issue]:
    """The two optics a fibre cord joins: same media, PMDs that talk, a crossing cord."""
    a, b = ctx.a.optic, ctx.b.optic
    if a is None or b is None:
        return []
    issues: list[Issue] = []
    if a.media != b.media:
        issues.append(Issue(
            "MEDIA-MISMATCH", ERROR,
            f"{{a}} has the {a.media} {a.model} ({a.pmd}) and {{b}} the {b.media} {b.model} "
            f"({b.pmd}): multimode and single-mode optics cannot link", None,
            "use the same media at both ends"))
    elif not pmds_link(a, b, breakout=cable.legs > 1):
        issues.append(Issue(
            "MEDIA-MISMATCH", ERROR,
            f"{{a}} runs {a.pmd} ({a.model}) and {{b}} {b.pmd} ({b.model}): the two PMDs "
            f"cannot talk{_lines_detail(ctx)}", None, "use optics of the same PMD family at both ends"))
    if polarity_flips(cable) is False:
        issues.append(Issue(
            "FIBRE-POLARITY", ERROR,
            f"{{a}} - {{b}}: the {cable.model} is a {cable.polarity} cord: between two "
            "transceivers it joins transmitter to transmitter, and the link never comes up", None,
            "use a cord that crosses over (MPO Type B, duplex LC A-to-B)"))
    return issues


def _cord_split(ctx: SigContext, cable: CableAssembly) -> list[Issue]:
    """Splitter vs straight: how many logical ports ride one optical port at each end."""
    per_port = {}
    for end in ctx.ends:
        if end.optic is not None:
            per_port[end.label] = ports_per_optical_port(end.port.legs, end.optic)
    if cable.legs > 1 and per_port and max(per_port.values()) < cable.legs:
        return [Issue(
            "SPEED-MISMATCH", ERROR,
            f"{{a}} - {{b}}: the 1:{cable.legs} splitter cord {cable.model} needs an optical port "
            f"split in {cable.legs} at one end (e.g. a twin-port optic in a 4x200G cage)", None,
            "use a straight cord, or split the cage")]
    if cable.legs == 1 and len(per_port) == 2 and per_port["a"] != per_port["b"]:
        split = "a" if per_port["a"] > 1 else "b"
        return [Issue(
            "SPEED-MISMATCH", ERROR,
            "{" + split + "} carries " + str(per_port[split]) + " ports on one optical port; a "
            f"straight cord {cable.model} reaches only one of them: use a 1:{per_port[split]} "
            "splitter cord", None, "use a splitter cord")]
    return []


RULES: list[tuple[str, SigRule]] = [
    ("cable-unset", cable_unset),
    ("port-speed", port_speed),
    ("optic-fit", optic_fit),
    ("technology", technology),
    ("integrated-cable", integrated_cable),
    ("fibre-cord", fibre_cord),
]
