"""Growth and migration: the target fabric from the generator, fitted onto the existing design
so that every existing device stays where it is and every cable that can stay, stays.

1. The target is generated with the generators' public entry point (`generate`) from the
   parameters the design was made with (template.py), changed by the request: more SUs or
   servers (grow), other switch models or speed (migrate).
2. The diff engine matches the target to the design (diff.py: devices by id then name, cables
   by id and ends, then by ends, then by one end): matched cables are kept, cables with one end
   elsewhere are re-terminated, the rest are removed or added.
3. The result is built on a copy of the design in one `apply`: its own devices keep their rack
   and RU (a swapped model takes the target's model and cage optics); new devices take the
   target's place when that rack already holds the same part of the fabric and the RUs are
   free, else they go into new racks in a new row behind the existing floor; cables keep their
   ids, re-terminated ones get their new ends, new ones are added; workloads take the target's
   members.  Media of every new or re-terminated cable is chosen again for the real places
   (`generators.choose_media`).  The cages of kept devices are then made what the generator
   would make (cages.py): twin-port cages left half used are filled in pairs by re-plugging
   a cable on the same switch, and a cage left without a link gives its optic back.
4. The bill of change is `diff_documents(design, result)`: parts to buy and parts freed (BOM
   delta), cables to pull, to move (re-terminate) and to remove, devices to rack or move.  A
   cable re-plugged on the same cage and leg of a swapped model (only the port's name differs)
   is not moved: it stays, on a renamed port, and gets a new label.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..generators import (
    GeneratorError,
    RailOptimizedParams,
    TwoTierParams,
    generate,
    generated_metadata,
)
from ..media import choose_media
from ..model.document import FabricDocument, ModelError
from ..model.edits import (
    AddDevice,
    AddLink,
    AddRack,
    Operation,
    RemoveDevice,
    RemoveLink,
    UpdateDevice,
    UpdateMetadata,
    UpdateSettings,
    UpdateWorkload,
)
from ..model.fabric import Device, Endpoint, Rack
from .cages import CagePairing, paired_cages, vacated_optics
from .diff import FabricDiff, diff_documents, match_devices, match_links
from .template import TemplateError, infer_params

__all__ = ["ChangePlan", "GrowthError", "grow", "migrate", "plan_change"]


class GrowthError(ValueError):
    """The growth or migration cannot be planned (the reason says what would work)."""


@dataclass
class ChangePlan:
    params: Any  # the generator parameters of the target
    result: FabricDocument  # the design after the change (a new document)
    diff: FabricDiff  # design -> result: the bill of change
    notes: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)  # moved cable id -> why

    def bill(self) -> dict[str, Any]:
        d = self.diff
        bom = d.bom
        buy = [line.to_json() for line in bom.lines if line.delta > 0] if bom else []
        freed = [line.to_json() for line in bom.lines if line.delta < 0] if bom else []
        return {
            "buy": buy,
            "freed": freed,
            "cables_to_pull": len(d.links_added),
            "cables_to_move": len(d.links_reterminated),
            "cables_to_remove": len(d.links_removed),
            "cables_kept": len(d.link_map) - len(d.links_reterminated),
            # of the kept: the same cage and leg under the swapped model's port name (re-label)
            "cables_on_renamed_ports": len(d.ports_renamed),
            "devices_to_add": len(d.devices_added),
            "devices_to_remove": len(d.devices_removed),
            "devices_to_move": len(d.devices_moved),
            "devices_swapped": sorted({c.what for c in d.device_changes if c.field == "model"}),
            "optic_changes": len(d.cage_changes),
        }

    def to_json(self) -> dict[str, Any]:
        return {"params": self.params.model_dump(mode="json"), "bill": self.bill(),
                "notes": self.notes, "moves": self.reasons, "diff": self.diff.to_json()}


def _target(doc: FabricDocument, params: Any, uncabled: bool = True
            ) -> tuple[FabricDocument, list[str]]:
    """The generated target and what its media choice could not resolve (`uncabled`: links
    without media become notes; else the generator's refusal is the change's)."""
    target = FabricDocument(doc.catalog)
    try:
        result = generate(target, params, uncabled=uncabled)  # unresolved links become notes
    except GeneratorError as exc:
        # "generate without media" is no way out of a refused migration (migrate has no flag)
        reason = str(exc) if uncabled else exc.reason
        raise GrowthError(f"the generator cannot make the target: {reason}") from None
    notes = []
    if result.unresolved:
        reasons = sorted({u.reason for u in result.unresolved})
        notes.append(f"the catalog has no media for {len(result.unresolved)} link group(s) of the "
                     f"target: {'; '.join(reasons[:3])}")
    return target, notes


def _fresh(taken: set[str], wanted: str, prefix: str) -> str:
    if wanted not in taken:
        taken.add(wanted)
        return wanted
    n = 1
    while f"{prefix}{n}" in taken:
        n += 1
    taken.add(f"{prefix}{n}")
    return f"{prefix}{n}"


def _occupied(doc: FabricDocument, devices: list[Device]) -> dict[str, set[int]]:
    used: dict[str, set[int]] = defaultdict(set)
    for device in devices:
        if device.rack and device.ru is not None:
            height = max(doc.device_model(device).height_ru, 1)
            used[device.rack].update(range(device.ru, device.ru + height))
    return used


def _place_new(old: FabricDocument, target: FabricDocument, new_devices: list[Device],
               kept_new_ids: dict[str, str], leaving: set[str] = frozenset()
               ) -> tuple[list[Rack], dict[str, tuple[str | None, int | None]]]:
    """Racks to add and (rack, ru) per new device id.

    A target rack is the *same* rack as the design's rack of that id when a device kept from
    the design sits in both; a new device goes there when its RUs are free.  Every other new
    device goes into its target rack when that rack is new and stands on free floor, else into
    a copy of it moved to a new row behind the existing floor (nothing lands on a rack already
    standing).
    """
    same = _shared_racks(old, target, kept_new_ids)
    used = _occupied(old, [d for d in old.devices.values() if d.id not in leaving])
    racks = _NewRacks(old, target)
    places: dict[str, tuple[str | None, int | None]] = {}
    for device in new_devices:
        t_rack = device.rack
        if t_rack is None or device.ru is None:
            places[device.id] = (None, None)
            continue
        height = max(target.device_model(device).height_ru, 1)
        span = set(range(device.ru, device.ru + height))
        if t_rack in same and not (used[t_rack] & span):
            used[t_rack].update(span)
            places[device.id] = (t_rack, device.ru)
            continue
        places[device.id] = (racks.rack_for(t_rack).id, device.ru)
    return list(racks.racks.values()), places


def _shared_racks(old: FabricDocument, target: FabricDocument,
                  kept_new_ids: dict[str, str]) -> set[str]:
    """The racks of the target that are the design's rack of the same id: a device kept from
    the design sits in both."""
    same: set[str] = set()
    for new_id, old_id in {v: k for k, v in kept_new_ids.items()}.items():
        t_rack = target.devices[new_id].rack
        if t_rack and t_rack == old.devices[old_id].rack and t_rack in old.racks:
            same.add(t_rack)
    return same


class _NewRacks:
    """The racks the new devices go into, each made when a device first needs it: the target's
    rack as the generator placed it when that rack is new and stands on free floor, else a copy
    of it in a new row behind the existing floor."""

    def __init__(self, old: FabricDocument, target: FabricDocument) -> None:
        self.old, self.target = old, target
        self.rows = [r.row for r in old.racks.values()] or [0]
        ys = [r.y_m for r in old.racks.values() if r.y_m is not None] or [0.0]
        row_pitch = old.settings.lengths.row_pitch_m
        self.shift_y = max(ys) + row_pitch - min((r.y_m for r in target.racks.values()
                                                  if r.y_m is not None), default=0.0)
        self.taken = set(old.racks)
        self.spots = {(r.row, r.position) for r in old.racks.values()}
        self.spots |= {(r.x_m, r.y_m) for r in old.racks.values() if r.x_m is not None}
        self.racks: dict[str, Rack] = {}  # target rack id -> the rack added for it

    def rack_for(self, t_rack: str) -> Rack:
        if t_rack not in self.racks:
            self.racks[t_rack] = self._made(t_rack)
        return self.racks[t_rack]

    def _made(self, t_rack: str) -> Rack:
        source = self.target.racks[t_rack]
        spot = ((source.row, source.position), (source.x_m, source.y_m))
        if t_rack not in self.old.racks and not (spot[0] in self.spots or (
                source.x_m is not None and spot[1] in self.spots)):
            self.taken.add(t_rack)  # a new rack on free floor: as the generator placed it
            return source
        rack_id = _fresh(self.taken, f"{t_rack}-g", f"{t_rack}-g")
        return source.model_copy(update={
            "id": rack_id, "name": f"G{source.name}", "row": max(self.rows) + source.row,
            "y_m": None if source.y_m is None else round(source.y_m + self.shift_y, 3)})


@dataclass
class _Fit:
    """The design's links against the target's: what stays, moves, comes and goes."""

    kept: list[str] = field(default_factory=list)  # design link ids that stay as they are
    moved: list[tuple[str, Any]] = field(default_factory=list)  # (design id, target link, re-ported)
    added: list[Any] = field(default_factory=list)  # target links (re-ported) to pull
    removed: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)  # design link id -> why it moves
    moved_onto: set[str] = field(default_factory=set)  # the target links a design cable took

    def move(self, link_id: str, onto: Any, why: str) -> None:
        """The design's cable `link_id` becomes the target's (re-ported) link `onto`."""
        self.moved_onto.add(onto.id)
        self.moved.append((link_id, onto))
        self.reasons[link_id] = why


def _pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def _natural(text: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


def _port_order(link: Any, name: Any) -> tuple:
    """Sort key of a link: its ends' ports in natural order, the end of the lower device first."""
    ends = sorted((name(e.device), _natural(e.port)) for e in (link.a, link.b))
    return tuple(port for _device, port in ends)


