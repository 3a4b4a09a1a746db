"""Read catalog YAML files into catalog entries, reporting every problem instead of raising.

A catalog file is a YAML mapping::

    format: aicnet.catalog
    version: 1
    entries:
      - kind: device        # or transceiver / cable
        id: nvidia-qm9700
        ...

`load_catalog()` reads the built-in `catalogs/` folder (recursively, in sorted order), then the
user's catalog folder and any extra folders; a later file overrides an entry with the same id.
A broken file or entry never stops the load: it becomes a `CatalogProblem` that names the file,
the entry (number counted from 1, and id when it has one), the field path and pydantic's message,
and every good entry, including the good entries of the same file, still loads.

A catalog file is read as plain data: YAML aliases (`*name`) are refused (a dozen lines of
nested aliases expand to gigabytes: "billion laughs"), a file over `MAX_CATALOG_BYTES`, with
more than `MAX_CATALOG_ENTRIES` entries, nested deeper than `MAX_YAML_DEPTH` or with a number
longer than `MAX_NUMBER_CHARS` is refused with the limit and the place, every value is bounded by its
model (model/limits.py), and a value quoted in a message is shortened (`shown`), never expanded.
"""

from __future__ import annotations

import functools
import os
import reprlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ..model.catalog import Catalog
from ..model.catalog_entities import CatalogEntry
from ..model.limits import (
    MAX_CATALOG_BYTES,
    MAX_CATALOG_ENTRIES,
)
from ..model.text_safety import error_message
from ..paths import data_dir, user_catalog_dir
from .yaml_cache import YamlCache

CATALOG_FORMAT = "aicnet.catalog"
CATALOG_VERSION = 1
USER_CATALOG_ENV = "AICNET_USER_CATALOG_DIR"
CATALOG_SUFFIXES = (".yaml", ".yml")

_ENTRY_ADAPTER: TypeAdapter[CatalogEntry] = TypeAdapter(CatalogEntry)
_KINDS = ("device", "transceiver", "cable")

_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxstring, _SHOWN.maxother = 2, 40, 40
_SHOWN.maxlist = _SHOWN.maxdict = _SHOWN.maxtuple = _SHOWN.maxset = 4


def shown(value: Any) -> str:
    """A short repr of a value read from a file, for a message: nested or long values are cut
    (`[[...], ...]`), never expanded."""
    return _SHOWN.repr(value)


def _not_text(value: Any) -> bool:
    """True when a string inside `value` is not text: a YAML escape such as `"\\ud800"` makes
    a lone surrogate, which no file or terminal can take."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def __getattr__(name: str) -> Any:
    """The YAML reader's names (yaml_read.py), imported from here by older callers; the module
    is loaded only when a file is parsed (a cached built-in catalog never loads PyYAML)."""
    if name in ("YamlRefused", "AliasRefused", "YamlLimit", "PlainLoader", "read_yaml",
                "DEPTH_PROBLEM"):
        from . import yaml_read

        return getattr(yaml_read, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class CatalogProblem:
    """One thing wrong with a catalog file or one of its entries.

    `entry` is the entry's number in the file's `entries` list counted from 1 (None for a
    problem with the whole file); `entry_id` is the entry's `id` when it has a readable one;
    `field` is the dotted path inside the entry (pydantic style, lists counted from 0) or ""
    when the problem concerns the whole entry or file.
    """

    file: str
    entry: int | None
    field: str
    message: str
    entry_id: str | None = None

    def __str__(self) -> str:
        parts = [self.file]
        if self.entry is not None:
            parts.append(f"entry {self.entry}" + (f" ({self.entry_id})" if self.entry_id else ""))
        elif self.entry_id:
            parts.append(self.entry_id)
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(parts)


@dataclass
class CatalogLoadResult:
    """The merged catalog and every problem met while loading it."""

    catalog: Catalog
    problems: list[CatalogProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


# --------------------------------------------------------------------------------------------
# One file


def _display_name(path: Path) -> str:
    """A short, stable name for messages: `catalogs/...` for built-in files, else the path."""
    try:
        builtin_root = data_dir("catalogs").resolve()
        relative = path.resolve().relative_to(builtin_root)
    except (OSError, ValueError):
        return str(path)
    return (Path("catalogs") / relative).as_posix()


def _field_path(loc: tuple[Any, ...]) -> str:
    """Pydantic's error location without the union tag (`device`, `cable` ...) in front."""
    parts = list(loc)
    if parts and parts[0] in _KINDS:
        parts = parts[1:]
    return ".".join(str(part) for part in parts)


