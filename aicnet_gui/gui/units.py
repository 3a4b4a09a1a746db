"""Small text helpers shared by the editor (pure Python): speeds, lengths, natural sort keys."""

from __future__ import annotations

import re

_DIGITS = re.compile(r"(\d+)")


def speed_label(speed_gbps: int) -> str:
    """`400` -> `400G`, `1600` -> `1.6T`."""
    if speed_gbps >= 1000 and speed_gbps % 100 == 0 and speed_gbps % 1000:
        return f"{speed_gbps / 1000:g}T"
    return f"{speed_gbps}G"


def natural_key(text: str) -> tuple:
    """Sort `gpu-2` before `gpu-10`."""
    return tuple(int(part) if part.isdigit() else part.lower() for part in _DIGITS.split(text))
