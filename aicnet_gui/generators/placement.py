"""Racks on the floor and devices in racks.

Servers per rack follow from the rack power budget and its height (four DGX H100 at 10.2 kW in
a 42 kW rack, the SuperPOD density); network racks take switches until the next one would
exceed the rack's height, its switch count or its power budget (eight Q3400-RA with their 72
twin-port optics at 4.7 kW each in 42 kW, not the eleven that fit by height).  Power is counted
as RACK-POWER and POWER-FEED count it (`model/power.py`: a model's maximum, else typical power,
plus the optics in its cages; the budget is the rack's, and no more than one A/B feed carries
when the project sets its capacity).  The generator places once without optics, and again
counting the optics the media choice installed when a rack cannot power them (`build.py`).
A server that comes in a rack-scale system (an NVL72 compute tray) fills racks of exactly its
system's count (18), the system's own power budget on them (none when no document states it),
whole racks only, never with switches in them.
Each compute cell (SU) gets its server racks with its
leaves in network racks in the middle of them, or on top of the servers' rack when a whole cell
fits in one rack (top of rack).  Spines of a pod go to the middle of the pod's rows, core
switches to rows in the middle of the floor.  Rows come in pairs around a hot aisle,
pairs are separated by cold aisles (600 mm tiles), and long sequences of rows wrap into columns
so that the floor stays roughly square and cable runs short: a pod is never split between two
columns (its leaf-spine runs would cross the floor), and the core rows stand between two pods in
the middle of the middle column (at 400 SUs the longest spine-core run fell from 137 m to 106 m,
the longest leaf-spine run from 120 m to 13 m).  A pod's spine racks join the middle row of the
pod when there is room in it, else they get rows of their own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..model.catalog_entities import DeviceModel, RackSystem
from ..model.fabric import LengthEstimation, Rack
from ..model.power import device_watts, optics_in_figure, rack_budget_kw
from ..model.wording import counted, nvlink_domain
from .errors import GeneratorError
from .naming import rack_name
from .plan import FabricPlan, PlannedDevice
from .rack_needs import rack_cooling, rack_feeds
from .template_params import FloorParams

#: used when a model has no power figure: the DGX H100/H200 maximum, "10.2 kW max." (DGX H100/H200
#: User Guide, Power Specifications, Table 3; hardware.md §2.2)
DEFAULT_SERVER_KW = 10.2


@dataclass(slots=True)
class _RackSpec:
    kind: str  # "server" or "network"
    servers: list[int] = field(default_factory=list)
    switches: list[int] = field(default_factory=list)


@dataclass
class Placement:
    racks: list[Rack]
    servers_per_rack: int
    server_racks: int
    network_racks: int
    rows: int
    notes: list[str]


@dataclass(frozen=True, slots=True)
class Power:
    """What placement counts against a rack: per planned device its draw in W (model power as
    `model/power.py` counts it, plus the optics a media pass installed in it), and the budget
    of every rack in W (the rack power and, when the project sets one, the capacity of one
    A/B feed)."""

    watts: tuple[float, ...]
    budget_w: float
    notes: tuple[str, ...] = ()

    def of(self, keys: list[int]) -> float:
        return sum(self.watts[k] for k in keys)


def _server_watts(model: DeviceModel, floor: FloorParams) -> tuple[float, str | None]:
    if floor.server_power_kw is not None:
        return floor.server_power_kw * 1000, None
    watts = device_watts(model)
    if watts is not None:
        return watts, None
    system = model.rack_system
    if system is not None:  # powered as a rack: its racks take the rack's budget
        if system.power_kw is None:
            return 0.0, (
                f"no NVIDIA document found states the power of the {system.name} or of a "
                f"{model.model}: those racks get no power budget (set one per rack)")
        return 0.0, (
            f"each {system.name} gets the rack's stated power, {system.power_kw:g} kW (its "
            f"switch trays and power shelves included), as its budget; NVIDIA gives none per "
            f"{model.model}")
    return DEFAULT_SERVER_KW * 1000, (
        f"the catalog has no power figure for {model.model}; racks are filled assuming "
        f"{DEFAULT_SERVER_KW} kW per server (the DGX H100 User Guide's maximum); set the server "
        "power to change it")


def power_of(
    plan: FabricPlan, floor: FloorParams, optic_w: Sequence[float] | None = None,
    feed_kw: float | None = None,
) -> Power:
    """The draw of every planned device (`optic_w`: the watts of its optics, per device, when a
    media pass has chosen them) and the rack budget.  A switch without a power figure counts
    nothing, as RACK-POWER counts it, and a note says so."""
    watts: list[float] = []
    notes: list[str] = []
    unknown: set[str] = set()
    cache: dict[str, float] = {}
    for index, device in enumerate(plan.devices):
        model = device.model
        base = cache.get(model.id)
        if base is None:
            if device.role.value == "gpu_server":
                base, note = _server_watts(model, floor)
                if note:
                    notes.append(note)
            else:
                known = device_watts(model)
                if known is None:
                    unknown.add(model.model)
                base = known or 0.0
            cache[model.id] = base
        optics = optic_w[index] if optic_w is not None and not optics_in_figure(model) else 0.0
        watts.append(base + optics)
    if unknown:
        notes.append(f"the catalog has no power figure for {', '.join(sorted(unknown))}; "
                     "network racks are filled by height and their optics only")
    budget = rack_budget_kw(floor.rack_power_kw, feed_kw)
    assert budget is not None  # the floor always has a rack budget
    return Power(tuple(watts), budget * 1000, tuple(notes))


def servers_per_rack(
    plan: FabricPlan, floor: FloorParams, power: Power | None = None
) -> tuple[int, list[str]]:
    """Servers per rack: as given, else the fewest of what the rack budget powers (servers and
    their optics when `power` knows them) and what its height holds."""
    server_keys = [i for i, d in enumerate(plan.devices) if d.role.value == "gpu_server"]
    server = plan.devices[server_keys[0]].model
    usable = floor.rack_height_ru - floor.reserved_top_ru
    by_ru = usable // max(server.height_ru, 1)
    if server.rack_system is not None:
        count = _rack_system_count(server, len(server_keys), floor, usable)
        domain = nvlink_domain(server.nvlink_domain_gpus)
        domain = f" ({domain})" if domain else ""
        return count, [f"{count} {server.model}s per rack: one {server.rack_system.name}{domain}, "
                       "installed and powered as a rack; leaves go in network racks"]
    if floor.servers_per_rack is not None:
        if floor.servers_per_rack > by_ru:
            raise GeneratorError(
                f"{floor.servers_per_rack} x {server.model} ({server.height_ru} U) do not fit a "
                f"{floor.rack_height_ru} U rack with {floor.reserved_top_ru} U reserved; at most {by_ru}"
            )
        return floor.servers_per_rack, []
    if power is None:
        power = power_of(plan, floor)
    notes = [n for n in power.notes if server.model in n]
    bare, _ = _server_watts(server, floor)
    watts = max(power.watts[k] for k in server_keys)
    budget_kw = power.budget_w / 1000
    by_power = int(power.budget_w / watts + 1e-9)
    if by_power < 1:
        raise GeneratorError(
            f"one {server.model} draws {watts / 1000:g} kW, more than the {budget_kw:g} kW rack "
            "budget; raise the rack power"
        )
    if by_ru < 1:
        raise GeneratorError(f"a {server.model} ({server.height_ru} U) does not fit the rack")
    count = min(by_ru, by_power)
    notes.append(
        f"{count} servers per rack: {budget_kw:g} kW / {watts / 1000:.4g} kW = {by_power} by power, "
        f"{usable} U / {server.height_ru} U = {by_ru} by height"
    )
    if count < min(by_ru, int(power.budget_w / bare + 1e-9)):
        notes.append(f"{count} servers per rack so that the racks also power the optics")
    reference = server.rack_servers
    if reference is not None and count < reference <= by_ru and floor.server_power_kw is None:
        draw = reference * watts / 1000
        needed = math.floor(draw) + 1  # above the servers' draw: their optics come on top
        notes.append(f"the vendor's reference design puts {reference} {server.model} in a rack: "
                     f"{reference} x {watts / 1000:.4g} kW at maximum, at least {draw:.4g} kW with "
                     f"their optics: --rack-kw {needed}, and A/B feeds (if the project sets "
                     "them) that carry as much")
    return count, notes


def _rack_system_count(server: DeviceModel, servers: int, floor: FloorParams, usable: int) -> int:
    """Devices per rack of a rack-scale system (its own count: an NVL72 rack holds 18 compute
    trays), after checking that the design is whole racks of them and that they fit."""
    system = server.rack_system
    assert system is not None
    per = system.devices
    what = f"{server.model}s come in {system.name}s of {per}"
    if floor.servers_per_rack is not None and floor.servers_per_rack != per:
        raise GeneratorError(f"{what} (one rack, one NVLink domain): {floor.servers_per_rack} "
                             "servers per rack cannot be built")
    if servers % per:
        lower, upper = servers // per * per, (servers // per + 1) * per
        raise GeneratorError(
            f"{what}: {servers} do not fill whole racks; "
            + (f"{lower} ({counted(lower // per, 'rack')}) or " if lower else "")
            + f"{upper} ({counted(upper // per, 'rack')}) would")
    if per * server.height_ru > usable:
        raise GeneratorError(f"{what}: {per} x {server.height_ru} U do not fit a "
                             f"{floor.rack_height_ru} U rack with {floor.reserved_top_ru} U reserved")
    return per


def _rack_system_chunks(plan: FabricPlan, per_rack: int) -> dict[int, list[list[int]]]:
    """The server racks of a rack-scale system, each under the cell of its first device: the
    servers in plan order, `per_rack` to a rack, so a rack may hold devices of two cells (an
    NVL72 rack is bought whole; its trays' leaves can differ)."""
    order = [(index, key) for index, cell in enumerate(plan.cells) for key in cell.servers]
    chunks: dict[int, list[list[int]]] = {index: [] for index in range(len(plan.cells))}
    for start in range(0, len(order), per_rack):
        part = order[start:start + per_rack]
        chunks[part[0][0]].append([key for _cell, key in part])
    return chunks


def _switch_racks(keys: list[int], devices: list[PlannedDevice], floor: FloorParams,
                  power: Power) -> list[_RackSpec]:
    """Switches in order into network racks, a new rack when the next one would exceed the
    rack's height, its switch count or its power budget."""
    usable = floor.rack_height_ru - floor.reserved_top_ru
    racks: list[_RackSpec] = []
    used = 0
    drawn = 0.0
    for key in keys:
        height = devices[key].model.height_ru
        watts = power.watts[key]
        if height > usable:
            raise GeneratorError(f"{devices[key].model.model} ({height} U) does not fit the rack")
        if watts > power.budget_w + 1e-6:
            raise GeneratorError(
                f"one {devices[key].model.model} with its optics draws {watts / 1000:.2f} kW, more "
                f"than the {power.budget_w / 1000:g} kW rack budget; raise the rack power")
        if (not racks or len(racks[-1].switches) >= floor.switches_per_rack
                or used + height > usable or drawn + watts > power.budget_w + 1e-6):
            racks.append(_RackSpec("network"))
            used = 0
            drawn = 0.0
        racks[-1].switches.append(key)
        used += height
        drawn += watts
    return racks


def _cell_racks(plan: FabricPlan, cell_index: int, per_rack: int, floor: FloorParams,
                power: Power, chunks: list[list[int]] | None = None) -> list[_RackSpec]:
    """The racks of one cell: its server racks (`chunks`, else its servers `per_rack` to a rack)
    with its leaves in network racks in the middle, or on top of its one rack when they fit
    (never in a rack-scale system's rack, given as `chunks`)."""
    cell = plan.cells[cell_index]
    devices = plan.devices
    whole_racks = chunks is not None
    if chunks is None:
        chunks = [cell.servers[i:i + per_rack] for i in range(0, len(cell.servers), per_rack)]
    racks = [_RackSpec("server", servers=chunk) for chunk in chunks]
    usable = floor.rack_height_ru - floor.reserved_top_ru
    if len(racks) == 1 and not whole_racks:
        used = sum(devices[k].model.height_ru for k in racks[0].servers)
        leaf_ru = sum(devices[k].model.height_ru for k in cell.leaves)
        drawn = power.of(racks[0].servers) + power.of(cell.leaves)
        if (used + leaf_ru <= usable and len(cell.leaves) <= floor.switches_per_rack
                and drawn <= power.budget_w + 1e-6):
            racks[0].switches = list(cell.leaves)
            return racks
    network = _switch_racks(cell.leaves, devices, floor, power)
    middle = len(racks) // 2
    return racks[:middle] + network + racks[middle:]


def _rack_system(plan: FabricPlan) -> RackSystem | None:
    """The rack-scale system the plan's servers come in, if they do."""
    for device in plan.devices:
        if device.role.value == "gpu_server":
            return device.model.rack_system
    return None


def _rows_of(racks: list[_RackSpec], per_row: int) -> list[list[_RackSpec]]:
    return [racks[i:i + per_row] for i in range(0, len(racks), per_row)]


def _row_groups(plan: FabricPlan, per_rack: int, floor: FloorParams, power: Power
                ) -> tuple[list[list[list[_RackSpec]]], list[list[_RackSpec]]]:
    """(the rows of each pod, its spines among them, in pod order; the core rows)."""
    per_row = floor.racks_per_row
    pod_rows: dict[int, list[list[_RackSpec]]] = {}
    chunks = _rack_system_chunks(plan, per_rack) if _rack_system(plan) is not None else {}
    for index, cell in enumerate(plan.cells):
        racks = _cell_racks(plan, index, per_rack, floor, power, chunks.get(index))
        rows = pod_rows.setdefault(cell.pod, [])
        if len(racks) > per_row:
            rows.extend(_rows_of(racks, per_row))
        elif rows and len(rows[-1]) + len(racks) <= per_row:
            rows[-1].extend(racks)
        else:
            rows.append(list(racks))
    spine_racks: dict[int, list[_RackSpec]] = {}
    core_rows: list[list[_RackSpec]] = []
    for block in plan.blocks:
        racks = _switch_racks(block.switches, plan.devices, floor, power)
        if block.pod is None:
            core_rows.extend(_rows_of(racks, per_row))
        else:
            spine_racks.setdefault(block.pod, []).extend(racks)
    pods = sorted(set(pod_rows) | set(spine_racks))
    groups: list[list[list[_RackSpec]]] = []
    for pod in pods:
        compute = pod_rows.get(pod, [])
        spines = spine_racks.get(pod, [])
        middle = (len(compute) - 1) // 2
        if compute and spines and len(compute[middle]) + len(spines) <= per_row:
            row = compute[middle]
            centre = len(row) // 2
            compute[middle] = row[:centre] + spines + row[centre:]
            groups.append(compute)
            continue
        half = (len(compute) + 1) // 2
        groups.append(compute[:half] + _rows_of(spines, per_row) + compute[half:])
    return groups, core_rows


def _row_sequence(groups: list[list[list[_RackSpec]]], core_rows: list[list[_RackSpec]]
                  ) -> list[list[_RackSpec]]:
    """One column of rows: the pods in order, the core rows in the middle."""
    sequence: list[list[_RackSpec]] = []
    for number, rows in enumerate(groups):
        if number == len(groups) // 2:
            sequence.extend(core_rows)
        sequence.extend(rows)
    if not groups:
        sequence.extend(core_rows)
    return sequence


def _fill_columns(groups: list[list[list[_RackSpec]]], per_col: int) -> list[list[list[_RackSpec]]]:
    """Pods in order, down one column after the other, a pod never split between two columns
    (its leaf-spine runs would cross the floor) unless it is longer than a column."""
    columns: list[list[list[_RackSpec]]] = [[]]
    for rows in groups:
        if columns[-1] and len(columns[-1]) + len(rows) > per_col:
            columns.append([])
        columns[-1].extend(rows)
    return columns


def _column_layout(groups: list[list[list[_RackSpec]]], core_rows: list[list[_RackSpec]],
                   cols: int, per_col: int) -> list[list[list[_RackSpec]]]:
    """The rows of each column: whole pods per column (as few more rows per column as that
    takes), the core rows between two pods in the middle of the middle column, so that the
    spine-core runs from the far corners stay short."""
    while True:
        columns = _fill_columns(groups, per_col)
        if len(columns) <= cols:
            break
        per_col += 2
    if core_rows:
        column = columns[(len(columns) - 1) // 2]
        bounds = [0]
        for rows in groups:
            bounds.append(bounds[-1] + len(rows))
        # the pod boundaries inside that column, as row counts from its top
        start = sum(len(c) for c in columns[:(len(columns) - 1) // 2])
        inside = [b - start for b in bounds if start <= b <= start + len(column)]
        cut = min(inside, key=lambda b: (abs(2 * b - len(column)), b))
        column[cut:cut] = core_rows
    return columns


def _columns(rows: int, row_width: float, pair_pitch: float, aisle: float) -> int:
    """Columns of rows that make the floor closest to square."""
    best, best_cols = math.inf, 1
    for cols in range(1, rows + 1):
        per_col = -(-rows // cols)
        per_col += per_col % 2 if per_col > 1 else 0
        width = cols * row_width + (cols - 1) * aisle
        depth = per_col / 2 * pair_pitch
        score = max(width, depth)
        if score < best - 1e-9:
            best, best_cols = score, cols
    return best_cols


def place(
    plan: FabricPlan, floor: FloorParams, lengths: LengthEstimation, power: Power | None = None
) -> Placement:
    """Create the racks and set `rack`/`ru` on every planned device, within every rack's height
    and power budget (`power`: the draw of every device; default: the models' power figures
    without optics)."""
    if power is None:
        power = power_of(plan, floor)
    per_rack, notes = servers_per_rack(plan, floor, power)
    notes += [n for n in power.notes if n not in notes]
    groups, core_rows = _row_groups(plan, per_rack, floor, power)
    sequence = _row_sequence(groups, core_rows)
    width = lengths.rack_width_m
    row_width = max(len(row) for row in sequence) * width
    pair_pitch = 2 * floor.rack_depth_m + floor.hot_aisle_m + floor.cold_aisle_m
    aisle = floor.cold_aisle_m
    cols = _columns(len(sequence), row_width, pair_pitch, aisle)
    per_col = -(-len(sequence) // cols)
    per_col += per_col % 2 if per_col > 1 else 0
    places = [divmod(index, per_col) for index in range(len(sequence))]
    if cols > 1:
        columns = _column_layout(groups, core_rows, cols, per_col)
        sequence = [row for column in columns for row in column]
        places = [(col, local) for col, column in enumerate(columns) for local in range(len(column))]
        cols = len(columns)
    top = floor.rack_height_ru - floor.reserved_top_ru
    longest = max(len(row) for row in sequence)
    system = _rack_system(plan)
    system_kw = system.power_kw if system is not None else None
    racks: list[Rack] = []
    server_racks = network_racks = 0
    devices = plan.devices
    for index, row in enumerate(sequence):
        col, local = places[index]
        y = (local // 2) * pair_pitch + (local % 2) * (floor.rack_depth_m + floor.hot_aisle_m)
        y += floor.rack_depth_m / 2
        x0 = col * (row_width + aisle)
        for pos, spec in enumerate(row):
            name = rack_name(index + 1, pos + 1, len(sequence), longest)
            rack_id = "rack-" + name.lower()
            held = [devices[key].model for key in (*spec.servers, *spec.switches)]
            racks.append(Rack(
                id=rack_id, name=name, row=index + 1, position=pos + 1,
                x_m=round(x0 + (pos + 0.5) * width, 3), y_m=round(y, 3),
                height_ru=floor.rack_height_ru,
                power_kw=system_kw if system is not None and spec.kind == "server"
                else floor.rack_power_kw,
                cooling=rack_cooling(held), power_feeds=rack_feeds(held),
            ))
            ru = 1
            for key in spec.servers:
                devices[key].rack, devices[key].ru = rack_id, ru
                ru += devices[key].model.height_ru
            ru_top = top
            for key in spec.switches:
                height = devices[key].model.height_ru
                devices[key].rack, devices[key].ru = rack_id, ru_top - height + 1
                ru_top -= height
            if spec.kind == "server":
                server_racks += 1
            else:
                network_racks += 1
    notes.append(
        f"{len(sequence)} row(s) in {cols} column(s); row pairs share a {floor.hot_aisle_m:g} m hot "
        f"aisle, pairs are {pair_pitch:g} m apart with {floor.cold_aisle_m:g} m cold aisles"
    )
    return Placement(racks, per_rack, server_racks, network_racks, len(sequence), notes)
