"""Fabric-wide rules (project settings and whole-fabric sums) and the per-workload rule.

ROCE-NO-PFC-ECN, MTU-MISMATCH (the MTU the technology allows), LEAF-NO-UPLINK, PORTS-EXHAUSTED
(one summary of the switches without a free fabric port), FABRIC-PARTITIONED (GPUs of a
workload on switch islands that no path joins), OVERSUBSCRIBED (the worst leaf-to-top path vs
the strictest workload target) and WORKLOAD-BANDWIDTH.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

import numpy as np

from ..model.edits import UpdateSettings
from ..model.fabric import FabricTechnology
from ..model.wording import counted
from .fabric_paths import Island, islands, joined_through_servers, worst_path
from .findings import ERROR, INFO, WARNING, Finding, Fix
from .plane_paths import declared_planes
from .rules_device import ratio_text
from .state import Rule, State

IB_MTUS = (256, 512, 1024, 2048, 4096)
ROCE_MIN_MTU = 4200  # 4096-byte RoCE payload + RoCEv2/UDP/IP/Ethernet headers, with margin


def roce_check(state: State, _key: None) -> Iterable[Finding]:
    settings = state.settings
    if settings.technology != FabricTechnology.ROCEV2 or (settings.pfc and settings.ecn):
        return
    missing = [name for name, on in (("PFC", settings.pfc), ("ECN", settings.ecn)) if not on]
    fix = Fix("turn on PFC (lossless class for RDMA) and ECN (DCQCN congestion control)",
              (UpdateSettings({"pfc": True, "ecn": True, "dcb": True}),))
    if len(missing) == 2:
        yield Finding(
            "ROCE-NO-PFC-ECN", ERROR,
            "RoCEv2 fabric without PFC and ECN: RDMA traffic is dropped under congestion and "
            "collectives stall on retransmits", (), fix)
    else:
        yield Finding(
            "ROCE-NO-PFC-ECN", WARNING,
            f"RoCEv2 fabric without {missing[0]}: "
            + ("congestion relies on drops and retransmits" if missing[0] == "PFC"
               else "PFC alone causes pause storms and head-of-line blocking without ECN"),
            (), fix)


def mtu_check(state: State, _key: None) -> Iterable[Finding]:
    settings = state.settings
    mtu = settings.mtu
    if settings.technology == FabricTechnology.INFINIBAND and mtu not in IB_MTUS:
        yield Finding(
            "MTU-MISMATCH", ERROR,
            f"InfiniBand MTU {mtu} is not one of {', '.join(map(str, IB_MTUS))}: the subnet "
            "manager cannot set it", (), Fix("use MTU 4096", (UpdateSettings({"mtu": 4096}),)))
    elif settings.technology == FabricTechnology.ROCEV2 and mtu < ROCE_MIN_MTU:
        yield Finding(
            "MTU-MISMATCH", WARNING,
            f"RoCEv2 with an Ethernet MTU of {mtu}: a 4096-byte RDMA path MTU needs at least "
            f"{ROCE_MIN_MTU}, so RDMA falls back to smaller messages",
            (), Fix("use MTU 9000 on the fabric", (UpdateSettings({"mtu": 9000}),)))


def leaf_uplink_check(state: State, _key: None) -> Iterable[Finding]:
    store = state.store
    n = store.n_devices
    d = store.d
    tier = d["tier"][:n]
    switch = d["alive"][:n] & d["switch"][:n]  # masks over every row: no gather per column
    higher = bool((switch & (tier >= 2)).any())
    leaves = switch & (tier == 1)
    lonely = np.flatnonzero(leaves & (d["down"][:n] > 0) & (d["up"][:n] == 0))
    if not len(lonely):
        return
    if higher:
        for row in sorted(lonely.tolist(), key=state.dev_id):
            yield Finding(
                "LEAF-NO-UPLINK", ERROR,
                f"{state.name(row)} has {int(d['down'][row])} Gb/s of downlinks but no uplink to "
                "a spine: its servers cannot reach the rest of the fabric",
                (state.dev_id(row),), Fix(f"connect {state.name(row)} to the spines"))
    elif int(leaves.sum()) > 1 and not state.settings.rail_planes:
        # rail planes: a rail on one switch is an island by design (FABRIC-PARTITIONED says so)
        for row in sorted(lonely.tolist(), key=state.dev_id):
            if d["peer"][row] > 0:
                continue
            yield Finding(
                "LEAF-NO-UPLINK", WARNING,
                f"{state.name(row)} has servers but no uplink and no peer link, and the fabric "
                "has other leaves but no spine: its servers form an island",
                (state.dev_id(row),), Fix("add spine switches and connect every leaf to them"))


def ports_check(state: State, _key: None) -> Iterable[Finding]:
    store = state.store
    n = store.n_devices
    d = store.d
    full = (d["alive"][:n] & d["switch"][:n] & (d["fabric_legs"][:n] > 0)
            & (d["fabric_legs"][:n] <= d["fabric_used"][:n]))
    # a row keeps its id until the next full run (which starts a new state); the memo keeps
    # the ids of its rows itself (a removed device's row is dead) and the sorted id list
    memo = state.memo.get("ports")
    if memo is None:
        row_ids = {r: state.dev_id(r) for r in np.flatnonzero(full).tolist()}
        ids = tuple(sorted(row_ids.values()))
    else:
        old, ids, row_ids = memo
        m = len(old)
        moved = np.flatnonzero(old != full[:m]).tolist() + (np.flatnonzero(full[m:]) + m).tolist()
        if moved:
            row_ids = dict(row_ids)
            kept = list(ids)
            for r in moved:
                if full[r]:
                    row_ids[r] = state.dev_id(r)
                    bisect.insort(kept, row_ids[r])
                else:
                    kept.remove(row_ids.pop(r))
            ids = tuple(kept)
    state.memo["ports"] = (full, ids, row_ids)
    if not ids:
        return
    names = [state.doc.devices[i].name for i in ids[:5]]
    yield Finding(
        "PORTS-EXHAUSTED", INFO,
        f"{counted(len(ids), 'switch')} {'has' if len(ids) == 1 else 'have'} no free fabric port ({', '.join(names)}"
        f"{' ...' if len(ids) > 5 else ''}): growth needs new switches or other breakout modes",
        ids, Fix("plan growth: spare spine ports or an extra tier"))


def tier_ratios(state: State) -> dict[int, tuple[int, int]]:
    """tier -> (down Gb/s, up Gb/s) summed over the switches of the tier that have uplinks
    (computed once per run)."""
    cached = state.run.get("tier_ratios")
    if cached is not None:
        return cached
    store = state.store
    n = store.n_devices
    d = store.d
    sw = d["alive"][:n] & d["switch"][:n] & (d["up"][:n] > 0)
    tiers = d["tier"][:n][sw]
    # whole Gb/s per tier: float sums of integers stay exact far beyond any fabric
    count = np.bincount(tiers)
    down = np.bincount(tiers, weights=d["down"][:n][sw])
    up = np.bincount(tiers, weights=d["up"][:n][sw])
    result = {t: (int(down[t]), int(up[t])) for t in np.flatnonzero(count).tolist()}
    state.run["tier_ratios"] = result
    return result


def _rails_text(rails: tuple[int, ...]) -> str:
    named = [r for r in rails if r > 0]
    if not named:
        return "untagged NICs"
    if len(named) == 1:
        return f"rail {named[0]}"
    if named == list(range(named[0], named[-1] + 1)):
        return f"rails {named[0]}-{named[-1]}"
    return "rails " + ", ".join(map(str, named))


def _island_text(state: State, number: int, island: Island) -> str:
    shown = [state.name(r) for r in island.switches[:3]]
    more = f" and {len(island.switches) - 3} more" if len(island.switches) > 3 else ""
    return (f"island {number} ({', '.join(shown)}{more}): {_rails_text(island.rails)} of "
            f"{counted(island.servers, 'server')}")


def partition_check(state: State, _key: None) -> Iterable[Finding]:
    """GPUs of one workload (or of the fabric, without workloads) that the switches do not join."""
    store = state.store
    n = store.n_devices
    servers = store.d["alive"][:n] & store.d["server"][:n]
    groups: list[tuple[str | None, str, np.ndarray]] = []
    if state.doc.workloads:
        for wl_id in sorted(state.doc.workloads):
            model = state.wl_models.get(wl_id)  # its member mask (bandwidth.py)
            if model is None:
                continue
            members = model.members[:n]
            if len(members) < n:
                members = np.concatenate([members, np.zeros(n - len(members), dtype=bool)])
            groups.append((wl_id, f"workload {state.doc.workloads[wl_id].name}",
                           members & servers))
    else:
        groups.append((None, "the fabric", servers))
    planes = state.settings.rail_planes
    for wl_id, label, members in groups:
        found = islands(state, members)
        if len(found) < 2:
            continue
        texts = "; ".join(_island_text(state, i + 1, isl) for i, isl in enumerate(found[:4]))
        if len(found) > 4:
            texts += f"; {len(found) - 4} more"
        objects = ((wl_id,) if wl_id else ()) + tuple(
            state.dev_id(isl.switches[0]) for isl in found)
        joined = joined_through_servers(state, members)
        if joined and declared_planes(state, found):
            yield Finding(
                "FABRIC-PARTITIONED", INFO,
                f"{label} spans {len(found)} compute planes, independent by design (each switch "
                f"carries its plane): {texts}. Every GPU reaches every plane through its own NIC "
                "ports; a failure in one plane costs that plane's share of the bandwidth",
                objects, Fix("nothing to do: a multi-plane fabric keeps its planes apart"))
            continue
        if planes and joined:
            yield Finding(
                "FABRIC-PARTITIONED", INFO,
                f"{label} spans {len(found)} rail planes, separate by design (settings: rail "
                f"planes): {texts}. GPUs on different planes exchange data only through NVLink "
                "inside a server (NCCL PXN); traffic between rails never crosses the switches",
                objects, Fix("nothing to do if rail-only is intended; otherwise link every leaf "
                             "to every spine and turn rail planes off in Fabric Settings"))
            continue
        consequence = (
            "and no server joins them either" if planes else
            "GPUs on different islands cannot reach each other through the fabric")
        yield Finding(
            "FABRIC-PARTITIONED", ERROR,
            f"{label} is split over {len(found)} switch islands that no link joins: {texts}; "
            f"{consequence}",
            objects, Fix("link every leaf to every spine of its group (and every spine to its "
                         "core group); if separate rails are intended, mark the fabric as rail "
                         "planes in Edit > Fabric Settings"))


def effective_check(state: State, _key: None) -> Iterable[Finding]:
    path = worst_path(state)
    if path is None:
        return
    effective = path.ratio
    targets = state.settings.oversubscription
    workloads = sorted(state.doc.workloads.values(), key=lambda w: (targets.for_kind(w.kind), w.id))
    if workloads:
        target, label = targets.for_kind(workloads[0].kind), f"{workloads[0].kind.value} target"
    else:
        target, label = targets.training, "training default"
    if effective <= target + 1e-9:
        return
    hops = " -> ".join(
        f"{state.name(r)} {ratio_text(path.ratios[i]) if i < len(path.ratios) else '(top)'}"
        for i, r in enumerate(path.rows))
    culprit = max(zip(path.rows, path.ratios, strict=False), key=lambda rx: rx[1])[0]
    ratios = tier_ratios(state)
    average = " x ".join(f"{state.tier_name(t)} {ratio_text(d / u)}" for t, (d, u) in ratios.items())
    yield Finding(
        "OVERSUBSCRIBED", WARNING,
        f"traffic that leaves {state.name(path.rows[0])} for the top tier (all-to-all, or any "
        f"traffic between leaves) sees {ratio_text(effective)} oversubscription on the worst "
        f"path ({hops}), above the {ratio_text(target)} {label}; tier averages: {average}",
        tuple(state.dev_id(r) for r in path.rows)
        + tuple(w.id for w in workloads if effective > targets.for_kind(w.kind) + 1e-9),
        Fix(f"add uplinks to {state.name(culprit)} (the highest ratio on that path), or move "
            "traffic off it"))


def workload_check(state: State, workload_id: str) -> Iterable[Finding]:
    view = state.workloads.get(workload_id)
    workload = state.doc.workloads.get(workload_id)
    if view is None or workload is None or view.metrics is None:
        return
    m = view.metrics
    if m.target_gbps_per_gpu is None or m.gpus == 0:
        return
    if m.per_gpu_gbps + 1e-6 >= m.target_gbps_per_gpu:
        return
    if m.bottleneck_tier == "partitioned":
        where = "its GPUs sit on switch islands with no path between them (FABRIC-PARTITIONED)"
        objects = (workload_id,)
    elif m.bottleneck_name:
        where = f"the bottleneck is the {m.bottleneck_tier} tier at {m.bottleneck_name}"
        objects = (workload_id, m.bottleneck_switch)
    else:
        where = "the GPUs' NICs inject less than that"
        objects = (workload_id,)
    yield Finding(
        "WORKLOAD-BANDWIDTH", WARNING,
        f"workload {m.name}: each GPU gets {m.per_gpu_gbps:g} Gb/s under {m.pattern}, below its "
        f"{m.target_gbps_per_gpu:g} Gb/s target; {where}",
        objects, Fix("add uplinks at the bottleneck tier or connect more NIC bandwidth"))


def workload_candidates(state: State) -> Iterable[str]:
    return sorted(state.doc.workloads)


RULES = [
    Rule("roce", "fabric", roce_check, None, ("ROCE-NO-PFC-ECN",)),
    Rule("fabric-mtu", "fabric", mtu_check, None, ("MTU-MISMATCH",)),
    Rule("leaf-uplinks", "fabric", leaf_uplink_check, None, ("LEAF-NO-UPLINK",)),
    Rule("ports", "fabric", ports_check, None, ("PORTS-EXHAUSTED",)),
    Rule("partition", "fabric", partition_check, None, ("FABRIC-PARTITIONED",)),
    Rule("effective-oversubscription", "fabric", effective_check, None, ("OVERSUBSCRIBED",)),
    Rule("workload-bandwidth", "workload", workload_check, workload_candidates,
         ("WORKLOAD-BANDWIDTH",)),
]

