"""A requirement no candidate can meet is refused before anything is built, with what would
work:

- a server model or switch model the catalog does not have (the known ones are named);
- workloads that need more servers than the cluster has;
- a rack power budget below what one server draws (the catalog's maximum, the figure the BOM
  and the generator's rack placement count): the smallest budget that holds one, and how many
  the default 42 kW rack holds;
- more servers than three tiers of the largest allowed switch connect at the sweep's most
  permissive oversubscription: the most they connect (the three-tier planner's own sizing),
  and the catalog switches that would connect the cluster when they are not allowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.catalog import Catalog
from ..model.fabric import Requirement
from ..model.power import share_watts
from .axes import catalog_switches, runs_technology
from .generator_calls import GeneratorError, server_gpus, three_tier_servers
from .requirement_workloads import sized_servers


class StudyError(ValueError):
    """A requirement no candidate can meet, or input a study cannot use: the message says why
    and what would work."""


@dataclass(frozen=True)
class Sized:
    """The cluster a requirement asks for."""

    servers: int
    gpus_per_server: int
    notes: tuple[str, ...]


def _known_switch(catalog: Catalog, model_id: str) -> None:
    model = catalog.devices.get(model_id)
    if model is None or not model.is_switch:
        known = ", ".join(m.id for m in catalog_switches(catalog))
        what = "is not in the catalog" if model is None else f"is a {model.role.value}"
        raise StudyError(f"switch model {model_id!r} {what}; switches: {known}")


def size(requirement: Requirement, catalog: Catalog) -> Sized:
    """The servers of the requirement (GPUs rounded up to whole servers), its models checked."""
    try:
        gpus = server_gpus(catalog, requirement.server)
    except GeneratorError as exc:
        raise StudyError(str(exc)) from None
    for model_id in (*requirement.leaves, *requirement.spines):
        _known_switch(catalog, model_id)
    notes: list[str] = []
    if requirement.servers is not None:
        servers = requirement.servers
    else:
        assert requirement.gpus is not None
        servers = -(-requirement.gpus // max(gpus, 1))
        if servers * gpus != requirement.gpus:
            notes.append(f"{requirement.gpus} GPUs take whole servers: {servers} x "
                         f"{requirement.server} ({servers * gpus} GPUs)")
    needed = sized_servers(requirement, gpus)
    if needed > servers:
        raise StudyError(f"the workloads take {needed} servers, and the cluster has {servers}; "
                         f"ask for at least {needed} servers or smaller workloads")
    return Sized(servers, gpus, tuple(notes))


def check_rack_power(requirement: Requirement, catalog: Catalog) -> None:
    model = catalog.device(requirement.server)
    watts = share_watts(model)
    budget = requirement.site.rack_power_kw
    if watts is None or watts <= budget * 1000:
        return
    per_default = int(42_000 // watts)
    raise StudyError(
        f"one {model.model} draws {watts / 1000:g} kW at its maximum, more than the site's "
        f"{budget:g} kW rack budget, so no rack can hold a server: racks of at least "
        f"{watts / 1000:g} kW are needed (a 42 kW rack holds {per_default})")


def _allowed_switches(requirement: Requirement, catalog: Catalog) -> list[str]:
    if requirement.leaves or requirement.spines:
        return list(dict.fromkeys([*requirement.leaves, *requirement.spines]))
    technologies = [t.value for t in requirement.technologies]
    return [m.id for m in catalog_switches(catalog)
            if not technologies or any(runs_technology(m, t) for t in technologies)]


def _capacity(catalog: Catalog, requirement: Requirement, switch: str) -> int:
    """The most servers three tiers of `switch` connect over the sweep's speeds and ratios."""
    best = 0
    speeds: list[int | None] = list(requirement.sweep.speeds_gbps) or [None]
    ratio = max(requirement.sweep.oversubscription)
    for speed in speeds:
        try:
            best = max(best, three_tier_servers(catalog, requirement.server, switch, speed,
                                                ratio))
        except GeneratorError:
            continue  # this switch cannot carry the server at that speed: its candidates say so
    return best


def check_scale(requirement: Requirement, catalog: Catalog, servers: int) -> None:
    allowed = _allowed_switches(requirement, catalog)
    capacities = {switch: _capacity(catalog, requirement, switch) for switch in allowed}
    capacities = {s: n for s, n in capacities.items() if n}  # 0: cannot carry the server at
    if not capacities or max(capacities.values()) >= servers:  # all, its candidates say why
        return
    largest = max(capacities, key=lambda s: (capacities[s], s))
    most = capacities[largest]
    ratio = max(requirement.sweep.oversubscription)
    gpus = server_gpus(catalog, requirement.server)
    others = [m.id for m in catalog_switches(catalog) if m.id not in capacities]
    bigger = [s for s in others if _capacity(catalog, requirement, s) >= servers]
    model = catalog.device(requirement.server).model
    raise StudyError(
        f"{servers:,} {model} ({servers * gpus:,} GPUs) are more than three tiers of any "
        f"allowed switch connect at {ratio:g}:1: the largest, {largest}, connects at most "
        f"{most:,} servers ({most * gpus:,} GPUs); ask for at most {most:,} servers, "
        f"split the cluster into fabrics of at most {most:,} servers"
        + (f", or allow {', '.join(bigger)}" if bigger else "")
        + (f", or a higher oversubscription than {ratio:g}:1" if ratio < 16 else ""))


def check(requirement: Requirement, catalog: Catalog) -> Sized:
    """The cluster of `requirement`, or StudyError when no candidate can meet it."""
    sized = size(requirement, catalog)
    check_rack_power(requirement, catalog)
    check_scale(requirement, catalog, sized.servers)
    return sized
