"""The fabric document as stored in a `.fabric` file: metadata, settings, racks, devices, links,
workloads, the catalog entries the design uses and, when a study chose it, the requirement it
was chosen for.

These pydantic classes are plain data.  `FabricDocument` (document.py) owns one `Fabric`, keeps
its indices and is the only way to change it.  The objects a design has by the thousand (racks,
devices, links, workloads) are slotted dataclasses (values.py); the rest are BaseModels.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from functools import partial
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    StringConstraints,
    field_validator,
    model_validator,
)
from pydantic_core import CoreSchema, core_schema

from . import limits as L
from .cage_tables import CageConfig as CageConfig  # re-exported: part of the file's model
from .cage_tables import CageTable
from .catalog_entities import CableAssembly, DeviceModel, PowerFeed, Role, Transceiver
from .limits import FreeText, IdText, NameText, bounded_float, bounded_int
from .load_balancing_modes import LoadBalancing
from .os_naming import OsName
from .polarity import Method as PolarityMethod
from .polarity import Segment as PolaritySegment
from .templates import check_template
from .text_safety import NO_CONTROL
from .values import Value, value_class

SCHEMA_VERSION = 4
FILE_FORMAT = "aicnet.fabric"


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class FabricTechnology(StrEnum):
    INFINIBAND = "infiniband"
    ROCEV2 = "rocev2"
    ETHERNET = "ethernet"


class WorkloadKind(StrEnum):
    TRAINING = "training"
    INFERENCE = "inference"
    STORAGE = "storage"
    # multi-node serving: prefill and decode on different servers (KV cache crosses the fabric)
    INFERENCE_DISAGGREGATED = "inference-disaggregated"
    # multi-node serving with experts spread over servers (all-to-all every layer)
    INFERENCE_WIDE_EP = "inference-wide-ep"


#: how each workload kind reads in the editor's forms and lists
WORKLOAD_KIND_TITLES: dict[str, str] = {
    "training": "Training", "inference": "Inference", "storage": "Storage",
    "inference-disaggregated": "Inference, disaggregated prefill/decode",
    "inference-wide-ep": "Inference, wide expert parallelism"}


class LabelProfile(StrEnum):
    TIA_606 = "tia-606"
    ISO_14763 = "iso-14763"


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


class Metadata(_Data):
    name: NameText = "Untitled fabric"
    author: NameText = ""
    revision: NameText = "A"
    created: NameText = Field(default_factory=_now)
    modified: NameText = Field(default_factory=_now)
    description: FreeText = ""


class OversubscriptionTargets(_Data):
    """Highest acceptable downlink:uplink ratio per workload kind (1.0 means 1:1)."""

    training: float = bounded_float(L.MAX_RATIO, default=1.0, above=True,
                                    title=WORKLOAD_KIND_TITLES["training"])
    # NVIDIA's storage fabric: "a ratio near 4:3" (hardware.md 2.3)
    storage: float = bounded_float(L.MAX_RATIO, default=4 / 3, above=True,
                                   title=WORKLOAD_KIND_TITLES["storage"])
    inference: float = bounded_float(L.MAX_RATIO, default=3.0, above=True,
                                     title=WORKLOAD_KIND_TITLES["inference"],
                                     description="single-node serving replicas")
    inference_disaggregated: float = bounded_float(
        L.MAX_RATIO, default=1.0, above=True, title=WORKLOAD_KIND_TITLES["inference-disaggregated"],
        description="prefill/decode on different servers")
    inference_wide_ep: float = bounded_float(L.MAX_RATIO, default=1.0, above=True,
                                             title=WORKLOAD_KIND_TITLES["inference-wide-ep"],
                                             description="experts over many servers")

    def for_kind(self, kind: WorkloadKind) -> float:
        return float(getattr(self, kind.value.replace("-", "_")))


class LengthEstimation(_Data):
    """Parameters of the cable length estimate (DESIGN.md §3, cabling.md §4)."""

    slack_m: float = bounded_float(100, default=1.0, description="service loop added to every run")
    slack_percent: float = bounded_float(1000, default=10.0, description="added on top of the route")
    tray_height_m: float = bounded_float(100, default=2.6, description="cable tray above the floor")
    ru_height_m: float = bounded_float(1, default=0.04445, above=True)
    rack_base_m: float = bounded_float(100, default=0.1, description="floor to the bottom of RU 1")
    in_rack_m: float = bounded_float(100, default=0.5, description="extra route inside one rack")
    tile_m: float = bounded_float(100, default=0.6, above=True, description="floor tile pitch")
    rack_width_m: float = bounded_float(100, default=0.6, above=True)
    row_pitch_m: float = bounded_float(1000, default=4.2, above=True, description="row to row (7 tiles)")


class Notes(_Data):
    """Free text for the design report (the GUI edits these)."""

    ecmp: FreeText = ""
    optics_plan: FreeText = ""
    nccl: FreeText = ""
    firmware: FreeText = ""
    growth: FreeText = ""
    general: FreeText = ""


class Settings(_Data):
    technology: FabricTechnology = FabricTechnology.INFINIBAND
    mtu: int = Field(default=4096, ge=576, le=9216)
    pfc: bool = False
    pfc_priority: int = Field(default=3, ge=0, le=7)
    ecn: bool = False
    dcb: bool = False
    roce_dscp: int = Field(default=26, ge=0, le=63, description="DSCP of RoCEv2 data traffic")
    cnp_dscp: int = Field(default=48, ge=0, le=63,
                          description="DSCP of the congestion notification packets (DCQCN)")
    cnp_priority: int = Field(default=6, ge=0, le=7, description="priority (class) of the CNPs")
    pfc_cable_length_m: float = bounded_float(
        L.MAX_LENGTH_M, default=100.0, above=True,
        description="cable length the switches' PFC headroom is sized for (a longer link can "
                    "overflow it)")
    ecmp_policy: NameText = "adaptive routing"
    load_balancing: LoadBalancing = Field(
        default="adaptive",
        description="how the switches spread traffic over equal-cost paths (model/"
                    "load_balancing_modes.py): ecmp (static hashing), flowlet, adaptive (per-packet "
                    "adaptive routing), spray (per-packet spraying); a switch whose model does "
                    "not run it hashes (LOAD-BALANCING)")
    weighted_ecmp: bool = Field(
        default=False,
        description="Ethernet: switches weight ECMP next hops by link bandwidth (e.g. BGP "
                    "link-bandwidth community), so mixed member speeds are balanced")
    subnet_managers: list[IdText] = Field(
        default_factory=list, max_length=L.MAX_LIST,
        description="InfiniBand: device ids running the subnet manager, master first, then "
                    "standbys (internally managed switches or UFM / OpenSM hosts)")
    firmware_baselines: dict[NameText, NameText] = Field(
        default_factory=dict, max_length=L.MAX_CATALOG_ENTRIES,
        description="firmware baseline per firmware family (catalog firmware_family, e.g. "
                    "quantum-2) or model id; unset: the newest version seen")
    oversubscription: OversubscriptionTargets = Field(default_factory=OversubscriptionTargets)
    lengths: LengthEstimation = Field(default_factory=LengthEstimation)
    label_profile: LabelProfile = LabelProfile.TIA_606
    site: NameText = "1A"
    power_feed_kw: float | None = bounded_float(
        L.MAX_RACK_POWER_KW, default=None, above=True,
        description="capacity of one of a rack's two (A/B) power feeds: with 2N feeds either "
                    "one must carry the whole rack; None: not checked")
    spares_percent: float = bounded_float(100, default=5.0)
    idle_ports_percent: float | None = bounded_float(
        100, default=25.0, above=True,
        description="PORTS-IDLE: report the switches of one model and tier when more than this "
                    "share of their fabric ports is unused and fewer switches would carry their "
                    "links; None: not checked (e.g. the free ports are growth room)")
    allreduce_message_mb: float = bounded_float(L.MAX_MESSAGE_MB, default=1024.0, above=True)
    rail_planes: bool = Field(
        default=False,
        description="the rails are separate fabrics on purpose (rail-only design): GPUs on "
        "different rails reach each other through NVLink inside a server, not the switches",
    )
    naming: dict[IdText, str] = Field(
        max_length=L.MAX_TAGS,
        default_factory=lambda: {
            "gpu_server": "gpu-{n:03d}",
            "storage": "stor-{n:02d}",
            "leaf": "leaf-{n:02d}",
            "spine": "spine-{n:02d}",
            "core": "core-{n:02d}",
            "mgmt": "mgmt-{n:02d}",
        }
    )
    notes: Notes = Field(default_factory=Notes)
    port_os: dict[IdText, OsName | Literal["design"]] = Field(
        default_factory=dict, max_length=L.MAX_CATALOG_ENTRIES,
        description="device model id -> OS whose port names exports show (model/port_names_os.py)")

    @field_validator("naming")
    @classmethod
    def _naming_templates(cls, naming: dict[str, str]) -> dict[str, str]:
        for role, pattern in naming.items():
            try:
                check_template(pattern, ("n",))
            except ValueError as exc:
                raise ValueError(f"naming[{role!r}]: {exc}") from None
        return naming


@value_class
class Rack(Value):
    id: Annotated[str, Field(min_length=1, max_length=L.MAX_ID), NO_CONTROL]
    name: Annotated[str, Field(min_length=1, max_length=L.MAX_NAME), NO_CONTROL]
    row: int = bounded_int(0, L.MAX_ROW, default=1)
    position: int = bounded_int(0, L.MAX_ROW, default=1)
    x_m: float | None = bounded_float(L.MAX_COORDINATE_M, -L.MAX_COORDINATE_M, default=None,
                                      description="floor position; None: from row/position")
    y_m: float | None = bounded_float(L.MAX_COORDINATE_M, -L.MAX_COORDINATE_M, default=None)
    height_ru: int = bounded_int(1, L.MAX_RACK_U, default=48)
    power_kw: float | None = bounded_float(L.MAX_RACK_POWER_KW, default=None, above=True,
                                           description="power budget of the rack")
    cooling: Literal["air", "liquid", "air+liquid"] | None = Field(
        default=None, description="what the rack can cool: air only, a liquid loop only, or both; "
                                  "None: not stated (liquid-cooled devices are then not judged)")
    power_feeds: list[PowerFeed] | None = Field(
        default=None, max_length=2,
        description="the power feeds the rack delivers (ac PDUs, a dc-busbar); None: not stated")
    nvlink_domain: IdText | None = Field(
        default=None, min_length=1,
        description="the NVLink domain id of the rack's rack-scale system (the ClusterUUID or "
                    "NMX domain name the site uses); racks that share one form one domain; "
                    "None: the rack's own domain, named after the rack")


@value_class
class Device(Value):
    id: Annotated[str, Field(min_length=1, max_length=L.MAX_ID), NO_CONTROL]
    name: Annotated[str, Field(min_length=1, max_length=L.MAX_NAME), NO_CONTROL]
    model: Annotated[str, Field(min_length=1, max_length=L.MAX_ID,
                                description="catalog id of the device model"), NO_CONTROL]
    role: Role | None = Field(
        default=None, description="role in this fabric; None: the model's usual role"
    )
    rack: IdText | None = None
    ru: int | None = bounded_int(1, L.MAX_RACK_U, default=None,
                                 description="lowest RU occupied, counted from 1")
    position: tuple[Annotated[float, bounded_float(L.MAX_CANVAS, -L.MAX_CANVAS)],
                    Annotated[float, bounded_float(L.MAX_CANVAS, -L.MAX_CANVAS)]] = (0.0, 0.0)
    firmware: NameText = ""
    cages: CageTable = Field(default_factory=dict)
    tags: dict[IdText, NameText] = Field(default_factory=dict, max_length=L.MAX_TAGS,
                                         description="su, pod, plane ...")
    plane: str | None = Field(
        default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$",
        description="the compute-fabric plane of a switch in a multi-plane design ('1', '2' ...: "
        "each plane its own fat tree); None: not in one plane (servers reach every plane)",
    )


NonEmpty = Annotated[str, StringConstraints(min_length=1)]


class Endpoint(NamedTuple):
    """One end of a link: (device id, logical port name).

    A tuple rather than a model: a 100k-link fabric has 200k ends, and as tuples they are
    created faster, hash as the (device, port) key of the port index as they are, and are
    written as `["gpu-001", "p1"]`.  Pydantic validates one as a pair of non-empty strings
    (a list or tuple) and makes the Endpoint in C (`tuple.__new__`), not through the named
    tuple's Python constructor: 200k calls of it were a tenth of reading a big file.
    """

    device: str
    port: str

    def key(self) -> tuple[str, str]:
        return self

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_after_validator_function(partial(tuple.__new__, cls),
                                                            ENDPOINT_PAIR_SCHEMA)


_END_NAME = core_schema.str_schema(min_length=1, max_length=L.MAX_NAME)
#: a link end as the file holds it, two non-empty strings, validated to a plain tuple
ENDPOINT_PAIR_SCHEMA = core_schema.tuple_schema([_END_NAME, _END_NAME])


class LinkPatch(_Data):
    """Structured cabling in a link's channel: patch panels / MPO trunks between the optics.

    The channel's fibre length is the link's length (typed-in or estimated: the route through
    the panels); `mated_pairs` counts the connector matings inside the channel (a cord to a
    panel in each rack with a trunk between: 2; a cross-connect: 4), not the two optics' own
    ports.  Checked by INSERTION-LOSS and PATCH-POLISH (analysis/rules_cabling.py).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    mated_pairs: int = bounded_int(0, L.MAX_MATED_PAIRS, default=2,
                                   description="mated connector pairs inside the channel")
    loss_per_pair_db: float | None = bounded_float(
        L.MAX_LOSS_DB, default=None,
        description="insertion loss of one mated pair (vendor's low-loss value); None: the "
                    "TIA-568.3 maximum of 0.75 dB")
    polish: Literal["UPC", "APC"] | None = Field(
        default=None, description="end-face polish of the panels' MPO connectors; None: unknown")
    # polarity of each segment (model/polarity.py, checked by CHANNEL-POLARITY)
    method: PolarityMethod | None = Field(
        default=None, description="TIA-568.3-D connectivity method (A, B, C); the parts not "
                                  "given are the method's standard ones")
    trunk: PolaritySegment | None = Field(
        default=None, description="trunk polarity: MPO Type A/B/C (or a duplex A-to-A/A-to-B trunk)")
    cord_a: PolaritySegment | None = Field(
        default=None, description="patch cord at end a: MPO Type A/B/C or duplex A-to-A/A-to-B; "
                                  "None: the link's cord from the catalog")
    cord_b: PolaritySegment | None = Field(
        default=None, description="patch cord at end b, as cord_a")