def _ports_stay(doc: FabricDocument, target: FabricDocument, link: Any, a: str, b: str) -> bool:
    """Both of the cable's ports exist on the target's devices at the same speed."""
    for end, device in ((link.a, a), (link.b, b)):
        mine, theirs = doc.port(end.device, end.port), target.port(device, end.port)
        if mine is None or theirs is None or mine.speed_gbps != theirs.speed_gbps:
            return False
    return True


def _fit_links(doc: FabricDocument, target: FabricDocument, device_map: dict[str, str]) -> _Fit:
    """Keep every design cable whose two devices stay linked in the target, on its own ports.

    Exact matches first (diff.match_links without its re-terminations); then, per device
    pair, as many of the design's cables as the target has between the two devices stay on
    their ports (the first in port order), and the target cables they stand for give up theirs; the target's other
    cables take those freed ports where their own are now taken (same speed and cage group);
    a design cable left over that shares one end with one of them is re-terminated, the rest
    are removed and added.
    """
    fit = _Fit()
    ports = _TargetPorts(target)
    exact = _exact_matches(doc, target, device_map, ports)
    fit.kept = sorted(exact)
    left_new = _left_by_pair(target, set(exact.values()))
    left_old = _keep_on_own_ports(doc, target, device_map, exact, left_new, ports, fit)
    rest = sorted((lk for links in left_new.values() for lk in links), key=lambda lk: lk.id)
    ported = [lk.model_copy(update={"a": Endpoint(lk.a.device, ports.free_port(*lk.a)),
                                    "b": Endpoint(lk.b.device, ports.free_port(*lk.b))})
              for lk in rest]
    why = _WhyMoved(doc, target, device_map)
    unmatched = _reterminate_one_end(left_old, ported, device_map, fit, why)
    _replug_both_ends(unmatched, ported, device_map, fit, why)
    fit.added = [t for t in ported if t.id not in fit.moved_onto]
    return fit


