"""INSERTION-LOSS and PATCH-POLISH: links that run through structured cabling (`Link.patch`).

A link through patch panels and MPO trunks has more mated connectors than a direct cord, and
at 400G/800G the optics' channel budgets are small (1.9 dB for 400GBASE-SR8 on OM4; 3.0 dB for
400GBASE-DR4).  The channel insertion loss is

    loss = mated pairs x loss per pair + fibre length (km) x cabled attenuation (dB/km)

with a pair at most 0.75 dB (TIA-568.3-D, standard-grade connectors) unless the link gives its
panels' low-loss value, and the cabled fibre at most 3.5 dB/km for multimode at 850 nm and
1.0 dB/km for single-mode at 1310 nm (inside-plant cable).  The fibre length is the link's
length (typed-in or estimated; none: the connectors alone).  The budget is the smaller of the
two optics' `channel_loss_db` (IEEE 802.3); for a link whose optics have no budget in the
catalog the loss is reported as a note (INFO) to compare with the vendor's figure.

PATCH-POLISH: an APC (angled) connector mated with a UPC (flat) one leaves an air gap: high
loss and reflections, and the end faces can be damaged.  The panels' polish (`patch.polish`)
must match the polish in the optics' connector (e.g. `MPO-12/APC`).

Both are link rules on the links that have a patch; they read only the link and its two optics,
so they run after every edit of the link or of its devices' cages.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..model.catalog_entities import Transceiver
from ..model.fabric import LinkPatch
from .findings import ERROR, INFO, Finding, Fix
from .index import NONE
from .media import fmt_m
from .state import Rule, State

#: TIA-568.3-D: maximum insertion loss of a standard-grade mated connector pair (dB)
MAX_PAIR_DB = 0.75
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
    budgeted = [o for o in optics if o.channel_loss_db is not None]
    tightest = min(budgeted, key=lambda o: o.channel_loss_db or 0.0) if budgeted else optics[0]
    length = float(store.l["length"][row])
    known = not np.isnan(length)
    total, connectors, fibre = channel_loss(patch, tightest.media, length if known else None)
    per_pair = MAX_PAIR_DB if patch.loss_per_pair_db is None else patch.loss_per_pair_db
    fibre_text = (f"{fmt_m(round(length, 1))} m of {tightest.media} at "
                  f"{FIBRE_DB_PER_KM[tightest.media]:g} dB/km = {fibre:.2f} dB"
                  if known else "fibre length unknown (connectors only)")
    if not budgeted:
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


def cabling_candidates(state: State) -> Iterable[int]:
    patched = [link.id for link in state.doc.links.values() if link.patch is not None]
    if not patched:  # the usual case: no id -> row map built (~17 ms at 100k links)
        return []
    rows = state.store.link_row
    return [rows[i] for i in patched if i in rows]


RULES = [Rule("cabling", "link", cabling_check, cabling_candidates,
              ("INSERTION-LOSS", "PATCH-POLISH"))]
