"""Canvas benchmark: open and show generated fabrics, then time frames at three zoom levels.

For 128, 1024 and 4096 GPU servers (rail-optimized, DGX H100 on QM9700) it prints the time to
open the file and show the window (file -> model -> laid-out scenes -> first fitted frame), the
frame time fitted, at middle zoom (0.3) and close up (1.0, centred on a leaf), the time to drag a
leaf with its cables one step, and the process's peak memory.  Frames are synchronous repaints
of the Topology viewport, offscreen, 1600x1000 window.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_canvas.py [--sizes 128,1024]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def generate(sus: int, out: Path) -> None:
    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.fileio import save_fabric
    from aicnet_gui.generators import RailOptimizedParams
    from aicnet_gui.generators import generate as run
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(builtin_catalog())
    run(doc, RailOptimizedParams(sus=sus, nodes_per_su=32))
    save_fabric(doc, out, keep_backup=False)


def frames(app, view, count: int = 5) -> tuple[float, float]:  # noqa: ANN001
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


def bench(path: Path) -> dict[str, float]:
    from PySide6.QtCore import QCoreApplication, QPointF
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("aicnet-bench")
    app = QApplication.instance() or QApplication([])
    from aicnet_gui.gui.main_window import MainWindow

    window = MainWindow(interactive=False)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    start = time.perf_counter()
    window.open_path(path, ask=False)
    app.processEvents()
    window.topology_view.viewport().repaint()
    result = {"open_show_ms": (time.perf_counter() - start) * 1000}
    doc = window.document.fabric
    result["devices"] = len(doc.devices)
    result["links"] = len(doc.links)
    view = window.topology_view
    result["fitted_first_ms"], result["fitted_ms"] = frames(app, view)
    leaf_id = next(d.id for d in doc.devices.values() if doc.role_of(d).value == "leaf")
    leaf = window.topology.items_by_id[leaf_id]
    view.set_zoom(0.3)
    view.centerOn(leaf.sceneBoundingRect().center())
    result["middle_first_ms"], result["middle_ms"] = frames(app, view)
    view.set_zoom(1.0)
    view.centerOn(leaf.sceneBoundingRect().center())
    result["close_first_ms"], result["close_ms"] = frames(app, view)
    # drag the leaf one grid step, as the scene does during a mouse drag
    times = []
    for step in range(5):
        start = time.perf_counter()
        leaf.setPos(leaf.pos() + QPointF(20 if step % 2 == 0 else -20, 0))
        window.topology.device_item_moved(leaf)
        view.viewport().repaint()
        times.append((time.perf_counter() - start) * 1000)
    result["drag_ms"] = statistics.median(times)
    result["drag_cables"] = len(doc.link_ids_of(leaf_id))
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    window.document.undo_stack.setClean()
    window.document.close()
    window.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="128,1024,4096", help="servers per fabric (multiples of 32)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="aicnet-bench-"))
    print(f"{'servers':>8} {'devices':>8} {'cables':>8} {'open+show':>10} {'fitted':>14} "
          f"{'middle 0.3':>14} {'close 1.0':>14} {'drag':>12} {'peak RSS':>9}")
    for servers in sizes:
        path = folder / f"ro-{servers}.fabric"
        generate(max(1, servers // 32), path)
        # each size in a fresh process, so memory and caches do not carry over
        import subprocess

        here = str(Path(__file__).parent)
        code = (f"import json, sys; sys.path.insert(0, {here!r}); from bench_canvas import bench; "
                f"print(json.dumps(bench(__import__('pathlib').Path({str(path)!r}))))")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
        if out.returncode != 0:
            print(out.stderr, file=sys.stderr)
            return 1
        import json

        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{servers:>8} {r['devices']:>8} {r['links']:>8} {r['open_show_ms']:>8.0f}ms "
              f"{r['fitted_first_ms']:>5.0f}/{r['fitted_ms']:>4.0f}ms {r['middle_first_ms']:>5.0f}/{r['middle_ms']:>4.0f}ms "
              f"{r['close_first_ms']:>5.0f}/{r['close_ms']:>4.0f}ms {r['drag_ms']:>5.0f}ms/{r['drag_cables']:<3} "
              f"{r['peak_rss_mb']:>6.0f}MB")
        path.unlink(missing_ok=True)
    print("frames: first after the zoom change / median of the next five; drag: ms per step / cables moved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
