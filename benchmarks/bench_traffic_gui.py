"""Traffic in the editor (issue 35): the traffic model run by the window in the background, and
how long the GUI thread was ever busy meanwhile (the window is frozen only that long).

For each size (rail-optimized, as bench_canvas.py generates them; 400 SUs: 12,800 DGX H100,
102,400 GPUs, 307,200 cables on SN5600) in a fresh process: the file is opened as File › Open
does and validated, then the canvas is coloured by traffic load (View › Traffic Load).  It
prints the run (from the colour mode switched on to the loads drawn: the snapshot, the model in
the worker, the result handed to the canvas and the dock), the longest gap between two ticks of
a 10 ms timer meanwhile (bench_canvas.py's `BusyProbe`), the GUI thread's own CPU time, and how
long a Cancel takes to stop a second run part way.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_traffic_gui.py [--sizes 16,400]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_canvas import QM9700_MAX_SUS, BusyProbe, generate, new_window, wait_for

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def bench(path: Path) -> dict[str, float]:
    app, window = new_window(path)
    window.open_in_background(path, ask=False)
    wait_for(app, lambda: not window.loading(), 300)
    wait_for(app, lambda: not window.topology.building(), 300)
    wait_for(app, window.validator.current, 300)
    runner = window.traffic.runner
    probe = BusyProbe(app)
    probe.start()
    start = time.perf_counter()
    gui_cpu = time.thread_time()
    window.set_colour_mode("traffic")
    wait_for(app, runner.current, 600)
    window.topology_view.viewport().repaint()  # the loads drawn
    result = {"run_s": time.perf_counter() - start, "gui_busy_ms": probe.stop(),
              "gui_cpu_s": time.thread_time() - gui_cpu, "model_s": runner.result.seconds,
              "links": len(window.document.fabric.links),
              "modes": len(runner.result.modes)}
    # a second run (another draw count), cancelled once a fifth of it is reported done
    section = window.traffic.section
    asked: list[float] = []

    def cancel_at(fraction: float, _text: str) -> None:
        if fraction >= 0.2 and not asked:
            asked.append(time.perf_counter())
            section.cancel_button.click()

    runner.progress.connect(cancel_at)
    section.seeds.setValue(section.seeds.value() + 1)
    wait_for(app, lambda: bool(asked), 600)
    wait_for(app, lambda: not runner.running(), 600)
    result["cancel_s"] = time.perf_counter() - asked[0]
    window.document.close()
    return result


def child(sus: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"rail-{sus}.fabric"
        generate(sus, path)
        print(json.dumps(bench(path)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="16,400", help="SUs per case (comma separated)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    print(f"{'SUs':>4} {'cables':>8} {'modes':>5} {'run':>7} {'model':>7} {'GUI busy':>9} "
          f"{'GUI CPU':>8} {'cancel':>7}")
    for sus in (int(s) for s in args.sizes.split(",")):
        out = subprocess.run([sys.executable, __file__, "--child", str(sus)], check=True,
                             capture_output=True, text=True).stdout.strip().splitlines()[-1]
        r = json.loads(out)
        switch = "QM9700" if sus <= QM9700_MAX_SUS else "SN5600"
        print(f"{sus:>4} {r['links']:>8,} {r['modes']:>5} {r['run_s']:>6.1f}s {r['model_s']:>6.1f}s "
              f"{r['gui_busy_ms']:>7.0f}ms {r['gui_cpu_s']:>7.2f}s {r['cancel_s']:>6.2f}s  "
              f"({switch})")
    print("run: colour mode on to the loads drawn; model: the worker's run; GUI busy: the "
          "longest the window was frozen meanwhile; cancel: Cancel to the run stopped.")


if __name__ == "__main__":
    main()
