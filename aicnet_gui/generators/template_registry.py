"""The generator templates, in one list: what each is called, its parameters, its planner.

A `GeneratorTemplate` holds:
- `name`: the `template` tag of its parameters and the `aicnet generate NAME` sub-command;
- `title`: what the New-from-template wizard lists it as; `summary`: its line in
  `aicnet generate --help`;
- `params`: its pydantic parameter model (every field's description is the wizard's help for
  it, `generators/template_params.py`);
- `planner`: catalog, parameters -> `FabricPlan` (devices, links, placement groups);
- `resolve`: the parameters with the defaults that depend on the catalog filled in (the SU
  size of a rail-optimized fabric), or None;
- `default_name`: the design's name when the parameters give none;
- `flags`: the options of `aicnet generate NAME` besides the common ones (the CLI takes each
  flag's type and choices from the parameter's own annotation).

The CLI (`cli/commands/generate.py`), the wizard (`gui/dialogs/template_wizard.py`) and
`build.plan` read this list, nothing else; `build.build_design(catalog, params)` builds the
design for a template and its parameters in a new document (for a study that compares several).
Adding a template: a module with its parameter model and planner (as `leaf_spine.py`), and one
`GeneratorTemplate(...)` in `GENERATOR_TEMPLATES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..model.catalog import Catalog
from .errors import GeneratorError
from .leaf_spine import plan_three_tier, plan_two_tier
from .plan import FabricPlan
from .rail_optimized import plan_rail_optimized, with_su_size
from .template_params import RailOptimizedParams, TemplateParams, ThreeTierParams, TwoTierParams


@dataclass(frozen=True)
class Flag:
    """One option of `aicnet generate TEMPLATE`: `--field-name` sets the parameter `field`."""

    field: str
    help: str | None = None
    metavar: str | None = None
    required: bool = False
    ratio: bool = False  # a down:up ratio, `3`, `3:1` or `1.5`

    @property
    def option(self) -> str:
        return "--" + self.field.replace("_", "-")


@dataclass(frozen=True)
class GeneratorTemplate:
    name: str
    title: str
    summary: str
    params: type[Any]
    planner: Callable[[Catalog, Any], FabricPlan]
    default_name: Callable[[Any, str], str]
    resolve: Callable[[Catalog, Any], Any] | None = None
    flags: tuple[Flag, ...] = ()

    def parse(self, values: Mapping[str, Any]) -> TemplateParams:
        """The parameters from plain values (a form, parsed options); raises pydantic's
        `ValidationError` naming each bad field."""
        return self.params.model_validate(values)


def _servers_name(params: Any, server: str) -> str:
    return f"{server} {params.template}, {params.servers} servers"


def _su_name(params: RailOptimizedParams, server: str) -> str:
    return f"{server} rail-optimized, {params.sus} SU x {params.nodes_per_su}"


_OVERSUBSCRIPTION = Flag("oversubscription", "leaf downlink:uplink, e.g. 1 or 3:1 (default 1:1)",
                         "R", ratio=True)
_ATTACH = Flag("attach", "rail: NIC i -> leaf i of a group (default); tor: one leaf per server")

GENERATOR_TEMPLATES: tuple[GeneratorTemplate, ...] = (
    GeneratorTemplate(
        "two-tier", "Two-tier leaf-spine", "leaf-spine for N servers", TwoTierParams,
        plan_two_tier, _servers_name,
        flags=(Flag("servers", metavar="N", required=True), _OVERSUBSCRIPTION, _ATTACH),
    ),
    GeneratorTemplate(
        "rail-optimized", "Rail-optimized scalable units", "DGX SuperPOD-style scalable units",
        RailOptimizedParams, plan_rail_optimized, _su_name, resolve=with_su_size,
        flags=(
            Flag("sus", "scalable units", "N", required=True),
            Flag("nodes_per_su", "servers per SU (default: the server model's reference SU, "
                 "else 32)", "M"),
            Flag("core", "add a core tier of this switch model", "ID"),
            Flag("tiers", "auto (default): a core tier only when two tiers cannot hold the SUs; "
                 "a tier whose every switch joins one switch below is refused (a one-pod core, a "
                 "spine over a rail of one leaf)"),
            Flag("sus_per_pod", "SUs sharing one spine block under the core (default: fewest "
                 "switches)", "N"),
            Flag("sus_per_leaf", "SUs whose rail one leaf carries (default: as many as its "
                 "ports hold at 1:1, so no leaf port stays idle)", "N"),
            Flag("rail_planes", "rail-only fabric (Wang et al., arXiv 2307.12169): each rail "
                 "its own network (one switch where it holds the rail), no spine joining two "
                 "rails; GPUs on different rails then reach each other only through NVLink "
                 "inside a server (default: one fat tree joining all rails, as NVIDIA's "
                 "SuperPOD designs)"),
            Flag("planes", "multi-plane fabric as NVIDIA's B300/GB300 designs: each GPU's NIC "
                 "splits into 2 or 4 ports, port k to plane k, each plane its own fat tree"),
        ),
    ),
    GeneratorTemplate(
        "three-tier", "Three-tier fat tree", "pod-based fat tree with a core tier",
        ThreeTierParams, plan_three_tier, _servers_name,
        flags=(
            Flag("servers", metavar="N", required=True),
            Flag("core", "catalog id of the core switch (default: spine)", "ID"),
            _OVERSUBSCRIPTION,
            _ATTACH,
            Flag("leaves_per_pod", "leaves per pod (default: the size with the fewest switches)",
                 "N"),
        ),
    ),
)

_BY_NAME = {template.name: template for template in GENERATOR_TEMPLATES}
#: template name -> its parameter model (the view of `GENERATOR_TEMPLATES` the parameter
#: forms and the tests read)
TEMPLATES: Mapping[str, type[Any]] = MappingProxyType(
    {template.name: template.params for template in GENERATOR_TEMPLATES})


def template_named(name: str) -> GeneratorTemplate:
    """The template called `name`; a `GeneratorError` listing the templates when none is."""
    template = _BY_NAME.get(name)
    if template is None:
        raise GeneratorError(f"no template {name!r}; the templates are "
                             + ", ".join(_BY_NAME))
    return template
