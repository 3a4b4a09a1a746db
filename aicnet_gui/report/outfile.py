"""Write an export file whole or not at all: a temp file in the target folder, then `os.replace`.

A reader (NetBox, CVT, Slurm, draw.io) never sees half a file, and a failed export leaves the
previous file in place.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to `path` through `.<name>.part` in the same folder and an atomic rename."""
    target = Path(path)
    temp = target.with_name(f".{target.name}.part")
    try:
        with open(temp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` as UTF-8 (see `write_bytes`)."""
    write_bytes(path, text.encode("utf-8"))
