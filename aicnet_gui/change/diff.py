"""The semantic difference between two revisions of a design (`aicnet diff OLD NEW`).

Objects are matched by meaning, not by text, so that a regenerated design (new link ids)
diffs sensibly:

- **devices**: by id, then by name among the ones left;
- **links** (cables), in this order, each step on the links the earlier ones left:
  1. same id and the same two ends (ends compared through the device matching): same cable;
  2. the same two ends under another id: same cable (its id changed);
  3. same id and one end in common: the cable is *re-terminated* (its other end moved);
  4. one end in common and the same cable part, when that end names exactly one candidate on
     each side: re-terminated;
  5. same id, the same two devices and the same part, both ends on other ports (a switch
     swapped for a model with other port names): re-terminated at both ends;
  what is left is removed (old) or added (new).  A re-terminated cable whose every end that
  changed name lands on the same device, cage and leg (a swapped model that names the same
  front-panel port otherwise: SN5600 `swp1s0`, Arista `Ethernet1/1`) is not moved: it stays,
  on a *renamed port* (`ports_renamed`), and only its labels change.  Any other cable whose two ends both change is
  a removal and an addition: the installer pulls it and runs a new one.
- **racks** and **workloads**: by id.

On matched objects the diff lists what an installer or a reviewer cares about: a device moved
(rack, RU), renamed, swapped for another model, re-flashed; a cage's breakout mode or optic (on a
device that keeps its model); a
cable's part, manual length, assembly or tags; settings by dotted path.  The BOM delta comes
from `analysis.bom.compute_bom` on both revisions (bomdelta.py).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import partial
from itertools import compress
from operator import and_, eq, not_
from typing import Any

from ..analysis.bom import Bom, compute_bom
from ..forked import Forked
from ..model.document import FabricDocument
from ..model.fabric import Device, Endpoint, Link, Rack, Workload
from .bomdelta import BomDelta, delta_of

DEVICE_FIELDS = ("name", "model", "role", "firmware")
LINK_FIELDS = ("cable", "assembly", "length_m", "colour", "rail", "plane")


@dataclass(frozen=True)
class FieldChange:
    """One field of one object: `what` is the object id (or a settings path)."""

    what: str
    field: str
    before: Any
    after: Any

    def to_json(self) -> dict[str, Any]:
        return {"id": self.what, "field": self.field, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class DeviceMove:
    device: str  # id in the new revision
    name: str
    rack_before: str | None
    ru_before: int | None
    rack_after: str | None
    ru_after: int | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.device, "name": self.name,
                "from": {"rack": self.rack_before, "ru": self.ru_before},
                "to": {"rack": self.rack_after, "ru": self.ru_after}}


@dataclass(frozen=True)
class CageChange:
    """A cage whose breakout mode or installed optic differs (None: the model's default / none)."""

    device: str
    name: str
    cage: int
    mode_before: str | None
    mode_after: str | None
    optic_before: str | None
    optic_after: str | None

    def to_json(self) -> dict[str, Any]:
        return {"device": self.device, "name": self.name, "cage": self.cage,
                "mode": [self.mode_before, self.mode_after],
                "optic": [self.optic_before, self.optic_after]}


@dataclass(frozen=True)
class Retermination:
    """One cable kept, with one (or, under the same id, possibly both) end on another port."""

    old: Link
    new: Link
    moved: tuple[tuple[Endpoint, Endpoint], ...]  # (old end, new end) of each end that moved

    def to_json(self) -> dict[str, Any]:
        return {"id": self.new.id, "old_id": self.old.id,
                "moved": [{"from": list(a), "to": list(b)} for a, b in self.moved]}


@dataclass
class FabricDiff:
    old: FabricDocument
    new: FabricDocument
    devices_added: list[Device] = field(default_factory=list)
    devices_removed: list[Device] = field(default_factory=list)
    devices_moved: list[DeviceMove] = field(default_factory=list)
    device_changes: list[FieldChange] = field(default_factory=list)
    cage_changes: list[CageChange] = field(default_factory=list)
    links_added: list[Link] = field(default_factory=list)
    links_removed: list[Link] = field(default_factory=list)
    links_reterminated: list[Retermination] = field(default_factory=list)
    #: kept cables whose changed ends are the same cage and leg under another port name
    ports_renamed: list[Retermination] = field(default_factory=list)
    link_changes: list[FieldChange] = field(default_factory=list)
    link_renamed: list[tuple[str, str]] = field(default_factory=list)  # (old id, new id)
    racks_added: list[Rack] = field(default_factory=list)
    racks_removed: list[Rack] = field(default_factory=list)
    rack_changes: list[FieldChange] = field(default_factory=list)
    workloads_added: list[Workload] = field(default_factory=list)
    workloads_removed: list[Workload] = field(default_factory=list)
    workload_changes: list[FieldChange] = field(default_factory=list)
    settings: list[FieldChange] = field(default_factory=list)
    bom: BomDelta | None = None
    device_map: dict[str, str] = field(default_factory=dict)  # old id -> new id
    link_map: dict[str, str] = field(default_factory=dict)  # old id -> new id (kept cables)

    @property
    def empty(self) -> bool:
        """No change an installer or reviewer would act on (a renamed link id does not count)."""
        lists = (self.devices_added, self.devices_removed, self.devices_moved, self.device_changes,
                 self.cage_changes, self.links_added, self.links_removed, self.links_reterminated,
                 self.ports_renamed, self.link_changes, self.racks_added, self.racks_removed, self.rack_changes,
                 self.workloads_added, self.workloads_removed, self.workload_changes,
                 self.settings)
        return not any(lists) and (self.bom is None or self.bom.empty)

    def counts(self) -> dict[str, int]:
        return {
            "devices_added": len(self.devices_added),
            "devices_removed": len(self.devices_removed),
            "devices_moved": len(self.devices_moved),
            "device_changes": len(self.device_changes),
            "cage_changes": len(self.cage_changes),
            "cables_added": len(self.links_added),
            "cables_removed": len(self.links_removed),
            "cables_reterminated": len(self.links_reterminated),
            "cables_on_renamed_ports": len(self.ports_renamed),
            "cable_changes": len(self.link_changes),
            "settings_changes": len(self.settings),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "empty": self.empty,
            "counts": self.counts(),
            "devices": {
                "added": [_device_json(d) for d in self.devices_added],
                "removed": [_device_json(d) for d in self.devices_removed],
                "moved": [m.to_json() for m in self.devices_moved],
                "changed": [c.to_json() for c in self.device_changes],
                "cages": [c.to_json() for c in self.cage_changes],
            },
            "cables": {
                "added": [_link_json(lk) for lk in self.links_added],
                "removed": [_link_json(lk) for lk in self.links_removed],
                "reterminated": [r.to_json() for r in self.links_reterminated],
                "ports_renamed": [r.to_json() for r in self.ports_renamed],
                "changed": [c.to_json() for c in self.link_changes],
                "renamed": [{"old_id": a, "new_id": b} for a, b in self.link_renamed],
            },
            "racks": _by_id_json(self.racks_added, self.racks_removed, self.rack_changes),
            "workloads": _by_id_json(self.workloads_added, self.workloads_removed,
                                     self.workload_changes),
            "settings": [c.to_json() for c in self.settings],
            "bom": self.bom.to_json() if self.bom is not None else None,
        }


def _device_json(device: Device) -> dict[str, Any]:
    return {"id": device.id, "name": device.name, "model": device.model, "rack": device.rack,
            "ru": device.ru}


def _link_json(link: Link) -> dict[str, Any]:
    return {"id": link.id, "a": list(link.a), "b": list(link.b), "cable": link.cable}


def _by_id_json(added: list[Any], removed: list[Any], changed: list[FieldChange]) -> dict[str, Any]:
    """The racks or the workloads of a diff: the ids added and removed, the fields changed."""
    return {"added": [x.id for x in added], "removed": [x.id for x in removed],
            "changed": [c.to_json() for c in changed]}


def _by_id(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """(the objects of `old` whose id `new` has not, those of `new` whose id `old` has not)."""
    return [x for i, x in old.items() if i not in new], [x for i, x in new.items() if i not in old]


# ---------------------------------------------------------------- matching
def match_devices(old: FabricDocument, new: FabricDocument) -> dict[str, str]:
    """old id -> new id: by id, then by name among the devices left."""
    mapping = {i: i for i in old.devices if i in new.devices}
    taken = set(mapping.values())
    new_by_name = {d.name: d.id for d in new.devices.values() if d.id not in taken}
    for device in old.devices.values():
        if device.id in mapping:
            continue
        target = new_by_name.get(device.name)
        if target is not None and target not in taken:
            mapping[device.id] = target
            taken.add(target)
    return mapping


def _ends(link: Link, device_map: dict[str, str] | None = None) -> frozenset[tuple[str, str]]:
    if device_map is None:
        return frozenset((tuple(link.a), tuple(link.b)))
    return frozenset(((device_map.get(link.a.device, "\x00" + link.a.device), link.a.port),
                      (device_map.get(link.b.device, "\x00" + link.b.device), link.b.port)))


def _moved_ends(old: Link, new: Link, device_map: dict[str, str]) -> tuple[tuple[Endpoint, Endpoint], ...]:
    """(old end, new end) pairs for the ends that differ; a kept end pairs with itself."""
    old_ends = [old.a, old.b]
    mapped = [(device_map.get(e.device, "\x00"), e.port) for e in old_ends]
    new_ends = [new.a, new.b]
    kept_old = [i for i, m in enumerate(mapped) if tuple(m) in {tuple(e) for e in new_ends}]
    kept_new = {tuple(mapped[i]) for i in kept_old}
    left_old = [old_ends[i] for i in range(2) if i not in kept_old]
    left_new = [e for e in new_ends if tuple(e) not in kept_new]
    return tuple(zip(left_old, left_new, strict=False))


def same_links(old: FabricDocument, new: FabricDocument, device_map: dict[str, str]) -> set[str]:
    """The ids of the links that are the same in both revisions: the same id, the same two ends
    (the old ones through the device matching, in the same order) and the same `LINK_FIELDS`.
    Read from the link columns, a field at a time (a column equal in both is one comparison in
    C), without making a `Link`: two revisions of 300k links share most of them, and making
    them all was most of a diff's time."""
    rows = _same_rows(old, new, device_map)
    return set(compress(rows.old_ids, rows.same))


@dataclass
class _SameRows:
    """`same_links` by row: the ids of each revision, whether each old row is the same link in
    the new one, and whether each new row is."""

    old_ids: list[str]
    new_ids: list[str]
    same: list[bool]
    new_same: list[bool]


def _same_rows(old: FabricDocument, new: FabricDocument, device_map: dict[str, str]) -> _SameRows:
    old_ids, new_ids = old.links.column("id"), new.links.column("id")
    if old_ids == new_ids:
        at: list[int] | None = None  # the same links in the same order: rows align
        same = [True] * len(old_ids)
    else:
        row = dict(zip(new_ids, range(len(new_ids)), strict=True))
        found = list(map(row.get, old_ids))
        same = [j is not None for j in found]
        if not any(same):  # no id in both (a revision without cables, say): none the same
            return _SameRows(old_ids, new_ids, same, [False] * len(new_ids))
        at = [0 if j is None else j for j in found]
    renamed = any(k != v for k, v in device_map.items())  # a device matched under another id
    for name in ("a", "b", *LINK_FIELDS):
        before, after = old.links.column(name), new.links.column(name)
        if renamed and name in ("a", "b"):
            before = [(device_map.get(device, "\x00" + device), port) for device, port in before]
        if at is not None:
            after = list(map(after.__getitem__, at))
        if before != after:
            same = list(map(and_, same, map(eq, before, after)))
    if at is None:
        new_same = same
    else:
        new_same = [False] * len(new_ids)
        for j in compress(at, same):
            new_same[j] = True
    return _SameRows(old_ids, new_ids, same, new_same)


@dataclass
class _Matched:
    """What `match_links` finds, with what the diff lists from it: the links left unmatched
    (removed, added) in file order and the kept links that are not the same (in match order)."""

    mapping: dict[str, str]
    retermed: list[Retermination]
    removed: list[Link]
    added: list[Link]
    changed: list[tuple[Link, Link]]  # (old, new)


def match_links(old: FabricDocument, new: FabricDocument, device_map: dict[str, str],
                same: set[str] | None = None) -> tuple[dict[str, str], list[Retermination]]:
    """(old id -> new id of every kept cable, the re-terminations among them).  `same`: the
    ids `same_links` gives, when the caller has them."""
    if same is None:
        matched = _match(old, new, device_map, _same_rows(old, new, device_map))
    else:
        old_ids, new_ids = old.links.column("id"), new.links.column("id")
        matched = _match(old, new, device_map, _SameRows(
            old_ids, new_ids, list(map(same.__contains__, old_ids)),
            list(map(same.__contains__, new_ids))))
    return matched.mapping, matched.retermed


def _match(old: FabricDocument, new: FabricDocument, device_map: dict[str, str],
           rows: _SameRows) -> _Matched:
    """The links the same in both (`rows`) kept, then the others paired in five passes."""
    matcher = _Matcher(old, new, device_map, rows)
    matcher.same_id_same_ends()
    matcher.same_ends()
    matcher.same_id_one_end()
    matcher.one_end_same_part()
    matcher.same_id_same_devices()
    return _Matched(matcher.mapping, matcher.retermed, list(matcher.left_old.values()),
                    list(matcher.left_new.values()), matcher.changed)


class _Matcher:
    """The links of two revisions left to pair (the same ones are kept without being made),
    and the passes that pair them, each taking the pairs it finds out of what is left."""

    def __init__(self, old: FabricDocument, new: FabricDocument, device_map: dict[str, str],
                 rows: _SameRows) -> None:
        self.device_map = device_map
        self.rows = rows
        self.mapping: dict[str, str] = {}
        self.retermed: list[Retermination] = []
        self.changed: list[tuple[Link, Link]] = []
        old_ids = rows.old_ids
        self.left_rows = list(compress(range(len(old_ids)), map(not_, rows.same)))
        left_ids = list(map(old_ids.__getitem__, self.left_rows))
        self.left_old = dict(zip(left_ids, _links_at(old, left_ids, self.left_rows),
                                 strict=True))
        self.old_row = dict(zip(left_ids, self.left_rows, strict=True))
        new_rows = list(compress(range(len(rows.new_ids)), map(not_, rows.new_same)))
        new_ids = list(map(rows.new_ids.__getitem__, new_rows))
        self.left_new = dict(zip(new_ids, _links_at(new, new_ids, new_rows), strict=True))

    def keep(self, old_link: Link, new_link: Link, moved: bool) -> None:
        self.mapping[old_link.id] = new_link.id
        self.changed.append((old_link, new_link))
        del self.left_old[old_link.id]
        del self.left_new[new_link.id]
        if moved:
            self.retermed.append(Retermination(old_link, new_link,
                                               _moved_ends(old_link, new_link, self.device_map)))

    def _same_ids(self) -> list[str]:
        return [i for i in self.left_old if i in self.left_new]

    def same_id_same_ends(self) -> None:
        """1. Same id, same ends (the same links among them), in the old order."""
        for link_id in self._same_ids():
            if _ends(self.left_old[link_id], self.device_map) == _ends(self.left_new[link_id]):
                self.keep(self.left_old[link_id], self.left_new[link_id], False)
        old_ids = self.rows.old_ids
        if len(self.left_rows) < len(old_ids):  # some are the same: the kept in the old order
            kept = list(self.rows.same)
            for link_id in self.mapping:
                kept[self.old_row[link_id]] = True
            ids = list(compress(old_ids, kept))
            self.mapping = dict(zip(ids, ids, strict=True))

    def same_ends(self) -> None:
        """2. Same ends, another id."""
        by_ends = {_ends(lk): lk for lk in self.left_new.values()}
        for link in list(self.left_old.values()):
            target = by_ends.get(_ends(link, self.device_map))
            if target is not None and target.id in self.left_new:
                self.keep(link, target, False)

    def same_id_one_end(self) -> None:
        """3. Same id, one end in common."""
        for link_id in self._same_ids():
            old_ends = _ends(self.left_old[link_id], self.device_map)
            if len(old_ends & _ends(self.left_new[link_id])) == 1:
                self.keep(self.left_old[link_id], self.left_new[link_id], True)

    def one_end_same_part(self) -> None:
        """4. One end in common, the same part, one candidate on each side."""
        old_at: dict[tuple[str, str], list[Link]] = defaultdict(list)
        new_at: dict[tuple[str, str], list[Link]] = defaultdict(list)
        for link in self.left_old.values():
            for end in _ends(link, self.device_map):
                old_at[end].append(link)
        for link in self.left_new.values():
            for end in _ends(link):
                new_at[end].append(link)
        for end in sorted(set(old_at) & set(new_at)):
            olds, news = old_at[end], new_at[end]
            if len(olds) == 1 and len(news) == 1:
                a, b = olds[0], news[0]
                if a.id in self.left_old and b.id in self.left_new and a.cable == b.cable:
                    self.keep(a, b, True)

    def same_id_same_devices(self) -> None:
        """5. Same id, both ends on other ports of the same two devices (a swapped model)."""
        for link_id in self._same_ids():
            a, b = self.left_old[link_id], self.left_new[link_id]
            pair = {self.device_map.get(a.a.device), self.device_map.get(a.b.device)}
            if pair == {b.a.device, b.b.device} and a.cable == b.cable:
                self.keep(a, b, True)


def _place(doc: FabricDocument, end: Endpoint, device: str) -> tuple[str, int, int, int] | None:
    """Where `end` is on the front panel, its device named `device`: (device, cage, leg, legs),
    or None when the port is unknown."""
    port = doc.port(end.device, end.port) if end.device in doc.devices else None
    return None if port is None else (device, port.cage, port.leg, port.legs)


def _renamed_only(old: FabricDocument, new: FabricDocument, device_map: dict[str, str],
                  ret: Retermination) -> bool:
    """Every end of `ret` that changed name is on the same device, cage and leg in both
    revisions (the old ends' devices through the device matching)."""
    before = [_place(old, a, device_map[a.device]) if a.device in device_map else None
              for a, _b in ret.moved]
    after = [_place(new, b, b.device) for _a, b in ret.moved]
    known_before = [p for p in before if p is not None]
    known_after = [p for p in after if p is not None]
    return (len(known_before) == len(known_after) == len(ret.moved)
            and sorted(known_before) == sorted(known_after))


def _split_renamed(old: FabricDocument, new: FabricDocument, device_map: dict[str, str],
                   retermed: list[Retermination]
                   ) -> tuple[list[Retermination], list[Retermination]]:
    """(the cables really re-terminated, those only on renamed ports: same cage and leg)."""
    moved: list[Retermination] = []
    renamed: list[Retermination] = []
    for ret in retermed:
        (renamed if _renamed_only(old, new, device_map, ret) else moved).append(ret)
    return moved, renamed


def _links_at(doc: FabricDocument, ids: list[str], rows: list[int]) -> list[Link]:
    """The links of `ids`, at `rows` of `doc.links.column("id")`: read at those rows when the
    table is as loaded (its columns' rows are its order: no id -> row index made, ~50 ms at
    300k links), else picked by id."""
    loaded = doc.links.as_loaded()
    return loaded.links(rows) if loaded is not None else doc.links.pick(ids)


# ---------------------------------------------------------------- comparing
def _flat(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flat(f"{prefix}.{key}" if prefix else str(key), item, out)
    else:
        out[prefix] = value


def _settings_changes(old: FabricDocument, new: FabricDocument) -> list[FieldChange]:
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}
    _flat("", old.settings.model_dump(mode="json"), before)
    _flat("", new.settings.model_dump(mode="json"), after)
    return [FieldChange("settings", key, before.get(key), after.get(key))
            for key in sorted(set(before) | set(after)) if before.get(key) != after.get(key)]


def _field_changes(obj_id: str, old: Any, new: Any, fields: tuple[str, ...]) -> list[FieldChange]:
    return [FieldChange(obj_id, name, getattr(old, name), getattr(new, name))
            for name in fields if getattr(old, name) != getattr(new, name)]


def _cage_changes(old_doc: FabricDocument, new_doc: FabricDocument, old: Device,
                  new: Device) -> list[CageChange]:
    """Per cage: the effective mode (the model's default when unset) and the optic.  Not for a
    device swapped for another model: cage numbers belong to a model (one counts from 0, the
    other from 1), so its optics show in the BOM delta and its model change, not per cage."""
    if old.cages == new.cages or old.model != new.model:
        return []
    old_model = old_doc.device_model(old)
    new_model = new_doc.device_model(new)
    cages = sorted(set(old.cages) | set(new.cages))
    out = []
    for cage in cages:
        before = old.cages.get(cage)
        after = new.cages.get(cage)
        mode_b = before.mode if before and before.mode else _default_mode(old_model, cage)
        mode_a = after.mode if after and after.mode else _default_mode(new_model, cage)
        optic_b = before.transceiver if before else None
        optic_a = after.transceiver if after else None
        if mode_b != mode_a or optic_b != optic_a:
            out.append(CageChange(new.id, new.name, cage, mode_b, mode_a, optic_b, optic_a))
    return out


def _default_mode(model: Any, cage: int) -> str | None:
    group = model.cage_group_of.get(cage)
    return group.default_breakout if group is not None else None


def old_bom_meanwhile(old: FabricDocument) -> Forked[Bom]:
    """`old`'s BOM counted in a forked child from now on, for `diff_documents(old_bom=...)`
    (a single-threaded, short-lived process only: the CLI; aicnet_gui/forked.py)."""
    return Forked(partial(compute_bom, old))


def diff_documents(old: FabricDocument, new: FabricDocument, with_bom: bool = True,
                   parallel: bool = False, old_bom: Forked[Bom] | None = None) -> FabricDiff:
    """Everything that changed from `old` to `new` (neither document is changed).  `parallel`
    (a single-threaded, short-lived process: the CLI): `new`'s BOM is counted in a forked child
    meanwhile, where that helps (aicnet_gui/forked.py); `old_bom`: `old`'s, counted so since
    `old_bom_meanwhile`.  A BOM a child did not give is counted here."""
    pending = Forked(partial(compute_bom, new)) if with_bom and parallel else None
    try:
        out = _diff(old, new)
        if with_bom:
            before = old_bom.result() if old_bom is not None else None
            after = pending.result() if pending is not None else None
            out.bom = delta_of(before if before is not None else compute_bom(old),
                               after if after is not None else compute_bom(new))
        return out
    finally:
        if pending is not None:
            pending.close()


def _diff(old: FabricDocument, new: FabricDocument) -> FabricDiff:
    out = FabricDiff(old, new)
    device_map = match_devices(old, new)
    out.device_map = device_map
    matched_new = set(device_map.values())
    out.devices_removed = [d for i, d in old.devices.items() if i not in device_map]
    out.devices_added = [d for i, d in new.devices.items() if i not in matched_new]
    for old_id, new_id in device_map.items():
        a, b = old.devices[old_id], new.devices[new_id]
        if a is b or a == b:  # equal values (two files): nothing moved or changed
            continue
        if (a.rack, a.ru) != (b.rack, b.ru):
            out.devices_moved.append(DeviceMove(new_id, b.name, a.rack, a.ru, b.rack, b.ru))
        out.device_changes.extend(_field_changes(new_id, a, b, DEVICE_FIELDS))
        out.cage_changes.extend(_cage_changes(old, new, a, b))

    matched = _match(old, new, device_map, _same_rows(old, new, device_map))
    out.link_map = matched.mapping
    out.links_reterminated, out.ports_renamed = _split_renamed(old, new, device_map,
                                                              matched.retermed)
    out.links_removed, out.links_added = matched.removed, matched.added
    for a, b in matched.changed:  # the kept links not the same (the same: nothing to list)
        old_id, new_id = a.id, b.id
        if old_id != new_id:
            out.link_renamed.append((old_id, new_id))
        if a is not b:
            out.link_changes.extend(_field_changes(new_id, a, b, LINK_FIELDS))

    out.racks_removed, out.racks_added = _by_id(old.racks, new.racks)
    for rack_id in old.racks.keys() & new.racks.keys():
        out.rack_changes.extend(_field_changes(rack_id, old.racks[rack_id], new.racks[rack_id],
                                               ("name", "row", "position", "x_m", "y_m",
                                                "height_ru", "power_kw")))
    out.workloads_removed, out.workloads_added = _by_id(old.workloads, new.workloads)
    for wl_id in sorted(old.workloads.keys() & new.workloads.keys()):
        a, b = old.workloads[wl_id], new.workloads[wl_id]
        changes = _field_changes(wl_id, a, b, ("name", "kind", "pattern", "target_gbps_per_gpu",
                                               "message_mb"))
        mapped = sorted(device_map.get(m, m) for m in a.members)
        if mapped != sorted(b.members):
            changes.append(FieldChange(wl_id, "members", len(a.members), len(b.members)))
        out.workload_changes.extend(changes)
    out.settings = _settings_changes(old, new)
    out.rack_changes.sort(key=lambda c: (c.what, c.field))
    return out
