"""Rules over groups of objects: a rack (RACK-SPACE, RACK-POWER, RACK-SYSTEM), a firmware line (a model's
firmware family or the model: FIRMWARE-DRIFT) and a cable assembly (PORT-DUPLICATE: one splitter used on two cages, more
links than legs, mixed parts under one assembly id)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..model.edits import UpdateDevice
from ..model.fit import overlapping_racks
from ..model.wording import counted, nvlink_domain, ru_span
from .findings import ERROR, WARNING, Finding, Fix
from .state import Rule, State
from .store import MAX_CAGE


# ---------------------------------------------------------------------------- racks
def rack_space_check(state: State, rack_id: str) -> Iterable[Finding]:
    rack = state.doc.racks.get(rack_id)
    if rack is None:
        return
    store = state.store
    members = sorted(state.rack_members.get(rack_id, ()))
    if not members:
        return
    used: list[tuple[int, int, str, str]] = []  # (low RU, high RU, name, id)
    total = 0
    for dev_id in members:
        row = store.dev_row[dev_id]
        height = int(store.d["height"][row])
        total += height
        device = store.dev_obj[row]
        if device.ru is not None and height > 0:
            used.append((device.ru, device.ru + height - 1, device.name, dev_id))
    used.sort()
    for i, (low, high, name, dev_id) in enumerate(used):
        for low2, high2, name2, dev_id2 in used[i + 1:]:
            if low2 > high:
                break
            yield Finding(
                "RACK-SPACE", ERROR,
                f"rack {rack.name}: {name} ({ru_span(low, high)}) and {name2} ({ru_span(low2, high2)}) "
                "occupy the same rack units",
                (rack_id, dev_id, dev_id2),
                Fix(f"move {name2} to free rack units"))
    if total > rack.height_ru:
        yield Finding(
            "RACK-SPACE", ERROR,
            f"rack {rack.name}: its devices need {total} U but the rack has {rack.height_ru} U",
            (rack_id,), Fix("move devices to another rack or use a taller rack"))


def rack_load(state: State, rack_id: str) -> tuple[float, list[str]]:
    """The rack's devices (maximum power, else typical) and optics in W, and the names of the
    devices without a power figure."""
    store = state.store
    total = 0.0
    unknown = []
    for dev_id in sorted(state.rack_members.get(rack_id, ())):
        row = store.dev_row[dev_id]
        power = float(store.d["power"][row])
        if np.isnan(power):
            unknown.append(store.dev_obj[row].name)
        else:
            total += power
        total += float(store.d["optic_w"][row])
    return total, unknown


def rack_power_check(state: State, rack_id: str) -> Iterable[Finding]:
    rack = state.doc.racks.get(rack_id)
    if rack is None or rack.power_kw is None:
        return
    total, unknown = rack_load(state, rack_id)
    budget = rack.power_kw * 1000
    if total <= budget + 1e-6:
        return
    note = (f"; {counted(len(unknown), 'device')} {'has' if len(unknown) == 1 else 'have'} no power figure "
            f"and {'is' if len(unknown) == 1 else 'are'} not counted "
            f"({', '.join(unknown[:3])}{' ...' if len(unknown) > 3 else ''})" if unknown else "")
    yield Finding(
        "RACK-POWER", ERROR,
        f"rack {rack.name}: its devices and optics draw up to {total / 1000:.1f} kW, above its "
        f"{rack.power_kw:g} kW budget{note}",
        (rack_id,), Fix("move a device to another rack or raise the rack's power budget"))


def _rack_sums(state: State) -> tuple[np.ndarray, np.ndarray]:
    store = state.store
    rows = store.device_rows()
    d = store.d
    rack = d["rack_any"][rows]
    inrack = rack >= 0
    k = len(store.rack_ids)
    height = np.bincount(rack[inrack], weights=d["height"][rows][inrack], minlength=k)
    power = np.nan_to_num(d["power"][rows][inrack]) + d["optic_w"][rows][inrack]
    watts = np.bincount(rack[inrack], weights=power, minlength=k)
    return height, watts


def rack_space_candidates(state: State) -> Iterable[str]:
    """Racks whose devices need more RU than the rack has, or where two devices overlap."""
    store = state.store
    rows = store.device_rows()
    d = store.d
    height, _ = _rack_sums(state)
    over = set(np.flatnonzero(height > store.r_height).tolist())
    placed = rows[(d["rack_any"][rows] >= 0) & (d["ru"][rows] > 0) & (d["height"][rows] > 0)]
    over.update(overlapping_racks(d["rack_any"][placed], d["ru"][placed],
                                  d["height"][placed]).tolist())
    return sorted(store.rack_ids[r] for r in over)


def rack_power_candidates(state: State) -> Iterable[str]:
    store = state.store
    _, watts = _rack_sums(state)
    with np.errstate(invalid="ignore"):
        over = np.flatnonzero(watts > store.r_budget * 1000 + 1e-6)
    return sorted(store.rack_ids[r] for r in over.tolist())


def rack_system_check(state: State, rack_id: str) -> Iterable[Finding]:
    """A rack holding devices of a rack-scale system (NVL72 compute trays) holds exactly the
    system's count of them: fewer or more is no rack the vendor builds (its NVLink domain,
    power shelves and liquid cooling come with the rack)."""
    rack = state.doc.racks.get(rack_id)
    if rack is None:
        return
    store = state.store
    counts: Counter[str] = Counter()
    for dev_id in state.rack_members.get(rack_id, ()):
        model = store.dev_models[store.dev_row[dev_id]]
        if model.rack_system is not None:
            counts[model.id] += 1
    if len(counts) > 1:
        names = [state.doc.catalog.device(m).model for m in sorted(counts)]
        yield Finding(
            "RACK-SYSTEM", WARNING,
            f"rack {rack.name} holds devices of {len(names)} rack-scale systems "
            f"({', '.join(names)}): each is a rack of its own",
            (rack_id,), Fix("move each system's devices into a rack of their own"))
        return
    for model_id, count in sorted(counts.items()):
        model = state.doc.catalog.device(model_id)
        system = model.rack_system
        assert system is not None
        if count == system.devices:
            continue
        domain = nvlink_domain(model.nvlink_domain_gpus)
        domain = f", {domain}" if domain else ""
        yield Finding(
            "RACK-SYSTEM", WARNING,
            f"rack {rack.name} holds {counted(count, model.model)}; a {system.name} is "
            f"{system.devices} of them{domain}, installed and powered as one rack: this rack is "
            "not one the vendor builds",
            (rack_id,),
            Fix(f"put {system.devices} {model.model}s in the rack "
                + ("(move the others to another rack)" if count > system.devices
                   else "(add or move trays here)")))


def rack_system_candidates(state: State) -> Iterable[str]:
    """Racks holding a device of a rack-scale system."""
    store = state.store
    racks = {rack for rack, members in state.rack_members.items()
             if any(store.dev_models[store.dev_row[d]].rack_system is not None for d in members)}
    return sorted(racks)


# ---------------------------------------------------------------------------- firmware
def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key of a firmware version: numbers compare as numbers (31.2012.1068 > 31.2010.2000,
    5.10 > 5.9), other parts as text."""
    return tuple((0, int(part)) if part.isdigit() else (1, part)
                 for part in re.split(r"(\d+)", version.strip()) if part and part not in ".-_ ")


