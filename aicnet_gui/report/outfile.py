"""Write an export file whole or not at all: a temp file in the target folder, then `os.replace`.

A reader (NetBox, CVT, Slurm, draw.io) never sees half a file, and a failed export leaves the
previous file in place.
"""

from __future__ import annotations

import os

from ..fileio.atomic import atomic_output


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to `path` through an exclusive temp file beside it and an atomic rename
    (fileio/atomic.py: never a fixed temp name a planted symlink could redirect)."""
    with atomic_output(path) as handle:
        handle.write(data)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` as UTF-8 (see `write_bytes`)."""
    write_bytes(path, text.encode("utf-8"))