@value_class
class Link(Value):
    id: Annotated[str, Field(min_length=1, max_length=L.MAX_ID), NO_CONTROL]
    a: Endpoint
    b: Endpoint
    cable: IdText | None = Field(default=None, description="catalog id: DAC/ACC/AOC or fibre cord")
    assembly: IdText | None = Field(default=None, description="legs of one splitter share this id")
    length_m: float | None = bounded_float(L.MAX_LENGTH_M, default=None, above=True,
                                           description="manual length; None: estimate")
    colour: NameText | None = None
    rail: int | None = bounded_int(0, L.MAX_RAIL, default=None)
    plane: NameText | None = None
    pinned: bool = Field(default=False, description="media chosen by hand: automatic choice leaves it")
    notes: FreeText = ""
    patch: LinkPatch | None = Field(
        default=None, description="patch panels / trunks in the channel; None: one direct cord")


@value_class
class Workload(Value):
    id: Annotated[str, Field(min_length=1, max_length=L.MAX_ID), NO_CONTROL]
    name: Annotated[str, Field(min_length=1, max_length=L.MAX_NAME), NO_CONTROL]
    kind: WorkloadKind = WorkloadKind.TRAINING
    members: list[IdText] = Field(default_factory=list, max_length=L.MAX_DEVICES,
                                  description="device ids of its servers")
    pattern: Literal["ring-allreduce", "all-to-all"] = "ring-allreduce"
    placement: Literal["topology-aware", "scattered"] = Field(
        default="topology-aware",
        description="rank order of a ring: in topology order (one stream per switch crossing) "
                    "or scattered by the scheduler (ring neighbours anywhere in the fabric)")
    target_gbps_per_gpu: float | None = bounded_float(L.MAX_SPEED_GBPS, default=None, above=True)
    message_mb: float | None = bounded_float(L.MAX_MESSAGE_MB, default=None, above=True)
    algorithm: Literal["auto", "ring", "tree", "collnet", "nvls"] = Field(
        default="auto",
        description="NCCL all-reduce algorithm of the estimate: auto (NCCL's own choice by its "
                    "tuning model, NCCL_ALGO unset), ring, tree (double binary tree), collnet "
                    "(IB SHARP), nvls (NVLink SHARP); SHARP needs InfiniBand")


