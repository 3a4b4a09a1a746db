"""What a cable being drawn starts from, and a cache of port checks against it.

The wire interaction (`interactions/wire.py`) owns one while the drag lasts and hands it to the
device items (`DeviceItem.set_wire`), which paint each port as a valid target or not.
"""

from __future__ import annotations

from collections.abc import Callable

PortKey = tuple[str, str]


class WireState:
    """The fixed end of the cable being drawn, the cable whose end moves (if any), the port
    under the mouse, and the answer of `check` for every port asked about."""

    def __init__(self, source_key: PortKey, fixed_key: PortKey, moving_link: str | None,
                 moving_end: str | None, check: Callable[[PortKey], str | None]) -> None:
        self.source_key = source_key
        self.fixed_key = fixed_key
        self.moving_link = moving_link
        self.moving_end = moving_end
        self.hover_key: PortKey | None = None
        self.includes_management = False
        self._check = check
        self._cache: dict[PortKey, str | None] = {}

    def problem(self, device: str, port: str) -> str | None:
        key = (device, port)
        if key not in self._cache:
            self._cache[key] = self._check(key)
        return self._cache[key]
