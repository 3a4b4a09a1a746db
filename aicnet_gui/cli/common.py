"""Helpers shared by the `aicnet` sub-commands: exit codes, loading a document, printing."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson

from ..catalog.loader import load_catalog
from ..fileio import load_fabric
from ..model.catalog import Catalog
from ..model.document import FabricDocument

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


class CliError(Exception):
    """Bad usage or input that the command explains in one line (exit code 2)."""


def catalog_with_warnings() -> Catalog:
    """The built-in and user catalogs; problems in catalog files are printed, not fatal."""
    result = load_catalog()
    for problem in result.problems:
        print(f"aicnet: warning: {problem}", file=sys.stderr)
    return result.catalog


def open_document(path: str | Path) -> FabricDocument:
    return load_fabric(path, catalog_with_warnings())


def print_json(data: Any) -> None:
    sys.stdout.write(orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode())
    sys.stdout.write("\n")
