"""A small study run once for the tests of this folder: 16 DGX H100 on QM9700 (InfiniBand) and
SN5600 (RoCEv2) at 1:1 and 2:1, and an SN4600C that cannot carry the servers' 400G NICs,
written to a folder, priced from the test price list (made-up round numbers, data/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
TEST_PRICES = DATA / "test-prices.csv"


@pytest.fixture(scope="session")
def small_requirement():
    from aicnet_gui.model.fabric import Requirement

    return Requirement(name="small", servers=16,
                       leaves=["nvidia-qm9700", "nvidia-sn5600", "nvidia-sn4600c"],
                       sweep={"oversubscription": [1, 2]})


@pytest.fixture(scope="session")
def small_study(catalog, small_requirement, tmp_path_factory):
    """(study, result, out folder) of the small study, run in this process."""
    from aicnet_gui.study import Study, run_study

    out = tmp_path_factory.mktemp("small-study")
    study = Study.prepare(small_requirement, catalog, prices=TEST_PRICES)
    return study, run_study(study, out, workers=0), out
