"""Automatic media choice: for every link the cheapest media that reaches.

Preference (no part has a price in the catalog, so this order stands for cost, and power breaks
ties): passive DAC inside a rack where it reaches, active copper (ACC/AEC) inside a rack next,
then AOC, multimode optics (SR4-class) and single-mode optics (DR4, then FR4 ...).  A length
must also fit the part's stock ladder (a cord is ordered in a stock length).  A part the vendor
has discontinued (`discontinued: true` in the catalog) is never chosen.

The unit of choice is a *component*: the cages that links join, transitively.  One cage holds
one module, so
- a twin-port optic serves both links of its cage: both get the same optic and the same fibre
  kind (straight, or splitter on both), never mixed;
- a straight DAC/ACC/AOC fills a cage at each end: it serves one link between two 1-port cages,
  or both links of two twin-port cages wired leg to leg (one assembly id for the two links);
- a splitter DAC/ACC fills one cage with its single end and one 1-port cage per leg; its links
  share an `assembly` id; so do the legs of a splitter fibre cord;
- every link of a component uses one optical family (SR4, DR4, FR4 ...), because the two optics
  of a link must match and every cage has one optic.
Copper (DAC/ACC/AEC) is chosen only when every cage of the component is in the same rack.

`MediaSelector.select` works on plain link descriptions with integer cage indices (the
generators call it before anything is in the document); `rechoose.choose_media(doc, ...)` runs
it over a document's links after racks moved.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..model.catalog import Catalog
from ..model.catalog_entities import CableAssembly, Technology, Transceiver
from ..model.fabric import FabricTechnology
from ..model.fit import (
    CageSpec,
    cable_end_in_cage,
    cord_between,
    optic_in_cage,
    optic_split,
    pmd_family,
)
from .params import MEDIA_CLASSES, MediaParams

CLASS_RANK = {"dac": 0, "acc": 1, "aec": 2, "aoc": 3, "mmf": 4, "smf": 5}
_CABLE_CLASS = {"DAC": "dac", "ACC": "acc", "AEC": "aec", "AOC": "aoc"}
_COPPER = frozenset({"dac", "acc", "aec"})
_EVERYTHING = frozenset(MEDIA_CLASSES)


@dataclass(slots=True)
class Cage:
    device: str
    number: int
    spec: CageSpec
    rack: str | None


@dataclass(slots=True)
class MediaLink:
    """A link between two cages (indices into the cage list) and the legs it uses there."""

    id: str
    a: int
    a_leg: int
    b: int
    b_leg: int
    length_m: float | None
    tier: str


@dataclass(frozen=True, slots=True)
class Unresolved:
    links: tuple[str, ...]
    reason: str


@dataclass
class MediaSelection:
    """Per cage index the optic to install (None: an integrated cable fills the cage); per link
    id the cable (DAC/ACC/AOC or fibre cord) and its assembly id."""

    transceivers: dict[int, str | None] = field(default_factory=dict)
    cables: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    unresolved: list[Unresolved] = field(default_factory=list)
    need_m: dict[int, float] = field(default_factory=dict)  # per cage: its component's longest


@dataclass(frozen=True, slots=True)
class _Option:
    """An optic in a cage: `split` links per optical port (>1: splitter fibres)."""

    optic: Transceiver
    split: int
    family: tuple[str, str, str]
    reach: float


@dataclass(frozen=True, slots=True)
class Candidate:
    rank: int
    power: float
    limit: float
    media_class: str
    cable: str | None = None  # an integrated cable for the whole component
    optics: dict[CageSpec, _Option] = field(default_factory=dict)
    cords: dict[tuple[int, int], str] = field(default_factory=dict)
    straight: str | None = None  # the cord when no cage of the component splits


@dataclass(frozen=True, slots=True)
class Recipe:
    """How one component is equipped: per cage of `cages` (its cages in order of first use)
    the optic (None: an integrated cable fills it); per link its cable and assembly slot (-1:
    none, else the index of a new assembly id, numbered in order of first use); `length` is the
    component's longest link."""

    cages: tuple[int, ...]
    optics: tuple[str | None, ...]
    cables: tuple[str, ...]
    slots: tuple[int, ...]
    length: float

    @property
    def assemblies(self) -> int:
        return max(self.slots, default=-1) + 1


