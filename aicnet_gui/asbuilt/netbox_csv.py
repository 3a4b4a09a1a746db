"""Read a NetBox cable CSV into observed links: NetBox's own cable list export, or the cables.csv
that `aicnet export --netbox` writes for NetBox 4.5 or 4.4.

Layouts (the header decides):

* NetBox's cable table export (Connections > Cables > Export; `dcim/tables/cables.py`,
  `CableTable`): columns under their verbose names, `Device A`, `Termination A`, `Device B`,
  `Termination B`, `Status`, `Profile` (NetBox 4.5).  Statuses and profiles are their display
  labels (`Connected`, `Planned`; `1C2P`, `1C2P:2C1P breakout`, `2C1P trunk`).  A termination
  column joins several terminations with commas, and so does a device column when the
  terminations of one end are on several devices (`CableTerminationsColumn.value`: a set, so in
  no set order).  The `Device A/B` columns are not in the table's default set: add them
  (Configure Table) before exporting.
* The bulk-import layout aicnet writes (`side_a_device`, `side_a_name`, ..., `status`, and for
  NetBox 4.5 `profile`), with the choice values (`connected`, `planned`; `single-1c2p`).

A NetBox 4.5 cable profile maps the positions of each end (`dcim/cable_profiles.py`): a
`single-1cNp` cable between two unsplit interfaces carries N links, position p to position p (a
twin-port DAC between two 2x400G cages, `swp9` - `swp1`, is `swp9s0-swp1s0` and
`swp9s1-swp1s1`); a `breakout-1cNp-Nc1p` cable carries position i of its A interface to its i-th
B termination; a `trunk-McNp` cable connector i to connector i.  An observed end on a position
names the unsplit interface and the position (`ObservedEnd.position`); `compare` finds the
breakout leg it is.  A breakout cable's B terminations come in no known order in NetBox's own
export, so its A end is "some leg of that cage" (position 0), matched to the leg planned for its
B end.  Shuffle profiles are read as the cable's terminations without positions.

Statuses: `connected` and `planned` cables are read (a NetBox that holds the plan imported by
aicnet has every cable `planned` until installers mark it), `decommissioning` ones are not; the
counts go to the notes.  `connected_only` reads only connected cables (planned ones are not
installed yet), also said in the notes.  Without a status column every row counts.  NetBox
knows no link speed.

Bounded like every other input (`asbuilt/limits.py`): file size, rows, cells per row and the
length of a cell; a refusal names the file and the line.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from ..fileio.errors import FabricFileError
from .limits import MAX_CABLE_ROWS, MAX_CELL_CHARS, MAX_CELLS, MAX_TERMINATIONS
from .observed import Observation, ObservedEnd, ObservedLink, read_input_text


class Layout(NamedTuple):
    device_a: str
    ports_a: str
    device_b: str
    ports_b: str
    status: str
    profile: str


LAYOUTS: tuple[Layout, ...] = (
    Layout("Device A", "Termination A", "Device B", "Termination B", "Status", "Profile"),
    Layout("side_a_device", "side_a_name", "side_b_device", "side_b_name", "status", "profile"),
)
READ_STATUSES = frozenset({"connected", "planned", ""})
PROFILE_SLUG = re.compile(r"^(single|trunk|breakout)-(\d+)c(\d+)p(?:-(\d+)c(\d+)p)?(-shuffle)?$")
PROFILE_LABEL = re.compile(r"^(\d+)C(\d+)P(?::(\d+)C(\d+)P)?(?: (trunk|breakout))?( \(shuffle\))?$",
                           re.IGNORECASE)


class Profile(NamedTuple):
    """A NetBox 4.5 cable profile: connectors x positions at A, and at B."""

    a_connectors: int
    a_positions: int
    b_connectors: int
    b_positions: int
    shuffle: bool


def parse_profile(text: str) -> Profile | None:
    """A profile from its slug (`single-1c2p`, `breakout-1c4p-4c1p`, `trunk-2c4p`) or its
    display label (`1C2P`, `1C4P:4C1P breakout`, `2C4P trunk`); None for none or unknown."""
    value = text.strip()
    if not value:
        return None
    match = PROFILE_SLUG.match(value.lower())
    if match:
        a_c, a_p = int(match.group(2)), int(match.group(3))
        b_c, b_p = (int(match.group(4)), int(match.group(5))) if match.group(4) else (a_c, a_p)
        return Profile(a_c, a_p, b_c, b_p, bool(match.group(6)))
    match = PROFILE_LABEL.match(value)
    if match:
        a_c, a_p = int(match.group(1)), int(match.group(2))
        b_c, b_p = (int(match.group(3)), int(match.group(4))) if match.group(3) else (a_c, a_p)
        return Profile(a_c, a_p, b_c, b_p, bool(match.group(6)))
    return None


def _cells(cell: str) -> list[str]:
    return [p.strip() for p in cell.split(",") if p.strip()]


class _Row:
    """One cable row: its ends as (device, termination) pairs, in the file's order."""

    def __init__(self, file: str, number: int, devices: list[str], ports: list[str], side: str,
                 columns: tuple[str, str]) -> None:
        if not devices:
            raise FabricFileError(file, f"{columns[0]}: empty", f"line {number}")
        if not ports:
            raise FabricFileError(file, f"{columns[1]}: empty", f"line {number}")
        if len(ports) > MAX_TERMINATIONS:
            raise FabricFileError(file, f"{len(ports)} terminations on side {side}: at most "
                                        f"{MAX_TERMINATIONS} are read", f"line {number}")
        self.ordered = len(devices) == 1
        if len(devices) == 1:
            self.ends = [(devices[0], port) for port in ports]
        elif len(set(ports)) == 1:  # several devices, one name (p1,p1): each device's port
            self.ends = [(device, ports[0]) for device in devices]
        elif len(devices) == len(ports):
            self.ends = list(zip(devices, ports, strict=True))
        else:
            raise FabricFileError(file, f"side {side}: {len(devices)} devices against "
                                        f"{len(ports)} terminations", f"line {number}")


