"""The fabric document as stored in a `.fabric` file: metadata, settings, racks, devices, links,
workloads and the catalog entries the design uses.

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
)
from pydantic_core import CoreSchema, core_schema

from .cage_tables import CageConfig as CageConfig  # re-exported: part of the file's model
from .cage_tables import CageTable
from .catalog_entities import CableAssembly, DeviceModel, Role, Transceiver
from .port_names_os import OsName
from .values import Value, value_class

SCHEMA_VERSION = 3
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


class LabelProfile(StrEnum):
    TIA_606 = "tia-606"
    ISO_14763 = "iso-14763"


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


class Metadata(_Data):
    name: str = "Untitled fabric"
    author: str = ""
    revision: str = "A"
    created: str = Field(default_factory=_now)
    modified: str = Field(default_factory=_now)
    description: str = ""


class OversubscriptionTargets(_Data):
    """Highest acceptable downlink:uplink ratio per workload kind (1.0 means 1:1)."""

    training: float = Field(default=1.0, gt=0)
    storage: float = Field(default=4 / 3, gt=0)
    inference: float = Field(default=3.0, gt=0, description="single-node serving replicas")
    inference_disaggregated: float = Field(default=1.0, gt=0,
                                           description="prefill/decode on different servers")
    inference_wide_ep: float = Field(default=1.0, gt=0, description="experts over many servers")

    def for_kind(self, kind: WorkloadKind) -> float:
        return float(getattr(self, kind.value.replace("-", "_")))


class LengthEstimation(_Data):
    """Parameters of the cable length estimate (DESIGN.md §3, cabling.md §4)."""

    slack_m: float = Field(default=1.0, ge=0, description="service loop added to every run")
    slack_percent: float = Field(default=10.0, ge=0, description="added on top of the route")
    tray_height_m: float = Field(default=2.6, ge=0, description="cable tray above the floor")
    ru_height_m: float = Field(default=0.04445, gt=0)
    rack_base_m: float = Field(default=0.1, ge=0, description="floor to the bottom of RU 1")
    in_rack_m: float = Field(default=0.5, ge=0, description="extra route inside one rack")
    tile_m: float = Field(default=0.6, gt=0, description="floor tile pitch")
    rack_width_m: float = Field(default=0.6, gt=0)
    row_pitch_m: float = Field(default=4.2, gt=0, description="row to row (7 tiles)")


class Notes(_Data):
    """Free text for the design report (the GUI edits these)."""

    ecmp: str = ""
    optics_plan: str = ""
    nccl: str = ""
    firmware: str = ""
    growth: str = ""
    general: str = ""


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
    pfc_cable_length_m: float = Field(
        default=100.0, gt=0,
        description="cable length the switches' PFC headroom is sized for (a longer link can "
                    "overflow it)")
    ecmp_policy: str = "adaptive routing"
    weighted_ecmp: bool = Field(
        default=False,
        description="Ethernet: switches weight ECMP next hops by link bandwidth (e.g. BGP "
                    "link-bandwidth community), so mixed member speeds are balanced")
    subnet_managers: list[str] = Field(
        default_factory=list,
        description="InfiniBand: device ids running the subnet manager, master first, then "
                    "standbys (internally managed switches or UFM / OpenSM hosts)")
    firmware_baselines: dict[str, str] = Field(
        default_factory=dict,
        description="firmware baseline per firmware family (catalog firmware_family, e.g. "
                    "quantum-2) or model id; unset: the newest version seen")
    oversubscription: OversubscriptionTargets = Field(default_factory=OversubscriptionTargets)
    lengths: LengthEstimation = Field(default_factory=LengthEstimation)
    label_profile: LabelProfile = LabelProfile.TIA_606
    site: str = "1A"
    power_feed_kw: float | None = Field(
        default=None, gt=0,
        description="capacity of one of a rack's two (A/B) power feeds: with 2N feeds either "
                    "one must carry the whole rack; None: not checked")
    spares_percent: float = Field(default=5.0, ge=0, le=100)
    allreduce_message_mb: float = Field(default=1024.0, gt=0)
    rail_planes: bool = Field(
        default=False,
        description="the rails are separate fabrics on purpose (rail-only design): GPUs on "
        "different rails reach each other through NVLink inside a server, not the switches",
    )
    naming: dict[str, str] = Field(
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
    port_os: dict[str, OsName | Literal["design"]] = Field(
        default_factory=dict,
        description="device model id -> OS whose port names exports show (model/port_names_os.py)")


@value_class
class Rack(Value):
    id: Annotated[str, Field(min_length=1)]
    name: Annotated[str, Field(min_length=1)]
    row: int = Field(default=1, ge=0)
    position: int = Field(default=1, ge=0)
    x_m: float | None = Field(default=None, description="floor position; None: from row/position")
    y_m: float | None = None
    height_ru: int = Field(default=48, gt=0)
    power_kw: float | None = Field(default=None, gt=0, description="power budget of the rack")


@value_class
class Device(Value):
    id: Annotated[str, Field(min_length=1)]
    name: Annotated[str, Field(min_length=1)]
    model: Annotated[str, Field(min_length=1, description="catalog id of the device model")]
    role: Role | None = Field(
        default=None, description="role in this fabric; None: the model's usual role"
    )
    rack: str | None = None
    ru: int | None = Field(default=None, ge=1, description="lowest RU occupied, counted from 1")
    position: tuple[float, float] = (0.0, 0.0)
    firmware: str = ""
    cages: CageTable = Field(default_factory=dict)
    tags: dict[str, str] = Field(default_factory=dict, description="su, pod, plane ...")
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
        name = core_schema.str_schema(min_length=1)
        return core_schema.no_info_after_validator_function(
            partial(tuple.__new__, cls), core_schema.tuple_schema([name, name]))


@value_class
class Link(Value):
    id: Annotated[str, Field(min_length=1)]
    a: Endpoint
    b: Endpoint
    cable: str | None = Field(default=None, description="catalog id: DAC/ACC/AOC or fibre cord")
    assembly: str | None = Field(default=None, description="legs of one splitter share this id")
    length_m: float | None = Field(default=None, gt=0, description="manual length; None: estimate")
    colour: str | None = None
    rail: int | None = None
    plane: str | None = None
    pinned: bool = Field(default=False, description="media chosen by hand: automatic choice leaves it")
    notes: str = ""


@value_class
class Workload(Value):
    id: Annotated[str, Field(min_length=1)]
    name: Annotated[str, Field(min_length=1)]
    kind: WorkloadKind = WorkloadKind.TRAINING
    members: list[str] = Field(default_factory=list, description="device ids of its servers")
    pattern: Literal["ring-allreduce", "all-to-all"] = "ring-allreduce"
    placement: Literal["topology-aware", "scattered"] = Field(
        default="topology-aware",
        description="rank order of a ring: in topology order (one stream per switch crossing) "
                    "or scattered by the scheduler (ring neighbours anywhere in the fabric)")
    target_gbps_per_gpu: float | None = Field(default=None, gt=0)
    message_mb: float | None = Field(default=None, gt=0)


class EmbeddedCatalog(_Data):
    devices: list[DeviceModel] = Field(default_factory=list)
    transceivers: list[Transceiver] = Field(default_factory=list)
    cables: list[CableAssembly] = Field(default_factory=list)


class Fabric(_Data):
    format: Literal["aicnet.fabric"] = FILE_FORMAT
    schema_version: int = SCHEMA_VERSION
    metadata: Metadata = Field(default_factory=Metadata)
    settings: Settings = Field(default_factory=Settings)
    racks: list[Rack] = Field(default_factory=list)
    devices: list[Device] = Field(default_factory=list)
    links: list[Link] = Field(default_factory=list)
    workloads: list[Workload] = Field(default_factory=list)
    catalog: EmbeddedCatalog = Field(default_factory=EmbeddedCatalog)
