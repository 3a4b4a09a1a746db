"""The one place a study calls the generators: a combination becomes template parameters, the
parameters a complete design (racks, media, every link), and the generator's sizing answers
the study's questions (the reference SU of a server, the most servers three tiers hold).

Everything else in `study/` goes through here, so when the generators' template registry
replaces the three parameter classes, this module is the one to change.

A combination a template cannot express (several planes in a two-tier layout, an
oversubscribed rail-optimized SU) is refused here with the reason in words; every other
refusal is the generator's own (`GeneratorError`), which `reasons.py` words for a buyer.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..generators import (
    FloorParams,
    GeneratorError,
    RailOptimizedParams,
    TemplateParams,
    ThreeTierParams,
    TwoTierParams,
    generate,
)
from ..generators.build import resolved
from ..generators.leaf_spine import choose_pod_or_explain, plan_leaves
from ..generators.template_hardware import resolve_hardware
from ..model.catalog import Catalog
from ..model.document import FabricDocument
from ..model.fabric import Requirement
from .axes import Combination

#: the most SUs a rail-optimized candidate is cut into (a SuperPOD of 400 SUs is the largest
#: NVIDIA describes; more SUs of fewer servers each are no reference design)
MAX_SUS = 1024


class NotExpressible(ValueError):
    """A combination no template builds (said in words, not a generator refusal)."""


@dataclass(frozen=True)
class Built:
    """A generated candidate: the document and what the generator said about it."""

    doc: FabricDocument
    template: str
    speed_gbps: int  # the port speed the generator ran the fabric at
    notes: tuple[str, ...]


def floor_of(requirement: Requirement) -> FloorParams:
    site = requirement.site
    return FloorParams(rack_power_kw=site.rack_power_kw, rack_height_ru=site.rack_height_ru,
                       racks_per_row=site.racks_per_row)


def _common(combo: Combination, requirement: Requirement, name: str) -> dict[str, object]:
    return {"name": name, "server": requirement.server, "leaf": combo.leaf, "spine": combo.spine,
            "technology": combo.technology or "auto", "speed_gbps": combo.speed_gbps,
            "floor": floor_of(requirement), "workload": "training"}


def _su_split(catalog: Catalog, params: RailOptimizedParams, servers: int) -> tuple[int, int]:
    """(SUs, servers per SU) for `servers`: the server model's reference SU (the generator's
    own default), one SU of every server when they are fewer, or equal smaller SUs (at least
    half the reference) when the count does not fill whole reference SUs;
    Refused when the generator refuses the hardware while finding the reference SU."""
    try:
        reference = resolved(catalog, params).nodes_per_su
    except GeneratorError as exc:  # the hardware itself is refused (e.g. no shared speed)
        raise Refused([(params, exc)]) from exc
    assert reference is not None
    if servers <= reference:  # one SU, smaller than the reference one (as the generator builds)
        return 1, servers
    first = -(-servers // reference)
    for sus in range(first, min(servers, MAX_SUS) + 1):
        if servers % sus == 0 and servers // sus * 2 >= reference:
            return sus, servers // sus
    lower = servers // reference * reference
    options = [n for n in (lower, lower + reference) if n > 0]
    raise NotExpressible(
        f"{servers} servers do not split into equal scalable units of up to {reference} "
        f"(the server's reference SU); {' or '.join(map(str, options))} servers would")


def template_params(catalog: Catalog, combo: Combination, requirement: Requirement,
                    servers: int, name: str) -> list[TemplateParams]:
    """The template parameters of `combo`, in the order to try them (tiers `auto` with the
    two-tier and three-tier templates: two tiers first); NotExpressible when no template
    builds it."""
    common = _common(combo, requirement, name)
    if combo.layout in ("rail", "tor"):
        if combo.planes > 1:
            raise NotExpressible(
                f"{combo.planes} planes are built as rail-optimized scalable units (NVIDIA's "
                f"multi-plane B300 / GB300 designs); the {combo.layout} layout has one plane")
        shared = {**common, "servers": servers, "oversubscription": combo.oversubscription,
                  "attach": combo.layout}
        two = TwoTierParams(**shared)  # type: ignore[arg-type]
        three = ThreeTierParams(**shared, core=combo.spine)  # type: ignore[arg-type]
        return {"2": [two], "3": [three]}.get(combo.tiers, [two, three])
    if combo.oversubscription != 1.0:
        raise NotExpressible(
            f"a rail-optimized scalable unit is 1:1 by design (each leaf has as many ports up "
            f"as down), so {combo.oversubscription:g}:1 is not one; use the rail or tor layout")
    params = RailOptimizedParams(**common, planes=combo.planes,  # type: ignore[arg-type]
                                 rail_planes=combo.layout == "rail-only", tiers=combo.tiers,
                                 core=combo.spine if combo.tiers == "3" else None)
    sus, per_su = _su_split(catalog, params, servers)
    return [params.model_copy(update={"sus": sus, "nodes_per_su": per_su})]


def build(catalog: Catalog, options: list[TemplateParams]) -> Built:
    """The first of `options` the generator builds, as a document (racks placed, media chosen
    for every link); the GeneratorErrors of every option when none builds."""
    errors: list[tuple[TemplateParams, GeneratorError]] = []
    for params in options:
        doc = FabricDocument(catalog)
        try:
            result = generate(doc, params)
        except GeneratorError as exc:
            errors.append((params, exc))
            continue
        return Built(doc, params.template, result.speed_gbps, tuple(result.notes))
    raise Refused(errors)


class Refused(Exception):
    """Every template option was refused by the generator: (params, error) of each."""

    def __init__(self, errors: list[tuple[TemplateParams, GeneratorError]]) -> None:
        super().__init__("; ".join(str(e) for _p, e in errors))
        self.errors = errors


def three_tier_servers(catalog: Catalog, server: str, switch: str, speed: int | None,
                       ratio: float) -> int:
    """The most servers of model `server` a three-tier fat tree of `switch` holds at `ratio`
    with rail attach, as the three-tier planner sizes it (its pod choice, by bisection); 0 when
    the switch cannot carry the server at all (GeneratorError from the hardware check)."""
    hw = resolve_hardware(catalog, server, switch, switch, switch, speed)

    def fits(count: int) -> bool:
        try:
            lp = plan_leaves(hw, count, ratio, "rail")
            choose_pod_or_explain(catalog, hw, lp, None, f"{count} servers", useful=False)
        except GeneratorError:
            return False
        return True

    if not fits(1):
        return 0
    low, high = 1, 2
    while fits(high):
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low


def port_speeds(catalog: Catalog, model_id: str) -> set[int]:
    """The speeds a model's fabric ports run (a server's compute ports), as the generator
    reads its cages and breakout modes; empty for a model the catalog does not have."""
    from ..generators.hardware import server_speeds, switch_speeds

    model = catalog.devices.get(model_id)
    if model is None:
        return set()
    try:
        return server_speeds(model) if model.role.value == "gpu_server" else switch_speeds(model)
    except GeneratorError:
        return set()


def server_gpus(catalog: Catalog, server: str) -> int:
    """GPUs per server of the model (GeneratorError naming the known servers when unknown)."""
    from ..generators.hardware import lookup_model

    return lookup_model(catalog, server, "server").gpus
