"""numpy's huge-page advice is off in every aicnet process unless the user asked for it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ASK = "import numpy; print(numpy._core.multiarray._get_madvise_hugepage())"


def _advice(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    result = subprocess.run([sys.executable, "-c", code], env={**clean, **env},
                            capture_output=True, text=True, check=True)
    return result.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="numpy advises only on Linux")
def test_numpy_alone_advises_huge_pages_here() -> None:
    """The premise: without aicnet, numpy on this kernel marks big arrays for huge pages
    (if it did not, the tests below would pass without aicnet doing anything)."""
    assert _advice(ASK) == "True"


@pytest.mark.parametrize("order", ["import aicnet_gui; " + ASK, "import numpy, aicnet_gui; " + ASK],
                         ids=["aicnet-first", "numpy-first"])
def test_aicnet_turns_the_advice_off(order: str) -> None:
    assert _advice(order) == "False"


def test_the_users_setting_is_kept() -> None:
    assert _advice("import aicnet_gui; " + ASK, NUMPY_MADVISE_HUGEPAGE="1") == "True"


def test_child_processes_inherit_it() -> None:
    code = ("import aicnet_gui, subprocess, sys; "
            f"print(subprocess.run([sys.executable, '-c', {ASK!r}], capture_output=True, "
            "text=True).stdout.strip())")
    assert _advice(code) == "False"


def test_a_program_run_beside_aicnet_gets_the_users_environment():
    """What the benchmarks run another checkout with: aicnet's own setting taken out, a value
    the user set kept."""
    code = ("import os, aicnet_gui; from aicnet_gui.memory_pages import users_environment; "
            "print(users_environment(dict(os.environ)).get('NUMPY_MADVISE_HUGEPAGE'))")
    assert _advice(code) == "None"
    assert _advice(code, NUMPY_MADVISE_HUGEPAGE="1") == "1"
