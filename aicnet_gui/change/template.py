"""The generator parameters an existing design was made with, read back from the design itself.

Growth and migration regenerate the target fabric with the generators' public entry points
(`generators.plan` / `build_ops`), so they need the template and its parameters:

- **rail-optimized** when every GPU server carries an `su` tag (as the template writes them):
  SUs = distinct `su` tags, nodes per SU = servers / SUs, a core tier when the design has core
  switches, rail planes from `settings.rail_planes`;
- **two-tier** otherwise, for designs with leaves and spines and no core: the servers, the
  leaves' largest down:up ratio as the oversubscription, `tor` when every server's NICs land on
  one leaf, else `rail`.

Models are the ones in use per role (one model per role, or a clear error); the floor keeps the
servers per rack and the racks' power budget.  A design the templates cannot describe (several
server models, a hand-drawn three-tier fabric ...) gets a `TemplateError` that says why.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from ..generators import FloorParams, RailOptimizedParams, TwoTierParams
from ..model.document import FabricDocument


class TemplateError(ValueError):
    """The design cannot be described by a generator template."""


def _one_model(doc: FabricDocument, role: str, required: bool = True) -> str | None:
    models = Counter(d.model for d in doc.devices.values() if doc.role_of(d).value == role)
    if not models:
        if required:
            raise TemplateError(f"the design has no {role} switch")
        return None
    if len(models) > 1:
        raise TemplateError(f"the design mixes {role} models ({', '.join(sorted(models))}): "
                            "a template uses one model per role")
    return next(iter(models))


def _floor(doc: FabricDocument, servers: list[str]) -> FloorParams:
    per_rack = Counter(doc.devices[s].rack for s in servers if doc.devices[s].rack)
    budgeted = per_rack.keys()
    if servers and doc.device_model(doc.devices[servers[0]]).rack_system is not None:
        # an NVL72 rack carries its own stated power: the floor's budget is the other racks'
        budgeted = {d.rack for d in doc.devices.values() if d.rack} - per_rack.keys()
    power = Counter(doc.racks[r].power_kw for r in budgeted if r in doc.racks
                    and doc.racks[r].power_kw)
    changes: dict[str, object] = {}
    if per_rack and budgeted is per_rack.keys():  # an NVL72 rack's count is the system's
        changes["servers_per_rack"] = max(per_rack.values())
    if power:
        changes["rack_power_kw"] = power.most_common(1)[0][0]
    return FloorParams(**changes)


def infer_params(doc: FabricDocument) -> RailOptimizedParams | TwoTierParams:
    servers = sorted(d.id for d in doc.devices.values() if doc.role_of(d).value == "gpu_server")
    if not servers:
        raise TemplateError("the design has no GPU server")
    server_model = _one_model(doc, "gpu_server")
    leaf = _one_model(doc, "leaf")
    spine = _one_model(doc, "spine", required=False)
    core = _one_model(doc, "core", required=False)
    kind = next(iter(doc.workloads.values())).kind.value if doc.workloads else "training"
    common = {"name": doc.metadata.name, "server": server_model, "leaf": leaf, "spine": spine,
              "technology": doc.settings.technology.value, "workload": kind,
              "floor": _floor(doc, servers)}
    sus = {doc.devices[s].tags.get("su") for s in servers}
    if None not in sus:
        if len(servers) % len(sus):
            raise TemplateError(f"{len(servers)} servers do not split evenly into {len(sus)} SUs")
        extra: dict[str, object] = {"core": core, "tiers": "3"} if core else {}
        planes = len({d.plane for d in doc.devices.values() if d.plane})
        if planes > 1:
            extra["planes"] = planes  # a multi-plane design regrows with its planes
        return RailOptimizedParams(sus=len(sus), nodes_per_su=len(servers) // len(sus),
                                   rail_planes=bool(getattr(doc.settings, "rail_planes", False)),
                                   **extra, **common)
    if core:
        raise TemplateError("a three-tier design without SU tags cannot be regrown: the "
                            "three-tier template's pods are not recorded in the design")
    if spine is None:
        raise TemplateError("a two-tier design needs spine switches")
    return TwoTierParams(servers=len(servers), oversubscription=_oversubscription(doc),
                         attach=_attach(doc, servers), **common)


def _oversubscription(doc: FabricDocument) -> float:
    worst = 1.0
    for device in doc.devices.values():
        if doc.role_of(device).value != "leaf":
            continue
        down = up = 0
        for link in doc.links_of(device.id):
            other = link.b if link.a.device == device.id else link.a
            port = doc.port(other.device, other.port)
            gbps = port.speed_gbps if port is not None else 0
            if doc.tier_of(other.device) == 0:
                down += gbps
            elif doc.tier_of(other.device) > doc.tier_of(device):
                up += gbps
        if up:
            worst = max(worst, down / up)
    return round(min(worst, 16.0), 2)


def _attach(doc: FabricDocument, servers: list[str]) -> str:
    leaves: dict[str, set[str]] = defaultdict(set)
    for server in servers:
        for link in doc.links_of(server):
            leaves[server].add(link.b.device if link.a.device == server else link.a.device)
    return "tor" if all(len(v) <= 1 for v in leaves.values()) else "rail"
