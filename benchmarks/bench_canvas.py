"""Canvas benchmark: open and show generated fabrics, then time frames, a drag and validation.

For 128, 1024 and 4096 GPU servers (rail-optimized, DGX H100 on QM9700, the generator's own
layout; from 256 SUs on, SN5600 leaves, spines and cores, since a QM9700 fabric stops at 256 SUs:
12800 servers are the 400-SU design of issue #22 with its 307,200 cables; `--big-switch` picks
another model, e.g. nvidia-q3400-ra once the catalog has optics for its cages) it prints, each size in a fresh process:

- open: File ▸ Open as the window does it (file read and prepared in a worker thread, then the
  scene built in the GUI thread) until the first fitted frame is painted; and, of that, the
  longest time the GUI thread was busy (the window is frozen only that long); below the table,
  the CPU time of the open (the process's, and the GUI thread's), when the device items (built
  after the first frame, before the first validation) were ready and the longest the GUI thread
  was busy meanwhile;
- frames of the Topology view (synchronous repaints, offscreen, 1600x1000 window): fitted
  (whole fabric), middle zoom (0.3) and close up (1.0), each "first after the zoom change /
  median of the next five"; pan: median of five 200-pixel scroll steps close up;
- drag: one grid step of a leaf with its 64 cables, as the scene does it during a mouse drag,
  including the repaint;
- edit shown: a leaf moved by the editor (one undo step) and the fitted view repainted;
- validation: the full analysis in the worker after open, and one edit (a device moved)
  validated incrementally in the GUI thread, then shown (findings dock, badges, canvas);
- Floor view: the first switch to the Floor tab until its first fitted frame (racks laid out,
  a big hall's racked devices drawn from the model), when its device items (made in slices
  after that frame) were ready and the longest the window was busy meanwhile, then frames fitted, at 0.15 (rack names written along the racks where they fit) and at 0.5
  (racks write their own headers), "first / median of the next five";
- edit applied, validated and shown: a leaf moved by the editor, the incremental validation
  run at once (not after its debounce) and published to the docks, and the fitted view
  repainted, median of five (issue 38's "one edit validated and shown"); below the table the
  same for a cable's length set (as from the inspector);
- peak RSS of the process.

`--designs planes2` (or `xdr`, `planes4`) measures the big designs of `big_outputs.py` instead
(`planes2`: 200,000 GPUs on two planes, 1,200,128 links, issue 38: open under 3 s, an edit
validated and shown under 50 ms, under 2 GB); `--keep DIR` keeps the generated files there for
the next run; `--runs N` opens each N times, each in a fresh process, with the load average
printed beside each row (a shared machine's wall times are noisy).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_canvas.py [--sizes 128,1024]
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_canvas.py --designs planes2 \
        --keep /tmp/big --runs 3

Before/after in one sitting: `PYTHONPATH=TREE` (e.g. a `git worktree` of main) measures that
tree's package with this script.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from bytecode import compile_sources
from child_peak import PEAK_KB_SOURCE
from trees import work_folder

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


_PEAK: dict = {}
exec(PEAK_KB_SOURCE, _PEAK)  # noqa: S102 - this process's own peak RSS (ru_maxrss keeps a parent's)
peak_kb = _PEAK["peak_kb"]

#: a three-tier QM9700 fabric holds at most 256 SUs (64 pods of 4); larger ones use BIG_SWITCH
QM9700_MAX_SUS = 256
BIG_SWITCH = "nvidia-sn5600"


def generate(sus: int, out: Path, big_switch: str = BIG_SWITCH, no_cables: bool = False) -> None:
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.fileio import save_fabric
    from aicnet_gui.generators import RailOptimizedParams
    from aicnet_gui.generators import generate as run
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(builtin_catalog())
    if sus > QM9700_MAX_SUS:
        params = RailOptimizedParams(sus=sus, nodes_per_su=32, leaf=big_switch, spine=big_switch)
    else:
        params = RailOptimizedParams(sus=sus, nodes_per_su=32)
    run(doc, params)
    if no_cables:  # every cable unset: one CABLE-UNSET finding per link
        from aicnet_gui.model.edits import UpdateLink

        doc.apply([UpdateLink(link_id, {"cable": None}) for link_id in doc.links])
    save_fabric(doc, out, keep_backup=False)


def frames(view, count: int = 5) -> tuple[float, float]:  # noqa: ANN001
    """(first frame, median of the next `count`) in milliseconds."""
    viewport = view.viewport()
    start = time.perf_counter()
    viewport.repaint()
    first = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(count):
        start = time.perf_counter()
        viewport.repaint()
        times.append((time.perf_counter() - start) * 1000)
    return first, statistics.median(times)


#: the busy probe's tick: a 0 ms timer would keep the GUI thread asking for the interpreter lock
#: and slow the load it measures by ~0.2 s; 10 ms resolves freezes of interest (100s of ms)
PROBE_MS = 10


class BusyProbe:
    """The longest gap between two ticks of a 10 ms timer: how long the GUI thread was busy."""

    def __init__(self, app) -> None:  # noqa: ANN001
        from PySide6.QtCore import QTimer

        self.longest = 0.0
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setInterval(PROBE_MS)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, (now - self._last) * 1000)
        self._last = now

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> float:
        self._timer.stop()
        return self.longest


def wait_for(app, done, timeout: float = 120.0) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not finish in time")
        app.processEvents()
        time.sleep(0.002)


def new_window(path: Path):  # noqa: ANN201
    """(the application, a main window of 1600x1000 shown) with fresh settings next to `path`:
    the default layout (inspector in front; the metrics dock, whose bill of materials is
    computed only while it is shown, behind it)."""
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("aicnet-bench")
    app = QApplication.instance() or QApplication([])
    from aicnet_gui.gui.main_window import MainWindow

    settings = QSettings(str(path.with_suffix(".ini")), QSettings.Format.IniFormat)
    window = MainWindow(interactive=False, settings=settings)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    return app, window


def bench(path: Path) -> dict[str, float]:
    from PySide6.QtCore import QPointF

    app, window = new_window(path)
    view = window.topology_view
    built: list[float] = []
    window.topology.built.connect(lambda: built.append(time.perf_counter()))
    probe = BusyProbe(app)
    probe.start()
    start = time.perf_counter()
    cpu, gui_cpu = time.process_time(), time.thread_time()
    window.open_in_background(path, ask=False)
    wait_for(app, lambda: not window.loading())
    view.viewport().repaint()
    result = {"open_show_ms": (time.perf_counter() - start) * 1000}
    result["open_cpu_ms"] = (time.process_time() - cpu) * 1000
    result["open_gui_cpu_ms"] = (time.thread_time() - gui_cpu) * 1000
    result["gui_busy_ms"] = probe.stop()
    probe = BusyProbe(app)  # the deferred work: device index, device items (in slices)
    probe.start()
    wait_for(app, lambda: not window.topology.building())
    result["gui_busy_building_ms"] = probe.stop()
    doc = window.document.fabric
    result["devices"] = len(doc.devices)
    result["links"] = len(doc.links)
    # a frame while the first full validation runs in the worker (it competes for the GIL)
    begin = time.perf_counter()
    view.viewport().repaint()
    result["frame_while_validating_ms"] = (time.perf_counter() - begin) * 1000
    wait_for(app, window.validator.current)
    result["items_ms"] = (built[-1] - start) * 1000 if built and built[-1] > start else 0.0
    result["validate_full_ms"] = window.validator.report.duration_ms
    result["fitted_first_ms"], result["fitted_ms"] = frames(view)
    leaf_id = next(d.id for d in doc.devices.values() if doc.role_of(d).value == "leaf")
    leaf = window.topology.items_by_id[leaf_id]
    view.set_zoom(0.3)
    view.centerOn(leaf.sceneBoundingRect().center())
    result["middle_first_ms"], result["middle_ms"] = frames(view)
    view.set_zoom(1.0)
    view.centerOn(leaf.sceneBoundingRect().center())
    result["close_first_ms"], result["close_ms"] = frames(view)
    pans = []
    bar = view.horizontalScrollBar()
    for step in range(6):
        bar.setValue(bar.value() + (200 if step % 2 == 0 else -150))
        begin = time.perf_counter()
        view.viewport().repaint()
        pans.append((time.perf_counter() - begin) * 1000)
    result["pan_ms"] = statistics.median(pans[1:])
    view.centerOn(leaf.sceneBoundingRect().center())
    view.viewport().repaint()
    # drag the leaf one grid step, as the scene does during a mouse drag
    times = []
    for step in range(6):
        begin = time.perf_counter()
        leaf.setPos(leaf.pos() + QPointF(20 if step % 2 == 0 else -20, 0))
        window.topology.device_item_moved(leaf)
        view.viewport().repaint()
        times.append((time.perf_counter() - begin) * 1000)
    result["drag_ms"] = statistics.median(times[1:])
    result["drag_cables"] = len(doc.link_ids_of(leaf_id))
    # one edit shown on the canvas at fit zoom: the move applied, the scene updated, one frame
    view.fit_all()
    view.viewport().repaint()
    shown = []
    for step in range(6):
        x, y = doc.devices[leaf_id].position
        begin = time.perf_counter()
        window.editor.move_devices({leaf_id: (x + (20 if step % 2 == 0 else -20), y)})
        view.viewport().repaint()
        shown.append((time.perf_counter() - begin) * 1000)
    result["edit_canvas_ms"] = statistics.median(shown[1:])
    window.validator.wait()
    result["edit_validated_shown_ms"] = edit_validated_shown(window, leaf_id)
    result["link_edit_validated_shown_ms"] = edit_validated_shown(
        window, leaf_id, min(doc.link_ids_of(leaf_id)))
    window.editor.move_devices({leaf_id: (doc.devices[leaf_id].position[0] + 20,
                                          doc.devices[leaf_id].position[1])})
    begin = time.perf_counter()
    window.validator.run()
    result["validate_edit_ms"] = window.validator.report.duration_ms
    result["validate_edit_shown_ms"] = (time.perf_counter() - begin) * 1000
    result["findings"] = len(window.validator.report.findings)
    result.update(floor_frames(app, window))
    result["peak_rss_mb"] = peak_kb() / 1024
    window.document.undo_stack.setClean()
    window.validator.wait()
    window.document.close()
    window.close()
    path.with_suffix(".ini").unlink(missing_ok=True)
    return result


def edit_validated_shown(window, leaf_id: str, link_id: str | None = None) -> float:  # noqa: ANN001
    """Median ms of a leaf moved by the editor (or with `link_id`, that cable's length set, as
    the inspector does), validated (the incremental run at once, not after its debounce,
    published to the docks and badges) and the view repainted."""
    doc = window.document.fabric
    view = window.topology_view
    times = []
    for step in range(6):
        x, y = doc.devices[leaf_id].position
        begin = time.perf_counter()
        if link_id is None:
            window.editor.move_devices({leaf_id: (x + (20 if step % 2 == 0 else -20), y)})
        else:
            window.editor.update_links([link_id], {"length_m": 5.0 + step}, "Set the length")
        window.validator.run()
        view.viewport().repaint()
        times.append((time.perf_counter() - begin) * 1000)
        window.validator.wait()  # a full run the edit asked for (none for a move) ends first
    return statistics.median(times[1:])


def floor_frames(app, window) -> dict[str, float]:  # noqa: ANN001
    """The Floor tab: its first showing (layout + fit + paint), then fitted and zoomed frames."""
    view = window.floor_view
    begin = time.perf_counter()
    window.tabs.setCurrentIndex(1)  # builds the scene (racked device items later, in slices)
    view.fit_all()
    view.viewport().repaint()
    result = {"floor_show_ms": (time.perf_counter() - begin) * 1000}
    probe = BusyProbe(app)
    probe.start()
    wait_for(app, lambda: not window.floor.building)
    result["floor_busy_ms"] = probe.stop()
    result["floor_items_ms"] = (time.perf_counter() - begin) * 1000
    result["floor_fitted_first_ms"], result["floor_fitted_ms"] = frames(view)
    racks = window.floor.racks_by_id
    first = min(racks.values(), key=lambda item: (item.pos().y(), item.pos().x()), default=None)
    for zoom, key in ((0.15, "floor_far"), (0.5, "floor_near")):
        view.set_zoom(zoom)
        if first is not None:
            view.centerOn(first.frame().center())
        result[f"{key}_first_ms"], result[f"{key}_ms"] = frames(view)
    window.tabs.setCurrentIndex(0)
    app.processEvents()
    return result


def sized(sizes: list[int], folder: Path, big_switch: str = BIG_SWITCH,
          no_cables: bool = False) -> Iterator[tuple[str, Path]]:
    """(servers, file) of each size, generated into `folder` as it is reached."""
    for servers in sizes:
        path = folder / f"ro-{servers}.fabric"
        generate(max(1, servers // 32), path, big_switch, no_cables)
        yield str(servers), path


def big(names: list[str], folder: Path) -> Iterator[tuple[str, Path]]:
    """(name, file) of each of big_outputs.py's designs, generated into `folder` if missing."""
    from big_outputs import design

    for name in names:
        yield name, design(name, folder)