# ---------------------------------------------------------------- the requirement
# What the architect asks of a fabric before choosing one, the input of a study (`aicnet
# compare`, aicnet_gui/study/): the cluster (server model and count, or GPUs), its workloads,
# the oversubscription each kind accepts, the growth it must allow, the site, the user's price
# list, and what may vary (technologies, switch models, and the other axes to sweep).  Every
# combination of the allowed values is one candidate design.  It travels in the `.fabric` file
# (`Fabric.requirement`: a chosen design keeps what it was chosen for) or on its own as
# `NAME.requirement.json` / `.yaml` (fileio/requirement_file.py); `aicnet schema requirement`.

REQUIREMENT_FORMAT = "aicnet.requirement"
REQUIREMENT_VERSION = 1
#: the most candidates one study builds (every combination of the allowed values)
MAX_CANDIDATES = 512
#: how a server's NICs reach the leaves
Layout = Literal["rail", "tor", "rail-optimized", "rail-only"]
LAYOUTS: dict[str, str] = {
    "rail": "NIC i of a group of servers to leaf i of the group, leaves and spines as a fat tree "
            "(two- or three-tier template)",
    "tor": "every NIC of a server to one top-of-rack leaf (two- or three-tier template)",
    "rail-optimized": "scalable units as NVIDIA DGX SuperPOD: NIC i of every server of an SU to "
                      "the SU's leaf i, as many ports up as down (rail-optimized template)",
    "rail-only": "rail-optimized SUs whose rails are separate fabrics (traffic between rails "
                 "crosses NVLink inside the servers)",
}
Tiers = Literal["auto", "2", "3"]
Planes = Literal[1, 2, 4]


