"""Generator parameters as pydantic models, so the GUI wizard can render a form from them.

Each template has its own model (`TwoTierParams`, `RailOptimizedParams`, `ThreeTierParams`); they
share the hardware choice, the technology, the workload, the floor (`FloorParams`) and the media
policy (`MediaParams`, the media package's own, `media/policy.py`).  Every field has a
description and bounds; `TemplateParams` is the tagged union of the three (`template` is the
tag).  Which templates exist, with their planners, is `template_registry.py`'s list.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..media.policy import MediaParams


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FloorParams(_Params):
    """How devices go into racks and racks onto the floor (600 mm tiles, hot/cold aisles)."""

    rack_power_kw: float = Field(
        default=42.0, gt=0,
        description="power budget per rack (42 kW: 4 DGX H100 at 10.2 kW plus their optics)",
    )
    rack_height_ru: int = Field(default=48, ge=8, le=60, description="rack height in RU")
    reserved_top_ru: int = Field(
        default=2, ge=0, le=10, description="RU kept free at the top of every rack (patch panel)"
    )
    server_power_kw: float | None = Field(
        default=None,
        gt=0,
        description="power per server; None: the catalog's maximum power of the server model",
    )
    servers_per_rack: int | None = Field(
        default=None, ge=1, description="servers per rack; None: from rack power and RU"
    )
    switches_per_rack: int = Field(
        default=16, ge=1, le=48, description="most switches in one network rack"
    )
    racks_per_row: int = Field(default=20, ge=2, le=60, description="longest row of racks")
    rack_depth_m: float = Field(default=1.2, gt=0, description="rack footprint depth (2 tiles)")
    cold_aisle_m: float = Field(default=1.2, gt=0, description="cold aisle width (2 tiles)")
    hot_aisle_m: float = Field(default=1.2, gt=0, description="hot aisle width (2 tiles)")


class _Common(_Params):
    name: str | None = Field(default=None, description="fabric name; None: from the template")
    server: str = Field(default="nvidia-dgx-h100", description="catalog id of the GPU server")
    leaf: str = Field(default="nvidia-qm9700", description="catalog id of the leaf switch")
    spine: str | None = Field(
        default=None, description="catalog id of the spine switch; None: the leaf model"
    )
    technology: Literal["auto", "infiniband", "rocev2", "ethernet"] = Field(
        default="auto",
        description="auto: InfiniBand for IB switches, RoCEv2 (PFC/ECN, MTU 9000) for Ethernet",
    )
    workload: Literal["training", "inference", "storage"] = Field(
        default="training", description="kind of the one workload that spans all servers"
    )
    speed_gbps: int | None = Field(
        default=None, gt=0, description="port speed of the fabric; None: the fastest all share"
    )
    floor: FloorParams = Field(default_factory=FloorParams, description="racks and floor")
    media: MediaParams = Field(default_factory=MediaParams, description="media choice")
    choose_media: bool = Field(default=True, description="pick optics and cables for every link")


class TwoTierParams(_Common):
    """Leaf-spine for N servers at a target oversubscription at the leaves."""

    template: Literal["two-tier"] = "two-tier"
    servers: int = Field(default=64, ge=1, le=100_000, description="number of GPU servers")
    oversubscription: float = Field(
        default=1.0, ge=1.0, le=16.0, description="leaf downlink:uplink bandwidth, e.g. 3 for 3:1"
    )
    attach: Literal["rail", "tor"] = Field(
        default="rail",
        description="rail: NIC i of a server group goes to leaf i of its group; "
        "tor: all NICs of a server go to one leaf",
    )


class RailOptimizedParams(_Common):
    """Scalable units as in NVIDIA DGX SuperPOD: NIC i of every server of an SU -> leaf i."""

    template: Literal["rail-optimized"] = "rail-optimized"
    sus: int = Field(default=1, ge=1, le=1024, description="number of scalable units")
    nodes_per_su: int | None = Field(
        default=None, ge=1, le=512,
        description="servers per scalable unit; None: the server model's reference SU (DGX "
        "H100/B200: 32; DGX B300: 64 on Spectrum-X, 72 on Quantum-X800), else 32",
    )
    core: str | None = Field(
        default=None, description="catalog id of the core switch (requests a core tier)"
    )
    tiers: Literal["auto", "2", "3"] = Field(
        default="auto", description="auto: a core tier only when two tiers cannot hold the SUs"
    )
    sus_per_pod: int | None = Field(
        default=None, ge=1, description="SUs sharing one spine block under a core; None: auto"
    )
    sus_per_leaf: int | None = Field(
        default=None, ge=1, le=64,
        description="SUs whose rail one leaf carries; None: as many as the leaf's ports hold "
        "at 1:1 (a 128-port SN5600 at 400G: two 32-node SUs), so no leaf port stays idle",
    )
    rail_planes: bool = Field(
        default=False,
        description="rail-only (Wang et al.): each rail its own network, one switch where it "
        "holds the rail, no spine joining two rails (traffic between rails crosses NVLink "
        "inside the servers); default: one fat tree joining every rail",
    )
    planes: Literal[1, 2, 4] = Field(
        default=1,
        description="multi-plane fabric (NVIDIA B300/GB300 designs): each GPU's NIC splits into "
        "2 or 4 ports, port k to plane k; every plane is its own fat tree",
    )


class ThreeTierParams(_Common):
    """A pod-based fat tree: leaves and spines in pods, a core tier joining the pods."""

    template: Literal["three-tier"] = "three-tier"
    servers: int = Field(default=1024, ge=1, le=100_000, description="number of GPU servers")
    core: str | None = Field(default=None, description="catalog id of the core switch; None: spine")
    oversubscription: float = Field(
        default=1.0, ge=1.0, le=16.0, description="leaf downlink:uplink bandwidth, e.g. 3 for 3:1"
    )
    attach: Literal["rail", "tor"] = Field(
        default="rail", description="rail: NIC i of a server group -> leaf i; tor: one leaf"
    )
    leaves_per_pod: int | None = Field(
        default=None, ge=1, description="leaves per pod; None: the size with the fewest switches"
    )


TemplateParams = Annotated[
    TwoTierParams | RailOptimizedParams | ThreeTierParams, Field(discriminator="template")
]