@dataclass(frozen=True, slots=True)
class Choices:
    """A component's cages in order of first use, its cage specs and allowed media classes,
    and the ways to equip it, cheapest first."""

    used: tuple[int, ...]
    specs: frozenset[CageSpec]
    allowed: frozenset[str]
    candidates: list[Candidate]

    def pick(self, length: float) -> Candidate | None:
        """The cheapest candidate that reaches `length` m."""
        for candidate in self.candidates:
            if candidate.limit + 1e-9 >= length:
                return candidate
        return None


def _end_fits(cable: CableAssembly, side: str, spec: CageSpec) -> bool:
    return cable_end_in_cage(cable, side, spec) is None


def stock_limit(cable: CableAssembly) -> float:
    """The longest run a part covers: its maximum length, capped by its stock ladder."""
    return min(cable.max_length_m, max(cable.stock_lengths_m))


class MediaSelector:
    """Chooses media per component; caches its reasoning per component shape."""

    def __init__(self, catalog: Catalog, technology: str, params: MediaParams | None = None) -> None:
        self.params = params or MediaParams()
        self.technology = technology
        self.family = Technology(technology)
        excluded = set(self.params.excluded_parts)
        self.optics = [
            t for t in catalog.transceivers.values()
            if t.id not in excluded and not t.discontinued
            and technology in {x.value for x in t.technology}
        ]
        usable = [
            c for c in catalog.cables.values()
            if c.id not in excluded and not c.discontinued
            and technology in {x.value for x in c.technology}
        ]
        self.integrated = [c for c in usable if c.type in _CABLE_CLASS]
        self.cords: dict[tuple[str, str, int], list[CableAssembly]] = {}
        for cord in usable:
            if cord.type == "fibre" and cord.fibre_grade is not None:
                key = (cord.a_end.connector or "", cord.fibre_grade, cord.legs)
                self.cords.setdefault(key, []).append(cord)
        for cords in self.cords.values():
            cords.sort(key=lambda c: (c.power_w, stock_limit(c), c.id))
        self._options: dict[CageSpec, list[_Option]] = {}
        self._candidates: dict[tuple, list[Candidate]] = {}

    # ------------------------------------------------------------------ optics per cage
    def _grade(self, media: str) -> str:
        return self.params.fibre_grade if media == "MMF" else "OS2"

    def options(self, spec: CageSpec) -> list[_Option]:
        """Optics that fit a cage, cheapest first (power, then shorter reach)."""
        cached = self._options.get(spec)
        if cached is not None:
            return cached
        found: list[_Option] = []
        for optic in self.optics:
            if optic_in_cage(spec, optic, self.family) is not None:
                continue
            split = optic_split(optic, spec.legs, spec.speed)
            if split is None:
                continue
            reach = getattr(optic.reach_m, self._grade(optic.media))
            if not reach:
                continue
            family = (pmd_family(optic.pmd), optic.media, optic.connector)
            found.append(_Option(optic, split, family, float(reach)))
        only = {self.technology}
        found.sort(key=lambda o: (
            o.optic.power_w, o.reach,
            0 if {t.value for t in o.optic.technology} == only else 1, o.optic.id,
        ))
        self._options[spec] = found
        return found

    # ------------------------------------------------------------------ candidates
    def _cable_candidates(self, shape: tuple) -> list[Candidate]:
        kind = shape[0]
        found: list[Candidate] = []
        for cable in self.integrated:
            if kind in ("p2p", "bundle"):
                # one straight cable fills both cages (a bundle: a twin cage leg to leg)
                a, b = shape[-2], shape[-1]
                ok = cable.legs == 1 and _both_ways(cable, a, b)
            else:  # star: a splitter's common end in the hub, each leg in an unsplit cage
                hub, leaves = shape[1], shape[2]
                ok = (cable.legs == hub.legs and _end_fits(cable, "A", hub)
                      and all(_end_fits(cable, "B", leaf) for leaf in leaves))
            if ok:
                media_class = _CABLE_CLASS[cable.type]
                found.append(Candidate(CLASS_RANK[media_class], cable.power_w, stock_limit(cable),
                                        media_class, cable=cable.id))
        return found

    def _optics_candidates(
        self, specs: frozenset[CageSpec], pairs: frozenset[tuple[CageSpec, CageSpec]]
    ) -> list[Candidate]:
        per_spec = {spec: self.options(spec) for spec in specs}
        families: set[tuple[str, str, str]] | None = None
        for options in per_spec.values():
            fams = {o.family for o in options}
            families = fams if families is None else families & fams
        found: list[tuple[tuple, Candidate]] = []
        for family in sorted(families or ()):
            _, media, connector = family
            grade = self._grade(media)
            in_family = {s: [o for o in opts if o.family == family] for s, opts in per_spec.items()}
            steps = {o.reach for opts in in_family.values() for o in opts}
            steps |= {stock_limit(c) for cs in self.cords.values() for c in cs}
            for limit in sorted(steps):
                chosen = {}
                for spec, opts in in_family.items():
                    pick = next((o for o in opts if o.reach >= limit), None)
                    if pick is None:
                        break
                    chosen[spec] = pick
                if len(chosen) != len(in_family):
                    continue
                cords = self._cords(pairs, chosen, connector, grade, limit)
                if cords is None:
                    continue
                media_class = "mmf" if media == "MMF" else "smf"
                power = sum(o.optic.power_w for o in chosen.values())
                power += max(o.reach for o in chosen.values()) * 1e-6  # shorter reach: cheaper
                straight = cords.get((1, 1)) if len(cords) == 1 else None
                config = (tuple(sorted((s, o.optic.id) for s, o in chosen.items())),
                          tuple(sorted(cords.items())))
                if found and found[-1][0] == config:
                    found.pop()  # the same parts reach further: keep the longer limit only
                found.append((config, Candidate(
                    CLASS_RANK[media_class], power, limit, media_class,
                    optics=chosen, cords=cords, straight=straight,
                )))
        return [candidate for _, candidate in found]

    def _cords(
        self, pairs: frozenset[tuple[CageSpec, CageSpec]], chosen: dict[CageSpec, _Option],
        connector: str, grade: str, limit: float,
    ) -> dict[tuple[int, int], str] | None:
        cords: dict[tuple[int, int], str] = {}
        for a, b in pairs:
            sa, sb = chosen[a].split, chosen[b].split
            if sa > 1 and sb > 1:
                return None
            if (sa, sb) in cords:
                continue
            legs = sa if sa > 1 else sb
            optic_a, optic_b = chosen[a].optic, chosen[b].optic
            cord = next((c for c in self.cords.get((connector, grade, legs), ())
                         if stock_limit(c) >= limit
                         and cord_between(c, a, optic_a, b, optic_b, self.family) is None), None)
            if cord is None:
                return None
            cords[(sa, sb)] = cord.id
        return cords

    def candidates(self, signature: tuple) -> list[Candidate]:
        """Every way to equip a component of this shape, cheapest first, with its reach."""
        cached = self._candidates.get(signature)
        if cached is not None:
            return cached
        shape, specs, pairs, same_rack, allowed = signature
        found = self._optics_candidates(specs, pairs)
        if shape is not None:
            found += self._cable_candidates(shape)
        found = [
            c for c in found
            if c.media_class in allowed and (same_rack or c.media_class not in _COPPER)
        ]
        found.sort(key=lambda c: (c.rank, c.power, c.limit))
        self._candidates[signature] = found
        return found

    # ------------------------------------------------------------------ components
    def limits(self, allowed: dict[str, frozenset[str]] | None = None) -> dict[str, frozenset[str]]:
        """Media classes allowed per tier pair: `allowed` narrowed by the media parameters."""
        everything = frozenset(MEDIA_CLASSES)
        limits = dict(allowed or {})
        for tier, classes in self.params.allowed.items():
            limits[tier] = limits.get(tier, everything) & frozenset(classes)
        return limits

    def select(
        self,
        links: Sequence[MediaLink],
        cages: Sequence[Cage],
        new_assembly: Callable[[], str],
        allowed: dict[str, frozenset[str]] | None = None,
    ) -> MediaSelection:
        """Choose media for `links`, which must include every link of every cage they touch."""
        limits = self.limits(allowed)
        result = MediaSelection()
        for component in components(links, len(cages)):
            members = [links[i] for i in component]
            decision = self.decide(members, cages, limits)
            if isinstance(decision, Unresolved):
                result.unresolved.append(decision)
            else:
                apply_recipe(decision, members, new_assembly, result)
        return result

    def choices(
        self, links: list[MediaLink], cages: Sequence[Cage], limits: dict[str, frozenset[str]]
    ) -> Choices:
        """Everything a component's media depends on but its length: cages, specs, shape,
        tiers, whether it stays in one rack; and the candidates for that."""
        used: dict[int, int] = {}
        for link in links:
            used[link.a] = used.get(link.a, 0) + 1
            used[link.b] = used.get(link.b, 0) + 1
        racks = {cages[c].rack for c in used}
        same_rack = len(racks) == 1 and None not in racks
        allowed = _EVERYTHING
        if limits:
            for tier in {link.tier for link in links}:
                allowed = allowed & limits.get(tier, _EVERYTHING)
        specs = frozenset([cages[c].spec for c in used])
        pairs = frozenset([(cages[x.a].spec, cages[x.b].spec) for x in links])
        signature = (_shape(links, cages, used), specs, pairs, same_rack, allowed)
        candidates = self._candidates.get(signature)
        if candidates is None:
            candidates = self.candidates(signature)
        return Choices(tuple(used), specs, allowed, candidates)

    def decide(
        self, links: list[MediaLink], cages: Sequence[Cage], limits: dict[str, frozenset[str]]
    ) -> Recipe | Unresolved:
        """How to equip one component (its links in order), or why nothing fits."""
        length = 0.0
        for link in links:
            value = link.length_m
            if value is None:
                return Unresolved(tuple(x.id for x in links),
                                  "length unknown: a device of the link is not placed in a rack")
            if value > length:
                length = value
        choices = self.choices(links, cages, limits)
        candidate = choices.pick(length)
        if candidate is None:
            return Unresolved(tuple(x.id for x in links), self._why_not(
                links, cages, choices.specs, length, choices.allowed))
        return recipe(candidate, links, cages, choices.used, length)

    def _why_not(
        self, links: list[MediaLink], cages: Sequence[Cage], specs: frozenset[CageSpec],
        length: float, allowed: frozenset[str],
    ) -> str:
        first = links[0]
        where = f"{cages[first.a].device} - {cages[first.b].device}"
        reasons = [
            f"no {self.technology} optic in the catalog fits a {s.form_factor} {s.legs}x{s.speed}G "
            f"{'switch' if s.switch else 'NIC'} cage"
            for s in sorted(specs) if not self.options(s)
        ]
        if not reasons:
            reasons.append(
                f"no allowed media ({', '.join(sorted(allowed))}) in the catalog reaches {length:g} m")
        return f"{len(links)} link(s) around {where}: " + "; ".join(reasons)


