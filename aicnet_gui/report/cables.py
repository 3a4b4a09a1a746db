"""The cable plan: every link of a fabric as one schedule row, grouped one rack per section.

This is the data behind the PDF cable schedule, the label sheets and the CSV exports, built once
per export from the document (`build_plan`).

* **Orientation.** The A end of a row is where the installer starts: the shared end of a splitter
  or multi-link assembly, else the lower tier (server before leaf before spine); ties keep the
  link's stored order.
* **Sort and group.** Rows are grouped by the rack of their A end (racks by row, position, name;
  devices in no rack last) and sorted top of rack down (A device's position, highest first), then
  by device, cage and leg.
* **Cable numbers.** Every physical cable gets a serial `C000001`... in schedule order.  The links
  of one assembly (a splitter, or a twin-port DAC carrying two links) share the number.
* **Label ends.** A physical cable has one end per distinct (device, cage) it plugs into: two for
  a straight cable, 1 + legs for a splitter.  Each end gets one label: the cable number, this end
  and `TO:` the far end(s).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from ..model.catalog_entities import CableAssembly, Transceiver
from ..model.document import FabricDocument
from ..model.fabric import Device, Link
from ..model.fit import installed_optic
from ..model.floor import Placement, placement, route_estimate_m
from ..model.port_names_os import PortNamer
from ..model.ports import LogicalPort
from ..model.rack_units import ru_text
from ..model.rounding import metres
from ..model.summary import TIER_NAMES
from .identifiers import Identifiers, cable_number, port_token

NO_RACK = ""
_TIERS = {(a, b): f"{TIER_NAMES[a]}-{TIER_NAMES[b]}" for a in TIER_NAMES for b in TIER_NAMES}


@dataclass(slots=True)
class DeviceInfo:
    """What the plan needs to know about a device, computed once per device."""

    id: str
    name: str
    role: str
    tier: int
    rack_id: str
    rack: str
    ru: int | None  # the lowest unit it occupies (model/rack_units.py)
    prefix: str


@dataclass(slots=True)
class End:
    """One end of a link: where it plugs in and what is plugged there."""

    dev: DeviceInfo
    port: str
    cage: int
    leg: int
    legs: int
    speed_gbps: int
    optic: str
    optic_part: Transceiver | None
    connector: str
    ident: str
    design_port: str = ""
    """The design's port name when `port` shows another OS's name (`build_plan(port_names=)`)."""

    @property
    def device(self) -> str:
        return self.dev.name

    @property
    def rack(self) -> str:
        return self.dev.rack

    @property
    def ru(self) -> int | None:
        return self.dev.ru

    @property
    def leg_text(self) -> str:
        return f"{self.leg}/{self.legs}" if self.legs > 1 else ""

    @property
    def ru_text(self) -> str:
        return ru_text(self.dev.ru)


@dataclass(slots=True)
class CableRow:
    """One link of the schedule with both ends, media, lengths and tags."""

    link_id: str
    serial: int
    number: str
    a: End
    b: End
    cable_id: str
    label_b: str
    part: CableAssembly | None
    part_name: str
    media: str
    fibre: str
    polarity: str
    length_m: float | None
    manual: bool
    ordered_m: float | None
    colour: str
    rail: int | None
    plane: str
    tier: str
    assembly: str | None

    @property
    def length_text(self) -> str:
        """The calculated length, to 0.1 m unless that rounding would hide why the ordered
        cord is the next stock length up (15.01 m shown as "15" beside a 20 m order)."""
        if self.length_m is None:
            return "?"
        text = metres(self.length_m)
        for places in (2, 3):
            if (self.part is None or self.ordered_m is None
                    or self.part.ordered_length(float(text)) == self.ordered_m):
                break
            text = metres(self.length_m, places)
        return text + (" (manual)" if self.manual else "")

    @property
    def ordered_text(self) -> str:
        return metres(self.ordered_m, 2) if self.ordered_m is not None else "?"

    @property
    def rail_text(self) -> str:
        parts = []
        if self.rail is not None:
            parts.append(f"rail {self.rail}")
        if self.plane:
            parts.append(f"plane {self.plane}")
        return " ".join(parts)


@dataclass(slots=True)
class LabelEnd:
    """One printed label: one end of a physical cable."""

    number: str
    this_id: str
    this_text: str
    far: list[tuple[str, str]]
    colour: str
    detail: str
    qr_payload: str
    length_m: float | None
    row: CableRow
    #: the rail (and, in a fabric of several planes, the plane) every link of the cable shares:
    #: "rail 3 plane 2"; "" when they differ or there is none
    rail_plane: str = ""


@dataclass(slots=True)
class RackSection:
    """The rows whose A end is in one rack, and where the cables arriving there come from.

    `arriving` counts physical cables per rack of their A end: a twin-port AOC or DAC that
    carries two links arrives once, as it is pulled once."""

    rack_id: str
    title: str
    rows: list[CableRow] = field(default_factory=list)
    arriving: Counter[str] = field(default_factory=Counter)
    #: the rows whose B end is in this rack and A end in another (each listed in that rack's
    #: section; a rack where cables only end shows their numbers per device, `arrivals.py`)
    arrivals: list[CableRow] = field(default_factory=list)

    @property
    def cables(self) -> int:
        """Physical cables whose A end is here (the links of one assembly share a number)."""
        return len({row.serial for row in self.rows})


@dataclass
class CablePlan:
    rows: list[CableRow]
    sections: list[RackSection]
    problems: list[str]
    profile: str
    cables: int
    _doc: FabricDocument = field(repr=False)
    _group_of: dict[str, str] = field(repr=False)
    _labels: list[LabelEnd] | None = field(default=None, repr=False)

    @property
    def labels(self) -> list[LabelEnd]:
        """One label per physical cable end, in schedule order (built on first use)."""
        if self._labels is None:
            self._labels = _label_ends(self._doc, self.rows, self._group_of, self.multi_plane)
        return self._labels

    @property
    def multi_plane(self) -> bool:
        """True when the links carry more than one plane (a two-plane B300 fabric)."""
        return len({r.plane for r in self.rows}) > 1

    @property
    def colours(self) -> list[str]:
        """Colour names used, in order of first appearance."""
        return list(dict.fromkeys(r.colour for r in self.rows if r.colour))


def _media(part: CableAssembly | None) -> str:
    if part is None:
        return "?"
    if part.type == "fibre":
        return part.media
    return part.type


def _part_name(part: CableAssembly | None, cable_id: str | None) -> str:
    if part is None:
        return cable_id or "no cable chosen"
    return part.model


def _optic_name(optic: Transceiver) -> str:
    return optic.part_numbers[0] if optic.part_numbers else optic.model


class _Builder:
    def __init__(self, doc: FabricDocument, ids: Identifiers,
                 namer: PortNamer | None = None) -> None:
        self.doc = doc
        self.ids = ids
        self.namer = namer
        self.devices: dict[str, DeviceInfo] = {}
        self.problems: list[str] = []
        self._ports: dict[str, dict[str, LogicalPort]] = {}
        self._placements: dict[str, Placement | None] = {}
        self._parts: dict[str | None, tuple] = {}
        self._optics: dict[tuple[str, int, bool], tuple] = {}

    def ports(self, device_id: str) -> dict[str, LogicalPort]:
        table = self._ports.get(device_id)
        if table is None:
            table = self._ports[device_id] = self.doc.ports(device_id)
        return table

    def length(
        self, link: Link, part: CableAssembly | None
    ) -> tuple[float | None, bool, float | None]:
        """(length m, manual, ordered stock length m), as `analysis.lengths.link_length`."""
        if link.length_m is not None:
            length, manual = link.length_m, True
        else:
            pa, pb = self.placement(link.a.device), self.placement(link.b.device)
            manual = False
            length = (route_estimate_m(pa, pb, self.doc.settings.lengths)
                      if pa is not None and pb is not None else None)
        ordered = part.ordered_length(length) if part is not None and length is not None else None
        return length, manual, ordered

    def placement(self, device_id: str) -> Placement | None:
        if device_id not in self._placements:
            self._placements[device_id] = placement(self.doc, self.doc.devices[device_id])
        return self._placements[device_id]

    def info(self, device_id: str) -> DeviceInfo:
        info = self.devices.get(device_id)
        if info is None:
            doc = self.doc
            device: Device = doc.devices[device_id]
            rack = doc.racks.get(device.rack) if device.rack else None
            place = self.ids.place(device)
            role = doc.role_of(device)
            info = DeviceInfo(
                id=device.id,
                name=device.name,
                role=role.value,
                tier=doc.tier_of(device),
                rack_id=rack.id if rack else NO_RACK,
                rack=rack.name if rack else "",
                ru=place.ru,
                prefix=self.ids.device_prefix(device.id),
            )
            self.devices[device_id] = info
        return info

    def part(self, cable_id: str | None) -> tuple:
        """(part, name, media, fibre, polarity) of a cable catalog id, once per id."""
        info = self._parts.get(cable_id)
        if info is None:
            part = self.doc.catalog.cables.get(cable_id) if cable_id else None
            info = self._parts[cable_id] = (
                part, _part_name(part, cable_id), _media(part),
                (part.fibre_grade or "") if part else "", (part.polarity or "") if part else "",
            )
        return info

    def _optic(self, device_id: str, cage: int, cabled: bool) -> tuple:
        """(optic text, transceiver, connector) of a cage that holds a pluggable optic."""
        key = (device_id, cage, cabled)
        info = self._optics.get(key)
        if info is None:
            device = self.doc.devices[device_id]
            config = device.cages.get(cage)
            optic_id = installed_optic(self.doc.device_model(device), cage,
                                       config.transceiver if config else None)
            optic = self.doc.catalog.transceivers.get(optic_id) if optic_id else None
            info = self._optics[key] = (
                _optic_name(optic) if optic else ("none" if cabled else ""),
                optic,
                optic.connector if optic else "",
            )
        return info

    def end(self, device_id: str, port_name: str, part: CableAssembly | None) -> End:
        dev = self.info(device_id)
        port = self.ports(device_id).get(port_name)
        cage = port.cage if port else 0
        if part is not None and part.integrated_ends:
            optic, optic_part = "integrated", None
            connector = part.a_end.form_factor or part.a_end.connector or ""
        else:
            optic, optic_part, connector = self._optic(device_id, cage, part is not None)
        if port is None:
            leg, legs, speed = 1, 1, 0
        else:
            leg, legs, speed = port.leg, port.legs, port.speed_gbps
        design_port = port_name
        if self.namer is not None:
            port_name = self.namer.name(device_id, port_name)
        plain = "/" not in port_name and " " not in port_name
        token = port_name if plain else port_token(port_name)
        return End(dev, port_name, cage, leg, legs, speed, optic, optic_part, connector,
                   f"{dev.prefix}:{token}", design_port)


def _orient(builder: _Builder, links: list[Link]) -> list[tuple[Link, bool]]:
    """(link, swapped) pairs so that A is the shared end of an assembly, else the lower tier."""
    if len(links) > 1:
        keys = [
            {(link.a.device, _cage(builder, link.a.device, link.a.port)),
             (link.b.device, _cage(builder, link.b.device, link.b.port))}
            for link in links
        ]
        common = set.intersection(*keys)
        if len(common) == 1:
            anchor = next(iter(common))
            return [
                (link, (link.b.device, _cage(builder, link.b.device, link.b.port)) == anchor)
                for link in links
            ]
    info = builder.info
    return [(link, info(link.a.device).tier > info(link.b.device).tier) for link in links]


def _cage(builder: _Builder, device_id: str, port: str) -> int:
    logical = builder.ports(device_id).get(port)
    return logical.cage if logical else -1


def _rack_order(doc: FabricDocument) -> dict[str, tuple]:
    order = {
        rack.id: (rack.row, rack.position, rack.name, rack.id) for rack in doc.racks.values()
    }
    order[NO_RACK] = (10**9, 0, "", "")
    return order


def build_plan(
    doc: FabricDocument,
    profile: str | None = None,
    progress: Callable[[float], None] | None = None,
    port_names: PortNamer | None = None,
) -> CablePlan:
    """The cable plan of `doc`: sorted rows, rack sections, label ends and problems.

    With `port_names`, ports (and the identifiers on labels) show each device's OS names
    (`model/port_names_os.py`) instead of the design's."""
    ids = Identifiers(doc, profile)
    builder = _Builder(doc, ids, port_names)
    rows, group_of = _rows(doc, builder, progress)
    rack_order = _rack_order(doc)
    rows.sort(key=lambda r: (
        rack_order[r.a.dev.rack_id],
        -(r.a.dev.ru or 0),
        r.a.dev.name,
        r.a.cage,
        r.a.leg,
        r.a.port,
    ))
    cables = _number_cables(rows, group_of)
    _cable_label_texts(doc, rows, group_of)
    sections = sorted(_rack_sections(rows).values(), key=lambda s: rack_order[s.rack_id])
    problems = ids.problems + builder.problems + _length_problems(rows)
    return CablePlan(rows, sections, problems, ids.profile_name, cables, doc, group_of)


