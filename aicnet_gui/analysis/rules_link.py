"""Per-link rules: the compatibility issues of the link's signature, and length vs reach.

- link-compat turns the issue templates of the link's signature (rules_compat.py) into findings
  with this link's names and a machine fix where the template has one;
- link-length: DAC-ACROSS-RACKS (passive copper between racks: an error when the run is longer
  than the cable, a warning otherwise; ACC/AEC go by their reach like any other medium) and REACH-EXCEEDED (longer than the media reach, or than the
  longest stock length of the part).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from ..media.facts import cable_media
from ..model.memo import IdentityMemo
from ..model.wording import fmt_m
from .findings import ERROR, WARNING, Finding, Fix, written_later
from .fixes import set_cable, set_cage_mode, set_cage_optic
from .index import NONE
from .signatures import Issue, SigResult
from .state import Failure, Rule, State


def siblings(state: State, row: int) -> list[str]:
    """The link and the other legs of its assembly that share a device with it (the legs of
    one splitter share its common end; looking no further keeps the result local)."""
    store = state.store
    link_id = state.link_id(row)
    asm = store.assembly[row]
    if asm is None:
        return [link_id]
    found = {link_id}
    for side in ("a", "b"):
        for other in state.doc.link_ids_of(state.dev_id(int(store.l[side][row]))):
            other_row = store.link_row.get(other)
            if other_row is not None and store.assembly[other_row] == asm:
                found.add(other)
    return sorted(found)


def _fix(state: State, row: int, spec: tuple | None, text: str, names: dict[str, str]) -> Fix:
    description = text.format(**names) if text else ""
    if spec is None:
        return Fix(description)
    store = state.store
    kind = spec[0]
    ops = None
    if kind in ("mode", "optic"):
        side = spec[1]
        dev_id = state.dev_id(int(store.l[side][row]))
        ep = int(store.l[side + "_ep"][row])
        cage = state.endpoints.ports[ep].cage
        if kind == "mode":
            ops = set_cage_mode(state.doc, dev_id, cage, spec[2])
        else:
            ops = set_cage_optic(state.doc, dev_id, cage, spec[2])
    elif kind == "cable":
        ops = set_cable(siblings(state, row), spec[1])
    return Fix(description, tuple(ops) if ops else ())


_ALL_NAMES = frozenset({"a", "b", "A", "B", "ca", "cb"})
# a signature's issues -> the names their templates use; the issues tuple lives as long as
# the signature registry, and the memo holds it, so its identity is not reused meanwhile
_FIELDS: IdentityMemo[frozenset[str]] = IdentityMemo(4096)


def _fields(issues: tuple[Issue, ...]) -> frozenset[str]:
    """The names the issues' texts and fix texts use (`{a} - {b}: ...` -> a, b)."""
    found = _FIELDS.get(issues)
    if found is None:
        found = _FIELDS.put(issues, frozenset(
            name.split(".")[0].split("[")[0]
            for issue in issues for text in (issue.text, issue.fix_text) if text
            for _, name, _, _ in string.Formatter().parse(text) if name))
    return found


def _names(state: State, row: int, wanted: frozenset[str] = _ALL_NAMES) -> dict[str, str]:
    """The link's names a template can use; only those in `wanted` are worked out (a fabric
    without cables has 200k CABLE-UNSET findings that name the two ends and nothing else)."""
    store = state.store
    col = store.l
    a, b = int(col["a"][row]), int(col["b"][row])
    return _end_names(wanted, state.endpoints.ports, state.name(a), store.a_port[row],
                      int(col["a_ep"][row]), state.name(b), store.b_port[row], int(col["b_ep"][row]))


def _end_names(wanted: frozenset[str], ports: Any, a_name: str, a_port: str, a_ep: int,
               b_name: str, b_port: str, b_ep: int) -> dict[str, str]:
    """The names of `wanted` from a link's two ends: {A} {B} the devices, {a} {b} device:port,
    {ca} {cb} the cages (`ports`: the endpoints' ports, at the ends' endpoint indices)."""
    names: dict[str, str] = {}
    if "a" in wanted or "A" in wanted:
        names["A"], names["a"] = a_name, f"{a_name}:{a_port}"
    if "b" in wanted or "B" in wanted:
        names["B"], names["b"] = b_name, f"{b_name}:{b_port}"
    if "ca" in wanted:
        names["ca"] = str(ports[a_ep].cage)
    if "cb" in wanted:
        names["cb"] = str(ports[b_ep].cage)
    return names


def _objects(state: State, row: int) -> tuple[str, ...]:
    store = state.store
    return (state.link_id(row), state.dev_id(int(store.l["a"][row])),
            state.dev_id(int(store.l["b"][row])))


