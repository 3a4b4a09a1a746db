"""Turn template parameters into model operations, and apply them as one edit.

plan (template) -> names (Settings.naming) -> racks and RUs (placement) -> estimated lengths
(the arithmetic of analysis.lengths) -> media per link (media.py) -> one fewer server per rack
if the racks cannot also power the optics -> AddRack/AddDevice/AddLink/AddWorkload/
UpdateSettings/UpdateMetadata ops.  `generate` applies them in ONE `doc.apply` call (one undo
step in the GUI) with the garbage collector paused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from pydantic import TypeAdapter

from ..analysis.lengths import Placement, device_height_m, rack_floor_xy, route_estimate_m
from ..fileio.fabric_file import gc_paused
from ..model.catalog import Catalog
from ..model.catalog_entities import ROLE_TIER, Role
from ..model.colours import rail_colour
from ..model.document import FabricDocument, ModelError
from ..model.edits import (
    AddDevice,
    AddLink,
    AddRack,
    AddWorkload,
    Operation,
    RemoveDevice,
    RemoveLink,
    RemoveRack,
    RemoveWorkload,
    UpdateMetadata,
    UpdateSettings,
)
from ..model.fabric import (
    CageConfig,
    Device,
    FabricTechnology,
    LengthEstimation,
    Link,
    Rack,
    Workload,
    WorkloadKind,
)
from ..model.ports import build_port_table, mode_overrides
from .errors import GeneratorError
from .layout import layout_devices, panel_size
from .leaf_spine import plan_three_tier, plan_two_tier
from .media import (
    AssemblyIds,
    Cage,
    CageSpec,
    MediaLink,
    MediaSelector,
    Unresolved,
    fabric_technology,
)
from .naming import names
from .params import RailOptimizedParams, TemplateParams, ThreeTierParams, TwoTierParams
from .placement import Placement as Placement_
from .placement import place
from .plan import FabricPlan, PlannedDevice
from .rail_optimized import plan_rail_optimized
from .result import GenerationResult

_LINKS = TypeAdapter(list[Link])
_ROLE_ORDER = (Role.GPU_SERVER, Role.LEAF, Role.SPINE, Role.CORE)

PLANNERS: dict[type, Callable[[Catalog, TemplateParams], FabricPlan]] = {
    TwoTierParams: plan_two_tier,  # type: ignore[dict-item]
    RailOptimizedParams: plan_rail_optimized,  # type: ignore[dict-item]
    ThreeTierParams: plan_three_tier,  # type: ignore[dict-item]
}


def plan(catalog: Catalog, params: TemplateParams) -> FabricPlan:
    """The topology of a template (devices, links, placement groups) without racks or media."""
    return PLANNERS[type(params)](catalog, params)


def fabric_settings(technologies: set[str], params: TemplateParams) -> dict:
    """Settings changes for the fabric: technology from the models, RoCEv2 with PFC/ECN."""
    choice = params.technology
    if choice == "auto":
        choice = "infiniband" if "infiniband" in technologies else "rocev2"
    if choice == "infiniband" and "infiniband" not in technologies:
        raise GeneratorError("the switches are Ethernet switches; choose rocev2 or ethernet")
    if choice in ("rocev2", "ethernet") and "ethernet" not in technologies:
        raise GeneratorError("the switches are InfiniBand switches; choose infiniband")
    technology = FabricTechnology(choice)
    if technology == FabricTechnology.INFINIBAND:
        return {"technology": technology, "mtu": 4096, "pfc": False, "ecn": False, "dcb": False,
                "ecmp_policy": "adaptive routing"}
    if technology == FabricTechnology.ROCEV2:
        return {"technology": technology, "mtu": 9000, "pfc": True, "ecn": True, "dcb": True,
                "ecmp_policy": "adaptive routing"}
    return {"technology": technology, "mtu": 9000, "pfc": False, "ecn": False, "dcb": False,
            "ecmp_policy": "5-tuple hash"}


def _default_name(params: TemplateParams, fabric: FabricPlan) -> str:
    server = fabric.devices[0].model.model if fabric.devices else "servers"
    if isinstance(params, RailOptimizedParams):
        return f"{server} rail-optimized, {params.sus} SU x {params.nodes_per_su}"
    return f"{server} {params.template}, {params.servers} servers"


def _assign_names(fabric: FabricPlan, naming: dict[str, str]) -> None:
    by_role: dict[Role, list[int]] = {}
    for index, device in enumerate(fabric.devices):
        by_role.setdefault(device.role, []).append(index)
    taken: set[str] = set()
    for role, indices in by_role.items():
        pattern = naming.get(role.value, role.value + "-{n:02d}")
        for index, name in zip(indices, names(pattern, len(indices)), strict=True):
            if name in taken:
                raise GeneratorError(f"naming patterns give two devices the name {name!r}")
            taken.add(name)
            fabric.devices[index].name = name


def _canvas(fabric: FabricPlan) -> dict[int, tuple[float, float]]:
    """Topology-canvas positions: the editor's tier layout at the editor's device sizes (servers
    grouped by SU, pod or rack under their leaves), so a generated file opens as drawn."""
    sizes: dict[str, tuple[float, float]] = {}

    def size_of(device: PlannedDevice) -> tuple[float, float]:
        size = sizes.get(device.model.id)
        if size is None:
            size = sizes[device.model.id] = panel_size(device.model)
        return size

    positions = layout_devices(fabric.devices, lambda d: ROLE_TIER[d.role], size_of)
    return {index: positions[device.id] for index, device in enumerate(fabric.devices)}


def _lengths(
    fabric: FabricPlan, devices: list[Device], racks: dict[str, Rack], params: LengthEstimation
) -> list[float | None]:
    """Estimated length of every planned link, as the analysis estimates it."""
    places: list[Placement | None] = []
    for planned, device in zip(fabric.devices, devices, strict=True):
        if device.rack is None or device.ru is None:
            places.append(None)
            continue
        x, y = rack_floor_xy(racks[device.rack], params)
        height = device_height_m(device, planned.model.height_ru, params)
        assert height is not None
        places.append(Placement(device.rack, x, y, height))
    cache: dict[tuple[int, int], float] = {}
    out: list[float | None] = []
    for link in fabric.links:
        key = (link.a, link.b)
        value = cache.get(key)
        if value is None:
            pa, pb = places[link.a], places[link.b]
            if pa is None or pb is None:
                out.append(None)
                continue
            value = cache[key] = route_estimate_m(pa, pb, params)
        out.append(value)
    return out


def _media(
    catalog: Catalog,
    fabric: FabricPlan,
    devices: list[Device],
    link_ids: list[str],
    lengths: list[float | None],
    technology: str,
    params: TemplateParams,
) -> tuple[dict[tuple[int, int], str | None], dict[str, tuple[str, str | None]], list[Unresolved]]:
    """Media for every planned link; optics keyed by (device index, cage number)."""
    tables: dict[tuple, dict[str, tuple[int, int, CageSpec]]] = {}
    per_device: list[dict[str, tuple[int, int, CageSpec]]] = []
    for planned in fabric.devices:
        overrides = mode_overrides(planned.cages)
        switch = planned.role != Role.GPU_SERVER
        key = (planned.model.id, overrides, switch)
        table = tables.get(key)
        if table is None:
            table = tables[key] = {
                name: (port.cage, port.leg, CageSpec(port.group.form_factor, port.group.top,
                                                     port.legs, port.speed_gbps,
                                                     port.group.lane_gbps, switch))
                for name, port in build_port_table(planned.model, overrides).items()
            }
        per_device.append(table)
    cages: list[Cage] = []
    cage_keys: list[tuple[int, int]] = []
    index_of: dict[int, int] = {}

    def new_cage(device: int, cage: int, spec: CageSpec) -> int:
        index = index_of[device * 4096 + cage] = len(cages)
        cages.append(Cage(devices[device].id, cage, spec, devices[device].rack))
        cage_keys.append((device, cage))
        return index

    media_links: list[MediaLink] = []
    append = media_links.append
    get = index_of.get
    for n, link in enumerate(fabric.links):
        da, db = link.a, link.b
        ca, la, sa = per_device[da][link.a_port]
        cb, lb, sb = per_device[db][link.b_port]
        ia = get(da * 4096 + ca)
        if ia is None:
            ia = new_cage(da, ca, sa)
        ib = get(db * 4096 + cb)
        if ib is None:
            ib = new_cage(db, cb, sb)
        append(MediaLink(link_ids[n], ia, la, ib, lb, lengths[n], link.tier))
    selector = MediaSelector(catalog, technology, params.media)
    selection = selector.select(media_links, cages, AssemblyIds())
    optics = {cage_keys[c]: optic for c, optic in selection.transceivers.items()}
    return optics, selection.cables, selection.unresolved


def build_ops(
    doc: FabricDocument, params: TemplateParams, replace: bool = False
) -> tuple[list[Operation], GenerationResult]:
    """The ops that turn `doc` into the generated fabric, and the run's summary."""
    if (doc.devices or doc.links or doc.racks) and not replace:
        raise GeneratorError(
            f"the document already holds {len(doc.devices)} devices and {len(doc.links)} links; "
            "generate into an empty document or replace its contents"
        )
    fabric = plan(doc.catalog, params)
    technologies: set[str] | None = None
    for device in fabric.devices:
        if device.role != Role.GPU_SERVER:
            techs = {t.value for t in device.model.technology}
            technologies = techs if technologies is None else technologies & techs
    settings_changes = fabric_settings(technologies or set(), params)
    _assign_names(fabric, doc.settings.naming)
    technology = fabric_technology(settings_changes["technology"])
    link_ids = [f"link-{n}" for n in range(1, len(fabric.links) + 1)]
    limit: int | None = None
    while True:
        placement = place(fabric, params.floor, doc.settings.lengths, limit)
        canvas = _canvas(fabric)  # after placement: servers without an SU group by rack
        devices = [
            Device(
                id=d.id, name=d.name, model=d.model.id, role=d.role, rack=d.rack, ru=d.ru,
                position=canvas[i], cages=d.cages, tags=d.tags,
            )
            for i, d in enumerate(fabric.devices)
        ]
        racks = {rack.id: rack for rack in placement.racks}
        lengths = _lengths(fabric, devices, racks, doc.settings.lengths)
        optics: dict[tuple[int, int], str | None] = {}
        cables: dict[str, tuple[str, str | None]] = {}
        unresolved: list[Unresolved] = []
        if params.choose_media:
            optics, cables, unresolved = _media(doc.catalog, fabric, devices, link_ids, lengths,
                                                technology, params)
        _install_optics(devices, optics)
        over = _racks_over_budget(doc.catalog, fabric, devices, placement.racks)
        server_racks = {devices[i].rack for i, d in enumerate(fabric.devices)
                        if d.role == Role.GPU_SERVER}
        if (not any(rack.id in server_racks for rack, _ in over)
                or params.floor.servers_per_rack is not None or placement.servers_per_rack <= 1):
            break
        limit = placement.servers_per_rack - 1
    power_notes = _power_notes(over)
    planned = fabric.devices
    rows = []
    no_media = (None, None)
    for link_id, link in zip(link_ids, fabric.links, strict=True):
        cable, assembly = cables.get(link_id, no_media)
        rows.append({
            "id": link_id,
            "a": {"device": devices[link.a].id, "port": link.a_port},
            "b": {"device": devices[link.b].id, "port": link.b_port},
            "cable": cable, "assembly": assembly, "rail": link.rail,
            "colour": rail_colour(link.rail), "plane": planned[link.a].tags.get("plane"),
        })
    links = _LINKS.validate_python(rows)
    servers = [d.id for d, p in zip(devices, fabric.devices, strict=True)
               if p.role == Role.GPU_SERVER]
    kind = WorkloadKind(params.workload)
    workload = Workload(
        id="workload-1", name=f"{kind.value} (all servers)", kind=kind, members=servers,
        pattern="all-to-all" if kind == WorkloadKind.INFERENCE else "ring-allreduce",
    )
    name = params.name or _default_name(params, fabric)
    ops: list[Operation] = []
    if replace:
        ops += [RemoveWorkload(w) for w in list(doc.workloads)]
        ops += [RemoveLink(x) for x in list(doc.links)]
        ops += [RemoveDevice(x) for x in list(doc.devices)]
        ops += [RemoveRack(x) for x in list(doc.racks)]
    ops.append(UpdateSettings(settings_changes))
    ops.append(UpdateMetadata({"name": name, "description": "; ".join(fabric.sizing)}))
    ops += [AddRack(r) for r in placement.racks]
    ops += [AddDevice(d) for d in devices]
    ops += [AddLink(x) for x in links]
    ops.append(AddWorkload(workload))
    result = _result(doc.catalog, fabric, placement, optics, links, lengths, unresolved,
                     settings_changes["technology"].value, name)
    result.notes += power_notes
    return ops, result


