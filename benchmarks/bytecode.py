"""Compile aicnet's modules to bytecode before a benchmark starts new processes.

An installed aicnet has its `.pyc` files (pip compiles a wheel's modules; `make` compiles a
checkout's once, on first use), and a checkout run without `PYTHONDONTWRITEBYTECODE` writes them
on its first start.  Where that variable is set (as on the VM these numbers come from) nothing
writes them, and every new process would compile ~50,000 lines first (~0.1 s of an
`aicnet validate`), which no user sees twice: benchmarks that time new processes call
`compile_sources()` first, so they time what a user's second run does.
"""

from __future__ import annotations

import compileall
from pathlib import Path

import aicnet_gui


def compile_sources() -> None:
    """Write the bytecode of every aicnet module whose source is newer (quietly)."""
    compileall.compile_dir(Path(aicnet_gui.__file__).parent, quiet=1)
