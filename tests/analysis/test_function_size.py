"""Every function of the analysis stays readable: at most 80 lines and a cyclomatic
complexity of at most 25 (issue 15: the analyzer's update was one 258-line function)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ANALYSIS = Path(__file__).resolve().parents[2] / "aicnet_gui" / "analysis"
MAX_LINES = 80
MAX_COMPLEXITY = 25


def test_no_function_of_the_analysis_is_longer_than_80_lines():
    long = []
    for path in sorted(ANALYSIS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, long


def test_no_function_of_the_analysis_is_more_complex_than_25():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(ANALYSIS), "--select", "C901", "--config",
         f"lint.mccabe.max-complexity={MAX_COMPLEXITY}", "--output-format", "concise",
         "--no-cache"],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
