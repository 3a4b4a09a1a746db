"""NetBox 4.5+ bulk import of a fabric: CSVs in the column sets of NetBox 4.5's import forms, and
a device-type YAML for every model, so that an import into an empty NetBox succeeds.

Columns are those of `netbox/dcim/forms/bulk_import.py` at v4.5.10 (tests/data/netbox/ holds the
form fields and choice values the tests check every written column and value against):

* `cables.csv`: `side_a_site, side_a_device, side_a_type, side_a_name, side_b_site, ...,
  type, status, profile, tenant, label, color, length, length_unit, description, owner,
  comments, tags`; one row per physical cable where the form can hold it, with a cable profile
  so that NetBox 4.5 traces each link through it: `single-1c1p` for a cable carrying one link;
  `single-1cNp` for a cable carrying N links between two cages (a twin-port DAC between two
  2x400G cages), terminated on the unsplit ports the device types create.
* A breakout assembly (one cage to several) cannot be one cable in a CSV import: NetBox's
  `CableImportForm` (4.5.0 to 4.6.8) takes one termination per side (`side_x_name` is one name;
  `_clean_side` sets `[termination]`), while a `breakout-1c2p-2c1p` cable has two B terminations.
  Its legs are imported as one cable each, sharing the label (aicnet's cable number), without a
  profile; `README.txt` lists the assemblies with the profile to give them in NetBox's cable
  editor (or the REST API, whose `b_terminations` is a list) after merging the legs.
* `device-types/<Vendor>/<Model>.yaml`: the devicetype-library format (`netbox_devicetypes.py`).
* `interfaces.csv`: only the breakout legs a cable of `cables.csv` ends on (the device types
  create every unsplit port), each a physical interface of its own: NetBox 4.5's
  `Interface.clean()` (`dcim/models/device_components.py`) refuses a `parent` on any interface
  that is not virtual, and a virtual interface cannot take a cable; the description names the
  unsplit port the leg splits.  A twin-port cable between two split cages needs no leg
  interfaces: it is one cable between the unsplit ports, position p to position p.
* `sites.csv`, `manufacturers.csv` (manufacturers spelled as the device-type library spells them:
  `Nvidia`), `device_roles.csv`, `racks.csv`, `devices.csv`.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

from ..model.catalog_entities import DeviceModel
from ..model.document import FabricDocument
from ..model.port_names_os import PortNamer
from .cables import CablePlan, CableRow, End
from .colour_rgb import colour_hex
from .csv_exports import write_csv
from .netbox_common import cable_comments, device_rows, write_common
from .netbox_devicetypes import device_type_yaml, file_name, template_names
from .outfile import write_text

NETBOX_REFERENCE = "4.5.10"
CABLE_HEADER: tuple[str, ...] = (
    "side_a_site", "side_a_device", "side_a_type", "side_a_name",
    "side_b_site", "side_b_device", "side_b_type", "side_b_name",
    "type", "status", "profile", "tenant", "label", "color", "length", "length_unit",
    "description", "owner", "comments", "tags",
)
DEVICE_HEADER: tuple[str, ...] = (
    "name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face",
    "airflow", "description", "comments",
)
RACK_HEADER: tuple[str, ...] = (
    "site", "name", "facility_id", "status", "width", "u_height", "description",
)
INTERFACE_HEADER: tuple[str, ...] = ("device", "name", "type", "speed", "enabled", "description")
BREAKOUT_PROFILES = {2: "breakout-1c2p-2c1p", 4: "breakout-1c4p-4c1p", 6: "breakout-1c6p-6c1p"}
"""NetBox 4.5 breakout profiles (1 connector of N positions : N connectors of 1 position)."""
SINGLE_PROFILE = "single-1c1p"


def export_netbox_45(doc: FabricDocument, out_dir: str | os.PathLike[str], plan: CablePlan,
                     namer: PortNamer | None = None) -> dict[str, int]:
    """Write the NetBox 4.5 import into `out_dir`; return rows (or files) per output."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    site = doc.settings.site
    written: dict[str, int] = {}

    models = {d.model: doc.device_model(d) for d in doc.devices.values()}
    written.update(write_common(doc, folder, models))

    for model in sorted(models.values(), key=lambda m: m.id):
        target = folder / file_name(model)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text(target, device_type_yaml(model, namer))
    written["device-types/"] = len(models)

    written["devices.csv"] = write_csv(folder / "devices.csv", DEVICE_HEADER,
                                       device_rows(doc, models, airflow=True))

    templates = {mid: template_names(m, namer) for mid, m in models.items()}
    planes = plan.multi_plane
    by_cable: dict[str, list[CableRow]] = defaultdict(list)
    for row in plan.rows:
        by_cable[row.number].append(row)
    assemblies: dict[str, list[str]] = {}
    cables: list[list[object]] = []
    legs: list[End] = []  # the cable ends on breakout legs: interfaces.csv creates them
    for number, rows in by_cable.items():
        ports = _whole_ports(doc, rows, templates)
        if ports is not None:  # one connector each end: one NetBox cable
            cables.append(_cable_row(site, rows[0], ports, f"single-1c{len(rows)}p",
                                     f" ({len(rows)} links: " + "; ".join(
                                         f"{r.a.port}-{r.b.port}" for r in rows) + ")", planes))
            continue
        legs.extend(end for row in rows for end in (row.a, row.b))
        if len(rows) == 1:
            cables.append(_cable_row(site, rows[0], None, SINGLE_PROFILE, "", planes))
            continue
        assemblies[number] = [_merge_profile(doc, rows, templates)] + [
            f"{r.a.device}:{r.a.port} - {r.b.device}:{r.b.port}" for r in rows]
        for index, row in enumerate(rows, start=1):
            cables.append(_cable_row(site, row, None, "",
                                     f" (link {index} of {len(rows)} on this cable)", planes))
    written["interfaces.csv"] = write_csv(
        folder / "interfaces.csv", INTERFACE_HEADER, _interfaces(doc, legs, templates))
    written["cables.csv"] = write_csv(folder / "cables.csv", CABLE_HEADER, cables)
    write_text(folder / "README.txt", _readme(doc, models, assemblies))
    return written


