"""Rail-optimized InfiniBand fabrics of any size for the analysis benchmark (and big-fabric tests).

The shape follows NVIDIA's DGX SuperPOD (shared/reference/hardware.md §2.3) and the synthetic
fabric of shared/reference/performance.md §1:

- scalable unit (SU): 32 DGX H100 + 8 QM9700 rail leaves; NIC r of every server goes to leaf r;
  a leaf has 32 ports down (cages 1-16) and 32 up (cages 17-32);
- pod: 2 SUs = 16 leaves + 16 QM9790 spines; every leaf has 2 links to every spine of its pod;
- core (from 2 pods on): spine j of every pod connects to core group j (pods/2 cores), spread
  evenly; with a single pod the spines are the top tier (128 servers: 4 SUs, 2 pods... see below).

128 servers is two-tier, as in performance.md: 32 leaves and 16 spines, each leaf with 2 links
to every spine.  Media: multimode twin-port SR4 optics with straight OM4 MPO fibre up to the
spines, single-mode 2xDR4 with OS2 fibre from spines to cores.  Racks: 4 servers per rack (power),
one leaf rack per SU, one spine rack per pod, core racks in the middle of the hall; pods sit in a
square grid so that every run stays inside the catalog's stock lengths.

Everything is added with one `doc.apply(ops)` with the garbage collector paused.
"""

from __future__ import annotations

import math

from aicnet_gui.gc_control import gc_paused
from aicnet_gui.model.catalog import Catalog
from aicnet_gui.model.catalog_entities import Role
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import AddDevice, AddLink, AddRack, AddWorkload, Operation
from aicnet_gui.model.fabric import CageConfig, Device, Endpoint, Link, Rack, Workload

SERVER = "nvidia-dgx-h100"
LEAF = "nvidia-qm9700"
SPINE = "nvidia-qm9790"
CORE = "nvidia-qm9790"
SERVER_OPTIC = "nvidia-mma4z00-ns-flt"
MMF_OPTIC = "nvidia-mma4z00-ns"
SMF_OPTIC = "nvidia-mms4x00-nm"
MMF_CORD = "nvidia-mfp7e10"
SMF_CORD = "nvidia-mfp7e30"

SU_SERVERS = 32
RAILS = 8
SERVERS_PER_RACK = 4


def _cages(count: int, optic: str, first: int = 1) -> dict[int, CageConfig]:
    return {cage: CageConfig(transceiver=optic) for cage in range(first, first + count)}


class _Builder:
    def __init__(self) -> None:
        self.ops: list[Operation] = []
        self.racks: list[Rack] = []
        self.link_n = 0

    def rack(self, rack_id: str, x: float, y: float) -> str:
        rack = Rack(id=rack_id, name=rack_id.upper(), x_m=round(x, 2), y_m=round(y, 2), power_kw=45.0)
        self.ops.append(AddRack(rack))
        return rack_id

    def device(self, dev_id: str, model: str, rack: str, ru: int, cages: dict[int, CageConfig],
               tags: dict[str, str], role: Role | None = None) -> str:
        self.ops.append(AddDevice(Device(
            id=dev_id, name=dev_id, model=model, role=role, rack=rack, ru=ru, firmware="fw-1",
            cages=cages, tags=tags,
        )))
        return dev_id

    def link(self, a: str, pa: str, b: str, pb: str, cable: str, rail: int | None = None) -> None:
        self.link_n += 1
        self.ops.append(AddLink(Link(
            id=f"c{self.link_n:06d}", a=Endpoint(device=a, port=pa), b=Endpoint(device=b, port=pb),
            cable=cable, rail=rail,
        )))


