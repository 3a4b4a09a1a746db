"""Small text helpers shared by the editor (pure Python): speeds, counted nouns, natural sort keys."""

from __future__ import annotations

from ..generators.canvas_layout import natural_key
from ..model.wording import counted, plural

__all__ = ["counted", "natural_key", "plural", "speed_label"]


def speed_label(speed_gbps: int) -> str:
    """`400` -> `400G`, `1600` -> `1.6T`."""
    if speed_gbps >= 1000 and speed_gbps % 100 == 0 and speed_gbps % 1000:
        return f"{speed_gbps / 1000:g}T"
    return f"{speed_gbps}G"
