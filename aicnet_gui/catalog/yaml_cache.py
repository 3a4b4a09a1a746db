"""The built-in catalog's YAML, parsed once and kept in the user's cache folder as JSON.

Every `aicnet` command and every editor start reads the built-in catalog (14 YAML files);
parsing them was most of the catalog's cost.  `YamlCache` keeps what the YAML parser returned
for each file, keyed by the SHA-256 of the file's bytes, in one JSON file in the user cache
folder (`platformdirs.user_cache_dir("aicnet")`, or `$AICNET_CACHE_DIR`).  The loader then
validates the cached data exactly as it validates freshly parsed data, so the entries and the
problems reported are the same either way.

Why this form:
- **invalidated by content**: a file whose bytes changed has another key and is parsed again;
  the cache also names the aicnet version and the PyYAML files it was made with, and a cache from
  others is ignored whole;
- **JSON, not pickle**: the cache holds plain data (mappings, lists, strings, numbers), read
  with orjson, never code or objects of our classes, so a cache written by another version of
  the code can be stale in no way but its key, and a file planted in the cache folder cannot
  run anything.  Only documents that JSON gives back exactly are kept (mappings keyed by
  integers are noted and restored; a YAML date or a number beyond 64 bits is parsed every
  time);
- **safe to lose**: written atomically (a temporary file in the same folder, then `os.replace`),
  a cache that cannot be read or does not parse is ignored and written anew, a folder that
  cannot be written means no cache, never an error.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import math
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import platformdirs

from .. import __version__

CACHE_ENV = "AICNET_CACHE_DIR"
CACHE_NAME = "catalog-yaml.json"
_FORMAT = "aicnet.catalog-yaml-cache"
_STALE_TEMP_S = 3600.0  # a temporary file this old was left by a killed process


def cache_folder() -> Path:
    override = os.environ.get(CACHE_ENV)
    return Path(override).expanduser() if override else Path(platformdirs.user_cache_dir("aicnet"))


def _stamp() -> dict[str, Any]:
    return {"format": _FORMAT, "aicnet": __version__, "yaml": _yaml_stamp()}


@functools.lru_cache(maxsize=1)
def _yaml_stamp() -> str:
    """PyYAML as installed, without importing it (a cache hit never needs it): the digest of
    its `__init__.py` (which states its version) and the names of its files (libyaml's
    extension among them)."""
    spec = importlib.util.find_spec("yaml")
    if spec is None or spec.origin is None:
        return ""
    origin = Path(spec.origin)
    try:
        names = sorted(path.name for path in origin.parent.iterdir())
        return hashlib.sha256(origin.read_bytes() + "\0".join(names).encode()).hexdigest()
    except OSError:
        return ""


KeyPath = list[str | int]  # dict keys and list indices from the document's root


def _int_key_paths(value: Any) -> list[KeyPath] | None:
    """Where the document has mappings keyed by integers (a catalog's per-cage tables), outer
    ones first; None when JSON cannot give the document back exactly otherwise (a date, a
    number beyond 64 bits, a mapping with keys of mixed or other types)."""
    paths: list[KeyPath] = []
    stack: list[tuple[Any, KeyPath]] = [(value, [])]
    while stack:
        item, path = stack.pop()
        if item is None or isinstance(item, str | bool):
            continue
        if isinstance(item, int):
            if not -(2**63) <= item < 2**63:
                return None
        elif isinstance(item, float):
            if not math.isfinite(item):
                return None
        elif isinstance(item, list):
            stack.extend((child, [*path, index]) for index, child in enumerate(item))
        elif isinstance(item, dict):
            if item and all(type(key) is int for key in item):
                paths.append(path)
            elif not all(isinstance(key, str) for key in item):
                return None
            stack.extend((child, [*path, key]) for key, child in item.items())
        else:
            return None
    return sorted(paths, key=len)


def _restore_int_keys(document: Any, paths: list[KeyPath]) -> Any:
    for path in paths:
        if not path:
            document = {int(key): child for key, child in document.items()}
            continue
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = {int(key): child for key, child in parent[path[-1]].items()}
    return document


class YamlCache:
    """Parsed YAML documents by the digest of their bytes."""

    def __init__(self, path: Path | None, documents: dict[str, Any] | None = None) -> None:
        self.path = path
        self._stored = documents or {}
        self._used: dict[str, Any] = {}
        self._changed = False

    @classmethod
    def open(cls) -> YamlCache:
        """The cache of this user, or an empty one when there is none or it is not ours."""
        path = cache_folder() / CACHE_NAME
        try:
            data = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return cls(path)
        if (not isinstance(data, dict) or data.get("stamp") != _stamp()
                or not isinstance(data.get("documents"), dict)):
            return cls(path)
        return cls(path, data["documents"])

    @staticmethod
    def key(raw: bytes) -> str:
        return hashlib.sha256(raw).hexdigest()

    def get(self, raw: bytes) -> Any | None:
        """The document parsed from these bytes, if the cache has it."""
        key = self.key(raw)
        stored = self._stored.get(key)
        if not isinstance(stored, dict) or "document" not in stored:
            return None
        self._used[key] = stored
        try:  # in place (saved again, the integer keys go back to text)
            stored["document"] = _restore_int_keys(stored["document"], stored.get("int_keys", []))
            return stored["document"]
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return None

    def put(self, raw: bytes, document: Any) -> None:
        """Remember a freshly parsed document (if JSON keeps it exactly)."""
        paths = _int_key_paths(document)
        if paths is not None:
            self._used[self.key(raw)] = {"document": document, "int_keys": paths}
            self._changed = True

    def save(self) -> None:
        """Write the documents this run used (dropping those of files that changed), when any
        was new; quietly nothing when the folder cannot be written."""
        if self.path is None or (not self._changed and len(self._used) == len(self._stored)):
            return
        data = orjson.dumps({"stamp": _stamp(), "documents": self._used},
                            option=orjson.OPT_NON_STR_KEYS)
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            _remove_stale_temps(folder)
            handle, temp = tempfile.mkstemp(prefix=".catalog-", suffix=".tmp", dir=folder)
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(data)
                os.replace(temp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise
        except OSError:
            return
        self._stored, self._changed = dict(self._used), False


def _remove_stale_temps(folder: Path) -> None:
    now = time.time()
    for temp in folder.glob(".catalog-*.tmp"):
        with contextlib.suppress(OSError):
            if now - temp.stat().st_mtime > _STALE_TEMP_S:
                temp.unlink()
