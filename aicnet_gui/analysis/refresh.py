"""Bring the analyzer's state up to date: whole (`build`) or after one ChangeSet (`apply_changes`).

`apply_changes` runs in separate steps, each recording in a `Delta` (delta.py) what it changed:

1. `read_devices`: re-read the changed racks; find the devices whose object changed (and the
   members of a changed rack), which of them are *wired* (the change reaches their links: model,
   role, name, place, cages) and the links to re-read;
2. `note_old_links`, `reread_devices`, `reindex_links`: remember the link ends and assemblies
   before, re-read the device and link rows, derive the link columns, note the ends after;
3. `resum`: per-device sums and the topology of every device whose links changed;
4. `regroup`: the assembly, rack-member and firmware indices (the group scopes' keys);
5. `retarget`: the workload models and the rows whose oversubscription target moved;
6. `ecmp_peers`: the switches whose ECMP inputs changed (and the ECMP memo they invalidate).

`build` does the same for a whole document after `State.load`.
"""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from ..model import arrays
from ..model.document import FabricDocument
from ..model.edits import ChangeSet
from ..model.fabric import Device
from .bandwidth import analyze_workloads
from .delta import Delta
from .ecmp_reach import ReachCheck, Rewired
from .state import State
from .store import Store


def build(state: State) -> None:
    """Sums, topology, group indices and workloads of a freshly loaded state (a full run)."""
    store = state.store
    store.aggregate(store.device_rows(), store.link_rows())
    state.topo.rebuild()
    index_groups(state)
    analyze_workloads(state)


def index_groups(state: State) -> None:
    """Link ids per assembly, device ids per rack and firmware versions per firmware line."""
    store = state.store
    assemblies: dict[str, set[str]] = {}
    for row in np.flatnonzero(store.l["has_asm"][: store.n_links]).tolist():
        assemblies.setdefault(store.assembly[row], set()).add(store.link_ids[row])
    state.assemblies = assemblies
    firmware: dict[str, dict[str, str]] = {}
    racks: dict[str, set[str]] = {}
    for device in state.doc.devices.values():
        firmware.setdefault(state.firmware_line(device.model), {})[device.id] = device.firmware
        if device.rack is not None:
            racks.setdefault(device.rack, set()).add(device.id)
    state.firmware = firmware
    state.rack_members = racks


def apply_changes(state: State, changes: ChangeSet) -> Delta:
    """Update `state` after `changes` (already applied to `state.doc`); returns the Delta."""
    delta = read_devices(state, changes)
    note_old_links(state, delta)
    reread_devices(state, delta)
    reindex_links(state, delta)
    resum(state, delta)
    regroup(state, delta)
    retarget(state, delta)
    ecmp_peers(state, delta)
    return delta


# ---------------------------------------------------------------------- 1. racks and devices
def read_devices(state: State, changes: ChangeSet) -> Delta:
    store, doc = state.store, state.doc
    for rack_id in sorted(changes.racks):
        store.set_rack(rack_id)
    # a device named in the change set may only have had a link changed: the document
    # replaces a device object when it changes, so compare identities
    devices = {
        d for d in changes.devices
        if d not in store.dev_row or doc.devices.get(d) is not store.dev_obj[store.dev_row[d]]
    }
    # a device only moved on the canvas: no rule reads the position, so the new object takes
    # the row's place and nothing is checked again (a drag on the canvas costs no re-check)
    placed = {d for d in devices if _placed_only(store, doc, d)}
    for dev_id in placed:
        store.dev_obj[store.dev_row[dev_id]] = doc.devices[dev_id]
    devices -= placed
    # a new firmware version or tag only re-runs the device's own rules
    wired = {d for d in devices if _wiring(store, doc, d)}
    for rack_id in changes.racks:
        members = state.rack_members.get(rack_id, set())
        devices |= members
        wired |= members
    delta = Delta(changes, devices=devices, wired=wired, links=set(changes.links), placed=placed)
    for dev_id in devices:
        row = store.dev_row.get(dev_id)
        old = store.dev_obj[row] if row is not None else None
        delta.old_device[dev_id] = (old.rack, old.model) if old is not None else (None, None)
    moved = {d for d in wired if _moved_in_rack(store, doc, d)}
    for dev_id in wired:
        if dev_id in doc.devices:
            their = doc.link_ids_of(dev_id)
            delta.links |= their
            if dev_id in moved:
                delta.lengths_only |= their
    if delta.lengths_only:
        delta.lengths_only -= changes.links
        for dev_id in wired - moved:
            if dev_id in doc.devices:
                delta.lengths_only -= doc.link_ids_of(dev_id)
    return delta


