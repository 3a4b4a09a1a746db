"""FEC-MISMATCH: the FEC configured on a port against its line and against the far end.

A cage may say which FEC its ports run (`CageConfig.fec`: rs544, rs528, baser, off; None:
the line's default).  On an Ethernet link (IEEE 802.3, model/fec.py):

- a configured FEC the line cannot run is an error: RS(544,514) is mandatory on 50G/100G/200G
  PAM4 lanes (clauses 91, 134, 119), RS(528,514) on 25G NRZ optical lanes (100GBASE-SR4,
  clause 95); a 25G copper cable also allows BASE-R FEC or none, by its class;
- the two ends must run the same FEC, each end's being its configured one or, not configured,
  its line's default; an end on a copper cable that is not configured negotiates (clause 73
  auto-negotiation) and is not compared.

The line of an end is its optic's (per logical port of a broken-out optical port) or its
copper cable's.  InfiniBand links are not judged (their FEC is the InfiniBand PHY's, not IEEE
802.3's).

A link rule on the links of devices with a configured FEC (rare: nothing to do otherwise); it
reads the link, its cable, its two optics and its two devices' cage settings, so it runs after
every edit of the link or of its devices' cages.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import NamedTuple

from ..model.edits import UpdateDevice
from ..model.fabric import FabricTechnology
from ..model.fec import FEC_NAMES, Line, cable_line, fec_problem, optic_line
from ..model.fit import ports_per_optical_port
from ..model.memo import IdentityMemo
from .findings import ERROR, Finding, Fix
from .index import NONE
from .state import Rule, State

#: cage table -> does any cage configure a FEC (tables are shared by many devices)
_HAS_FEC: IdentityMemo[bool] = IdentityMemo(4096)
_FEC = attrgetter("fec")  # every configured value is a non-empty string


class _End(NamedTuple):
    label: str
    device: str
    cage: int
    configured: str | None
    line: Line | None
    copper: bool


def _has_fec(cages: dict) -> bool:
    known = _HAS_FEC.get(cages)
    if known is None:
        known = _HAS_FEC.put(cages, any(map(_FEC, cages.values())))  # a C loop: ~100k cages
    return known


def _ends(state: State, row: int) -> list[_End]:
    doc, col = state.doc, state.store.l
    link = state.link(row)
    cable_row = int(col["cable"][row])
    cable = state.cindex.cables[cable_row] if cable_row != NONE else None
    ends = []
    for side, endpoint in (("a", link.a), ("b", link.b)):
        device = doc.devices[endpoint.device]
        port = doc.port(endpoint.device, endpoint.port)
        if port is None:
            continue
        config = device.cages.get(port.cage)
        optic_row = int(col[f"{side}_opt"][row])
        line = None
        if optic_row != NONE:
            optic = state.cindex.optics[optic_row]
            line = optic_line(optic, ports_per_optical_port(port.legs, optic))
        elif cable is not None:
            line = cable_line(cable)
        ends.append(_End(state.end_label(row, side), device.id, port.cage,
                         config.fec if config is not None else None, line,
                         optic_row == NONE and line is not None))
    return ends


def _set_fec(state: State, end: _End, fec: str) -> UpdateDevice:
    device = state.doc.devices[end.device]
    cages = dict(device.cages)
    cages[end.cage] = cages[end.cage].model_copy(update={"fec": fec})
    return UpdateDevice(end.device, {"cages": cages})


def _configures_fec(state: State, row: int) -> bool:
    """Does a device at either end configure a FEC on any cage (memoized per cage table)?"""
    devices, col = state.doc.devices, state.store.l
    return any(_has_fec(devices[state.dev_id(int(col[side][row]))].cages) for side in ("a", "b"))


def fec_check(state: State, row: int) -> Iterable[Finding]:
    if state.settings.technology == FabricTechnology.INFINIBAND or not _configures_fec(state, row):
        return  # the usual case: neither device configures a FEC
    ends = _ends(state, row)
    if len(ends) != 2 or all(e.configured is None for e in ends):
        return
    store = state.store
    objects = (state.link_id(row), state.dev_id(int(store.l["a"][row])),
               state.dev_id(int(store.l["b"][row])))
    wrong = False
    for end in ends:
        if end.configured is None or end.line is None:
            continue
        problem = fec_problem(end.configured, end.line)
        if problem:
            wrong = True
            right = end.line.fec[0]
            yield Finding(
                "FEC-MISMATCH", ERROR,
                f"{end.label} (cage {end.cage}): {problem}: the link does not come up", objects,
                Fix(f"configure {FEC_NAMES[right]} on {end.label}'s cage",
                    (_set_fec(state, end, right),)))
    if wrong:
        return
    effective = [e.configured or (e.line.fec[0] if e.line and not e.copper else None)
                 for e in ends]
    if None in effective or effective[0] == effective[1]:
        return
    a, b = ends
    text = [f"{e.label} runs {FEC_NAMES[f]}" + ("" if e.configured else " (its line's default)")
            for e, f in zip(ends, effective, strict=True)]
    # set the configured end (b first) to the other end's FEC
    target, other, value = (b, a, effective[0]) if b.configured else (a, b, effective[1])
    assert value is not None
    yield Finding(
        "FEC-MISMATCH", ERROR,
        f"{text[0]}, {text[1]}: both ends of a link must run the same FEC, the link does not "
        "come up", objects,
        Fix(f"configure {FEC_NAMES[value]} on {target.label}'s cage, as on {other.label}",
            (_set_fec(state, target, value),)))


def fec_candidates(state: State) -> Iterable[int]:
    if state.settings.technology == FabricTechnology.INFINIBAND:
        return []
    doc = state.doc
    configured = [d.id for d in doc.devices.values() if d.cages and _has_fec(d.cages)]
    if not configured:
        return []
    rows = state.store.link_row
    ids = sorted({link_id for d in configured for link_id in doc.link_ids_of(d)})
    return [rows[i] for i in ids if i in rows]


RULES = [Rule("fec", "link", fec_check, fec_candidates, ("FEC-MISMATCH",))]