def _rows(doc: FabricDocument, builder: _Builder, progress: Callable[[float], None] | None
          ) -> tuple[list[CableRow], dict[str, str]]:
    """One row per link, oriented (`_orient`), and link id -> the key of its physical cable
    (its assembly, else the link itself)."""
    groups: dict[str, list[Link]] = defaultdict(list)
    for link in doc.links.values():
        groups[link.assembly or f"\x00{link.id}"].append(link)
    rows: list[CableRow] = []
    group_of: dict[str, str] = {}
    total = max(len(doc.links), 1)
    done = 0
    for key, links in groups.items():
        for link, swapped in _orient(builder, links):
            rows.append(_row(builder, link, swapped))
            group_of[link.id] = key
            done += 1
            if progress is not None and done % 2000 == 0:
                progress(done / total)
    return rows, group_of


def _number_cables(rows: list[CableRow], group_of: dict[str, str]) -> int:
    """Number the physical cables in schedule order (the links of one cable share its number);
    returns how many there are."""
    serial_of: dict[str, int] = {}
    for row in rows:
        key = group_of[row.link_id]
        serial = serial_of.get(key)
        if serial is None:
            serial = serial_of[key] = len(serial_of) + 1
        row.serial = serial
        row.number = cable_number(serial)
    return len(serial_of)


