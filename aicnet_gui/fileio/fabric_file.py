"""`.fabric` files: UTF-8 JSON with a stable key order, loaded into a `FabricDocument`.

Load: bytes -> UTF-8 -> JSON -> format and version check -> migrations -> pydantic -> document
(indices and invariants).  Every failure on the way becomes one `FabricFileError` naming the file
and the JSON path.  The garbage collector is paused during the load and the result is frozen
(shared/reference/performance.md §9.4): a 100k-link file loads several times faster that way.

Save: the same bytes for the same document (save, load, save is byte-stable), written to a temp
file in the target folder, fsynced, and moved over the target with `os.replace`; the previous
version stays as `<name>.bak` (atomic.py: through a symlink, and temp files a killed save left
are removed on the next save or open).

Size: a file over `MAX_FABRIC_BYTES`, or with more objects in a section than the design limits
(model/limits.py), is refused with a message that says the limit, before its objects are made.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import orjson
from pydantic import TypeAdapter, ValidationError

from ..gc_control import gc_held, gc_paused
from ..model.cage_tables import SHARED_CAGE_JSON
from ..model.catalog import Catalog
from ..model.catalog_entities import CableAssembly, DeviceModel, Transceiver
from ..model.document import FabricDocument, ModelError
from ..model.fabric import (
    FILE_FORMAT,
    SCHEMA_VERSION,
    Device,
    EmbeddedCatalog,
    Fabric,
    Link,
    Metadata,
    Rack,
    Requirement,
    Settings,
    Workload,
)
from ..model.limits import (
    MAX_DEVICES,
    MAX_FABRIC_BYTES,
    MAX_LINKS,
    MAX_RACKS,
    MAX_WORKLOADS,
    size_message,
)
from ..model.link_table import LinkColumns
from ..model.memo import IdentityMemo
from ..model.text_safety import CONTROL_ERROR, error_message
from .atomic import remove_stale_temps, write_atomic
from .errors import FabricFileError
from .line_cache import LINE_SEPARATOR, FileLines, Layout, LineCache, cache_of, keep
from .migrations import READ_AS_CURRENT, MigrationError, ends_as_pairs, migrate, upgrade_validated
from .pieces import KnownLinks, TooMany, known_links, validate_in_pieces

MAX_REPORTED_ERRORS = 5
#: a file not laid out as aicnet writes it and bigger than this is parsed, its sections counted
#: against the limits, and only then validated (pydantic's one-pass read of a hostile 100 MB file
#: validates 500,000 links before it can say there are too many: 20 s and 2.6 GB)
WHOLE_FAST_BYTES = 16 * 1024 * 1024
#: the most objects a design holds per section
SECTION_LIMITS = {"racks": MAX_RACKS, "devices": MAX_DEVICES, "links": MAX_LINKS,
                  "workloads": MAX_WORKLOADS}


def json_path(loc: tuple[Any, ...]) -> str:
    """`('links', 3, 'a', 'port')` -> `$.links[3].a.port`."""
    path = "$"
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


#: pydantic's words for a Python call, said as a reader of a JSON file would say them
_PLAIN_MESSAGES = {
    "missing": "required field is missing",
    "missing_keyword_only_argument": "required field is missing",
    "missing_argument": "required field is missing",
    "unexpected_keyword_argument": "unknown field",
    "extra_forbidden": "unknown field",
    "tuple_type": "Input should be a list",
    "dataclass_type": "Input should be a JSON object",
}


def _plain_message(error: Any) -> str:
    if error.get("type") in ("value_error", CONTROL_ERROR):  # our own words, not pydantic's
        return error_message(error)
    if error.get("type") == "tuple_type" and isinstance(error.get("input"), dict):
        return 'a link end is ["device id", "port name"] or {"device": ..., "port": ...} with both'
    return _PLAIN_MESSAGES.get(error.get("type", ""), error["msg"])


def validation_error(file: str, exc: ValidationError) -> FabricFileError:
    """pydantic's errors as one FabricFileError: the first at its JSON path, a few more after."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = tuple(first["loc"])
    message = _plain_message(first)
    if len(errors) > 1:
        others = "; ".join(
            f"{json_path(e['loc'])}: {_plain_message(e)}" for e in errors[1:MAX_REPORTED_ERRORS]
        )
        more = len(errors) - MAX_REPORTED_ERRORS
        message += f" (also: {others}{f'; and {more} more' if more > 0 else ''})"
    return FabricFileError(file, message, json_path(loc))


def _catalog_for(fabric: Fabric, base: Catalog) -> Catalog:
    embedded = Catalog()
    for entry in (*fabric.catalog.devices, *fabric.catalog.transceivers, *fabric.catalog.cables):
        embedded.add(entry, origin="embedded")
    return base.merged(embedded)


