"""Small fabrics for the analysis tests, built with the real catalog through the model API."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import AddDevice, AddLink, AddRack, AddWorkload
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, Link, Rack, Workload
from tests.doc_edits import update_settings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(Path(__file__).resolve().parent))


class Build:
    """Terse builders: `b.rack("r1", x=0)`, `b.dev("leaf-01", "nvidia-sn5600", rack="r1", ru=40)`,
    `b.link("c1", "gpu-1", "p1", "leaf-01", "swp1s0", cable="nvidia-mfp7e10")`."""

    def __init__(self, doc: FabricDocument) -> None:
        self.doc = doc

    def rack(self, rack_id: str, x: float = 0.0, y: float = 0.0, **kw) -> str:
        self.doc.apply([AddRack(Rack(id=rack_id, name=kw.pop("name", rack_id.upper()), x_m=x,
                                     y_m=y, **kw))])
        return rack_id

    def dev(self, dev_id: str, model: str, rack: str | None = None, ru: int | None = None,
            optics: dict[int, str] | None = None, modes: dict[int, str] | None = None,
            **kw) -> str:
        cages: dict[int, CageConfig] = {}
        for cage in set(optics or {}) | set(modes or {}):
            cages[cage] = CageConfig(mode=(modes or {}).get(cage), transceiver=(optics or {}).get(cage))
        self.doc.apply([AddDevice(Device(id=dev_id, name=kw.pop("name", dev_id), model=model,
                                         rack=rack, ru=ru, cages=cages, **kw))])
        return dev_id

    def link(self, link_id: str, a: str, pa: str, b: str, pb: str, **kw) -> str:
        self.doc.apply([AddLink(Link(id=link_id, a=Endpoint(device=a, port=pa),
                                     b=Endpoint(device=b, port=pb), **kw))])
        return link_id

    def workload(self, wl_id: str, members: list[str], **kw) -> str:
        self.doc.apply([AddWorkload(Workload(id=wl_id, name=kw.pop("name", wl_id),
                                             members=members, **kw))])
        return wl_id


@pytest.fixture
def build(doc):
    """A builder on an empty document set up as a RoCEv2 fabric (PFC, ECN, MTU 9000); tests of
    InfiniBand parts switch it with `ib(build)`."""
    update_settings(doc, technology="rocev2", pfc=True, ecn=True, dcb=True, mtu=9000)
    return Build(doc)


def ib(build: Build) -> Build:
    update_settings(build.doc, technology="infiniband", pfc=False, ecn=False, mtu=4096)
    return build


HGX = "generic-hgx-8-gpu-b3140h"
SN5600 = "nvidia-sn5600"
NIC_OPTIC = "nvidia-mma1z00-ns400"  # QSFP112 SR4
TWIN_SR4 = "nvidia-mma4z00-ns"  # finned twin-port 2xSR4
MMF = "nvidia-mfp7e10"  # straight MPO-12/APC OM4
DAC800 = "nvidia-mcp4y10"  # twin-port OSFP <-> OSFP 800G DAC


def two_leaf_fabric(build: Build, uplinks_per_leaf: int = 8) -> Build:
    """4 HGX servers (8 x 400G NICs) on two SN5600 leaves (servers 1-2 on leaf-1, 3-4 on leaf-2),
    every leaf with `uplinks_per_leaf` x 400G spread over two spines (all in one rack row)."""
    build.rack("rn", x=0.0)
    build.rack("rc", x=0.6)
    for s in (1, 2):
        build.dev(f"spine-{s}", SN5600, rack="rn", ru=38 + 2 * s, role="spine")
    for leaf in (1, 2):
        build.dev(f"leaf-{leaf}", SN5600, rack="rn", ru=34 + 2 * leaf,
                  optics={c: TWIN_SR4 for c in range(1, 9)})
    for n in range(1, 5):
        build.dev(f"gpu-{n}", HGX, rack="rc", ru=1 + 8 * (n - 1),
                  optics={c: NIC_OPTIC for c in range(1, 9)})
        leaf = 1 if n <= 2 else 2
        first_cage = 1 if n in (1, 3) else 5
        for r in range(1, 9):
            cage = first_cage + (r - 1) // 2
            build.link(f"s{n}{r}", f"gpu-{n}", f"p{r}", f"leaf-{leaf}",
                       f"swp{cage}s{(r - 1) % 2}", cable=MMF)
    for leaf in (1, 2):
        for k in range(uplinks_per_leaf):
            j = k // 2  # one twin-port 800G DAC per leaf cage, both legs to the same spine
            spine = 1 + j % 2
            spine_cage = 1 + (leaf - 1) * 16 + j // 2
            build.link(f"u{leaf}{k}", f"leaf-{leaf}", f"swp{33 + j}s{k % 2}", f"spine-{spine}",
                       f"swp{spine_cage}s{k % 2}", cable=DAC800, assembly=f"d{leaf}-{j}")
    return build


@pytest.fixture
def dr4_leaf_spine(build: Build) -> Build:
    """A leaf and a spine (SN5600) in racks 5 m apart, each with an 800G 2xDR4 optic (IEEE
    400GBASE-DR4 per port, MPO-12/APC) in cage 1, joined by an OS2 MPO-12/APC cord (MFP7E30,
    Type B) on a typed-in 40 m run: the channel the structured-cabling rules are tested on."""
    build.rack("r1", x=0.0)
    build.rack("r2", x=5.0)
    build.dev("leaf-1", SN5600, rack="r1", ru=40, optics={1: "generic-800g-2xdr4-osfp"})
    build.dev("spine-1", SN5600, rack="r2", ru=40, role="spine",
              optics={1: "generic-800g-2xdr4-osfp"})
    build.link("u1", "leaf-1", "swp1s0", "spine-1", "swp1s0", cable="nvidia-mfp7e30",
               length_m=40.0)
    return build
