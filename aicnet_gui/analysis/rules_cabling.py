"""INSERTION-LOSS and PATCH-POLISH: links that run through structured cabling (`Link.patch`).

A link through patch panels and MPO trunks has more mated connectors than a direct cord, and
at 400G/800G the optics' channel budgets are small (1.9 dB for 400GBASE-SR8 on OM4; 3.0 dB for
400GBASE-DR4).  The channel insertion loss is

    loss = mated pairs x loss per pair + fibre length (km) x cabled attenuation (dB/km)

with a pair at most 0.75 dB (TIA-568.3-D, standard-grade connectors) unless the link gives its
panels' low-loss value, and the cabled fibre at most 3.5 dB/km for multimode at 850 nm and
1.0 dB/km for single-mode at 1310 nm (inside-plant cable).  The fibre length is the link's
length (typed-in or estimated; none: the connectors alone).  The budget is the smaller of the
two optics' `channel_loss_db` (IEEE 802.3).  NVIDIA publishes no dB budget for its LinkX
optics; it states their reaches for channels of at most two patch panels, four ferrule
junctions (NVIDIA, "Interconnect cabling requirements NDR/400G", shared/reference/cabling.md
§4.3): a LinkX channel of more mated pairs is a warning, one within them has no finding (its
length is REACH-EXCEEDED's).  For other optics without a budget in the catalog the loss is
reported as a note (INFO) to compare with the vendor's figure.

PATCH-POLISH: an APC (angled) connector mated with a UPC (flat) one leaves an air gap: high
loss and reflections, and the end faces can be damaged.  The panels' polish (`patch.polish`)
must match the polish in the optics' connector (e.g. `MPO-12/APC`).

CHANNEL-POLARITY: the polarity of each segment of the channel (`patch.method`, `trunk`,
`cord_a`, `cord_b`; a cord not given is the link's catalog cord) composed end to end
(model/polarity.py, TIA-568.3-D): each transmitter must land on a receiver, and for parallel
optics on the receiver of its own lane (a broken-out port's legs otherwise reach the wrong far
ports).

All three are link rules on the links that have a patch; they read only the link, its cord and
its two optics, so they run after every edit of the link or of its devices' cages.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..model import polarity
from ..model.catalog_entities import CableAssembly, Transceiver
from ..model.edits import UpdateLink
from ..model.fabric import Link, LinkPatch
from ..model.fit import ports_per_optical_port
from ..model.wording import fmt_m
from . import rules_fec
from .findings import ERROR, INFO, WARNING, Finding, Fix
from .index import NONE
from .state import Rule, State

#: TIA-568.3-D: maximum insertion loss of a standard-grade mated connector pair (dB)
MAX_PAIR_DB = 0.75
#: NVIDIA LinkX reaches assume at most two patch panels: four ferrule junctions (mated pairs)
LINKX_MAX_JUNCTIONS = 4
LINKX_VENDOR = "NVIDIA"
#: maximum cabled fibre attenuation (dB/km): multimode at 850 nm (TIA-568.3, IEEE 802.3
#: clauses 95/138), single-mode inside-plant at 1310 nm (TIA-568.3; OS1a 1.0 dB/km)
FIBRE_DB_PER_KM = {"MMF": 3.5, "SMF": 1.0}


def _polish(connector: str) -> str | None:
    text = connector.upper()
    if "APC" in text:
        return "APC"
    if "UPC" in text:
        return "UPC"
    return None


def _optics(state: State, row: int) -> list[Transceiver]:
    col = state.store.l
    optics = state.cindex.optics
    return [optics[int(col[side][row])] for side in ("a_opt", "b_opt")
            if int(col[side][row]) != NONE]


def channel_loss(patch: LinkPatch, media: str, length_m: float | None) -> tuple[float, float, float]:
    """(total, connectors, fibre) insertion loss of the channel in dB."""
    per_pair = MAX_PAIR_DB if patch.loss_per_pair_db is None else patch.loss_per_pair_db
    connectors = patch.mated_pairs * per_pair
    fibre = 0.0 if length_m is None else length_m / 1000.0 * FIBRE_DB_PER_KM[media]
    return connectors + fibre, connectors, fibre


def cabling_check(state: State, row: int) -> Iterable[Finding]:
    link = state.link(row)
    patch = link.patch
    if patch is None:
        return
    optics = _optics(state, row)
    if not optics:
        return
    store = state.store
    objects = (link.id, state.dev_id(int(store.l["a"][row])), state.dev_id(int(store.l["b"][row])))
    what = f"{state.end_label(row, 'a')} - {state.end_label(row, 'b')}"
    yield from polarity_check(state, row, link, patch, optics, objects, what)
    budgeted = [o for o in optics if o.channel_loss_db is not None]
    tightest = min(budgeted, key=lambda o: o.channel_loss_db or 0.0) if budgeted else optics[0]
    length = float(store.l["length"][row])
    known = not np.isnan(length)
    total, connectors, fibre = channel_loss(patch, tightest.media, length if known else None)
    per_pair = MAX_PAIR_DB if patch.loss_per_pair_db is None else patch.loss_per_pair_db
    fibre_text = (f"{fmt_m(round(length, 1))} m of {tightest.media} at "
                  f"{FIBRE_DB_PER_KM[tightest.media]:g} dB/km = {fibre:.2f} dB"
                  if known else "fibre length unknown (connectors only)")
    if not budgeted and all(o.vendor == LINKX_VENDOR for o in optics):
        if patch.mated_pairs > LINKX_MAX_JUNCTIONS:
            names = ", ".join(sorted({o.model for o in optics}))
            yield Finding(
                "INSERTION-LOSS", WARNING,
                f"{what}: {patch.mated_pairs} mated pairs in the channel; NVIDIA states the "
                f"reach of the {names} for at most two patch panels ({LINKX_MAX_JUNCTIONS} ferrule "
                f"junctions) and publishes no dB budget beyond them: the link may not come up "
                f"(estimated loss {total:.2f} dB: {patch.mated_pairs} x {per_pair:g} dB + "
                f"{fibre_text})", objects,
                Fix(f"route the link through at most two patch panels ({LINKX_MAX_JUNCTIONS} "
                    "mated pairs), e.g. one trunk between a panel in each rack"))
    elif not budgeted:
        yield Finding(
            "INSERTION-LOSS", INFO,
            f"{what}: channel insertion loss {total:.2f} dB ({patch.mated_pairs} mated pair(s) x "
            f"{per_pair:g} dB = {connectors:.2f} dB + {fibre_text}) not checked: the catalog "
            f"has no channel budget for the {', '.join(sorted({o.model for o in optics}))}",
            objects, Fix("compare the loss with the optic vendor's channel insertion loss"))
    else:
        budget = float(tightest.channel_loss_db or 0.0)
        if total > budget + 1e-9:
            yield Finding(
                "INSERTION-LOSS", ERROR,
                f"{what}: channel insertion loss {total:.2f} dB is over the {budget:g} dB budget "
                f"of the {tightest.model} ({tightest.pmd}): {patch.mated_pairs} mated pair(s) x "
                f"{per_pair:g} dB = {connectors:.2f} dB + {fibre_text}", objects,
                Fix("remove patch points (fewer mated pairs), use low-loss connectors and enter "
                    "their per-pair loss, or use optics with a larger budget (e.g. a DR/FR "
                    "single-mode PMD instead of SR)"))
    if patch.polish is not None:
        clash = sorted({o.model for o in optics
                        if (p := _polish(o.connector)) is not None and p != patch.polish})
        if clash:
            yield Finding(
                "PATCH-POLISH", ERROR,
                f"{what}: the patch panels are {patch.polish} but the {', '.join(clash)} "
                f"connector is {'UPC' if patch.polish == 'APC' else 'APC'}: APC and UPC end "
                "faces do not mate (air gap, high loss and reflection, damaged ferrules)",
                objects,
                Fix("use panels and cords with the optics' polish (MPO-16 and single-mode MPO "
                    "optics are usually APC, multimode MPO-12 UPC)"))


def _segment_text(part: str) -> str:
    return f"Type {part}" if part in polarity.ARRAY else part


PART_NAMES = ("the cord at end a", "the trunk", "the cord at end b")
Parts = tuple[polarity.Segment, polarity.Segment, polarity.Segment]


def channel_parts(patch: LinkPatch, kind: polarity.Kind, cable: CableAssembly | None,
                  ) -> tuple[Parts | None, list[str]]:
    """(cord at a, trunk, cord at b) of the channel and the names of the parts nobody gives.
    A cord not given is the link's catalog cord (what the BOM orders), else the method's; the
    trunk not given is the method's type."""
    standard = polarity.METHOD_PARTS.get((kind, patch.method or ""))
    catalog = (polarity.catalog_segment(cable.polarity, kind)
               if cable is not None and cable.type == "fibre" and cable.legs == 1 else None)
    cord_a = patch.cord_a or catalog or (standard[0] if standard else None)
    cord_b = patch.cord_b or catalog or (standard[2] if standard else None)
    trunk = patch.trunk or patch.method
    missing = [name for name, part in zip(PART_NAMES, (cord_a, trunk, cord_b), strict=True)
               if part is None]
    if cord_a is None or trunk is None or cord_b is None:
        return None, missing
    return (cord_a, trunk, cord_b), missing