def _entry_problems(
    error: ValidationError, file: str, number: int, raw: dict[str, Any]
) -> list[CatalogProblem]:
    entry_id = raw.get("id")
    if not isinstance(entry_id, str) or not entry_id:
        entry_id = None
    elif len(entry_id) > 128:
        entry_id = shown(entry_id)
    problems = []
    for detail in error.errors(include_url=False):
        loc = tuple(detail.get("loc", ()))
        error_type = detail.get("type", "")
        if error_type in ("union_tag_not_found", "union_tag_invalid"):
            if error_type == "union_tag_not_found":
                message = "missing 'kind'"
            else:
                message = f"unknown kind {shown(raw.get('kind'))}"
            message += f"; expected one of {', '.join(_KINDS)}"
            problems.append(CatalogProblem(file, number, "kind", message, entry_id))
            continue
        message = error_message(detail)  # our validators' own words, without pydantic's
        problems.append(CatalogProblem(file, number, _field_path(loc), message, entry_id))
    return problems


def parse_entries(
    raw_entries: Iterable[Any], source: str
) -> tuple[list[CatalogEntry], list[CatalogProblem]]:
    """Validate raw entry mappings (from a YAML file or a fabric document) one by one.

    `source` names where they came from in problem messages.  Entries that fail validation are
    left out and reported; the others are returned in their original order.
    """
    entries: list[CatalogEntry] = []
    problems: list[CatalogProblem] = []
    for number, raw in enumerate(raw_entries, start=1):
        if not isinstance(raw, dict):
            problems.append(
                CatalogProblem(
                    source, number, "", f"entry is a {type(raw).__name__}, expected a mapping"
                )
            )
            continue
        if _not_text(raw):
            problems.append(CatalogProblem(
                source, number, "", "a text holds an escape (\\uD800-\\uDFFF) that is not a "
                "character"))
            continue
        try:
            entries.append(_ENTRY_ADAPTER.validate_python(raw))
        except ValidationError as error:
            problems.extend(_entry_problems(error, source, number, raw))
        except Exception as error:  # never let odd input escape as an exception
            entry_id = shown(raw.get("id")) if isinstance(raw.get("id"), str) else None
            problems.append(
                CatalogProblem(source, number, "", f"cannot read entry: {shown(str(error))}",
                               entry_id)
            )
    return entries, problems


def load_catalog_file(
    path: str | os.PathLike[str], cache: YamlCache | None = None,
) -> tuple[list[CatalogEntry], list[CatalogProblem]]:
    """Read one catalog YAML file.  Never raises on bad input: problems are returned instead.

    With a `cache` (the built-in catalog's, yaml_cache.py) the parsed YAML comes from it when
    the file's bytes are the ones it was parsed from; what follows is the same either way."""
    path = Path(path)
    name = _display_name(path)

    def whole_file(message: str, field_name: str = "") -> tuple[list, list[CatalogProblem]]:
        return [], [CatalogProblem(name, None, field_name, message)]

    try:
        size = path.stat().st_size
    except OSError as error:
        return whole_file(f"cannot read file: {error.strerror or error}")
    if size > MAX_CATALOG_BYTES:
        return whole_file(f"the file has {size:,} bytes; a catalog file is at most "
                          f"{MAX_CATALOG_BYTES:,} bytes")
    raw = None
    if cache is not None:
        try:
            raw = path.read_bytes()
        except OSError:
            raw = None
        data = cache.get(raw) if raw is not None else None
        if data is not None:
            return _entries_of(data, name)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        return whole_file(f"not UTF-8 text ({error.reason} at byte {error.start})")
    except OSError as error:
        return whole_file(f"cannot read file: {error.strerror or error}")
    import yaml

    from . import yaml_read
    from .yaml_read import YamlRefused

    try:
        data = yaml_read.read_yaml(text)
    except YamlRefused as error:
        mark = error.problem_mark
        return whole_file(f"line {mark.line + 1}, column {mark.column + 1}: {error.problem}")
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        return whole_file(f"YAML syntax error: {where}{problem}")
    except RecursionError:
        return whole_file("YAML nesting too deep")
    except Exception as error:  # e.g. ValueError for an impossible date such as 2020-02-30
        return whole_file(f"YAML value error: {shown(str(error))}")
    if cache is not None and raw is not None:
        cache.put(raw, data)
    return _entries_of(data, name)