def compat_check(state: State, row: int) -> Iterable[Finding | Failure]:
    sig = int(state.store.l["sig"][row])
    result = state.sigs.results[sig]
    for name, error in result.failures:
        yield Failure(name, error)
    if not result.issues:
        return
    names = _names(state, row, _fields(result.issues))
    objects = _objects(state, row)
    for issue in result.issues:
        yield Finding(issue.code, issue.severity, issue.text.format(**names), objects,
                      _fix(state, row, issue.fix, issue.fix_text, names))


#: rows a full run's link-compat reads at once (lists of 2.4M rows were ~0.3 GB more at peak)
COMPAT_CHUNK = 65_536


def compat_all(state: State, rows: list[int]) -> Iterator[tuple[tuple[Finding, ...], tuple[Failure, ...]]]:
    """`compat_check` of every row of `rows` in a full run, in that order: the same findings
    (and failures), the names and ids read for `COMPAT_CHUNK` rows at once (a fabric without
    cables has a CABLE-UNSET finding on each of 2.4M links: numpy scalars and generator steps
    row by row were most of their cost)."""
    dev_names: dict[int, str] = {}
    of_sig: dict[int, _SigPlan] = {}  # per signature: `_sig_plan`
    for start in range(0, len(rows), COMPAT_CHUNK):
        yield from _compat_chunk(state, rows[start:start + COMPAT_CHUNK], dev_names, of_sig)


def _compat_chunk(state: State, rows: list[int], dev_names: dict[int, str],
                  of_sig: dict[int, _SigPlan],
                  ) -> Iterator[tuple[tuple[Finding, ...], tuple[Failure, ...]]]:
    store = state.store
    col = store.l
    picked = np.asarray(rows, dtype=np.int64)
    sigs = col["sig"][picked].tolist()
    a_rows, b_rows = col["a"][picked].tolist(), col["b"][picked].tolist()
    a_eps, b_eps = col["a_ep"][picked].tolist(), col["b_ep"][picked].tolist()
    for device_row in set(a_rows).union(b_rows).difference(dev_names):
        dev_names[device_row] = state.name(device_row)
    dev_ids, link_ids, a_port, b_port = store.dev_ids, store.link_ids, store.a_port, store.b_port
    ports = state.endpoints.ports
    for row, sig, a, b, a_ep, b_ep in zip(rows, sigs, a_rows, b_rows, a_eps, b_eps, strict=True):
        known = of_sig.get(sig)
        if known is None:
            known = of_sig[sig] = _sig_plan(state.sigs.results[sig])
        issues, wanted, failures, shared, cages = known
        if not issues:
            yield (), failures
            continue
        objects = (link_ids[row], dev_ids[a], dev_ids[b])
        if shared:
            # every fix shared: the messages are written when read (`WrittenLater`)
            parts: tuple[Any, ...] = (dev_names[a], a_port[row], dev_names[b], b_port[row])
            if cages:
                parts += (str(ports[a_ep].cage), str(ports[b_ep].cage))
            if len(issues) == 1:  # the usual case (CABLE-UNSET on every link of a design)
                (issue, fix), = issues
                yield (written_later(issue.code, issue.severity, _link_text, (issue.text, *parts),
                                     objects, fix),), failures
                continue
            yield tuple(written_later(issue.code, issue.severity, _link_text,
                                      (issue.text, *parts), objects, fix)
                        for issue, fix in issues), failures
            continue
        names = _end_names(wanted, ports, dev_names[a], a_port[row], a_ep, dev_names[b],
                           b_port[row], b_ep)
        yield tuple(
            Finding(issue.code, issue.severity, issue.text.format_map(names), objects,
                    fix if fix is not None else _fix(state, row, issue.fix, issue.fix_text, names))
            for issue, fix in issues), failures


def _link_text(text: str, a_name: str, a_port: str, b_name: str, b_port: str,
               a_cage: str = "", b_cage: str = "") -> str:
    """A link-compat template written with the names of `_end_names` (all of them: a template
    uses some)."""
    return text.format_map({"A": a_name, "a": f"{a_name}:{a_port}", "B": b_name,
                            "b": f"{b_name}:{b_port}", "ca": a_cage, "cb": b_cage})


_SigPlan = tuple[tuple[tuple[Issue, Fix | None], ...], frozenset[str], tuple[Failure, ...],
                 bool, bool]


def _sig_plan(result: SigResult) -> _SigPlan:
    """A signature's issues, each with the fix every link of it shares (None: made per link),
    the names their texts use, its failures, whether every fix is shared (the messages then
    written when read) and whether the texts name the cages.  A fix in words with no name in
    it is the same for every link (one object: Fix is immutable) and is not formatted each
    time; what is the same for every link of the signature is worked out here, once."""
    issues = tuple((issue, Fix(issue.fix_text) if issue.fix is None and "{" not in issue.fix_text
                    and "}" not in issue.fix_text else None) for issue in result.issues)
    wanted = _fields(result.issues) if result.issues else frozenset()
    return (issues, wanted, tuple(Failure(name, error) for name, error in result.failures),
            all(fix is not None for _issue, fix in issues), "ca" in wanted or "cb" in wanted)