# ---------------------------------------------------------------------- 2. re-read and re-index
def note_old_links(state: State, delta: Delta) -> None:
    """The ends and assemblies of the dirty links before they are re-read."""
    store = state.store
    for link_id in delta.links:
        row = store.link_row.get(link_id)
        if row is not None:
            if link_id not in delta.lengths_only:
                _note_ends(state, delta, row)
            delta.old_assembly[link_id] = store.assembly[row]


def reread_devices(state: State, delta: Delta) -> None:
    store = state.store
    old_model = {d: (store.dev_obj[store.dev_row[d]].model, store.dev_obj[store.dev_row[d]].role)
                 for d in delta.devices if d in store.dev_row}
    for dev_id in sorted(delta.devices):
        before = store.dev_row.get(dev_id)
        was = _place(store, before)
        row = store.set_device(dev_id)
        delta.regrouped |= was != _place(store, row)
        if _typed(store, old_model.get(dev_id), row):
            delta.typed_rows.add(row if row is not None else before)
        if row is not None:
            delta.changed_rows.add(row)
            if dev_id in delta.wired:
                delta.touched_rows.add(row)
                delta.wired_rows.add(row)


def reindex_links(state: State, delta: Delta) -> None:
    store = state.store
    rows = [row for row in (store.set_link(i) for i in sorted(delta.links)) if row is not None]
    store.derive(np.array(sorted(rows), dtype=np.int64))
    lengths_only = delta.lengths_only
    for row in rows:
        if store.link_ids[row] not in lengths_only:
            _note_ends(state, delta, row)


def _note_ends(state: State, delta: Delta, row: int) -> None:
    col = state.store.l
    for side in ("a", "b"):
        dev = int(col[side][row])
        delta.touched_rows.add(dev)
        delta.old_ends.add((dev, state.endpoints.ports[int(col[side + "_ep"][row])].cage))


# ---------------------------------------------------------------------- 3. sums and topology
def resum(state: State, delta: Delta) -> None:
    """Per-device sums and neighbours of every device whose links changed."""
    store, topo = state.store, state.topo
    alive = store.d["alive"]
    touched = delta.touched_rows
    live = sorted(r for r in touched if alive[r])
    delta.their_links = {r: state.doc.link_ids_of(store.dev_ids[r]) for r in live}
    delta.their_rows = {r: store.rows_of_links(ids) for r, ids in delta.their_links.items()}
    # every link row of the live touched devices, sorted, once (a link between two of them
    # is in both lists)
    their_rows = (arrays.unique(np.concatenate(list(delta.their_rows.values())))
                  if delta.their_rows else np.zeros(0, dtype=np.int64))
    delta.old_up = {r: topo.up(r) for r in touched}
    delta.old_down = {r: topo.down(r) for r in touched}
    delta.old_sums = {r: (delta.old_up[r], delta.old_down[r], int(store.d["up"][r]),
                          int(store.d["compute_linked"][r])) for r in touched}
    store.aggregate(np.array(live, dtype=np.int64), their_rows)
    topo.refresh(touched, their_rows)


# ---------------------------------------------------------------------- 4. group indices
def regroup(state: State, delta: Delta) -> None:
    _regroup_assemblies(state, delta)
    delta.racks |= delta.changes.racks
    for dev_id, (old_rack, old_model) in delta.old_device.items():
        if old_rack is not None:
            delta.racks.add(old_rack)
            _discard(state.rack_members, old_rack, dev_id)
        if old_model is not None:
            old_line = state.firmware_line(old_model)
            delta.models.add(old_line)
            versions = state.firmware.get(old_line)
            if versions is not None:
                versions.pop(dev_id, None)
                if not versions:
                    del state.firmware[old_line]
        device = state.doc.devices.get(dev_id)
        if device is not None:
            line = state.firmware_line(device.model)
            delta.models.add(line)
            state.firmware.setdefault(line, {})[device.id] = device.firmware
            if device.rack is not None:
                delta.racks.add(device.rack)
                state.rack_members.setdefault(device.rack, set()).add(device.id)


