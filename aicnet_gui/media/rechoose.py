"""Re-choose media for links of a document, e.g. after the user moved racks.

`choose_media(doc, link_ids, pinned=..., allowed=...)` grows the selection to whole components
(a twin-port optic also serves the other link of its cage), leaves components with a pinned link
alone, limits media classes per tier pair, keeps installed parts that are as good as the new
choice and existing assembly ids where the same links form the same cable, and returns model
ops (UpdateDevice for cage optics, UpdateLink for cable and assembly) for one `doc.apply` call.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..model.catalog_entities import SWITCH_ROLES, Technology
from ..model.document import FabricDocument
from ..model.edits import Operation, UpdateDevice, UpdateLink
from ..model.fabric import CageConfig
from ..model.fit import cage_spec, fabric_family, link_family
from ..model.floor import Placement, placement, route_estimate_m
from ..model.summary import TIER_NAMES
from .policy import MediaParams
from .selector import (
    AssemblyIds,
    Cage,
    MediaLink,
    MediaSelection,
    MediaSelector,
    Unresolved,
    components,
    fabric_technology,
    stock_limit,
)


@dataclass
class MediaResult:
    """What `choose_media` proposes: the ops, and what it could not or would not touch."""

    ops: list[Operation]
    links: int
    unresolved: list[Unresolved]
    held: list[str]


def _closure(doc: FabricDocument, link_ids: Iterable[str]) -> list[str]:
    """The selected links plus every link sharing a cage with them, transitively."""
    todo = [x for x in link_ids if x in doc.links]
    seen: set[str] = set()
    by_cage: dict[str, dict[int, list[str]]] = {}

    def cage_links(device: str) -> dict[int, list[str]]:
        table = by_cage.get(device)
        if table is None:
            table = by_cage[device] = {}
            for other in doc.links_of(device):
                for end in (other.a, other.b):
                    if end.device == device:
                        port = doc.port(device, end.port)
                        if port is not None:
                            table.setdefault(port.cage, []).append(other.id)
        return table

    while todo:
        link_id = todo.pop()
        if link_id in seen:
            continue
        seen.add(link_id)
        link = doc.links[link_id]
        for end in (link.a, link.b):
            port = doc.port(end.device, end.port)
            if port is not None:
                todo.extend(x for x in cage_links(end.device).get(port.cage, ()) if x not in seen)
    return sorted(seen)


def describe(doc: FabricDocument, link_ids: Iterable[str]) -> tuple[list[MediaLink], list[Cage]]:
    """MediaLinks and cages for the document's links: the manual length, else the estimate
    (the floor's arithmetic, `model/floor.py`, as `analysis.lengths.link_length` has it)."""
    cages: list[Cage] = []
    index: dict[tuple[str, int], int] = {}
    links: list[MediaLink] = []
    params = doc.settings.lengths
    places: dict[str, Placement | None] = {}
    tiers: dict[str, int] = {}
    fabric = fabric_family(doc.settings.technology)
    families: dict[tuple[str, str, str, str], Technology] = {}  # per (model, group) x 2

    def place(device_id: str) -> Placement | None:
        if device_id not in places:
            places[device_id] = placement(doc, doc.devices[device_id])
        return places[device_id]

    def tier(device_id: str) -> int:
        value = tiers.get(device_id)
        if value is None:
            value = tiers[device_id] = doc.tier_of(device_id)
        return value

    for link_id in link_ids:
        link = doc.links[link_id]
        ports = [doc.port(end.device, end.port) for end in (link.a, link.b)]
        if ports[0] is None or ports[1] is None:
            continue
        model_a, model_b = doc.devices[link.a.device].model, doc.devices[link.b.device].model
        kind = (model_a, ports[0].group.name, model_b, ports[1].group.name)
        family = families.get(kind)
        if family is None:
            family = families[kind] = link_family(
                ports[0].group, doc.device_model(link.a.device),
                ports[1].group, doc.device_model(link.b.device), fabric)
        ends: list[tuple[int, int]] = []
        for end, port in zip((link.a, link.b), ports, strict=True):
            key = (end.device, port.cage)
            cage = index.get(key)
            if cage is None:
                device = doc.devices[end.device]
                spec = cage_spec(port.group, port.legs, port.speed_gbps,
                                 doc.role_of(device) in SWITCH_ROLES)
                cage = index[key] = len(cages)
                cages.append(Cage(end.device, port.cage, spec, device.rack, family))
            ends.append((cage, port.leg))
        low, high = sorted((tier(link.a.device), tier(link.b.device)))
        length = link.length_m
        if length is None:
            pa, pb = place(link.a.device), place(link.b.device)
            if pa is not None and pb is not None:
                length = route_estimate_m(pa, pb, params)
        links.append(MediaLink(link.id, ends[0][0], ends[0][1], ends[1][0], ends[1][1], length,
                               f"{TIER_NAMES[low]}-{TIER_NAMES[high]}"))
    return links, cages


def _keep_equivalent_parts(
    doc: FabricDocument, selector: MediaSelector, cages: Sequence[Cage],
    links: Sequence[MediaLink], selection: MediaSelection,
) -> None:
    """Keep an installed optic or cord where it is as good as the new choice: the same family
    and structure, no more power, and it reaches; re-choosing then changes nothing needlessly."""
    _keep_equivalent_optics(doc, selector, cages, selection)
    _keep_equivalent_cords(doc, links, selection)


def _keep_equivalent_optics(doc: FabricDocument, selector: MediaSelector, cages: Sequence[Cage],
                            selection: MediaSelection) -> None:
    """An installed optic stays where it is of the new one's family and split, draws no more
    power and reaches as far as the cage's links need."""
    for index, new in list(selection.transceivers.items()):
        cage = cages[index]
        config = doc.devices[cage.device].cages.get(cage.number)
        current = config.transceiver if config is not None else None
        if new is None or current is None or current == new:
            continue
        options = {o.optic.id: o for o in selector.for_family(cage.family).options(cage.spec)}
        old, chosen = options.get(current), options.get(new)
        if (old is not None and chosen is not None and old.family == chosen.family
                and old.split == chosen.split and old.optic.power_w <= chosen.optic.power_w
                and old.reach >= selection.need_m.get(index, 0.0)):
            selection.transceivers[index] = current


def _keep_equivalent_cords(doc: FabricDocument, links: Sequence[MediaLink],
                           selection: MediaSelection) -> None:
    """An installed fibre cord stays where it is of the new one's grade, legs and connector,
    draws no more power and comes long enough for the link."""
    catalog = doc.catalog
    length_of = {link.id: link.length_m for link in links}
    for link_id, (new, assembly) in list(selection.cables.items()):
        current = doc.links[link_id].cable
        if current is None or current == new or current not in catalog.cables:
            continue
        old, chosen = catalog.cables[current], catalog.cables[new]
        if (old.type == chosen.type == "fibre" and old.fibre_grade == chosen.fibre_grade
                and old.legs == chosen.legs and old.a_end.connector == chosen.a_end.connector
                and old.power_w <= chosen.power_w
                and stock_limit(old) >= (length_of.get(link_id) or 0.0)):
            selection.cables[link_id] = (current, assembly)


# document -> (revision, assembly id -> the ids of its links); a fix checker asks for the
# media of one link at a time, and each must not walk 300k links again (issue 22)
_GROUPS: weakref.WeakKeyDictionary[FabricDocument, tuple[int, dict[str, frozenset[str]]]] = (
    weakref.WeakKeyDictionary())


def assembly_groups(doc: FabricDocument) -> dict[str, frozenset[str]]:
    """Assembly id -> the ids of the links that carry it, worked out once per document
    revision (every edit goes through `FabricDocument.apply`, which bumps the revision)."""
    cached = _GROUPS.get(doc)
    if cached is not None and cached[0] == doc.revision:
        return cached[1]
    groups: dict[str, set[str]] = {}
    ids, assemblies = doc.links.columns("id", "assembly")  # no Link made (2.4M links: ~1 GB)
    for link_id, assembly in zip(ids, assemblies, strict=True):
        if assembly is not None:
            groups.setdefault(assembly, set()).add(link_id)
    frozen = {assembly: frozenset(ids) for assembly, ids in groups.items()}
    _GROUPS[doc] = (doc.revision, frozen)
    return frozen


def _keep_assembly_ids(doc: FabricDocument, selection: MediaSelection) -> None:
    """Keep a group's old assembly id when exactly the same links form the new assembly."""
    new_groups: dict[str, list[str]] = {}
    for link_id, (_, assembly) in selection.cables.items():
        if assembly is not None:
            new_groups.setdefault(assembly, []).append(link_id)
    if not new_groups:
        return
    old_groups = assembly_groups(doc)
    for members in new_groups.values():
        olds = {doc.links[m].assembly for m in members}
        old = olds.pop() if len(olds) == 1 else None
        if old is not None and old_groups.get(old) == set(members):
            for member in members:
                selection.cables[member] = (selection.cables[member][0], old)


def choose_media(
    doc: FabricDocument,
    link_ids: Iterable[str] | None = None,
    pinned: Iterable[str] = (),
    allowed: dict[str, Iterable[str]] | None = None,
    params: MediaParams | None = None,
) -> MediaResult:
    """Re-choose media for `link_ids` (default: every link); return the ops to apply.

    The selection grows to whole components (a twin-port optic also serves the other link of
    its cage).  A component holding a pinned link (`Link.pinned`, or named in `pinned`) is
    left as it is and reported in `held`.
    `allowed` limits the media classes per tier pair, e.g. `{"leaf-spine": ["smf"]}`.
    """
    selected = list(doc.links) if link_ids is None else _closure(doc, link_ids)
    links, cages = describe(doc, selected)
    pinned_set = set(pinned) | {i for i in selected if doc.links[i].pinned}
    links, held = _without_pinned(links, len(cages), pinned_set)
    selector = MediaSelector(doc.catalog, fabric_technology(doc.settings.technology), params)
    limits = {tier: frozenset(classes) for tier, classes in (allowed or {}).items()}
    selection = selector.select(links, cages, AssemblyIds(assembly_groups(doc)), limits)
    _keep_equivalent_parts(doc, selector, cages, links, selection)
    _keep_assembly_ids(doc, selection)
    ops = _optic_ops(doc, cages, selection)
    for link_id in sorted(selection.cables):
        cable, assembly = selection.cables[link_id]
        link = doc.links[link_id]
        if link.cable != cable or link.assembly != assembly:
            ops.append(UpdateLink(link_id, {"cable": cable, "assembly": assembly}))
    return MediaResult(ops, len(links), selection.unresolved, sorted(held))


def _without_pinned(links: list[MediaLink], n_cages: int,
                    pinned: set[str]) -> tuple[list[MediaLink], list[str]]:
    """The links of the components that hold no pinned link, and the ids of the others'
    links (held as they are)."""
    if not pinned:
        return links, []
    keep: list[MediaLink] = []
    held: list[str] = []
    for component in components(links, n_cages):
        members = [links[i] for i in component]
        if any(link.id in pinned for link in members):
            held += [link.id for link in members]
        else:
            keep += members
    return keep, held


def _optic_ops(doc: FabricDocument, cages: Sequence[Cage],
               selection: MediaSelection) -> list[Operation]:
    """One UpdateDevice per device whose cages get another optic (cages left with nothing set
    dropped)."""
    ops: list[Operation] = []
    by_device: dict[str, dict[int, str | None]] = {}
    for cage_index, optic in selection.transceivers.items():
        cage = cages[cage_index]
        by_device.setdefault(cage.device, {})[cage.number] = optic
    for device_id in sorted(by_device):
        device = doc.devices[device_id]
        configs = dict(device.cages)
        changed = False
        for number, optic in by_device[device_id].items():
            old = configs.get(number, CageConfig())
            if old.transceiver != optic:
                configs[number] = old.model_copy(update={"transceiver": optic})
                changed = True
        if changed:
            configs = {n: c for n, c in sorted(configs.items()) if c.mode or c.transceiver or c.fec}
            ops.append(UpdateDevice(device_id, {"cages": configs}))
    return ops