@dataclass(frozen=True)
class _Drift:
    """A firmware line whose devices do not all run its baseline."""

    line: str
    versions: dict[str, str]  # device id -> version ("" unknown)
    counts: Counter[str]  # version -> devices running it
    chosen: str  # the project's baseline, "" when none is set
    baseline: str
    older: list[str]  # devices below the baseline
    newer: list[str]  # devices off the baseline and not below it

    @property
    def off(self) -> list[str]:
        return sorted(self.older + self.newer)


def firmware_check(state: State, line: str) -> Iterable[Finding]:
    """`line` is a firmware line: a model's firmware_family (QM9700 and QM9790 share quantum-2)
    or its model id.  The baseline is the project setting for the line, else the newest version
    seen; devices below it get an upgrade fix, devices above a set baseline only a message (a fix
    never downgrades)."""
    drift = _firmware_drift(state, line)
    if drift is None:
        return
    yield Finding("FIRMWARE-DRIFT", WARNING, _drift_message(state, drift), tuple(drift.off),
                  _drift_fix(state, drift))


def _firmware_drift(state: State, line: str) -> _Drift | None:
    """The devices of `line` off its baseline, or None when all run it (or one version is seen
    and no baseline is set)."""
    versions = state.firmware.get(line)
    if not versions:
        return None
    counts = Counter(v for v in versions.values() if v)
    chosen = state.settings.firmware_baselines.get(line, "").strip()
    if not counts or (not chosen and len(counts) < 2):
        return None
    baseline = chosen or max(counts, key=version_key)
    off = sorted(d for d, v in versions.items() if v and v != baseline)
    if not off:
        return None
    base_key = version_key(baseline)
    below = {v for v in counts if version_key(v) < base_key}
    return _Drift(line, versions, counts, chosen, baseline,
                  [d for d in off if versions[d] in below],
                  [d for d in off if versions[d] not in below])