def _rack_sections(rows: list[CableRow]) -> dict[str, RackSection]:
    """Rack id -> its section: the rows whose A end is there, and the cables arriving there
    from other racks (counted once per physical cable)."""
    sections: dict[str, RackSection] = {}
    for row in rows:
        rack_id = row.a.dev.rack_id
        section = sections.get(rack_id)
        if section is None:
            title = f"Rack {row.a.dev.rack}" if rack_id else "Devices in no rack"
            section = sections[rack_id] = RackSection(rack_id, title)
        section.rows.append(row)
    arrived: set[tuple[str, int]] = set()  # (B rack, cable serial): one count per cable
    for row in rows:
        b_rack = row.b.dev.rack_id
        if b_rack == row.a.dev.rack_id:
            continue
        if b_rack not in sections:
            title = f"Rack {row.b.dev.rack}" if b_rack else "Devices in no rack"
            sections[b_rack] = RackSection(b_rack, title)
        sections[b_rack].arrivals.append(row)
        if (b_rack, row.serial) not in arrived:
            arrived.add((b_rack, row.serial))
            sections[b_rack].arriving[row.a.dev.rack or "no rack"] += 1
    return sections


def _length_problems(rows: list[CableRow]) -> list[str]:
    """Links without a length, longer than their part's longest stock length, or without a
    cable part."""
    problems = []
    unknown = sum(1 for r in rows if r.length_m is None)
    if unknown:
        problems.append(f"{unknown} links have no length (device not placed, no manual length)")
    too_long = sum(1 for r in rows if r.length_m is not None and r.part is not None
                   and r.ordered_m is None)
    if too_long:
        problems.append(f"{too_long} links are longer than the longest stock length of their "
                        "cable part (ordered length '?')")
    nocable = sum(1 for r in rows if r.part is None)
    if nocable:
        problems.append(f"{nocable} links have no cable part chosen")
    return problems


