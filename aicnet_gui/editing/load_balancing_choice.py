"""What the fabric's switches and NICs run of each load-balancing mode (pure, any thread).

The fabric settings dialog lets the architect choose the fabric's load-balancing mode
(`Settings.load_balancing`: static ECMP, flowlet, adaptive routing, spraying) and shows, next to
the choice, what the hardware of this design does with it.  `support(doc)` gathers that from
`analysis/load_balancing.py`, the house of the rule (the LOAD-BALANCING rule and the traffic
model ask it too), for every technology the dialog can set (the NICs' limit depends on it:
per-packet modes need NICs that reorder on Ethernet, not on InfiniBand):

- per switch model in use: the modes its vendor documents (`DeviceModel.load_balancing`; None:
  not stated, taken to hash);
- per GPU server model: whether its NICs place out-of-order packets (`nic_packet_reorder`);
- per technology and mode: the modes the switches really run, and why not the one asked.

It builds the analysis columns of a snapshot (`traffic.model.load_state`: no rule runs), half a
second on a 400-SU design, so the dialog runs it in the background.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..analysis.load_balancing import switch_modes
from ..analysis.state import State
from ..model.document import FabricDocument
from ..model.fabric import FabricTechnology, Settings
from ..model.load_balancing_modes import MODES
from ..traffic.model import load_state


@dataclass(frozen=True)
class SwitchSupport:
    model_id: str
    name: str
    switches: int
    documented: tuple[str, ...] | None  # None: the catalog does not say


@dataclass(frozen=True)
class NicSupport:
    model_id: str
    name: str
    servers: int
    reorders: bool | None  # None: not stated


@dataclass(frozen=True)
class Outcome:
    """The fabric asked for `mode`: what its switches run (most common first), and why not."""

    mode: str
    runs: tuple[str, ...]
    reasons: tuple[str, ...]

    @property
    def as_asked(self) -> bool:
        return self.runs == (self.mode,) and not self.reasons


@dataclass(frozen=True)
class Support:
    switches: tuple[SwitchSupport, ...]
    nics: tuple[NicSupport, ...]
    #: technology value -> mode -> outcome
    outcomes: dict[str, dict[str, Outcome]]

    def outcome(self, technology: str, mode: str) -> Outcome:
        return self.outcomes[technology][mode]


class _AsIf:
    """A state read as if the fabric's settings were `settings` (read-only, nothing copied)."""

    def __init__(self, state: State, settings: Settings) -> None:
        self._state = state
        self.settings = settings

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def support(doc: FabricDocument) -> Support:
    """What the switches and NICs of `doc` (a snapshot) run of each mode (module docstring)."""
    state = load_state(doc)
    store = state.store
    models = state.cindex.models
    n = store.n_devices
    alive, switch, server = store.d["alive"][:n], store.d["switch"][:n], store.d["server"][:n]
    mgmt = store.d["mgmt"][:n]
    model_of = store.d["model"][:n]
    switch_count = Counter(int(m) for m in model_of[alive & switch & ~mgmt].tolist())
    server_count = Counter(int(m) for m in model_of[alive & server].tolist())
    switches = tuple(SwitchSupport(models[m].id, models[m].model, count,
                                   tuple(models[m].load_balancing)
                                   if models[m].load_balancing is not None else None)
                     for m, count in sorted(switch_count.items(), key=lambda i: models[i[0]].id))
    nics = tuple(NicSupport(models[m].id, models[m].model, count, models[m].nic_packet_reorder)
                 for m, count in sorted(server_count.items(), key=lambda i: models[i[0]].id))
    outcomes: dict[str, dict[str, Outcome]] = {}
    for technology in FabricTechnology:
        as_if = _AsIf(state, doc.settings.model_copy(update={"technology": technology}))
        per_mode = {}
        for mode in MODES:
            modes = switch_modes(as_if, mode)  # type: ignore[arg-type]
            per_mode[mode] = Outcome(mode, modes.used,
                                     tuple(s.message for s in modes.shortfalls))
        outcomes[technology.value] = per_mode
    return Support(switches, nics, outcomes)


__all__ = ["NicSupport", "Outcome", "Support", "SwitchSupport", "support"]