def _broken_out(state: State, row: int, link: Link, cable: CableAssembly | None,
                optics: list[Transceiver]) -> bool:
    """Does an optical port of the link carry more than one logical port (a breakout)?"""
    if cable is not None and cable.legs > 1:
        return True
    ep = state.endpoints.arrays()
    col = state.store.l
    legs = [int(ep["legs"][int(col[f"{side}_ep"][row])]) for side in ("a", "b")]
    return any(ports_per_optical_port(n, o) > 1 for n, o in zip(legs, optics, strict=False))


def polarity_check(state: State, row: int, link: Link, patch: LinkPatch,
                   optics: list[Transceiver], objects: tuple[str, ...],
                   what: str) -> Iterable[Finding]:
    """CHANNEL-POLARITY of one patched link (see the module docstring)."""
    if len(optics) != 2:
        return
    col = state.store.l
    cable_row = int(col["cable"][row])
    cable = state.cindex.cables[cable_row] if cable_row != NONE else None
    if all(v is None for v in (patch.method, patch.trunk, patch.cord_a, patch.cord_b)):
        return  # the patch says nothing about polarity
    kinds = [polarity.optic_kind(o.connector) for o in optics]
    if kinds[0] is None or kinds[0] != kinds[1]:
        yield Finding(
            "CHANNEL-POLARITY", INFO,
            f"{what}: polarity not judged: the channel joins "
            f"{' and '.join(o.connector for o in optics)} optics (a breakout cassette or "
            "harness), which the polarity model does not cover", objects,
            Fix("check the cassette vendor's polarity diagram"))
        return
    kind, fibres = kinds[0]
    known, missing = channel_parts(patch, kind, cable)
    if known is None:
        yield Finding(
            "CHANNEL-POLARITY", INFO,
            f"{what}: polarity not judged: {', '.join(missing)} not given (no method, no "
            "catalog polarity)", objects,
            Fix("give the TIA-568.3-D method or the polarity of each part in the link's patch"))
        return
    verdict = polarity.judge(kind, fibres, known)
    method = polarity.method_of(kind, known)
    described = (f"cord at a {_segment_text(known[0])}, {_segment_text(known[1])} trunk, cord "
                 f"at b {_segment_text(known[2])}"
                 + (f": TIA-568.3-D Method {method}" if method else
                    (f", not the parts of Method {patch.method}" if patch.method else "")))
    optic_text = "duplex LC" if kind == "duplex" else f"parallel MPO-{fibres}"
    if verdict.problem is None and not verdict.lanes_crossed:
        return
    found = polarity.suggest(kind, fibres, known)
    fix = (Fix(found.text, (UpdateLink(link.id, {"patch": patch.model_copy(
        update={found.field: found.value})}),)) if found else
           Fix("use the parts of one TIA-568.3-D method (parallel: Method A or B)"))
    if verdict.problem is not None:
        yield Finding(
            "CHANNEL-POLARITY", ERROR,
            f"{what}: {verdict.problem} ({optic_text} optics; {described}): the link never "
            "comes up", objects, fix)
        return
    broken_out = _broken_out(state, row, link, cable, optics)
    yield Finding(
        "CHANNEL-POLARITY", ERROR if broken_out else WARNING,
        f"{what}: every transmitter reaches a receiver of another lane ({optic_text} optics; "
        f"{described}): "
        + ("the breakout legs end on the wrong far ports" if broken_out else
           "one port still comes up (its PCS reorders lanes), a breakout of it would not"),
        objects, fix)


def cabling_candidates(state: State) -> Iterable[int]:
    patched = state.doc.links.ids_with("patch")
    if not patched:  # the usual case: no id -> row map built (~17 ms at 100k links)
        return []
    rows = state.store.link_row
    return [rows[i] for i in patched if i in rows]


RULES = [Rule("cabling", "link", cabling_check, cabling_candidates,
              ("INSERTION-LOSS", "PATCH-POLISH", "CHANNEL-POLARITY")),
         # FEC-MISMATCH (rules_fec.py) rides on this module's registration so that engine.py
         # is left to the engine-split branch: move it to engine's rule list when merging
         *rules_fec.RULES]
