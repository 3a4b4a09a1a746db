"""NetBox device-type library YAML (`netbox-community/devicetype-library`) into catalog devices.

A device-type file gives the manufacturer, model, slug, part number, `u_height`, airflow,
weight, power ports and the interfaces with their NetBox type slugs (`800gbase-x-osfp`,
`infiniband-ndr` ...).  Each interface type maps to a cage form factor, lanes and breakout modes
through `INTERFACE_TYPES`; interfaces named `<prefix><number>` become a run of cages numbered as
their names are (`swp1` .. `swp64` are cages 1-64), and interfaces named
`<prefix><cage><sep><leg>` (`P0.0`, `P0.1` ...) become multi-port cages (a twin-port OSFP
cage of two 400G ports).

What the file does not say is taken from the named defaults `DEFAULTS_NAME` and the entry is
never `verified`: the role, the breakout modes beyond the ports the file lists and the names of
their legs, the lanes behind an ambiguous type, power (a file's power ports say nothing of the
unit's draw).  Every such choice is listed in `ImportResult.assumed`; what the file lacks (a
missing port of a cage, a gap in a run) in `missing`; interfaces left out in `skipped`.  Nothing
missing is invented: a cage with a port missing is still imported with the ports its mode has,
and `missing` says which names the file did not list.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ..model.catalog_entities import CATALOG_ID_PATTERN, DeviceModel, Role
from ..model.limits import (
    MAX_CAGE,
    MAX_CATALOG_BYTES,
    MAX_INTERFACE_NAME,
    MAX_INTERFACES,
    MAX_RACK_U,
)
from .loader import CATALOG_FORMAT, CATALOG_VERSION, YamlRefused, read_yaml, shown

DEFAULTS_NAME = "aicnet netbox-import defaults v1"
ID_PREFIX = "netbox-"
_WEIGHT_KG = {"kg": 1.0, "g": 0.001, "lb": 0.45359237, "oz": 0.028349523125}


@dataclass(frozen=True)
class TypeDefault:
    """What a NetBox interface type slug says about one port, and aicnet's default for what
    it does not say (lanes of an ambiguous type, breakouts)."""

    form_factor: str
    port_gbps: int
    lanes: int
    breakouts: tuple[str, ...]
    technology: str = "ethernet"
    fabric: bool = True
    top: str = "none"
    assumed: str = ""


INTERFACE_TYPES: dict[str, TypeDefault] = {
    "800gbase-x-osfp": TypeDefault("OSFP", 800, 8, ("1x800G", "2x400G", "4x200G")),
    "800gbase-x-qsfpdd": TypeDefault("QSFP-DD800", 800, 8, ("1x800G", "2x400G", "4x200G", "8x100G")),
    "400gbase-x-osfp": TypeDefault("OSFP", 400, 8, ("1x400G", "2x200G", "4x100G"),
                                   assumed="8 x 50G lanes (400GBASE-R8); a 4 x 100G port would "
                                           "have the same slug"),
    "400gbase-x-osfp-rhs": TypeDefault("OSFP", 400, 4, ("1x400G", "2x200G", "4x100G"), top="flat",
                                       assumed="4 x 100G lanes (OSFP-RHS NICs)"),
    "400gbase-x-qsfp112": TypeDefault("QSFP112", 400, 4, ("1x400G", "2x200G", "4x100G")),
    "400gbase-x-qsfpdd": TypeDefault("QSFP-DD", 400, 8, ("1x400G", "2x200G", "4x100G")),
    "200gbase-x-qsfp56": TypeDefault("QSFP56", 200, 4, ("1x200G", "2x100G")),
    "200gbase-x-qsfpdd": TypeDefault("QSFP-DD", 200, 8, ("1x200G", "2x100G")),
    "100gbase-x-qsfp28": TypeDefault("QSFP28", 100, 4, ("1x100G", "4x25G")),
    "100gbase-x-qsfpdd": TypeDefault("QSFP-DD", 100, 8, ("1x100G",)),
    "25gbase-x-sfp28": TypeDefault("SFP28", 25, 1, ("1x25G",)),
    "infiniband-ndr": TypeDefault("OSFP", 400, 4, ("1x400G", "2x200G"), technology="infiniband",
                                  assumed="OSFP cage (the slug names no form factor)"),
    "infiniband-xdr": TypeDefault("OSFP", 800, 4, ("1x800G", "2x400G"), technology="infiniband",
                                  assumed="OSFP cage (the slug names no form factor)"),
    "infiniband-hdr": TypeDefault("QSFP56", 200, 4, ("1x200G", "2x100G"), technology="infiniband",
                                  assumed="QSFP56 cage (the slug names no form factor)"),
    "1000base-t": TypeDefault("RJ45", 1, 1, ("1x1G",), fabric=False),
    "10gbase-t": TypeDefault("RJ45", 10, 1, ("1x10G",), fabric=False),
}


class NetBoxImportError(ValueError):
    """A device-type file that cannot become a catalog entry (the message names the place)."""


@dataclass
class ImportResult:
    """One imported device type: the entry and what was assumed, missing or left out."""

    file: str
    model: DeviceModel
    assumed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass
class _Run:
    """Interfaces of one type whose names share a pattern: the cages they become."""

    kind: str
    prefix: str
    sep: str | None  # None: one port per cage; else `<prefix><cage><sep><leg>`
    legs: dict[int, list[int]] = field(default_factory=dict)  # cage -> leg numbers


_SINGLE = re.compile(r"^(.*?)(\d+)$")
_MULTI = re.compile(r"^(.*?)(\d+)([./:])(\d+)$")


_Singles = defaultdict[tuple[str, str], dict[int, list[int]]]
_Multis = defaultdict[tuple[str, str, str], defaultdict[int, list[int]]]


def _runs(interfaces: list[dict[str, Any]], result: ImportResult) -> list[_Run]:
    singles: _Singles = defaultdict(dict)
    multis: _Multis = defaultdict(lambda: defaultdict(list))
    for index, item in enumerate(interfaces):
        _sort_interface(index, item, result, singles, multis)
    runs = _multi_port_runs(multis, singles)
    runs.extend(_Run(kind, prefix, None, cages) for (kind, prefix), cages in singles.items())
    return sorted(runs, key=lambda r: (min(r.legs), r.prefix))


def _skip_reason(index: int, item: Any) -> str | None:
    """Why an interface is left out before its name is read for numbers, or None."""
    if not isinstance(item, dict):
        return f"interfaces[{index}]: not a mapping with name and type"
    name, kind = str(item.get("name", "")), str(item.get("type", ""))
    if len(name) > MAX_INTERFACE_NAME:
        return (f"interfaces[{index}]: a name of {len(name):,} characters "
                f"(NetBox's are at most {MAX_INTERFACE_NAME})")
    if item.get("mgmt_only"):
        return f"{name}: management-only interface"
    if kind not in INTERFACE_TYPES:
        return f"{name}: interface type {kind!r} has no aicnet cage default"
    return None


def _sort_interface(index: int, item: Any, result: ImportResult, singles: _Singles,
                    multis: _Multis) -> None:
    """Put one interface into its run by the pattern of its name, or list it as skipped."""
    reason = _skip_reason(index, item)
    if reason is not None:
        result.skipped.append(reason)
        return
    name, kind = str(item.get("name", "")), str(item.get("type", ""))
    multi, single = _MULTI.match(name), _SINGLE.match(name)
    numbers = (multi.group(2), multi.group(4)) if multi else (single.group(2),) if single \
        else ("0",)
    number = max(map(int, numbers))  # a cage, or a port that becomes one (slot/port names)
    if number > MAX_CAGE:
        result.skipped.append(f"{name} (interfaces[{index}]): port number {number} is above "
                              f"{MAX_CAGE} (no device has more cages)")
    elif multi:
        prefix, cage, sep, leg = multi.groups()
        multis[(kind, prefix, sep)][int(cage)].append(int(leg))
    elif single:
        singles[(kind, single.group(1))][int(single.group(2))] = [1]
    else:
        result.skipped.append(f"{name} (interfaces[{index}]): no port number in the name")


def _multi_port_runs(multis: _Multis, singles: _Singles) -> list[_Run]:
    """Runs of multi-port cages (`P0.0`, `P0.1` ...: two or more cages of at most 8 ports);
    the other `<prefix><n><sep><m>` names are slot/port names, one port per cage, and join
    `singles`."""
    runs = []
    for (kind, prefix, sep), cages in multis.items():
        counts = Counter(len(legs) for legs in cages.values())
        if len(cages) >= 2 and max(counts) <= 8:
            runs.append(_Run(kind, prefix, sep, dict(cages)))
        else:  # `Ethernet1/1` .. `Ethernet1/36`: slot/port, one port per cage
            for cage, legs in cages.items():
                for leg in legs:
                    singles[(kind, f"{prefix}{cage}{sep}")][leg] = [1]
    return runs


def _cage_group(run: _Run, taken: set[int], result: ImportResult) -> dict[str, Any] | None:
    """The catalog cage group of a run (None when its cage numbers are taken by another)."""
    spec = INTERFACE_TYPES[run.kind]
    first, last = min(run.legs), max(run.legs)
    numbers = set(range(first, last + 1))
    if numbers & taken:
        result.skipped.append(
            f"{run.prefix}{first}..{last} ({run.kind}): cage numbers {first}-{last} are taken "
            "by another run of ports")
        return None
    taken |= numbers
    for cage in sorted(numbers - set(run.legs)):
        result.missing.append(f"cage {cage} ({run.prefix}{cage}...): not in the file")
    group: dict[str, Any] = {
        "name": run.kind, "count": last - first + 1, "first": first,
        "form_factor": spec.form_factor, "top": spec.top,
        "interface_type": run.kind, "fabric": spec.fabric,
    }
    if run.sep is None:
        return group | _single_port_cages(run, spec, result)
    return group | _multi_port_cages(run, spec, numbers, result)


def _single_port_cages(run: _Run, spec: TypeDefault, result: ImportResult) -> dict[str, Any]:
    """Lanes, breakouts and port names of a run of one-port cages: the type's default modes,
    their legs named by the named defaults."""
    first, last = min(run.legs), max(run.legs)
    if spec.assumed:
        result.assumed.append(f"{run.kind}: {spec.assumed}")
    lane_gbps = max(spec.port_gbps // spec.lanes, 1)
    split = f"{run.prefix}{{cage}}/{{leg}}" if run.prefix.endswith("/") \
        else f"{run.prefix}{{cage}}s{{leg0}}"
    modes = list(spec.breakouts)
    if len(modes) > 1:
        result.assumed.append(
            f"{run.prefix}{first}..{last}: breakout modes {', '.join(modes[1:])} and leg "
            f"names {split.replace('{cage}', str(first))} ({DEFAULTS_NAME})")
    return {"lanes": spec.lanes, "lane_gbps": lane_gbps, "breakouts": modes,
            "default_breakout": modes[0],
            "port_names": {"1": f"{run.prefix}{{cage}}"} | ({"*": split} if len(modes) > 1 else {})}


def _multi_port_cages(run: _Run, spec: TypeDefault, numbers: set[int],
                      result: ImportResult) -> dict[str, Any]:
    """Lanes, the one breakout mode and port names of a run of multi-port cages (the ports
    the file lists; a missing one is listed, not invented)."""
    legs = Counter(len(v) for v in run.legs.values()).most_common(1)[0][0]
    base = min(min(v) for v in run.legs.values())
    for cage, present in sorted(run.legs.items()):
        for leg in range(base, base + legs):
            if leg not in present:
                result.missing.append(f"{run.prefix}{cage}{run.sep}{leg}: port {leg - base + 1} "
                                      f"of cage {cage} is not in the file")
    for cage in sorted(numbers - set(run.legs)):
        result.missing.extend(f"{run.prefix}{cage}{run.sep}{leg}: not in the file"
                              for leg in range(base, base + legs))
    leg_key = "{leg0}" if base == 0 else "{leg}"
    port_lanes = 4 if spec.port_gbps >= 400 and spec.lanes == 8 else spec.lanes
    lane_gbps = max(spec.port_gbps // port_lanes, 1)
    if port_lanes != spec.lanes or spec.assumed:
        result.assumed.append(f"{run.kind}: {legs} ports per cage, so {port_lanes} x "
                              f"{lane_gbps}G lanes per port")
    mode = f"{legs}x{spec.port_gbps}G"
    result.assumed.append(f"{run.prefix}N{run.sep}M: cages of {legs} ports run only {mode} "
                          f"(other modes and their port names are not in the file)")
    return {"lanes": port_lanes * legs, "lane_gbps": lane_gbps, "breakouts": [mode],
            "default_breakout": mode,
            "port_names": {str(legs): f"{run.prefix}{{cage}}{run.sep}{leg_key}"}}


def _catalog_id(data: dict[str, Any], vendor: str, model: str) -> str:
    slug = str(data.get("slug") or f"{vendor}-{model}")
    slug = re.sub(r"[^a-z0-9]+", "-", slug.lower()).strip("-")
    cid = f"{ID_PREFIX}{slug}"
    if not re.match(CATALOG_ID_PATTERN, cid):
        raise NetBoxImportError(f"slug {data.get('slug')!r} gives no usable catalog id")
    return cid


def import_device_type(data: Any, file: str = "<memory>", role: str | None = None) -> ImportResult:
    """One parsed device-type mapping -> a catalog DeviceModel and what was assumed/missing."""
    _check_top_level(data, file)
    vendor, model = str(data["manufacturer"]), str(data["model"])
    result = ImportResult(file=file, model=DeviceModel.model_construct())
    cages = _cage_groups(_interfaces(data, file), result, file)
    height = _height(data, file, result)
    if role is None:
        role = _assumed_role(cages, result)
    technology = sorted({INTERFACE_TYPES[g["interface_type"]].technology for g in cages
                         if g["fabric"]})
    entry: dict[str, Any] = {
        "kind": "device", "id": _catalog_id(data, vendor, model), "vendor": vendor,
        "model": model, "role": role, "height_ru": math.ceil(height),
        "technology": technology, "cages": cages,
        "part_numbers": [str(data["part_number"])] if data.get("part_number") else [],
        "source": f"NetBox device-type library YAML {Path(file).name} (imported by aicnet)",
        "verified": False,
    }
    _airflow(data, entry, result)
    _weight(data, entry, result)
    _power(data, result)
    if result.missing or result.assumed:
        entry["notes"] = _notes(result)
    result.model = _validated(entry, file)
    return result


def _check_top_level(data: Any, file: str) -> None:
    """A mapping with the three keys every device type has."""
    if not isinstance(data, dict):
        raise NetBoxImportError(f"{file}: top level is a {type(data).__name__}, not a mapping")
    for key in ("manufacturer", "model", "u_height"):
        if key not in data:
            raise NetBoxImportError(f"{file}: no {key!r}")


def _interfaces(data: dict[str, Any], file: str) -> list[Any]:
    """The file's interface list, at most `MAX_INTERFACES` long."""
    interfaces = data.get("interfaces") or []
    if not isinstance(interfaces, list):
        raise NetBoxImportError(f"{file}: interfaces is not a list")
    if len(interfaces) > MAX_INTERFACES:
        raise NetBoxImportError(f"{file}: interfaces: {len(interfaces):,} interfaces; a device "
                                f"type has at most {MAX_INTERFACES:,} (1,024 cages of 16 ports)")
    return interfaces


