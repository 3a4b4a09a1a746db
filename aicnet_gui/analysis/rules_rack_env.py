"""RACK-COOLING and RACK-POWER-FEED: a device placed in a rack that cannot cool or power it.

A liquid-cooled device (a co-packaged optics switch such as the Quantum-X Photonics Q3450-LD, a
GB300 NVL72 compute tray) needs a rack with a liquid loop: its couplings and cold plates have
nothing to connect to in an air-only rack, and it cannot run there.  An air-cooled switch in a
rack stated as liquid-only has no airflow through it (a warning: some liquid racks keep fans or
a rear-door exchanger).  A device that takes only a DC busbar (the Q3450-LD's 48 V input, an
NVL72 tray) cannot be powered from AC PDUs, and an AC-only device not from a busbar.

A device's cooling and feeds are its catalog model's (`DeviceModel.cooling`, `power_feeds`); a
rack's are its own (`Rack.cooling`: air, liquid or air+liquid; `Rack.power_feeds`).  What is not
stated on either side is not judged.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.catalog_entities import DeviceModel
from .findings import ERROR, WARNING, Finding, Fix
from .state import Rule, State

MAX_NAMED = 5


def _named(state: State, ids: list[str]) -> str:
    names = [state.doc.devices[i].name for i in ids[:MAX_NAMED]]
    return ", ".join(names) + (f" and {len(ids) - MAX_NAMED} more" if len(ids) > MAX_NAMED else "")


def _models(state: State, rack_id: str) -> list[tuple[str, DeviceModel]]:
    doc = state.doc
    return [(d, doc.device_model(d)) for d in sorted(state.rack_members.get(rack_id, ()))
            if d in doc.devices]


#: (device cooling, rack cooling it cannot work in, severity, why, fix): liquid-cooled devices
#: in an air-only rack cannot run; air-cooled ones in a liquid-only rack may have no airflow
MISPLACED = (
    ("liquid", "air", ERROR, "their cold plates and couplings have no coolant loop to connect to",
     "place them in a rack with a liquid loop, or set the rack's cooling to liquid / air+liquid "
     "if it has one"),
    ("air", "liquid", WARNING, "nothing moves air through them unless the rack also has airflow",
     "place them in an air-cooled rack, or set the rack's cooling to air+liquid"),
)


def cooling_check(state: State, rack_id: str) -> Iterable[Finding]:
    rack = state.doc.racks.get(rack_id)
    if rack is None or rack.cooling is None:
        return
    members = _models(state, rack_id)
    for cooling, rack_cooling, severity, why, fix in MISPLACED:
        found = [d for d, m in members if m.cooling == cooling]
        if found and rack.cooling == rack_cooling:
            yield Finding(
                "RACK-COOLING", severity,
                f"rack {rack.name} is {rack_cooling}-cooled only but holds {cooling}-cooled "
                f"{_named(state, found)}: {why}", (rack_id, *found), Fix(fix))


def feed_type_check(state: State, rack_id: str) -> Iterable[Finding]:
    rack = state.doc.racks.get(rack_id)
    if rack is None or rack.power_feeds is None:
        return
    have = set(rack.power_feeds)
    wrong: dict[tuple[str, ...], list[str]] = {}
    for dev_id, model in _models(state, rack_id):
        feeds = tuple(model.power_feeds)
        if feeds and not have.intersection(feeds):
            wrong.setdefault(feeds, []).append(dev_id)
    provided = " and ".join(sorted(have)) or "no power"
    for feeds, ids in sorted(wrong.items()):
        yield Finding(
            "RACK-POWER-FEED", ERROR,
            f"rack {rack.name} delivers {provided} but {_named(state, ids)} "
            f"{'takes' if len(ids) == 1 else 'take'} only {' or '.join(feeds)}: "
            f"{'it cannot' if len(ids) == 1 else 'they cannot'} be powered there",
            (rack_id, *ids),
            Fix(f"place {'it' if len(ids) == 1 else 'them'} in a rack with a {feeds[0]} feed, or "
                "correct the rack's power_feeds"))


def _racks_with(state: State, stated: str) -> list[str]:
    """Racks that state `stated` (cooling / power_feeds) and hold a device whose model states
    its own: the only racks these rules can judge."""
    doc = state.doc
    found = []
    for rack_id, rack in doc.racks.items():
        if getattr(rack, stated) is None:
            continue
        models = {doc.devices[d].model for d in state.rack_members.get(rack_id, ()) if d in doc.devices}
        if any(getattr(doc.catalog.device(m), stated) for m in models):
            found.append(rack_id)
    return sorted(found)


def cooling_candidates(state: State) -> Iterable[str]:
    return _racks_with(state, "cooling")


def feed_type_candidates(state: State) -> Iterable[str]:
    return _racks_with(state, "power_feeds")


RULES = [
    Rule("rack-cooling", "rack", cooling_check, cooling_candidates, ("RACK-COOLING",)),
    Rule("rack-power-feed", "rack", feed_type_check, feed_type_candidates, ("RACK-POWER-FEED",)),
]
