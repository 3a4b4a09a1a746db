"""Turn template parameters into model operations, and apply them as one edit.

plan (the template's planner, `template_registry.py`) -> names (Settings.naming) -> the links as
columns (plan_links.py) -> racks and RUs (placement) -> estimated lengths (the arithmetic of
model/floor.py) -> media, decided once per kind of component (`media/bulk_choice.py` over
`media/selector.py`) -> placed again counting the optics when a rack cannot also power them
(cage_optics.py) -> devices, links from values validated once each (construct.py) and the
summary (tally.py) -> AddRack/AddDevice/AddLink/AddWorkload/UpdateSettings/UpdateMetadata ops.
`generate` applies them in ONE `doc.apply` call (one undo step in the GUI) with the garbage
collector paused; `build_design` does it into a new document.
"""

from __future__ import annotations

import math

import numpy as np

from ..gc_control import gc_paused
from ..media import MediaSelector, fabric_technology
from ..media.bulk_choice import BulkSelection, select_bulk
from ..model.catalog import Catalog
from ..model.catalog_entities import ROLE_TIER, Role
from ..model.colours import rail_colour
from ..model.document import FabricDocument, ModelError, emptying_ops
from ..model.edits import (
    AddDevice,
    AddLink,
    AddRack,
    AddWorkload,
    Operation,
    UpdateMetadata,
    UpdateSettings,
)
from ..model.fabric import (
    Device,
    FabricTechnology,
    Link,
    Workload,
    WorkloadKind,
)
from ..model.limits import MAX_DEVICES, MAX_LINKS, MAX_RACKS
from ..model.network_defaults import network_defaults
from .cage_optics import DeviceOptics, power_notes, racks_over_budget, rule_draw
from .canvas_layout import layout_devices, panel_size
from .construct import LinkColumns, build_links
from .errors import GeneratorError
from .generation_result import GenerationResult
from .naming import names
from .placement import Placement, place, power_of
from .plan import FabricPlan, PlannedDevice
from .plan_links import LinkTable, estimate_lengths, link_table
from .tally import tally
from .template_params import TemplateParams
from .template_registry import template_named

_PASSES = 4  # placement passes at most: no optics known, then the optics chosen (growing)

def plan(catalog: Catalog, params: TemplateParams) -> FabricPlan:
    """The topology of a template (devices, links, placement groups) without racks or media."""
    return template_named(params.template).planner(catalog, resolved(catalog, params))


def resolved(catalog: Catalog, params: TemplateParams) -> TemplateParams:
    """`params` with the defaults that depend on the catalog filled in (the SU size)."""
    resolve = template_named(params.template).resolve
    return params if resolve is None else resolve(catalog, params)


def _runnable_load_balancing(fabric: FabricPlan, settings: dict) -> list[str]:
    """Set the fabric's load balancing to the best mode its switches and compute NICs run
    (analysis/load_balancing.generated_mode), when the technology's default asks for more;
    the note that says so."""
    from ..analysis.load_balancing import NAMES, generated_mode

    asked = settings.get("load_balancing")
    if not asked:
        return []
    switches = {d.model.id: d.model for d in fabric.devices if d.role != Role.GPU_SERVER}
    servers = {d.model.id: d.model for d in fabric.devices if d.role == Role.GPU_SERVER}
    mode = generated_mode(asked, settings["technology"], list(switches.values()),
                          list(servers.values()))
    if mode == asked:
        return []
    settings["load_balancing"], settings["ecmp_policy"] = mode, NAMES[mode]
    return [f"load balancing: {NAMES[mode]}, the best these switches and compute NICs run "
            f"({NAMES[asked]} needs switches that document it and, on Ethernet, NICs that "
            "place packets out of order; aicnet traffic shows what it costs)"]


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
    return {"technology": technology, **network_defaults(technology)}


def _pfc_headroom(settings_changes: dict, lengths: np.ndarray, sized_m: float) -> list[str]:
    """A lossless (PFC) fabric whose longest run is longer than the cable length its switches'
    PFC headroom is sized for drops frames (PFC-HEADROOM): size it for the longest run, rounded
    up to 10 m, and say so (the switches' cable-length setting must match)."""
    if not settings_changes.get("pfc") or not len(lengths):
        return []
    longest = float(np.nanmax(lengths)) if not np.all(np.isnan(lengths)) else 0.0
    if longest <= sized_m:
        return []
    sized = float(math.ceil(longest / 10.0) * 10)
    settings_changes["pfc_cable_length_m"] = sized
    return [f"the longest run is {longest:.1f} m: PFC headroom sized for {sized:g} m cables "
            f"(project setting; set the switches' PFC cable length to match)"]


