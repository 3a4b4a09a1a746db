"""Cable and port identifiers for labels, schedules and CSV exports (cabling.md §1, §7).

Two profiles, chosen by `Settings.label_profile`:

* **TIA-606** (606-B/C data-centre style): a port is `fs.xy-r:p`, e.g. `1A.A05-42:swp3s0`.
  `fs` is `Settings.site`; `xy` the rack's grid coordinate: row as letters (1 -> A, 27 -> AA) and
  position as two digits; `r` the device's position, the lowest RU it occupies counted from
  the bottom (NetBox's position, model/rack_units.py: a 2U switch in units 41-42 is `41`); `p`
  the port.  A cable is `near/far`, near end first.
* **ISO/IEC 14763-2** style (TR 14763-2-1 separators): `+` before the location, `.` between space
  and cabinet, `.U` before the unit and `:` before the port, e.g. `+1A.A05.U42:swp3s0`; a cable is
  `near/far` as well.

A `/` inside a port name (`5/1` on Quantum switches) would clash with the cable separator, so it
becomes `-` inside identifiers (`5-1`); the schedule still prints the port as the NOS names it.
A device that is not in a rack is identified by its name (`1A.gpu-001:p1`, ISO `+1A=gpu-001:p1`)
and `Identifiers.problems` says which devices lack a place.

Cable numbers (`C000123`) are short serials for labels and QR codes; `cable_number(n)` formats
them (the cable plan numbers cables in schedule order).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.document import FabricDocument
from ..model.fabric import Device, LabelProfile, Rack
from ..model.rack_units import position, ru_text


def row_letters(row: int) -> str:
    """Spreadsheet-style letters for a row number: 1 -> A, 26 -> Z, 27 -> AA; 0 -> `0`."""
    if row <= 0:
        return "0"
    letters = ""
    while row > 0:
        row, rest = divmod(row - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def rack_coordinate(rack: Rack) -> str:
    """The rack's grid coordinate `xy`: row letters + two-digit position, e.g. `A05`."""
    return f"{row_letters(rack.row)}{rack.position:02d}"


def port_token(port: str) -> str:
    """A port name made safe inside an identifier (`/` separates cable ends; spaces vanish)."""
    return port.replace("/", "-").replace(" ", "_")


def cable_number(serial: int) -> str:
    """The short cable number printed on labels: `C000123` (more digits past 999,999)."""
    return f"C{serial:06d}"


@dataclass(frozen=True, slots=True)
class Place:
    """Where a device sits, as far as identifiers are concerned."""

    rack: Rack | None
    ru: int | None  # the lowest unit (model/rack_units.py)


class Identifiers:
    """Formats port and cable identifiers of one document in the chosen profile."""

    def __init__(self, doc: FabricDocument, profile: LabelProfile | str | None = None) -> None:
        self.doc = doc
        self.profile = LabelProfile(profile or doc.settings.label_profile)
        self.site = doc.settings.site.strip() or "1A"
        self._coords = {rack.id: rack_coordinate(rack) for rack in doc.racks.values()}
        self._device_prefix: dict[str, str] = {}
        self.problems: list[str] = []
        seen: dict[str, str] = {}
        for rack in sorted(doc.racks.values(), key=lambda r: r.id):
            coord = self._coords[rack.id]
            if coord in seen:
                self.problems.append(
                    f"racks {doc.racks[seen[coord]].name} and {rack.name} share row {rack.row} "
                    f"position {rack.position}: their identifiers ({coord}) are ambiguous"
                )
            else:
                seen[coord] = rack.id

    def place(self, device: Device) -> Place:
        rack = self.doc.racks.get(device.rack) if device.rack else None
        return Place(rack, position(device))

    def device_prefix(self, device_id: str) -> str:
        """Everything before the `:port` part for this device, e.g. `1A.A05-42`."""
        prefix = self._device_prefix.get(device_id)
        if prefix is None:
            prefix = self._make_prefix(self.doc.devices[device_id])
            self._device_prefix[device_id] = prefix
        return prefix

    def _make_prefix(self, device: Device) -> str:
        place = self.place(device)
        iso = self.profile is LabelProfile.ISO_14763
        if place.rack is None:
            self.problems.append(f"device {device.name} is in no rack: its labels use its name")
            return f"+{self.site}={device.name}" if iso else f"{self.site}.{device.name}"
        coord = self._coords[place.rack.id]
        if place.ru is None:
            self.problems.append(
                f"device {device.name} has no RU in rack {place.rack.name}: its labels use its name"
            )
            if iso:
                return f"+{self.site}.{coord}={device.name}"
            return f"{self.site}.{coord}-{device.name}"
        if iso:
            return f"+{self.site}.{coord}.{ru_text(place.ru)}"
        return f"{self.site}.{coord}-{place.ru:02d}"

    def port_id(self, device_id: str, port: str) -> str:
        """The identifier of one port: `fs.xy-r:p` (TIA) or `+fs.xy.Ur:p` (ISO)."""
        return f"{self.device_prefix(device_id)}:{port_token(port)}"

    @staticmethod
    def cable_id(near: str, far: str) -> str:
        """A cable's identifier with the near end first: `near/far`."""
        return f"{near}/{far}"

    @property
    def profile_name(self) -> str:
        return "TIA-606" if self.profile is LabelProfile.TIA_606 else "ISO/IEC 14763-2"