def _cage_groups(interfaces: list[Any], result: ImportResult, file: str) -> list[dict[str, Any]]:
    """The catalog cage groups of the interfaces' runs; at least one must be a data port."""
    taken: set[int] = set()
    cages = [g for g in (_cage_group(r, taken, result) for r in _runs(interfaces, result)) if g]
    if not any(g["fabric"] for g in cages):
        raise NetBoxImportError(
            f"{file}: no data interface aicnet can map to a cage ({len(interfaces)} interfaces; "
            + ("; ".join(result.skipped[:3]) or "none listed") + ")")
    return cages


def _height(data: dict[str, Any], file: str, result: ImportResult) -> float:
    """`u_height` as a number of more than 0 and at most `MAX_RACK_U` (a fraction of a unit
    is counted as a whole rack unit, and said so)."""
    try:
        height = float(data["u_height"])
    except (TypeError, ValueError, OverflowError):
        raise NetBoxImportError(f"{file}: u_height {shown(data['u_height'])} is not a "
                                "number") from None
    if not (0 < height <= MAX_RACK_U):  # NaN too
        raise NetBoxImportError(f"{file}: u_height {shown(data['u_height'])}: a height of more "
                                f"than 0 and at most {MAX_RACK_U} U")
    if height != int(height):
        result.assumed.append(f"height {height:g} U counted as {math.ceil(height)} RU")
    return height


