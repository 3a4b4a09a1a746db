"""Change over a design's life, without Qt: what changed between two revisions (diff), what a
failure would do (what-if) and how a fabric grows or migrates (growth).

This package sits between `report` (which draws its work orders and resilience tables) and
`generators` in the import-linter layers: it reads documents, runs the analysis on copies and
never changes a document it is given.
"""

from .bomdelta import BomDelta, BomLineDelta, bom_delta
from .diff import FabricDiff, diff_documents, match_devices, match_links

__all__ = [
    "BomDelta",
    "BomLineDelta",
    "FabricDiff",
    "bom_delta",
    "diff_documents",
    "match_devices",
    "match_links",
]