def _racks_over_budget(
    catalog: Catalog, fabric: FabricPlan, devices: list[Device], racks: list[Rack]
) -> list[tuple[Rack, float]]:
    """Racks whose devices plus installed optics draw more than the budget (as the analysis
    counts: a model's maximum power, else its typical, plus every optic in its cages)."""
    draw: dict[str, float] = {}
    for planned, device in zip(fabric.devices, devices, strict=True):
        if device.rack is None:
            continue
        model = planned.model
        watts = model.power_max_w if model.power_max_w is not None else model.power_typical_w
        watts = watts or 0.0
        watts += sum(catalog.transceivers[c.transceiver].power_w
                     for c in device.cages.values() if c.transceiver)
        draw[device.rack] = draw.get(device.rack, 0.0) + watts
    return [(r, draw.get(r.id, 0.0)) for r in racks
            if r.power_kw is not None and draw.get(r.id, 0.0) > r.power_kw * 1000 + 1e-6]


def _power_notes(over: list[tuple[Rack, float]]) -> list[str]:
    if not over:
        return []
    rack, watts = max(over, key=lambda item: item[1])
    return [
        f"{len(over)} rack(s) draw more than their budget once the optics are counted, e.g. "
        f"{rack.name}: {watts / 1000:.2f} kW > {rack.power_kw:g} kW; raise the rack power or "
        "lower the servers per rack"
    ]


