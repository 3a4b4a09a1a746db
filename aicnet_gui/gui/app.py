"""`aicnet-gui [FILE] [--screenshot OUT.png]`: start the editor, or render one screenshot and exit.

With `--screenshot` the main window is shown (offscreen works: QT_QPA_PLATFORM=offscreen),
FILE is loaded and fitted to the view, and the window is saved as a PNG; the exit code says
whether that worked.  Without it, the window opens FILE (if given), offers to recover work a
crash left behind, and runs until closed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="aicnet-gui", description="aicnet fabric designer")
    parser.add_argument("file", nargs="?", help="a .fabric file to open")
    parser.add_argument("--screenshot", metavar="OUT.png",
                        help="render the main window after loading FILE to a PNG and exit")
    parser.add_argument("--size", default="1600x1000", metavar="WxH",
                        help="window size for --screenshot (default 1600x1000)")
    parser.add_argument("--view", choices=("topology", "floor"), default="topology",
                        help="which canvas --screenshot shows (default topology)")
    return parser.parse_args(argv)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"aicnet-gui: --size must look like 1600x1000, not {text!r}") from None
    return max(width, 400), max(height, 300)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from PySide6.QtCore import QCoreApplication, QTimer
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("aicnet")
    QCoreApplication.setApplicationName("aicnet")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from . import resources
    from .main_window import MainWindow

    app.setWindowIcon(resources.app_icon())
    window = MainWindow(interactive=not args.screenshot)
    if args.screenshot:
        return screenshot(app, window, args.file, Path(args.screenshot), _size(args.size), args.view)
    window.resize(1440, 900)
    window.show()
    QTimer.singleShot(0, lambda: window.start(args.file))
    return app.exec()


def screenshot(app, window, file: str | None, out: Path, size: tuple[int, int], view: str) -> int:  # noqa: ANN001
    """Load `file`, fit it, save the window as a PNG; 0 on success, 1 otherwise."""
    window.resize(*size)
    window.show()
    app.processEvents()
    if file and not window.open_path(file, ask=False):
        return 1
    if view == "floor":
        window.tabs.setCurrentIndex(1)
    for _ in range(3):
        app.processEvents()
    window.fit_to_view()
    app.processEvents()
    image = window.grab()
    ok = image.save(str(out))
    if not ok:
        print(f"aicnet-gui: could not write {out}", file=sys.stderr)
    window.document.close()
    return 0 if ok else 1