def _entries_of(data: Any, name: str) -> tuple[list[CatalogEntry], list[CatalogProblem]]:
    """A catalog file's entries and problems from its parsed YAML document."""

    def whole_file(message: str, field_name: str = "") -> tuple[list, list[CatalogProblem]]:
        return [], [CatalogProblem(name, None, field_name, message)]

    if data is None:
        return whole_file("file is empty; expected a mapping with format, version and entries")
    if not isinstance(data, dict):
        return whole_file(
            f"top level is a {type(data).__name__}; expected a mapping with format, version and "
            "entries"
        )
    problems: list[CatalogProblem] = []
    if data.get("format") != CATALOG_FORMAT:
        return whole_file(
            f"format is {shown(data.get('format'))}; expected {CATALOG_FORMAT!r}", "format"
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return whole_file(f"version is {shown(version)}; expected an integer >= 1", "version")
    if version > CATALOG_VERSION:
        return whole_file(
            f"version {version} is newer than this aicnet understands ({CATALOG_VERSION})",
            "version",
        )
    unknown = sorted(shown(key) for key in data if key not in ("format", "version", "entries"))
    if unknown:
        problems.append(
            CatalogProblem(name, None, unknown[0], f"unknown top-level keys: {', '.join(unknown)}")
        )
    raw_entries = data.get("entries")
    if raw_entries is None:
        raw_entries = []
        problems.append(CatalogProblem(name, None, "entries", "missing 'entries' list"))
    elif not isinstance(raw_entries, list):
        problems.append(
            CatalogProblem(
                name, None, "entries", f"entries is a {type(raw_entries).__name__}, expected a list"
            )
        )
        raw_entries = []
    if len(raw_entries) > MAX_CATALOG_ENTRIES:
        problems.append(CatalogProblem(
            name, None, "entries", f"a catalog file holds at most {MAX_CATALOG_ENTRIES:,} entries; "
            f"this one has {len(raw_entries):,}"))
        raw_entries = []
    entries, entry_problems = parse_entries(raw_entries, name)
    return entries, problems + entry_problems


# --------------------------------------------------------------------------------------------
# Folders and the merged catalog


def catalog_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The catalog YAML files below `folder`, recursively, in a stable sorted order.

    Hidden files and folders (name starting with `.`) are skipped.
    """
    root = Path(folder)
    if not root.is_dir():
        return []
    found: list[Path] = []
    for path in root.rglob("*"):
        relative = path.relative_to(root)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if path.suffix.lower() in CATALOG_SUFFIXES and path.is_file():
            found.append(path)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def user_catalog_path() -> Path:
    """The user's catalog folder: `$AICNET_USER_CATALOG_DIR` if set, else the platform folder."""
    override = os.environ.get(USER_CATALOG_ENV)
    return Path(override).expanduser() if override else user_catalog_dir()


_Loaded = tuple[tuple[tuple[CatalogEntry, str], ...], tuple[CatalogProblem, ...]]


def _load_folder(folder: Path, cache: YamlCache | None = None
                 ) -> tuple[list[tuple[CatalogEntry, str]], list[CatalogProblem]]:
    """Every entry of every file below `folder` with its origin; duplicate ids are problems."""
    loaded: list[tuple[CatalogEntry, str]] = []
    problems: list[CatalogProblem] = []
    seen: dict[str, str] = {}
    for path in catalog_files(folder):
        entries, file_problems = load_catalog_file(path, cache)
        problems.extend(file_problems)
        name = _display_name(path)
        for entry in entries:
            if entry.id in seen:
                problems.append(
                    CatalogProblem(
                        name,
                        None,
                        "id",
                        f"duplicate id, also defined in {seen[entry.id]}; this later definition "
                        "wins",
                        entry.id,
                    )
                )
            seen[entry.id] = name
            loaded.append((entry, name))
    return loaded, problems


@functools.lru_cache(maxsize=4)
def _load_builtin_cached(folder: str) -> _Loaded:
    """The built-in catalog, once per process; its YAML parsed once per content (the cache in
    the user's cache folder, yaml_cache.py)."""
    cache = YamlCache.open()
    loaded, problems = _load_folder(Path(folder), cache)
    cache.save()
    return tuple(loaded), tuple(problems)


def _builtin() -> _Loaded:
    return _load_builtin_cached(str(data_dir("catalogs")))


def clear_cache() -> None:
    """Forget the cached built-in catalog (e.g. after editing its files in a running session)."""
    _load_builtin_cached.cache_clear()


def builtin_catalog() -> Catalog:
    """The built-in catalog only (cached load; each call returns a new `Catalog` object)."""
    loaded, _problems = _builtin()
    catalog = Catalog()
    for entry, origin in loaded:
        catalog.add(entry, origin)
    return catalog


def builtin_problems() -> list[CatalogProblem]:
    """The problems of the built-in catalog (should be none in a release)."""
    return list(_builtin()[1])


def _layers(extra_dirs: Iterable[str | os.PathLike[str]], include_user: bool) -> Iterator[Path]:
    if include_user:
        yield user_catalog_path()
    for folder in extra_dirs:
        yield Path(folder)


def load_catalog(
    extra_dirs: Iterable[str | os.PathLike[str]] = (), include_user: bool = True
) -> CatalogLoadResult:
    """Built-in catalogs, then the user's folder (if it exists), then `extra_dirs`.

    Later files override earlier entries with the same id; duplicate ids inside one folder are
    reported as problems (the later definition still wins).  A missing user folder is normal and
    not a problem; a missing extra folder is.
    """
    loaded, builtin_problem_list = _builtin()
    catalog = Catalog()
    for entry, origin in loaded:
        catalog.add(entry, origin)
    problems = list(builtin_problem_list)
    for index, folder in enumerate(_layers(extra_dirs, include_user)):
        is_user = include_user and index == 0
        if not folder.is_dir():
            if not is_user:
                problems.append(CatalogProblem(str(folder), None, "", "catalog folder not found"))
            continue
        layer, layer_problems = _load_folder(folder)
        problems.extend(layer_problems)
        for entry, origin in layer:
            catalog.add(entry, origin)
    return CatalogLoadResult(catalog, problems)