def _regroup_assemblies(state: State, delta: Delta) -> None:
    for link_id in delta.links:
        old = delta.old_assembly.get(link_id)
        if old is not None:
            delta.assemblies.add(old)
            _discard(state.assemblies, old, link_id)
        link = state.doc.links.get(link_id)
        if link is not None and link.assembly is not None:
            delta.assemblies.add(link.assembly)
            state.assemblies.setdefault(link.assembly, set()).add(link_id)


def _discard(index: dict[str, set[str]], group: str, member: str) -> None:
    members = index.get(group)
    if members is not None:
        members.discard(member)
        if not members:
            del index[group]


# ---------------------------------------------------------------------- 5. workload targets
def retarget(state: State, delta: Delta) -> None:
    """Refresh the workloads; note the switches whose oversubscription target moved."""
    old_target, old_wl, old_ids = state.target, state.target_wl, state.target_ids
    changed_workloads = delta.changes.workloads
    analyze_workloads(state, sorted(delta.touched_rows), delta.old_sums, changed_workloads,
                      delta.typed_rows)
    n = len(state.target)
    m = min(len(old_target), n)
    changed = np.zeros(n, dtype=bool)
    changed[m:] = True
    now = state.target[:m]
    same = (old_target[:m] == now) | (np.isnan(old_target[:m]) & np.isnan(now))
    if old_ids == state.target_ids:
        moved = old_wl[:m] != state.target_wl[:m]
    else:
        moved = _names(old_wl[:m], old_ids) != _names(state.target_wl[:m], state.target_ids)
    changed[:m] = ~same | moved
    if changed_workloads:
        changed |= ~np.isnan(state.target)
        changed[:m] |= ~np.isnan(old_target[:m])
    delta.targets = set(np.flatnonzero(changed & state.store.d["alive"][:n]).tolist())


def _names(index: np.ndarray, ids: list[str]) -> np.ndarray:
    return np.array([*ids, ""], dtype=object)[index]


# ---------------------------------------------------------------------- 6. ECMP peers
#: at most this many switches to check again: their ECMP check unites their uppers' reach in
#: one pass (ecmp_reach.reach_union) instead of filling the memo one upper switch at a time
DIRECT_PEERS = 8


def ecmp_peers(state: State, delta: Delta) -> None:
    """A switch's ECMP result depends on its uppers and on the uppers of the switches that
    share an upper switch with it: note those whose inputs changed, and drop their memo."""
    reach = state.memo.setdefault("ecmp", {})
    if delta.regrouped:
        reach.clear()
    delta.peers.update(delta.wired_rows)
    # a renamed, re-modelled or moved switch changes its peers' messages: no shortcut then
    compare = not delta.wired_rows
    expand, before, rewired = _rewired_switches(state, delta, reach, compare)
    _peers_below(state, delta, reach, (expand, before, rewired), compare)
    state.run["ecmp_direct"] = len(delta.peers) <= DIRECT_PEERS


def _rewired_switches(state: State, delta: Delta, reach: dict, compare: bool
                      ) -> tuple[set[tuple[int, int]], dict[tuple[int, int], frozenset[int]],
                                 list[Rewired]]:
    """Per touched switch whose uppers or lowers changed: note it a peer, drop the memo of
    its lowers' reach through it.  Returns the (upper switch, tier) pairs whose lowers to
    check again, the memo entries dropped on the way, and the switches whose set of uppers
    changed."""
    store, topo = state.store, state.topo
    switch, tier_of = store.d["switch"], store.d["tier"]
    expand: set[tuple[int, int]] = set()  # (upper switch, tier): re-check its lowers
    before: dict[tuple[int, int], frozenset[int]] = {}  # memo entries dropped on the way
    rewired: list[Rewired] = []  # switches whose set of uppers changed
    for row in sorted(delta.touched_rows):
        renamed = row in delta.wired_rows
        if not switch[row] and not renamed:
            continue
        tier = int(tier_of[row])
        was_up = frozenset(p[0] for p in delta.old_up.get(row, ()))
        now_up = topo.upset(row)
        was_down = {p[0] for p in delta.old_down.get(row, ()) if switch[p[0]]}
        now_down = {p[0] for p in topo.down(row) if switch[p[0]]}
        if renamed or delta.old_up.get(row) != topo.up(row):
            delta.peers.add(row)
        if renamed or was_up != now_up:
            expand.update((upper, tier) for upper in was_up | now_up)
            rewired.append((row, was_up, now_up))
        if renamed or was_down != now_down:
            for low in was_down | now_down:
                low_tier = int(tier_of[low])
                if (row, low_tier) in reach:
                    before[(row, low_tier)] = reach.pop((row, low_tier))
                if not compare:
                    expand.update((upper, low_tier) for upper in topo.upset(low))
    # (when comparing, a low that arrived or left is rewired: its uppers, this row among them,
    # are expanded above; the other lows' uppers keep what their lows reach)
    return expand, before, rewired


