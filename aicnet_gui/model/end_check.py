"""Whether the two end columns of a big link load name existing ports, each port once.

An opened file's links are checked in bulk before the document takes their columns as they
are (document.py `_clean_columns`).  Each end, (device, port), becomes one number: the
device's first port number plus the port's place in its device's port table (device tables
are shared by every device of one model and modes, so one numpy take answers all of them).
A port used twice is then a number that occurs twice (a bincount), and an end on no device or
no port fails the look-up.  At 1.2M links this was 0.45 s where a set of the 2.4M end tuples
and a look-up of each end in its device's table took 0.7-1.0 s (the tuples' hashes are not
kept, so every insertion hashed both strings again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any

import numpy as np

from . import arrays

_DEVICE = itemgetter(0)
_PORT = itemgetter(1)


def ends_on_free_ports(port_tables: Mapping[str, Mapping[str, Any]],
                       *end_columns: Sequence[tuple[str, str]]) -> bool:
    """True when every (device, port) of `end_columns` names a device of `port_tables` (device
    id -> its port table, a table shared by many devices being one object) and a port of its
    table, and no (device, port) occurs twice in them all."""
    device_number = dict(zip(port_tables, range(len(port_tables)), strict=True))
    table_number: dict[int, int] = {}
    places: list[dict[str, int]] = []  # per distinct table: port name -> its place
    table_of: list[int] = []
    for table in port_tables.values():
        number = table_number.get(id(table))
        if number is None:
            number = table_number[id(table)] = len(places)
            places.append(dict(zip(table, range(len(table)), strict=True)))
        table_of.append(number)
    # the margin's last column answers a port name no table has: -1
    codes, place = arrays.lookup_table(places, -1, margin=1)
    unknown_port = place.shape[1] - 1
    table_of_device = np.array(table_of, dtype=np.int64)
    first_port = np.zeros(len(table_of) + 1, dtype=np.int64)
    np.cumsum([len(places[number]) for number in table_of], out=first_port[1:])
    numbers = []
    for ends in end_columns:
        count = len(ends)
        try:
            device = np.fromiter(map(device_number.__getitem__, map(_DEVICE, ends)), np.int64, count)
        except KeyError:  # an end on no device
            return False
        code = np.fromiter(map(codes.get, map(_PORT, ends), repeat(unknown_port)), np.int64, count)
        port = place[table_of_device[device], code]
        if count and int(port.min()) < 0:  # an end on no port of its device
            return False
        numbers.append(first_port[device] + port)
    if not numbers:
        return True
    uses = np.bincount(np.concatenate(numbers), minlength=int(first_port[-1]))
    return int(uses.max(initial=0)) <= 1
