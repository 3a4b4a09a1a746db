"""The device -> port -> link index of an opened file, made from its link ends as numbers
(end_check.py `ResolvedEnds`): a device at a time while few are asked for, then all at once.

The document's index (document.py `_end_index`) answers "which link is at this port" for every
edit and every fix check.  Made whole from 4.8M ends it takes ~1.1 s (`index_of_ends`: one
stable sort by device, each device's dict from its slice); an edit, or a listed fix checked on
a copy of the design, asks about a handful of devices.  `LoadedIndex` makes a device's entry
when it is first asked for (its ends found by a scan of the two end columns: ~1.3 ms at 2.4M
links), and the whole index once `LAZY_DEVICES` devices were asked for or anything reads the
index as a whole (its keys, values, items, length, membership).

The numbers are those of the file as opened; a device the document changed since was asked for
first (every edit of a device's links goes through its entry), so a device not asked for still
has the links it had in the file.  A device removed (`pop`) stays out; one added (or put back)
is set.  The whole index has its keys in the order making it from the links would give: the
loaded devices still there in the file's order, then those added or put back since, in turn.
"""

from __future__ import annotations

from contextlib import suppress
from functools import wraps
from itertools import chain
from typing import Any

import numpy as np

from . import arrays
from .end_check import ResolvedEnds

#: devices asked for one at a time before the whole index is made
LAZY_DEVICES = 100
#: links from which an opened file's index is made as it is asked: below, it is made whole at
#: once (a few ms), and stays a plain dict (its look-ups in C, no wrapper: `aicnet validate` of
#: 32 servers was ~15 ms slower with a LoadedIndex per checked fix's copy)
LAZY_FROM_LINKS = 50_000


def index_of_ends(resolved: ResolvedEnds, link_ids: list[str]) -> dict[str, dict[str, str]]:
    """Device id (every device of `resolved`, in its order) -> port -> link id, from the ends
    as numbers (`link_ids`: the links, row by row): the ends grouped by device with one stable
    sort, each device's dict made from its slice in C.  The same dicts, in the same order, as
    entering every end in link order (A ends, then B ends): 4.8M ends 2.16 s that way, 1.10 s
    so."""
    index: dict[str, dict[str, str]] = {device_id: {} for device_id in resolved.device_ids}
    if not link_ids:
        return index
    devices = np.concatenate(resolved.devices).astype(np.int64)
    starts = np.cumsum([0] + [len(names) for names in resolved.port_names[:-1]])
    names = np.array(list(chain.from_iterable(resolved.port_names)), dtype=object)
    end_names = names[starts[resolved.table_of_device[devices]] + np.concatenate(resolved.places)]
    order = arrays.stable_argsort(devices)
    devices, end_names = devices[order], end_names[order].tolist()
    # end i is link i's A end, or link i - n's B end
    end_links = list(map(link_ids.__getitem__, (order % len(link_ids)).tolist()))
    cuts = (np.flatnonzero(np.diff(devices)) + 1).tolist()
    firsts, stops = [0, *cuts], [*cuts, len(devices)]
    device_ids = resolved.device_ids
    for number, start, stop in zip(devices[firsts].tolist(), firsts, stops, strict=True):
        index[device_ids[number]] = dict(zip(end_names[start:stop], end_links[start:stop],
                                             strict=True))
    return index


class LoadedIndex(dict):  # type: ignore[type-arg]
    """A device -> port -> link index that makes its entries from an opened file's ends as
    numbers when they are first asked for (see the module's docstring)."""

    def __init__(self, resolved: ResolvedEnds, link_ids: list[str]) -> None:
        super().__init__()
        self._resolved: ResolvedEnds | None = resolved
        self._link_ids = link_ids
        self._number: dict[str, int] | None = None
        self._gone: set[str] = set()
        self._asked = 0

    def lazy(self) -> bool:
        """Whether some loaded device's entry is still to be made."""
        return self._resolved is not None

    def __missing__(self, device_id: str) -> dict[str, str]:
        resolved = self._resolved
        if resolved is None or device_id in self._gone:
            raise KeyError(device_id)
        if self._number is None:
            self._number = dict(zip(resolved.device_ids, range(len(resolved.device_ids)),
                                    strict=True))
        number = self._number.get(device_id)
        if number is None:
            raise KeyError(device_id)
        self._asked += 1
        if self._asked > LAZY_DEVICES:
            self.complete()
            return dict.__getitem__(self, device_id)  # type: ignore[no-any-return]
        ports: dict[str, str] = {}
        link_ids = self._link_ids
        for devices, places in zip(resolved.devices, resolved.places, strict=True):
            rows = np.flatnonzero(devices == number)
            names = resolved.port_names[int(resolved.table_of_device[number])]
            ports.update(zip(map(names.__getitem__, places[rows].tolist()),
                             map(link_ids.__getitem__, rows.tolist()), strict=True))
        dict.__setitem__(self, device_id, ports)
        return ports

    def complete(self) -> None:
        """Make every entry still to be made, the keys in the document's order of devices."""
        resolved = self._resolved
        if resolved is None:
            return
        self._resolved = self._number = None
        whole = index_of_ends(resolved, self._link_ids)
        made = dict(dict.items(self))  # the entries asked for (edited since, perhaps), those added
        gone = self._gone
        ordered = {device_id: made.pop(device_id, ports) for device_id, ports in whole.items()
                   if device_id not in gone}
        ordered.update(made)  # added or put back since the file was opened, in turn
        dict.clear(self)
        dict.update(self, ordered)
        self._gone = set()

    # ------------------------------------------------------------ single entries
    def get(self, device_id: str, default: Any = None) -> Any:
        try:
            return self[device_id]
        except KeyError:
            return default

    def pop(self, device_id: str, *default: Any) -> Any:
        if self._resolved is not None:
            if not dict.__contains__(self, device_id):
                with suppress(KeyError):
                    self[device_id]  # its entry first: what a whole index would give back
            self._gone.add(device_id)  # never made again from the file's numbers
        return dict.pop(self, device_id, *default)

    def __delitem__(self, device_id: str) -> None:
        self.pop(device_id)

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> dict[str, dict[str, str]]:
        self.complete()
        return dict(dict.items(self))


#: what reads (or changes) the index as a whole: `LoadedIndex` makes every entry first
_WHOLE = ("__iter__", "__reversed__", "__len__", "__contains__", "__eq__", "__ne__", "__repr__",
          "__or__", "__ror__", "__ior__", "keys", "values", "items", "setdefault", "update",
          "popitem", "clear")


def _whole_first(name: str) -> Any:
    method = getattr(dict, name)

    @wraps(method)
    def run(self: LoadedIndex, *args: Any, **kwargs: Any) -> Any:
        self.complete()
        return method(self, *args, **kwargs)

    return run


for _name in _WHOLE:
    setattr(LoadedIndex, _name, _whole_first(_name))
