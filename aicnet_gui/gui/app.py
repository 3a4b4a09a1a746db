"""`aicnet-gui [FILE] [--screenshot OUT.png | --screenshot-compare OUT.png]`: start the editor, or
render one screenshot and exit.

With `--screenshot` the main window is shown (offscreen works: QT_QPA_PLATFORM=offscreen),
FILE is loaded and fitted to the view, and the window is saved as a PNG; the exit code says
whether that worked.  With `--screenshot-compare` a small study runs on `--requirement`'s
requirement (or FILE's) and the comparison view is saved once it has finished
(compare/screenshot.py).  Without either, the window opens FILE (if given), offers to recover
work a crash left behind, and runs until closed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..fileio.atomic import remove_killed_writes

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="aicnet-gui", description="aicnet fabric designer")
    parser.add_argument("file", nargs="?", help="a .fabric file to open")
    shots = parser.add_mutually_exclusive_group()
    shots.add_argument("--screenshot", metavar="OUT.png",
                       help="render the main window after loading FILE to a PNG and exit")
    shots.add_argument("--screenshot-compare", metavar="OUT.png",
                       help="run a study on --requirement's requirement (else FILE's own, else the "
                            "New Comparison form's default sized to FILE's GPU servers), render "
                            "the comparison view to a PNG once it has finished and exit")
    parser.add_argument("--size", default="1600x1000", metavar="WxH",
                        help="window size for --screenshot, view size for --screenshot-compare "
                             "(default 1600x1000)")
    parser.add_argument("--requirement", metavar="FILE",
                        help="for --screenshot-compare: the requirement to compare (a "
                             ".requirement.json / .yaml, or a .fabric carrying one)")
    parser.add_argument("--prices", metavar="CSV",
                        help="for --screenshot-compare: the price list (replaces the "
                             "requirement's; without one the cost charts stay empty)")
    parser.add_argument("--chart", choices=("cost-time", "power-time", "cost-parts",
                                            "power-parts", "counts"), default="cost-time",
                        help="the chart --screenshot-compare shows (default cost-time)")
    parser.add_argument("--select-candidate", metavar="NAME",
                        help="for --screenshot-compare: select this candidate (its row, its "
                             "ringed point)")
    parser.add_argument("--view", choices=("topology", "floor"), default="topology",
                        help="which canvas --screenshot shows (default topology)")
    parser.add_argument("--dock", choices=("inspector", "metrics", "workloads"), default="inspector",
                        help="which right-hand panel --screenshot shows (default inspector)")
    parser.add_argument("--colour", choices=("cable", "speed", "tier", "rail", "oversubscription",
                                             "traffic"),
                        default="cable", help="colour mode of the cables for --screenshot "
                        "(traffic: waits for the traffic model)")
    parser.add_argument("--traffic-mode", choices=("ecmp", "adaptive", "spray"),
                        help="with --colour traffic: the load-balancing mode shown (default the "
                             "fabric's own)")
    parser.add_argument("--collapse", choices=("su", "rack", "rail", "plane"),
                        help="collapse every group of this kind for --screenshot")
    parser.add_argument("--plane", metavar="N",
                        help="show only compute plane N of a multi-plane fabric for --screenshot "
                             "(its switches and cables; servers stay)")
    parser.add_argument("--select-finding", type=int, metavar="N",
                        help="select the N-th finding (from 0) for --screenshot")
    parser.add_argument("--select", metavar="NAME[,NAME]",
                        help="select these devices (by name) for --screenshot")
    parser.add_argument("--select-link", metavar="ID",
                        help="select this cable (by link id) for --screenshot: the inspector "
                             "shows its media, optics, length and channel")
    parser.add_argument("--zoom", type=float, metavar="Z",
                        help="zoom of the Topology view for --screenshot, centred on what --select and "
                             "--select-link chose (default: the whole fabric fitted)")
    return parser.parse_args(argv)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"aicnet-gui: --size must look like 1600x1000, not {text!r}") from None
    return max(width, 400), max(height, 300)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    remove_killed_writes()  # the temp files of a killed aicnet (fileio/atomic.py)
    from PySide6.QtCore import QCoreApplication, QTimer
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("aicnet")
    QCoreApplication.setApplicationName("aicnet")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from . import resources, wheel_guard
    from .main_window import MainWindow

    wheel_guard.install(app)
    app.setWindowIcon(resources.app_icon())
    shot = bool(args.screenshot or args.screenshot_compare)
    window = MainWindow(interactive=not shot, record_recent=not shot)
    if args.screenshot_compare:
        return screenshot_compare(app, window, args)
    if args.screenshot:
        return screenshot(app, window, args.file, Path(args.screenshot), _size(args.size), args.view,
                          args)
    window.resize(1440, 900)
    window.show()
    QTimer.singleShot(0, lambda: window.start(args.file))
    code = app.exec()
    if app.platformName() == "offscreen":
        # Qt's offscreen clipboard segfaults at interpreter exit while it still owns data that
        # was copied; desktop platforms (xcb, wayland, windows, cocoa) hand it over properly.
        app.clipboard().clear()
    return code


def wait_for(done: Callable[[], bool], signals: Sequence[SignalInstance],
             timeout_s: float = 60.0) -> bool:
    """Run the event loop until `done()`, looked at again whenever one of `signals` comes (the
    validation, the bill of materials and the traffic model run in worker threads and say when
    they have published); False when `timeout_s` passed first.  Nothing polls: the loop sleeps
    in the event dispatcher until an event (a worker's result, the deadline) arrives."""
    from PySide6.QtCore import QEventLoop, QTimer

    if done():
        return True
    loop = QEventLoop()

    def look(*_args: object) -> None:
        if done():
            loop.quit()

    deadline = QTimer()
    deadline.setSingleShot(True)
    deadline.timeout.connect(loop.quit)
    for signal in signals:
        signal.connect(look)
    try:
        deadline.start(max(0, round(timeout_s * 1000)))
        loop.exec()
    finally:
        deadline.stop()
        for signal in signals:
            signal.disconnect(look)
    return done()


def screenshot(app, window, file: str | None, out: Path, size: tuple[int, int], view: str,  # noqa: ANN001
               args: argparse.Namespace | None = None) -> int:
    """Load `file`, fit it, wait for the live validation, save the window as a PNG; 0 on
    success, 1 otherwise."""
    window.resize(*size)
    window.show()
    app.processEvents()
    dock = getattr(args, "dock", "inspector")
    if dock == "metrics":
        window.metrics.raise_()
    elif dock == "workloads":
        window.workloads.raise_()
    app.processEvents()
    if file and not window.open_path(file, ask=False):
        return 1
    if view == "floor":
        window.tabs.setCurrentIndex(1)
    _wait_for_results(app, window, dock, args)
    if getattr(args, "collapse", None):
        window.collapse_all(args.collapse)
    if not _show_plane(window, file, getattr(args, "plane", None)):
        window.document.close()
        return 1
    for _ in range(3):
        app.processEvents()
    window.fit_to_view()
    if not _select(app, window, file, args):
        window.document.close()
        return 1
    app.processEvents()
    image = window.grab()
    ok = image.save(str(out))
    if not ok:
        print(f"aicnet-gui: could not write {out}", file=sys.stderr)
    window.document.close()
    return 0 if ok else 1


def screenshot_compare(app, window, args: argparse.Namespace) -> int:  # noqa: ANN001
    """Open FILE (if given), run the study, save the comparison view when its `finished`
    signal comes (the event loop runs until then); 0 on success, 1 otherwise."""
    from .compare.screenshot import CompareShot

    if args.file and not window.open_path(args.file, ask=False):
        return 1
    shot = CompareShot(window, Path(args.screenshot_compare), _size(args.size),
                       requirement_file=args.requirement, prices=args.prices, chart=args.chart,
                       select=args.select_candidate)
    shot.done.connect(app.exit)
    if shot.start():
        app.exec()
    window.document.close()
    return shot.code if shot.code is not None else 1


def _wait_for_results(app, window, dock: str, args: argparse.Namespace | None) -> None:  # noqa: ANN001
    """Wait for the live validation (and the bill of materials when the Metrics dock shows,
    the traffic run when the traffic colours do); colour the canvas as `args` asks."""
    validator = window.validator
    wait_for(validator.current, [validator.report_ready])
    if dock == "metrics":
        wait_for(lambda: validator.bom is not None, [validator.bom_ready])
    if getattr(args, "colour", "cable") != "cable":
        window.set_colour_mode(args.colour)
    if getattr(args, "colour", "cable") == "traffic":
        runner = window.traffic.runner
        wait_for(runner.current, [runner.result_ready], timeout_s=300.0)
        if getattr(args, "traffic_mode", None):
            window.traffic.section.choose_mode(args.traffic_mode)
        if dock == "workloads":  # the dock scrolled to its traffic section
            window.workloads.scroll_to(window.workloads.traffic)


def _show_plane(window, file: str | None, plane: str | None) -> bool:  # noqa: ANN001
    """Show only `plane` of a multi-plane fabric (None: all); False, said on stderr, when the
    fabric has no such plane."""
    if plane is None:
        return True
    planes = window.topology.planes()
    if plane not in planes:
        have = ", ".join(planes) if planes else "none (not a multi-plane fabric)"
        print(f"aicnet-gui: {file}: no plane {plane!r}; its planes: {have}", file=sys.stderr)
        return False
    window.plane_choice.choose(plane)
    return True


def _select(app, window, file: str | None, args: argparse.Namespace | None) -> bool:  # noqa: ANN001
    """Select the devices, cable or finding `args` names and zoom to them; False, said on
    stderr, when the cable does not exist."""
    if getattr(args, "select", None):
        doc = window.document.fabric
        found = [doc.device_by_name(n.strip()) for n in args.select.split(",")]
        window.select_ids([d.id for d in found if d is not None], [], [])
    link_id = getattr(args, "select_link", None)
    if link_id:
        if link_id not in window.document.fabric.links:
            print(f"aicnet-gui: {file}: no link with id {link_id!r}", file=sys.stderr)
            return False
        window.select_ids([], [link_id], [])
    if getattr(args, "zoom", None):
        window.topology_view.set_zoom(args.zoom)
        scene = window.topology
        area = scene.ensure_item_visible_rect(scene.selected_device_ids(), [link_id] if link_id else [])
        if not area.isNull():  # the selected devices and cable (a cable: its middle)
            window.topology_view.centerOn(area.center())
    if getattr(args, "select_finding", None) is not None and window.findings.proxy.rowCount():
        window.topology_view.set_zoom(0.6)  # close enough to see ports and the marks
        window.findings.select_row(min(args.select_finding, window.findings.proxy.rowCount() - 1))
        for _ in range(3):
            app.processEvents()
    return True


if __name__ == "__main__":  # `python -m aicnet_gui.gui.app`, as the docs run it from a checkout
    sys.exit(main())
