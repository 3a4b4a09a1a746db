"""Files just past the design limits are refused cleanly: one message naming the file, the
section and the limit (exit 2), no traceback, and before the file is read whole.

At the real limits: a `.fabric` of MAX_FABRIC_BYTES + 1 bytes (sparse: it takes no disk) and
one of MAX_LINKS + 1 links (each `{}`: only their count can refuse them, ~25 MB).  The loads
at and just past a limit are shown at a smaller limit set in the child process (the same
checks, a design the test suite can build); benchmarks/bench_near_limits.py times 1M-3M links.
"""

from __future__ import annotations

import json

import pytest
from bounded import run_bounded
from near_limit_fabric import write_fabric

from aicnet_gui.fileio import fabric_file, pieces
from aicnet_gui.model.limits import MAX_FABRIC_BYTES, MAX_LINKS


def _refused(code: int, err: str, file, where: str, message: str) -> None:  # noqa: ANN001
    assert code == 2, err
    assert f"aicnet: error: {file}: {where}{message}" in err, err
    assert "Traceback" not in err and "internal error" not in err


def test_a_file_one_byte_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    file = tmp_path / "big.fabric"
    with open(file, "wb") as handle:
        handle.truncate(MAX_FABRIC_BYTES + 1)
    code, _, err = run_bounded(["validate", str(file)])
    _refused(code, err, file, "", f"the file has {MAX_FABRIC_BYTES + 1:,} bytes; aicnet reads "
             f".fabric files of at most {MAX_FABRIC_BYTES:,} bytes")


def test_a_file_one_link_past_max_links_is_refused_by_the_count_alone(tmp_path):
    file = write_fabric(tmp_path / "many.fabric", MAX_LINKS + 1, empty_links=True)
    code, _, err = run_bounded(["validate", str(file)])
    _refused(code, err, file, "$.links: ", f"a design holds at most {MAX_LINKS:,} links; this "
             f"one has {MAX_LINKS + 1:,}")


@pytest.fixture
def small_limits(monkeypatch):  # noqa: ANN001, ANN201
    """MAX_LINKS 1,000 and MAX_DEVICES 3 in the children the test forks (every check that
    counts a section reads these)."""
    monkeypatch.setattr(pieces, "MAX_LINKS", 1_000)
    monkeypatch.setitem(fabric_file.SECTION_LIMITS, "links", 1_000)
    monkeypatch.setitem(fabric_file.SECTION_LIMITS, "devices", 3)


@pytest.mark.parametrize("layout", ["aicnet's", "compact JSON"])
def test_at_the_link_limit_a_design_loads_and_one_past_it_is_refused(tmp_path, small_limits,
                                                                     monkeypatch, layout):
    monkeypatch.setitem(fabric_file.SECTION_LIMITS, "devices", 100)
    for links in (1_000, 1_001):
        file = write_fabric(tmp_path / f"l{links}.fabric", links)
        if layout == "compact JSON":  # not laid out for pieces: validated whole, then counted
            file.write_text(json.dumps(json.loads(file.read_text())))
        code, out, err = run_bounded(["info", str(file)])
        if links == 1_000:
            assert code == 0 and f"links: {links}" in out, err
        else:
            _refused(code, err, file, "$.links: ", "a design holds at most 1,000 links; this "
                     "one has 1,001")


def test_one_device_past_the_device_limit_is_refused(tmp_path, small_limits):
    file = write_fabric(tmp_path / "d.fabric", 1_000)  # 2 pairs of switches: 4 devices
    code, _, err = run_bounded(["validate", str(file)])
    _refused(code, err, file, "$.devices: ", "a design holds at most 3 devices; this one has 4")
