"""Run aicnet from this checkout and, for a before/after comparison in the same sitting, from
another (`--before TREE`, e.g. `git worktree add /tmp/main main`): new processes with that
tree's package first on the path, its bytecode compiled first (benchmarks/bytecode.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bytecode import compile_sources

from aicnet_gui.memory_pages import users_environment

ROOT = Path(__file__).resolve().parents[1]


def trees(before: Path | None) -> list[tuple[str, Path]]:
    """("after", this checkout) and ("before", `before`), their bytecode compiled."""
    found = [("after", ROOT)] + ([("before", before.resolve())] if before else [])
    for _name, tree in found:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "aicnet_gui")],
                       check=True, stdout=subprocess.DEVNULL)
    compile_sources()
    return found


def env(tree: Path) -> dict[str, str]:
    """The environment that runs aicnet from `tree` (its package first on the path)."""
    # not the huge-page setting this process's aicnet made (aicnet_gui/memory_pages.py): the
    # tree's own aicnet makes its own, an older one none
    values = users_environment(dict(os.environ))
    values["PYTHONPATH"] = os.pathsep.join(p for p in (str(tree), values.get("PYTHONPATH")) if p)
    return values


@contextmanager
def work_folder(keep: Path | None) -> Iterator[Path]:
    """`keep` (made if missing, left as it is after), else a temporary folder."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep
        return
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)