def generated_metadata(catalog: Catalog, params: TemplateParams) -> tuple[str, str]:
    """The name and description `generate` writes for `params`: the name given, else one that
    states the template and size, and the sizing of the plan (what a regrown design must restate
    when it still carries them)."""
    params = resolved(catalog, params)
    fabric = plan(catalog, params)
    return params.name or _default_name(params, fabric), _description(fabric)


def _description(fabric: FabricPlan) -> str:
    return "; ".join(fabric.sizing)


def _default_name(params: TemplateParams, fabric: FabricPlan) -> str:
    server = fabric.devices[0].model.model if fabric.devices else "servers"
    return template_named(params.template).default_name(params, server)


def _assign_names(fabric: FabricPlan, naming: dict[str, str]) -> None:
    by_role: dict[str, list[int]] = {}
    for index, device in enumerate(fabric.devices):  # a "function" tag names its own kind (ufm)
        by_role.setdefault(device.tags.get("function") or device.role.value, []).append(index)
    taken: set[str] = set()
    for role, indices in by_role.items():
        pattern = naming.get(role, role + "-{n:02d}")
        for index, name in zip(indices, names(pattern, len(indices)), strict=True):
            if name in taken:
                raise GeneratorError(f"naming patterns give two devices the name {name!r}")
            taken.add(name)
            fabric.devices[index].name = name


def _subnet_managers(fabric: FabricPlan) -> list[str]:
    """InfiniBand: the switch-embedded subnet manager (master, standby) on the two first
    switches of the highest tier that can run one, as the IB-SUBNET-MANAGER fix picks them;
    [] when no switch model can (then a UFM / OpenSM host must be added)."""
    capable = [d for d in fabric.devices if d.model.is_switch and d.model.subnet_manager]
    if not capable:
        return []
    ranked: list[str] = []
    for tier in sorted({ROLE_TIER[d.role] for d in capable}, reverse=True):
        ranked += sorted(d.id for d in capable if ROLE_TIER[d.role] == tier)[: 2 - len(ranked)]
        if len(ranked) >= 2:
            break
    return ranked


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


def _media(
    catalog: Catalog, fabric: FabricPlan, table: LinkTable, lengths: np.ndarray,
    link_ids: list[str], technology: str, params: TemplateParams,
) -> BulkSelection:
    """Media for every planned link, or none when the parameters say so."""
    if not params.choose_media:
        return BulkSelection.empty(len(link_ids), len(table.cages.device))
    selector = MediaSelector(catalog, technology, params.media)
    return select_bulk(selector, table, _alike(fabric, lengths), link_ids,
                       [d.id for d in fabric.devices], [d.rack for d in fabric.devices])


def _alike(fabric: FabricPlan, lengths: np.ndarray) -> np.ndarray:
    """The lengths the media are chosen for: each link's own, or in a multi-plane design the
    longest of its counterparts in every plane (the planes' switches sit in other racks), so
    that every plane gets the same optics and cords (PLANE-UNBALANCED: parts and counts may not
    differ); a link of unknown length stays unknown."""
    if fabric.link_class is None:
        return lengths
    classes = np.asarray(fabric.link_class, dtype=np.int64)
    longest = np.full(int(classes.max(initial=-1)) + 1, np.nan)
    np.fmax.at(longest, classes, lengths)
    return np.where(np.isnan(lengths), lengths, longest[classes])


