"""The other design of the same servers: a rail-only fabric beside its rail-optimized fat tree.

Wang, Ghobadi et al. (arXiv 2307.12169v5) price a rail-only network against the rail-optimized
fat tree of the same GPUs (38-77 % less network cost, 37-75 % less network power).  The design
report does the same for the design at hand: the generator parameters it was made with are read
back from it (`template.infer_params`), the other layout is generated with the same servers,
switches and floor (`generators.build_design`), and both bills of materials are compared: the
switches, optics and cables of the network, its power (devices and optics) and, where the
user's price list or the catalog prices every part, its cost.  Servers are the same in both and
are left out of the network's cost and power.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis import compute_bom
from ..analysis.bom import Bom, Pricer
from ..catalog.prices import PriceList
from ..generators import GeneratorError, build_design
from ..model.catalog_entities import Role
from ..model.document import FabricDocument
from ..model.power import share_watts
from .template import TemplateError, infer_params


@dataclass(frozen=True)
class NetworkCost:
    """One design's network: switches, optics and cables, their power and cost."""

    label: str
    switches: int
    optics: int
    cables: int
    power_w: float | None  # switches and optics; None when a switch model has no figure
    cost: float | None  # switches, optics and cables, spares included; None: a part unpriced
    currency: str


@dataclass(frozen=True)
class Counterpart:
    """This design's network beside the other layout's."""

    this: NetworkCost
    other: NetworkCost

    def saving(self, field: str) -> float | None:
        """The share the rail-only design saves on `field` against the fat tree (0.38 = 38 %
        less); None when either is unknown."""
        rail_only, fat_tree = ((self.this, self.other) if self.this.label == "rail-only"
                               else (self.other, self.this))
        a, b = getattr(rail_only, field), getattr(fat_tree, field)
        if a is None or b is None or not b:
            return None
        return 1 - a / b


def network_cost(doc: FabricDocument, bom: Bom, label: str,
                 prices: PriceList | None = None) -> NetworkCost:
    """The network part of `bom` (everything but the GPU servers and the optics in them)."""
    catalog = doc.catalog
    servers = {d.model for d in doc.devices.values() if doc.role_of(d) == Role.GPU_SERVER}
    switch_models = {m: n for m, n in bom.devices_by_model.items() if m not in servers}
    server_optics: dict[str, int] = {}
    for device in doc.devices.values():
        if device.model in servers:
            for config in device.cages.values():
                if config.transceiver:
                    server_optics[config.transceiver] = server_optics.get(config.transceiver, 0) + 1
    optics = {k: n - server_optics.get(k, 0) for k, n in bom.transceivers.items()}
    optics = {k: n for k, n in optics.items() if n > 0}
    power: float | None = 0.0
    for model, count in switch_models.items():
        watts = share_watts(catalog.device(model))
        power = None if watts is None or power is None else power + watts * count
    if power is not None:
        power += sum(catalog.transceiver(k).power_w * n for k, n in optics.items())
    pricer = Pricer(doc, prices)
    cost: float | None = 0.0
    orders = bom.transceiver_orders()
    parts = ([(pricer.device(m), n) for m, n in switch_models.items()]
             + [(pricer.optic(k), n + orders[k].spares) for k, n in optics.items()]
             + [(pricer.cable(k), line.order) for k, line in bom.cable_orders().items()])
    for price, count in parts:
        cost = None if price is None or cost is None else cost + price * count
    return NetworkCost(label, sum(switch_models.values()), sum(optics.values()),
                       sum(bom.cables.values()), power, cost,
                       prices.currency if prices is not None else "USD")


def counterpart(doc: FabricDocument, prices: PriceList | None = None) -> Counterpart | str:
    """This design's network beside the other layout of the same servers (rail-only beside
    rail-optimized, or the reverse), or why it cannot be built."""
    try:
        params = infer_params(doc)
    except TemplateError as exc:
        return f"the design's generator parameters cannot be read back: {exc}"
    if params.template != "rail-optimized":
        return "only a rail-optimized design (scalable units) has a rail-only counterpart"
    rail_only = bool(params.rail_planes)
    other_params = params.model_copy(update={"rail_planes": not rail_only, "name": None})
    try:
        other, _result = build_design(doc.catalog, other_params)
    except GeneratorError as exc:
        return f"the {'rail-optimized' if rail_only else 'rail-only'} design of these servers " \
               f"cannot be generated: {exc}"
    this_label, other_label = (("rail-only", "rail-optimized") if rail_only
                               else ("rail-optimized", "rail-only"))
    return Counterpart(network_cost(doc, compute_bom(doc, prices), this_label, prices),
                       network_cost(other, compute_bom(other, prices), other_label, prices))
