"""Plane filter benchmark: how long choosing a plane freezes the window on a big fabric.

Opens a multi-plane fabric as the window does (File ▸ Open in the background, then every device
item built), then, at three zooms (fitted: the overview; middle 0.1: device bars and trunks;
close 1.0: items and single cables), times choosing "Plane 2" and back to "All planes": the
choice itself (the scene's set_plane through the View menu's handler) and the first synchronous
repaint after it (what the user waits for), each the median of three.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_plane_filter.py FILE.fabric

A 400-SU-class design (307,200 cables) to try it on:

    .venv/bin/aicnet generate rail-optimized --sus 200 --nodes-per-su 32 \\
        --server nvidia-dgx-b300 --leaf nvidia-sn5600 --planes 2 -o /tmp/b300-200su.fabric
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_canvas import wait_for  # noqa: E402


def bench(path: Path) -> dict[str, float]:
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("aicnet-bench")
    app = QApplication.instance() or QApplication([])
    from aicnet_gui.gui.main_window import MainWindow

    settings = QSettings(str(Path("/tmp") / "bench-plane.ini"), QSettings.Format.IniFormat)
    window = MainWindow(interactive=False, settings=settings, record_recent=False)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    view = window.topology_view
    window.open_in_background(path, ask=False)
    wait_for(app, lambda: not window.loading())
    view.viewport().repaint()
    wait_for(app, lambda: not window.topology.building())
    wait_for(app, window.validator.current)
    scene = window.topology
    doc = window.document.fabric
    result: dict[str, float] = {"devices": len(doc.devices), "links": len(doc.links)}
    planes = scene.planes()
    if len(planes) < 2:
        raise SystemExit(f"{path}: not a multi-plane fabric (planes: {planes})")
    leaf = next(d.id for d in doc.devices.values() if d.plane == planes[-1])
    centre = scene.items_by_id[leaf].sceneBoundingRect().center()
    for name, zoom in (("fitted", None), ("middle", 0.1), ("close", 1.0)):
        if zoom is None:
            view.fit_all()
        else:
            view.set_zoom(zoom)
            view.centerOn(centre)
        view.viewport().repaint()
        for label, plane in (("plane", planes[-1]), ("all", None)):
            chosen, painted = [], []
            for _ in range(3):
                window.plane_choice.choose(planes[-1] if plane is None else None)  # the other
                view.viewport().repaint()
                begin = time.perf_counter()
                window.plane_choice.choose(plane)
                mid = time.perf_counter()
                view.viewport().repaint()
                end = time.perf_counter()
                chosen.append((mid - begin) * 1000)
                painted.append((end - begin) * 1000)
            result[f"{name}_{label}_choose_ms"] = statistics.median(chosen)
            result[f"{name}_{label}_shown_ms"] = statistics.median(painted)
    window.document.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", type=Path)
    args = parser.parse_args()
    result = bench(args.file)
    print(f"{args.file.name}: {int(result['devices']):,} devices, {int(result['links']):,} cables")
    print(f"{'zoom':8} {'to':6} {'choose ms':>10} {'+ frame ms':>11}")
    for name in ("fitted", "middle", "close"):
        for label in ("plane", "all"):
            print(f"{name:8} {label:6} {result[f'{name}_{label}_choose_ms']:10.1f} "
                  f"{result[f'{name}_{label}_shown_ms']:11.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