class _TargetPorts:
    """The target's ports taken so far, per target device, and the ports that stand-ins (target
    cables a kept design cable stands for) gave up."""

    def __init__(self, target: FabricDocument) -> None:
        self.target = target
        self.used: dict[str, set[str]] = defaultdict(set)
        self.released: dict[str, list[str]] = defaultdict(list)

    def take(self, device: str, port: str) -> None:
        self.used[device].add(port)

    def free_port(self, device: str, port: str) -> str:
        """The target's port if it is free, else a free port of the same speed and cage group:
        first the other leg of a cage already in use (its optic is bought anyway), then a port
        a stand-in gave up, then any, in cage order."""
        if port not in self.used[device]:
            self.used[device].add(port)
            return port
        ports = self.target.ports(device)
        want = ports.get(port)
        taken = self.used[device]
        fits = [p for p in ports.values() if p.name not in taken and want is not None
                and p.speed_gbps == want.speed_gbps and p.group.name == want.group.name]
        if not fits:
            raise GrowthError(f"no free port on {device} for a cable of the target")
        busy = {ports[name].cage for name in taken if name in ports}
        given_up = set(self.released[device])
        best = min(fits, key=lambda p: (p.cage not in busy, p.name not in given_up, p.cage, p.leg))
        taken.add(best.name)
        return best.name


