"""Read `lldpctl -f json` output (lldpd): one file per device, a merged file, or a folder.

`lldpctl -f json` prints `{"lldp": {"interface": ...}}` where `interface` is an object keyed by
the local interface name when there is one neighbour and a list of such one-key objects when
there are several (lldpd's JSON writer turns a repeated key into a list).  Each interface names
the neighbour's chassis (keyed by its SysName, or only `id` when it sends none) and port
(`id` of type `ifname`, `mac` or `local`, and `descr`); with 802.3 support the port has
`auto-negotiation.current`, the MAU type such as `100GbaseCR4`, which gives the link speed.
lldpctl does not print the local host name, so a single-device file is named after its device
(`leaf-01.json`, `leaf-01.lldp.json`); a merged file is `{"leaf-01": {"lldp": ...}, ...}`.
A folder is read file by file (`*.json`, sorted).  Bad input raises `FabricFileError` naming the
file and the JSON path; so does input past the bounds of `limits.py` (file size, nesting depth,
files, interfaces per device).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..fileio.errors import FabricFileError
from .limits import MAX_JSON_DEPTH, MAX_LLDP_FILES, MAX_NEIGHBOURS
from .observed import Observation, ObservedEnd, ObservedLink, read_input_bytes

_MAU_SPEED = re.compile(r"^(\d+(?:\.\d+)?)\s*(G|M)?(?:ig|b)?\s*base", re.IGNORECASE)


class _Loose(BaseModel):
    """lldpctl prints more than aicnet reads (age, ttl, mgmt-ip, capability ...): ignored."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class _Id(_Loose):
    type: str
    value: str


class _AutoNeg(_Loose):
    current: str | None = None


class _Port(_Loose):
    id: _Id | None = None
    descr: str | None = None
    auto_negotiation: _AutoNeg | None = Field(default=None, alias="auto-negotiation")


class _Interface(_Loose):
    via: str | None = None
    chassis: dict[str, Any] = Field(default_factory=dict)
    port: _Port


_ENTRIES: TypeAdapter[list[dict[str, _Interface]]] = TypeAdapter(list[dict[str, _Interface]])


def mau_speed_gbps(mau: str | None) -> float | None:
    """The speed of an 802.3 MAU type name in Gb/s (`100GbaseCR4` -> 100, `1000BaseTFD` -> 1:
    a bare number is Mb/s), None if not given."""
    if not mau:
        return None
    match = _MAU_SPEED.match(mau.strip())
    if not match:
        return None
    value = float(match.group(1))
    return value if (match.group(2) or "").upper() == "G" else value / 1000


def _chassis_name(chassis: dict[str, Any]) -> str | None:
    """The neighbour's SysName, else its chassis id value."""
    if isinstance(chassis.get("id"), dict) and "type" in chassis["id"]:
        ident = chassis["id"]
        return str(ident.get("value")) if ident.get("value") is not None else None
    for name in chassis:
        return str(name)
    return None


def _place(where: str, indexed: bool, loc: tuple[Any, ...]) -> str:
    """The JSON path of a pydantic error location inside the interface list."""
    text = where + (f"[{loc[0]}]" if indexed and loc else "")
    for part in loc[1:]:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _read_device(host: str, lldp: Any, file: str, base: str, out: Observation) -> None:
    """The neighbours of one device's lldpctl output, validated in one pass."""
    out.hosts.add(host)
    if lldp in ({}, [], None):
        return
    if not isinstance(lldp, dict):
        raise FabricFileError(file, "expected an object with \"interface\" (lldpctl -f json)", base)
    entries = lldp.get("interface")
    if entries is None:
        raise FabricFileError(file, "no \"interface\" key (is this lldpctl -f json output?)", base)
    where = f"{base}.interface"
    indexed = isinstance(entries, list)
    if isinstance(entries, dict):
        entries = [entries]
    elif not indexed:
        raise FabricFileError(file, "\"interface\" must be an object or a list", where)
    if len(entries) > MAX_NEIGHBOURS:
        raise FabricFileError(file, f"{len(entries):,} interfaces: at most {MAX_NEIGHBOURS:,} "
                                    "are read", where)
    try:
        parsed = _ENTRIES.validate_python(entries)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        raise FabricFileError(file, first["msg"], _place(where, indexed, tuple(first["loc"]))) \
            from None
    for index, entry in enumerate(parsed):
        for local, neighbour in entry.items():
            place = f"{where}[{index}].{local}" if indexed else f"{where}.{local}"
            remote = _chassis_name(neighbour.chassis)
            if remote is None:
                raise FabricFileError(file, "the neighbour has no chassis name or id",
                                      f"{place}.chassis")
            port = neighbour.port
            if port.id is not None and port.id.type == "ifname":
                remote_port = port.id.value
            elif port.descr:
                remote_port = port.descr
            elif port.id is not None:
                remote_port = port.id.value
            else:
                raise FabricFileError(file, "the neighbour's port has neither id nor descr",
                                      f"{place}.port")
            negotiation = port.auto_negotiation
            speed = mau_speed_gbps(negotiation.current) if negotiation is not None else None
            out.links.append(ObservedLink(ObservedEnd(host, local),
                                          ObservedEnd(remote, remote_port), speed,
                                          f"{file}: {place}"))


def host_of_file(path: Path) -> str:
    """`leaf-01.json` / `leaf-01.lldp.json` -> `leaf-01`."""
    name = path.name
    for suffix in (".json", ".lldp", ".lldpctl"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    return name


def _files(paths: Iterable[str | Path]) -> list[Path]:
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.iterdir() if p.suffix.lower() == ".json"))
        elif path.exists():
            found.append(path)
        else:
            raise FabricFileError(path, "no such file or folder")
        if len(found) > MAX_LLDP_FILES:
            raise FabricFileError(path, f"more than {MAX_LLDP_FILES:,} lldpctl files")
    return found


def _depth_problem(data: Any) -> str | None:
    """The JSON path where `data` nests deeper than MAX_JSON_DEPTH, or None (iterative)."""
    stack: list[tuple[Any, str, int]] = [(data, "$", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return where
        if isinstance(value, dict):
            stack.extend((v, f"{where}.{k}", depth + 1) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value))
    return None


def read_lldp(paths: Iterable[str | Path]) -> Observation:
    """Every neighbour in the given lldpctl JSON files (or folders of them)."""
    out = Observation(kind="lldp")
    for path in _files(paths):
        file = str(path)
        out.files.append(file)
        raw = read_input_bytes(path)
        if not raw.strip():
            raise FabricFileError(file, "the file is empty")
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise FabricFileError(
                file, f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        if not isinstance(data, dict):
            raise FabricFileError(file, "the top level must be a JSON object", "$")
        deep = _depth_problem(data)
        if deep is not None:
            raise FabricFileError(file, f"nested more than {MAX_JSON_DEPTH} deep (lldpctl's "
                                        "output is 7)", deep)
        if "lldp" in data:
            _read_device(host_of_file(path), data["lldp"], file, "$.lldp", out)
            continue
        for host, body in data.items():
            if not isinstance(body, dict) or "lldp" not in body:
                raise FabricFileError(
                    file, "a merged file maps each host name to its lldpctl -f json output "
                          "({\"lldp\": ...})", f"$.{host}")
            _read_device(str(host), body["lldp"], file, f"$.{host}.lldp", out)
    if not out.files:
        raise FabricFileError(", ".join(str(p) for p in paths), "no lldpctl JSON files found")
    return out