def _pairs(a: _Row, b: _Row, profile: Profile | None, file: str,
           number: int) -> list[tuple[ObservedEnd, ObservedEnd]]:
    """The links one cable carries, by its profile, else by its terminations."""
    if profile is not None and not profile.shuffle:
        if profile.a_connectors == profile.b_connectors and len(a.ends) == len(b.ends):
            if profile.a_positions == profile.b_positions and profile.a_positions > 1:
                return [(ObservedEnd(*ea, p), ObservedEnd(*eb, p))
                        for ea, eb in zip(a.ends, b.ends, strict=True)
                        for p in range(1, profile.a_positions + 1)]
        elif profile.a_connectors == 1 and len(a.ends) == 1 and profile.b_positions == 1:
            host, port = a.ends[0]
            position = 0 if not b.ordered else None  # the B order is NetBox's set order
            return [(ObservedEnd(host, port, position if position == 0 else i),
                     ObservedEnd(*eb)) for i, eb in enumerate(b.ends, start=1)]
    if len(a.ends) == len(b.ends):
        return [(ObservedEnd(*ea), ObservedEnd(*eb)) for ea, eb in zip(a.ends, b.ends, strict=True)]
    if len(a.ends) == 1:
        return [(ObservedEnd(*a.ends[0]), ObservedEnd(*eb)) for eb in b.ends]
    if len(b.ends) == 1:
        return [(ObservedEnd(*ea), ObservedEnd(*b.ends[0])) for ea in a.ends]
    raise FabricFileError(file, f"{len(a.ends)} A terminations against {len(b.ends)} B "
                                "terminations", f"line {number}")