def _row(builder: _Builder, link: Link, swapped: bool) -> CableRow:
    part, part_name, media, fibre, polarity = builder.part(link.cable)
    a_ep, b_ep = (link.b, link.a) if swapped else (link.a, link.b)
    a = builder.end(a_ep.device, a_ep.port, part)
    b = builder.end(b_ep.device, b_ep.port, part)
    length_m, manual, ordered_m = builder.length(link, part)
    if part is not None and ordered_m is not None:  # what goes on a purchase order
        part_name = part.order_number(ordered_m) or part_name
    tiers = (a.dev.tier, b.dev.tier) if a.dev.tier <= b.dev.tier else (b.dev.tier, a.dev.tier)
    # identifiers: near end first (Identifiers.cable_id), written inline for speed
    return CableRow(
        link.id, 0, "", a, b, f"{a.ident}/{b.ident}", f"{b.ident}/{a.ident}", part, part_name,
        media, fibre, polarity, length_m, manual, ordered_m, (link.colour or "").strip(),
        link.rail, link.plane or "", _TIERS[tiers], link.assembly,
    )


def _end_key(end: End) -> tuple[str, int]:
    return (end.dev.id, end.cage)


def _end_text(doc: FabricDocument, ends: list[End]) -> tuple[str, str]:
    """(identifier, human text) of one physical cable end carrying one or more links."""
    first = ends[0]
    if len(ends) == 1:
        return first.ident, f"{first.dev.name} {first.port}"
    model = doc.device_model(first.dev.id)
    group = model.cage_group_of.get(first.cage)
    pattern = group.port_names.get("1") if group else None
    cage_name = group.port_name(first.cage, 1, 1) if group and pattern else str(first.cage)
    ports = ",".join(e.port for e in ends)
    return f"{first.dev.prefix}:{port_token(cage_name)}", f"{first.dev.name} {ports}"


