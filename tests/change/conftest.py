"""Example designs for the change tests: each test gets its own freshly loaded copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.fileio import load_fabric

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def example(catalog):
    """example("small-hgx") -> a new FabricDocument read from examples/small-hgx.fabric."""

    def load(name: str):
        return load_fabric(EXAMPLES / f"{name}.fabric", catalog)

    return load
