"""Media choice for a whole generated fabric at once, with one decision per kind of component.

The links come as numpy columns (`LinkColumns`: what it reads of the generators'
`link_table.LinkTable`).  Components (cages joined by links, transitively) are found with
scipy and ordered by their first link, links in order inside each, exactly as
`selector.components` orders them.  Every component gets a key: per link the
numbers of its two cages in order of first use inside the component, the legs, the cage
specs and the tier pair; whether all its cages share a rack; its longest link.  That is all
`MediaSelector.decide` looks at, so it runs once per distinct key, on the first component with
that key, and its `Recipe` is copied to the others: a 4,096-server fabric has ~33k components
but a few dozen keys.  Assembly ids `asm-N` are numbered in component order from 1 as
`selector.AssemblyIds` numbers them for an empty document.  Components with a link of unknown
length, or that nothing fits, are decided one by one, for their own reasons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from ..model import arrays
from ..model.fit import CageSpec
from .selector import Cage, Choices, MediaLink, MediaSelector, Recipe, Unresolved, recipe


class CageColumns(Protocol):
    """The cages the links use: device index, cage number and spec (index into `specs`)."""

    device: np.ndarray
    number: np.ndarray
    spec: np.ndarray
    specs: list[CageSpec]


class LinkColumns(Protocol):
    """Per link: device index, cage index (into `cages`) and leg at each end, and its tier pair
    (index into `tiers`); `generators.plan_links.LinkTable` is one."""

    a: np.ndarray
    a_cage: np.ndarray
    a_leg: np.ndarray
    b_cage: np.ndarray
    b_leg: np.ndarray
    tier: np.ndarray
    tiers: list[str]
    cages: CageColumns


@dataclass
class BulkSelection:
    """Per link the cable (index into `parts`, -1: none) and assembly number (0: none); per
    cage the optic (index into `parts`, -1: none); `cage_order` lists the equipped cages in the
    order `MediaSelector.select` records them."""

    cable: np.ndarray
    assembly: np.ndarray
    optic: np.ndarray
    parts: list[str]
    cage_order: np.ndarray
    unresolved: list[Unresolved]

    @classmethod
    def empty(cls, links: int, cages: int) -> BulkSelection:
        """No media at all (the generator was told not to choose any)."""
        none = np.full(links, -1, dtype=np.int64)
        return cls(none, np.zeros(links, dtype=np.int64), np.full(cages, -1, dtype=np.int64), [],
                   np.zeros(0, dtype=np.int64), [])


@dataclass
class _Components:
    """Links sorted by component (`order`), each component's `start` and `size` in it, and for
    every end of the sorted links (a, b, a, b ...) its cage and local number."""

    order: np.ndarray
    start: np.ndarray
    size: np.ndarray
    end_cage: np.ndarray
    end_local: np.ndarray
    first_use: np.ndarray


class _CageView(Sequence):
    """`Cage` objects on demand for the cages that `decide` looks at."""

    def __init__(self, table: LinkColumns, devices: list[str], racks: list[str | None]) -> None:
        self._cages, self._devices, self._racks = table.cages, devices, racks

    def __len__(self) -> int:
        return len(self._cages.device)

    def __getitem__(self, index: int) -> Cage:  # type: ignore[override]
        cages = self._cages
        device = int(cages.device[index])
        return Cage(self._devices[device], int(cages.number[index]),
                    cages.specs[int(cages.spec[index])], self._racks[device])


def _components(table: LinkColumns) -> _Components:
    count, cages = len(table.a), len(table.cages.device)
    graph = csr_matrix((np.ones(count, dtype=np.int8), (table.a_cage, table.b_cage)),
                       shape=(cages, cages))
    _, label = connected_components(graph, directed=False)
    comp = label[table.a_cage]
    ids, first_link = arrays.unique(comp, return_index=True)
    rank = np.empty(len(label), dtype=np.int64)
    rank[ids[np.argsort(first_link)]] = np.arange(len(ids))
    comp = rank[comp]
    order = arrays.stable_argsort(comp)
    size = np.bincount(comp, minlength=len(ids))
    start = np.cumsum(size) - size
    end_cage = np.empty(2 * count, dtype=np.int64)
    end_cage[0::2], end_cage[1::2] = table.a_cage[order], table.b_cage[order]
    _, first_pos = arrays.unique(end_cage, return_index=True)  # every cage is an end of a link
    is_first = np.zeros(2 * count, dtype=bool)
    is_first[first_pos] = True
    used = np.cumsum(is_first) - 1  # at a first use: the cage's rank in first-use order
    local = used[first_pos[end_cage]]
    local -= np.repeat(used[2 * start], 2 * size)
    return _Components(order, start, size, end_cage, local, end_cage[is_first])


def _dense_codes(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..k-1 for the rows of non-negative integer `columns` (equal rows, equal codes),
    and the first row of each code."""
    code = np.zeros(len(columns[0]), dtype=np.int64)
    span = 1
    for column in columns:
        width = int(column.max()) + 1 if len(column) else 1
        if span * width >= 1 << 62:  # re-number before the mixed radix overflows
            code = arrays.unique(code, return_inverse=True)[1].reshape(-1)
            span = int(code.max()) + 1
        code = code * width + column
        span *= width
    _, first, inverse = arrays.unique(code, return_index=True, return_inverse=True)
    return inverse.reshape(-1), first


