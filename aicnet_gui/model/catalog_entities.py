"""Catalog entities: device models with their cages, transceivers and cable assemblies.

These are read-only descriptions of real hardware, loaded from the YAML files in `catalogs/`
(or embedded in a `.fabric` file).  They carry everything the rest of aicnet needs to derive the
logical ports of a device, check that two link ends agree, estimate reach and count a BOM.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from . import limits as L
from .limits import FreeText, IdText, NameText, bounded_float, bounded_int
from .load_balancing_modes import LoadBalancing
from .os_naming import OsName, OsPortNaming
from .templates import check_template

CATALOG_ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"


def catalog_id(vendor: str, model: str) -> str:
    """The catalog id of a part: `<vendor>-<model>` lower case, other characters runs -> `-`."""
    return re.sub(r"[^a-z0-9]+", "-", f"{vendor}-{model}".lower()).strip("-")


class Role(StrEnum):
    GPU_SERVER = "gpu_server"
    STORAGE = "storage"
    LEAF = "leaf"
    SPINE = "spine"
    CORE = "core"
    MGMT = "mgmt"


SWITCH_ROLES = frozenset({Role.LEAF, Role.SPINE, Role.CORE, Role.MGMT})
ROLE_TIER: dict[Role, int] = {
    Role.GPU_SERVER: 0,
    Role.STORAGE: 0,
    Role.LEAF: 1,
    Role.SPINE: 2,
    Role.CORE: 3,
    Role.MGMT: 1,
}


class Technology(StrEnum):
    INFINIBAND = "infiniband"
    ETHERNET = "ethernet"


FormFactor = Literal[
    "OSFP", "QSFP112", "QSFP-DD", "QSFP-DD800", "QSFP56", "QSFP28", "SFP28", "SFP112", "RJ45",
    "CPO",
]
"""`CPO`: a co-packaged optics port, a fibre adapter on the faceplate in front of an optical engine
built into the switch package; it takes a fibre, not a pluggable module or a copper cable."""
TopType = Literal["finned", "flat", "none"]
FibreGrade = Literal["OM3", "OM4", "OM5", "OS2"]
Media = Literal["MMF", "SMF", "copper"]
Cooling = Literal["air", "liquid"]
"""How a device is cooled: `liquid` needs a rack with a liquid loop (a CDU and couplings)."""
PowerFeed = Literal["ac", "dc-busbar"]
"""How a rack delivers power: `ac` (PDUs, C13/C19 inlets) or `dc-busbar` (a 48-54 V DC busbar fed
by power shelves, ORv3 / NVIDIA MGX racks)."""
RACK_COOLING = ("air", "liquid", "air+liquid")

_MODE_RE = re.compile(r"^(\d{1,3})x(\d{1,5})G$")
#: the placeholders of a `port_names` pattern (CageGroup)
PORT_FIELDS = frozenset({"cage", "leg", "leg0", "n", "pos"})
#: the length code at the end of a part number, before a variant suffix such as `-FLT`
_LENGTH_CODE = re.compile(r"[NX](\d\d)([0-9A])(?:-[A-Z]{2,4})?$")


def length_of_part_number(part_number: str) -> float | None:
    """The length an NVIDIA LinkX part number encodes: `-N003` 3 m, `-N01A` 1.5 m, `-N020` 20 m,
    also before a variant suffix (`MCP7Y00-N01A-FLT` 1.5 m); XDR ordering numbers use `X`
    (`980-9IAM5-00X01A` 1.5 m)."""
    match = _LENGTH_CODE.search(part_number)
    if match is None:
        return None
    tens, last = match.groups()
    return int(tens) + 0.5 if last == "A" else float(int(tens + last))


class _Entity(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Sourced(_Entity):
    """Every catalog entry says where its numbers come from and whether they were checked."""

    source: FreeText = Field(min_length=1, description="document or URL the numbers come from")
    verified: bool = Field(description="true when every number was checked against a primary source")
    notes: FreeText = ""
    discontinued: bool = Field(
        default=False, description="the vendor no longer offers it: kept so that designs using it "
                                   "still open and price, never chosen by the automatic media choice")


class BreakoutMode(_Entity):
    """A parsed breakout mode such as `2x400G`: `legs` logical ports of `speed_gbps` each."""

    legs: int = bounded_int(1, L.MAX_LEGS)
    speed_gbps: int = bounded_int(1, L.MAX_SPEED_GBPS)

    @classmethod
    def parse(cls, text: str) -> BreakoutMode:
        match = _MODE_RE.match(text)
        if not match:
            shown = text if len(text) <= 20 else text[:20] + "..."
            raise ValueError(f"breakout mode {shown!r} is not of the form <legs>x<speed>G, e.g. 2x400G")
        legs, speed = int(match.group(1)), int(match.group(2))
        if not (1 <= legs <= L.MAX_LEGS and 1 <= speed <= L.MAX_SPEED_GBPS):
            raise ValueError(f"breakout mode {text!r}: 1 to {L.MAX_LEGS} legs of 1 to "
                             f"{L.MAX_SPEED_GBPS} Gb/s")
        return cls(legs=legs, speed_gbps=speed)

    @property
    def name(self) -> str:
        return f"{self.legs}x{self.speed_gbps}G"


class CageGroup(_Entity):
    """A run of identical port cages on a device (e.g. 32 OSFP cages of a QM9700).

    Cage numbers are global on the device: `first` .. `first + count - 1`.  The logical port
    names come from `port_names`, a pattern per number of legs (`"1"` for an unsplit cage, `"2"`
    for two legs ...) or the key `"*"` for any; placeholders: `{cage}`, `{leg}` (1-based),
    `{leg0}` (0-based), `{pos}` (1-based position of the cage within the group) and `{n}`
    (1-based running number over the group's legs, assuming every cage runs the same mode).
    """

    name: NameText = Field(description="what the cages are for, e.g. 'compute', 'storage', 'uplink'")
    count: int = bounded_int(1, L.MAX_CAGE)
    first: int = bounded_int(0, L.MAX_CAGE, default=1)
    form_factor: FormFactor
    top: TopType = "none"
    lanes: int = bounded_int(1, L.MAX_LANES, description="electrical lanes per cage")
    lane_gbps: int = bounded_int(1, L.MAX_LANE_GBPS, description="signalling rate per lane, Gb/s")
    power_class_w: float | None = bounded_float(
        L.MAX_MODULE_POWER_W, default=None, description="max module power the cage cools")
    power_class_by_cage: dict[
        Annotated[int, Field(ge=0, le=L.MAX_CAGE)],
        Annotated[float, bounded_float(L.MAX_MODULE_POWER_W)],
    ] = Field(
        default_factory=dict, max_length=L.MAX_CAGE,
        description="cages of the group whose power class differs from power_class_w "
                    "(cage number -> W), e.g. the SN5400's 21 W cages 1, 5, ..., 61")
    breakouts: list[Annotated[str, Field(max_length=16)]] = Field(min_length=1, max_length=16)
    default_breakout: str = Field(max_length=16)
    gpu_of_port: list[Annotated[int, Field(ge=0, le=L.MAX_GPUS)]] | None = Field(
        default=None, max_length=L.MAX_CAGE * L.MAX_LEGS,
        description="GPU (0-based) behind each logical port of the group in port order, in the "
        "default breakout; None: port k serves GPU k (NIC order follows GPU order)",
    )
    blocking_modes: list[Annotated[str, Field(max_length=16)]] = Field(
        default_factory=list, max_length=16,
        description="modes that take the lanes of the next cage: allowed only on the first cage "
        "of each pair (first, first + 2, ...), and they disable the cage after it (SN5600 8x100G)",
    )
    port_names: dict[Annotated[str, Field(max_length=2)], str] = Field(max_length=L.MAX_LEGS + 1)
    interface_type: IdText = Field(description="NetBox interface type slug, e.g. 800gbase-x-osfp")
    fabric: bool = Field(default=True, description="false for management / out-of-band ports")
    technology: list[Technology] | None = Field(
        default=None, min_length=1, max_length=2,
        description="what these cages run when the vendor states it (an Ethernet-only 100GbE card, a "
        "BMC: ethernet; a VPI storage NIC: both); None: the model's, else the fabric's "
        "(model/fit.py end_technologies)")
    os_names: dict[OsName, OsPortNaming] = Field(
        default_factory=dict, description="port names per operating system (port_names_os.py)")
    optical_engine: IdText | None = Field(
        default=None,
        description="co-packaged optics: the catalog id of the optical engine (a transceiver "
                    "entry with co_packaged: true) built in behind every port of the group; the "
                    "fibre plugs into the faceplate, no module is installed or ordered")
    technology_modes: dict[Technology, list[Annotated[str, Field(max_length=16)]]] = Field(
        default_factory=dict, max_length=2,
        description="the breakout modes a technology allows when fewer than `breakouts` (a "
                    "ConnectX-8 on Ethernet: 2x400G and 4x200G, no 800GbE on one port)")

    @field_validator("breakouts")
    @classmethod
    def _modes_parse(cls, modes: list[str]) -> list[str]:
        for mode in modes:
            BreakoutMode.parse(mode)
        return modes

    @field_validator("port_names")
    @classmethod
    def _patterns(cls, patterns: dict[str, str]) -> dict[str, str]:
        for legs, pattern in patterns.items():
            if legs != "*" and not (legs.isdigit() and 1 <= int(legs) <= L.MAX_LEGS):
                raise ValueError(f"port_names key {legs!r}: a number of legs (1-{L.MAX_LEGS}) or *")
            try:
                check_template(pattern, PORT_FIELDS)
            except ValueError as exc:
                raise ValueError(f"port_names[{legs!r}]: {exc}") from None
        return patterns

    @model_validator(mode="after")
    def _consistent(self) -> CageGroup:
        if self.first + self.count - 1 > L.MAX_CAGE:
            raise ValueError(f"cages {self.first}-{self.first + self.count - 1}: no device has a "
                             f"cage numbered above {L.MAX_CAGE}")
        if self.default_breakout not in self.breakouts:
            raise ValueError(
                f"default_breakout {self.default_breakout!r} is not one of breakouts {self.breakouts}"
            )
        for mode in self.breakouts:
            legs = BreakoutMode.parse(mode).legs
            if str(legs) not in self.port_names and "*" not in self.port_names:
                raise ValueError(f"port_names has no pattern for {legs} legs (mode {mode})")
            if self.lanes % legs:
                raise ValueError(f"mode {mode}: {self.lanes} lanes do not split into {legs} legs")
        for mode in self.blocking_modes:
            if mode not in self.breakouts:
                raise ValueError(f"blocking mode {mode!r} is not one of breakouts {self.breakouts}")
        if self.default_breakout in self.blocking_modes:
            raise ValueError(f"default_breakout {self.default_breakout!r} cannot be a blocking mode")
        for tech, modes in self.technology_modes.items():
            unknown = [m for m in modes if m not in self.breakouts]
            if unknown:
                raise ValueError(f"technology_modes[{tech.value}] names {unknown[0]!r}, which is "
                                 f"not one of breakouts {self.breakouts}")
        if (self.form_factor == "CPO") != (self.optical_engine is not None):
            raise ValueError("a CPO (co-packaged optics) cage group names its optical_engine, and "
                             "only a CPO group has one")
        if self.gpu_of_port is not None:
            ports = self.count * BreakoutMode.parse(self.default_breakout).legs
            if sorted(self.gpu_of_port) != list(range(ports)):
                raise ValueError(
                    f"gpu_of_port must name each GPU 0..{ports - 1} once, one per logical port of "
                    f"the group in its default breakout ({ports} ports), got {self.gpu_of_port}"
                )
        outside = sorted(set(self.power_class_by_cage) - set(self.cage_numbers))
        if outside:
            raise ValueError(f"power_class_by_cage names cage {outside[0]}, which is not in this "
                             f"group ({self.first}..{self.first + self.count - 1})")
        return self

    def may_block(self, cage: int) -> bool:
        """A blocking mode is allowed on the first cage of each pair of the group only."""
        return (cage - self.first) % 2 == 0 and cage + 1 in self.cage_numbers

    def rail_of_position(self, position: int, ports: int) -> int:
        """The rail (1-based; rail i is GPU i-1's NIC) of the group's `position`-th logical port
        (0-based) when the group has `ports` logical ports in all."""
        if self.gpu_of_port is not None and ports == len(self.gpu_of_port):
            return self.gpu_of_port[position] + 1
        return position + 1

    def power_class(self, cage: int) -> float | None:
        """The power class of one cage of the group (W), None when unknown."""
        return self.power_class_by_cage.get(cage, self.power_class_w)

    @property
    def cage_numbers(self) -> range:
        return range(self.first, self.first + self.count)

    def port_name(self, cage: int, leg: int, legs: int) -> str:
        pattern = self.port_names.get(str(legs)) or self.port_names["*"]
        n = (cage - self.first) * legs + leg
        return pattern.format(cage=cage, leg=leg, leg0=leg - 1, n=n, pos=cage - self.first + 1)

    @property
    def native_gbps(self) -> int:
        return self.lanes * self.lane_gbps

    def modes_for(self, technology: Technology) -> list[str]:
        """The breakout modes a cage of the group may run in `technology`."""
        return self.technology_modes.get(technology, self.breakouts)


AIRFLOW_DIRECTIONS = {
    "front-to-back": "front-to-back", "front-to-rear": "front-to-back",
    "back-to-front": "back-to-front", "rear-to-front": "back-to-front",
}
"""Airflow values, aicnet's and NetBox's, to the two directions a rack's aisles care about."""


def airflow_direction(value: str | None) -> str | None:
    """front-to-back, back-to-front, or None (unknown, side-to-side, passive ...)."""
    return AIRFLOW_DIRECTIONS.get((value or "").strip().lower())


class RackSystem(_Entity):
    """The rack-scale system a server model is part of (an NVL72 rack: 18 compute trays and 9
    NVLink switch trays, one NVLink domain of 72 GPUs).  It is installed, powered and ordered as
    a rack: the generators put exactly `devices` of the model in a rack of its own, and a
    SuperPOD scalable unit is `su_racks` such racks."""

    name: NameText = Field(description="what the vendor calls the rack, e.g. GB300 NVL72 rack")
    devices: int = bounded_int(1, L.MAX_RACK_U, description="devices of the model in one rack")
    su_racks: int | None = bounded_int(
        1, L.MAX_RACKS, default=None,
        description="racks per scalable unit in the vendor's reference design; None: not stated")
    power_kw: float | None = bounded_float(
        L.MAX_RACK_POWER_KW, default=None, above=True,
        description="the whole rack's power as the vendor states it (its switch trays and power "
                    "shelves included); None: no document states it")
    switch_trays: int | None = bounded_int(
        1, L.MAX_RACK_U, default=None,
        description="NVLink switch trays in one rack (an NVL72 rack: 9); they join the rack's "
                    "GPUs into one NVLink domain over the rack's copper NVLink spine, not over "
                    "cables the design lays; None: not stated")
    switch_tray_model: NameText | None = Field(
        default=None, description="what the vendor calls the switch tray, e.g. NVLink Switch tray")
    switch_chips_per_tray: int | None = bounded_int(
        1, 64, default=None, description="NVLink switch chips in one switch tray (GB200: 2)")


class ReplaceablePart(_Entity):
    """A field-replaceable unit of a device the bill of materials lists (with spares), e.g. the
    external laser source modules that feed a co-packaged optics switch's optical engines."""

    kind: Literal["laser-source"] = Field(
        description="laser-source: an external laser module feeding optical engines")
    name: NameText = Field(description="what the vendor calls it, e.g. external laser source")
    part_numbers: list[NameText] = Field(default_factory=list, max_length=L.MAX_LIST)
    count: int = bounded_int(1, L.MAX_CAGE, description="units in one device")
    feeds: dict[Annotated[int, Field(ge=1, le=L.MAX_CAGE)],
                list[Annotated[int, Field(ge=0, le=L.MAX_CAGE)]]] | None = Field(
        default=None, max_length=L.MAX_CAGE,
        description="unit number (1-based) -> the cage numbers whose ports it feeds light to, "
                    "when the vendor publishes it; None: not published (a failed unit's blast "
                    "radius is then unknown)")
    power_w: float | None = bounded_float(L.MAX_MODULE_POWER_W, default=None,
                                          description="power of one unit when stated separately")
    price_usd: float | None = bounded_float(L.MAX_PRICE_USD, default=None)

    @model_validator(mode="after")
    def _units(self) -> ReplaceablePart:
        if self.feeds is not None:
            outside = sorted(u for u in self.feeds if u > self.count)
            if outside:
                raise ValueError(f"feeds names unit {outside[0]}, but there are {self.count}")
        return self


class DeviceModel(Sourced):
    """A switch, GPU server or storage node as the catalog describes it."""

    kind: Literal["device"] = "device"
    id: Annotated[str, Field(pattern=CATALOG_ID_PATTERN, max_length=L.MAX_ID)]
    vendor: NameText
    model: NameText
    part_numbers: list[NameText] = Field(default_factory=list, max_length=L.MAX_LIST)
    role: Role
    height_ru: int = bounded_int(0, L.MAX_RACK_U)
    power_typical_w: float | None = bounded_float(L.MAX_DEVICE_POWER_W, default=None)
    power_max_w: float | None = bounded_float(L.MAX_DEVICE_POWER_W, default=None)
    power_max_includes_optics: bool = Field(
        default=False, description="the maximum is the vendor's figure with active cables or "
        "optics in the cages, so it includes what the cages hold: the optics are not added again")
    power_verified: bool = Field(
        default=False, description="true when a vendor document that was read states the power "
        "figure counted (the maximum, else the typical, else the rack's); false: secondary or "
        "unchecked, power_source says where it comes from")
    power_source: FreeText = Field(
        default="", description="where the power figures come from (document, page, quality), "
        "when the entry's source does not say")
    gpus: int = bounded_int(0, L.MAX_GPUS, default=0)
    su_nodes: dict[Technology, Annotated[int, Field(gt=0, le=L.MAX_DEVICES)]] = Field(
        default_factory=dict,
        description="servers per scalable unit in the vendor's reference design, per fabric "
        "technology (DGX H100 on InfiniBand: 32); the rail-optimized generator's default",
    )
    nvlink_domain_gpus: int | None = bounded_int(
        1, L.MAX_GPUS, default=None,
        description="GPUs in the NVLink domain this server belongs to (8 on HGX/DGX, 72 on an "
                    "NVL72 rack); None: the server's own GPUs")
    nvlink_gbps: float | None = bounded_float(
        L.MAX_SPEED_GBPS * 64, default=None, above=True,
        description="GPU server: NVLink bandwidth of one GPU in one direction, Gb/s (H100: "
                    "450 GB/s = 3,600 Gb/s; NVLink 5: 900 GB/s = 7,200 Gb/s); None: not stated")
    rack_servers: int | None = bounded_int(
        1, L.MAX_RACK_U, default=None,
        description="servers per rack in the vendor's reference design (DGX B300: 4); the "
                    "generator says what rack budget that takes when its own budget fits fewer")
    rack_system: RackSystem | None = Field(
        default=None,
        description="the rack-scale system this server comes in (an NVL72 rack of 18 compute "
                    "trays); None: a server installed on its own")
    technology: list[Technology] = Field(min_length=1, max_length=4)
    cages: list[CageGroup] = Field(min_length=1, max_length=L.MAX_CAGE_GROUPS)
    subnet_manager: bool | None = Field(
        default=None, description="InfiniBand switch: true when it can run the subnet manager "
                                  "itself (internally managed), false when externally managed; "
                                  "None: unknown")
    firmware_family: NameText | None = Field(
        default=None, description="models that run one firmware line (e.g. quantum-2 for the "
                                  "QM9700 and QM9790); None: the model alone")
    switching_tbps: float | None = bounded_float(L.MAX_SWITCHING_TBPS, default=None)
    price_usd: float | None = bounded_float(
        L.MAX_PRICE_USD, default=None, description="list price if known; BOM cost")
    default_os: OsName | None = Field(default=None, description="OS whose port names exports use")
    airflow: NameText | None = Field(
        default=None, description="cooling air direction as mounted (front = the rack's front): "
                                  "front-to-back / back-to-front, or NetBox's slugs "
                                  "(front-to-rear, rear-to-front, ...); None: unknown or sold "
                                  "both ways (set a device's airflow tag)")
    weight_kg: float | None = bounded_float(L.MAX_WEIGHT_KG, default=None, above=True,
                                            description="weight of the unit, kg")
    cooling: Cooling | None = Field(
        default=None, description="air or liquid (a liquid-cooled device needs a rack with a "
                                  "liquid loop); None: not stated")
    power_feeds: list[PowerFeed] = Field(
        default_factory=list, max_length=2,
        description="the rack power feeds the device can take (ac, dc-busbar); empty: not stated")
    replaceable_parts: list[ReplaceablePart] = Field(
        default_factory=list, max_length=8,
        description="field-replaceable units the BOM lists with spares (laser source modules)")
    load_balancing: list[LoadBalancing] | None = Field(
        default=None, max_length=4,
        description="switch: the load-balancing modes its vendor documents for it "
                    "(model/load_balancing_modes.py); None: not stated (static hashing assumed)")
    nic_packet_reorder: bool | None = Field(
        default=None,
        description="GPU server: its compute NICs place the packets of one flow that arrive out "
                    "of order on Ethernet, as per-packet adaptive routing and spraying need "
                    "(NVIDIA: ConnectX-8 and BlueField-3 SuperNICs); None: not stated")
    gpu_architecture: Literal["volta", "ampere", "hopper", "blackwell"] | None = Field(
        default=None, description="GPU server: the GPUs' architecture (NCCL's tuning constants "
                                  "and NVLink SHARP depend on it); None: not stated")
    nvlink_links: int | None = bounded_int(
        1, 64, default=None, description="GPU server: NVLink links per GPU (H100: 18); None: "
                                         "not stated")

    @model_validator(mode="after")
    def _unique_cages(self) -> DeviceModel:
        seen: set[int] = set()
        for group in self.cages:
            overlap = seen.intersection(group.cage_numbers)
            if overlap:
                raise ValueError(f"cage group {group.name!r} reuses cage number {min(overlap)}")
            seen.update(group.cage_numbers)
        return self

    @cached_property
    def cage_group_of(self) -> dict[int, CageGroup]:
        return {cage: group for group in self.cages for cage in group.cage_numbers}

    @cached_property
    def optical_engines(self) -> dict[int, str]:
        """Cage -> the optical engine built in behind it (co-packaged optics), else nothing."""
        return {cage: group.optical_engine for group in self.cages if group.optical_engine
                for cage in group.cage_numbers}

    def laser_sources(self) -> ReplaceablePart | None:
        """The model's external laser source modules, if it has any."""
        return next((p for p in self.replaceable_parts if p.kind == "laser-source"), None)

    @property
    def is_switch(self) -> bool:
        return self.role in SWITCH_ROLES

    @property
    def tier(self) -> int:
        return ROLE_TIER[self.role]


class ReachTable(_Entity):
    """Maximum link length in metres per fibre grade (or `copper`)."""

    OM3: float | None = bounded_float(L.MAX_LENGTH_M, default=None)
    OM4: float | None = bounded_float(L.MAX_LENGTH_M, default=None)
    OM5: float | None = bounded_float(L.MAX_LENGTH_M, default=None)
    OS2: float | None = bounded_float(L.MAX_LENGTH_M, default=None)

    def best(self) -> tuple[str, float] | None:
        grades = [(g, getattr(self, g)) for g in ("OS2", "OM5", "OM4", "OM3")]
        known = [(g, r) for g, r in grades if r is not None]
        return max(known, key=lambda item: item[1]) if known else None


class Transceiver(Sourced):
    """A pluggable optic: one per cage; a twin-port optic has two optical ports (two links)."""

    kind: Literal["transceiver"] = "transceiver"
    id: Annotated[str, Field(pattern=CATALOG_ID_PATTERN, max_length=L.MAX_ID)]
    vendor: NameText
    model: NameText
    part_numbers: list[NameText] = Field(default_factory=list, max_length=L.MAX_LIST)
    form_factor: FormFactor
    top: TopType = "none"
    speed_gbps: int = bounded_int(1, L.MAX_SPEED_GBPS, description="total module rate")
    optical_ports: int = Field(default=1, ge=1, le=2)
    port_gbps: int = bounded_int(1, L.MAX_SPEED_GBPS,
                                 description="rate of one optical port (one link)")
    lanes_per_port: int = bounded_int(1, L.MAX_LANES)
    pmd: NameText
    media: Literal["MMF", "SMF"]
    connector: NameText = Field(description="e.g. MPO-12/APC, duplex LC, MPO-16")
    reach_m: ReachTable
    reach_note: FreeText = ""
    channel_loss_db: float | None = bounded_float(
        L.MAX_LOSS_DB, default=None, above=True,
        description="maximum channel insertion loss of one optical port's PMD (IEEE 802.3; "
                    "multimode: the OM4 column); None: not known (not checked)")
    channel_loss_source: FreeText = Field(
        default="", description="the IEEE 802.3 clause and the document the budget is read from")
    power_w: float = bounded_float(L.MAX_MODULE_POWER_W)
    breakouts: list[Annotated[str, Field(max_length=16)]] = Field(
        default_factory=list, max_length=16, description="per optical port, e.g. 2x200G")
    technology: list[Technology] = Field(min_length=1, max_length=4)
    switch_side: bool | None = Field(default=None, description="true: switch only; false: NIC only")
    price_usd: float | None = bounded_float(L.MAX_PRICE_USD, default=None)
    co_packaged: bool = Field(
        default=False,
        description="an optical engine built into a switch package (co-packaged optics), named by "
                    "its cage group's optical_engine: not a pluggable part, never ordered; its "
                    "power is in the switch's figure")

    @model_validator(mode="after")
    def _engine(self) -> Transceiver:
        if self.co_packaged and self.form_factor != "CPO":
            raise ValueError("a co-packaged optical engine has form_factor CPO")
        if self.form_factor == "CPO" and not self.co_packaged:
            raise ValueError("form_factor CPO is for co-packaged optical engines (co_packaged: true)")
        return self

    @property
    def twin_port(self) -> bool:
        return self.optical_ports == 2


class CableEnd(_Entity):
    form_factor: FormFactor | None = Field(default=None, description="None for a fibre connector end")
    top: TopType = "none"
    connector: NameText | None = None


class CableAssembly(Sourced):
    """A DAC, ACC/AEC, AOC or a fibre patch cord; a splitter has several B legs."""

    kind: Literal["cable"] = "cable"
    id: Annotated[str, Field(pattern=CATALOG_ID_PATTERN, max_length=L.MAX_ID)]
    vendor: NameText
    model: NameText
    part_numbers: list[NameText] = Field(default_factory=list, max_length=L.MAX_LIST)
    type: Literal["DAC", "ACC", "AEC", "AOC", "fibre", "UTP"]
    a_end: CableEnd
    b_end: CableEnd
    legs: int = bounded_int(1, L.MAX_LEGS, default=1,
                            description="B ends: 1 straight, 2/4/8 for a splitter")
    leg_gbps: int | None = bounded_int(1, L.MAX_SPEED_GBPS, default=None,
                                       description="rate per leg; None for passive fibre")
    lanes_per_leg: int | None = bounded_int(1, L.MAX_LANES, default=None)
    fibre_grade: FibreGrade | None = None
    fibres: int | None = bounded_int(1, L.MAX_FIBRES, default=None)
    polarity: NameText | None = None
    stock_lengths_m: list[Annotated[float, bounded_float(L.MAX_LENGTH_M, above=True)]] = Field(
        min_length=1, max_length=L.MAX_LIST)
    max_length_m: float = bounded_float(L.MAX_LENGTH_M, above=True)
    netbox_type: IdText = Field(description="NetBox cable type slug, e.g. dac-passive, mmf-om4")
    technology: list[Technology] = Field(min_length=1, max_length=4)
    power_w: float = bounded_float(L.MAX_MODULE_POWER_W, default=0.0)
    price_usd: float | None = bounded_float(L.MAX_PRICE_USD, default=None)

    @field_validator("stock_lengths_m")
    @classmethod
    def _ladder_sorted(cls, lengths: list[float]) -> list[float]:
        if sorted(lengths) != lengths:
            raise ValueError("stock_lengths_m must be in increasing order")
        return lengths

    @model_validator(mode="after")
    def _orderable_ladder(self) -> CableAssembly:
        """When the part numbers encode lengths, the ladder holds exactly the lengths that have
        one: a BOM must not order a length nobody lists."""
        coded = self.part_number_at
        if not coded:
            return self
        missing = [x for x in self.stock_lengths_m if x not in coded]
        if missing:
            raise ValueError(
                f"stock lengths {', '.join(f'{x:g} m' for x in missing)} have no part number; "
                f"the part numbers list {', '.join(f'{x:g} m' for x in sorted(coded))}"
            )
        extra = sorted(x for x in coded if x not in self.stock_lengths_m)
        if extra:
            raise ValueError(
                f"part numbers for {', '.join(f'{x:g} m' for x in extra)} are not in stock_lengths_m"
            )
        return self

    @cached_property
    def part_number_at(self) -> dict[float, str]:
        """Stock length -> the first listed part number that encodes it (the ordering number)."""
        coded: dict[float, str] = {}
        for number in self.part_numbers:
            length = length_of_part_number(number)
            if length is not None:
                coded.setdefault(length, number)
        return coded

    def order_number(self, length_m: float | None) -> str | None:
        """The part number to put on a purchase order for this part at `length_m` (an ordered
        stock length), or None when the vendor's per-length numbers are not in the catalog."""
        if length_m is None:
            return None
        return self.part_number_at.get(float(length_m))

    @property
    def integrated_ends(self) -> bool:
        """True when the ends are part of the cable (no separate optic): DAC/ACC/AEC/AOC."""
        return self.type in ("DAC", "ACC", "AEC", "AOC")

    @property
    def media(self) -> Media:
        if self.type in ("DAC", "ACC", "AEC", "UTP"):
            return "copper"
        if self.type == "AOC":
            return "MMF"
        return "SMF" if self.fibre_grade == "OS2" else "MMF"

    def ordered_length(self, length_m: float) -> float | None:
        """The shortest stock length that covers `length_m`, or None if none does."""
        for stock in self.stock_lengths_m:
            if stock + 1e-9 >= length_m:
                return stock
        return None


CatalogEntry = Annotated[DeviceModel | Transceiver | CableAssembly, Field(discriminator="kind")]
