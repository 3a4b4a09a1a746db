"""Step-by-step migrations of older `.fabric` schema versions to the current one.

`MIGRATIONS[n]` turns a version-n document (a plain dict) into version n+1.

- 1 -> 2: a link end is written `["gpu-001", "p1"]` instead of
  `{"device": "gpu-001", "port": "p1"}` (a fifth smaller file, and faster to read and write).
- 2 -> 3: a run of cages with the same configuration may be one entry keyed `"first-last"`
  (model/cage_tables.py; a sixth smaller file).  A version-2 file is a valid version-3 file,
  so it is read as one (`READ_AS_CURRENT`).
- 3 -> 4: a design may carry the requirement a study chose it for (`requirement`, written
  only when there is one).  A version-3 file has none and is a valid version-4 file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model.fabric import SCHEMA_VERSION

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def ends_as_pairs(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 -> 2: link ends from objects to [device, port] pairs (anything else is left
    for validation to report).  Reading applies it to every version: a hand-written file may
    still spell an end `{"device": ..., "port": ...}`."""
    links = data.get("links")
    if isinstance(links, list):
        for link in links:
            if not isinstance(link, dict):
                continue
            for side in ("a", "b"):
                end = link.get(side)
                if isinstance(end, dict) and set(end) == {"device", "port"}:
                    link[side] = [end["device"], end["port"]]
    return data


def _unchanged(data: dict[str, Any]) -> dict[str, Any]:
    return data


MIGRATIONS: dict[int, Migration] = {1: ends_as_pairs, 2: _unchanged, 3: _unchanged}
#: versions whose files the current schema reads as they are
READ_AS_CURRENT = frozenset({2, 3, SCHEMA_VERSION})


class MigrationError(ValueError):
    """A version with no migration path to the current schema."""


def migrate(data: dict[str, Any], migrations: dict[int, Migration] | None = None,
            target: int = SCHEMA_VERSION) -> dict[str, Any]:
    steps = MIGRATIONS if migrations is None else migrations
    version = data.get("schema_version")
    while version < target:
        step = steps.get(version)
        if step is None:
            raise MigrationError(f"no migration from schema version {version} to {version + 1}")
        data = step(data)
        version += 1
        data["schema_version"] = version
    return data
