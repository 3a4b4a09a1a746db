"""The optional host map of `aicnet verify --map`: observed host names -> design device names.

A CSV file with two columns, the name a tool reports and the device's name in the design
(`dgx-a01-07,gpu-001`); a first line `observed,design` is a header; `#` starts a comment line.
Bounded (`limits.py`): 64 MiB, 1,000,000 lines, 65,536 characters a name.
"""

from __future__ import annotations

import csv
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..fileio.errors import FabricFileError
from .limits import MAX_CELL_CHARS, MAX_HOSTMAP_BYTES, MAX_HOSTMAP_ROWS
from .observed import read_input_text


class _Pair(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    observed: str = Field(min_length=1)
    design: str = Field(min_length=1)


def read_host_map(path: str | Path) -> dict[str, str]:
    file = str(path)
    text = read_input_text(path, "utf-8-sig", MAX_HOSTMAP_BYTES)
    mapping: dict[str, str] = {}
    reader = csv.reader(text.splitlines())
    try:
        for number, row in enumerate(reader, start=1):
            _pair(file, number, row, mapping)
    except csv.Error as exc:
        raise FabricFileError(file, f"not CSV: {exc}", f"line {reader.line_num}") from None
    return mapping


def _pair(file: str, number: int, row: list[str], mapping: dict[str, str]) -> None:
    """One line of the host map into `mapping` (comments, the header and blank lines skipped)."""
    if number > MAX_HOSTMAP_ROWS:
        raise FabricFileError(file, f"more than {MAX_HOSTMAP_ROWS:,} lines", f"line {number}")
    if any(len(cell) > MAX_CELL_CHARS for cell in row):
        raise FabricFileError(file, f"a name longer than {MAX_CELL_CHARS:,} characters",
                              f"line {number}")
    cells = [c.strip() for c in row]
    if not any(cells) or cells[0].startswith("#"):
        return
    if number == 1 and [c.lower() for c in cells[:2]] == ["observed", "design"]:
        return
    if len(cells) != 2:
        raise FabricFileError(file, "expected two columns: observed name, design name",
                              f"line {number}")
    try:
        pair = _Pair(observed=cells[0], design=cells[1])
    except ValidationError:
        raise FabricFileError(file, "a name is empty", f"line {number}") from None
    if pair.observed in mapping and mapping[pair.observed] != pair.design:
        raise FabricFileError(file, f"{pair.observed} is mapped twice", f"line {number}")
    mapping[pair.observed] = pair.design
