"""The colours of link load (traffic on the canvas, the histogram of the Workloads dock).

Load is a link's use over the collective as a share of its speed (aicnet_gui/traffic), in ten
bins of 10 % as the model's histogram counts them: 0-10 % ... 90-100 %.  The colours are ten
samples of *inferno*, a perceptually uniform sequential colour map whose lightness falls
monotonically, so that it reads in the same order in grey and to viewers with any of the
common colour-vision deficiencies (N. J. Smith and S. van der Walt, "A Better Default Colormap
for Matplotlib", SciPy 2015; released CC0).  The values are matplotlib's `_inferno_data`
(lib/matplotlib/_cm_listed.py, matplotlib 3.11.2), entries 219 down to 31 in equal steps
(`round(255 * (0.86 - k * 0.74 / 9))` for bin k), reversed: light yellow for a lightly loaded
link, near black for a full one, so that on the light canvas the hot links stand out and idle
ones recede.  The two ends of the map are left out: its lightest yellows vanish on the canvas,
its darkest entries are black with no hue left.

Cables that carry nothing (or are not fabric links: management, storage front-end) are drawn
pale grey; a cable edited since the result was computed is drawn mid grey until the model has
run again.
"""

from __future__ import annotations

import numpy as np

#: bin k (k*10 % to (k+1)*10 %) -> colour, matplotlib inferno entries 219, 198, ..., 31
RAMP: tuple[str, ...] = ("#fac228", "#fb9906", "#f2741c", "#e05536", "#c63d4d", "#a62d60",
                         "#87216b", "#65156e", "#440a68", "#1f0c48")
BINS = len(RAMP)
#: a cable with no traffic of the workload, or outside the model
IDLE = "#d5dae0"
#: a cable edited since the loads were computed (the model runs again)
PENDING = "#8f99a5"

#: codes of `classes`: 0 pending, 1 idle, 2 + k bin k
PENDING_CODE, IDLE_CODE = 0, 1
COLOURS: tuple[str, ...] = (PENDING, IDLE, *RAMP)


def load_bin(load: float) -> int:
    """The bin of a load > 0 (1.0 and above: the last)."""
    return min(int(load * BINS), BINS - 1)


def classes(loads: np.ndarray) -> np.ndarray:
    """The code of every load: NaN pending, <= 0 idle, else 2 + its bin."""
    codes = np.full(len(loads), IDLE_CODE, dtype=np.int64)
    used = loads > 0
    codes[used] = 2 + np.minimum((loads[used] * BINS).astype(np.int64), BINS - 1)
    codes[np.isnan(loads)] = PENDING_CODE
    return codes


def colour_of(load: float | None) -> str:
    """The colour of one load (None: pending)."""
    if load is None or load != load:
        return PENDING
    if load <= 0:
        return IDLE
    return RAMP[load_bin(load)]


def bin_label(k: int) -> str:
    return f"{k * 100 // BINS}–{(k + 1) * 100 // BINS} %"


def legend_rows(pending: bool = False) -> list[tuple[str, str]]:
    """(label, colour) from the hottest bin down, then idle (and pending, when some cable is)."""
    rows = [(f"{bin_label(k)} of capacity" if k == BINS - 1 else bin_label(k), RAMP[k])
            for k in reversed(range(BINS))]
    rows.append(("no traffic", IDLE))
    if pending:
        rows.append(("edited: recomputing", PENDING))
    return rows