def _exact_matches(doc: FabricDocument, target: FabricDocument, device_map: dict[str, str],
                   ports: _TargetPorts) -> dict[str, str]:
    """Design link id -> target link id of the cables the same in both (diff.match_links
    without its re-terminations); their target ports are taken."""
    link_map, retermed = match_links(doc, target, device_map)
    retermed_old = {r.old.id for r in retermed}
    exact = {o: t for o, t in link_map.items() if o not in retermed_old}
    for o in exact:
        link = target.links[exact[o]]
        ports.take(link.a.device, link.a.port)
        ports.take(link.b.device, link.b.port)
    return exact


def _left_by_pair(target: FabricDocument, taken: set[str]) -> dict[frozenset[str], list[Any]]:
    """The target's links not in `taken`, per pair of target devices."""
    left: dict[frozenset[str], list[Any]] = defaultdict(list)
    for link in target.links.values():
        if link.id not in taken:
            left[_pair(link.a.device, link.b.device)].append(link)
    return left


def _keep_on_own_ports(doc: FabricDocument, target: FabricDocument, device_map: dict[str, str],
                       exact: dict[str, str], left_new: dict[frozenset[str], list[Any]],
                       ports: _TargetPorts, fit: _Fit) -> list[Any]:
    """Keep, per pair of devices, as many of the design's other cables on their own ports as
    the target has left between the two (each takes one of them out of `left_new`, whose
    ports are given up); the design cables left over, in port order."""
    left_old = []
    # in port order, so that the cables that stay between two devices fill whole cages (both
    # legs of a twin-port cage) instead of leaving half of each cage's optic idle
    staying = sorted((doc.links[i] for i in doc.links if i not in exact),
                     key=lambda lk: (_port_order(lk, lambda d: doc.devices[d].name), lk.id))
    for link in staying:
        a, b = device_map.get(link.a.device), device_map.get(link.b.device)
        candidates = left_new.get(_pair(a, b)) if a and b else None
        if candidates and _ports_stay(doc, target, link, a, b):
            standin = candidates.pop()
            fit.kept.append(link.id)
            for end in (standin.a, standin.b):
                ports.released[end.device].append(end.port)
            ports.take(a, link.a.port)
            ports.take(b, link.b.port)
        else:
            left_old.append(link)
    return left_old


class _WhyMoved:
    """Why a design cable moves, in the words of the bill of change: a device leaves or is
    swapped for a model with other port names, the pair has another number of links in the
    target, or the target wires the pair on other ports."""

    def __init__(self, doc: FabricDocument, target: FabricDocument,
                 device_map: dict[str, str]) -> None:
        self.doc, self.target, self.device_map = doc, target, device_map
        self.before: dict[frozenset[str], int] = defaultdict(int)  # per target device pair
        for link in doc.links.values():
            a, b = device_map.get(link.a.device), device_map.get(link.b.device)
            if a and b:
                self.before[_pair(a, b)] += 1
        self.after: dict[frozenset[str], int] = defaultdict(int)
        for link in target.links.values():
            self.after[_pair(link.a.device, link.b.device)] += 1

    def __call__(self, link: Any) -> str:
        doc, target = self.doc, self.target
        a, b = self.device_map.get(link.a.device), self.device_map.get(link.b.device)
        if not (a and b):
            return "one of its devices leaves the design"
        pair = _pair(a, b)
        names = " - ".join(sorted(doc.devices[d].name for d in (link.a.device, link.b.device)))
        swapped = [f"{doc.devices[o].name} becomes {target.devices[t].model}"
                   for o, t in ((link.a.device, a), (link.b.device, b))
                   if doc.devices[o].model != target.devices[t].model]
        if swapped:
            return "; ".join(swapped) + " (other port names)"
        if self.before[pair] != self.after[pair]:
            return f"{names}: {self.before[pair]} -> {self.after[pair]} link(s) in the target"
        return f"{names}: the target wires this pair on other ports"


