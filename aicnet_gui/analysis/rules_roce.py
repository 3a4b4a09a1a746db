"""RoCEv2 transport beyond PFC/ECN on or off.

- ROCE-QOS (fabric): the lossless priority and the congestion notification packets (CNP) are
  set apart: CNPs need their own DSCP and a priority other than the lossless one (NVIDIA's RoCE
  defaults: RoCE on switch priority 3 with PFC, CNP on priority 6 with strict priority);
- PFC-HEADROOM (link): a link longer than the cable length the switches' PFC headroom is sized
  for keeps receiving after it sends a pause; the frames in flight overflow the headroom and are
  dropped in the lossless class;
- ECMP-POLICY (fabric): training on Ethernet / RoCEv2 with plain per-flow hashing
  (`settings.load_balancing` ecmp): a few elephant flows per link collide, so the fabric needs
  adaptive routing, flowlets or packet spraying (the fix sets the best one the switches and
  NICs run, rules_load_balancing.best_mode).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..model.edits import UpdateSettings
from ..model.fabric import FabricTechnology, WorkloadKind
from ..model.wording import fmt_m
from .findings import ERROR, WARNING, Finding, Fix
from .load_balancing import NAMES
from .rules_load_balancing import best_mode
from .state import Rule, State

FIBRE_M_PER_S = 2.0e8  # light in glass and signals in twinax: about 5 ns per metre


def _lossless(state: State) -> bool:
    settings = state.settings
    return settings.technology == FabricTechnology.ROCEV2 and settings.pfc


def roce_qos_check(state: State, _key: None) -> Iterable[Finding]:
    if state.settings.technology != FabricTechnology.ROCEV2:
        return
    s = state.settings
    if s.ecn and s.cnp_dscp == s.roce_dscp:
        yield Finding(
            "ROCE-QOS", ERROR,
            f"CNPs and RoCE data share DSCP {s.roce_dscp}: the switches queue the congestion "
            "notifications behind the very data they should slow down, so DCQCN reacts late",
            (), Fix("give CNPs their own DSCP (48, NVIDIA's default)",
                    (UpdateSettings({"cnp_dscp": 48 if s.roce_dscp != 48 else 46}),)))
    if s.pfc and s.ecn and s.cnp_priority == s.pfc_priority:
        yield Finding(
            "ROCE-QOS", ERROR,
            f"CNPs ride the lossless priority {s.pfc_priority}: a paused class also pauses the "
            "notifications that would end the congestion",
            (), Fix("put CNPs on priority 6 with strict scheduling (NVIDIA's default)",
                    (UpdateSettings({"cnp_priority": 6 if s.pfc_priority != 6 else 5}),)))
    if s.pfc and s.pfc_priority == 0:
        yield Finding(
            "ROCE-QOS", WARNING,
            "PFC on priority 0, the class of untagged and best-effort traffic: every pause stops "
            "all other traffic too", (),
            Fix("run RoCE on priority 3 (NVIDIA's default) and keep 0 lossy",
                (UpdateSettings({"pfc_priority": 3}),)))


def headroom_kb(length_m: float, gbps: float, mtu: int) -> float:
    """PFC headroom one lossless priority needs on a link: what is still sent during a pause's
    round trip over the cable (2 x length / signal speed x rate), plus a frame being sent at
    each end when the pause is issued and when it arrives (2 x MTU)."""
    return (2 * length_m / FIBRE_M_PER_S * gbps * 1e9 / 8 + 2 * mtu) / 1000


def headroom_check(state: State, row: int) -> Iterable[Finding]:
    if not _lossless(state):
        return
    col = state.store.l
    length = float(col["length"][row])
    limit = state.settings.pfc_cable_length_m
    if not col["fabric"][row] or np.isnan(length) or length <= limit + 1e-9:
        return
    gbps = float(col["gbps"][row])
    mtu = state.settings.mtu
    need, sized = headroom_kb(length, gbps, mtu), headroom_kb(limit, gbps, mtu)
    a, b = state.end_label(row, "a"), state.end_label(row, "b")
    yield Finding(
        "PFC-HEADROOM", WARNING,
        f"{a} - {b}: {fmt_m(length)} m at {gbps:g} Gb/s needs about {need:.0f} kB of PFC headroom "
        f"per lossless priority, but the switches are sized for {fmt_m(limit)} m ({sized:.0f} kB): "
        "frames sent while the pause travels overflow it and the lossless class drops them",
        (state.link_id(row),),
        Fix(f"size the PFC headroom of these ports for {fmt_m(length)} m (switch cable-length "
            "setting) and set the project's PFC cable length to match, or shorten the run"))


def headroom_candidates(state: State) -> Iterable[int]:
    if not _lossless(state):
        return []
    store = state.store
    rows = store.link_rows()
    length = store.l["length"][rows]
    with np.errstate(invalid="ignore"):
        long = store.l["fabric"][rows] & (length > state.settings.pfc_cable_length_m + 1e-9)
    return rows[long].tolist()


def ecmp_policy_check(state: State, _key: None) -> Iterable[Finding]:
    settings = state.settings
    if settings.technology == FabricTechnology.INFINIBAND:
        return
    if settings.load_balancing != "ecmp":
        return
    training = sorted(w.name for w in state.doc.workloads.values() if w.kind == WorkloadKind.TRAINING)
    if not training:
        return
    shown = ", ".join(training[:3]) + (" ..." if len(training) > 3 else "")
    yield Finding(
        "ECMP-POLICY", WARNING,
        f"training ({shown}) on {settings.technology.value} with static ECMP hashing: "
        "collectives send a few long, fat flows, and a per-flow hash puts several on one link "
        "while others idle (a ring runs at its slowest link; `aicnet traffic` shows how much); "
        "training fabrics use adaptive routing, flowlets or packet spraying",
        (), _policy_fix(state))


def _policy_fix(state: State) -> Fix:
    mode = best_mode(state)
    if mode is None:
        return Fix("use switches and NICs that run adaptive routing (e.g. Spectrum-X with "
                   "SuperNICs) or flowlet load balancing")
    return Fix(f"use {NAMES[mode]}, which every switch and NIC of the fabric runs",
               (UpdateSettings({"load_balancing": mode,
                                "ecmp_policy": NAMES[mode]}),))


RULES = [
    Rule("roce-qos", "fabric", roce_qos_check, None, ("ROCE-QOS",)),
    Rule("pfc-headroom", "link", headroom_check, headroom_candidates, ("PFC-HEADROOM",)),
    Rule("ecmp-policy", "fabric", ecmp_policy_check, None, ("ECMP-POLICY",)),
]
