"""Read a NetBox cable export CSV (Connections > Cables > Export) into observed links.

NetBox's cable table exports its columns under their verbose names (`dcim/tables/cables.py`):
`Device A`, `Termination A`, `Device B`, `Termination B`, `Status`, ...; a termination column
holds the interface name, several terminations of one end joined by commas.  The `Device A/B`
columns are not in the table's default set: add them (Configure Table) before exporting.  The
bulk-import layout that `aicnet export --netbox` writes (`side_a_device`, `side_a_name`, ...) is
read as well.  Cables whose status is not `connected` (planned, decommissioning) are skipped;
without a status column every row counts.  NetBox knows no link speed.
"""

from __future__ import annotations

import csv
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..fileio.errors import FabricFileError
from .observed import Observation, ObservedEnd, ObservedLink, read_input_text

LAYOUTS: tuple[tuple[str, str, str, str, str], ...] = (
    ("Device A", "Termination A", "Device B", "Termination B", "Status"),
    ("side_a_device", "side_a_name", "side_b_device", "side_b_name", "status"),
)
BUILT = {"connected", ""}


class _Row(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    device_a: str = Field(min_length=1)
    ports_a: list[str] = Field(min_length=1)
    device_b: str = Field(min_length=1)
    ports_b: list[str] = Field(min_length=1)


def _ports(cell: str) -> list[str]:
    return [p.strip() for p in cell.split(",") if p.strip()]


def read_netbox_cables(path: str | Path) -> Observation:
    """The connected cables of a NetBox cable export (the whole site: `complete`)."""
    file = str(path)
    text = read_input_text(path, "utf-8-sig")
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if not header:
        raise FabricFileError(file, "the file is empty")
    columns = {name.strip(): i for i, name in enumerate(header)}
    for layout in LAYOUTS:
        if all(name in columns for name in layout[:4]):
            break
    else:
        raise FabricFileError(
            file, "needs the columns Device A, Termination A, Device B, Termination B (add the "
                  "Device columns to NetBox's cable table before exporting) or side_a_device, "
                  "side_a_name, side_b_device, side_b_name", "line 1")
    index = [columns[name] for name in layout[:4]]
    status_at = columns.get(layout[4])
    out = Observation(kind="netbox", complete=True, files=[file])
    for number, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < len(header):
            raise FabricFileError(file, f"{len(row)} cells, the header has {len(header)}",
                                  f"line {number}")
        if status_at is not None and row[status_at].strip().lower() not in BUILT:
            continue
        try:
            cable = _Row(device_a=row[index[0]].strip(), ports_a=_ports(row[index[1]]),
                         device_b=row[index[2]].strip(), ports_b=_ports(row[index[3]]))
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            column = {"device_a": layout[0], "ports_a": layout[1], "device_b": layout[2],
                      "ports_b": layout[3]}[str(first["loc"][0])]
            raise FabricFileError(file, f"{column}: empty", f"line {number}") from None
        out.hosts.update((cable.device_a, cable.device_b))
        if len(cable.ports_a) == len(cable.ports_b):
            pairs = list(zip(cable.ports_a, cable.ports_b, strict=True))
        elif len(cable.ports_a) == 1:
            pairs = [(cable.ports_a[0], port) for port in cable.ports_b]
        elif len(cable.ports_b) == 1:
            pairs = [(port, cable.ports_b[0]) for port in cable.ports_a]
        else:
            raise FabricFileError(file, f"{len(cable.ports_a)} A terminations against "
                                        f"{len(cable.ports_b)} B terminations", f"line {number}")
        for port_a, port_b in pairs:
            out.links.append(ObservedLink(ObservedEnd(cable.device_a, port_a),
                                          ObservedEnd(cable.device_b, port_b),
                                          None, f"{file}: line {number}"))
    return out
