"""The minimal files of the hostile-input tests: a one-switch, one-server `.fabric` and a
one-device user catalog, written as text, with one value replaced per case."""

from __future__ import annotations

import copy
import json
from typing import Any

SWITCH = {
    "kind": "device", "id": "acme-sw", "vendor": "Acme", "model": "SW", "role": "leaf",
    "height_ru": 1, "technology": ["ethernet"], "source": "test", "verified": False,
    "cages": [{"name": "fabric", "count": 4, "form_factor": "OSFP", "lanes": 8,
               "lane_gbps": 100, "breakouts": ["1x800G", "2x400G"],
               "default_breakout": "2x400G",
               "port_names": {"1": "swp{cage}", "*": "swp{cage}s{leg0}"},
               "interface_type": "800gbase-x-osfp"}],
}
CABLE = {
    "kind": "cable", "id": "acme-dac", "vendor": "Acme", "model": "DAC", "type": "DAC",
    "a_end": {"form_factor": "OSFP"}, "b_end": {"form_factor": "QSFP112"}, "legs": 2,
    "leg_gbps": 400, "stock_lengths_m": [1, 2], "max_length_m": 3, "netbox_type": "dac-passive",
    "technology": ["ethernet"], "source": "test", "verified": False,
}
FABRIC = {
    "format": "aicnet.fabric", "schema_version": 3,
    "settings": {"naming": {"leaf": "leaf-{n:02d}"}},
    "devices": [
        {"id": "sw", "name": "leaf-01", "model": "acme-sw"},
        {"id": "gpu", "name": "gpu-001", "model": "generic-hgx-8-gpu-b3140h"},
    ],
    "links": [{"id": "l1", "a": ["gpu", "p1"], "b": ["sw", "swp1s0"], "rail": 1}],
    "catalog": {"devices": [SWITCH], "cables": [CABLE]},
}


def put(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A deep copy of `data` with the value at `path` replaced."""
    data = copy.deepcopy(data)
    where = data
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return data


def fabric_bytes(path: tuple[Any, ...] = (), value: Any = None) -> bytes:
    return json.dumps(put(FABRIC, path, value) if path else FABRIC).encode()


def catalog_text(entries: list[dict[str, Any]]) -> str:
    """A user catalog file (JSON is YAML) with `entries`, then a good entry `acme-good`."""
    good = put(SWITCH, ("id",), "acme-good")
    return json.dumps({"format": "aicnet.catalog", "version": 1, "entries": [*entries, good]})