def run_sizes(fabrics: Iterable[tuple[str, Path]], extra: list[str], runs: int = 1) -> bool:
    """Open and measure each fabric `runs` times, each in a fresh process; print a row per run."""
    for servers, path in fabrics:
        for _ in range(runs):
            if not run_one(servers, path, extra):
                return False
    return True


def run_one(servers: str, path: Path, extra: list[str]) -> bool:
    """Open and measure `path` in a fresh process; print its row, add its details to `extra`."""
    here = str(Path(__file__).parent)
    load = os.getloadavg()
    code = (f"import json, sys; sys.path.insert(0, {here!r}); from bench_canvas import bench; "
            f"print(json.dumps(bench(__import__('pathlib').Path({str(path)!r}))))")
    # run from the temporary folder: `-c` puts the working directory first on the path, which
    # would shadow the tree PYTHONPATH names (a before/after comparison, trees.py)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                         cwd=tempfile.gettempdir())
    if out.returncode != 0:
        print(out.stderr, file=sys.stderr)
        return False
    r = json.loads(out.stdout.strip().splitlines()[-1])
    extra.append(f"{servers}: load average {load[0]:.2f} before the run; open CPU {r['open_cpu_ms']:.0f} ms (GUI thread "
                 f"{r['open_gui_cpu_ms']:.0f} ms), GUI busy at most "
                 f"{r['gui_busy_building_ms']:.0f} ms while the device items were built, "
                 f"fitted frame while validating {r['frame_while_validating_ms']:.0f} ms, "
                 f"edit shown on the fitted canvas {r['edit_canvas_ms']:.0f} ms, "
                 f"edit validated {r['validate_edit_ms']:.0f} ms and published "
                 f"{r['validate_edit_shown_ms']:.0f} ms ({r['findings']} findings), "
                 f"edit applied, validated and shown {r['edit_validated_shown_ms']:.0f} ms "
                 f"(a cable's length set: {r['link_edit_validated_shown_ms']:.0f} ms), "
                 f"every device item built {r['items_ms']:.0f} ms after File > Open; "
                 f"Floor tab first shown {r['floor_show_ms']:.0f} ms (its device items "
                 f"made by {r['floor_items_ms']:.0f} ms, the window busy at most "
                 f"{r['floor_busy_ms']:.0f} ms meanwhile), frames fitted "
                 f"{r['floor_fitted_first_ms']:.0f}/{r['floor_fitted_ms']:.0f} ms, at 0.15 "
                 f"{r['floor_far_first_ms']:.0f}/{r['floor_far_ms']:.0f} ms, at 0.5 "
                 f"{r['floor_near_first_ms']:.0f}/{r['floor_near_ms']:.0f} ms")
    print(f"{servers:>7} {r['devices']:>7} {r['links']:>7} {r['open_show_ms']:>5.0f}ms "
          f"{r['gui_busy_ms']:>6.0f}ms "
          f"{r['fitted_first_ms']:>4.0f}/{r['fitted_ms']:>3.0f}ms {r['middle_first_ms']:>4.0f}/{r['middle_ms']:>3.0f}ms "
          f"{r['close_first_ms']:>4.0f}/{r['close_ms']:>3.0f}ms {r['pan_ms']:>4.0f}ms "
          f"{r['drag_ms']:>4.0f}ms/{r['drag_cables']:<3} {r['validate_full_ms']:>6.0f}ms "
          f"{r['validate_edit_ms']:>6.1f}ms {r['edit_validated_shown_ms']:>6.1f}ms "
          f"{r['peak_rss_mb']:>6.0f}MB {load[0]:>5.2f}", flush=True)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="128,1024,4096", help="servers per fabric (multiples of 32; 12800 = the 400-SU design of issue #22)")
    parser.add_argument("--big-switch", default=BIG_SWITCH,
                        help=f"leaf, spine and core model above {QM9700_MAX_SUS} SUs")
    parser.add_argument("--no-cables", action="store_true",
                        help="unset every generated cable (one CABLE-UNSET finding per link)")
    parser.add_argument("--designs", nargs="+", metavar="NAME",
                        help="big_outputs.py's designs instead of --sizes: xdr, planes2, planes4")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the generated files here")
    parser.add_argument("--runs", type=int, default=1, help="open each fabric this many times")
    args = parser.parse_args()
    compile_sources()  # new processes time what a second run does (bytecode.py)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'servers':>7} {'devices':>7} {'cables':>7} {'open':>7} {'GUI busy':>8} {'fitted':>11} "
          f"{'middle 0.3':>11} {'close 1.0':>11} {'pan':>6} {'drag':>10} {'full val':>8} "
          f"{'edit val':>8} {'edit all':>8} {'peak RSS':>8} {'load':>5}")
    extra: list[str] = []
    with work_folder(args.keep) as folder:
        fabrics = (big(args.designs, folder) if args.designs
                   else sized(sizes, folder, args.big_switch, args.no_cables))
        if not run_sizes(fabrics, extra, args.runs):
            return 1
    for line in extra:
        print(line)
    print("open: File > Open until the first fitted frame (read + prepare in a worker, scene in the "
          "GUI thread); GUI busy: the longest the window was frozen meanwhile.")
    print("frames: first after the zoom change / median of the next five; drag: ms per grid step / "
          "cables moved; validation: full run in the worker, one edit incrementally; edit all: "
          "an edit applied, validated and shown; load: the load average before the run.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