def _line_label(state: State, line: str) -> str:
    """A firmware line in words: its model, or the family with the models that share it."""
    idx = state.cindex.model_idx.get(line)
    if idx is not None:
        return state.cindex.models[idx].model
    family = sorted(m.model for m in state.cindex.models if m.firmware_family == line)
    return f"{line} ({', '.join(family)})"


def _device_names(state: State, ids: list[str]) -> str:
    """The first five devices' names, then "..."."""
    shown = [state.doc.devices[d].name for d in ids]
    return ", ".join(shown[:5]) + (" ..." if len(shown) > 5 else "")


def _drift_message(state: State, drift: _Drift) -> str:
    counts, baseline = drift.counts, drift.baseline
    listing = ", ".join(f"{v} ({n})" for v, n in sorted(counts.items(),
                                                         key=lambda kv: version_key(kv[0])))
    source = "the project's baseline" if drift.chosen else "the baseline (newest seen)"
    parts = []
    for ids, side in ((drift.older, "older"), (drift.newer, "newer")):
        if ids:
            parts.append(f"{_device_names(state, ids)} {'runs' if len(ids) == 1 else 'run'} "
                         f"{side} firmware than {source} {baseline}")
    return (f"{_line_label(state, drift.line)}: {len(counts)} firmware "
            f"version{'s' if len(counts) > 1 else ''} in use ({listing}); {'; '.join(parts)}: "
            "mixed versions behave differently under congestion, adaptive routing and failover")


def _drift_fix(state: State, drift: _Drift) -> Fix:
    """Upgrade the older devices to the baseline; newer ones are never downgraded, their
    version is to be qualified and made the baseline."""
    older, newer = drift.older, drift.newer
    if older:
        return Fix(f"upgrade {_device_names(state, older)} to {drift.baseline}"
                   + (f"; for {_device_names(state, newer)}, qualify their version and make it "
                      "the baseline in the project settings" if newer else ""),
                   tuple(UpdateDevice(d, {"firmware": drift.baseline}) for d in older))
    return Fix(f"qualify {drift.versions[newer[0]]} and make it the baseline of {drift.line} in "
               "the project settings (firmware is never downgraded by a fix)")


def firmware_candidates(state: State) -> Iterable[str]:
    chosen = state.settings.firmware_baselines
    keep = []
    for line, versions in state.firmware.items():
        seen = {v for v in versions.values() if v}
        baseline = chosen.get(line, "").strip()
        if len(seen) > 1 or (baseline and seen - {baseline}):
            keep.append(line)
    return sorted(keep)