SINGLE_POSITIONS = (2, 4, 6, 8, 12, 16)
"""NetBox 4.5 `single-1cNp` profiles: one connector of N positions at each end."""


def _whole_ports(doc: FabricDocument, rows: list[CableRow],
                 templates: dict[str, dict[int, list[str]]]) -> tuple[str, str] | None:
    """The unsplit ports at both ends when every link of a multi-link cable runs between the
    same two cages and the device types give each cage one interface (a twin-port DAC between
    two 2x400G cages): the cable is then one NetBox cable of profile single-1cNp."""
    if len(rows) not in SINGLE_POSITIONS:
        return None
    first = rows[0]
    if any((r.a.dev.id, r.a.cage, r.b.dev.id, r.b.cage)
           != (first.a.dev.id, first.a.cage, first.b.dev.id, first.b.cage)
           or r.a.leg != r.b.leg for r in rows):
        return None  # position p at one end is position p at the other (single-1cNp)
    names = []
    for end in (first.a, first.b):
        cage_names = templates[doc.devices[end.dev.id].model].get(end.cage, [])
        if len(cage_names) != 1:
            return None
        names.append(cage_names[0])
    return names[0], names[1]


TRUNK_PROFILES = {2: "trunk-2c1p", 4: "trunk-4c1p"}


def _merge_profile(doc: FabricDocument, rows: list[CableRow],
                   templates: dict[str, dict[int, list[str]]]) -> str:
    """The NetBox 4.5 profile of a multi-link cable once its legs are one cable: a breakout
    (`breakout-1cNp-Nc1p`) when its shared end is one unsplit interface, else a trunk of
    one-position connectors (`trunk-Nc1p`); 'no NetBox 4.5 profile' when none fits."""
    count = len(rows)
    a = rows[0].a
    shared = all((r.a.dev.id, r.a.cage) == (a.dev.id, a.cage) for r in rows)
    names = templates[doc.devices[a.dev.id].model].get(a.cage, [])
    if shared and len(names) == 1 and count in BREAKOUT_PROFILES:
        return f"profile {BREAKOUT_PROFILES[count]}, A end {a.device}:{names[0]}"
    if count in TRUNK_PROFILES:
        return f"profile {TRUNK_PROFILES[count]}"
    return "no NetBox 4.5 profile fits"