def _assumed_role(cages: list[dict[str, Any]], result: ImportResult) -> str:
    """The role by the named defaults, from the number of fabric and other ports."""
    fabric_ports = sum(g["count"] for g in cages if g["fabric"])
    other_ports = sum(g["count"] for g in cages if not g["fabric"])
    role = (Role.LEAF if fabric_ports >= 16 else Role.MGMT if other_ports >= 16
            else Role.GPU_SERVER).value
    result.assumed.append(f"role {role} ({DEFAULTS_NAME}: 16 or more fabric ports is a "
                          "leaf, 16 or more copper ports a management switch, else a server;"
                          " set it with --role)")
    return role


def _airflow(data: dict[str, Any], entry: dict[str, Any], result: ImportResult) -> None:
    if data.get("airflow"):
        entry["airflow"] = str(data["airflow"])
    else:
        result.missing.append("airflow: not in the file")


def _weight(data: dict[str, Any], entry: dict[str, Any], result: ImportResult) -> None:
    """The weight in kg when the file gives a positive number in a known unit."""
    if data.get("weight") is None:
        result.missing.append("weight: not in the file")
        return
    unit = str(data.get("weight_unit", "kg"))
    try:
        weight = float(data["weight"])
    except (TypeError, ValueError):
        weight = None
    if weight is None or weight <= 0:
        result.missing.append(f"weight: {data['weight']!r} is not a weight; not imported")
    elif unit in _WEIGHT_KG:
        entry["weight_kg"] = round(weight * _WEIGHT_KG[unit], 3)
    else:
        result.missing.append(f"weight: unit {unit!r} is not one of "
                              f"{', '.join(_WEIGHT_KG)}; not imported")