def recipe(
    choice: Candidate, links: list[MediaLink], cages: Sequence[Cage], used: tuple[int, ...],
    length: float,
) -> Recipe:
    """The parts of `choice` per cage of `used` and per link, with assembly slots."""
    if choice.cable is not None:
        slot = 0 if len(links) > 1 else -1
        return Recipe(used, (None,) * len(used), (choice.cable,) * len(links),
                      (slot,) * len(links), length)
    option_of = choice.optics
    optics = tuple(option_of[cages[cage].spec].optic.id for cage in used)
    if choice.straight is not None:
        return Recipe(used, optics, (choice.straight,) * len(links), (-1,) * len(links), length)
    groups: dict[tuple[int, int], int] = {}
    cables: list[str] = []
    slots: list[int] = []
    for link in links:
        sa = option_of[cages[link.a].spec].split
        sb = option_of[cages[link.b].spec].split
        slot = -1
        if sa > 1 or sb > 1:
            hub, leg, split = (link.a, link.a_leg, sa) if sa > 1 else (link.b, link.b_leg, sb)
            slot = groups.setdefault((hub, (leg - 1) // split), len(groups))
        cables.append(choice.cords[(sa, sb)])
        slots.append(slot)
    return Recipe(used, optics, tuple(cables), tuple(slots), length)


def apply_recipe(
    recipe: Recipe, links: list[MediaLink], new_assembly: Callable[[], str],
    result: MediaSelection,
) -> None:
    """Record a component's parts in `result`, with fresh assembly ids for its slots."""
    transceivers, need = result.transceivers, result.need_m
    for cage, optic in zip(recipe.cages, recipe.optics, strict=True):
        transceivers[cage] = optic
        if optic is not None:
            need[cage] = recipe.length
    assemblies = [new_assembly() for _ in range(recipe.assemblies)]
    cables = result.cables
    for link, cable, slot in zip(links, recipe.cables, recipe.slots, strict=True):
        cables[link.id] = (cable, assemblies[slot] if slot >= 0 else None)


def _both_ways(cable: CableAssembly, a: CageSpec, b: CageSpec) -> bool:
    return (_end_fits(cable, "A", a) and _end_fits(cable, "B", b)) or (
        _end_fits(cable, "A", b) and _end_fits(cable, "B", a))


def _shape(links: list[MediaLink], cages: Sequence[Cage], used: dict[int, int]) -> tuple | None:
    """The integrated-cable shape of a component: p2p, bundle, star, or None (optics only)."""
    first = links[0]
    if len(used) == 2:
        a, b = cages[first.a].spec, cages[first.b].spec
        if len(links) == 1 and a.legs == 1 and b.legs == 1:
            return ("p2p", a, b)
        if len(links) == a.legs == b.legs and all(
                x.a == first.a and x.a_leg == x.b_leg for x in links):
            return ("bundle", len(links), a, b)
        return None
    if len(used) != len(links) + 1:
        return None
    hubs = [cage for cage, count in used.items() if count > 1]
    if len(hubs) != 1:
        return None
    hub = cages[hubs[0]].spec
    if len(links) > hub.legs:
        return None
    leaves = {cages[c].spec for c in used if c != hubs[0]}
    if any(spec.legs != 1 for spec in leaves):
        return None
    return ("star", hub, tuple(sorted(leaves)))


def components(links: Sequence[MediaLink], cage_count: int) -> list[list[int]]:
    """Link indices grouped by the connected components of the cages they join."""
    parent = list(range(cage_count))

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for link in links:
        ra, rb = find(link.a), find(link.b)
        if ra != rb:
            parent[rb] = ra
    groups: dict[int, list[int]] = {}
    for index, link in enumerate(links):
        groups.setdefault(find(link.a), []).append(index)
    return list(groups.values())


# ---------------------------------------------------------------------- the document side
def fabric_technology(technology: FabricTechnology | str) -> str:
    """The catalog technology of a fabric: `infiniband`, else `ethernet` (RoCEv2 is Ethernet)."""
    value = technology.value if isinstance(technology, FabricTechnology) else str(technology)
    return "infiniband" if value == "infiniband" else "ethernet"


class AssemblyIds:
    """Fresh assembly ids `asm-N` that no link uses yet."""

    def __init__(self, taken: Iterable[str | None] = ()) -> None:
        self._taken = set(taken)  # copied in C: a fix checker makes 500 of these at 50k ids
        self._taken.difference_update((None, ""))
        self._counter = itertools.count(1)

    def __call__(self) -> str:
        while True:
            candidate = f"asm-{next(self._counter)}"
            if candidate not in self._taken:
                self._taken.add(candidate)
                return candidate
