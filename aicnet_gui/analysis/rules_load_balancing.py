"""LOAD-BALANCING (fabric): the load-balancing mode the fabric asks for is one its switches or
NICs cannot run (load_balancing.py decides per switch): a switch model not documented for it,
a model whose modes the catalog does not state, or, for the per-packet modes on Ethernet,
compute NICs that do not place out-of-order packets.  The finding says what runs instead (the
traffic model routes by that, and says so).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.edits import UpdateSettings
from .delta import Delta
from .findings import INFO, WARNING, Finding, Fix
from .load_balancing import FALLBACK, NAMES, switch_modes
from .state import Rule, State

_FIXES = {
    "switch-model": "use switches documented for {mode} or set the fabric's load balancing to "
                    "what they run",
    "switch-unstated": "check the switch vendor's documentation for {mode} (and add it to the "
                       "catalog entry), or set the fabric's load balancing to what it runs",
    "nic-reorder": "use NICs that reorder (NVIDIA ConnectX-8 or BlueField-3 SuperNIC) or set the "
                   "fabric to flowlet load balancing",
}


def best_mode(state: State) -> str | None:
    """The best load-aware mode (spray, adaptive, flowlet) every fabric switch and NIC runs, or
    None."""
    for mode in FALLBACK["spray"][:-1]:
        modes = switch_modes(state, mode)
        if not modes.shortfalls and modes.fabric_mode == mode:
            return mode
    return None


def load_balancing_check(state: State, _key: None) -> Iterable[Finding]:
    modes = switch_modes(state)
    if not modes.shortfalls:
        return
    asked = NAMES[modes.asked]
    best = best_mode(state)
    for shortfall in modes.shortfalls:
        severity = INFO if shortfall.code == "switch-unstated" else WARNING
        fix_text = _FIXES[shortfall.code].format(mode=asked)
        ops = ()
        if best is not None and best != modes.asked and shortfall.code != "switch-unstated":
            fix_text = f"set the fabric's load balancing to {NAMES[best]}, which every switch runs"
            ops = (UpdateSettings({"load_balancing": best}),)
        yield Finding(
            "LOAD-BALANCING", severity,
            f"the fabric asks for {asked}: {shortfall.message}",
            tuple(state.dev_id(r) for r in shortfall.rows[:50]),
            Fix(fix_text, ops))


def load_balancing_dirty(state: State, delta: Delta) -> list[None]:
    """Check again after an edit of devices (a switch's model, role or name, a server's model)
    or of the servers' NIC links (the topology's version moved: every server-switch link is in
    its NIC table); a cable's length or part changes neither (the check walks every link: ~35
    ms at 1.2M links)."""
    version = state.topo.version
    if delta.devices or delta.typed_rows or state.memo.get(_CHECKED_AT) != version:
        state.memo[_CHECKED_AT] = version
        return [None]
    return []


_CHECKED_AT = "load-balancing-topology"
RULES = [Rule("load-balancing", "fabric", load_balancing_check, None, ("LOAD-BALANCING",),
              dirty=load_balancing_dirty)]
