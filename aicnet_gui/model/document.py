"""`FabricDocument`: the live fabric, its indices and the one mutation API.

Every change goes through `apply(ops)`: the operations run in order, each checked against the
invariants (ids unique, endpoints exist, a logical port carries at most one link, catalog ids
known, breakout modes supported).  If any operation fails, the ones already done are rolled back
and a `ModelError` says why: the document is unchanged.  A successful call returns the touched
ids and the inverse operations, and notifies the listeners.

Objects are values: an update stores a new object and never edits one in place.  Snapshots
rely on that, and so does the incremental analysis, which tells "this device changed" (a new
object) from "a link of this device changed" (same object, id in `ChangeSet.devices`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import chain, islice
from operator import attrgetter, itemgetter
from typing import Any

# numpy before pydantic, as this module imported them when it used numpy itself: with pydantic
# first, `aicnet validate` of 32 servers started ~20 ms slower (bench_cli.py, measured)
import numpy  # noqa: F401, I001
from pydantic import BaseModel, ValidationError

from . import device_index
from .catalog import Catalog, UnknownCatalogId
from .catalog_entities import ROLE_TIER, DeviceModel, Role
from .device_index import LoadedIndex, index_of_ends
from .edits import (
    AddDevice,
    AddLink,
    AddRack,
    AddWorkload,
    AppliedEdit,
    ChangeSet,
    Operation,
    RemoveDevice,
    RemoveLink,
    RemoveRack,
    RemoveWorkload,
    ReplaceCatalog,
    SetRequirement,
    UpdateDevice,
    UpdateLink,
    UpdateMetadata,
    UpdateRack,
    UpdateSettings,
    UpdateWorkload,
)
from .end_check import ResolvedEnds, resolve_ends
from .fabric import (
    Device,
    EmbeddedCatalog,
    Endpoint,
    Fabric,
    Link,
    Metadata,
    Rack,
    Requirement,
    Settings,
    Workload,
)
from .link_table import LinkColumns, LinkTable
from .memo import IdentityMemo
from .ports import LogicalPort, PortConfigError, PortTables, check_cage_overrides
from .text_safety import error_message

Listener = Callable[[ChangeSet], None]

# Field getters that run in C: bulk link runs map them over 100k links.
_ID = attrgetter("id")
_NAME = attrgetter("name")
_CABLE = attrgetter("cable")
_A_END = attrgetter("a")  # an Endpoint is the (device, port) key itself
_B_END = attrgetter("b")
_MODE = attrgetter("mode")
_TRANSCEIVER = attrgetter("transceiver")
_FIRST = itemgetter(0)
_SECOND = itemgetter(1)
_NONE: dict[str, str] = {}  # the links of a device without any (read only)


def _index_ends(index: dict[str, dict[str, str]], ends: Iterable[tuple[str, str]],
                link_ids: Iterable[str]) -> None:
    """Enter each link end, (device, port), with its link's id into `index` (device -> port ->
    link id), one link id per end: dict stores over every end, looped in C (a Python loop is a
    third of a big load)."""
    ends = list(ends)
    deque(map(dict.__setitem__, map(index.__getitem__, map(_FIRST, ends)), map(_SECOND, ends),
              link_ids), maxlen=0)


class ModelError(ValueError):
    """An edit that would break an invariant; `ids` names the objects concerned."""

    def __init__(self, message: str, ids: Iterable[str] = (), path: str = "") -> None:
        super().__init__(message)
        self.ids = list(ids)
        self.path = path


def _validated_copy(obj: BaseModel, changes: dict[str, Any], what: str) -> Any:
    """A copy of `obj` with `changes`, each changed field validated (the rest already is).

    Validating only the changed fields keeps frequent small edits cheap: a re-layout of 6,656
    devices moves every position.
    """
    if "id" in changes and changes["id"] != getattr(obj, "id", changes["id"]):
        raise ModelError(f"{what}: the id of an object cannot change")
    model = type(obj)
    unknown = [name for name in changes if name not in model.model_fields]
    if unknown:
        raise ModelError(f"{what}: unknown field {unknown[0]!r}")
    new = obj.model_copy()
    try:
        for name, value in changes.items():
            model.__pydantic_validator__.validate_assignment(new, name, value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ModelError(f"{what}: {where}: {error_message(first)}") from None
    return new


class FabricDocument:
    """The live fabric: objects by id, the device -> port -> link index, and the mutation API."""

    def __init__(self, catalog: Catalog, fabric: Fabric | None = None,
                 link_columns: LinkColumns | None = None) -> None:
        """An empty document, or the design `fabric` (its links, or else `link_columns`: the
        links of an opened file as columns, link_table.py) checked against every invariant."""
        self.catalog = catalog
        self.metadata: Metadata = Metadata()
        self.settings: Settings = Settings()
        self.requirement: Requirement | None = None  # what a study chose the design for
        self.racks: dict[str, Rack] = {}
        self.devices: dict[str, Device] = {}
        self.links = LinkTable()
        self.workloads: dict[str, Workload] = {}
        self.revision = 0
        # (revision, link columns, their ends as numbers) of an opened file (`loaded_ends`)
        self._loaded_ends: tuple[int, LinkColumns, ResolvedEnds] | None = None
        self._names: dict[str, str] = {}
        # device -> port -> id of the link there: made from the links on the first question
        # that needs it (`_end_index`) and kept up to date by every edit after that; None until
        # then (a load or `aicnet validate` never asks)
        self._ends: dict[str, dict[str, str]] | None = None
        # while the index is made a part at a time (build_device_index): the ends and link ids
        # still to enter, and how far it got
        self._ends_todo: tuple[list[tuple[str, str]], list[str], int] | None = None
        self._ports = PortTables()
        # (model id, ((cage, mode, transceiver), ...)) -> port table, for overrides that passed
        self._checked_cages: dict[tuple[str, tuple[tuple[int, str | None, str | None], ...]],
                                  dict[str, LogicalPort]] = {}
        self._checked_tables: IdentityMemo[dict[str, LogicalPort]] = IdentityMemo(50_000)
        self._device_ports: dict[str, dict[str, LogicalPort]] = {}
        self._listeners: list[Listener] = []
        if fabric is not None:
            self._load(fabric, link_columns)

    # ---------------------------------------------------------------- building and export
    def _load(self, fabric: Fabric, link_columns: LinkColumns | None) -> None:
        self.metadata = fabric.metadata
        self.settings = fabric.settings
        self.requirement = fabric.requirement
        self._load_section("racks", fabric.racks, AddRack)
        self._load_devices(fabric.devices)
        if link_columns is not None:
            self._load_link_columns(link_columns, [workload.id for workload in fabric.workloads])
        else:
            self._load_links(fabric.links)
        self._load_section("workloads", fabric.workloads, AddWorkload)

    def _load_section(self, section: str, items: list[Any], make_op: Callable[[Any], Operation]) -> None:
        undo: list[Operation] = []
        changes = ChangeSet()
        for index, item in enumerate(items):
            try:
                self._apply_one(make_op(item), undo, changes)
            except ModelError as exc:
                exc.path = f"$.{section}[{index}]"
                raise

    def _load_devices(self, devices: list[Device]) -> None:
        """Add an opened design's devices with the checks of `_add_device`: ids and names
        unique (sets), then each device's own checks (model, cages, rack, RU).  When ids or
        names repeat, one by one instead, so that the first offending device is named."""
        ids = set(map(_ID, devices))
        names = set(map(_NAME, devices))
        if not (len(ids) == len(names) == len(devices) and not self.devices and not self._names
                and ids.isdisjoint(self.racks.keys())):
            self._load_section("devices", devices, AddDevice)
            return
        table, ports, named = self.devices, self._device_ports, self._names
        for index, device in enumerate(devices):
            try:
                ports[device.id] = self._check_device(device, None)
            except ModelError as exc:
                exc.path = f"$.devices[{index}]"
                raise
            table[device.id] = device
            named[device.name] = device.id

    def _load_links(self, links: list[Link]) -> None:
        self._add_link_run(links, None, None, "$.links")

    def _load_link_columns(self, columns: LinkColumns, later_ids: Sequence[str] = ()) -> None:
        """Take an opened file's links as they are (columns) when they keep every invariant,
        checked as `_clean_link_run` checks a run; else add them one by one, so that the first
        offending link is named.  `later_ids`: the ids of the objects loaded next (the
        workloads), each of which is then told from the link ids without a scan of them
        (~20 ms each at 1.2M links)."""
        resolved = self._clean_columns(columns, later_ids)
        if resolved is None:
            table = LinkTable(columns)
            self._add_links_one_by_one(table.values(), None, None, "$.links")
            return
        self.links = LinkTable(columns)
        self._loaded_ends = (self.revision, columns, resolved)

    def loaded_ends(self) -> ResolvedEnds | None:
        """The opened file's link ends as numbers (end_check.py) while nothing was changed
        since it was opened (the same revision, the links exactly as loaded); else None."""
        kept = self._loaded_ends
        if kept is None:
            return None
        revision, columns, resolved = kept
        if revision != self.revision or self.links.as_loaded() is not columns:
            self._loaded_ends = None  # never valid again: its memory goes
            return None
        return resolved

    def _clean_columns(self, columns: LinkColumns, later_ids: Sequence[str] = ()) -> ResolvedEnds | None:
        """The loaded links' ends as numbers when the links keep every invariant in an empty
        document's link table (ids unique and no other object's, each port used once, ends on
        existing ports, cables known), else None: the ids checked with sets, looped in C, the
        ends as numbers (end_check.py); the ids of `later_ids` no link has are noted on the
        columns (`LinkColumns.absent`)."""
        if self.links:
            return None
        ids = set(columns.ids)
        if len(ids) != columns.n or not (ids.isdisjoint(self.devices.keys())
                                         and ids.isdisjoint(self.racks.keys())
                                         and ids.isdisjoint(self.workloads.keys())):
            return None
        columns.absent = frozenset(object_id for object_id in later_ids if object_id not in ids)
        del ids
        cables = columns.values["cable"]
        used = set(cables) if cables is not None else set()
        used.discard(None)
        if not used <= self.catalog.cables.keys():
            return None
        return resolve_ends(self._device_ports, columns.values["a"],  # type: ignore[arg-type]
                            columns.values["b"])  # type: ignore[arg-type]

    def _end_index(self) -> dict[str, dict[str, str]]:
        """Device id -> port -> id of the link at that port, made from the links on first use
        (~0.15 s at 300k links) and kept up to date by every edit after that; an opened file
        not changed since makes it a device at a time from its ends as numbers
        (device_index.py `LoadedIndex`)."""
        if self._ends is None and self._ends_todo is None:
            self._ends = self._loaded_index()
        if self._ends is None or self._ends_todo is not None:
            self.build_device_index()
        return self._ends  # type: ignore[return-value]

    def _loaded_numbers(self) -> tuple[ResolvedEnds, list[str]] | None:
        """An opened file's link ends as numbers and its link ids, row by row; None when they
        are gone (an edit since the load)."""
        resolved = self.loaded_ends()
        kept = self._loaded_ends
        return None if resolved is None or kept is None else (resolved, kept[1].ids)

    def _loaded_index(self) -> LoadedIndex | None:
        """The index of an opened file's links made as it is asked (`LoadedIndex`), None when
        their ends as numbers are gone or the file has fewer than `LAZY_FROM_LINKS` links (its
        index is then made whole when first asked for)."""
        numbers = self._loaded_numbers()
        if numbers is None or len(numbers[1]) < device_index.LAZY_FROM_LINKS:
            return None
        return LoadedIndex(*numbers)

    def build_device_index(self, ends: int | None = None) -> bool:
        """Make the device -> port -> link index now rather than on its first question, at
        most `ends` link ends a call (the editor makes it after its first frame, a part per
        turn of the event loop); True once it answers every device.  Any question or edit
        before then completes it first.  An opened file not changed since gets the index that
        makes a device's entry when it is first asked for (`LoadedIndex`), made whole only when
        the whole is asked for (`ends` None)."""
        if self._ends is None and self._ends_todo is None:
            self._ends = self._loaded_index()
            if self._ends is None and ends is None:  # whole at once, from the numbers if kept
                self._ends = self._index_of_loaded_ends()
                if self._ends is not None:
                    return True
        if isinstance(self._ends, LoadedIndex):
            if ends is None:
                self._ends.complete()
            return True
        if self._ends is None:
            ids, ends_a, ends_b = self.links.columns("id", "a", "b")
            # what is left to enter first, then the index: `_end_index` never sees the index
            # without it
            self._ends_todo = (ends_a + ends_b, ids + ids, 0)
            self._ends = {device_id: {} for device_id in self.devices}
        todo = self._ends_todo
        if todo is None:
            return True
        all_ends, all_ids, done = todo
        stop = len(all_ends) if ends is None else min(len(all_ends), done + ends)
        _index_ends(self._ends, islice(all_ends, done, stop), islice(all_ids, done, stop))
        self._ends_todo = None if stop == len(all_ends) else (all_ends, all_ids, stop)
        return self._ends_todo is None

    def _index_of_loaded_ends(self) -> dict[str, dict[str, str]] | None:
        """The whole device -> port -> link index made from an opened file's ends as numbers
        (`loaded_ends`, device_index.py `index_of_ends`), None when they are gone."""
        numbers = self._loaded_numbers()
        return None if numbers is None else index_of_ends(*numbers)

    def _ends_exist(self, ends: Collection[tuple[str, str]]) -> bool:
        """Every (device, port) names a device and a port of its current table (looped in C,
        without a list of either).  `ends` is read twice (devices, then ports): a collection,
        never an iterator."""
        tables = map(self._device_ports.__getitem__, map(_FIRST, ends))
        try:
            return all(map(dict.__contains__, tables, map(_SECOND, ends)))
        except KeyError:  # an end names no device
            return False

    def _add_link_run(
        self,
        links: Sequence[Link],
        undo: list[Operation] | None,
        changes: ChangeSet | None,
        path: str = "",
    ) -> None:
        """Add many links with the checks of `_add_link`.

        Loading a 100k-link file or applying a generator run spends most of its time here, so
        the whole run is first checked with set operations (ids and ports unique and free,
        ports present, cables known) and then indexed in bulk.  A run that fails a check goes
        link by link instead, so the first offending link is named and the ones before it
        are in `undo` for `apply` to roll back.
        """
        if not links:
            return
        clean = self._clean_link_run(links)
        if clean is None:
            self._add_links_one_by_one(links, undo, changes, path)
            return
        by_id, port_link = clean
        ids = list(by_id)
        if self.links:
            self.links.put_new(by_id)
        else:  # a load: the run's table is the whole table
            self.links = LinkTable.of(by_id)
        if self._ends is not None:  # else made when first asked for
            _index_ends(self._end_index(), port_link, port_link.values())
        if undo is not None:
            undo.extend(map(RemoveLink, ids))
        if changes is not None:
            changes.links.update(ids)
            changes.devices.update(map(_FIRST, port_link))

    def _clean_link_run(
        self, links: Sequence[Link],
    ) -> tuple[dict[str, Link], dict[Endpoint, str]] | None:
        """The run by id and its (device, port) -> link id entries (every A end, then every
        B end), when adding every link keeps all invariants; None when some link breaks one.
        Changes nothing."""
        # a pass per field, in C (links are slotted: cheaper than one pass making 100k tuples)
        ids = list(map(_ID, links))
        by_id = dict(zip(ids, links, strict=True))
        if len(by_id) != len(ids) or not self.links.isdisjoint(by_id):
            return None  # an id twice in the run, or already a link's
        run_ids = by_id.keys()  # each check loops over the smaller side
        if not (run_ids.isdisjoint(self.devices.keys()) and run_ids.isdisjoint(self.racks.keys())
                and run_ids.isdisjoint(self.workloads.keys())):
            return None  # an id of a device, rack or workload
        port_link = dict(zip(map(_A_END, links), ids, strict=True))
        port_link.update(zip(map(_B_END, links), ids, strict=True))
        if len(port_link) != 2 * len(ids) or not self._ends_exist(port_link):
            return None  # a port used twice in the run, or an end on no port
        if self.links:  # a port already in use (no link: none is)
            index = self._end_index()
            if any(map(dict.__contains__, map(index.__getitem__, map(_FIRST, port_link)),
                       map(_SECOND, port_link))):
                return None
        used = set(map(_CABLE, links))
        used.discard(None)
        return (by_id, port_link) if used <= self.catalog.cables.keys() else None

    def _add_links_one_by_one(
        self,
        links: Sequence[Link],
        undo: list[Operation] | None,
        changes: ChangeSet | None,
        path: str,
    ) -> None:
        for index, link in enumerate(links):
            try:
                self._add_link(AddLink(link), undo if undo is not None else [],
                               changes if changes is not None else ChangeSet())
            except ModelError as exc:
                if path:
                    exc.path = f"{path}[{index}]"
                raise

    def snapshot(self) -> FabricDocument:
        """A frozen-in-time copy for a background reader (validation, export).

        Objects are never changed in place (an update stores a new object), so copying the
        tables is enough; later edits to this document do not show in the copy.  The port and
        device indices are not copied (~150 ms in the GUI thread at 300k links): the copy makes
        its own from its links if its reader asks (in the reader's thread).
        """
        copy = FabricDocument.__new__(FabricDocument)
        copy.catalog = self.catalog
        copy.metadata = self.metadata
        copy.settings = self.settings
        copy.requirement = self.requirement
        copy.racks = dict(self.racks)
        copy.devices = dict(self.devices)
        copy.links = self.links.copy()
        copy.workloads = dict(self.workloads)
        copy.revision = self.revision
        copy._loaded_ends = self._loaded_ends  # the copy holds the same links and devices
        copy._names = dict(self._names)
        copy._ends = None
        copy._ends_todo = None
        copy._ports = self._ports
        copy._checked_cages = self._checked_cages
        copy._checked_tables = self._checked_tables
        copy._device_ports = dict(self._device_ports)
        copy._listeners = []
        return copy

    def used_catalog_ids(self) -> set[str]:
        """Catalog ids of the device models, cables and optics the design uses (loops in C)."""
        used = set(map(attrgetter("model"), self.devices.values()))
        used.update(self.links.column("cable"))
        tables = {id(t): t for t in map(attrgetter("cages"), self.devices.values())}  # shared
        configs = chain.from_iterable(map(dict.values, tables.values()))
        used.update(map(_TRANSCEIVER, configs))
        models = {m for m in used if m in self.catalog.devices}  # co-packaged optical engines
        used.update(e for m in models for e in self.catalog.devices[m].optical_engines.values())
        used.discard(None)
        return used

    def embedded_catalog(self) -> EmbeddedCatalog:
        used = sorted(self.used_catalog_ids())
        return EmbeddedCatalog(
            devices=[self.catalog.devices[i] for i in used if i in self.catalog.devices],
            transceivers=[self.catalog.transceivers[i] for i in used if i in self.catalog.transceivers],
            cables=[self.catalog.cables[i] for i in used if i in self.catalog.cables],
        )

    # ---------------------------------------------------------------- listeners
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    # ---------------------------------------------------------------- queries
    def device_model(self, device: Device | str) -> DeviceModel:
        if isinstance(device, str):
            device = self.devices[device]
        return self.catalog.device(device.model)

    def ports(self, device: Device | str) -> dict[str, LogicalPort]:
        """The logical ports of a device in its current breakout modes."""
        device_id = device if isinstance(device, str) else device.id
        table = self._device_ports.get(device_id)
        if table is None:
            current = self.devices[device_id]
            table = self._ports.get(self.catalog.device(current.model), current.cages)
        return table

    def port(self, device_id: str, port: str) -> LogicalPort | None:
        return self.ports(device_id).get(port)

    def link_at(self, device_id: str, port: str) -> Link | None:
        link_id = self._end_index().get(device_id, _NONE).get(port)
        return self.links[link_id] if link_id else None

    def links_of(self, device_id: str) -> list[Link]:
        return self.links.pick(sorted(self.link_ids_of(device_id)))

    def link_ids_of(self, device_id: str) -> set[str]:
        return set(self._end_index().get(device_id, _NONE).values())

    def linked_ports(self, device_id: str) -> Collection[str]:
        """The names of the device's ports that carry a link (read only)."""
        return self._end_index().get(device_id, _NONE).keys()

    def free_ports(self, device_id: str) -> list[str]:
        used = self._end_index().get(device_id, _NONE)
        return [p for p in self.ports(device_id) if p not in used]

    def device_by_name(self, name: str) -> Device | None:
        device_id = self._names.get(name)
        return self.devices.get(device_id) if device_id else None

    def devices_in_rack(self, rack_id: str) -> list[Device]:
        return [d for d in self.devices.values() if d.rack == rack_id]

    def role_of(self, device: Device | str) -> Role:
        """The device's role in this fabric (its own, else its model's usual role)."""
        if isinstance(device, str):
            device = self.devices[device]
        return device.role or self.catalog.device(device.model).role

    def tier_of(self, device: Device | str) -> int:
        """0 servers and storage, 1 leaf, 2 spine, 3 core (from the role)."""
        return ROLE_TIER[self.role_of(device)]

    def new_id(self, prefix: str, reserved: Iterable[str] = ()) -> str:
        """A fresh id `prefix-N` used by no object of the document nor in `reserved`."""
        taken = _IdView(self)
        extra = set(reserved)
        n = len(self.devices) + len(self.links) + len(self.racks) + len(self.workloads) + 1
        while f"{prefix}-{n}" in taken or f"{prefix}-{n}" in extra:
            n += 1
        return f"{prefix}-{n}"

    def next_name(self, role: str, taken: Iterable[str] = ()) -> str:
        """The first free name for `role` following the project's naming pattern."""
        pattern = self.settings.naming.get(role, role + "-{n}")
        extra = set(taken)
        n = 1
        while True:
            name = pattern.format(n=n)
            if name not in self._names and name not in extra:
                return name
            n += 1

    # ---------------------------------------------------------------- mutation API
    def apply(self, ops: Sequence[Operation]) -> AppliedEdit:
        """Apply `ops` all-or-nothing; return the change set and the inverse operations."""
        undo: list[Operation] = []
        changes = ChangeSet()
        try:
            index = 0
            while index < len(ops):
                op = ops[index]
                if type(op) is AddLink:
                    end = index
                    while end < len(ops) and type(ops[end]) is AddLink:
                        end += 1
                    self._add_link_run([o.link for o in ops[index:end]], undo, changes)
                    index = end
                    continue
                self._apply_one(op, undo, changes)
                index += 1
        except ModelError:
            for inverse in reversed(undo):
                self._apply_one(inverse, [], ChangeSet())
            raise
        if not ops:
            return AppliedEdit(changes, [])
        self.revision += 1
        changes.revision = self.revision
        for listener in list(self._listeners):
            listener(changes)
        return AppliedEdit(changes, list(reversed(undo)))

    # ---------------------------------------------------------------- operation handlers
    def _apply_one(self, op: Operation, undo: list[Operation], changes: ChangeSet) -> None:
        handler = self._HANDLERS.get(type(op))
        if handler is None:
            raise ModelError(f"unknown operation {type(op).__name__}")
        handler(self, op, undo, changes)

    def _check_device(self, device: Device, previous: Device | None) -> dict[str, LogicalPort]:
        try:
            model = self.catalog.device(device.model)
        except UnknownCatalogId as exc:
            raise ModelError(f"device {device.name}: {exc}", [device.id]) from None
        ports = self._checked_ports(model, device)
        if device.rack is not None and device.rack not in self.racks:
            raise ModelError(f"device {device.name}: rack {device.rack!r} does not exist", [device.id])
        owner = self._names.get(device.name)
        if owner is not None and owner != device.id:
            raise ModelError(f"the name {device.name!r} is already used by another device", [device.id, owner])
        if device.ru is not None and device.ru + model.height_ru - 1 > self._rack_height(device.rack):
            raise ModelError(
                f"device {device.name}: RU {device.ru} + {model.height_ru}U does not fit rack "
                f"{device.rack} ({self._rack_height(device.rack)} U)",
                [device.id],
            )
        return ports

    def _checked_ports(self, model: DeviceModel, device: Device) -> dict[str, LogicalPort]:
        """The port table of `device` after checking its cage overrides against `model` and the
        catalog.  Devices with the same overrides share the check: a 4,096-server file has
        thousands of switches configured alike."""
        cages = device.cages
        same = self._checked_tables.get(cages, model.id)
        if same is not None:
            return same
        configs = cages.values()
        key = (model.id, tuple(zip(cages, map(_MODE, configs), map(_TRANSCEIVER, configs), strict=True)))
        ports = self._checked_cages.get(key)
        if ports is not None:
            self._checked_tables.put(cages, ports, model.id)
            return ports
        try:
            check_cage_overrides(model, cages)
            ports = self._ports.get(model, cages)
        except PortConfigError as exc:
            raise ModelError(f"device {device.name}: {exc}", [device.id]) from None
        for cage, config in cages.items():
            if config.transceiver and config.transceiver not in self.catalog.transceivers:
                raise ModelError(
                    f"device {device.name}: cage {cage}: unknown transceiver catalog id "
                    f"{config.transceiver!r}",
                    [device.id],
                )
        self._checked_cages[key] = ports
        self._checked_tables.put(cages, ports, model.id)
        return ports

    def _rack_height(self, rack_id: str | None) -> int:
        if rack_id is None or rack_id not in self.racks:
            return 10_000
        return self.racks[rack_id].height_ru

    def _add_device(self, op: AddDevice, undo: list[Operation], changes: ChangeSet) -> None:
        device = op.device
        if device.id in _IdView(self):
            raise ModelError(f"id {device.id!r} is already used", [device.id])
        self._device_ports[device.id] = self._check_device(device, None)
        self.devices[device.id] = device
        self._names[device.name] = device.id
        if self._ends is not None:
            self._end_index()[device.id] = {}
        undo.append(RemoveDevice(device.id))
        changes.devices.add(device.id)

    def _remove_device(self, op: RemoveDevice, undo: list[Operation], changes: ChangeSet) -> None:
        device = self._get(self.devices, op.id, "device")
        for link_id in sorted(self.link_ids_of(op.id)):
            self._remove_link(RemoveLink(link_id), undo, changes)
        for workload in list(self.workloads.values()):
            if op.id in workload.members:
                members = [m for m in workload.members if m != op.id]
                self._update_workload(UpdateWorkload(workload.id, {"members": members}), undo, changes)
        del self.devices[op.id]
        self._device_ports.pop(op.id, None)
        del self._names[device.name]
        if self._ends is not None:
            self._end_index().pop(op.id, None)
        undo.append(AddDevice(device))
        changes.devices.add(op.id)

    def _update_device(self, op: UpdateDevice, undo: list[Operation], changes: ChangeSet) -> None:
        old = self._get(self.devices, op.id, "device")
        new = _validated_copy(old, op.changes, f"device {old.name}")
        ports = self._check_device(new, old)
        for link_id in sorted(self.link_ids_of(op.id)):
            link = self.links[link_id]
            for end in (link.a, link.b):
                if end.device == op.id and end.port not in ports:
                    raise ModelError(
                        f"device {new.name}: port {end.port} carries link {link_id} but would no "
                        "longer exist; remove or move the link first",
                        [op.id, link_id],
                    )
        self.devices[op.id] = new
        self._device_ports[op.id] = ports
        if new.name != old.name:
            del self._names[old.name]
            self._names[new.name] = op.id
        undo.append(UpdateDevice(op.id, {k: getattr(old, k) for k in op.changes}))
        changes.devices.add(op.id)

    def _check_endpoint(self, link: Link, end_name: str) -> None:
        end = getattr(link, end_name)
        if end.device not in self.devices:
            raise ModelError(
                f"link {link.id}: end {end_name} names device {end.device!r}, which does not exist",
                [link.id],
            )
        device = self.devices[end.device]
        if end.port not in self._device_ports[end.device]:
            raise ModelError(
                f"link {link.id}: device {device.name} has no port {end.port!r} in its current "
                "breakout modes",
                [link.id, end.device],
            )
        holder = self._end_index()[end.device].get(end.port)
        if holder is not None and holder != link.id:
            raise ModelError(
                f"port {device.name}:{end.port} already carries link {holder}",
                [link.id, holder, end.device],
            )

    def _check_link(self, link: Link) -> None:
        if (link.a.device, link.a.port) == (link.b.device, link.b.port):
            raise ModelError(f"link {link.id}: a link cannot connect a port to itself", [link.id])
        self._check_endpoint(link, "a")
        self._check_endpoint(link, "b")
        if link.cable is not None and link.cable not in self.catalog.cables:
            raise ModelError(f"link {link.id}: unknown cable catalog id {link.cable!r}", [link.id])

    def _index_link(self, link: Link) -> None:
        index = self._end_index()
        index[link.a.device][link.a.port] = link.id
        index[link.b.device][link.b.port] = link.id

    def _unindex_link(self, link: Link) -> None:
        index = self._end_index()
        for end in (link.a, link.b):
            index[end.device].pop(end.port, None)

    def _add_link(self, op: AddLink, undo: list[Operation], changes: ChangeSet) -> None:
        link = op.link
        if link.id in self.links or link.id in self.devices or link.id in self.racks:
            raise ModelError(f"id {link.id!r} is already used", [link.id])
        self._check_link(link)
        self.links.put(link)
        self._index_link(link)
        undo.append(RemoveLink(link.id))
        changes.links.add(link.id)
        changes.devices.update((link.a.device, link.b.device))

    def _remove_link(self, op: RemoveLink, undo: list[Operation], changes: ChangeSet) -> None:
        link = self._get(self.links, op.id, "link")
        self._unindex_link(link)
        self.links.remove(op.id)
        undo.append(AddLink(link))
        changes.links.add(op.id)
        changes.devices.update((link.a.device, link.b.device))

    def _update_link(self, op: UpdateLink, undo: list[Operation], changes: ChangeSet) -> None:
        old = self._get(self.links, op.id, "link")
        new = _validated_copy(old, op.changes, f"link {op.id}")
        self._unindex_link(old)
        try:
            self._check_link(new)
        except ModelError:
            self._index_link(old)
            raise
        self.links.put(new)
        self._index_link(new)
        undo.append(UpdateLink(op.id, {k: getattr(old, k) for k in op.changes}))
        changes.links.add(op.id)
        changes.devices.update((old.a.device, old.b.device, new.a.device, new.b.device))

    def _add_rack(self, op: AddRack, undo: list[Operation], changes: ChangeSet) -> None:
        if op.rack.id in _IdView(self):
            raise ModelError(f"id {op.rack.id!r} is already used", [op.rack.id])
        self.racks[op.rack.id] = op.rack
        undo.append(RemoveRack(op.rack.id))
        changes.racks.add(op.rack.id)

    def _remove_rack(self, op: RemoveRack, undo: list[Operation], changes: ChangeSet) -> None:
        rack = self._get(self.racks, op.id, "rack")
        for device in list(self.devices.values()):
            if device.rack == op.id:
                self._update_device(UpdateDevice(device.id, {"rack": None, "ru": None}), undo, changes)
        del self.racks[op.id]
        undo.append(AddRack(rack))
        changes.racks.add(op.id)

    def _update_rack(self, op: UpdateRack, undo: list[Operation], changes: ChangeSet) -> None:
        old = self._get(self.racks, op.id, "rack")
        new = _validated_copy(old, op.changes, f"rack {old.name}")
        self.racks[op.id] = new
        for device in self.devices.values():
            if device.rack == op.id and device.ru is not None:
                height = self.device_model(device).height_ru
                if device.ru + height - 1 > new.height_ru:
                    self.racks[op.id] = old
                    raise ModelError(
                        f"rack {new.name}: {new.height_ru} U is too low for {device.name} at RU {device.ru}",
                        [op.id, device.id],
                    )
        undo.append(UpdateRack(op.id, {k: getattr(old, k) for k in op.changes}))
        changes.racks.add(op.id)

    def _check_workload(self, workload: Workload) -> None:
        missing = [m for m in workload.members if m not in self.devices]
        if missing:
            raise ModelError(
                f"workload {workload.name}: member {missing[0]!r} is not a device of this fabric",
                [workload.id],
            )

    def _add_workload(self, op: AddWorkload, undo: list[Operation], changes: ChangeSet) -> None:
        if op.workload.id in _IdView(self):
            raise ModelError(f"id {op.workload.id!r} is already used", [op.workload.id])
        self._check_workload(op.workload)
        self.workloads[op.workload.id] = op.workload
        undo.append(RemoveWorkload(op.workload.id))
        changes.workloads.add(op.workload.id)

    def _remove_workload(self, op: RemoveWorkload, undo: list[Operation], changes: ChangeSet) -> None:
        workload = self._get(self.workloads, op.id, "workload")
        del self.workloads[op.id]
        undo.append(AddWorkload(workload))
        changes.workloads.add(op.id)

    def _update_workload(self, op: UpdateWorkload, undo: list[Operation], changes: ChangeSet) -> None:
        old = self._get(self.workloads, op.id, "workload")
        new = _validated_copy(old, op.changes, f"workload {old.name}")
        self._check_workload(new)
        self.workloads[op.id] = new
        undo.append(UpdateWorkload(op.id, {k: getattr(old, k) for k in op.changes}))
        changes.workloads.add(op.id)

    def _update_settings(self, op: UpdateSettings, undo: list[Operation], changes: ChangeSet) -> None:
        old = self.settings
        self.settings = _validated_copy(old, op.changes, "settings")
        undo.append(UpdateSettings({k: getattr(old, k) for k in op.changes}))
        changes.settings = True

    def _update_metadata(self, op: UpdateMetadata, undo: list[Operation], changes: ChangeSet) -> None:
        old = self.metadata
        self.metadata = _validated_copy(old, op.changes, "metadata")
        undo.append(UpdateMetadata({k: getattr(old, k) for k in op.changes}))
        changes.metadata = True

    def _set_requirement(self, op: SetRequirement, undo: list[Operation],
                         changes: ChangeSet) -> None:
        undo.append(SetRequirement(self.requirement))
        self.requirement = op.requirement
        changes.requirement = True

    @staticmethod
    def _get(table: dict[str, Any], object_id: str, kind: str) -> Any:
        try:
            return table[object_id]
        except KeyError:
            raise ModelError(f"there is no {kind} with id {object_id!r}", [object_id]) from None

    def _replace_catalog(self, op: ReplaceCatalog, undo: list[Operation], changes: ChangeSet) -> None:
        """Check the whole design against the new catalog (by building it anew on it), then take
        the catalog and what was derived from it; every object counts as changed."""
        if op.catalog is self.catalog:
            return
        fabric = Fabric.model_construct(
            metadata=self.metadata, settings=self.settings, racks=list(self.racks.values()),
            devices=list(self.devices.values()), links=self.links.values(),
            workloads=list(self.workloads.values()))
        try:
            trial = FabricDocument(op.catalog, fabric)
        except ModelError as exc:
            raise ModelError(f"the design does not fit the updated catalog: {exc}", exc.ids) from None
        moved = self._moved_ports(trial, op.catalog)
        if moved:
            raise ModelError("the design does not fit the updated catalog: " + moved[0][1]
                             + (f" (and {len(moved) - 1} more such port(s))" if len(moved) > 1
                                else ""), [device for device, _text in moved[:20]])
        undo.append(ReplaceCatalog(self.catalog))
        self.catalog = op.catalog
        self._ports = trial._ports
        self._checked_cages = trial._checked_cages
        self._checked_tables = trial._checked_tables
        self._device_ports = trial._device_ports
        changes.devices.update(self.devices)
        changes.links.update(self.links)
        changes.reset = True

    def _moved_ports(self, trial: FabricDocument, catalog: Catalog) -> list[tuple[str, str]]:
        """(device id, what moved) for each linked port whose name the updated catalog puts on
        another cage or cage group (DGX H100 `inband1` was the slot-3 card, now port 2 of the
        slot-1 ConnectX-7): its link, optic and cable were planned for the old cage."""
        changed = {model for model in {d.model for d in self.devices.values()}
                   if catalog.get(model) is not self.catalog.get(model)}
        moved: list[tuple[str, str]] = []
        index = self._end_index()
        for device_id, name in sorted((d, p) for d, ports in index.items() for p in ports):
            device = self.devices[device_id]
            if device.model not in changed:
                continue
            old, new = self.port(device_id, name), trial.port(device_id, name)
            if old is None or new is None or (old.cage, old.group.name) == (new.cage, new.group.name):
                continue
            there = [p.name for p in trial.ports(device_id).values()
                     if p.cage == old.cage and p.leg == old.leg]
            moved.append((device_id, (
                f"port {name} of {device.name} is cage {old.cage} ({old.group.name}) in the "
                f"design but cage {new.cage} ({new.group.name}) in the updated {device.model}; "
                "its link, optic and cable were planned for the old cage: move the link "
                + (f"to {there[0]} (the old cage's name now) " if there else "")
                + "before taking the update")))
        return moved

    _HANDLERS: dict[type, Callable[..., None]] = {
        AddDevice: _add_device,
        RemoveDevice: _remove_device,
        UpdateDevice: _update_device,
        AddLink: _add_link,
        RemoveLink: _remove_link,
        UpdateLink: _update_link,
        AddRack: _add_rack,
        RemoveRack: _remove_rack,
        UpdateRack: _update_rack,
        AddWorkload: _add_workload,
        RemoveWorkload: _remove_workload,
        UpdateWorkload: _update_workload,
        UpdateSettings: _update_settings,
        UpdateMetadata: _update_metadata,
        SetRequirement: _set_requirement,
        ReplaceCatalog: _replace_catalog,
    }


class _IdView:
    """Membership test over every id table of a document without building a set."""

    __slots__ = ("_doc",)

    def __init__(self, doc: FabricDocument) -> None:
        self._doc = doc

    def __contains__(self, object_id: object) -> bool:
        doc = self._doc
        return (
            object_id in doc.devices
            or object_id in doc.links
            or object_id in doc.racks
            or object_id in doc.workloads
        )


def emptying_ops(doc: FabricDocument) -> list[Operation]:
    """The ops that remove everything `doc` holds, in an order every step of which is valid:
    workloads, links, devices, racks (before a generator run or another design replaces it)."""
    ops: list[Operation] = [RemoveWorkload(w) for w in list(doc.workloads)]
    ops += [RemoveLink(x) for x in list(doc.links)]
    ops += [RemoveDevice(x) for x in list(doc.devices)]
    ops += [RemoveRack(x) for x in list(doc.racks)]
    return ops
