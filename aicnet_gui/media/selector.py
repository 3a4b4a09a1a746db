"""Automatic media choice: for every link the cheapest media that reaches.

Preference: first media a buyer can order, every part with a vendor's part number (a generic
catalog entry has none: the BOM cannot name what to buy), then (no part has a price in the
catalog, so this order stands for cost, and power breaks ties) passive DAC inside a rack where
it reaches, active copper (ACC/AEC) inside a rack next, then AOC, multimode optics (SR4-class)
and single-mode optics (DR4, then FR4 ...).  A generic part is chosen only where no orderable
media reaches (a two-plane SN5610 fabric took 1,024 generic 800G AOCs, of no vendor and no power
figure, over NVIDIA's twin-port SR4 optics and MFP7E10 fibres).  A length must also fit the
part's stock ladder (a cord is ordered in a stock length).  A part the vendor has discontinued
(`discontinued: true` in the catalog) is never chosen.

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
Parts are chosen in the technology the component's links run (`Cage.family`, from
`model/fit.link_family`: an in-band port on an Ethernet management switch gets Ethernet parts
in an InfiniBand design), else the fabric's.

`MediaSelector.select` works on plain link descriptions with integer cage indices (the
generators call it, through `bulk_choice.select_bulk`, before anything is in the document);
`rechoose.choose_media(doc, ...)` runs it over a document's links after racks moved.
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
from .policy import MEDIA_CLASSES, MediaParams

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
    family: Technology | None = None  # the technology its links run; None: the selector's


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
    #: nothing reaches the run's length (shorter runs would find media); False when no media
    #: fits at all, whatever the length, or the length is unknown
    too_long: bool = False


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
    orderable: bool = True  # every part has a vendor's part number


def _orderable(*parts: Transceiver | CableAssembly) -> bool:
    return all(part.part_numbers for part in parts)


def _shared_families(options: Iterable[list[_Option]]) -> set[tuple[str, str, str]]:
    """The optic families (PMD family, media, connector) every cage spec offers an optic of."""
    families: set[tuple[str, str, str]] | None = None
    for spec_options in options:
        fams = {o.family for o in spec_options}
        families = fams if families is None else families & fams
    return families or set()


def _reaching(in_family: dict[CageSpec, list[_Option]],
              limit: float) -> dict[CageSpec, _Option] | None:
    """Per cage spec the first option (in the spec's order) that reaches `limit`; None when a
    spec has none."""
    chosen = {}
    for spec, opts in in_family.items():
        pick = next((o for o in opts if o.reach >= limit), None)
        if pick is None:
            return None
        chosen[spec] = pick
    return chosen


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
    miswired: int = 0  # candidates whose cords the component's wiring cannot use

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
        self.catalog = catalog
        self._siblings: dict[Technology, MediaSelector] = {}
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
        for cords in self.cords.values():  # orderable first, as the candidates (module doc)
            cords.sort(key=lambda c: (not c.part_numbers, c.power_w, stock_limit(c), c.id))
        self._options: dict[CageSpec, list[_Option]] = {}
        self._candidates: dict[tuple, list[Candidate]] = {}

    def for_family(self, family: Technology | None) -> MediaSelector:
        """The selector that chooses parts of `family` (self for None or its own)."""
        if family is None or family == self.family:
            return self
        sibling = self._siblings.get(family)
        if sibling is None:
            sibling = self._siblings[family] = MediaSelector(self.catalog, family.value, self.params)
        return sibling

    def _component_selector(self, links: list[MediaLink], cages: Sequence[Cage]) -> MediaSelector:
        """The selector of the technology a component's cages run (self when they disagree)."""
        families = {cages[link.a].family for link in links}
        families.update(cages[link.b].family for link in links)
        families.discard(None)
        return self.for_family(families.pop()) if len(families) == 1 else self

    # ------------------------------------------------------------------ optics per cage
    def _grade(self, media: str) -> str:
        return self.params.fibre_grade if media == "MMF" else "OS2"

    def options(self, spec: CageSpec) -> list[_Option]:
        """Optics that fit a cage, orderable first (a vendor's part number: a generic optic of
        the same family and power lost only on its id), then cheapest (power, then shorter
        reach)."""
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
            not o.optic.part_numbers, o.optic.power_w, o.reach,
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
                                        media_class, cable=cable.id,
                                        orderable=_orderable(cable)))
        return found

    def _optics_candidates(
        self, specs: frozenset[CageSpec], pairs: frozenset[tuple[CageSpec, CageSpec]]
    ) -> list[Candidate]:
        """Optics (one per cage spec, of one family every spec offers) and the cords between
        them, at each reach step: the parts that reach `limit`, the shortest-reaching first;
        of several steps with the same parts only the longest limit is kept."""
        per_spec = {spec: self.options(spec) for spec in specs}
        found: list[tuple[tuple, Candidate]] = []
        for family in sorted(_shared_families(per_spec.values())):
            _, media, connector = family
            grade = self._grade(media)
            in_family = {s: [o for o in opts if o.family == family] for s, opts in per_spec.items()}
            steps = {o.reach for opts in in_family.values() for o in opts}
            steps |= {stock_limit(c) for cs in self.cords.values() for c in cs}
            for limit in sorted(steps):
                chosen = _reaching(in_family, limit)
                if chosen is None:
                    continue
                cords = self._cords(pairs, chosen, connector, grade, limit)
                if cords is None:
                    continue
                config = (tuple(sorted((s, o.optic.id) for s, o in chosen.items())),
                          tuple(sorted(cords.items())))
                if found and found[-1][0] == config:
                    found.pop()  # the same parts reach further: keep the longer limit only
                found.append((config, self._optics_candidate(media, chosen, cords, limit)))
        return [candidate for _, candidate in found]

    def _optics_candidate(self, media: str, chosen: dict[CageSpec, _Option],
                          cords: dict[tuple[int, int], str], limit: float) -> Candidate:
        media_class = "mmf" if media == "MMF" else "smf"
        power = sum(o.optic.power_w for o in chosen.values())
        power += max(o.reach for o in chosen.values()) * 1e-6  # shorter reach: cheaper
        straight = cords.get((1, 1)) if len(cords) == 1 else None
        parts = [o.optic for o in chosen.values()]
        parts += [self.catalog.cables[c] for c in cords.values()]
        return Candidate(
            CLASS_RANK[media_class], power, limit, media_class,
            optics=chosen, cords=cords, straight=straight, orderable=_orderable(*parts),
        )

    def _cords(
        self, pairs: frozenset[tuple[CageSpec, CageSpec]], chosen: dict[CageSpec, _Option],
        connector: str, grade: str, limit: float,
    ) -> dict[tuple[int, int], str] | None:
        cords: dict[tuple[int, int], str] = {}
        for a, b in pairs:
            sa, sb = chosen[a].split, chosen[b].split
            if (sa, sb) in cords:
                continue
            legs = cord_legs(sa, sb)
            if legs is None:
                return None
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
        found.sort(key=lambda c: (not c.orderable, c.rank, c.power, c.limit))
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
        other = self._component_selector(links, cages)
        if other is not self:
            return other.choices(links, cages, limits)
        return self._choices(links, cages, limits)

    def _choices(
        self, links: list[MediaLink], cages: Sequence[Cage], limits: dict[str, frozenset[str]]
    ) -> Choices:
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
        fitting = [c for c in candidates if wiring_fits(c, links, cages)]
        return Choices(tuple(used), specs, allowed, fitting, len(candidates) - len(fitting))

    def decide(
        self, links: list[MediaLink], cages: Sequence[Cage], limits: dict[str, frozenset[str]]
    ) -> Recipe | Unresolved:
        """How to equip one component (its links in order), or why nothing fits."""
        other = self._component_selector(links, cages)
        if other is not self:
            return other.decide(links, cages, limits)
        length = 0.0
        for link in links:
            value = link.length_m
            if value is None:
                return Unresolved(tuple(x.id for x in links),
                                  "length unknown: a device of the link is not placed in a rack")
            if value > length:
                length = value
        choices = self._choices(links, cages, limits)
        candidate = choices.pick(length)
        if candidate is None:
            reason, too_long = self._why_not(links, cages, choices, length)
            return Unresolved(tuple(x.id for x in links), reason, too_long)
        return recipe(candidate, links, cages, choices.used, length)

    def _why_not(
        self, links: list[MediaLink], cages: Sequence[Cage], choices: Choices, length: float,
    ) -> tuple[str, bool]:
        """Why nothing equips the component, and whether it is only the run's length."""
        specs, allowed, miswired = choices.specs, choices.allowed, choices.miswired
        first = links[0]
        where = f"{cages[first.a].device} - {cages[first.b].device}"
        reasons = [
            f"no {self.technology} optic in the catalog fits a {s.form_factor} {s.legs}x{s.speed}G "
            f"{'switch' if s.switch else 'NIC'} cage"
            for s in sorted(specs) if not self.options(s)
        ]
        if not reasons and not miswired and not choices.candidates and allowed == _EVERYTHING:
            reasons.append("the optics that fit its cages cannot be joined by any catalog "
                           "cable or cord (optical family, lane rate or legs differ): " + "; ".join(
                               f"{s.legs}x{s.speed}G {'switch' if s.switch else 'NIC'} cage: "
                               + ", ".join(o.optic.model for o in self.options(s)[:3])
                               for s in sorted(specs)))
        if not reasons and miswired:
            reasons.append(
                "the optics that fit carry several ports per optical port, and the ports of one "
                "optical port go to different cages here (e.g. one per plane): a straight cord "
                "joins one optical port to one, a 1:2 splitter starts from one optical port, "
                "and no catalog cord regroups them")
        too_long = not reasons
        if too_long:
            reasons.append(
                f"no allowed media ({', '.join(sorted(allowed))}) in the catalog reaches {length:g} m")
        return f"{len(links)} link(s) around {where}: " + "; ".join(reasons), too_long


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
        if sa > 1 or sb > 1:  # one cord per optical port of the more split end
            hub, leg, split = (link.a, link.a_leg, sa) if sa >= sb else (link.b, link.b_leg, sb)
            other, other_leg, other_split = ((link.b, link.b_leg, sb) if sa >= sb
                                             else (link.a, link.a_leg, sa))
            key = (hub, (leg - 1) // split)
            if sa == sb:  # a straight cord: the same cord seen from either end
                key = min(key, (other, (other_leg - 1) // other_split))
            slot = groups.setdefault(key, len(groups))
        cables.append(choice.cords[(sa, sb)])
        slots.append(slot)
    return Recipe(used, optics, tuple(cables), tuple(slots), length)


def cord_legs(split_a: int, split_b: int) -> int | None:
    """Legs of the fibre cord between optical ports carrying `split_a` and `split_b` ports
    each: 1 (straight) when they carry as many, else 1:n with n the ratio (None: no whole
    ratio).  `model.fit.cord_between` then decides whether a given cord fits."""
    high, low = max(split_a, split_b), min(split_a, split_b)
    return high // low if high % low == 0 else None


def wiring_fits(choice: Candidate, links: Sequence[MediaLink], cages: Sequence[Cage]) -> bool:
    """Can the component's links ride the cords of `choice`?  A cord joins optical ports: a
    straight one joins one optical port to one, port k to port k (so the ports of a split
    optical port must all go to one optical port of one far cage, in order); a 1:n splitter
    joins one optical port to at most n others, each fed by that splitter only.  Every cage
    takes one kind of cord in all its optical ports (NVIDIA: straight and splitter fibres are
    not mixed in one twin-port transceiver)."""
    if choice.cable is not None or choice.straight is not None:
        return True  # integrated cables are placed by shape; 1:1 ports need no grouping
    option_of = choice.optics
    straight: dict[tuple[int, int], set[tuple[int, int]]] = {}
    hubs: dict[tuple[int, int], set[tuple[int, int]]] = {}
    feeds: dict[tuple[int, int], set[tuple[int, int]]] = {}
    cords_at: dict[int, set[str]] = {}
    for link in links:
        sa = option_of[cages[link.a].spec].split
        sb = option_of[cages[link.b].spec].split
        cord = choice.cords[(sa, sb)]
        cords_at.setdefault(link.a, set()).add(cord)
        cords_at.setdefault(link.b, set()).add(cord)
        end_a, end_b = (link.a, (link.a_leg - 1) // sa), (link.b, (link.b_leg - 1) // sb)
        if sa == sb:
            if (link.a_leg - 1) % sa != (link.b_leg - 1) % sb:
                return False  # port k of one end must meet port k of the other
            straight.setdefault(end_a, set()).add(end_b)
            straight.setdefault(end_b, set()).add(end_a)
        else:
            hub, far = (end_a, end_b) if sa > sb else (end_b, end_a)
            hubs.setdefault(hub, set()).add(far)
            feeds.setdefault(far, set()).add(hub)
            if len(hubs[hub]) > max(sa, sb) // min(sa, sb):
                return False
    return (all(len(found) == 1 for found in cords_at.values())
            and all(len(ends) == 1 for ends in straight.values())
            and all(len(ends) == 1 for ends in feeds.values()))


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
