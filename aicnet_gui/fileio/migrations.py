"""Step-by-step migrations of older `.fabric` schema versions to the current one.

`MIGRATIONS[n]` turns a version-n document (a plain dict) into version n+1.

- 1 -> 2: a link end is written `["gpu-001", "p1"]` instead of
  `{"device": "gpu-001", "port": "p1"}` (a fifth smaller file, and faster to read and write).
- 2 -> 3: a run of cages with the same configuration may be one entry keyed `"first-last"`
  (model/cage_tables.py; a sixth smaller file).  A version-2 file is a valid version-3 file,
  so it is read as one (`READ_AS_CURRENT`).
- 3 -> 4: a design may carry the requirement a study chose it for (`requirement`, written
  only when there is one), and the fabric's load-balancing mode is a setting
  (`settings.load_balancing`: ecmp,
  flowlet, adaptive, spray) instead of words in the free-text ECMP policy; a version-3 file gets
  the mode its policy names (`model.load_balancing_modes.mode_of_policy`: "adaptive routing" ->
  adaptive, "5-tuple hash" -> ecmp).  A version-3 file is otherwise a valid version-4 file: it is
  read as one and the mode set on the validated settings (`upgrade_validated`), so big files
  keep the fast path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model.fabric import SCHEMA_VERSION, Fabric
from ..model.load_balancing_modes import mode_of_policy

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


def load_balancing_from_policy(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 -> 4: `settings.load_balancing` from the words of `settings.ecmp_policy`
    (anything not a dict is left for validation to report)."""
    settings = data.get("settings")
    if isinstance(settings, dict) and "load_balancing" not in settings:
        policy = settings.get("ecmp_policy", "adaptive routing")
        settings["load_balancing"] = mode_of_policy(policy if isinstance(policy, str) else None)
    return data


MIGRATIONS: dict[int, Migration] = {1: ends_as_pairs, 2: _unchanged, 3: load_balancing_from_policy}
#: versions whose files the current schema reads as they are (then `upgrade_validated`)
READ_AS_CURRENT = frozenset({2, 3, SCHEMA_VERSION})


def upgrade_validated(fabric: Fabric) -> Fabric:
    """A fabric of a version in READ_AS_CURRENT, validated as the current schema, with what the
    migrations since its version add (the file said nothing of them, so the model's defaults
    stand in): before version 4, the load-balancing mode its ECMP policy names."""
    if fabric.schema_version < 4 and "load_balancing" not in fabric.settings.model_fields_set:
        mode = mode_of_policy(fabric.settings.ecmp_policy)
        fabric.settings = fabric.settings.model_copy(update={"load_balancing": mode})
    return fabric


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
