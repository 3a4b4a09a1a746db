"""Helpers of the hostile-input tests: run a command in this process under a memory bound."""

from __future__ import annotations

import resource
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # minimal.py

#: what one input may allocate on top of what the test process already holds
HEADROOM = 1536 * 1024 * 1024


def _vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


@contextmanager
def bounded_memory(headroom: int = HEADROOM) -> Iterator[None]:
    """Address space limited to what the process maps now plus `headroom`: an input that
    tries to allocate gigabytes gets a MemoryError instead of the machine's memory."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    size = _vm_size()
    if not size:  # no /proc: no bound (not Linux)
        yield
        return
    limit = size + headroom if hard == resource.RLIM_INFINITY else min(size + headroom, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@pytest.fixture
def aicnet(capsys):  # noqa: ANN201
    """`aicnet(*argv)` -> (exit code, stdout, stderr), run in this process under a memory bound."""
    from aicnet_gui.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        with bounded_memory():
            code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def user_catalog(monkeypatch, tmp_path):  # noqa: ANN201
    """`user_catalog(text)` writes the user's catalog file and returns its path."""
    folder = tmp_path / "user-catalog"
    folder.mkdir()
    monkeypatch.setenv("AICNET_USER_CATALOG_DIR", str(folder))

    def write(text: str) -> Path:
        path = folder / "mine.yaml"
        path.write_text(text)
        return path

    return write