def _cable_row(site: str, row: CableRow, ports: tuple[str, str] | None, profile: str,
               note: str, planes: bool = False) -> list[object]:
    part = row.part
    a_port, b_port = ports if ports is not None else (row.a.port, row.b.port)
    return [
        site, row.a.device, "dcim.interface", a_port,
        site, row.b.device, "dcim.interface", b_port,
        part.netbox_type if part is not None else "", "planned", profile, "",
        row.number, colour_hex(row.colour),
        f"{row.ordered_m:g}" if row.ordered_m is not None else "",
        "m" if row.ordered_m is not None else "",
        f"{row.cable_id}{note}", "",
        cable_comments(row, planes),
        "",
    ]


def _interfaces(doc: FabricDocument, legs: list[End],
                templates: dict[str, dict[int, list[str]]]) -> list[list[object]]:
    """interfaces.csv rows: every breakout leg a cable ends on that the device types do not
    create, once, as a physical interface without `parent` (NetBox 4.5 takes a parent only on
    a virtual interface, and a virtual interface cannot take a cable); the description names
    the unsplit port it splits."""
    rows: list[list[object]] = []
    seen: set[tuple[str, str]] = set()
    for end in legs:
        if (end.device, end.port) in seen:
            continue
        seen.add((end.device, end.port))
        cage_names = templates[doc.devices[end.dev.id].model].get(end.cage, [])
        if end.port in cage_names:
            continue  # the device type creates it
        rows.append(_interface_row(doc, end, cage_names))
    return rows


def _interface_row(doc: FabricDocument, end: End, cage_names: list[str]) -> list[object]:
    port = doc.port(end.dev.id, end.design_port or end.port)
    kind = port.group.interface_type if port else "other"
    speed = port.speed_gbps * 1_000_000 if port else ""  # NetBox speeds are in kb/s
    whole = f" of {cage_names[0]}" if len(cage_names) == 1 else ""
    leg = f"breakout leg {end.leg}/{end.legs}{whole}, " if end.legs > 1 else ""
    return [end.device, end.port, kind, speed, "true", f"{leg}cage {end.cage}"]


def _readme(doc: FabricDocument, models: dict[str, DeviceModel],
            assemblies: dict[str, list[str]]) -> str:
    site = doc.settings.site
    lines = [
        f"NetBox {NETBOX_REFERENCE.rsplit('.', 1)[0]}+ bulk import of {doc.metadata.name} "
        f"(revision {doc.metadata.revision}), written by aicnet.",
        "",
        "Import in this order:",
        f"  0. sites.csv          (Organization > Sites > Import): the site '{site}'; skip it",
        "     if your NetBox has it.",
        "  1. manufacturers.csv   (Devices > Manufacturers > Import, CSV): skip a manufacturer",
        "     your NetBox has (one that loaded the device-type library has 'Nvidia').",
        "  2. device_roles.csv    (Devices > Device Roles > Import, CSV)",
        "  3. device-types/       (Devices > Device Types > Import, YAML: one file at a time,",
        "     or the community devicetype-library importer).  Skip a model your NetBox already",
        "     has only if its interface names are the ones below.",
        *[f"       - {file_name(m)}   (aicnet catalog id {m.id})"
          for m in sorted(models.values(), key=lambda m: m.id)],
        "  4. racks.csv           (Racks > Racks > Import)",
        "  5. devices.csv         (Devices > Devices > Import)",
        "  6. interfaces.csv      (Devices > Interfaces > Import): the breakout legs cables end",
        "     on, as physical interfaces (NetBox 4.5 gives a parent only to virtual interfaces,",
        "     which take no cable); the device types create every other port.",
        "  7. cables.csv          (Connections > Cables > Import)",
        "",
        "Everything is imported with status 'planned'.  Cable labels are aicnet's cable numbers",
        "as printed on the label sheets; lengths are the ordered lengths.  A cable carrying one",
        "link has the profile single-1c1p; one carrying N links between two cages (a twin-port",
        "DAC) is one cable between the unsplit ports with the profile single-1cNp.",
    ]
    if assemblies:
        lines += [
            "",
            "Breakout assemblies (one cage to several): NetBox's CSV import",
            "takes one termination per cable side, so each link is one row of cables.csv with",
            "the assembly's label, from a leg interface.  To make one NetBox 4.5 cable of an",
            "assembly, edit one of its cables (cable editor or REST API): A side the unsplit",
            "interface below, B side every leg's far end, the profile below; then delete the",
            "other leg cables and the leg interfaces.",
        ]
        for number, (profile, *links) in sorted(assemblies.items()):
            lines.append(f"  {number}: {profile}: " + "; ".join(links))
    return "\n".join(lines) + "\n"
