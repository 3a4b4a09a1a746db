"""Fixtures of the hostile-input tests: `aicnet(*argv)` in a bounded child (bounded.py), a user
catalog file, and Slurm's own topology.conf reader where libslurm is here (slurm_conf.py)."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).parent / "helpers"))  # bounded.py, minimal.py ...
sys.path.append(str(Path(__file__).resolve().parents[2] / "benchmarks"))  # near_limit_fabric.py

from bounded import Runner, run_bounded  # noqa: E402

from aicnet_gui.cli import main  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _warm(tmp_path_factory) -> None:  # noqa: ANN001
    """Run one command in this process first, so that every forked child starts with the
    modules imported and the built-in catalog read (a child would otherwise do it each time)."""
    from minimal import fabric_bytes

    file = tmp_path_factory.mktemp("warm") / "warm.fabric"
    file.write_bytes(fabric_bytes())
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        assert main(["validate", str(file)]) in (0, 1), sink.getvalue()


@pytest.fixture
def aicnet() -> Runner:
    """`aicnet(*argv)` -> (exit code, stdout, stderr), in a bounded child process; the user
    catalog folder is the one the test set in the environment."""

    def run(*argv: str) -> tuple[int, str, str]:
        return run_bounded(list(argv))

    return run


@pytest.fixture
def user_catalog(monkeypatch, tmp_path):  # noqa: ANN001, ANN201
    """`user_catalog(text)` writes the user's catalog file and returns its path."""
    folder = tmp_path / "user-catalog"
    folder.mkdir()
    monkeypatch.setenv("AICNET_USER_CATALOG_DIR", str(folder))

    def write(text: str) -> Path:
        path = folder / "mine.yaml"
        path.write_text(text)
        return path

    return write


@pytest.fixture(scope="session")
def slurm_reader(tmp_path_factory):  # noqa: ANN001, ANN201
    """`read(path) -> (clean, [(switch, nodes, switches)])`: topology.conf as libslurm reads it
    when libslurm and a C compiler are here, else as slurm_conf.py's port of its parser."""
    from slurm_conf import libslurm_reader, switches_read_by_port, switches_read_by_slurm

    binary = libslurm_reader(tmp_path_factory.mktemp("slurm"))
    if binary is None:
        return switches_read_by_port
    return lambda path: switches_read_by_slurm(binary, path)
