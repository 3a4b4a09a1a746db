"""Which load-balancing mode each switch of the fabric really runs, and why not the one asked.

The fabric asks for one mode (`Settings.load_balancing`, or the traffic model's `--mode`); one
switch runs one mode at a time ("You can configure only one load-balancing mode on a switch at
a time", Cisco Nexus Hyperfabric, Dynamic Load Balancing), so per switch it is the asked mode
when the switch can run it, else the best one it can:

- the switch's catalog model documents the modes it runs (`DeviceModel.load_balancing`); a mode
  it does not list falls back (spray -> adaptive -> flowlet -> static ECMP), a model that lists
  none hashes;
- per-packet modes (adaptive routing, spraying) deliver one flow's packets out of order: on
  Ethernet every compute NIC must place them (`DeviceModel.nic_packet_reorder`: NVIDIA's
  Spectrum-X NICs are ConnectX-8 and BlueField-3 SuperNICs only, Network Operator "Spectrum-X NIC
  Configuration"), else the fabric falls back to flowlets (which "work with standard Ethernet or
  RoCEv2 NICs", Cisco) or static ECMP; on InfiniBand ConnectX-5 and later place out-of-order
  packets (MLNX_OFED, "Out-of-Order (OOO) Data Placement"), and InfiniBand has no spraying
  (its adaptive routing is the per-packet mode: the subnet manager's AR groups).

Adaptive routing on Spectrum switches runs only on routed physical ports, not on bonds, SVIs or
subinterfaces (Cumulus Linux NVUE reference); a design in aicnet has none of those (every
switch-to-switch link is a port of its own), so that restriction cannot be broken by a drawing.
`switch_modes` is what the LOAD-BALANCING rule (rules_load_balancing.py) reports and what the
traffic model (aicnet_gui/traffic) routes by.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.catalog_entities import DeviceModel
from ..model.fabric import FabricTechnology
from ..model.load_balancing_modes import MODES, PER_PACKET
from ..model.wording import counted
from .state import State

#: what a switch runs when it cannot run the mode asked, best first
FALLBACK = {"spray": ("spray", "adaptive", "flowlet", "ecmp"),
            "adaptive": ("adaptive", "flowlet", "ecmp"),
            "flowlet": ("flowlet", "ecmp"), "ecmp": ("ecmp",)}
NAMES = {"ecmp": "static ECMP hashing", "flowlet": "flowlet load balancing",
         "adaptive": "adaptive routing", "spray": "packet spraying"}


@dataclass(frozen=True)
class Shortfall:
    """Switches (or NICs) that cannot run the mode asked: what they run and why."""

    code: str  # "switch-model", "switch-unstated", "nic-reorder"
    runs: str
    message: str
    rows: tuple[int, ...]  # device rows concerned (switches, or the servers whose NICs)


@dataclass(frozen=True)
class SwitchModes:
    """The mode asked, the mode every device row runs (index in MODES, -1 not a fabric switch),
    and the shortfalls."""

    asked: str
    fabric_mode: str  # after the NIC check: the mode the fabric as a whole may run
    per_row: np.ndarray
    shortfalls: tuple[Shortfall, ...]

    @property
    def used(self) -> tuple[str, ...]:
        """The modes the fabric's switches run, most common first."""
        values = self.per_row[self.per_row >= 0]
        if not len(values):
            return (self.fabric_mode,)
        counts = np.bincount(values, minlength=len(MODES))
        return tuple(MODES[i] for i in np.argsort(-counts, kind="stable") if counts[i])


def _fabric_switches(state: State) -> np.ndarray:
    d = state.store.d
    n = state.store.n_devices
    return np.flatnonzero(d["alive"][:n] & d["switch"][:n] & ~d["mgmt"][:n])


def _nic_servers(state: State) -> np.ndarray:
    """Server rows with a compute NIC linked into the fabric."""
    nics = state.store.nic_links()
    return np.unique(nics.server) if len(nics.server) else np.zeros(0, np.int64)


def _names(state: State, rows: list[int], limit: int = 3) -> str:
    shown = ", ".join(state.name(r) for r in rows[:limit])
    return shown + (f" and {len(rows) - limit} more" if len(rows) > limit else "")


