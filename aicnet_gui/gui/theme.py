"""Colours, sizes and fonts of the editor in one place (gui layer, no widgets).

Ports and links are coloured by speed; ports show their state (free: hollow, used: filled); roles
have one colour each (palette icons, the stripe on a device).  Every pen the canvas uses is
opaque: semi-transparent pens are several times slower to rasterise
(shared/reference/performance.md §6).
"""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QColor, QFont

from ..model.colours import CABLE_COLOURS

# ---------------------------------------------------------------- speeds
#: (lowest speed in Gb/s, label, colour) from fast to slow; a port takes the first row it reaches.
SPEED_COLOURS: tuple[tuple[int, str, str], ...] = (
    (1600, "1.6T", "#b71c1c"),
    (800, "800G", "#e8590c"),
    (400, "400G", "#7b2cbf"),
    (200, "200G", "#1c7ed6"),
    (100, "100G", "#0b8a7d"),
    (25, "25-50G", "#8d6e63"),
    (0, "1-10G", "#868e96"),
)


def speed_colour_hex(speed_gbps: int) -> str:
    for floor, _label, colour in SPEED_COLOURS:
        if speed_gbps >= floor:
            return colour
    return SPEED_COLOURS[-1][2]


@cache
def speed_colour(speed_gbps: int) -> QColor:
    return QColor(speed_colour_hex(speed_gbps))


@cache
def speed_fill_light(speed_gbps: int) -> QColor:
    """The pale tint of a speed colour used for free ports."""
    base = speed_colour(speed_gbps)
    return QColor.fromRgbF(
        1 - (1 - base.redF()) * 0.18, 1 - (1 - base.greenF()) * 0.18, 1 - (1 - base.blueF()) * 0.18
    )


# ---------------------------------------------------------------- roles
ROLE_COLOURS: dict[str, str] = {
    "gpu_server": "#2f9e44",
    "storage": "#8d5b3a",
    "leaf": "#1971c2",
    "spine": "#6741d9",
    "core": "#c2255c",
    "mgmt": "#5c677d",
}
ROLE_TITLES: dict[str, str] = {
    "gpu_server": "GPU servers",
    "storage": "Storage",
    "leaf": "Leaf switches",
    "spine": "Spine switches",
    "core": "Core switches",
    "mgmt": "Management",
}
TECH_TITLES = {"infiniband": "InfiniBand", "rocev2": "RoCEv2", "ethernet": "Ethernet"}
"""How the fabric technologies are written in the editor."""
ROLE_SINGULAR: dict[str, str] = {
    "gpu_server": "GPU server",
    "storage": "storage node",
    "leaf": "leaf",
    "spine": "spine",
    "core": "core switch",
    "mgmt": "management switch",
}
TIER_TITLES: dict[int, str] = {3: "Core", 2: "Spine", 1: "Leaf", 0: "Servers"}


@cache
def role_colour(role: str) -> QColor:
    return QColor(ROLE_COLOURS.get(role, "#5c677d"))


# ---------------------------------------------------------------- canvas
CANVAS_BG = QColor("#f8f9fb")
GRID_MINOR = QColor("#eceff3")
GRID_MAJOR = QColor("#dfe3e9")
BAND_FILLS = (QColor("#f1f4f8"), QColor("#f8f9fb"))
BAND_TEXT = QColor("#8a94a6")
DEVICE_FILL = QColor("#ffffff")
DEVICE_BORDER = QColor("#9aa5b1")
DEVICE_TEXT = QColor("#1f2933")
DEVICE_SUBTEXT = QColor("#616e7c")
SELECTION = QColor("#1864ab")
SELECTION_HALO = QColor("#a5d8ff")
PORT_FREE_FILL = QColor("#ffffff")
PORT_NONFABRIC = QColor("#adb5bd")
TARGET_OK = QColor("#2b8a3e")
TARGET_BAD = QColor("#e03131")
TARGET_BAD_FILL = QColor("#ffe3e3")
SOURCE_PORT = QColor("#f59f00")
RACK_FRAME = QColor("#495057")
RACK_FILL = QColor("#e9ecef")
RACK_SLOT = QColor("#dee2e6")
UNPLACED_FILL = QColor("#fff9db")

SEVERITY_COLOURS: dict[str, QColor] = {
    "error": QColor("#e03131"),
    "warning": QColor("#f08c00"),
    "info": QColor("#1c7ed6"),
}
ERROR_HALO = QColor("#ffc9c9")
WARNING_HALO = QColor("#ffe8a1")
HIGHLIGHTS: dict[str, QColor] = {
    "member": QColor("#96f2d7"),  # servers of the workload shown in the workloads panel
    "bottleneck": QColor("#ff8787"),  # the switch that limits its bandwidth
}

# ---------------------------------------------------------------- colour modes of the canvas
TIER_PAIR_COLOURS: dict[int, tuple[str, str]] = {
    0: ("server - leaf", "#2f9e44"),
    1: ("leaf - spine", "#1971c2"),
    2: ("spine - core", "#c2255c"),
}
RAIL_COLOURS: tuple[str, ...] = (
    "#1c7ed6", "#f76707", "#2f9e44", "#8d5b3a", "#5c677d", "#e64980",
    "#7048e8", "#15aabf", "#e03131", "#f5c000", "#212529", "#94d82d",
)
NO_RAIL = "#adb5bd"
OVERSUB_CLASSES: tuple[tuple[str, str], ...] = (
    ("within target", "#2f9e44"),
    ("up to 1.5x target", "#f08c00"),
    ("over 1.5x target", "#e03131"),
    ("no ratio (top tier)", "#adb5bd"),
)


def rail_colour_hex(rail: int | None) -> str:
    if rail is None or rail < 1:
        return NO_RAIL
    return RAIL_COLOURS[(rail - 1) % len(RAIL_COLOURS)]


def oversub_class(ratio: float | None, target: float) -> int:
    """0 within target, 1 up to 1.5x, 2 above, 3 unknown (no uplinks)."""
    if ratio is None:
        return 3
    if ratio <= target + 1e-9:
        return 0
    return 1 if ratio <= 1.5 * target + 1e-9 else 2


GRID_STEP = 20.0
"""Grid pitch of the topology canvas in scene units; moves snap to it."""

LINK_WIDTH = 1.6
"""Cosmetic width of one cable line in pixels."""

# Named link colours a user can pick in the inspector (TIA-598 jacket colours, shared with print).
LINK_COLOURS: dict[str, str] = {name: f"#{tone}" for name, tone in CABLE_COLOURS.items()}


def link_colour_hex(name: str | None) -> str | None:
    """The hex colour of a link colour name or `#rrggbb` string (None if not a colour)."""
    if not name:
        return None
    if name in LINK_COLOURS:
        return LINK_COLOURS[name]
    colour = QColor(name)
    return colour.name() if colour.isValid() else None


@cache
def font(size: float = 9.0, bold: bool = False) -> QFont:
    f = QFont()
    f.setPointSizeF(size)
    f.setBold(bold)
    return f
