"""Step-by-step migrations of older `.fabric` schema versions to the current one.

`MIGRATIONS[n]` turns a version-n document (a plain dict) into version n+1.  Version 1 is the
first published schema, so there is nothing to migrate yet; the machinery is tested with a
synthetic step so the first real migration only has to add its function here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model.fabric import SCHEMA_VERSION

Migration = Callable[[dict[str, Any]], dict[str, Any]]

MIGRATIONS: dict[int, Migration] = {}


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
