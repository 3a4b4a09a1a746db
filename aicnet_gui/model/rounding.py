"""One way to round lengths, everywhere (the cable schedule, the BOM, the canvas, messages):
decimal half-up, on the number as written (1.65 -> 1.7 and 1.75 -> 1.8; float `round()` gives
1.6 for 1.65 because 1.65 is stored as 1.6499999...)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def half_up(value: float, places: int = 1) -> float:
    """`value` rounded to `places` decimals, halves away from zero."""
    step = Decimal(1).scaleb(-places)
    return float(Decimal(repr(value)).quantize(step, rounding=ROUND_HALF_UP))


def metres(value: float, places: int = 1) -> str:
    """A length in metres as text, rounded half-up, without trailing zeros: 1.65 -> '1.7',
    12.0 -> '12', 5.11 -> '5.1'."""
    text = f"{half_up(value, places):.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