def _cable_label_texts(doc: FabricDocument, rows: list[CableRow],
                       group_of: dict[str, str]) -> None:
    """The label text columns of a link whose cable carries several (a splitter, a twin-port
    DAC or trunk): the text printed on that cable's label at each end (`1A.A17-46:swp33/...`
    for the cage), not a per-link text that no label carries."""
    cables: dict[str, list[CableRow]] = {}
    for row in rows:
        cables.setdefault(group_of[row.link_id], []).append(row)
    for cable_rows in cables.values():
        if len(cable_rows) == 1:
            continue
        sides: list[dict[tuple[str, int], list[End]]] = [{}, {}]
        for row in cable_rows:
            sides[0].setdefault(_end_key(row.a), []).append(row.a)
            sides[1].setdefault(_end_key(row.b), []).append(row.b)
        ids = [{key: _end_text(doc, ends)[0] for key, ends in side.items()} for side in sides]
        text = [{key: f"{this}/{next(iter(ids[1 - n].values()))}" if len(ids[1 - n]) == 1
                 else this for key, this in ids[n].items()} for n in (0, 1)]
        for row in cable_rows:
            row.cable_id = text[0][_end_key(row.a)]
            row.label_b = text[1][_end_key(row.b)]


def _detail(row: CableRow, length: float | None) -> str:
    return " ".join(x for x in (row.media, row.fibre, f"{length:g} m" if length else "") if x)


def rail_plane(row: CableRow, planes: bool) -> str:
    """`rail 3 plane 2` for a label; the plane only when the fabric has several (a one-plane
    fabric's `compute` on every label says nothing and crowds out the rest)."""
    parts = [] if row.rail is None else [f"rail {row.rail}"]
    if planes and row.plane:
        parts.append(f"plane {row.plane}")
    return " ".join(parts)


def _shared_rail_plane(rows: list[CableRow], planes: bool) -> str:
    """The rail and plane all links of one cable share; "" when the legs of a splitter sit on
    different rails or planes (each leg's TO line names its far end)."""
    texts = {rail_plane(row, planes) for row in rows}
    return texts.pop() if len(texts) == 1 else ""


def _straight_labels(row: CableRow, planes: bool) -> tuple[LabelEnd, LabelEnd]:
    """The two labels of a cable that carries one link."""
    a_id, b_id = row.a.ident, row.b.ident
    a_text, b_text = f"{row.a.dev.name} {row.a.port}", f"{row.b.dev.name} {row.b.port}"
    detail = _detail(row, row.ordered_m)
    where = rail_plane(row, planes)
    return (
        LabelEnd(row.number, a_id, a_text, [(b_id, b_text)], row.colour, detail,
                 f"{row.number}|{a_id}|{b_id}", row.ordered_m, row, where),
        LabelEnd(row.number, b_id, b_text, [(a_id, a_text)], row.colour, detail,
                 f"{row.number}|{b_id}|{a_id}", row.ordered_m, row, where),
    )


def _label_ends(
    doc: FabricDocument, rows: list[CableRow], group_of: dict[str, str], planes: bool
) -> list[LabelEnd]:
    cables: dict[str, list[CableRow]] = {}
    for row in rows:
        cables.setdefault(group_of[row.link_id], []).append(row)
    labels: list[LabelEnd] = []
    for cable_rows in cables.values():
        if len(cable_rows) == 1:
            labels.extend(_straight_labels(cable_rows[0], planes))
            continue
        sides: list[dict[tuple[str, int], list[End]]] = [{}, {}]
        for row in cable_rows:
            sides[0].setdefault(_end_key(row.a), []).append(row.a)
            sides[1].setdefault(_end_key(row.b), []).append(row.b)
        texts = [[_end_text(doc, ends) for ends in side.values()] for side in sides]
        first = cable_rows[0]
        length = max((r.ordered_m or 0.0) for r in cable_rows)
        detail = _detail(first, length)
        shared = _shared_rail_plane(cable_rows, planes)
        for side in (0, 1):
            far = texts[1 - side]
            for this_id, this_text in texts[side]:
                labels.append(LabelEnd(
                    number=first.number,
                    this_id=this_id,
                    this_text=this_text,
                    far=far,
                    colour=first.colour,
                    detail=detail,
                    qr_payload=f"{first.number}|{this_id}|{';'.join(f[0] for f in far)}",
                    length_m=length or None,
                    row=first,
                    rail_plane=shared,
                ))
    return labels
