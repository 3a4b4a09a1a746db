"""What the editor's traffic view computes for one workload (pure, any thread; no Qt).

The Workloads dock and the Topology canvas's traffic colours show one workload's collective as
the traffic model routes it (aicnet_gui/traffic).  `run_traffic(doc, workload_id, seeds, ...)`
makes everything they show in one go, in a worker thread on a document snapshot:

- **the modes the fabric runs.**  The fabric's switches and NICs run some load-balancing modes
  and fall back from the others (analysis/load_balancing.py: spraying on Spectrum-X without
  reordering NICs runs flowlets, adaptive routing on a switch documented only for hashing
  hashes).  Two modes whose switches end up routing alike give the same result, so each is
  computed once: the first of `MODES` with a given routing per switch; the others are listed as
  `SameAs` with what their switches run and why.  `fabric_mode` is the mode of the fabric's
  own setting (`Settings.load_balancing`, flowlet routed as adaptive) among those computed;
- **one run** of `TrafficModel.workload` over those modes (`seeds` ECMP draws each);
- **the draw to draw.**  A mode drawn several times (ECMP's hashes, scattered ranks) has a mean
  load per link, which smooths the hot spots away: over 20 hash draws every uplink of a
  symmetric fabric carries about the same, while in any one draw a few collide.  So for such a
  mode the run also keeps the loads of the draw whose busBW is the median of the draws
  (`ModeShown.draw`, repeated with its own seed: `ModeResult.draw_busbw_gbps`); the canvas and
  the histogram show it by default, the mean on request;
- **per link loads as columns** (`ModeLoads`: ids and loads in the model's order, for the canvas
  to take in bulk), which links set the pace (`pace_setters`: the links within 0.5 % of the
  hottest, by tier pair), and the hottest links by name.  When the fabric delivers the NICs'
  full rate (its share is 1: a non-blocking fabric, every NIC at 100 %) the NICs are the limit
  and ranking thousands of equal NIC links says nothing, so the list is of the hottest
  switch-to-switch links instead (`LoadPicture.nic_paced`), and no link is marked as setting
  the pace; otherwise the links that set it are marked on the canvas when they are few.

`progress(fraction, text)` and `cancel()` are the traffic model's (`Cancelled` ends the run);
an all-to-all too large for the model raises `TooLarge` (its message says why).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from itertools import repeat

import numpy as np

from ..analysis.load_balancing import switch_modes
from ..model.document import FabricDocument
from ..model.load_balancing_modes import MODES as ALL_MODES
from ..model.summary import TIER_NAMES
from ..traffic import MODES, ModeResult, TrafficModel, TrafficParams, WorkloadTraffic
from ..traffic.result import median_draw
from ..traffic.routing import MODE_CODE

Progress = Callable[[float, str], None]
Cancel = Callable[[], bool]

#: hottest links named per mode (the model names directions: both of a link may appear)
HOTTEST = 10
#: a link within this fraction of the hottest one is taken to set the pace with it
PACE_TOLERANCE = 0.005
#: ids looked up per piece (a C call per piece: the window's thread gets the lock between them)
PIECE = 16_384
#: the links that set the pace are marked on the canvas when they are at most this many (when
#: hundreds of NIC links are at 100 % the NICs set the pace: no one link is to blame)
MARKED_PACE = 16


@dataclass(frozen=True)
class ModeLoads:
    """The load of every fabric link (0-1, the larger direction) as columns, in the order the
    model gives them."""

    ids: list[str]
    loads: np.ndarray  # float32
    #: the same loads laid out in another order (the canvas's rows: `laid_out`), or None
    column: np.ndarray | None = None

    def by_id(self) -> dict[str, float]:
        return dict(zip(self.ids, self.loads.tolist(), strict=True))


@dataclass(frozen=True)
class PaceSetters:
    """The links that set the collective's pace (within PACE_TOLERANCE of the hottest)."""

    load: float  # the hottest link's load
    count: int
    by_tier: tuple[tuple[str, int], ...]  # ("leaf-spine", 3), most first


@dataclass(frozen=True)
class HotLink:
    """One of the hottest links: its hotter direction by name."""

    link_id: str
    name: str
    load: float
    capacity_gbps: float


@dataclass(frozen=True)
class LoadPicture:
    """What the canvas and the histogram draw for a mode: the mean over the draws or one draw."""

    result: ModeResult
    loads: ModeLoads
    hottest: tuple[HotLink, ...]
    pace: PaceSetters | None
    #: the fabric delivers the NICs' full rate: the NICs set the pace, and the hottest list
    #: leaves the NIC links out
    nic_paced: bool = False
    #: the first `ranked` of `hottest` are hotter than every link not listed (the canvas
    #: numbers those: a rank among equals means nothing); `tied`: links not listed as hot as
    #: the last one listed
    ranked: int = 0
    tied: int = 0

    def marked_pace(self) -> list[str]:
        """The ids of the links that set the pace, when the fabric does and they are few enough
        to mark (at most MARKED_PACE), else none."""
        pace = self.pace
        if pace is None or self.nic_paced or pace.count > MARKED_PACE:
            return []
        loads = self.loads.loads
        hot = np.flatnonzero(loads >= pace.load * (1 - PACE_TOLERANCE))
        return [self.loads.ids[i] for i in hot.tolist()]

    def idle(self) -> int:
        """Fabric links that carry nothing of the workload."""
        return int((self.loads.loads <= 0).sum())


