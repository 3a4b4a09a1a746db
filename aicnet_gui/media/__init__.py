"""Media: which optics and cables go on a fabric's links, in one package (pure Python, no Qt).

- `facts.py`: what is said of one part: what a cable is made of (copper, MMF, SMF), its label,
  an optic's reach over a fibre grade, the speeds and legs of an optical port.  The analysis
  rules read these; what fits where is `model/fit.py`'s.
- `policy.py`: `MediaParams`, which media classes the choice may use per tier pair, parts it
  must not use, the fibre grade (a generator template carries one).
- `selector.py`: `MediaSelector`, the choice itself: per component (cages joined by links) the
  cheapest orderable media that reaches, as the module's docstring orders them.
- `bulk_choice.py`: `select_bulk`, the same choice for a whole generated fabric at once, one
  decision per kind of component (numpy, scipy: the generators import it by name, so that
  importing the analysis does not load scipy).
- `rechoose.py`: `choose_media(doc, link_ids)`, the entry point for a document's links:
  Edit > Choose Media, the repairs' media fixes, growth plans.

The package sits below the analysis and above the catalog (pyproject.toml's layers): the
analysis, the generators, the repairs, the change plans and the editor may all import it; it
imports only the model (the floor's length arithmetic is `model/floor.py`).
"""

from .facts import COPPER_TYPES, cable_media, media_label, optic_reach_m
from .policy import MEDIA_CLASSES, MediaParams
from .rechoose import MediaResult, assembly_groups, choose_media, describe
from .selector import MediaSelector, Unresolved, fabric_technology, stock_limit

__all__ = [
    "COPPER_TYPES",
    "MEDIA_CLASSES",
    "MediaParams",
    "MediaResult",
    "MediaSelector",
    "Unresolved",
    "assembly_groups",
    "cable_media",
    "choose_media",
    "describe",
    "fabric_technology",
    "media_label",
    "optic_reach_m",
    "stock_limit",
]