def build_rail_optimized(catalog: Catalog, servers: int, workload: bool = True) -> FabricDocument:
    """A rail-optimized fabric of `servers` DGX H100 (a multiple of 64, or 128 two-tier)."""
    if servers % (2 * SU_SERVERS):
        raise ValueError("servers must be a multiple of 64 (one pod = 2 SUs of 32)")
    doc = FabricDocument(catalog)
    b = _Builder()
    sus = servers // SU_SERVERS
    two_tier = servers <= 128
    pods = 1 if two_tier else sus // 2
    grid = max(1, math.ceil(math.sqrt(pods)))
    pitch = 8.4  # a pod block: 2 rows of 12 racks, 8.4 m by 8.4 m
    leaves_by_pod: dict[int, list[str]] = {}
    spines_by_pod: dict[int, list[str]] = {}
    for su in range(sus):
        pod = 0 if two_tier else su // 2
        gx, gy = pod % grid, pod // grid
        row_y = gy * pitch + (su % 2) * 4.2
        x0 = gx * pitch
        leaf_rack = b.rack(f"rl{su + 1:03d}", x0 + 8 * 0.6, row_y)
        leaves = []
        for r in range(1, RAILS + 1):
            leaves.append(b.device(
                f"leaf-{su * RAILS + r:04d}", LEAF, leaf_rack, 2 * r, _cages(32, MMF_OPTIC),
                {"su": str(su + 1), "rail": str(r)},
            ))
        leaves_by_pod.setdefault(pod, []).extend(leaves)
        for s in range(SU_SERVERS):
            n = su * SU_SERVERS + s + 1
            rack_i = s // SERVERS_PER_RACK
            rack = f"rs{su + 1:03d}-{rack_i + 1}"
            if s % SERVERS_PER_RACK == 0:
                b.rack(rack, x0 + rack_i * 0.6 + (0.6 if rack_i >= 8 else 0), row_y)
            server = b.device(
                f"gpu-{n:05d}", SERVER, rack, 2 + (s % SERVERS_PER_RACK) * 10,
                _cages(4, SERVER_OPTIC), {"su": str(su + 1)},
            )
            for r in range(1, RAILS + 1):
                # leaf r: down ports 1/1 .. 16/2 (cages 1-16), one per server
                port = f"{s // 2 + 1}/{s % 2 + 1}"
                b.link(server, f"p{r}", leaves[r - 1], port, MMF_CORD, rail=r)
    # spines: two-tier: 16 spines for all leaves; else 16 per pod
    spine_n = 0
    for pod in range(pods):
        gx, gy = pod % grid, pod // grid
        rack = b.rack(f"rsp{pod + 1:03d}", gx * pitch + 11 * 0.6, gy * pitch + 2.1)
        spines = []
        for j in range(16):
            spine_n += 1
            up_optics = {} if two_tier else _cages(16, SMF_OPTIC, first=17)
            spines.append(b.device(
                f"spine-{spine_n:04d}", SPINE, rack, 1 + 2 * j,
                {**_cages(16 if not two_tier else 32, MMF_OPTIC), **up_optics}, {"pod": str(pod + 1)},
            ))
        spines_by_pod[pod] = spines
        leaves = leaves_by_pod[pod]
        # each leaf: 32 up ports (cages 17-32) -> 2 links to each of 16 spines
        spine_port = {sp: 0 for sp in spines}
        for leaf in leaves:
            for k in range(32):
                spine = spines[k // 2]
                p = spine_port[spine]
                spine_port[spine] += 1
                b.link(leaf, f"{17 + k // 2}/{k % 2 + 1}", spine, f"{p // 2 + 1}/{p % 2 + 1}", MMF_CORD)
    if not two_tier:
        group = pods // 2
        per_core = 32 // group
        core_rack_x = grid * pitch / 2
        core_rack_y = grid * pitch / 2
        core_n = 0
        cores_by_group: dict[int, list[str]] = {}
        for j in range(16):
            cores = []
            for _c in range(group):
                core_n += 1
                rack_i = (core_n - 1) // 16
                if (core_n - 1) % 16 == 0:
                    b.rack(f"rc{rack_i + 1:03d}", core_rack_x + rack_i * 0.6, core_rack_y)
                cores.append(b.device(
                    f"core-{core_n:04d}", CORE, f"rc{rack_i + 1:03d}", 1 + 2 * ((core_n - 1) % 16),
                    _cages(32, SMF_OPTIC), {"group": str(j + 1)}, role=Role.CORE,
                ))
            cores_by_group[j] = cores
        core_port = {c: 0 for cs in cores_by_group.values() for c in cs}
        for pod in range(pods):
            for j, spine in enumerate(spines_by_pod[pod]):
                for k in range(32):
                    core = cores_by_group[j][k // per_core]
                    p = core_port[core]
                    core_port[core] += 1
                    b.link(spine, f"{17 + k // 2}/{k % 2 + 1}", core, f"{p // 2 + 1}/{p % 2 + 1}",
                           SMF_CORD)
    if workload:
        members = [f"gpu-{n:05d}" for n in range(1, servers + 1)]
        b.ops.append(AddWorkload(Workload(
            id="wl-train", name="pretrain", members=members, target_gbps_per_gpu=400.0,
        )))
    with gc_paused():
        doc.apply(b.ops)
    return doc


if __name__ == "__main__":
    import sys
    import time

    from aicnet_gui.catalog.loader import builtin_catalog

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 128
    start = time.perf_counter()
    built = build_rail_optimized(builtin_catalog(), n)
    print(f"{n} servers: {len(built.devices)} devices, {len(built.links)} links, "
          f"{len(built.racks)} racks in {time.perf_counter() - start:.2f} s")