def _peers_below(state: State, delta: Delta, reach: dict,
                 found: tuple[set[tuple[int, int]], dict[tuple[int, int], frozenset[int]],
                              list[Rewired]], compare: bool) -> None:
    """The lowers of tier t under each expanded (upper switch, t) are peers to check again,
    and its memo is dropped, unless (`compare`) what they reach through it did not change."""
    store, topo = state.store, state.topo
    switch, tier_of = store.d["switch"], store.d["tier"]
    expand, before, rewired = found
    check = ReachCheck(topo, rewired, switch, tier_of)
    for upper, tier in expand:
        old = reach.get((upper, tier)) or before.get((upper, tier))
        if compare and switch[upper] and not check.changed(
                upper, tier, delta.old_down.get(upper), old):
            # what the peers under this upper switch reach is what it was: their expected
            # uppers did not change through it (a fat tree loses a cable, not a path)
            if old is not None:
                reach[(upper, tier)] = old
            continue
        reach.pop((upper, tier), None)
        rows = topo.down_array(upper)[:, 0]
        delta.peers.update(rows[switch[rows] & (tier_of[rows] == tier)].tolist())


# ---------------------------------------------------------------------- helpers
def _place(store: Store, row: int | None) -> tuple[int, bool] | None:
    """(tier, is a switch) of a device row, None for no row."""
    if row is None:
        return None
    return int(store.d["tier"][row]), bool(store.d["switch"][row])


def _wiring(store: Store, doc: FabricDocument, dev_id: str) -> bool:
    """Does this device change reach its links (or is the device new or gone)?"""
    row = store.dev_row.get(dev_id)
    old = store.dev_obj[row] if row is not None else None
    new = doc.devices.get(dev_id)
    if old is None or new is None:
        return True
    return (old.model, old.role, old.name, old.rack, old.ru, old.cages) != (
        new.model, new.role, new.name, new.rack, new.ru, new.cages)


#: every field of a device but its canvas position (which no rule reads)
_BUT_POSITION = attrgetter(*(name for name in Device.model_fields if name != "position"))


def _placed_only(store: Store, doc: FabricDocument, dev_id: str) -> bool:
    """Did the device change only its position on the Topology canvas?"""
    row = store.dev_row.get(dev_id)
    old = store.dev_obj[row] if row is not None else None
    new = doc.devices.get(dev_id)
    return old is not None and new is not None and _BUT_POSITION(old) == _BUT_POSITION(new)


def _moved_in_rack(store: Store, doc: FabricDocument, dev_id: str) -> bool:
    """Did the device only move to another RU of the same rack?  Then its links' lengths are
    all that changed for the devices at their far ends."""
    row = store.dev_row.get(dev_id)
    old = store.dev_obj[row] if row is not None else None
    new = doc.devices.get(dev_id)
    if old is None or new is None or old.rack is None or old.ru is None or new.ru is None:
        return False
    return (old.model, old.role, old.name, old.rack, old.cages) == (
        new.model, new.role, new.name, new.rack, new.cages)


def _typed(store: Store, old: tuple | None, row: int | None) -> bool:
    """Was the device added or removed, or did its model or role change?"""
    if old is None or row is None:
        return True
    device = store.dev_obj[row]
    return (device.model, device.role) != old