def read_netbox_cables(path: str | Path, connected_only: bool = False) -> Observation:
    """The cables of a NetBox cable CSV (the whole site: `complete`)."""
    file = str(path)
    text = read_input_text(path, "utf-8-sig")
    reader = csv.reader(text.splitlines())
    header, columns, layout = _header(file, reader)
    index = [columns[name] for name in layout[:4]]
    status_at, profile_at = columns.get(layout.status), columns.get(layout.profile)
    out = Observation(kind="netbox", complete=True, files=[file])
    statuses: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    rows = 0
    try:
        for number, row in enumerate(reader, start=2):
            if not any(cell.strip() for cell in row):
                continue
            rows += 1
            if rows > MAX_CABLE_ROWS:
                raise FabricFileError(file, f"more than {MAX_CABLE_ROWS:,} cables",
                                      f"line {number}")
            _check_cells(file, number, row, len(header))
            status = row[status_at].strip().lower() if status_at is not None else ""
            if status not in READ_STATUSES or (connected_only and status == "planned"):
                skipped[status] += 1
                continue
            statuses[status] += 1
            a = _Row(file, number, _cells(row[index[0]]), _cells(row[index[1]]), "A", layout[:2])
            b = _Row(file, number, _cells(row[index[2]]), _cells(row[index[3]]), "B", layout[2:4])
            profile = parse_profile(row[profile_at]) if profile_at is not None else None
            out.hosts.update(host for host, _ in a.ends + b.ends)
            where = f"{file}: line {number}"
            for end_a, end_b in _pairs(a, b, profile, file, number):
                out.links.append(ObservedLink(end_a, end_b, None, where))
    except csv.Error as exc:
        raise FabricFileError(file, f"not CSV: {exc}", f"line {reader.line_num}") from None
    _notes(out, statuses, skipped, connected_only)
    return out


def _header(file: str, reader: Iterator[list[str]]) -> tuple[list[str], dict[str, int], Layout]:
    """The header row, its column numbers by name, and the layout whose columns it has."""
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise FabricFileError(file, f"not CSV: {exc}", "line 1") from None
    if not header:
        raise FabricFileError(file, "the file is empty")
    if len(header) > MAX_CELLS:
        raise FabricFileError(file, f"{len(header)} columns: at most {MAX_CELLS} are read",
                              "line 1")
    columns = {name.strip(): i for i, name in enumerate(header)}
    for layout in LAYOUTS:
        if all(name in columns for name in layout[:4]):
            return header, columns, layout
    raise FabricFileError(
        file, "needs the columns Device A, Termination A, Device B, Termination B (add the "
              "Device columns to NetBox's cable table before exporting) or side_a_device, "
              "side_a_name, side_b_device, side_b_name", "line 1")


def _check_cells(file: str, number: int, row: list[str], columns: int) -> None:
    """A row has the header's cells (at most `MAX_CELLS`), none longer than `MAX_CELL_CHARS`."""
    if len(row) < columns or len(row) > MAX_CELLS:
        raise FabricFileError(file, f"{len(row)} cells, the header has {columns}",
                              f"line {number}")
    for cell in row:
        if len(cell) > MAX_CELL_CHARS:
            raise FabricFileError(file, f"a cell of {len(cell):,} characters: at most "
                                        f"{MAX_CELL_CHARS:,} are read", f"line {number}")


def _notes(out: Observation, statuses: Counter[str], skipped: Counter[str],
           connected_only: bool) -> None:
    if statuses.get("planned"):
        out.notes.append(f"{statuses['planned']} NetBox cables are 'planned' (not yet marked "
                         "connected) and were read as cabled; --connected-only reads only "
                         "connected ones")
    if connected_only and skipped.get("planned"):
        out.notes.append(f"{skipped['planned']} NetBox cables are 'planned' and were not read "
                         "(--connected-only): their links count as not cabled")
    others = {status: n for status, n in skipped.items() if status != "planned"}
    if others:
        out.notes.append("not read: " + ", ".join(f"{n} {status or 'without status'} cables"
                                                  for status, n in sorted(others.items())))