class _Requirement(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WorkloadNeed(_Requirement):
    """One workload the fabric must carry: a training job, an inference pool or storage
    traffic, on a number of GPUs or servers (consecutive servers from the first free one, as a
    topology-aware scheduler places a job)."""

    id: IdText = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$",
                       description="short id, e.g. train-1 (the key of allreduce_ms)")
    name: NameText | None = Field(default=None, description="name; None: from the kind and size")
    kind: WorkloadKind = WorkloadKind.TRAINING
    gpus: int | None = bounded_int(1, L.MAX_DEVICES * L.MAX_GPUS, default=None,
                                   description="GPUs of the workload (whole servers)")
    servers: int | None = bounded_int(1, L.MAX_DEVICES, default=None,
                                      description="servers of the workload; neither gpus nor "
                                                  "servers: every server of the cluster")
    pattern: Literal["ring-allreduce", "all-to-all"] | None = Field(
        default=None, description="traffic pattern; None: ring-allreduce for training, "
                                  "all-to-all for inference and storage")
    algorithm: Literal["auto", "ring", "tree", "collnet", "nvls"] | None = Field(
        default=None, description="NCCL all-reduce algorithm of the estimate; None: auto "
                                  "(NCCL's own choice by its tuning model)")
    message_mb: float | None = bounded_float(
        L.MAX_MESSAGE_MB, default=None, above=True,
        description="all-reduce message size; None: the project's (1024 MB)")

    @model_validator(mode="after")
    def _one_size(self) -> WorkloadNeed:
        if self.gpus is not None and self.servers is not None:
            raise ValueError("give gpus or servers, not both")
        return self


