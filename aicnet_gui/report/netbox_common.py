"""What every NetBox layout writes the same way (netbox.py for NetBox 4.4, netbox45.py for
4.5+): the role names and colours, and sites.csv, manufacturers.csv, device_roles.csv and
racks.csv."""

from __future__ import annotations

from pathlib import Path

from ..model.catalog_entities import DeviceModel, airflow_direction
from ..model.document import FabricDocument
from .cables import CableRow
from .csv_exports import write_csv
from .identifiers import rack_coordinate
from .netbox_devicetypes import NETBOX_AIRFLOW, manufacturer, slug

RACK_HEADER: tuple[str, ...] = (
    "site", "name", "facility_id", "status", "width", "u_height", "description",
)
SITE_HEADER: tuple[str, ...] = ("name", "slug", "status", "description")
MANUFACTURER_HEADER: tuple[str, ...] = ("name", "slug")
ROLE_HEADER: tuple[str, ...] = ("name", "slug", "color")


ROLE_NAMES = {
    "gpu_server": "GPU server",
    "storage": "Storage",
    "leaf": "Leaf switch",
    "spine": "Spine switch",
    "core": "Core switch",
    "mgmt": "Management switch",
}
ROLE_COLOURS = {
    "gpu_server": "4caf50", "storage": "8bc34a", "leaf": "2196f3", "spine": "ff9800",
    "core": "9c27b0", "mgmt": "607d8b",
}


def write_common(doc: FabricDocument, folder: Path,
                 models: dict[str, DeviceModel]) -> dict[str, int]:
    """sites.csv, manufacturers.csv, device_roles.csv and racks.csv: the same in every NetBox
    layout (`SiteImportForm` needs name, slug and status; v4.4.0 and v4.5.10 alike)."""
    site = doc.settings.site
    vendors = sorted({manufacturer(m.vendor) for m in models.values()})
    roles = sorted({doc.role_of(d).value for d in doc.devices.values()})
    racks = sorted(doc.racks.values(), key=lambda r: (r.row, r.position, r.name))
    return {
        "sites.csv": write_csv(
            folder / "sites.csv", SITE_HEADER,
            [[site, slug(site) or "site", "planned", f"written by aicnet for {doc.metadata.name}"]]),
        "manufacturers.csv": write_csv(
            folder / "manufacturers.csv", MANUFACTURER_HEADER, ([v, slug(v)] for v in vendors)),
        "device_roles.csv": write_csv(
            folder / "device_roles.csv", ROLE_HEADER,
            ([ROLE_NAMES.get(r, r), slug(ROLE_NAMES.get(r, r)), ROLE_COLOURS.get(r, "9e9e9e")]
             for r in roles)),
        "racks.csv": write_csv(
            folder / "racks.csv", RACK_HEADER,
            ([site, r.name, rack_coordinate(r), "planned", 19, r.height_ru,
              f"row {r.row} position {r.position}"] for r in racks)),
    }


def device_rows(doc: FabricDocument, models: dict[str, DeviceModel],
                airflow: bool) -> list[list[object]]:
    """devices.csv rows (name, role, manufacturer, device_type, status, site, rack, position,
    face, [airflow,] description, comments), by name; `airflow` for NetBox 4.5's column."""
    site = doc.settings.site
    rows: list[list[object]] = []
    for d in sorted(doc.devices.values(), key=lambda d: d.name):
        model = models[d.model]
        placed = d.rack in doc.racks and d.ru is not None
        row: list[object] = [
            d.name, ROLE_NAMES.get(doc.role_of(d).value, doc.role_of(d).value),
            manufacturer(model.vendor),
            model.model, "planned", site, doc.racks[d.rack].name if d.rack in doc.racks else "",
            d.ru if placed else "", "front" if placed else ""]
        if airflow:
            direction = airflow_direction(model.airflow)
            row.append(NETBOX_AIRFLOW[direction] if direction else (model.airflow or ""))
        row += [f"aicnet id {d.id}", d.firmware and f"firmware {d.firmware}"]
        rows.append(row)
    return rows


def cable_comments(row: CableRow, planes: bool) -> str:
    """A NetBox cable's comments: part, tier, rail and, in a fabric of several planes, the
    plane (`MFP7E10-N015; server-leaf; rail 1; plane 2`)."""
    text = f"{row.part_name}; {row.tier}" + (f"; rail {row.rail}" if row.rail is not None else "")
    return text + (f"; plane {row.plane}" if planes and row.plane else "")