def _link_codes(table: LinkColumns, comps: _Components) -> np.ndarray:
    """One code per sorted link for what `decide` sees of it."""
    order, spec = comps.order, table.cages.spec
    return _dense_codes([
        comps.end_local[0::2], table.a_leg[order], spec[table.a_cage[order]],
        comps.end_local[1::2], table.b_leg[order], spec[table.b_cage[order]], table.tier[order],
    ])[0]


class _Broadcast:
    """Collects recipes as codes and writes them to every component of their key."""

    def __init__(self, count: int, cages: int, components: int) -> None:
        self.codes: dict[str, int] = {}
        self.cable = np.full(count, -1, dtype=np.int64)
        self.slot = np.full(count, -1, dtype=np.int64)  # per sorted link
        self.optic = np.full(cages, -1, dtype=np.int64)
        self.assemblies = np.zeros(components, dtype=np.int64)

    def code(self, part: str | None) -> int:
        return -1 if part is None else self.codes.setdefault(part, len(self.codes))

    def write(self, comps: _Components, members: np.ndarray, size: int,
              recipes: list[Recipe], which: np.ndarray) -> None:
        """Give the components `members` (all `size` links long) recipe `recipes[which[i]]`."""
        cable = np.full((len(recipes), size), -1, dtype=np.int64)
        slot = np.full((len(recipes), size), -1, dtype=np.int64)
        optic = np.full((len(recipes), 2 * size), -1, dtype=np.int64)
        assemblies = np.zeros(len(recipes), dtype=np.int64)
        for row, made in enumerate(recipes):
            cable[row] = [self.code(c) for c in made.cables]
            slot[row] = made.slots
            optic[row, :len(made.optics)] = [self.code(o) for o in made.optics]
            assemblies[row] = made.assemblies
        positions = comps.start[members][:, None] + np.arange(size)
        links = comps.order[positions]
        self.cable[links] = cable[which]
        self.slot[positions] = slot[which]
        self.assemblies[members] = assemblies[which]
        for end in (2 * positions, 2 * positions + 1):
            self.optic[comps.end_cage[end]] = optic[which[:, None], comps.end_local[end]]


