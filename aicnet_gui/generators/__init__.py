"""Fabric generators: templates, racks on the floor, cable lengths, and the media choice run
over a whole planned fabric.

Pure Python (no Qt).  The public API:
- the templates: `GENERATOR_TEMPLATES` (name, title, parameters, planner, CLI flags: one
  `GeneratorTemplate` each, `template_registry.py`), `template_named(name)`, and `TEMPLATES`
  (name -> parameter model);
- parameters: `TwoTierParams`, `RailOptimizedParams`, `ThreeTierParams` (pydantic; the GUI
  wizard renders a form from their fields), with `FloorParams` and `MediaParams`;
- `plan(catalog, params)` and `plan_two_tier` / `plan_rail_optimized` / `plan_three_tier`: the
  topology alone; `build_ops(doc, params)`: the model ops and a `GenerationResult`;
  `generate(doc, params)`: applies them in ONE `doc.apply` (one undo step);
  `build_design(catalog, params)`: a new document holding the design;
  `generated_metadata(catalog, params)`: the name and description it writes;
- `GeneratorError`: impossible parameters, with the reason and what would work.

Re-choosing media for a document's links (after racks moved) is the media package's
`aicnet_gui.media.choose_media`.
"""


from .build import build_design, build_ops, generate, generated_metadata, plan
from .errors import GeneratorError
from .generation_result import GenerationResult
from .leaf_spine import plan_three_tier, plan_two_tier
from .rail_optimized import plan_rail_optimized
from .template_params import (
    FloorParams,
    MediaParams,
    RailOptimizedParams,
    TemplateParams,
    ThreeTierParams,
    TwoTierParams,
)
from .template_registry import GENERATOR_TEMPLATES, TEMPLATES, GeneratorTemplate, template_named

__all__ = [
    "GENERATOR_TEMPLATES",
    "TEMPLATES",
    "FloorParams",
    "GenerationResult",
    "GeneratorError",
    "GeneratorTemplate",
    "MediaParams",
    "RailOptimizedParams",
    "TemplateParams",
    "ThreeTierParams",
    "TwoTierParams",
    "build_design",
    "build_ops",
    "generate",
    "generated_metadata",
    "plan",
    "plan_rail_optimized",
    "plan_three_tier",
    "plan_two_tier",
    "template_named",
]
