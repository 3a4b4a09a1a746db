"""Every function of the packages whose long functions were cut into named steps stays
readable: at most as many lines and as complex (cyclomatic complexity, ruff's C901) as the
longest and most complex there now (issue 15: the analyzer's update was one 258-line
function; issue 34: `asbuilt/compare.py:compare`, `catalog/netbox_import.py:import_device_type`,
`analysis/rules_device.py:cage_check`, `analysis/rules_groups.py:firmware_check`).  A function
that outgrows its package's limit is cut into steps, not the limit raised."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "aicnet_gui"
#: package -> (most lines, most complexity) of one function: what the longest and the most
#: complex hold today (analysis: bandwidth.py's `_evaluate` 80 lines, its `refresh` 17;
#: asbuilt: ibnet.py's `read_ibnetdiscover` 67 lines, 16; catalog: loader.py's
#: `load_catalog_file` 81 lines, 19)
LIMITS = {"analysis": (80, 17), "asbuilt": (67, 16), "catalog": (81, 19)}


@pytest.mark.parametrize("package", sorted(LIMITS))
def test_no_function_is_longer_than_its_package_allows(package):
    max_lines = LIMITS[package][0]
    long = []
    for path in sorted((PACKAGE / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > max_lines:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, long


@pytest.mark.parametrize("package", sorted(LIMITS))
def test_no_function_is_more_complex_than_its_package_allows(package):
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(PACKAGE / package), "--select", "C901",
         "--config", f"lint.mccabe.max-complexity={LIMITS[package][1]}", "--output-format",
         "concise", "--no-cache"],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
