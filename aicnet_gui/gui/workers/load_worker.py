"""Open a fabric file off the GUI thread: read it, lay it out if its positions are unusable,
compute what the Topology scene draws (as columns, with the overview's blocks and bundles),
count it, and take the snapshot the first validation reads, so the GUI thread only hands the
columns to the canvas's batched layers.  The document's device -> port -> link index (~80 ms at
300k links) is not built here: nothing before the first frame needs it, so the scene builds it right
after that frame, before the device items (`TopologyScene._build_slice`).  Nor, from
`DEFERRED_CABLES_FROM` cables, are the cables' ids, colours, rails and planes read: the first
frame draws the overview, and they follow it (scene_data.py `complete_cables`).

Everything here runs on a document no one else holds yet, so it needs no snapshot.  (Taking the
first validation's snapshot here rather than in the GUI thread costs ~15 ms before the first
frame but no GUI-thread freeze, and reuses memory this thread just freed: ~25 MB less peak RSS
at 100k cables.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from ...editing.counts import prime_counts
from ...editing.layout import lay_out_if_unusable
from ...fileio import load_fabric
from ...gc_control import gc_paused
from ...model.catalog import Catalog
from ...model.document import FabricDocument
from ..canvas.overview_layer import OVERVIEW_MIN_DEVICES
from ..canvas.scene_data import DEFERRED_CABLES_FROM, TopologyData, prepare_overview, topology_data


@dataclass
class LoadedFabric:
    path: Path
    fabric: FabricDocument
    scene: TopologyData
    laid_out: bool
    load_ms: float
    prepare_ms: float
    snapshot: FabricDocument | None = None


def load_for_editor(path: str | Path, catalog: Catalog) -> LoadedFabric:
    """Read `path` (raises FabricFileError) and prepare it for the editor."""
    path = Path(path)
    start = time.perf_counter()
    fabric = load_fabric(path, catalog, parallel=True)  # a big file's links read on two cores
    loaded = time.perf_counter()
    with gc_paused():
        laid_out = lay_out_if_unusable(fabric)
        # a big design's first frame is its overview: its cables' ids, colours, rails and
        # planes are read after that frame (scene_data.py `complete_cables`)
        scene = topology_data(fabric, defer_cables=len(fabric.links) >= DEFERRED_CABLES_FROM)
        # cached per revision: the status bar and inspector need not count again
        prime_counts(fabric, scene.ids, scene.roles, scene.tiers.tolist(), scene.gpus, scene.tier_pairs)
        snapshot = fabric.snapshot()  # the first validation's copy, made off the GUI thread
        if len(scene) >= OVERVIEW_MIN_DEVICES:  # the blocks the first fitted frame draws,
            # counted here, not in paint (a smaller design never shows them)
            scene.overview = prepare_overview(fabric, scene)
    done = time.perf_counter()
    return LoadedFabric(path, fabric, scene, laid_out, (loaded - start) * 1000, (done - loaded) * 1000,
                        snapshot)
