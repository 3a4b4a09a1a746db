"""Property-based fuzz of the `.fabric` loader and the user-catalog loader (hypothesis).

Inputs are the minimal files of minimal.py with values replaced by hostile ones (huge and
negative numbers, floats, long or formula-like text, wrong types), or with bytes inserted or cut.
Each runs through the command line in a child process forked for it, its memory and CPU time
bounded by resource limits (bounded.py: `run_bounded`; an input that hits one fails the test).
The properties: exit 0, 1 or 2, never 3 ("internal error"), never a traceback, never killed;
and a user catalog whose file is well formed loads its good entry whatever the other one holds.

The seed is fixed and the number of examples bounded, so `make test` runs the same inputs every
time (about 20 s for both tests on a loaded two-core machine).
"""

from __future__ import annotations

import json

from hypothesis import given, seed
from hypothesis import strategies as st
from minimal import CABLE, FABRIC, SWITCH, put
from mutation import FUZZ, checked, leaf_paths, mutated, spliced

FABRIC_PATHS = list(leaf_paths(FABRIC))


@seed(14)
@FUZZ
@given(data=st.data())
def test_fuzzed_fabric_files_end_in_a_result_or_a_message(data, tmp_path_factory):
    base = mutated(FABRIC, FABRIC_PATHS, data)
    raw = json.dumps(base).encode()
    if data.draw(st.booleans(), label="splice bytes"):
        raw = spliced(raw, data)
    file = tmp_path_factory.mktemp("fuzz") / "f.fabric"
    file.write_bytes(raw)
    command = data.draw(st.sampled_from(["validate", "info"]), label="command")
    checked([command, str(file)])


ENTRY_PATHS = {"device": list(leaf_paths(SWITCH)), "cable": list(leaf_paths(CABLE))}


@seed(14)
@FUZZ
@given(data=st.data())
def test_fuzzed_user_catalogs_load_their_good_entries_and_report_the_rest(
        data, tmp_path_factory):
    folder = tmp_path_factory.mktemp("catalog")
    kind = data.draw(st.sampled_from(["device", "cable"]), label="kind")
    entry = mutated(SWITCH if kind == "device" else CABLE, ENTRY_PATHS[kind], data)
    good = put(SWITCH, ("id",), "acme-good")
    text = json.dumps({"format": "aicnet.catalog", "version": 1, "entries": [entry, good]},
                      default=str).encode()
    was_spliced = data.draw(st.booleans(), label="splice bytes")
    if was_spliced:
        text = spliced(text, data)
    (folder / "mine.yaml").write_bytes(text)
    out = checked(["catalog", "list"], {"AICNET_USER_CATALOG_DIR": str(folder)})
    assert "nvidia-qm9700" in out  # the built-in catalog always loads
    if not was_spliced:  # the file is well formed: its good entry loads whatever the other holds
        assert "acme-good" in out