def _reterminate_one_end(left_old: list[Any], ported: list[Any], device_map: dict[str, str],
                         fit: _Fit, why: _WhyMoved) -> list[Any]:
    """Re-terminate each design cable left over that keeps one end: the target link at that
    end (the only one there not yet taken, of the same part) takes it.  The cables left, in
    port order."""
    new_at: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for link in ported:
        new_at[tuple(link.a)].append(link)
        new_at[tuple(link.b)].append(link)
    unmatched = []
    for link in left_old:  # one end stays: re-terminate the other
        ends = [(device_map.get(e.device), e.port) for e in (link.a, link.b)]
        match = None
        for end in ends:
            options = [t for t in new_at.get(end, []) if t.id not in fit.moved_onto
                       and t.cable == link.cable]
            if end[0] is not None and len(options) == 1:
                match = options[0]
                break
        if match is None:
            unmatched.append(link)
            continue
        fit.move(link.id, match, why(link))
    unmatched.sort(key=lambda lk: _port_order(lk, lambda d: device_map.get(d, d)))
    return unmatched


def _replug_both_ends(unmatched: list[Any], ported: list[Any], device_map: dict[str, str],
                      fit: _Fit, why: _WhyMoved) -> None:
    """Both ends on other ports of the same two devices (a swapped model's port names), same
    part: the cable stays in place and is re-plugged at both ends; the others are removed."""
    same_run: dict[tuple[frozenset[str], str | None], list[Any]] = defaultdict(list)
    for link in ported:
        if link.id not in fit.moved_onto:
            same_run[(_pair(link.a.device, link.b.device), link.cable)].append(link)
    for options in same_run.values():  # pair the runs in port order: cage 1 with cage 1 ...
        options.sort(key=lambda lk: _port_order(lk, lambda d: d))
    for link in unmatched:
        a, b = device_map.get(link.a.device), device_map.get(link.b.device)
        options = same_run.get((_pair(a, b), link.cable)) if a and b else None
        if not options:
            fit.removed.append(link.id)
            continue
        fit.move(link.id, options.pop(0), why(link))


def _restated(doc: FabricDocument, source: Any, params: Any) -> tuple[Any, set[str]]:
    """`params` for the target, and the metadata fields the result takes from the target: the
    name and description the generator wrote for the design's own parameters state its size and
    models ("2 SU x 72", "16 leaves"), so a grown or migrated design restates them; a name or
    description of the user's own stays as it is."""
    try:
        name, description = generated_metadata(doc.catalog,
                                               source.model_copy(update={"name": None}))
    except GeneratorError:  # the design's own parameters no longer plan: its words stay
        return params, set()
    fields = {"description"} if doc.metadata.description == description else set()
    if doc.metadata.name == name:
        fields.add("name")
        params = params.model_copy(update={"name": None})  # the target names its own size
    return params, fields


def plan_change(doc: FabricDocument, params: Any, notes: list[str] | None = None,
                restate: frozenset[str] | set[str] = frozenset(),
                uncabled_target: bool = True) -> ChangePlan:
    """The design after regenerating it with `params`, fitted onto `doc` (unchanged); the
    metadata fields in `restate` are taken from the target; with `uncabled_target` False a
    target the catalog cannot cable is refused as `aicnet generate` refuses it."""
    target, target_notes = _target(doc, params, uncabled=uncabled_target)
    notes = [*target_notes, *(notes or [])]
    device_map = match_devices(doc, target)  # design id -> target id
    fit = _fit_links(doc, target, device_map)
    target_to_doc = {t: d for d, t in device_map.items()}

    new_devices = [d for d in target.devices.values() if d.id not in target_to_doc]
    resized = _resized(doc, target, device_map)
    racks, places = _place_new(doc, target, new_devices + resized, device_map,
                               leaving={target_to_doc[d.id] for d in resized})
    ops = _removals(doc, fit, device_map)
    ops += [AddRack(r) for r in racks]
    # a taller or shorter model leaves its slot first, then goes where the placement found room
    ops += [UpdateDevice(target_to_doc[d.id], {"rack": None, "ru": None}) for d in resized]
    moving = {target_to_doc[d.id]: places[d.id] for d in resized}
    updates, swapped = _device_updates(doc, target, device_map, moving)
    ops += updates
    ids = dict(target_to_doc)  # target device id -> its id in the result
    ops += _added_devices(doc, new_devices, places, ids)
    link_ops, added = _link_ops(doc, fit, ids)
    ops += link_ops
    ops += _workload_ops(doc, target, ids)
    ops += _subnet_manager_ops(doc, target, device_map, ids)
    ops += _metadata_ops(doc, target, restate)
    result, pairing = _result(doc, ops, device_map, added, swapped, notes)
    plan = ChangePlan(params, result, diff_documents(doc, result), notes)
    why = {**fit.reasons, **pairing.reasons}
    plan.reasons = {i: why[i] for i in (r.old.id for r in plan.diff.links_reterminated) if i in why}
    return plan


