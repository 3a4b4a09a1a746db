"""Per-device rules.

TECH-MISMATCH (a model that does not run the fabric's technology, with fabric ports wired to it),
MTU-MISMATCH (a device `mtu` tag against the fabric
(host) MTU, per technology), OPTIC-POWER-CLASS (optic draws more than the cage cools), PORT-DUPLICATE and
TWIN-PORT-MIXED-FIBRE (what shares one cage or one optical port), OVERSUBSCRIBED (per switch vs
the strictest target of the workloads crossing it), ECMP-IMBALANCE (a switch missing an upper
switch its peers reach, or with unequal bandwidth to its uppers), RAIL-MISWIRED (a NIC of rail r
on a leaf that carries other rails), NIC-UNCONNECTED (a GPU NIC with no link), OPTIC-UNLINKED
(a cage holds an optic but none of its ports has a link: the optic is ordered for nothing),
LENGTH-UNKNOWN (an unplaced device whose links have no typed-in length).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain

import numpy as np

from ..model import arrays
from ..model.catalog_entities import Transceiver
from ..model.document import FabricDocument
from ..model.edits import UpdateDevice
from ..model.fabric import FabricTechnology
from ..model.fit import ports_per_optical_port
from ..model.wording import counted
from .dirty import switch_peers
from .ecmp_reach import reach_union
from .findings import ERROR, INFO, WARNING, Finding, Fix
from .fixes import set_assembly
from .index import NONE
from .rules_compat import TECH_NAMES
from .state import Rule, State
from .store import MAX_CAGE

EPS = 1e-9


def _gbps(value: float) -> str:
    return f"{value / 1000:g} Tb/s" if value >= 1000 else f"{value:g} Gb/s"


def ratio_text(ratio: float) -> str:
    """2.0 -> '2:1', 1.333 -> '1.33:1'."""
    return f"{round(ratio, 2):g}:1"


# ---------------------------------------------------------------------------- technology, MTU
def tech_check(state: State, row: int) -> Iterable[Finding]:
    """A device whose model does not run the fabric's technology is an error only where it
    meets a port that must: an Ethernet management or storage switch in an InfiniBand design
    is legitimate while every link of it runs Ethernet (in-band, BMC, storage ports: their link
    family, model/fit.link_family); a fabric port wired to it (whose link has no common
    technology) makes it one."""
    model = state.store.dev_models[row]
    if model is None or state.family in model.technology:
        return
    store, sigs = state.store, state.sigs
    dev_id = state.dev_id(row)
    wrong = []
    for link_id in sorted(state.doc.link_ids_of(dev_id)):
        link_row = store.link_row.get(link_id)
        if link_row is not None and sigs.tech_problems[int(store.l["sig"][link_row])]:
            link = state.doc.links[link_id]
            far = link.b if link.a.device == dev_id else link.a
            wrong.append(f"{state.doc.devices[far.device].name}:{far.port}")
    if not wrong:
        return
    techs = "/".join(TECH_NAMES[t] for t in model.technology)
    yield Finding(
        "TECH-MISMATCH", ERROR,
        f"{state.name(row)} ({model.model}) is {techs} only, but the fabric runs "
        f"{state.settings.technology.value} and {', '.join(wrong[:3])}"
        f"{f' (+{len(wrong) - 3} more)' if len(wrong) > 3 else ''}, which cannot run {techs}, "
        f"{'is' if len(wrong) == 1 else 'are'} wired to it",
        (dev_id,),
        Fix(f"replace {state.name(row)} with an {TECH_NAMES[state.family]} model, or wire those "
            "ports to a switch of the fabric's technology"))


def tech_candidates(state: State) -> Iterable[int]:
    bad = np.array([state.family not in m.technology for m in state.cindex.models] or [False])
    store = state.store
    rows = store.device_rows()
    return rows[bad[store.d["model"][rows]]].tolist()


def _mtu_verdict(state: State, row: int, value: int) -> tuple[str, str] | None:
    """(severity, why) of a device whose mtu tag is `value`, or None when it is fine.

    The fabric MTU (project settings) is the hosts' MTU.  Ethernet/RoCEv2: a switch carries
    transit frames, so it must be at least the host MTU (9216 over hosts at 9000 is common
    practice), a host above it sends frames the switches drop, a host below it drops its peers'
    large frames unless the protocol negotiates down.  InfiniBand: the path MTU is the minimum
    over the path (the subnet manager sets it), so a lower port costs bandwidth, never frames."""
    fabric = state.settings.mtu
    if value < 0:
        return ERROR, "is not a number"
    if value == 0 or value == fabric:
        return None
    if state.settings.technology == FabricTechnology.INFINIBAND:
        if value > fabric:
            return None
        return WARNING, (f"sets MTU {value}, below the fabric's {fabric}: the subnet manager sets "
                         f"the path MTU of every path through it to {value}, so those paths carry "
                         "smaller packets (more headers, less bandwidth); nothing is dropped")
    if state.store.d["switch"][row]:
        if value > fabric:
            return None
        return ERROR, (f"sets MTU {value} on a switch, below the hosts' MTU {fabric}: it drops "
                       "every frame larger than that (a transit MTU must be at least the host MTU)")
    if value > fabric:
        return ERROR, (f"sets MTU {value}, above the fabric's {fabric}: switches at the fabric MTU "
                       "drop its larger frames")
    return WARNING, (f"sets MTU {value}, below the other hosts' {fabric}: their larger frames to it "
                     "are dropped unless the protocol negotiates down (TCP MSS, RDMA path MTU)")


def mtu_check(state: State, row: int) -> Iterable[Finding]:
    value = int(state.store.d["mtu"][row])
    fabric = state.settings.mtu
    verdict = _mtu_verdict(state, row, value)
    if verdict is None:
        return
    severity, why = verdict
    device = state.store.dev_obj[row]
    tags = {k: v for k, v in device.tags.items() if k != "mtu"}
    yield Finding(
        "MTU-MISMATCH", severity, f"{state.name(row)}: its mtu tag {why}",
        (state.dev_id(row),),
        Fix(f"remove the mtu tag of {state.name(row)} (use the fabric MTU {fabric})",
            (UpdateDevice(state.dev_id(row), {"tags": tags}),)))


def mtu_candidates(state: State) -> Iterable[int]:
    store = state.store
    rows = store.device_rows()
    mtu = store.d["mtu"][rows]
    return rows[(mtu != 0) & (mtu != state.settings.mtu)].tolist()


# ---------------------------------------------------------------------------- optics power
def power_check(state: State, row: int) -> Iterable[Finding]:
    model = state.store.dev_models[row]
    optics = state.store.dev_optics[row]
    if model is None or not optics:
        return
    over: list[tuple[int, str, float, float]] = []
    for cage, optic_i in sorted(optics.items()):
        group = model.cage_group_of.get(cage)
        optic = state.cindex.optics[optic_i]
        rating = group.power_class(cage) if group is not None else None
        if rating is not None and optic.power_w > rating + EPS:
            over.append((cage, optic.model, optic.power_w, rating))
    if not over:
        return
    cages = ", ".join(str(c[0]) for c in over)
    first = over[0]
    one = len(over) == 1
    yield Finding(
        "OPTIC-POWER-CLASS", ERROR,
        f"{state.name(row)}: {'cage' if one else 'cages'} {cages} "
        f"{'holds an optic that draws' if one else 'hold optics that draw'} more than the cage "
        f"cools ({'' if one else 'e.g. '}the {first[1]} draws {first[2]:g} W, the cage is rated "
        f"{first[3]:g} W): {'it overheats or is' if one else 'they overheat or are'} shut down",
        (state.dev_id(row),),
        Fix("use lower-power optics in these cages (e.g. multimode instead of FR4) or cages of a "
            "higher power class"))


def power_candidates(state: State) -> Iterable[int]:
    cindex = state.cindex
    risky_models = set()
    for i, model in enumerate(cindex.models):
        classes = [c for g in model.cages for c in (g.power_class_w, *g.power_class_by_cage.values())
                   if c is not None]
        if classes and any(o.power_w > min(classes) + EPS for o in cindex.optics):
            risky_models.add(i)
    if not risky_models:
        return []
    store = state.store
    rows = store.device_rows()
    pick = arrays.isin(store.d["model"][rows], np.array(sorted(risky_models)))
    return [r for r in rows[pick].tolist() if store.dev_optics[r]]


# ---------------------------------------------------------------------------- cage usage
def _cage_ends(state: State, row: int) -> dict[int, list[tuple[int, int, int, int]]]:
    """cage -> [(leg, legs, link row, cable index)] of the device's links, for the cages that
    hold an integrated or splitter cable end, or more link ends than their optic has ports
    (no other cage can break the cage rules)."""
    store = state.store
    if not store.d["cage_flag"][row]:
        return {}
    rows = store.rows_of_links(state.doc.link_ids_of(state.dev_id(row)))
    if len(rows) < 2:
        return {}
    col = store.l
    cindex = state.cindex
    ep = state.endpoints.arrays()
    side_a = col["a"][rows] == row
    ends_ep = np.where(side_a, col["a_ep"][rows], col["b_ep"][rows])
    opt = np.where(side_a, col["a_opt"][rows], col["b_opt"][rows])
    cable = col["cable"][rows]
    cage = ep["cage"][ends_ep]
    legs = ep["legs"][ends_ep]
    flag = (cable != NONE) & (~cindex.c_fibre[cable] | (cindex.c_legs[cable] > 1))
    flag |= legs > cindex.o_ports[opt]
    if not flag.any():
        return {}
    pick = np.flatnonzero(np.isin(cage, np.unique(cage[flag])))
    ends: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    leg = ep["leg"][ends_ep]
    for at, *end in zip(cage[pick].tolist(), leg[pick].tolist(), legs[pick].tolist(),
                        rows[pick].tolist(), cable[pick].tolist(), strict=True):
        ends[at].append(tuple(end))  # type: ignore[arg-type]
    return ends


_End = tuple[int, int, int, int]  # (leg, legs of its mode, link row, cable index)


@dataclass(frozen=True)
class _CageEnds:
    """The link ends on one cage of a device, as the cage rules read them."""

    state: State
    row: int
    name: str
    cage: int
    ends: list[_End]  # sorted
    keys: dict[int, str]  # link row -> its cable: the assembly id, else the link id
    link_ids: tuple[str, ...]

    def cables(self, ends: Iterable[_End]) -> int:
        """How many distinct cables land on `ends`."""
        return len({self.keys[e[2]] for e in ends})


def cage_check(state: State, row: int) -> Iterable[Finding]:
    optics = state.store.dev_optics[row] or {}
    name = state.name(row)
    c_fibre = state.cindex.c_fibre
    for cage, ends in sorted(_cage_ends(state, row).items()):
        # neither an integrated cable's plug nor an optic's ports: no cage rule can find anything
        if len(ends) < 2 or (optics.get(cage) is None
                             and all(e[3] == NONE or c_fibre[e[3]] for e in ends)):
            continue
        ends.sort()
        keys = {lrow: state.store.assembly[lrow] or state.link_id(lrow)
                for _leg, _legs, lrow, _cable in ends}
        at = _CageEnds(state, row, name, cage, ends, keys,
                       tuple(sorted(state.link_id(e[2]) for e in ends)))
        plug = _whole_cage_plug(at)
        if plug is not None:
            yield plug
            continue
        optic_i = optics.get(cage)
        if optic_i is None:
            continue
        optic = state.cindex.optics[optic_i]
        by_port = _by_optical_port(ends, optic)
        yield from _shared_optical_ports(at, optic, by_port)
        mixed = _twin_port_mixed(at, optic, by_port)
        if mixed is not None:
            yield mixed


def _whole_cage_plug(at: _CageEnds) -> Finding | None:
    """PORT-DUPLICATE: an integrated cable's plug takes the whole cage, yet the ends of more
    than one cable land on it."""
    cindex = at.state.cindex
    integrated = [e for e in at.ends if e[3] != NONE and not cindex.c_fibre[e[3]]]
    if not integrated or at.cables(at.ends) <= 1:
        return None
    cable = cindex.cables[integrated[0][3]]
    return Finding(
        "PORT-DUPLICATE", ERROR,
        f"{at.name} cage {at.cage}: the {cable.model} ({cable.type}) plug takes the whole cage, "
        f"yet {len(at.ends)} links of different cables land on it "
        f"({', '.join(at.link_ids)})",
        (at.state.dev_id(at.row), *at.link_ids),
        Fix("give the links of one cable the same assembly id, or move the other links "
            "to another cage"))


def _by_optical_port(ends: list[_End], optic: Transceiver) -> dict[int, list[_End]]:
    """The ends grouped by the optical port of `optic` their leg goes through (0-based)."""
    by_port: dict[int, list[_End]] = defaultdict(list)
    for end in ends:
        leg, legs = end[0], end[1]
        per_port = ports_per_optical_port(legs, optic)
        by_port[(leg - 1) // per_port].append(end)
    return by_port


def _shared_optical_ports(at: _CageEnds, optic: Transceiver,
                          by_port: dict[int, list[_End]]) -> Iterable[Finding]:
    """PORT-DUPLICATE: an optical port carrying more than one cord (the fix: mark them as the
    legs of one splitter where they are one splitter part)."""
    state, cindex, store = at.state, at.state.cindex, at.state.store
    for optical, group in sorted(by_port.items()):
        if at.cables(group) <= 1:
            continue
        ids = sorted(state.link_id(e[2]) for e in group)
        cables = {e[3] for e in group}
        splitter = all(c != NONE and cindex.c_legs[c] > 1 for c in cables) and len(cables) == 1
        fix = Fix("one MPO port takes one cord: use a single 1:2 splitter cord for these legs")
        if splitter:
            asm = next((store.assembly[e[2]] for e in group if store.assembly[e[2]]), None)
            asm = asm or f"asm-{ids[0]}"
            fix = Fix(f"mark them as the legs of one splitter (assembly {asm})",
                      tuple(set_assembly(ids, asm)))
        yield Finding(
            "PORT-DUPLICATE", ERROR,
            f"{at.name} cage {at.cage}: optical port {optical + 1} of the {optic.model} carries "
            f"{len(group)} separate cords ({', '.join(ids)}); one port takes one cord",
            (state.dev_id(at.row), *ids), fix)


def _twin_port_mixed(at: _CageEnds, optic: Transceiver,
                     by_port: dict[int, list[_End]]) -> Finding | None:
    """TWIN-PORT-MIXED-FIBRE: a straight cord on one port of a twin-port optic and a splitter
    cord on the other."""
    if optic.optical_ports != 2 or len(by_port) != 2:
        return None
    cindex = at.state.cindex
    kinds = {}
    for optical, group in by_port.items():
        fibres = [cindex.cables[e[3]] for e in group if e[3] != NONE and cindex.c_fibre[e[3]]]
        if fibres:
            kinds[optical] = "splitter" if fibres[0].legs > 1 else "straight"
    if len(set(kinds.values())) <= 1:
        return None
    return Finding(
        "TWIN-PORT-MIXED-FIBRE", ERROR,
        f"{at.name} cage {at.cage}: the twin-port {optic.model} has a straight cord on one "
        "optical port and a splitter cord on the other; NVIDIA requires both fibres of "
        "one twin-port optic to be the same type",
        (at.state.dev_id(at.row), *at.link_ids),
        Fix("use straight cords on both ports (2 x 400G) or splitter cords on both "
            "(4 x 200G)"))


def _split_groups(group: np.ndarray, key: np.ndarray) -> np.ndarray:
    """The groups among `group` whose members carry more than one distinct `key` (sorted, each
    once).  Each (group, key) pair is one number when they fit in 63 bits (a sort of 4.8M link
    ends' pairs: `np.lexsort` took ~0.5 s), else the pairs are sorted by `np.lexsort`."""
    if len(group) < 2:
        return group[:0]
    span = int(key.max()) + 1 if int(key.min()) >= 0 else 0
    if span and int(group.min()) >= 0 and int(group.max()) < (2**62) // span:
        pairs = arrays.unique(group.astype(np.int64) * span + key)  # distinct (group, key)
        g = pairs // span
    else:
        order = np.lexsort((key, group))
        g, k = group[order], key[order]
        g = g[np.concatenate(([True], (g[1:] != g[:-1]) | (k[1:] != k[:-1])))]
    return arrays.unique(g[1:][g[1:] == g[:-1]])


def cage_candidates(state: State) -> Iterable[int]:
    """Devices whose link ends can break a cage rule, worked out over every link end at once:
    a cage holding an integrated cable end and the ends of more than one cable, an optical port
    carrying more than one cord, or a twin-port optic with straight and splitter cords.  A
    superset of the devices `cage_check` reports (it still decides); a fabric of 300k links
    with splitter cords on every spine cage costs one numpy pass instead of 3 s of per-cage
    Python (issue 22)."""
    store = state.store
    dev_rows = store.device_rows()
    flagged = dev_rows[store.d["cage_flag"][dev_rows] > 0]
    if not len(flagged):
        return []
    col, cindex = store.l, state.cindex
    ep = state.endpoints.arrays()
    rows = store.link_rows()
    dev = np.concatenate([col["a"][rows], col["b"][rows]])
    keep = np.zeros(store.n_devices, dtype=bool)
    keep[flagged] = True
    pick = keep[dev]
    rows2 = np.concatenate([rows, rows])[pick]
    dev = dev[pick]
    ends_ep = np.concatenate([col["a_ep"][rows], col["b_ep"][rows]])[pick]
    opt = np.concatenate([col["a_opt"][rows], col["b_opt"][rows]])[pick]
    cable = col["cable"][rows2]
    # one key per cable: the assembly id of a splitter's legs, else the link itself
    codes: dict[str, int] = {}
    assembly = store.assembly
    asm_rows = np.flatnonzero(col["has_asm"][rows2])
    key = rows2.copy()
    if len(asm_rows):
        base = store.n_links
        key[asm_rows] = [base + codes.setdefault(assembly[r], len(codes))
                         for r in rows2[asm_rows].tolist()]
    cage_group = dev * MAX_CAGE + ep["cage"][ends_ep]
    integrated = (cable != NONE) & ~cindex.c_fibre[cable]
    hot: list[np.ndarray] = []  # the cage groups found, as arrays (4.8M ends: no Python sets)
    if integrated.any():  # a cage with an integrated cable end and more than one cable
        shared = _split_groups(cage_group, key)
        hot.append(shared[arrays.isin(shared, cage_group[integrated])])
    has_optic = opt != NONE
    if has_optic.any():  # an optical port carrying more than one cord
        legs = ep["legs"][ends_ep]
        per_port = np.maximum(1, legs // cindex.o_ports[opt])
        port_group = cage_group * 64 + (ep["leg"][ends_ep] - 1) // per_port
        hot.append(_split_groups(port_group[has_optic], key[has_optic]) // 64)
    fibre = has_optic & (cindex.o_ports[opt] == 2) & (cable != NONE) & cindex.c_fibre[cable]
    if fibre.any():  # a twin-port optic with straight and splitter cords
        splitter = cindex.c_legs[cable] > 1
        split_cages = cage_group[fibre & splitter]
        hot.append(split_cages[arrays.isin(split_cages, cage_group[fibre & ~splitter])])
    if not hot:
        return []
    devices = np.concatenate(hot) // MAX_CAGE
    return flagged[arrays.isin(flagged, devices)].tolist()


# ---------------------------------------------------------------------------- oversubscription
def oversub_check(state: State, row: int) -> Iterable[Finding]:
    d = state.store.d
    up, down = int(d["up"][row]), int(d["down"][row])
    if not d["switch"][row] or up <= 0 or down <= 0:
        return
    ratio = down / up
    targets = state.settings.oversubscription
    target = float(state.target[row]) if row < len(state.target) else math.nan
    covered = not math.isnan(target)
    limit = target if covered else targets.training
    if ratio <= limit + EPS:
        return
    free = max(0, int(d["fabric_legs"][row] - d["fabric_used"][row]))
    fix = Fix(uplink_advice(state, row, up, down, limit, free))
    if covered:
        wl = state.doc.workloads.get(state.target_ids[int(state.target_wl[row])])
        who = f"{wl.kind.value} (workload {wl.name})" if wl else "its workloads"
        yield Finding(
            "OVERSUBSCRIBED", WARNING,
            f"{state.name(row)}: {_gbps(down)} down and {_gbps(up)} up is {ratio_text(ratio)}, above "
            f"the {ratio_text(limit)} target for {who}",
            (state.dev_id(row),), fix)
    else:
        yield Finding(
            "OVERSUBSCRIBED", INFO,
            f"{state.name(row)}: {_gbps(down)} down and {_gbps(up)} up is {ratio_text(ratio)}; no "
            f"workload crosses it, and against the {ratio_text(limit)} training default it is "
            "oversubscribed",
            (state.dev_id(row),), fix)


def uplink_advice(state: State, row: int, up: int, down: int, limit: float, free: int) -> str:
    """What brings the switch to `limit`, in numbers the switch can take: uplinks only on its
    `free` fabric ports, and the downlinks to move when those are not enough."""
    need = math.ceil(down / limit) - up
    speed = max((p[1] // max(p[2], 1) for p in state.topo.up(row)), default=0)
    if not speed:
        return f"add {_gbps(need)} of uplink bandwidth, or move downlinks to another switch"
    more = math.ceil(need / speed)
    if more <= free:
        return (f"add {_gbps(need)} of uplink bandwidth: {more} more {speed}G uplinks on "
                f"{more} of its {free} free ports, or move downlinks to another switch")
    down_speed = max((p[1] // max(p[2], 1) for p in state.topo.down(row)), default=0) or speed
    top = up + free * speed
    move = math.ceil((down - limit * top) / down_speed - EPS)
    room = (f"its {free} free ports take {free} more {speed}G uplinks ({ratio_text(down / top)})"
            if free else "it has no free fabric port")
    return (f"{room}; to reach {ratio_text(limit)} also move about {move} {down_speed}G "
            "downlinks to another switch")


def oversub_candidates(state: State) -> Iterable[int]:
    store = state.store
    rows = store.device_rows()
    d = store.d
    up, down = d["up"][rows], d["down"][rows]
    ok = d["switch"][rows] & (up > 0) & (down > 0)
    targets = state.settings.oversubscription
    low = min(targets.training, targets.storage, targets.inference)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(up > 0, down / np.where(up > 0, up, 1), 0)
    return rows[ok & (ratio > low + EPS)].tolist()


# ---------------------------------------------------------------------------- ECMP
def expected_uppers(state: State, row: int) -> frozenset[int]:
    """The upper switches of every switch of the same tier that shares an upper switch with
    `row`.  The union per upper switch is memoized in `state.memo["ecmp"]`; refresh.ecmp_peers drops
    an entry when the lower switches of that upper switch or their uppers change.  When an
    update re-checks only a few switches (`state.run["ecmp_direct"]`), the upper switches not
    memoized are united in one pass over their peers (ecmp_reach.reach_union) instead."""
    d = state.store.d
    tier = int(d["tier"][row])
    topo = state.topo
    memo = state.memo.setdefault("ecmp", {})
    direct = state.run.get("ecmp_direct", False)
    parts = set()
    missing = []
    for upper in topo.upset(row):
        if not d["switch"][upper]:
            continue
        key = (upper, tier)
        reach = memo.get(key)
        if reach is None:
            if direct:
                missing.append(upper)
                continue
            reach = memo[key] = topo.tier_reach(upper, tier, d["switch"], d["tier"])
        parts.add(reach)
    if missing:
        parts.add(reach_union(topo, missing, tier, d["switch"], d["tier"]))
    uppers = np.fromiter(frozenset().union(*parts), np.int64)
    return frozenset(uppers[d["switch"][uppers]].tolist())


def ecmp_check(state: State, row: int) -> Iterable[Finding]:
    store = state.store
    if not store.d["switch"][row]:
        return
    ups = [p for p in state.topo.up(row) if store.d["switch"][p[0]]]
    if not ups:
        return
    name = state.name(row)
    mine = {p[0] for p in ups}
    missing = sorted(expected_uppers(state, row) - mine, key=state.name)
    if missing:
        shown = ", ".join(state.name(m) for m in missing[:8]) + (" ..." if len(missing) > 8 else "")
        yield Finding(
            "ECMP-IMBALANCE", WARNING,
            f"{name} has no link to {shown} although its peers reach {len(mine) + len(missing)} "
            "upper switches: ECMP hashing cannot use the missing paths, and traffic to devices "
            "behind them takes the remaining ones",
            (state.dev_id(row), *sorted(state.dev_id(m) for m in missing)),
            Fix(f"connect {name} to {shown} with the same bandwidth as to its other upper switches"))
    if _weighted_ecmp(state):
        return  # next hops weighted by bandwidth: unequal paths and mixed members are balanced
    speeds = _uplink_speeds(state, row)
    if len(speeds) > 1:
        shown = ", ".join(f"{n} x {_gbps(g)}" for g, n in sorted(speeds.items(), reverse=True))
        yield Finding(
            "ECMP-IMBALANCE", WARNING,
            f"{name} mixes uplink speeds ({shown}): ECMP (and InfiniBand port balancing) spreads "
            "flows evenly per member link, not per Gb/s, so the slower members saturate while the "
            "faster ones idle",
            (state.dev_id(row),),
            Fix(f"give all of {name}'s uplinks one speed, or turn on weighted ECMP in the project "
                "settings when the switches weight next hops by bandwidth (Ethernet only)"))
    values = Counter(p[1] for p in ups)
    if len(values) > 1:
        low = min(values)
        high = max(values)
        lows = sorted((p[0] for p in ups if p[1] == low), key=state.name)
        highs = sorted((p[0] for p in ups if p[1] == high), key=state.name)
        yield Finding(
            "ECMP-IMBALANCE", WARNING,
            f"{name} has {_gbps(high)} to {state.names(highs[:4])} but only {_gbps(low)} to "
            f"{state.names(lows[:4])}: ECMP spreads flows evenly per upper switch, so the thinner "
            "paths congest first",
            (state.dev_id(row), *sorted(state.dev_id(p[0]) for p in ups)),
            Fix(f"give {name} the same bandwidth ({_gbps(high)}) to every upper switch"))


def _weighted_ecmp(state: State) -> bool:
    settings = state.settings
    return settings.weighted_ecmp and settings.technology != FabricTechnology.INFINIBAND


def _uplink_speeds(state: State, row: int) -> Counter[int]:
    """Link count per speed (Gb/s) of the row's fabric links to upper switches."""
    store = state.store
    col = store.l
    rows = store.rows_of_links(state.doc.link_ids_of(state.dev_id(row)))
    rows = rows[col["fabric"][rows]]
    mine = col["a"][rows] == row
    peer = np.where(mine, col["b"][rows], col["a"][rows])
    me = np.where(mine, col["tier_a"][rows], col["tier_b"][rows])
    other = np.where(mine, col["tier_b"][rows], col["tier_a"][rows])
    up = (other > me) & store.d["switch"][peer]
    # round() of each speed, as before: half to even
    return Counter(int(round(g)) for g in col["gbps"][rows][up].tolist())


def _mixed_uplink_speeds(state: State) -> np.ndarray:
    """Rows whose fabric links to upper switches do not all run at one speed: with n links of
    sum s and sum of squares q, the speeds are all equal exactly when n * q == s * s."""
    store = state.store
    col = store.l
    rows = store.link_rows()
    n = store.n_devices
    if not len(rows) or not n:
        return np.zeros(0, dtype=np.int64)
    a, b = col["a"][rows], col["b"][rows]
    ta, tb = col["tier_a"][rows], col["tier_b"][rows]
    is_sw = store.d["switch"]
    up = col["fabric"][rows] & is_sw[a] & is_sw[b] & (ta != tb)
    lower = np.where(ta < tb, a, b)[up]
    g = np.rint(col["gbps"][rows][up]).astype(np.int64)
    count = np.bincount(lower, minlength=n)
    total = np.bincount(lower, weights=g, minlength=n)
    squares = np.bincount(lower, weights=g * g, minlength=n)
    return np.flatnonzero(np.abs(count * squares - total * total) > 0.5)


def _row_keys(n: int) -> np.ndarray:
    """A fixed pseudo-random key in [1, 2**62) per device row (splitmix64 of the row), so that
    a sum of keys names a set of rows (numpy.random, which gave them before, costs ~10 ms of
    every `aicnet` start to import)."""
    with np.errstate(over="ignore"):
        z = np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return (z >> np.uint64(2)).astype(np.int64) | 1


def ecmp_candidates(state: State) -> Iterable[int]:
    """Switches with unequal bandwidth to their uppers, or under an upper switch whose lower
    switches (of one tier) do not all have the same set of uppers (an order-independent hash
    of the set, summed per switch)."""
    store = state.store
    topo = state.topo
    if topo._up is None:
        return []
    up = topo._up  # sorted by (device, neighbour)
    is_sw = store.d["switch"]
    keep = is_sw[up.dev] & is_sw[up.nbr]
    dev, nbr, gbps = up.dev[keep], up.nbr[keep], up.gbps[keep]
    if not len(dev):
        return []
    h = _row_keys(store.n_devices)
    starts = np.flatnonzero(np.r_[True, dev[1:] != dev[:-1]])
    owners = dev[starts]
    set_hash = np.zeros(store.n_devices, dtype=np.int64)
    set_hash[owners] = np.add.reduceat(h[nbr], starts)
    unequal = owners[np.minimum.reduceat(gbps, starts) != np.maximum.reduceat(gbps, starts)]
    # per (upper, lower tier): do the lowers' upper sets differ?
    code = nbr * 8 + store.d["tier"][dev]
    order = np.argsort(code, kind="stable")
    code_s, hash_s = code[order], set_hash[dev][order]
    group = np.flatnonzero(np.r_[True, code_s[1:] != code_s[:-1]])
    mixed_group = np.minimum.reduceat(hash_s, group) != np.maximum.reduceat(hash_s, group)
    sizes = np.diff(np.r_[group, len(code_s)])
    mixed = np.repeat(mixed_group, sizes)
    return sorted(set(unequal.tolist()) | set(arrays.unique(dev[order][mixed]).tolist())
                  | set(_mixed_uplink_speeds(state).tolist()))


# ---------------------------------------------------------------------------- rails
def rail_threshold(counts: Counter) -> float:
    top = max(counts.values())
    return max(2.0, top / 2)


def rail_check(state: State, row: int) -> Iterable[Finding]:
    store = state.store
    if not store.d["switch"][row]:
        return
    nics = state.topo.nics(row)
    counts = Counter(n[1] for n in nics if n[1] > 0)
    if not counts or max(counts.values()) < 2:
        return
    threshold = rail_threshold(counts)
    expected = sorted(r for r, c in counts.items() if c >= threshold)
    leaf = state.name(row)
    for server, rail, _gbps, lrow in nics:
        if rail <= 0 or counts[rail] >= threshold:
            continue
        link_id = state.link_id(lrow)
        yield Finding(
            "RAIL-MISWIRED", WARNING,
            f"{state.name(server)} NIC of rail {rail} ({link_id}) lands on {leaf}, which carries "
            f"rail {', '.join(map(str, expected))}: rail-aligned traffic of this GPU now crosses "
            "the spines",
            (link_id, state.dev_id(server), state.dev_id(row)),
            _rail_fix(state, server, rail))


def _rail_fix(state: State, server: int, rail: int) -> Fix:
    """Text only: which free port to use depends on other leaves, and a finding must depend
    on this leaf's own links (so that an incremental run gives the same result)."""
    return Fix(f"move the cable to a free port of the leaf that carries rail {rail} for "
               f"{state.name(server)}")


def rail_candidates(state: State) -> Iterable[int]:
    nics = state.topo._nics
    if nics is None or not len(nics.sw):
        return []
    known = nics.rail > 0
    sw, rail = nics.sw[known], nics.rail[known]
    code = sw * 1024 + rail
    uniq, counts = arrays.unique(code, return_counts=True)
    sw_u = uniq // 1024
    top = np.zeros(state.store.n_devices, dtype=np.int64)
    np.maximum.at(top, sw_u, counts)
    low = counts < np.maximum(2.0, top[sw_u] / 2)
    return arrays.unique(sw_u[low & (top[sw_u] >= 2)]).tolist()


# ---------------------------------------------------------------------------- NICs, lengths
def nic_check(state: State, row: int) -> Iterable[Finding]:
    store = state.store
    d = store.d
    if not d["server"][row] or d["compute_linked"][row] >= d["compute"][row]:
        return
    dev_id = state.dev_id(row)
    pmap = store.dev_ports[row]
    missing = [p for p, ep in pmap.items() if state.endpoints.rail_of(ep)
               and state.doc.link_at(dev_id, p) is None]
    if int(d["compute_linked"][row]) == 0:
        text = (f"{state.name(row)} has none of its {int(d['compute'][row])} GPU NICs connected: "
                "its GPUs cannot reach the fabric")
    else:
        text = (f"{state.name(row)}: {'NIC port' if len(missing) == 1 else 'NIC ports'} "
                f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not connected, so "
                f"{'its GPU has' if len(missing) == 1 else 'their GPUs have'} no scale-out bandwidth")
    yield Finding("NIC-UNCONNECTED", WARNING, text, (dev_id,),
                  Fix("connect every GPU NIC to its rail leaf"))


def nic_candidates(state: State) -> Iterable[int]:
    store = state.store
    rows = store.device_rows()
    d = store.d
    return rows[d["server"][rows] & (d["compute_linked"][rows] < d["compute"][rows])].tolist()


def unlinked_optic_cages(doc: FabricDocument, device_id: str) -> list[int]:
    """The cages of a device that hold an optic while none of their logical ports has a link
    (not a co-packaged optics port: its engine is built in, never ordered)."""
    device = doc.devices[device_id]
    built_in = doc.device_model(device).optical_engines
    optic_cages = {cage for cage, config in device.cages.items()
                   if config.transceiver and cage not in built_in}
    if not optic_cages:
        return []
    ports = doc.ports(device_id)
    linked = {ports[name].cage for name in doc.linked_ports(device_id) if name in ports}
    return sorted(optic_cages - linked)


def optic_unlinked_check(state: State, row: int) -> Iterable[Finding]:
    dev_id = state.dev_id(row)
    bulk = state.run.get("optic-unlinked")  # a full run: worked out for every device at once
    cages = bulk.get(row, []) if bulk is not None else unlinked_optic_cages(state.doc, dev_id)
    if not cages:
        return
    device = state.doc.devices[dev_id]
    one = len(cages) == 1
    listed = ", ".join(map(str, cages))
    new = {c: cfg for c, cfg in device.cages.items() if c not in cages}
    new.update({c: device.cages[c].model_copy(update={"transceiver": None}) for c in cages
                if device.cages[c].mode is not None})  # a cage keeps its breakout mode
    yield Finding(
        "OPTIC-UNLINKED", INFO,
        f"{state.name(row)}: {'cage' if one else 'cages'} {listed} {'holds an optic' if one else 'hold optics'} "
        f"but no link: the BOM orders {counted(len(cages), 'optic')} that carry nothing",
        (dev_id,),
        Fix(f"take the {'optic' if one else 'optics'} out of {'cage' if one else 'cages'} {listed}, "
            "or connect them", (UpdateDevice(dev_id, {"cages": new}),)))


def optic_unlinked_candidates(state: State) -> Iterable[int]:
    """Devices with optics (a full run): their cages with an optic and no link are found here
    for all of them at once (`unlinked_optic_cages_of_all`)."""
    rows, found = unlinked_optic_cages_of_all(state)
    state.run["optic-unlinked"] = found
    return rows


def unlinked_optic_cages_of_all(state: State) -> tuple[list[int], dict[int, list[int]]]:
    """(the device rows with optics, row -> its cages with an optic and no link, sorted), as
    `unlinked_optic_cages` gives them device by device, for every device at once: (device
    row, cage) codes against the links' ends."""
    store = state.store
    rows = [r for r in store.device_rows().tolist() if store.dev_optics[r]]
    col = store.l
    links = store.link_rows()
    cage = state.endpoints.arrays()["cage"]
    linked = arrays.unique(np.concatenate([col["a"][links] * MAX_CAGE + cage[col["a_ep"][links]],
                                       col["b"][links] * MAX_CAGE + cage[col["b_ep"][links]]]))
    optics = store.dev_optics
    counts = [len(optics[r]) for r in rows]  # type: ignore[arg-type]
    owner = np.repeat(np.array(rows, dtype=np.int64), counts)
    cages = np.fromiter(chain.from_iterable(optics[r] for r in rows), np.int64,  # type: ignore[misc]
                        count=int(sum(counts)))
    alone = ~arrays.isin(owner * MAX_CAGE + cages, linked)
    found: dict[int, list[int]] = {}
    for r, c in zip(owner[alone].tolist(), cages[alone].tolist(), strict=True):
        found.setdefault(r, []).append(c)
    models = store.dev_models
    for r in [r for r in found if models[r] is not None and models[r].optical_engines]:
        built_in = models[r].optical_engines  # type: ignore[union-attr]
        found[r] = [c for c in found[r] if c not in built_in]
    return rows, {r: sorted(c) for r, c in found.items() if c}


def length_unknown_check(state: State, row: int) -> Iterable[Finding]:
    d = state.store.d
    if d["rack"][row] != NONE or d["nolen"][row] == 0:
        return
    device = state.store.dev_obj[row]
    where = "has no RU" if device.rack is not None else "is not placed in a rack"
    n = int(d["nolen"][row])
    yield Finding(
        "LENGTH-UNKNOWN", WARNING,
        f"{state.name(row)} {where}: the length of its {counted(n, 'link')} cannot be estimated, so their "
        "reach is unchecked and the BOM cannot order them",
        (state.dev_id(row),),
        Fix(f"place {state.name(row)} in a rack (Floor view) or type the link lengths in"))


def length_unknown_candidates(state: State) -> Iterable[int]:
    store = state.store
    rows = store.device_rows()
    d = store.d
    return rows[(d["rack"][rows] == NONE) & (d["nolen"][rows] > 0)].tolist()


RULES = [
    Rule("device-technology", "device", tech_check, tech_candidates, ("TECH-MISMATCH",)),
    Rule("device-mtu", "device", mtu_check, mtu_candidates, ("MTU-MISMATCH",)),
    Rule("optic-power", "device", power_check, power_candidates, ("OPTIC-POWER-CLASS",)),
    Rule("cage-usage", "device", cage_check, cage_candidates,
         ("PORT-DUPLICATE", "TWIN-PORT-MIXED-FIBRE")),
    Rule("oversubscription", "device", oversub_check, oversub_candidates, ("OVERSUBSCRIBED",)),
    Rule("ecmp", "device", ecmp_check, ecmp_candidates, ("ECMP-IMBALANCE",), dirty=switch_peers),
    Rule("rails", "device", rail_check, rail_candidates, ("RAIL-MISWIRED",)),
    Rule("nics", "device", nic_check, nic_candidates, ("NIC-UNCONNECTED",)),
    Rule("optic-unlinked", "device", optic_unlinked_check, optic_unlinked_candidates,
         ("OPTIC-UNLINKED",)),
    Rule("length-unknown", "device", length_unknown_check, length_unknown_candidates,
         ("LENGTH-UNKNOWN",)),
]