# ---------------------------------------------------------------------------- assemblies
def assembly_check(state: State, assembly: str) -> Iterable[Finding]:
    link_ids = sorted(state.assemblies.get(assembly, ()))
    if not link_ids:
        return
    links = [state.doc.links[i] for i in link_ids if i in state.doc.links]
    cables = {link.cable for link in links}
    objects = tuple(link_ids)
    if len(cables) > 1:
        parts = ", ".join(sorted(c or "none" for c in cables))
        yield Finding(
            "PORT-DUPLICATE", ERROR,
            f"assembly {assembly} groups links of different parts ({parts}): legs of one cable "
            "are one part",
            objects, Fix("give each physical cable its own assembly id"))
        return
    cable_id = next(iter(cables))
    if cable_id is None:
        return
    cable = state.doc.catalog.cables.get(cable_id)
    if cable is None:
        return
    store = state.store
    ports = state.endpoints.ports
    cages: list[set[tuple[str, int]]] = []
    for link in links:
        row = store.link_row[link.id]
        cages.append({
            (link.a.device, ports[int(store.l["a_ep"][row])].cage),
            (link.b.device, ports[int(store.l["b_ep"][row])].cage),
        })
    common = set.intersection(*cages)
    if cable.legs > 1:
        if len(links) > cable.legs:
            yield Finding(
                "PORT-DUPLICATE", ERROR,
                f"assembly {assembly}: {len(links)} links share one {cable.model}, which has "
                f"{cable.legs} legs",
                objects, Fix(f"split the links over {-(-len(links) // cable.legs)} cables"))
        if not common:
            yield Finding(
                "PORT-DUPLICATE", ERROR,
                f"assembly {assembly}: the legs of one {cable.model} splitter start from different "
                "cages; a splitter has one common plug",
                objects, Fix("give the legs from each cage their own assembly id"))
    elif len(links) > 1 and (len(common) < 2 or len({frozenset(c) for c in cages}) > 1):
        yield Finding(
            "PORT-DUPLICATE", ERROR,
            f"assembly {assembly}: one straight {cable.model} cannot land on different cages "
            f"({len(links)} links)",
            objects, Fix("give each cable its own assembly id"))


def assembly_candidates(state: State) -> Iterable[str]:
    """Assemblies with mixed parts, more links than legs, or no end shared by all their links."""
    store = state.store
    rows = store.link_rows()
    rows = rows[store.l["has_asm"][rows]]
    if not len(rows):
        return []
    names = sorted({store.assembly[r] for r in rows.tolist()})
    code_of = {name: i for i, name in enumerate(names)}
    group = np.fromiter((code_of[store.assembly[r]] for r in rows.tolist()), np.int64, len(rows))
    cable = store.l["cable"][rows]
    k = len(names)
    size = np.bincount(group, minlength=k)
    cmin = np.full(k, np.iinfo(np.int64).max)
    cmax = np.full(k, np.iinfo(np.int64).min)
    np.minimum.at(cmin, group, cable)
    np.maximum.at(cmax, group, cable)
    legs = state.cindex.c_legs[np.where(cmax >= 0, cmax, -1)]
    ep = state.endpoints.arrays()
    ends = []
    for side in ("a", "b"):
        ends.append(store.l[side][rows] * MAX_CAGE + ep["cage"][store.l[side + "_ep"][rows]])
    g2 = np.concatenate([group, group])
    e2 = np.concatenate(ends)
    pairs, occurrences = np.unique(np.stack([g2, e2]), axis=1, return_counts=True)
    best = np.zeros(k, dtype=np.int64)
    np.maximum.at(best, pairs[0], occurrences)
    distinct = np.bincount(pairs[0], minlength=k)
    bad = (cmin != cmax) | (size > np.maximum(legs, 1)) & (legs > 1) | (best < size)
    bad |= (legs <= 1) & (size > 1) & (distinct != 2)
    return [names[i] for i in np.flatnonzero(bad).tolist()]


RULES = [
    Rule("rack-space", "rack", rack_space_check, rack_space_candidates, ("RACK-SPACE",)),
    Rule("rack-power", "rack", rack_power_check, rack_power_candidates, ("RACK-POWER",)),
    Rule("rack-system", "rack", rack_system_check, rack_system_candidates, ("RACK-SYSTEM",)),
    Rule("firmware", "model", firmware_check, firmware_candidates, ("FIRMWARE-DRIFT",)),
    Rule("assembly", "assembly", assembly_check, assembly_candidates, ("PORT-DUPLICATE",)),
]
