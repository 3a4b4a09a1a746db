"""Where aicnet finds its data files, from a checkout and from an installed wheel.

In a wheel the top-level folders `catalogs/`, `resources/` and `examples/` are installed as
`aicnet_gui/_data/<name>`; in a checkout they sit next to the package.
"""

from __future__ import annotations

from pathlib import Path

import platformdirs

_PACKAGE_DIR = Path(__file__).resolve().parent
APP_NAME = "aicnet"


def data_dir(name: str) -> Path:
    """The folder `name` (`catalogs`, `resources` or `examples`) of this installation."""
    installed = _PACKAGE_DIR / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE_DIR.parent / name


def user_catalog_dir() -> Path:
    """The per-user folder for the user's own catalog YAML files (may not exist yet)."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "catalogs"


def user_state_dir() -> Path:
    """The per-user folder for recovery files and recent-file lists."""
    return Path(platformdirs.user_state_dir(APP_NAME))