def parse_json(raw: bytes, file: str) -> dict[str, Any]:
    """Bytes -> the top-level JSON object of a `.fabric` file, or a FabricFileError."""
    if not raw.strip():
        raise FabricFileError(file, "the file is empty")
    _check_file_size(len(raw), file)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FabricFileError(
            file, f"not UTF-8 text (invalid byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        reason = exc.msg
        if exc.pos >= len(raw.rstrip()) - 1:
            reason = f"the file ends too early, it may be truncated ({reason})"
        raise FabricFileError(
            file, f"not valid JSON at line {exc.lineno}, column {exc.colno}: {reason}"
        ) from None
    if not isinstance(data, dict):
        raise FabricFileError(file, "the top level must be a JSON object", "$")
    if data.get("format") != FILE_FORMAT:
        raise FabricFileError(
            file, f"not an aicnet fabric (expected \"format\": \"{FILE_FORMAT}\")", "$.format"
        )
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise FabricFileError(file, "schema_version must be a positive whole number", "$.schema_version")
    if version > SCHEMA_VERSION:
        raise FabricFileError(
            file,
            f"written by a newer aicnet (schema version {version}); this version reads up to "
            f"{SCHEMA_VERSION}. Update aicnet to open it.",
            "$.schema_version",
        )
    _check_sections(data, file)
    return data


def _check_sections(data: dict[str, Any], file: str | Path) -> None:
    """A design with more objects in a section than `SECTION_LIMITS` allows is refused, with
    the limit (the model's own `max_length` says the same in pydantic's words)."""
    for name, limit in SECTION_LIMITS.items():
        items = data.get(name)
        if isinstance(items, list) and len(items) > limit:
            raise FabricFileError(file, size_message(name, len(items), limit), f"$.{name}")


def _check_file_size(size: int, file: str | Path) -> None:
    if size > MAX_FABRIC_BYTES:
        raise FabricFileError(file, f"the file has {size:,} bytes; aicnet reads .fabric files of "
                                    f"at most {MAX_FABRIC_BYTES:,} bytes")


def loads_fabric(raw: bytes, catalog: Catalog, file: str = "<memory>", parallel: bool = False,
                 like: FabricDocument | None = None) -> FabricDocument:
    """Parse `.fabric` bytes into a document; raise FabricFileError on any bad input.

    The common case, a well-formed file of the current schema, is parsed and validated in one
    pass by pydantic's Rust core.  Anything else takes the careful path (UTF-8, JSON, format,
    version, migrations, validation) that names exactly what is wrong and where.  `parallel`: a
    big file's links are read in two halves, one in a child process (pieces.py: forked in the
    CLI, spawned in the editor).  `like`: another revision, opened from a file and not
    edited since, whose link lines this file's identical lines take their values from
    (pieces.py; `aicnet diff`).
    """
    _check_file_size(len(raw), file)
    with gc_paused():
        try:
            fast = _fast_validate(raw, parallel, _known_links(like))
        except TooMany as exc:
            raise FabricFileError(file, size_message(
                exc.section, exc.count, SECTION_LIMITS[exc.section]), f"$.{exc.section}") from None
        fabric, columns = fast if fast is not None else (_careful_validate(raw, file), None)
        _check_sections(vars(fabric), file)
        try:
            doc = FabricDocument(_catalog_for(fabric, catalog), fabric, columns)
        except ModelError as exc:
            raise FabricFileError(file, str(exc), exc.path or "$") from None
    if fast is not None:  # a migrated file is written afresh in the current layout
        sections = {name: getattr(fabric, name) for name in OBJECT_SECTIONS}
        sections["links"] = doc.links.tokens()
        keep(doc, FileLines(raw, sections, partial(_loaded_layout, fabric)))
    return doc


def _known_links(doc: FabricDocument | None) -> KnownLinks | None:
    """The link lines `doc` was opened from, with its columns (None: not so opened, or edited)."""
    if doc is None:
        return None
    lines = cache_of(doc)
    raw = lines.raw if isinstance(lines, FileLines) else None
    return None if raw is None else known_links(raw, doc.links.as_loaded())


def _fast_validate(raw: bytes, parallel: bool = False,
                   known: KnownLinks | None = None) -> tuple[Fabric, LinkColumns | None] | None:
    """A well-formed file of a current schema version validated in pydantic's core: its links
    a piece at a time into columns when it is laid out as aicnet writes it (pieces.py), else
    as a whole; None when something is wrong (the careful path then says what and where)."""
    columns: LinkColumns | None = None
    try:
        pieced = validate_in_pieces(raw, halves=parallel and known is None, known=known)
        if pieced is not None:
            fabric, columns = pieced
        elif len(raw) > WHOLE_FAST_BYTES:
            return None  # a big file in another layout: counted before it is validated
        else:
            fabric = Fabric.model_validate_json(raw)
    except TooMany:
        raise
    except ValidationError as exc:
        _raise_if_too_many(exc)
        return None
    except ValueError:
        return None
    if fabric.schema_version not in READ_AS_CURRENT:
        return None
    return upgrade_validated(fabric), columns


def _raise_if_too_many(exc: ValidationError) -> None:
    """A section past its limit is said at once (pydantic stopped reading it at the limit):
    the careful path would read the whole file again only to say the same."""
    for error in exc.errors(include_url=False, include_input=False):
        loc = error["loc"]
        if error["type"] == "too_long" and len(loc) == 1 and loc[0] in SECTION_LIMITS:
            raise TooMany(str(loc[0]), int(error["ctx"]["actual_length"]))


def _careful_validate(raw: bytes, file: str) -> Fabric:
    data = parse_json(raw, file)
    try:
        data = ends_as_pairs(migrate(data))
    except MigrationError as exc:
        raise FabricFileError(file, str(exc), "$.schema_version") from None
    try:
        return Fabric.model_validate(data)
    except ValidationError as exc:
        raise validation_error(file, exc) from None


def read_input(path: Path, error: type[FabricFileError] = FabricFileError,
               check: Callable[[int], None] | None = None) -> bytes:
    """The bytes of an input file; `check` sees its size first (it raises when too big);
    a missing, unreadable or folder path is an `error` naming it."""
    try:
        if check is not None:
            check(path.stat().st_size)
        return path.read_bytes()
    except FileNotFoundError:
        raise error(path, "no such file") from None
    except IsADirectoryError:
        raise error(path, "is a folder, not a file") from None
    except OSError as exc:
        raise error(path, f"cannot read: {exc.strerror}") from None


def load_fabric(path: str | Path, catalog: Catalog, parallel: bool = False,
                like: FabricDocument | None = None) -> FabricDocument:
    """Read a `.fabric` file; any problem ends in a FabricFileError naming file and place.
    `parallel`, `like`: as `loads_fabric`."""
    path = Path(path)
    raw = read_input(path, check=lambda size: _check_file_size(size, path))
    remove_stale_temps(path)  # what a killed save of this design left behind
    return loads_fabric(raw, catalog, str(path), parallel, like)


def _entry_dump(entry: DeviceModel | Transceiver | CableAssembly) -> dict[str, Any]:
    """A catalog entry for embedding: kind and id first, then its non-default fields."""
    fields = entry.model_dump(mode="json", exclude_defaults=True)
    return {"kind": entry.kind, "id": entry.id} | fields


_SECTION_TYPES: dict[str, type] = {
    "racks": Rack, "devices": Device, "links": Link, "workloads": Workload,
}
_ADAPTERS = {name: TypeAdapter(list[kind]) for name, kind in _SECTION_TYPES.items()}
OBJECT_SECTIONS = tuple(_SECTION_TYPES)


_SEPARATOR = b'},{"id":'
_SEPARATOR_IN_FILE = b'},\n    {"id":'


def _serialise(name: str, items: list[Any]) -> bytes:
    """The section's objects as the file holds them: compact JSON objects joined by
    `,\n    `, serialised together in pydantic's core.

    Breaking the joined array at `},{"id":` is safe: that sequence cannot occur inside an
    object (every other nested value is keyed by a non-`id` name) nor inside a string (quotes
    there are escaped).  Compact JSON has no raw newline (strings escape it), so the result
    splits back into one line per object at `,\n    `.  Devices that share a cage table share
    its serialised form (`SHARED_CAGE_JSON`).  The objects are validated values, so pydantic's
    type checks for warnings are skipped (they would change nothing written; ~10 % faster).
    """
    joined = _ADAPTERS[name].dump_json(items, exclude_defaults=True, warnings=False,
                                       context={SHARED_CAGE_JSON: IdentityMemo(None)})[1:-1]
    return joined.replace(_SEPARATOR, _SEPARATOR_IN_FILE)


def _section_text(name: str, items: list[Any], cache: LineCache,
                  resolve: Callable[[list[Any]], list[Any]] | None = None,
                  ) -> tuple[bytes, list[bytes] | bytes]:
    """The section's objects one per line (joined by `,\n    `), and what the cache keeps of
    them: the cached line of an unchanged object is reused, the others serialised together.
    `items` may name the objects by tokens (the links: `LinkTable.tokens`), `resolve` then
    gives the objects of a list of tokens."""
    lines = cache.known_lines(name, items)
    missing = [] if lines is None or None not in lines else \
        [index for index, line in enumerate(lines) if line is None]
    if lines is None or len(missing) == len(items):  # nothing to reuse: no need for lines
        text = _serialise(name, items if resolve is None else resolve(items))
        return text, text
    if missing:
        objects = [items[index] for index in missing]
        if resolve is not None:
            objects = resolve(objects)
        fresh = _serialise(name, objects).split(LINE_SEPARATOR)
        for index, line in zip(missing, fresh, strict=True):
            lines[index] = line
    return LINE_SEPARATOR.join(lines), lines  # type: ignore[arg-type]


def _file_sections(doc: FabricDocument) -> dict[str, Any]:
    """The top-level keys of the document's `.fabric` file in their stable order, with plain
    JSON values, except the object sections: a list of their objects (the links by their
    tokens, `LinkTable.tokens`).

    Objects keep only their non-default fields (a 100k-link file stays small and diffs well);
    metadata and settings are written in full so a reader sees every setting.
    """
    return _file_values(doc.metadata, doc.settings, doc.embedded_catalog(), {
        "racks": list(doc.racks.values()),
        "devices": list(doc.devices.values()),
        "links": doc.links.tokens(),
        "workloads": list(doc.workloads.values()),
    }, doc.requirement)


def _file_values(metadata: Metadata, settings: Settings, embedded: EmbeddedCatalog,
                 sections: dict[str, list[Any]],
                 requirement: Requirement | None = None) -> dict[str, Any]:
    """The top-level values in file order; the requirement (last) only when there is one, so
    a design without one is written as before."""
    values = {
        "format": FILE_FORMAT,
        "schema_version": SCHEMA_VERSION,
        "metadata": metadata.model_dump(mode="json"),
        "settings": settings.model_dump(mode="json"),
        **sections,
        "catalog": {
            "devices": [_entry_dump(e) for e in embedded.devices],
            "transceivers": [_entry_dump(e) for e in embedded.transceivers],
            "cables": [_entry_dump(e) for e in embedded.cables],
        },
    }
    if requirement is not None:
        values["requirement"] = requirement.model_dump(mode="json")
    return values


def _layout(values: dict[str, Any]) -> Layout:
    """Per top-level key: its bytes in the file, or the section name of an object section."""
    return [key if key in OBJECT_SECTIONS else
            b"  " + orjson.dumps(key) + b": "
            + orjson.dumps(value, option=orjson.OPT_INDENT_2).replace(b"\n", b"\n  ")
            for key, value in values.items()]


def _loaded_layout(fabric: Fabric) -> Layout:
    """The layout aicnet would have written for `fabric` as read (before any edit)."""
    return _layout(_file_values(fabric.metadata, fabric.settings, fabric.catalog,
                                {name: [] for name in OBJECT_SECTIONS}, fabric.requirement))


def dumps_fabric(doc: FabricDocument) -> bytes:
    """The bytes of the `.fabric` file for `doc`.

    Top-level sections, metadata, settings and the embedded catalog are indented; each rack,
    device, link and workload is one compact line, so a 100k-link file stays small and a git
    diff shows one line per changed object.
    """
    return b"".join(_file_chunks(doc))


def _file_chunks(doc: FabricDocument) -> list[bytes]:
    """The file of `doc` in pieces (a save writes them as they are: no copy of the whole)."""
    values = _file_sections(doc)
    chunks = [b"{\n"]
    cache = cache_of(doc)
    if cache is None:
        cache = LineCache()
    written: dict[str, tuple[list[Any], list[bytes] | bytes]] = {}
    with gc_held():  # 100k new lines would set off full collections
        for index, part in enumerate(_layout(values)):
            if index:
                chunks.append(b",\n")
            if isinstance(part, bytes):
                chunks.append(part)
                continue
            chunks.append(b"  " + orjson.dumps(part) + b": ")
            if not values[part]:
                chunks.append(b"[]")
                continue
            text, kept = _section_text(part, values[part], cache,
                                       doc.links.resolve if part == "links" else None)
            written[part] = (values[part], kept)
            chunks += (b"[\n    ", text, b"\n  ]")
    keep(doc, LineCache(written))
    chunks.append(b"\n}\n")
    return chunks


def save_fabric(doc: FabricDocument, path: str | Path, keep_backup: bool = True) -> None:
    """Save `doc` atomically; raise FabricFileError if the file cannot be written."""
    payload = _file_chunks(doc)
    try:
        write_atomic(path, payload, keep_backup)
    except OSError as exc:
        raise FabricFileError(path, f"cannot write: {exc.strerror or exc}") from None
