"""NetBox bulk-import CSVs of a fabric: manufacturers, roles, racks, devices, interfaces, cables.

This module writes the layout for NetBox 4.4 and older (`layout="4.4"`); the default, NetBox
4.5+, is `netbox45.py`.

Column names are those of NetBox's CSV import forms (cabling.md §2.1: `CableImportForm` is
`side_a_device, side_a_type, side_a_name, side_b_device, side_b_type, side_b_name, type, status,
tenant, label, color, length, length_unit, description, comments, tags`).  Foreign keys are
given by name, as NetBox's import expects (device type by model, manufacturer/role/site/rack by
name).  Everything is imported as `planned`.

NetBox cannot create device types from CSV: they come from the community device-type library
(YAML).  `README.txt` in the output folder lists the device types the import needs and the
import order.  `interfaces.csv` lists the logical ports that carry links (breakout ports such as
`swp3s0` are usually not in a device type's template); rows for interfaces that the device
type already defines must be dropped before importing it.

Every file is written atomically and every CSV cell is neutralised against formula injection
(`write_csv`, csv_exports.py).
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from ..fileio.atomic import atomic_output
from ..model.catalog_entities import DeviceModel
from ..model.document import FabricDocument
from ..model.port_names_os import PortNamer
from .cables import CablePlan, build_plan
from .colour_rgb import colour_hex
from .csv_exports import write_csv
from .netbox_common import cable_comments, device_rows, write_common
from .netbox_devicetypes import manufacturer

CABLE_HEADER: tuple[str, ...] = (
    "side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
    "type", "status", "tenant", "label", "color", "length", "length_unit", "description",
    "comments", "tags",
)
DEVICE_HEADER: tuple[str, ...] = (
    "name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face",
    "description", "comments",
)
INTERFACE_HEADER: tuple[str, ...] = ("device", "name", "type", "speed", "enabled", "description")
NETBOX_LAYOUTS = ("4.5", "4.4")
"""`4.5`: NetBox 4.5+ (cable profiles, sites, device-type YAML: netbox45.py); `4.4`: the
layout below, for NetBox 4.4 and older."""


def export_netbox(doc: FabricDocument, out_dir: str | os.PathLike[str],
                  plan: CablePlan | None = None, profile: str | None = None,
                  layout: str = "4.5", port_names: PortNamer | None = None) -> dict[str, int]:
    """Write the NetBox import into `out_dir` (created if needed); return rows per file."""
    if layout not in NETBOX_LAYOUTS:
        raise ValueError(f"unknown NetBox layout {layout!r}: {', '.join(NETBOX_LAYOUTS)}")
    plan = plan if plan is not None else build_plan(doc, profile, port_names=port_names)
    if layout == "4.5":
        from .netbox45 import export_netbox_45

        return export_netbox_45(doc, out_dir, plan, port_names)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, int] = {}

    models = {d.model: doc.device_model(d) for d in doc.devices.values()}
    written.update(write_common(doc, folder, models))

    written["devices.csv"] = write_csv(folder / "devices.csv", DEVICE_HEADER,
                                       device_rows(doc, models, airflow=False))

    written["interfaces.csv"] = write_csv(folder / "interfaces.csv", INTERFACE_HEADER,
                                          _interface_rows(doc, plan))
    written["cables.csv"] = write_csv(folder / "cables.csv", CABLE_HEADER, _cable_rows(plan))
    with atomic_output(folder / "README.txt") as handle:
        handle.write(("\n".join(_readme_lines(doc, models)) + "\n").encode("utf-8"))
    return written


def _interface_rows(doc: FabricDocument, plan: CablePlan) -> list[list[object]]:
    """interfaces.csv rows: every logical port a cable of the plan ends on, once."""
    interfaces: list[list[object]] = []
    seen: set[tuple[str, str]] = set()
    for row in plan.rows:
        for end in (row.a, row.b):
            key = (end.dev.id, end.design_port or end.port)
            if key in seen:
                continue
            seen.add(key)
            port = doc.port(*key)
            kind = port.group.interface_type if port else "other"
            speed = (port.speed_gbps * 1_000_000) if port else ""
            leg = f" leg {end.leg}/{end.legs}" if end.legs > 1 else ""
            interfaces.append([end.device, end.port, kind, speed, "true",
                               f"cage {end.cage}{leg}"])
    return interfaces


def _cable_rows(plan: CablePlan) -> list[list[object]]:
    """cables.csv rows: one per link, labelled with its cable number (the links of one
    multi-link cable say which of them each is)."""
    per_cable = Counter(r.number for r in plan.rows)
    planes = plan.multi_plane
    seen_in_cable: Counter[str] = Counter()
    cables: list[list[object]] = []
    for row in plan.rows:
        seen_in_cable[row.number] += 1
        share = (f" (link {seen_in_cable[row.number]} of {per_cable[row.number]} on this cable)"
                 if per_cable[row.number] > 1 else "")
        part = row.part
        cables.append([
            row.a.device, "dcim.interface", row.a.port,
            row.b.device, "dcim.interface", row.b.port,
            part.netbox_type if part is not None else "",
            "planned", "", row.number, colour_hex(row.colour),
            f"{row.ordered_m:g}" if row.ordered_m is not None else "",
            "m" if row.ordered_m is not None else "",
            f"{row.cable_id}{share}",
            cable_comments(row, planes),
            "",
        ])
    return cables


def _readme_lines(doc: FabricDocument, models: dict[str, DeviceModel]) -> list[str]:
    """README.txt: the import order, with the device types to take from the library."""
    site = doc.settings.site
    needed = sorted({(manufacturer(m.vendor), m.model, m.id) for m in models.values()})
    readme = [
        f"NetBox bulk import of {doc.metadata.name} (revision {doc.metadata.revision}), "
        "written by aicnet.",
        "",
        "Import in this order (Import page of each object type, 'CSV file' tab):",
        f"  0. Site: create the site '{site}' by hand if it does not exist.",
        "  1. manufacturers.csv  (Devices > Manufacturers)",
        "  2. device_roles.csv   (Devices > Device Roles)",
        "  3. device types: import these from the NetBox device-type library (YAML); CSV cannot",
        "     create them:",
        *[f"       - {vendor} {model}   (aicnet catalog id {cid})"
          for vendor, model, cid in needed],
        "  4. racks.csv          (Racks > Racks)",
        "  5. devices.csv        (Devices > Devices)",
        "  6. interfaces.csv     (Devices > Interfaces): the logical ports that carry links;",
        "     delete the rows of interfaces your device types already create (usually the",
        "     unsplit ports) before importing, or NetBox rejects them as duplicates.",
        "  7. cables.csv         (Connections > Cables)",
        "",
        "All objects are imported with status 'planned'.  Cable labels are aicnet's cable",
        "numbers (C000123) as printed on the label sheets; lengths are the ordered lengths.",
    ]
    return readme
