"""Which catalog files an installation reads and at which version (for Help > About and
`aicnet --version`-style listings): the built-in files and the user's folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from ..paths import data_dir
from .loader import CATALOG_VERSION, catalog_files, user_catalog_path


@dataclass(frozen=True)
class CatalogFileVersion:
    """One catalog file: its path relative to its folder, its `version` and how many entries it
    holds (None where the file cannot be read; the catalog loader reports why)."""

    name: str
    version: int | None
    entries: int | None


def file_versions(folder: Path) -> list[CatalogFileVersion]:
    """The catalog files below `folder` with their versions, in load order."""
    out = []
    for path in catalog_files(folder):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            data = None
        version = data.get("version") if isinstance(data, dict) else None
        entries = data.get("entries") if isinstance(data, dict) else None
        out.append(CatalogFileVersion(
            path.relative_to(folder).as_posix(),
            version if isinstance(version, int) and not isinstance(version, bool) else None,
            len(entries) if isinstance(entries, list) else None))
    return out


@dataclass(frozen=True)
class CatalogVersions:
    """The format version this aicnet reads, the built-in files, and the user's folder."""

    reads_up_to: int
    builtin: list[CatalogFileVersion]
    user_folder: Path
    user: list[CatalogFileVersion]


def catalog_versions() -> CatalogVersions:
    folder = user_catalog_path()
    return CatalogVersions(CATALOG_VERSION, file_versions(data_dir("catalogs")), folder,
                           file_versions(folder))
