"""Words for messages people read: counted nouns (`1 cable`, `3 leaves`, `2 switches`), rack
units, NVLink domains, lengths in metres (`fmt_m`).  Pure Python, shared by the findings, the
reports and the editor."""

from __future__ import annotations

#: plurals that do not just add -s or -es
_IRREGULAR: dict[str, str] = {"leaf": "leaves", "info": "info", "GPU": "GPUs"}


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


def ru_span(low: int, high: int) -> str:
    """The rack units a device takes: `RU 44` for one, `RU 41-44` for several."""
    return f"RU {low}" if high <= low else f"RU {low}-{high}"


def nvlink_domain(gpus: int | None) -> str:
    """`one NVLink domain of 72 GPUs`, or "" when the size is not known."""
    return f"one NVLink domain of {gpus} GPUs" if gpus else ""


def fmt_m(value: float | None) -> str:
    """12.0 -> '12', 1.5 -> '1.5', None -> 'unknown'."""
    if value is None:
        return "unknown"
    return f"{value:g}"
