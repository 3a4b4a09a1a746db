"""Level-of-detail thresholds of the canvas, by view scale (scene units -> pixels).

The representation changes as a whole at these scales, instead of every item deciding in its own
`paint()` (shared/reference/performance.md §6): below `PORTS_MIN_SCALE` ports are hidden and the
cables of one device pair are drawn as one bundle with a count; below `GROUPS_MAX_SCALE` servers
of one scalable unit / rack are bundled together; below `LABELS_MIN_SCALE` (`FAR_SCALE`) devices
are bars drawn by one batched layer, with names only where a bar is wide enough.
"""

from __future__ import annotations

PORTS_MIN_SCALE = 0.4
SMALL_PORTS_MIN_SCALE = 0.12
"""Fabrics with fewer than SMALL_FABRIC_LINKS cables keep single cables down to here (and never
bundle servers by group)."""
SMALL_FABRIC_LINKS = 4000
LABELS_MIN_SCALE = 0.22
FAR_SCALE = LABELS_MIN_SCALE
"""Below this scale devices are drawn by one batched layer instead of their own items."""
GROUPS_MAX_SCALE = 0.16
RACK_NAME_MIN_SCALE = 0.6
"""A Floor rack writes its 9 pt name in its header from here up (7 px high); below, the name is
written in device pixels over the rack (rack_names.py)."""
STUB_PX = 40.0
"""Close up on a big fabric a cable whose other end is off screen is drawn this many pixels
from its end on screen, towards the other end: its direction shows, and the long leaf-spine
trunks do not bury the rows they pass over."""
BUNDLE_LABEL_MIN_PX = 70.0
MAX_BUNDLE_LABELS = 160
MAX_AA_LINES = 1000
"""Above this many visible cables, lines are drawn without antialiasing."""
