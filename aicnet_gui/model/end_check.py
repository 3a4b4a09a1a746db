"""The two end columns of a big link load as numbers: checked (existing ports, each port once)
and kept for the readers that look every end up again.

An opened file's links are checked in bulk before the document takes their columns as they
are (document.py `_clean_columns`).  Each end, (device, port), becomes two numbers: the
device's place among the document's devices and the port's place in its device's port table
(device tables are shared by every device of one model and modes, so one numpy take answers
all of them).  A port used twice is then a pair of numbers that occurs twice (a bincount), and
an end on no device or no port fails the look-up.  At 1.2M links this was 0.45 s where a set
of the 2.4M end tuples and a look-up of each end in its device's table took 0.7-1.0 s (the
tuples' hashes are not kept, so every insertion hashed both strings again).

The numbers are kept (`ResolvedEnds`, `FabricDocument.loaded_ends`) while nothing changed
since the load: the analysis store (each end's endpoint) and the editor's scene (each end's
port row) then read their own per-port values at every end with one take
(`ResolvedEnds.values_at_ends`) instead of looking 2.4M device ids and port names up again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter
from typing import Any

import numpy as np

from . import arrays

_DEVICE = itemgetter(0)
_PORT = itemgetter(1)


@dataclass(frozen=True, slots=True, eq=False)
class ResolvedEnds:
    """Link ends as numbers: per end column (A ends, then B ends), each end's device number
    (its place in `device_ids`) and its port's place in the device's port table."""

    device_ids: list[str]
    #: per distinct port table: its ports' names in the table's order
    port_names: list[list[str]]
    #: per device number: the number of its port table
    table_of_device: np.ndarray
    devices: tuple[np.ndarray, ...]
    places: tuple[np.ndarray, ...]

    def values_at_ends(self, per_device: Sequence[Mapping[str, int]], missing: int
                       ) -> tuple[np.ndarray, ...]:
        """Per end column, `per_device[device][port]` of every end (`missing` where that map
        has no such port): `per_device` is indexed by device number, and its maps are shared
        by many devices (one object), so each distinct (port table, map) pair is translated
        once and every end is one numpy take."""
        map_of_device, maps = arrays.by_identity(per_device)
        pairs, pair_of_device = arrays.unique(self.table_of_device * max(len(maps), 1)
                                              + map_of_device, return_inverse=True)
        width = max((len(names) for names in self.port_names), default=0)
        translated = np.full((len(pairs), max(width, 1)), missing, dtype=np.int64)
        for number, pair in enumerate(pairs.tolist()):
            table, values = divmod(pair, len(maps))
            names = self.port_names[table]
            translated[number, :len(names)] = [maps[values].get(name, missing) for name in names]
        return tuple(translated[pair_of_device[devices], places]
                     for devices, places in zip(self.devices, self.places, strict=True))


def resolve_ends(port_tables: Mapping[str, Mapping[str, Any]],
                 *end_columns: Sequence[tuple[str, str]]) -> ResolvedEnds | None:
    """The ends of `end_columns` as numbers when every (device, port) names a device of
    `port_tables` (device id -> its port table, a table shared by many devices being one
    object) and a port of its table, and no (device, port) occurs twice in them all; else
    None."""
    device_ids = list(port_tables)
    device_number = dict(zip(device_ids, range(len(device_ids)), strict=True))
    places, table_of_device = _distinct_tables(port_tables)
    # the margin's last column answers a port name no table has: -1
    codes, place = arrays.lookup_table(places, -1, margin=1)
    unknown_port = place.shape[1] - 1
    devices: list[np.ndarray] = []
    ports: list[np.ndarray] = []
    for ends in end_columns:
        count = len(ends)
        try:
            device = np.fromiter(map(device_number.__getitem__, map(_DEVICE, ends)), np.int64, count)
        except KeyError:  # an end on no device
            return None
        code = np.fromiter(map(codes.get, map(_PORT, ends), repeat(unknown_port)), np.int64, count)
        port = place[table_of_device[device], code]
        if count and int(port.min()) < 0:  # an end on no port of its device
            return None
        devices.append(device.astype(np.int32))  # kept: half the memory of int64
        ports.append(port.astype(np.int32))
    if not _each_port_once(places, table_of_device, devices, ports):
        return None
    return ResolvedEnds(device_ids, [list(names) for names in places], table_of_device,
                        tuple(devices), tuple(ports))


def _distinct_tables(port_tables: Mapping[str, Mapping[str, Any]]
                     ) -> tuple[list[dict[str, int]], np.ndarray]:
    """(per distinct port table, by identity: port name -> its place; per device: the number
    of its table)."""
    table_of_device, tables = arrays.by_identity(port_tables.values())
    return [dict(zip(table, range(len(table)), strict=True)) for table in tables], table_of_device


def _each_port_once(places: list[dict[str, int]], table_of_device: np.ndarray,
                    devices: list[np.ndarray], ports: list[np.ndarray]) -> bool:
    """No (device, port place) occurs twice among the ends: each is numbered by its device's
    first port number plus its place, and counted."""
    if not devices:
        return True
    sizes = np.array([len(table) for table in places], dtype=np.int64)
    first_port = np.zeros(len(table_of_device) + 1, dtype=np.int64)
    np.cumsum(sizes[table_of_device], out=first_port[1:])
    numbered = [first_port[device] + port.astype(np.int64)
                for device, port in zip(devices, ports, strict=True)]
    uses = np.bincount(np.concatenate(numbered), minlength=int(first_port[-1]))
    return int(uses.max(initial=0)) <= 1
