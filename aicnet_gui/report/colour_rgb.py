"""Cable colour names -> RGB for swatches, and `rrggbb` for NetBox.

Links carry a free-text colour (`blue`, `slate`, `#00a0ff` ...).  The twelve TIA-598 fibre
colour names the generators assign print in the same tones as the GUI; other names come from the
CSS/SVG colour table that reportlab ships; `#rrggbb` is used as written.  The legend always
prints the *name* next to the swatch (colour-blind redundancy, cabling.md §7.6).
"""

from __future__ import annotations

import re
from functools import cache

from reportlab.lib import colors

from ..model.colours import CABLE_COLOURS

_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")
_EXTRA = {
    "grey": (0.5, 0.5, 0.5),
    **{name: (int(v[:2], 16) / 255, int(v[2:4], 16) / 255, int(v[4:], 16) / 255)
       for name, v in CABLE_COLOURS.items()},
}


@cache
def _named() -> dict[str, tuple[float, float, float]]:
    table = {
        name.lower(): (float(c.red), float(c.green), float(c.blue))
        for name, c in colors.getAllNamedColors().items()
        if isinstance(c, colors.Color)
    }
    table.update(_EXTRA)
    return table


def colour_rgb(name: str) -> tuple[float, float, float] | None:
    """RGB 0..1 of a colour name or hex code; None when unknown or empty."""
    if not name:
        return None
    key = name.strip().lower().replace(" ", "").replace("-", "")
    match = _HEX.match(key)
    if match:
        value = int(match.group(1), 16)
        return ((value >> 16) / 255.0, ((value >> 8) & 255) / 255.0, (value & 255) / 255.0)
    return _named().get(key)


def colour_hex(name: str) -> str:
    """`rrggbb` (NetBox's cable colour format) or '' when unknown."""
    rgb = colour_rgb(name)
    if rgb is None:
        return ""
    return "".join(f"{round(c * 255):02x}" for c in rgb)
