"""A small real comparison for the tests of what the comparison shows (window, PDF, JSON):
16 DGX H100, InfiniBand on QM9700 and RoCEv2 on SN5600 at 1:1 and 2:1, top of rack and rail
layouts (16 candidates, 8 built).
The RoCEv2 top-of-rack design hashes its flows onto the oversubscribed spines, so its
all-reduce differs from its even-spread bound; the SN5600 has no maximum power figure.

`refused_study` runs it with the traffic model refusing one candidate (past its limits), so the
even-spread bound stands in for that candidate's all-reduce."""

from __future__ import annotations

from pathlib import Path

import pytest

from aicnet_gui.model.fabric import Requirement

TEST_PRICES = Path(__file__).resolve().parent / "study" / "data" / "test-prices.csv"
REQUIREMENT = Requirement(name="look", servers=16, technologies=["infiniband", "rocev2"],
                          leaves=["nvidia-qm9700", "nvidia-sn5600"],
                          sweep={"oversubscription": [1, 2], "layouts": ["tor", "rail"]})
#: the same requirement as `aicnet compare` options
CLI_OPTIONS = ("--name", "look", "--servers", "16", "--technology", "infiniband",
               "--technology", "rocev2", "--leaf", "nvidia-qm9700", "--leaf", "nvidia-sn5600",
               "--oversubscription", "1", "--oversubscription", "2", "--layout", "tor", "--layout", "rail")
#: the candidate the traffic model is made to refuse
REFUSED = "infiniband-qm9700-2to1-tor"


def refused_study(catalog, folder: Path):  # noqa: ANN001, ANN201
    """(study, result) with the traffic model refusing REFUSED, run in this process."""
    from aicnet_gui.study import Study, run_study
    from aicnet_gui.traffic import TrafficModel
    from aicnet_gui.traffic.flows import TooLarge

    original = TrafficModel.workload

    def workload(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if self.doc.metadata.name == REFUSED:
            raise TooLarge("made too large for this test")
        return original(self, *args, **kwargs)

    study = Study.prepare(REQUIREMENT, catalog, prices=TEST_PRICES)
    patch = pytest.MonkeyPatch()
    patch.setattr(TrafficModel, "workload", workload)
    try:
        return study, run_study(study, folder, workers=0)
    finally:
        patch.undo()


def pdf_row(page: str, name: str, names: list[str]) -> list[str]:
    """The lines of the comparison PDF's candidate-table row of `name`, from its `#` to the
    next row's (pypdf gives a table cell by cell, a line each; `names`: the table's)."""
    lines = page.splitlines()
    start = lines.index(name) - 1
    ends = [lines.index(n) - 1 for n in names if n in lines and lines.index(n) - 1 > start]
    end = min(ends, default=next(i for i, line in enumerate(lines) if line.startswith("Power:")))
    return lines[start:end]