def model_runs(model: DeviceModel, fabric_mode: str) -> str:
    """The mode a switch of `model` runs when the fabric may run `fabric_mode`: that mode, or
    the best fallback its catalog entry documents (static ECMP, always)."""
    documented = set(model.load_balancing or ()) | {"ecmp"}
    return next(m for m in FALLBACK[fabric_mode] if m in documented)


def reorders(model: DeviceModel) -> bool:
    """Do the server model's compute NICs place packets that arrive out of order?"""
    return model.nic_packet_reorder is True


def generated_mode(asked: str, technology: FabricTechnology, switch_models: list[DeviceModel],
                   nic_models: list[DeviceModel]) -> str:
    """The mode a generated fabric is set to: the first of `asked` and its fallbacks that every
    switch model runs and the compute NICs allow (per-packet modes on Ethernet need NICs that
    reorder), so that a new design does not ask for what its own hardware cannot run (the
    LOAD-BALANCING warning).  A switch model whose entry states no modes is not held against
    a mode: the rule's note says so, and the vendor's documents may allow it."""
    for mode in FALLBACK[asked]:
        if (mode in PER_PACKET and technology != FabricTechnology.INFINIBAND
                and not all(reorders(m) for m in nic_models)):
            continue
        if all(m.load_balancing is None or model_runs(m, mode) == mode for m in switch_models):
            return mode
    return "ecmp"


def nic_limit(state: State, asked: str) -> tuple[str, Shortfall | None]:
    """The mode the fabric may run given its compute NICs: per-packet modes need NICs that
    reorder on Ethernet."""
    if asked not in PER_PACKET or state.settings.technology == FabricTechnology.INFINIBAND:
        return asked, None
    store = state.store
    servers = _nic_servers(state)
    models = state.cindex.models
    bad = [int(r) for r in servers.tolist() if not reorders(models[int(store.d["model"][r])])]
    if not bad:
        return asked, None
    kinds = sorted({models[int(store.d["model"][r])].id for r in bad})
    runs = "flowlet"
    message = (f"{NAMES[asked]} sends one flow's packets over several paths, but the compute "
               f"NICs of {counted(len(bad), 'server')} ({_names(state, bad)}; "
               f"{', '.join(kinds)}) are not known to place packets that arrive out of order on "
               "Ethernet (NVIDIA's Spectrum-X NICs are ConnectX-8 and BlueField-3 SuperNICs): "
               f"the fabric runs {NAMES[runs]} instead where the switches can")
    return runs, Shortfall("nic-reorder", runs, message, tuple(bad))


def switch_modes(state: State, asked: str | None = None) -> SwitchModes:
    """Per fabric switch, the mode it runs for `asked` (default: the fabric's setting)."""
    asked = asked or state.settings.load_balancing
    fabric_mode, nic = nic_limit(state, asked)
    store = state.store
    n = store.n_devices
    per_row = np.full(n, -1, dtype=np.int64)
    switches = _fabric_switches(state)
    models = state.cindex.models
    by_model: dict[int, list[int]] = {}
    for row in switches.tolist():
        by_model.setdefault(int(store.d["model"][row]), []).append(row)
    shortfalls: list[Shortfall] = [nic] if nic else []
    for model_index, rows in sorted(by_model.items()):
        model = models[model_index]
        documented = set(model.load_balancing or ()) | {"ecmp"}
        runs = model_runs(model, fabric_mode)
        per_row[np.array(rows, dtype=np.int64)] = MODES.index(runs)
        if runs == fabric_mode or fabric_mode == "ecmp":
            continue
        if model.load_balancing is None:
            code = "switch-unstated"
            why = (f"the catalog does not state which load-balancing modes {model.id} runs: "
                   f"{counted(len(rows), 'switch')} ({_names(state, rows)}) taken to run "
                   f"{NAMES[runs]}")
        else:
            code = "switch-model"
            listed = ", ".join(NAMES[m] for m in MODES if m in documented)
            allowed = " (what the NICs allow)" if fabric_mode != asked else ""
            why = (f"{counted(len(rows), 'switch')} ({_names(state, rows)}) are {model.id}, "
                   f"documented for {listed}, not {NAMES[fabric_mode]}{allowed}: they run "
                   f"{NAMES[runs]}")
        shortfalls.append(Shortfall(code, runs, why, tuple(rows)))
    return SwitchModes(asked, fabric_mode, per_row, tuple(shortfalls))