def select_bulk(
    selector: MediaSelector,
    table: LinkColumns,
    lengths: np.ndarray,
    link_ids: list[str],
    devices: list[str],
    racks: list[str | None],
) -> BulkSelection:
    """Media for every link of `table` (lengths in m, NaN: unknown), as `selector.select`
    would choose them for the same links with fresh assembly ids."""
    count = len(table.a)
    if not count:
        return BulkSelection.empty(0, len(table.cages.device))
    comps = _components(table)
    cages = _CageView(table, devices, racks)
    limits = selector.limits()
    n_comps = len(comps.start)
    out = _Broadcast(count, len(cages), n_comps)

    def members_of(comp: int) -> list[MediaLink]:
        indices = comps.order[comps.start[comp]:comps.start[comp] + comps.size[comp]].tolist()
        return [
            MediaLink(link_ids[i], int(table.a_cage[i]), int(table.a_leg[i]),
                      int(table.b_cage[i]), int(table.b_leg[i]),
                      None if np.isnan(lengths[i]) else float(lengths[i]),
                      table.tiers[int(table.tier[i])])
            for i in indices
        ]

    longest = np.maximum.reduceat(lengths[comps.order], comps.start)
    same_rack = _in_one_rack(table, comps, racks)
    known = ~np.isnan(longest)
    length_code = np.full(n_comps, -1, dtype=np.int64)
    length_code[known] = arrays.unique(longest[known], return_inverse=True)[1].reshape(-1)
    codes = _link_codes(table, comps)
    alone = np.flatnonzero(~known).tolist()
    for size in arrays.unique(comps.size[known]).tolist():
        members = np.flatnonzero(known & (comps.size == size))
        rows = codes[comps.start[members][:, None] + np.arange(size)]
        shape, _ = _dense_codes([*rows.T, same_rack[members].astype(np.int64)])
        pair, first = _dense_codes([shape, length_code[members]])
        recipes, chosen = _recipes(selector, cages, limits, members_of,
                                   (shape, first, members), longest)
        which = chosen[pair]
        alone += members[which < 0].tolist()
        out.write(comps, members[which >= 0], size, recipes, which[which >= 0])
    unresolved = []
    for comp in sorted(alone):
        decision = selector.decide(members_of(comp), cages, limits)
        assert isinstance(decision, Unresolved)
        unresolved.append(decision)
    return _finish(out, comps, unresolved)


def _in_one_rack(table: LinkColumns, comps: _Components, racks: list[str | None]) -> np.ndarray:
    """Per component: every end of its links sits in one rack (a known one)."""
    rack_codes: dict[str | None, int] = {None: -1}
    rack = np.array([rack_codes.setdefault(r, len(rack_codes)) for r in racks], dtype=np.int64)
    end_rack = rack[table.cages.device[comps.end_cage]]
    low = np.minimum.reduceat(end_rack, 2 * comps.start)
    high = np.maximum.reduceat(end_rack, 2 * comps.start)
    return (low == high) & (low != -1)


def _recipes(selector: MediaSelector, cages: _CageView, limits: dict[str, frozenset[str]],
             members_of: Callable[[int], list[MediaLink]],
             groups: tuple[np.ndarray, np.ndarray, np.ndarray],
             longest: np.ndarray) -> tuple[list[Recipe], np.ndarray]:
    """For components of one size: the selector's choices once per shape, its pick once per
    (shape, length) pair (`first`: each pair's first component, an index into `members`);
    returns the distinct recipes and, per pair, the index of its recipe (-1: none fits)."""
    shape, first, members = groups
    recipes: list[Recipe] = []
    made: dict[tuple[int, int], int] = {}
    shapes: dict[int, tuple[Choices, list[MediaLink]]] = {}
    chosen = np.empty(len(first), dtype=np.int64)
    for index, rep in enumerate(first.tolist()):
        kind = int(shape[rep])
        if kind not in shapes:
            links = members_of(int(members[rep]))
            shapes[kind] = (selector.choices(links, cages, limits), links)
        choices, links = shapes[kind]
        length = float(longest[members[rep]])
        candidate = choices.pick(length)
        if candidate is None:  # each says why in its own words
            chosen[index] = -1
            continue
        key = (kind, id(candidate))
        if key not in made:
            made[key] = len(recipes)
            recipes.append(recipe(candidate, links, cages, choices.used, length))
        chosen[index] = made[key]
    return recipes, chosen


def _finish(out: _Broadcast, comps: _Components, unresolved: list[Unresolved]) -> BulkSelection:
    offset = np.cumsum(out.assemblies) - out.assemblies
    comp_of_sorted = np.repeat(np.arange(len(comps.start)), comps.size)
    number = np.where(out.slot >= 0, offset[comp_of_sorted] + out.slot + 1, 0)
    assembly = np.zeros(len(number), dtype=np.int64)
    assembly[comps.order] = number
    order = comps.first_use[out.optic[comps.first_use] >= 0]
    return BulkSelection(out.cable, assembly, out.optic, list(out.codes), order, unresolved)
