"""Cable lengths as the analysis reads them: the manual length on the link, else the estimate
from the floor (`model/floor.py`: rack positions, tray, slack), and the stock length to order.

A manual length on the link wins over the estimate.  The ordered length is the next stock
length in the part's own ladder.  `estimate_route_m` and `link_length` use the floor's
arithmetic, the same as the vectorized estimate of the analysis store.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.document import FabricDocument
from ..model.fabric import Device, Link
from ..model.floor import placement, route_estimate_m


@dataclass(frozen=True, slots=True)
class LinkLength:
    length_m: float | None
    manual: bool
    same_rack: bool | None
    ordered_m: float | None


def estimate_route_m(doc: FabricDocument, a: Device, b: Device) -> tuple[float | None, bool | None]:
    """(estimated length in metres, both ends in one rack) or (None, None) when unplaced."""
    pa, pb = placement(doc, a), placement(doc, b)
    if pa is None or pb is None:
        return None, None
    return route_estimate_m(pa, pb, doc.settings.lengths), pa.rack == pb.rack


def link_length(doc: FabricDocument, link: Link) -> LinkLength:
    """The length of `link` (manual or estimated) and the stock length to order."""
    a, b = doc.devices[link.a.device], doc.devices[link.b.device]
    estimate, same = estimate_route_m(doc, a, b)
    manual = link.length_m is not None
    length = link.length_m if manual else estimate
    ordered = None
    if length is not None and link.cable is not None:
        cable = doc.catalog.cables.get(link.cable)
        if cable is not None:
            ordered = cable.ordered_length(length)
    return LinkLength(length, manual, same, ordered)