class GrowthTarget(_Requirement):
    """How far the fabric must grow: a total of servers, GPUs or scalable units."""

    servers: int | None = bounded_int(1, L.MAX_DEVICES, default=None,
                                      description="servers after the growth (in total)")
    gpus: int | None = bounded_int(1, L.MAX_DEVICES * L.MAX_GPUS, default=None,
                                   description="GPUs after the growth (in total)")
    sus: int | None = bounded_int(1, 4096, default=None,
                                  description="scalable units after the growth (in total, of the "
                                              "design's own SU size)")
    same_spines: bool = Field(
        default=True, description="the growth must fit the spines (and cores) bought now: a new "
                                  "spine or core switch does not count as fitting")

    @model_validator(mode="after")
    def _one_target(self) -> GrowthTarget:
        given = [n for n in ("servers", "gpus", "sus") if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of servers, gpus or sus")
        return self


class SiteLimits(_Requirement):
    """The floor the fabric must fit on."""

    rack_power_kw: float = bounded_float(L.MAX_RACK_POWER_KW, default=42.0, above=True,
                                         description="power budget per rack")
    rack_height_ru: int = bounded_int(8, 60, default=48, description="rack height in RU")
    racks_per_row: int = bounded_int(2, 60, default=20, description="longest row of racks")
    rows: int | None = bounded_int(1, L.MAX_ROW, default=None,
                                   description="rows of racks the site has; None: no limit")


class Sweep(_Requirement):
    """The axes besides technology and switch model, each a list of the values to try."""

    speeds_gbps: list[int] = Field(
        default_factory=list, max_length=8,
        description="port speeds; empty: the fastest the server and the switches share")
    tiers: list[Tiers] = Field(default_factory=lambda: ["auto"], min_length=1, max_length=3,
                               description="auto: two tiers when they hold the cluster, else three")
    planes: list[Planes] = Field(default_factory=lambda: [1], min_length=1, max_length=3,
                                 description="compute planes (each GPU's NIC split over them)")
    oversubscription: list[float] = Field(
        default_factory=lambda: [1.0], min_length=1, max_length=8,
        description="leaf downlink:uplink ratios (1 for 1:1); rail-optimized SUs are 1:1")
    layouts: list[Layout] = Field(
        default_factory=list, max_length=4,
        description="rail layouts; empty: rail, or rail-optimized when planes > 1 are asked for")

    @model_validator(mode="after")
    def _values(self) -> Sweep:
        if any(s <= 0 or s > L.MAX_SPEED_GBPS for s in self.speeds_gbps):
            raise ValueError(f"speeds_gbps: each between 1 and {L.MAX_SPEED_GBPS}")
        if any(not (1.0 <= r <= 16.0) for r in self.oversubscription):
            raise ValueError("oversubscription: each ratio between 1 (1:1) and 16 (16:1)")
        for name in ("speeds_gbps", "tiers", "planes", "oversubscription", "layouts"):
            values = getattr(self, name)
            if len(set(values)) != len(values):
                raise ValueError(f"{name}: a value is listed twice")
        return self


class Requirement(_Requirement):
    """What the fabric must do, and which designs may do it."""

    name: NameText = Field(default="Cluster", min_length=1, description="name of the study")
    server: IdText = Field(default="nvidia-dgx-h100", min_length=1,
                           description="catalog id of the GPU server")
    servers: int | None = bounded_int(1, L.MAX_DEVICES, default=None,
                                      description="number of servers")
    gpus: int | None = bounded_int(1, L.MAX_DEVICES * L.MAX_GPUS, default=None,
                                   description="number of GPUs (instead of servers: whole servers)")
    workloads: list[WorkloadNeed] = Field(
        default_factory=list, max_length=L.MAX_WORKLOADS,
        description="workloads; empty: one training job over every server")
    targets: OversubscriptionTargets = Field(
        default_factory=OversubscriptionTargets,
        description="highest downlink:uplink ratio each kind of workload accepts")
    growth: GrowthTarget | None = Field(default=None, description="growth the fabric must allow")
    site: SiteLimits = Field(default_factory=SiteLimits)
    prices: str | None = Field(
        default=None, max_length=4096,
        description="the user's price list CSV (part, unit_price, currency, date), relative to "
                    "the file that holds the requirement; None: no prices")
    technologies: list[FabricTechnology] = Field(
        default_factory=list, max_length=3,
        description="technologies allowed; empty: each switch model's own")
    leaves: list[IdText] = Field(
        default_factory=list, max_length=32,
        description="leaf switch models allowed; empty: every catalog switch of an allowed "
                    "technology, each also as its own spine")
    spines: list[IdText] = Field(
        default_factory=list, max_length=32,
        description="spine (and core) switch models allowed; empty: the leaf model")
    sweep: Sweep = Field(default_factory=Sweep)

    @model_validator(mode="after")
    def _size(self) -> Requirement:
        if (self.servers is None) == (self.gpus is None):
            raise ValueError("give the number of servers or the number of GPUs (one of them)")
        ids = [w.id for w in self.workloads]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"workloads: the id {twice[0]!r} is used twice")
        for name in ("technologies", "leaves", "spines"):
            values = getattr(self, name)
            if len(set(values)) != len(values):
                raise ValueError(f"{name}: a value is listed twice")
        return self


class EmbeddedCatalog(_Data):
    devices: list[DeviceModel] = Field(default_factory=list, max_length=L.MAX_CATALOG_ENTRIES)
    transceivers: list[Transceiver] = Field(default_factory=list,
                                            max_length=L.MAX_CATALOG_ENTRIES)
    cables: list[CableAssembly] = Field(default_factory=list, max_length=L.MAX_CATALOG_ENTRIES)


class Fabric(_Data):
    format: Literal["aicnet.fabric"] = FILE_FORMAT
    schema_version: int = SCHEMA_VERSION
    metadata: Metadata = Field(default_factory=Metadata)
    settings: Settings = Field(default_factory=Settings)
    racks: list[Rack] = Field(default_factory=list, max_length=L.MAX_RACKS)
    devices: list[Device] = Field(default_factory=list, max_length=L.MAX_DEVICES)
    links: list[Link] = Field(default_factory=list, max_length=L.MAX_LINKS)
    workloads: list[Workload] = Field(default_factory=list, max_length=L.MAX_WORKLOADS)
    catalog: EmbeddedCatalog = Field(default_factory=EmbeddedCatalog)
    requirement: Requirement | None = Field(
        default=None, description="what the design was chosen for (aicnet compare); None: none")
