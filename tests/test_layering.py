"""Layering is enforced: nothing outside aicnet_gui/gui imports Qt, and layers point down."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Only aicnet_gui.gui imports Qt KEPT" in result.stdout


def test_core_imports_without_qt():
    code = (
        "import sys, aicnet_gui.cli, aicnet_gui.fileio, aicnet_gui.model.document, aicnet_gui.catalog.loader;"
        "import pkgutil, importlib, aicnet_gui;"
        "[importlib.import_module(m.name) for m in pkgutil.walk_packages(aicnet_gui.__path__, 'aicnet_gui.')"
        " if not m.name.startswith('aicnet_gui.gui') and m.name != 'aicnet_gui.__main__'];"
        "bad=[m for m in sys.modules if m.startswith(('PySide6','shiboken6'))];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_code_is_ruff_clean():
    ruff = Path(sys.executable).with_name("ruff")
    result = subprocess.run([str(ruff), "check", "aicnet_gui", "tests", "benchmarks"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
