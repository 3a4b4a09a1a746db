"""Growth headroom: how far the requirement's growth target fits a candidate before cables
must move, a spine must be added or a new tier is needed.

The answer is `aicnet grow`'s (change/growth.py): the design regrown with its own template
and fitted onto itself, so every cable that can stay, stays, and the bill of change says what
is added and what moves.  Growth fits when no existing cable moves or goes, no new tier
appears and, when the target says "within the same spines", no spine or core switch is added.
How far it fits is found on the design's own growth unit (a scalable unit, or a server for a
design without SUs): the target itself, else one unit, else the largest number of units in
between that fits (by bisection: a larger growth never moves fewer cables).  The free ports on
the top tier's switches are read from the analysis as well.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..analysis.report import AnalysisReport
from ..change.growth import ChangePlan, GrowthError, grow
from ..model.catalog_entities import Role
from ..model.document import FabricDocument
from ..model.fabric import GrowthTarget
from ..model.wording import counted
from .candidate import GrowthResult


@dataclass(frozen=True)
class _Unit:
    servers: int  # servers of one growth unit
    su: bool  # the design grows by scalable units


def _unit(doc: FabricDocument, servers: list[str]) -> _Unit:
    tags = {doc.devices[s].tags.get("su") for s in servers}
    if None in tags or not tags or len(servers) % len(tags):
        return _Unit(1, False)  # no SUs, or unequal ones (grow says why it cannot plan them)
    return _Unit(len(servers) // len(tags), True)


def _target_servers(target: GrowthTarget, unit: _Unit, gpus_per_server: int) -> int:
    if target.servers is not None:
        return target.servers
    if target.gpus is not None:
        return -(-target.gpus // max(gpus_per_server, 1))
    assert target.sus is not None
    if not unit.su:
        raise GrowthError("the design has no scalable units; state the growth target in "
                          "servers or GPUs")
    return target.sus * unit.servers


def _words(asked: int, servers: int, unit: _Unit) -> str:
    """`4 SUs (128 servers)`; a target rounded up to whole SUs says what was asked."""
    if not unit.su:
        return f"{servers} servers"
    rounded = "" if asked == servers else f"; {asked} asked, in whole SUs of {unit.servers}"
    return f"{counted(servers // unit.servers, 'SU')} ({servers} servers{rounded})"


@dataclass(frozen=True)
class _Assessment:
    spines: int
    cores: int
    new_tier: bool
    moved: int
    removed: int
    added: int


def _assess(doc: FabricDocument, plan: ChangePlan) -> _Assessment:
    added = plan.diff.devices_added
    roles_before = {doc.role_of(d) for d in doc.devices.values()}
    roles_added = [plan.result.role_of(d) for d in added]
    return _Assessment(
        spines=roles_added.count(Role.SPINE), cores=roles_added.count(Role.CORE),
        new_tier=any(r not in roles_before for r in roles_added),
        moved=len(plan.diff.links_reterminated), removed=len(plan.diff.links_removed),
        added=len(added))


def _fits(found: _Assessment, same_spines: bool) -> bool:
    return (not found.moved and not found.removed and not found.new_tier
            and not (same_spines and (found.spines or found.cores)))


def _top_free_ports(doc: FabricDocument, report: AnalysisReport) -> int:
    roles = {doc.role_of(d) for d in doc.devices.values()}
    top = Role.CORE if Role.CORE in roles else Role.SPINE
    names = {d.name for d in doc.devices.values() if doc.role_of(d) == top}
    per = report.metrics.breakouts.devices
    return sum(per[n]["free_ports"] for n in names if n in per)


def growth_headroom(doc: FabricDocument, report: AnalysisReport, target: GrowthTarget,
                    checkpoint: Callable[[], None] = lambda: None) -> GrowthResult:
    """How far `target` fits the design (see the module docstring)."""
    servers = sorted(d.id for d in doc.devices.values() if doc.role_of(d) == Role.GPU_SERVER)
    unit = _unit(doc, servers)
    free = _top_free_ports(doc, report)
    gpus = doc.device_model(servers[0]).gpus if servers else 0
    try:
        wanted = _target_servers(target, unit, gpus)
    except GrowthError as exc:
        return GrowthResult(f"{target.sus} SUs", 0, False, False, str(exc), None,
                            top_free_ports=free)
    now = len(servers)
    steps = -(-(wanted - now) // unit.servers) if wanted > now else 0
    wanted_words = _words(wanted, now + steps * unit.servers, unit)
    if steps == 0:
        return GrowthResult(wanted_words, wanted, True, True,
                            f"the design already holds {now} servers", 0, top_free_ports=free)
    cache: dict[int, _Assessment] = {}

    def assess(units: int) -> _Assessment:
        if units not in cache:
            checkpoint()
            plan = grow(doc, add_sus=units) if unit.su else grow(doc, add_servers=units)
            cache[units] = _assess(doc, plan)
        return cache[units]

    try:
        full = assess(steps)
        if _fits(full, target.same_spines):
            best = steps
        elif steps == 1 or not _fits(assess(1), target.same_spines):
            best = 0
        else:
            low, high = 1, steps  # low fits, high does not
            while high - low > 1:
                middle = (low + high) // 2
                if _fits(assess(middle), target.same_spines):
                    low = middle
                else:
                    high = middle
            best = low
    except GrowthError as exc:
        return GrowthResult(wanted_words, wanted, False, False,
                            f"growth cannot be planned: {exc}", None, top_free_ports=free)
    fits = best == steps
    headroom = best * unit.servers
    return GrowthResult(
        wanted_words, now + steps * unit.servers, True, fits, _verdict(full, fits, headroom,
                                                                       wanted_words, doc),
        headroom, full.spines, full.cores, full.new_tier, full.moved, full.removed, full.added,
        free)


def _verdict(full: _Assessment, fits: bool, headroom: int, wanted: str,
             doc: FabricDocument) -> str:
    if fits:
        return (f"grows to {wanted} without moving a cable: {full.added} devices added"
                + (f", {counted(full.spines, 'spine')}" if full.spines else ""))
    needs = []
    if full.new_tier:
        needs.append("a new switch tier")
    if full.spines:
        needs.append(f"{counted(full.spines, 'more spine')}")
    if full.cores:
        needs.append(f"{counted(full.cores, 'more core switch', 'more core switches')}")
    if full.moved or full.removed:
        needs.append(f"{full.moved + full.removed:,} of the {len(doc.links):,} existing cables "
                     "moved or removed")
    before = (f"{headroom} more servers fit before that" if headroom
              else "no growth fits before that")
    return f"growing to {wanted} needs {', '.join(needs) or 'changes'}; {before}"
