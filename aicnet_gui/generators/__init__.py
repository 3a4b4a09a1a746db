"""Fabric generators: templates, racks on the floor, cable lengths and automatic media choice.

Pure Python (no Qt).  The public API:
- parameters: `TwoTierParams`, `RailOptimizedParams`, `ThreeTierParams` (pydantic; the GUI
  wizard renders a form from their fields), with `FloorParams` and `MediaParams`;
- `plan(catalog, params)` and `plan_two_tier` / `plan_rail_optimized` / `plan_three_tier`: the
  topology alone; `build_ops(doc, params)`: the model ops and a `GenerationResult`;
  `generate(doc, params)`: applies them in ONE `doc.apply` (one undo step);
  `generated_metadata(catalog, params)`: the name and description it writes;
- (media choice, optics and cables for links, is the `aicnet_gui.media` package: `choose_media`)
  (after racks moved), returning ops;
- `GeneratorError`: impossible parameters, with the reason and what would work.
"""

from .build import build_ops, generate, generated_metadata, plan
from .errors import GeneratorError
from .leaf_spine import plan_three_tier, plan_two_tier
from .params import (
    TEMPLATES,
    FloorParams,
    MediaParams,
    RailOptimizedParams,
    TemplateParams,
    ThreeTierParams,
    TwoTierParams,
)
from .rail_optimized import plan_rail_optimized
from .result import GenerationResult

__all__ = [
    "TEMPLATES",
    "FloorParams",
    "GenerationResult",
    "GeneratorError",
    "MediaParams",
    "RailOptimizedParams",
    "TemplateParams",
    "ThreeTierParams",
    "TwoTierParams",
    "build_ops",
    "generate",
    "generated_metadata",
    "plan",
    "plan_rail_optimized",
    "plan_three_tier",
    "plan_two_tier",
]