@dataclass(frozen=True)
class ModeShown:
    """One mode computed: its numbers (mean and percentiles over the draws) and the pictures."""

    mode: str
    result: ModeResult
    mean: LoadPicture
    #: the draw with the median busBW (None: one draw only, `mean` is that draw)
    draw: LoadPicture | None = None
    draw_index: int | None = None

    def picture(self, one_draw: bool = True) -> LoadPicture:
        return self.draw if one_draw and self.draw is not None else self.mean


@dataclass(frozen=True)
class SameAs:
    """A mode not computed: its switches would route as `same_as` does."""

    mode: str
    same_as: str
    runs: tuple[str, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class TrafficRun:
    """Everything the traffic view shows for one workload at one document revision."""

    workload_id: str
    revision: int
    seeds: int
    traffic: WorkloadTraffic
    modes: dict[str, ModeShown]
    same: tuple[SameAs, ...]
    fabric_mode: str
    failed_links: frozenset[str] = field(default_factory=frozenset)
    #: how long the run took (wall clock, seconds)
    seconds: float = 0.0
    #: the version of the order the pictures' `ModeLoads.column` follow (None: no column)
    layout: int | None = None

    def shown(self, mode: str) -> ModeShown:
        """The computed mode that stands for `mode` (itself, or the one it routes as)."""
        if mode in self.modes:
            return self.modes[mode]
        same = next((s.same_as for s in self.same if s.mode == mode), self.fabric_mode)
        return self.modes[same]


def distinct_modes(model: TrafficModel) -> tuple[list[str], list[SameAs]]:
    """The modes of `MODES` whose switches route differently (the first of each kind), and the
    others with the one they route as."""
    kept: dict[bytes, str] = {}
    same: list[SameAs] = []
    codes = np.array([MODE_CODE[m] for m in ALL_MODES], dtype=np.int64)
    for mode in MODES:
        modes = switch_modes(model.state, mode)
        per_row = np.where(modes.per_row >= 0, codes[np.maximum(modes.per_row, 0)], -1)
        key = per_row.tobytes()
        if key in kept:
            same.append(SameAs(mode, kept[key], modes.used,
                               tuple(s.message for s in modes.shortfalls)))
        else:
            kept[key] = mode
    return list(kept.values()), same


def fabric_mode(doc: FabricDocument, computed: Iterable[str], same: Iterable[SameAs]) -> str:
    """The computed mode that stands for the fabric's own setting (flowlet routes as adaptive)."""
    setting = doc.settings.load_balancing
    wanted = "adaptive" if setting == "flowlet" else setting
    computed = list(computed)
    if wanted in computed:
        return wanted
    return next((s.same_as for s in same if s.mode == wanted), computed[0])


def run_traffic(doc: FabricDocument, workload_id: str, seeds: int = 20,
                progress: Progress | None = None, cancel: Cancel | None = None,
                failed: Iterable[str] = ()) -> TrafficRun:
    """The traffic view of one workload on `doc` (a snapshot): see the module docstring."""
    failed = frozenset(failed)
    started = time.perf_counter()

    def say(fraction: float, text: str) -> None:
        if progress is not None:
            progress(fraction, text)

    say(0.0, "reading the fabric")
    params = TrafficParams(seeds=seeds)
    model = TrafficModel(doc, params, failed)
    modes, same = distinct_modes(model)
    job = model.job(workload_id)
    steps = len(modes) * (seeds + 1)  # a mode drawn several times has its median draw again

    def part(start: float, width: float) -> Progress:
        return lambda fraction, text: say(min(0.999, (start + fraction * width) / steps), text)

    traffic = model.workload(workload_id, modes, part(0, len(modes) * seeds), cancel, job)
    links = LinkFacts(model)
    shown: dict[str, ModeShown] = {}
    done = len(modes) * seeds
    for mode in modes:
        result = traffic.modes[mode]
        mean = picture(result, links)
        draws = result.draw_busbw_gbps
        if len(draws) <= 1:
            shown[mode] = ModeShown(mode, result, mean)
            continue
        index = median_draw(draws)
        again = TrafficModel(doc, replace(params, seed=params.seed + index, seeds=1), failed,
                             state=model.state)
        one = again.workload(workload_id, (mode,), part(done, 1), cancel,
                             replace(job, notes=list(job.notes))).modes[mode]
        done += 1
        shown[mode] = ModeShown(mode, result, mean, picture(one, links), index)
    say(1.0, "done")
    return TrafficRun(workload_id, doc.revision, seeds, traffic, shown, tuple(same),
                      fabric_mode(doc, modes, same), failed, time.perf_counter() - started)


def laid_out(run: TrafficRun, version: int, order: list[str | None],
             missing: float = -1.0) -> TrafficRun:
    """`run` with every picture's loads also as a column in `order` (the canvas's cable rows,
    None for a free one; `missing` where the model names no load), tagged `version`."""
    pictures = [p for shown in run.modes.values() for p in (shown.mean, shown.draw)
                if p is not None]
    if not pictures:
        return replace(run, layout=version)
    row_of = {link_id: row for row, link_id in enumerate(order) if link_id is not None}
    ids = pictures[0].loads.ids
    # a piece at a time: one lookup call over 300k ids would hold the interpreter lock (and so
    # the window's thread) ~0.1 s
    rows = np.concatenate([np.fromiter(map(row_of.get, ids[i:i + PIECE], repeat(-1)),
                                       dtype=np.int64, count=len(ids[i:i + PIECE]))
                           for i in range(0, len(ids), PIECE)] or [np.zeros(0, np.int64)])
    known = rows >= 0

    def column(loads: ModeLoads) -> ModeLoads:
        out = np.full(len(order), missing, dtype=np.float32)
        out[rows[known]] = loads.loads[known]
        return replace(loads, column=out)

    modes = {}
    for mode, shown in run.modes.items():
        mean = replace(shown.mean, loads=column(shown.mean.loads))
        draw = (replace(shown.draw, loads=column(shown.draw.loads))
                if shown.draw is not None else None)
        modes[mode] = replace(shown, mean=mean, draw=draw)
    return replace(run, modes=modes, layout=version)


class LinkFacts:
    """The model's links in its order (`ModeResult.link_load`): ids, (lower, upper) tiers,
    speeds, and their names."""

    def __init__(self, model: TrafficModel) -> None:
        network, state = model.network, model.state
        self.state = state
        self.rows = network.link_rows
        col = state.store.l
        ids = state.store.link_ids
        self.ids = [ids[r] for r in self.rows.tolist()]
        self.tiers = np.sort(np.column_stack((col["tier_a"][self.rows], col["tier_b"][self.rows])),
                             axis=1)
        self.gbps = network.cap[0::2]

    def name(self, k: int) -> str:
        row = int(self.rows[k])
        return f"{self.state.end_label(row, 'a')} – {self.state.end_label(row, 'b')}"


def picture(result: ModeResult, links: LinkFacts) -> LoadPicture:
    """The loads of `result` as columns, its hottest links (one line per link), the pace."""
    ids = list(result.link_load)
    loads = np.fromiter(result.link_load.values(), dtype=np.float32, count=len(ids))
    if ids != links.ids:  # the model's own order: a guard, never expected to differ
        raise ValueError("traffic result links out of the model's order")
    pace = pace_setters(loads, links.tiers)
    nic_paced = pace is not None and result.share >= 1 - 1e-9
    hottest, ranked, tied = hottest_links(loads, links, nic_paced)
    return LoadPicture(result, ModeLoads(ids, loads), hottest, pace, nic_paced, ranked, tied)


def hottest_links(loads: np.ndarray, links: LinkFacts, switch_only: bool = False
                  ) -> tuple[tuple[HotLink, ...], int, int]:
    """The HOTTEST most loaded links (only switch-to-switch ones with `switch_only`), hottest
    first, in the model's order among equals; how many of them are hotter than every link
    left out; how many left out are as hot as the last one listed."""
    order = np.argsort(-loads, kind="stable")
    if switch_only:
        order = order[links.tiers[order, 0] >= 1]
    order = order[loads[order] > 0]
    top, rest = order[:HOTTEST], order[HOTTEST:]
    ranked, tied = len(top), 0
    if len(rest):
        ranked = int((loads[top] > loads[rest[0]]).sum())
        tied = int((loads[rest] == loads[top[-1]]).sum())
    hottest = tuple(HotLink(links.ids[k], links.name(k), round(float(loads[k]), 4),
                            float(links.gbps[k])) for k in top.tolist())
    return hottest, ranked, tied


def pace_setters(loads: np.ndarray, tiers: np.ndarray) -> PaceSetters | None:
    """The links within PACE_TOLERANCE of the hottest, counted by tier pair."""
    if not len(loads) or float(loads.max()) <= 0:
        return None
    top = float(loads.max())
    hot = np.flatnonzero(loads >= top * (1 - PACE_TOLERANCE))
    # one small integer per tier pair and a bincount: np.unique(axis=0) sorts rows as opaque
    # records, holding the interpreter lock ~0.1 s on 100k NIC links
    span = int(tiers.max()) + 1 if len(tiers) else 1
    counts = np.bincount(tiers[hot, 0] * span + tiers[hot, 1], minlength=span * span)
    by_tier = sorted(((f"{TIER_NAMES.get(a, f'tier {a}')}-{TIER_NAMES.get(b, f'tier {b}')}",
                       int(counts[a * span + b]))
                      for a in range(span) for b in range(span) if counts[a * span + b]),
                     key=lambda item: -item[1])
    return PaceSetters(top, len(hot), tuple(by_tier))


__all__ = ["HOTTEST", "MARKED_PACE", "HotLink", "LoadPicture", "ModeLoads", "ModeShown", "PaceSetters", "SameAs",
           "TrafficRun", "distinct_modes", "fabric_mode", "laid_out", "median_draw", "run_traffic"]