def compat_candidates(state: State) -> Iterable[int]:
    store = state.store
    rows = store.link_rows()
    sig = store.l["sig"][rows]
    return rows[state.sigs.has_issue[sig]].tolist()


def _length_fix(state: State, row: int, length: float) -> Fix:
    """A longer-reaching cable with the same plugs (e.g. an AOC for a cross-rack DAC); a fibre
    cord only for one of the same media (the optics at both ends decide the media: a reach fix
    that changes them is re-chosen and checked by aicnet_gui.repair)."""
    store = state.store
    cable = state.cindex.cables[int(store.l["cable"][row])]
    family = state.sigs.families[int(store.l["sig"][row])]  # the link's own technology
    for other in sorted(state.cindex.cables, key=lambda c: (c.max_length_m, c.id)):
        if (other.id != cable.id and other.a_end == cable.a_end and other.b_end == cable.b_end
                and other.legs == cable.legs and other.leg_gbps == cable.leg_gbps
                and other.max_length_m >= length and other.ordered_length(length) is not None
                and family in other.technology
                and (cable.type != "fibre" or cable_media(other) == cable_media(cable))):
            return Fix(f"use the {other.model} ({other.type}, up to {fmt_m(other.max_length_m)} m)",
                       tuple(set_cable(siblings(state, row), other.id)))
    if cable.type == "fibre":
        return Fix(f"change the optics at both ends and the cord together to media that reach "
                   f"{fmt_m(length)} m (e.g. single-mode optics with an OS2 cord), or move the "
                   "devices closer")
    return Fix("use optics and a fibre cord (or an AOC) for this run, or move the devices closer")


def length_check(state: State, row: int) -> Iterable[Finding]:
    store = state.store
    col = store.l
    cable_i = int(col["cable"][row])
    if cable_i == NONE:
        return
    length = float(col["length"][row])
    if np.isnan(length):
        return
    cable = state.cindex.cables[cable_i]
    reach = float(col["reach"][row])
    same = int(col["same"][row])
    objects = _objects(state, row)
    names = _names(state, row)
    what = f"{names['a']} - {names['b']}"
    source = "typed-in" if col["manual"][row] else "estimated"
    if cable.type == "DAC" and same == 0:  # active copper (ACC/AEC) is judged by its reach
        a_rack = state.doc.racks[state.store.dev_obj[int(col["a"][row])].rack].name
        b_rack = state.doc.racks[state.store.dev_obj[int(col["b"][row])].rack].name
        if length > reach:
            yield Finding(
                "DAC-ACROSS-RACKS", ERROR,
                f"{what}: the {cable.model} {cable.type} reaches at most {fmt_m(reach)} m, but "
                f"the run from rack {a_rack} to rack {b_rack} is {fmt_m(length)} m ({source})",
                objects, _length_fix(state, row, length))
        else:
            yield Finding(
                "DAC-ACROSS-RACKS", WARNING,
                f"{what}: {cable.type} {cable.model} between racks {a_rack} and {b_rack} "
                f"({fmt_m(length)} m {source}); copper is meant to stay inside a rack - check the "
                "route through the tray", objects, _length_fix(state, row, length))
        return
    if not np.isnan(reach) and length > reach:
        yield Finding(
            "REACH-EXCEEDED", ERROR,
            f"{what}: {fmt_m(length)} m ({source}) is longer than the {fmt_m(reach)} m reach of "
            f"{state.sigs.reach_by[int(col['sig'][row])]}", objects,
            _length_fix(state, row, length))
        return
    if np.isnan(col["ordered"][row]):
        yield Finding(
            "REACH-EXCEEDED", ERROR,
            f"{what}: no stock length of the {cable.model} covers {fmt_m(length)} m ({source}); "
            f"its longest is {fmt_m(cable.stock_lengths_m[-1])} m", objects,
            _length_fix(state, row, length))


def length_candidates(state: State) -> Iterable[int]:
    store = state.store
    col = store.l
    rows = store.link_rows()
    length = col["length"][rows]
    cable = col["cable"][rows]
    known = ~np.isnan(length) & (cable != NONE)
    copper_across = col["copper"][rows] & (col["same"][rows] == 0)
    with np.errstate(invalid="ignore"):
        too_long = length > col["reach"][rows]
    no_stock = np.isnan(col["ordered"][rows])
    return rows[known & (copper_across | too_long | no_stock)].tolist()


RULES = [
    Rule("link-compat", "link", compat_check, compat_candidates,
         ("CABLE-UNSET", "SPEED-MISMATCH", "FORM-FACTOR", "MEDIA-MISMATCH", "TECH-MISMATCH",
          "OPTIC-MISSING", "PORT-DUPLICATE"), check_all=compat_all),
    Rule("link-length", "link", length_check, length_candidates,
         ("DAC-ACROSS-RACKS", "REACH-EXCEEDED")),
]
