"""Clos sizing: how many switches an upper tier needs and how the links spread over them.

Every sizing here is the same question: `members` lower switches each have between `u_min` and
`u_max` up ports; how many upper switches `S` with `capacity` down ports each hold them so that
every member reaches every upper switch with the same number of links (ECMP balance)?  The
answer is the smallest `S` for which some `u` (a multiple of `S`) fits:
    u_min <= u <= u_max,  u % S == 0,  members * u / S <= capacity.
With one link per pair (`S = u`) an upper switch holds at most `capacity` members: that is the
two-tier limit (a 64-port spine holds 64 leaves per rail group).
"""

from __future__ import annotations

from ..model.catalog import Catalog
from ..model.catalog_entities import DeviceModel, Role
from .hardware import switch_profile


def spine_block(
    members: int, u_min: int, u_max: int, capacity: int, min_upper: int = 1
) -> tuple[int, int] | None:
    """(S upper switches, u up links per member) or None when no balanced fit exists."""
    if members <= 0 or u_min <= 0 or capacity <= 0 or u_max < u_min:
        return None
    start = max(min_upper, -(-members * u_min // capacity))
    for upper in range(start, u_max + 1):
        u = -(-u_min // upper) * upper
        if u > u_max:
            continue
        if members * (u // upper) <= capacity:
            return upper, u
    return None


def larger_switches(
    catalog: Catalog, speed: int, technologies: set[str], needed_ports: int, exclude: str
) -> list[str]:
    """Catalog switches with at least `needed_ports` ports at `speed`, as 'id (N ports)'."""
    found: list[tuple[int, str]] = []
    for model in catalog.devices.values():
        if model.role not in (Role.LEAF, Role.SPINE, Role.CORE) or model.id == exclude:
            continue
        if technologies and not technologies & {t.value for t in model.technology}:
            continue
        profile = switch_profile(model, speed)
        if profile is not None and profile.ports >= needed_ports:
            found.append((profile.ports, model.id))
    return [f"{mid} ({ports} ports at {speed}G)" for ports, mid in sorted(found)]


def or_use(alternatives: list[str]) -> str:
    if not alternatives:
        return ""
    return " or use " + ", ".join(alternatives[:3])


def tech_set(models: list[DeviceModel]) -> set[str]:
    common: set[str] | None = None
    for model in models:
        techs = {t.value for t in model.technology}
        common = techs if common is None else common & techs
    return common or set()