def _place_and_equip(
    doc: FabricDocument, fabric: FabricPlan, table: LinkTable, link_ids: list[str],
    technology: str, params: TemplateParams,
) -> tuple[Placement, np.ndarray, BulkSelection, DeviceOptics, list[str]]:
    """Racks, lengths and media.  Placement counts every device's draw against the rack
    budget (and the project's A/B feed capacity); the first pass knows no optics, so while the
    optics the media choice installs make a rack draw more than placement counted, place again
    counting them (a device's counted optics only grow from pass to pass, so this ends).  The
    power notes come last."""
    floor = params.floor
    feed_kw = doc.settings.power_feed_kw
    counted: np.ndarray | None = None
    for _ in range(_PASSES):
        power = power_of(fabric, floor, None if counted is None else counted.tolist(), feed_kw)
        placement = place(fabric, floor, doc.settings.lengths, power)
        racks = {rack.id: rack for rack in placement.racks}
        lengths = estimate_lengths(fabric, table, racks, doc.settings.lengths)
        selection = _media(doc.catalog, fabric, table, lengths, link_ids, technology, params)
        optics = DeviceOptics(len(fabric.devices), table, selection)
        installed = np.asarray(optics.watts(doc.catalog), dtype=float)
        if counted is not None and bool(np.all(installed <= counted + 1e-9)):
            break  # placement counted every optic it got
        if counted is None and not racks_over_budget(
                fabric, power_of(fabric, floor, installed.tolist(), feed_kw).watts,
                placement.racks, feed_kw):
            break
        counted = installed if counted is None else np.maximum(counted, installed)
    over = racks_over_budget(fabric, rule_draw(fabric, installed.tolist()), placement.racks, feed_kw)
    return placement, lengths, selection, optics, power_notes(over, feed_kw)


def _refuse_too_big(first: int, second: int, first_name: str, second_name: str) -> None:
    """A design past the limits any `.fabric` file is read with (model/limits.py) is refused
    before it is built: a generator never writes a file aicnet would not open."""
    for count, name in ((first, first_name), (second, second_name)):
        limit = _LIMITS[name]
        if count > limit:
            raise GeneratorError(
                f"this design would hold {count:,} {name}, and a design holds at most {limit:,}: "
                "fewer SUs, or each compute plane as a design of its own")


_LIMITS = {"devices": MAX_DEVICES, "links": MAX_LINKS, "racks": MAX_RACKS}


def _refuse_unjoinable(selection: BulkSelection, hint: str = "") -> None:
    """Links that no media in the catalog joins at any length are hardware that cannot be
    cabled (a NIC and a switch whose optics do not talk, a NIC port split toward two planes
    that no cord regroups): refuse with the reason instead of writing a design without
    media.  A link only too long for every part stays, with its reason, for the user to
    move racks or allow more media."""
    hardware = [u for u in selection.unresolved
                if "reaches" not in u.reason and "length unknown" not in u.reason]
    if hardware:
        count = sum(len(u.links) for u in hardware)
        raise GeneratorError(
            f"no media in the catalog can cable {count} link(s): {hardware[0].reason}; "
            + (f"{hint}; " if hint else "")
            + "choose other hardware or speed",
            generate_advice=", or generate the topology without media (--no-media)")


def _devices(fabric: FabricPlan, optics: DeviceOptics) -> list[Device]:
    """The placed devices at their canvas positions, with the chosen optics in their cages."""
    canvas = _canvas(fabric)  # after placement: servers without an SU group by rack
    return [
        Device(
            id=d.id, name=d.name, model=d.model.id, role=d.role, rack=d.rack, ru=d.ru,
            position=canvas[i], cages=optics.cages(i, d.cages), tags=d.tags,
            plane=d.tags.get("plane") if fabric.planes > 1 and d.role != Role.GPU_SERVER else None,
        )
        for i, d in enumerate(fabric.devices)
    ]


def _links(
    fabric: FabricPlan, link_ids: list[str], selection: BulkSelection
) -> list[Link]:
    """The links: ends, media, rail, its colour and the plane (every value validated)."""
    planned = fabric.links
    ids = [d.id for d in fabric.devices]
    planes = [d.tags.get("plane") for d in fabric.devices]
    parts = np.array([*selection.parts, None], dtype=object)  # code -1: no cable
    rails = [x.rail for x in planned]
    colours = {rail: rail_colour(rail) for rail in set(rails)}
    return build_links(LinkColumns(
        link_ids, [ids[x.a] for x in planned], [x.a_port for x in planned],
        [ids[x.b] for x in planned], [x.b_port for x in planned],
        parts[selection.cable].tolist(),
        [f"asm-{n}" if n else None for n in selection.assembly.tolist()],
        rails, [colours[r] for r in rails],
        # a multi-plane link is in its switch's plane (the upper end; servers are in every plane)
        [planes[x.b] for x in planned] if fabric.planes > 1 else [planes[x.a] for x in planned],
    ))


