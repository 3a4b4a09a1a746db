"""Helpers shared by the `aicnet` sub-commands: exit codes, loading a document, printing.

Imported by every command at start-up, so it imports the catalog, the file reader and orjson
only where they are used (cli/__init__.py says why).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from ..catalog.loader import load_catalog

    result = load_catalog()
    for problem in result.problems:
        print(f"aicnet: warning: {problem}", file=sys.stderr)
    return result.catalog


def open_document(path: str | Path, parallel: bool = True) -> FabricDocument:
    """The design in `path`, its catalog's problems printed; `parallel`: a big file's links are
    read in halves, one in a forked child, where that helps (fileio/pieces.py)."""
    from ..fileio import load_fabric

    return load_fabric(path, catalog_with_warnings(), parallel=parallel)


def open_two_documents(first: str | Path, second: str | Path,
                       with_first: Callable[[FabricDocument], Any] | None = None,
                       ) -> tuple[FabricDocument, FabricDocument, Any]:
    """`open_document` of both files, in that order (errors too: the first file's first), and
    what `with_first(the first document)` gives, called as soon as it is read (None without
    it).  The second file's lines that are the first's byte for byte take the first's values
    (fileio/pieces.py): the same documents, without parsing 300k shared links twice."""
    from ..fileio import load_fabric

    old = open_document(first)
    extra = with_first(old) if with_first is not None else None
    try:
        new = load_fabric(second, catalog_with_warnings(), like=old)
    except BaseException:
        close = getattr(extra, "close", None)  # work started on the first file (a forked child)
        if close is not None:
            close()
        raise
    return old, new, extra


def print_json(data: Any) -> None:
    """`data` as indented JSON on stdout; the UTF-8 bytes go straight to the binary stream when
    there is one (`validate --json` of 300k links is ~100 MB: no second copy as a str), its
    `Streamed` members a chunk at a time (json_stream.py)."""
    from ..json_stream import write_json

    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        pieces: list[bytes] = []
        write_json(data, pieces.append)
        sys.stdout.write(b"".join(pieces).decode())
        sys.stdout.write("\n")
        return
    sys.stdout.flush()
    write_json(data, buffer.write)
    buffer.write(b"\n")
    buffer.flush()


def price_list_for(explicit: str | None, design: str | None):  # -> PriceList | None
    """The price list of a command: `--prices FILE`, else the one found next to the design or
    in the user catalog folder (catalog/prices.py), else None; a bad file is a CliError."""
    from ..catalog.prices import PriceListError, find_price_list, load_price_list

    path = explicit if explicit is not None else find_price_list(design)
    if path is None:
        return None
    try:
        return load_price_list(path)
    except PriceListError as exc:
        raise CliError(str(exc)) from None