def _power(data: dict[str, Any], result: ImportResult) -> None:
    """What the power ports say, as missing: never the unit's draw."""
    power = data.get("power-ports") or []
    if not power:
        result.missing.append("power: no power ports in the file")
        return
    draws = [p.get("maximum_draw") for p in power if isinstance(p, dict)]
    kinds = ", ".join(sorted({str(p.get("type")) for p in power if isinstance(p, dict)}))
    note = f"{len(power)} power ports ({kinds})" + (
        f", maximum_draw {'/'.join(str(d) for d in draws)} W each" if all(draws) else "")
    result.missing.append(f"power: {note}; the unit's typical and maximum draw are not in "
                          "the file (redundant supplies do not add up)")


def _notes(result: ImportResult) -> str:
    """The entry's notes: every assumption and every missing fact, at most 4,000 characters."""
    return "; ".join([f"assumed ({DEFAULTS_NAME}): {a}" for a in result.assumed]
                     + [f"missing: {m}" for m in result.missing])[:4000]


def _validated(entry: dict[str, Any], file: str) -> DeviceModel:
    try:
        return DeviceModel.model_validate(entry)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise NetBoxImportError(f"{file}: {where}: {first['msg']}") from None


def import_device_type_file(path: str | Path, role: str | None = None) -> ImportResult:
    """Read and import one device-type YAML file (NetBoxImportError names the file and the
    place): at most `MAX_CATALOG_BYTES`, nesting and numbers bounded as in a catalog file
    (loader.py `read_yaml`)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_CATALOG_BYTES:
            raise NetBoxImportError(f"{path}: the file has {size:,} bytes; a device-type file "
                                    f"is at most {MAX_CATALOG_BYTES:,} bytes")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise NetBoxImportError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise NetBoxImportError(f"{path}: not UTF-8 text (byte {exc.start + 1})") from None
    try:
        data = read_yaml(text)
    except YamlRefused as exc:
        raise NetBoxImportError(f"{path}: {_where(exc.problem_mark)}{exc.problem}") from None
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None)
        raise NetBoxImportError(f"{path}: {_where(getattr(exc, 'problem_mark', None))}not valid "
                                f"YAML{f' ({problem})' if problem else ''}") from None
    except (ValueError, RecursionError) as exc:  # e.g. a date such as 2020-02-30
        raise NetBoxImportError(f"{path}: a value YAML cannot read: {shown(str(exc))}") from None
    return import_device_type(data, str(path), role)


def _where(mark: Any) -> str:  # noqa: ANN401 - yaml's Mark
    return f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""


def catalog_yaml(models: list[DeviceModel]) -> str:
    """A catalog file (`format: aicnet.catalog`) holding `models`."""
    entries = [{"kind": m.kind, "id": m.id} | m.model_dump(mode="json", exclude_defaults=True)
               for m in models]
    return yaml.safe_dump({"format": CATALOG_FORMAT, "version": CATALOG_VERSION,
                           "entries": entries}, sort_keys=False, allow_unicode=True, width=100)
