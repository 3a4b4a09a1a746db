"""The optional host map of `aicnet verify --map`: observed host names -> design device names.

A CSV file with two columns, the name a tool reports and the device's name in the design
(`dgx-a01-07,gpu-001`); a first line `observed,design` is a header; `#` starts a comment line.
"""

from __future__ import annotations

import csv
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..fileio.errors import FabricFileError
from .observed import read_input_text


class _Pair(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    observed: str = Field(min_length=1)
    design: str = Field(min_length=1)


def read_host_map(path: str | Path) -> dict[str, str]:
    file = str(path)
    text = read_input_text(path, "utf-8-sig")
    mapping: dict[str, str] = {}
    for number, row in enumerate(csv.reader(text.splitlines()), start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if number == 1 and [c.lower() for c in cells[:2]] == ["observed", "design"]:
            continue
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
    return mapping