def build_ops(
    doc: FabricDocument, params: TemplateParams, replace: bool = False,
    uncabled: bool = False,
) -> tuple[list[Operation], GenerationResult]:
    """The ops that turn `doc` into the generated fabric, and the run's summary.  Hardware
    that no catalog media can cable is refused unless `uncabled` (a migration plan shows
    such a target with its unresolved links)."""
    if (doc.devices or doc.links or doc.racks) and not replace:
        raise GeneratorError(
            f"the document already holds {len(doc.devices)} devices and {len(doc.links)} links; "
            "generate into an empty document or replace its contents"
        )
    params = resolved(doc.catalog, params)
    fabric = plan(doc.catalog, params)
    _refuse_too_big(len(fabric.devices), len(fabric.links), "devices", "links")
    settings_changes = _settings_changes(fabric, params)
    runnable = _runnable_load_balancing(fabric, settings_changes)
    _assign_names(fabric, doc.settings.naming)
    technology = fabric_technology(settings_changes["technology"])
    managers = (_subnet_managers(fabric)
                if settings_changes["technology"] == FabricTechnology.INFINIBAND else [])
    if managers:
        settings_changes["subnet_managers"] = managers
    link_ids = [f"link-{n}" for n in range(1, len(fabric.links) + 1)]
    table = link_table(fabric)
    placement, lengths, selection, optics, notes = _place_and_equip(
        doc, fabric, table, link_ids, technology, params)
    _refuse_too_big(len(placement.racks), 0, "racks", "links")
    if not uncabled:
        _refuse_unjoinable(selection, fabric.media_hint)
    notes += _pfc_headroom(settings_changes, lengths, doc.settings.pfc_cable_length_m)
    notes += runnable
    devices = _devices(fabric, optics)
    links = _links(fabric, link_ids, selection)
    name = params.name or _default_name(params, fabric)
    ops = emptying_ops(doc) if replace else []
    ops.append(UpdateSettings(settings_changes))
    ops.append(UpdateMetadata({"name": name, "description": _description(fabric)}))
    ops += [AddRack(r) for r in placement.racks]
    ops += [AddDevice(d) for d in devices]
    ops += map(AddLink, links)
    ops.append(AddWorkload(_all_servers_workload(fabric, params)))
    result = tally(doc.catalog, fabric, table, placement, selection, lengths,
                   settings_changes["technology"].value, name)
    result.notes += notes
    if settings_changes["technology"] == FabricTechnology.INFINIBAND and not managers:
        result.notes.append(
            "no switch of this fabric can run the InfiniBand subnet manager (externally managed "
            "models): add a UFM / OpenSM host with a port on the fabric and name it, with a "
            "standby, in the project settings (IB-SUBNET-MANAGER until then)")
    return ops, result


def _settings_changes(fabric: FabricPlan, params: TemplateParams) -> dict:
    """The project settings the generated fabric sets: those of the technologies every switch
    supports (fabric_settings) and whether its rails are planes of their own."""
    technologies: set[str] | None = None
    for device in fabric.devices:
        if device.role != Role.GPU_SERVER:
            techs = {t.value for t in device.model.technology}
            technologies = techs if technologies is None else technologies & techs
    settings_changes = fabric_settings(technologies or set(), params)
    settings_changes["rail_planes"] = fabric.rail_planes
    return settings_changes


def _all_servers_workload(fabric: FabricPlan, params: TemplateParams) -> Workload:
    """The generated fabric's one workload: every server, of the template's kind."""
    servers = [d.id for d in fabric.devices if d.role == Role.GPU_SERVER]
    kind = WorkloadKind(params.workload)
    return Workload(
        id="workload-1", name=f"{kind.value} (all servers)", kind=kind, members=servers,
        pattern="all-to-all" if kind == WorkloadKind.INFERENCE else "ring-allreduce",
    )


def generate(doc: FabricDocument, params: TemplateParams, replace: bool = False,
             uncabled: bool = False) -> GenerationResult:
    """Generate the fabric into `doc` in one `apply` (one undo step); return the summary
    (`uncabled`: as `build_ops`)."""
    with gc_paused():
        ops, result = build_ops(doc, params, replace, uncabled)
        try:
            doc.apply(ops)
        except ModelError as exc:
            raise GeneratorError(f"the document refused the generated fabric: {exc}") from None
    return result


def build_design(catalog: Catalog, params: TemplateParams) -> tuple[FabricDocument, GenerationResult]:
    """A new document holding the design `params` generate (their template is
    `params.template`), and the run's summary; raises `GeneratorError` as `generate` does.
    A study that compares designs builds each with this."""
    doc = FabricDocument(catalog)
    return doc, generate(doc, params)