def _resized(doc: FabricDocument, target: FabricDocument, device_map: dict[str, str]
             ) -> list[Device]:
    """The target's devices that keep a design device but not its height (a swapped model)."""
    return [target.devices[t] for o, t in sorted(device_map.items())
            if target.device_model(t).height_ru != doc.device_model(o).height_ru]


def _removals(doc: FabricDocument, fit: _Fit, device_map: dict[str, str]) -> list[Operation]:
    """Remove every design cable the fit does not keep (a moved one comes back re-plugged)
    and every design device the target has not."""
    kept = set(fit.kept)
    ops: list[Operation] = [RemoveLink(i) for i in sorted(doc.links) if i not in kept]
    ops += [RemoveDevice(i) for i in sorted(doc.devices) if i not in device_map]
    return ops


def _device_updates(doc: FabricDocument, target: FabricDocument, device_map: dict[str, str],
                    moving: dict[str, tuple[str | None, int | None]]
                    ) -> tuple[list[Operation], list[str]]:
    """The updates of the design's devices the target keeps (its model and role, cages and
    plane; a resized model's new place in `moving`), and the ids of the devices updated."""
    ops: list[Operation] = []
    swapped: list[str] = []
    for old_id, new_id in sorted(device_map.items()):
        mine, theirs = doc.devices[old_id], target.devices[new_id]
        changes: dict[str, Any] = {}
        if mine.model != theirs.model:
            changes["model"] = theirs.model
            changes["role"] = theirs.role
        if mine.cages != theirs.cages:
            changes["cages"] = theirs.cages
        if mine.plane != theirs.plane:  # a multi-plane design: the switch joins its new plane
            changes["plane"] = theirs.plane
        if old_id in moving:
            changes["rack"], changes["ru"] = moving[old_id]
        if changes:
            ops.append(UpdateDevice(old_id, changes))
            swapped.append(old_id)
    return ops, swapped


def _added_devices(doc: FabricDocument, new_devices: list[Device],
                   places: dict[str, tuple[str | None, int | None]],
                   ids: dict[str, str]) -> list[Operation]:
    """Add the target's new devices at their places, under ids (and names) the design does not
    use yet; `ids` learns the id each one gets."""
    ops: list[Operation] = []
    taken_devices = set(doc.devices) | {d.name for d in doc.devices.values()}
    for device in new_devices:
        new_id = _fresh(taken_devices, device.id, f"{device.id}-")
        ids[device.id] = new_id
        rack, ru = places[device.id]
        ops.append(AddDevice(device.model_copy(update={"id": new_id, "name": new_id,
                                                       "rack": rack, "ru": ru})))
    return ops


def _link_ops(doc: FabricDocument, fit: _Fit, ids: dict[str, str]
              ) -> tuple[list[Operation], list[str]]:
    """Add the moved cables (under their own ids) and the new ones (under fresh ids) between
    the result's devices; and the ids of every link added."""
    def mapped(end: Endpoint) -> Endpoint:
        return Endpoint(ids[end.device], end.port)

    ops: list[Operation] = []
    added: list[str] = []
    for old_id, link in fit.moved:
        added.append(old_id)
        ops.append(AddLink(link.model_copy(update={"id": old_id, "a": mapped(link.a),
                                                   "b": mapped(link.b)})))
    taken_links = set(doc.links)
    for link in fit.added:
        link_id = _fresh(taken_links, link.id, "grow-")
        added.append(link_id)
        ops.append(AddLink(link.model_copy(update={"id": link_id, "a": mapped(link.a),
                                                   "b": mapped(link.b)})))
    return ops, added


