"""Small text helpers shared by the editor (pure Python): speeds, counted nouns, natural sort keys."""

from __future__ import annotations

from ..generators.layout import natural_key

__all__ = ["counted", "natural_key", "plural", "speed_label"]

#: plurals that do not just add -s or -es
_IRREGULAR: dict[str, str] = {"leaf": "leaves", "info": "info", "GPU": "GPUs"}


def speed_label(speed_gbps: int) -> str:
    """`400` -> `400G`, `1600` -> `1.6T`."""
    if speed_gbps >= 1000 and speed_gbps % 100 == 0 and speed_gbps % 1000:
        return f"{speed_gbps / 1000:g}T"
    return f"{speed_gbps}G"


def plural(noun: str) -> str:
    """The plural of `noun` (its last word): `cable` -> `cables`, `core switch` -> `core switches`,
    `leaf` -> `leaves`, `rack entry` -> `rack entries`."""
    head, _, last = noun.rpartition(" ")
    if last in _IRREGULAR:
        word = _IRREGULAR[last]
    elif last.endswith(("s", "x", "ch", "sh")):
        word = last + "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        word = last[:-1] + "ies"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word


def counted(n: int, noun: str, many: str | None = None) -> str:
    """`n` and `noun`, plural unless n is 1: `1 cable`, `0 cables`, `3 leaves`; `many` overrides
    the plural (`counted(n, "person", "people")`)."""
    return f"{n} {noun if n == 1 else (many or plural(noun))}"
