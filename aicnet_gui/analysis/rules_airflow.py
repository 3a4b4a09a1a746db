"""AIRFLOW-MIXED: devices in one rack that blow in opposite directions.

Hot-aisle / cold-aisle cooling works when every device in a rack takes air from the same (cold)
side and exhausts to the other.  A switch ordered with the other airflow (NVIDIA, Arista and
others sell most switches in port-to-power and power-to-port versions) or mounted the other way
round takes in the hot exhaust of its neighbours and recirculates it: it overheats and throttles
or shuts down, and raises the inlet temperature of the devices around it.

A device's airflow is its `airflow` tag (`front-to-back` or `back-to-front`, as mounted, front =
the rack's front; NetBox's `front-to-rear` / `rear-to-front` read the same), else its catalog
model's `airflow`; devices with neither (or a side-to-side flow) are not judged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import numpy as np

from ..model import arrays
from ..model.catalog_entities import airflow_direction
from .findings import WARNING, Finding, Fix
from .state import Rule, State

DIRECTIONS = ("front-to-back", "back-to-front")


def device_airflow(state: State, row: int) -> str | None:
    """The device's airflow: its tag, else its model's; None when unknown."""
    device = state.store.dev_obj[row]
    if device is None:
        return None
    tagged = airflow_direction(device.tags.get("airflow"))
    if tagged is not None:
        return tagged
    model = state.store.dev_models[row]
    return airflow_direction(model.airflow) if model is not None else None


def airflow_check(state: State, rack_id: str) -> Iterable[Finding]:
    rack = state.doc.racks.get(rack_id)
    if rack is None:
        return
    store = state.store
    groups: dict[str, list[str]] = defaultdict(list)
    for dev_id in sorted(state.rack_members.get(rack_id, ())):
        flow = device_airflow(state, store.dev_row[dev_id])
        if flow is not None:
            groups[flow].append(dev_id)
    if len(groups) < 2:
        return
    # the direction most devices use is the rack's; the others are named (ties: front-to-back)
    main = max(DIRECTIONS, key=lambda f: (len(groups[f]), f == "front-to-back"))
    odd = sorted(d for f, ids in groups.items() if f != main for d in ids)
    names = ", ".join(state.doc.devices[d].name for d in odd[:5]) + (" ..." if len(odd) > 5 else "")
    other = "back-to-front" if main == "front-to-back" else "front-to-back"
    yield Finding(
        "AIRFLOW-MIXED", WARNING,
        f"rack {rack.name}: {names} {'blows' if len(odd) == 1 else 'blow'} {other} while "
        f"{len(groups[main])} other device(s) blow {main}: {'it takes' if len(odd) == 1 else 'they take'} "
        "in the hot exhaust of the rack's other devices (hot/cold aisle broken)",
        (rack_id, *odd),
        Fix(f"order {names} with {main} airflow (the other fan/PSU version) or mount "
            f"{'it' if len(odd) == 1 else 'them'} the other way round"))


def airflow_candidates(state: State) -> Iterable[str]:
    """Racks holding a device whose airflow is known: tagged, or of a model with an airflow
    (none of the built-in models has one: no sourced figure)."""
    racks = {d.rack for d in state.doc.devices.values() if d.rack is not None and "airflow" in d.tags}
    known = np.array([airflow_direction(m.airflow) is not None for m in state.cindex.models]
                     or [False])
    if known.any():
        store = state.store
        rows = store.device_rows()
        rows = rows[known[store.d["model"][rows]] & (store.d["rack_any"][rows] >= 0)]
        racks.update(store.rack_ids[r] for r in arrays.unique(store.d["rack_any"][rows]).tolist())
    return sorted(r for r in racks if r in state.doc.racks)


RULES = [Rule("airflow", "rack", airflow_check, airflow_candidates, ("AIRFLOW-MIXED",))]
