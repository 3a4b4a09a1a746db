"""The twelve TIA-598 fibre colours: cable colour names and the tones screen and print share.

Generators give rail *i* the *i*-th colour; the canvas and the PDF draw a named colour with the
same tone, and the PDF legend prints the name next to the swatch.
"""

from __future__ import annotations

#: name -> `rrggbb`, in TIA-598 fibre order (rail 1 = blue, rail 2 = orange ...).
CABLE_COLOURS: dict[str, str] = {
    "blue": "1c7ed6",
    "orange": "f76707",
    "green": "2f9e44",
    "brown": "8d5b3a",
    "slate": "5c677d",
    "white": "ced4da",
    "red": "e03131",
    "black": "212529",
    "yellow": "f5c000",
    "violet": "7048e8",
    "rose": "e64980",
    "aqua": "15aabf",
}


_NAMES = tuple(CABLE_COLOURS)


def rail_colour(rail: int | None) -> str | None:
    """The colour name of rail `rail` (1-based), cycling after twelve rails."""
    if rail is None or rail < 1:
        return None
    return _NAMES[(rail - 1) % len(_NAMES)]