def _workload_ops(doc: FabricDocument, target: FabricDocument,
                  ids: dict[str, str]) -> list[Operation]:
    """Each of the design's workloads takes the members of the target's workload of its id."""
    ops: list[Operation] = []
    for workload in doc.workloads.values():
        theirs = target.workloads.get(workload.id)
        if theirs is not None:
            members = sorted(ids[m] for m in theirs.members if m in ids)
            if members != sorted(workload.members):
                ops.append(UpdateWorkload(workload.id, {"members": members}))
    return ops


def _subnet_manager_ops(doc: FabricDocument, target: FabricDocument, device_map: dict[str, str],
                        ids: dict[str, str]) -> list[Operation]:
    """A subnet manager named in the design leaves or changes model: take the target's."""
    managers = [ids[m] for m in target.settings.subnet_managers if m in ids]
    if managers and any(
            not (doc.devices[m].model == target.devices[device_map[m]].model
                 if m in device_map else False)
            for m in doc.settings.subnet_managers):
        return [UpdateSettings({"subnet_managers": managers})]
    return []


def _metadata_ops(doc: FabricDocument, target: FabricDocument,
                  restate: frozenset[str] | set[str]) -> list[Operation]:
    metadata = {field: getattr(target.metadata, field) for field in sorted(restate)
                if getattr(target.metadata, field) != getattr(doc.metadata, field)}
    return [UpdateMetadata(metadata)] if metadata else []


def _result(doc: FabricDocument, ops: list[Operation], device_map: dict[str, str],
            added: list[str], swapped: list[str], notes: list[str]
            ) -> tuple[FabricDocument, CagePairing]:
    """The design with `ops` applied to a copy, then media chosen for the real places of the
    links added and of the updated devices' links (what it cannot resolve goes to `notes`),
    half-used twin-port cages paired and vacated cages' optics taken out."""
    result = doc.snapshot()
    try:
        result.apply(ops)
        touched = added + sorted({lk.id for d in swapped for lk in result.links_of(d)})
        if touched:  # media for the real places and the swapped models
            media = choose_media(result, touched)
            if media.ops:
                result.apply(media.ops)
            if media.unresolved:
                notes.append(f"{len(media.unresolved)} link group(s) have no media that reaches "
                             "from their new racks (see aicnet validate)")
        pairing = paired_cages(doc, result, device_map)
        if pairing.ops:
            result.apply(pairing.ops)
        vacated = vacated_optics(doc, result, device_map)
        if vacated:
            result.apply(vacated)
    except ModelError as exc:
        raise GrowthError(f"the target does not fit onto the design: {exc}") from None
    return result, pairing


def grow(doc: FabricDocument, add_sus: int = 0, add_servers: int = 0) -> ChangePlan:
    try:
        source = params = infer_params(doc)
    except TemplateError as exc:
        raise GrowthError(str(exc)) from None
    if isinstance(params, RailOptimizedParams):
        if add_servers:
            raise GrowthError("a rail-optimized design grows by whole SUs: use --add-sus")
        params = params.model_copy(update={"sus": params.sus + add_sus})
    elif isinstance(params, TwoTierParams):
        if add_sus:
            raise GrowthError("a two-tier design has no SUs: use --add-servers")
        params = params.model_copy(update={"servers": params.servers + add_servers})
    params, restate = _restated(doc, source, params)
    return plan_change(doc, params, restate=restate)


def migrate(doc: FabricDocument, leaf: str | None = None, spine: str | None = None,
            speed_gbps: int | None = None) -> ChangePlan:
    try:
        source = params = infer_params(doc)
    except TemplateError as exc:
        raise GrowthError(str(exc)) from None
    for model in (leaf, spine):
        if model is not None and model not in doc.catalog.devices:
            raise GrowthError(f"{model!r} is not a device of the catalog (aicnet catalog list)")
    update: dict[str, Any] = {}
    if leaf:
        update["leaf"] = leaf
    if spine:
        update["spine"] = spine
    if speed_gbps:
        update["speed_gbps"] = speed_gbps
    params, restate = _restated(doc, source, params.model_copy(update=update))
    # new switch models whose cages no catalog media joins would keep the old cords on the new
    # optics (hundreds of errors in the planned design): refused with generate's reason instead
    return plan_change(doc, params, restate=restate, uncabled_target=False)
