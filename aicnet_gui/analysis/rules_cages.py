"""CAGE-DISABLED: breakout modes that take the lanes of the neighbouring cage.

Some switches run their densest breakout only by borrowing the lanes of the next cage, which
is then disabled (Cumulus Linux 5.6, Switch Port Attributes, Breakout Ports: SN5600 8x100G and
8x50G, SN4700 8x50G on the top 16 cages, SN4600C 4x25G: "You must disable the adjacent port";
NVUE disables "the subsequent even-numbered port").  The catalog lists such modes per cage group
(`blocking_modes`).  A link on a disabled cage never comes up, and a blocking mode on the second
cage of a pair is not a configuration the switch accepts: both are errors.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .findings import ERROR, Finding, Fix
from .state import Rule, State


def _blocking_models(state: State) -> np.ndarray:
    """Per catalog model index: true when a cage group of the model has a blocking mode."""
    return np.array([any(g.blocking_modes for g in m.cages) for m in state.cindex.models]
                    or [False])


def cage_disabled_check(state: State, row: int) -> Iterable[Finding]:
    store = state.store
    device, model = store.dev_obj[row], store.dev_models[row]
    if device is None or model is None:
        return
    dev_id = state.dev_id(row)
    name = state.name(row)
    groups = model.cage_group_of
    disabled: dict[int, tuple[int, str]] = {}
    for cage, config in sorted(device.cages.items()):
        group = groups.get(cage)
        if group is None or config.mode is None or config.mode not in group.blocking_modes:
            continue
        if not group.may_block(cage):
            yield Finding(
                "CAGE-DISABLED", ERROR,
                f"{name} cage {cage} cannot run {config.mode}: on a {model.model} that mode takes "
                f"the lanes of the next cage, so only the first cage of each pair ("
                f"{group.first}, {group.first + 2}, ...) can run it",
                (dev_id,),
                Fix(f"run {config.mode} on cage {cage - 1} instead, or pick a mode that does not "
                    "disable a neighbour"))
            continue
        disabled[cage + 1] = (cage, config.mode)
    if not disabled:
        return
    ports = state.doc.ports(dev_id)
    on_cage: dict[int, list[str]] = {}
    for link in state.doc.links_of(dev_id):
        for end in (link.a, link.b):
            if end.device != dev_id:
                continue
            port = ports.get(end.port)
            if port is not None and port.cage in disabled:
                on_cage.setdefault(port.cage, []).append(link.id)
    for cage, link_ids in sorted(on_cage.items()):
        owner, mode = disabled[cage]
        ids = sorted(set(link_ids))
        yield Finding(
            "CAGE-DISABLED", ERROR,
            f"{name} cage {cage} is disabled because cage {owner} runs {mode}, yet "
            f"{len(ids)} link(s) land on it ({', '.join(ids)}): they never come up",
            (dev_id, *ids),
            Fix(f"move the links to a free cage, or run cage {owner} in a mode that does not "
                "disable its neighbour"))


def cage_disabled_candidates(state: State) -> Iterable[int]:
    store = state.store
    rows = store.device_rows()
    if not len(rows):
        return []
    blocking = _blocking_models(state)
    rows = rows[blocking[store.d["model"][rows]]]
    return [int(r) for r in rows if (device := store.dev_obj[r]) is not None and device.cages]


RULES = [
    Rule("cage-disabled", "device", cage_disabled_check, cage_disabled_candidates,
         ("CAGE-DISABLED",)),
]