def _install_optics(devices: list[Device], optics: dict[tuple[int, int], str | None]) -> None:
    """Put the chosen optics into the devices' cage configs (shared CageConfig instances)."""
    per_device: dict[int, dict[int, str]] = {}
    for (index, cage), optic in optics.items():
        if optic is not None:
            per_device.setdefault(index, {})[cage] = optic
    configs_cache: dict[tuple[str | None, str | None], CageConfig] = {}
    for index, extra in per_device.items():
        configs = dict(devices[index].cages)
        for cage, optic in extra.items():
            old = configs.get(cage)
            key = (old.mode if old else None, optic)
            config = configs_cache.get(key)
            if config is None:
                config = configs_cache[key] = CageConfig(mode=key[0], transceiver=optic)
            configs[cage] = config
        devices[index] = devices[index].model_copy(update={"cages": dict(sorted(configs.items()))})


def _result(
    catalog: Catalog,
    fabric: FabricPlan,
    placement: Placement_,
    cage_optics: dict[tuple[int, int], str | None],
    links: list[Link],
    lengths: list[float | None],
    unresolved: list[Unresolved],
    technology: str,
    name: str,
) -> GenerationResult:
    by_role = Counter(d.role.value for d in fabric.devices)
    by_model = Counter(d.model.id for d in fabric.devices)
    by_tier = Counter(link.tier for link in fabric.links)
    optics = Counter(optic for optic in cage_optics.values() if optic)
    longest: dict[str, tuple[str, float]] = {}
    for link, length in zip(links, lengths, strict=True):
        if link.cable is None or length is None:
            continue
        key = link.assembly or link.id
        previous = longest.get(key)
        if previous is None or previous[1] < length:
            longest[key] = (link.cable, length)
    ordered_cache: dict[tuple[str, float], str] = {}
    cable_count: Counter[str] = Counter()
    for part_length in longest.values():
        label = ordered_cache.get(part_length)
        if label is None:
            ordered = catalog.cables[part_length[0]].ordered_length(part_length[1])
            label = ordered_cache[part_length] = f"{part_length[0]}@{ordered:g}m"
        cable_count[label] += 1
    power = sum(catalog.transceivers[p].power_w * n for p, n in optics.items())
    priced = [(catalog.devices[m].price_usd, n) for m, n in by_model.items()]
    priced += [(catalog.transceivers[p].price_usd, n) for p, n in optics.items()]
    priced += [(catalog.cables[label.partition("@")[0]].price_usd, n)
               for label, n in cable_count.items()]
    known = [price * n for price, n in priced if price is not None]
    cost = sum(known) if known else None
    measured = [x for x in lengths if x is not None]
    return GenerationResult(
        template=fabric.template, name=name, tiers=fabric.tiers, speed_gbps=fabric.speed,
        technology=technology,
        gpus=sum(d.model.gpus for d in fabric.devices if d.role == Role.GPU_SERVER),
        devices_by_role={r.value: by_role[r.value] for r in _ROLE_ORDER if by_role[r.value]},
        devices_by_model=dict(sorted(by_model.items())),
        links_by_tier={t: by_tier[t] for t in ("server-leaf", "leaf-spine", "spine-core")
                       if by_tier[t]},
        racks=len(placement.racks), server_racks=placement.server_racks,
        network_racks=placement.network_racks, rows=placement.rows,
        servers_per_rack=placement.servers_per_rack,
        transceivers=dict(sorted(optics.items())),
        cables=dict(sorted(cable_count.items(), key=lambda kv: _cable_sort(kv[0]))),
        optics_power_w=power, longest_link_m=max(measured, default=0.0), cost_usd=cost,
        unresolved=unresolved, sizing=list(fabric.sizing),
        notes=list(fabric.notes) + list(placement.notes),
    )


def _cable_sort(key: str) -> tuple[str, float]:
    part, _, length = key.partition("@")
    return part, float(length.rstrip("m") or 0)


def generate(doc: FabricDocument, params: TemplateParams, replace: bool = False) -> GenerationResult:
    """Generate the fabric into `doc` in one `apply` (one undo step); return the summary."""
    with gc_paused():
        ops, result = build_ops(doc, params, replace)
        try:
            doc.apply(ops)
        except ModelError as exc:
            raise GeneratorError(f"the document refused the generated fabric: {exc}") from None
    return result
