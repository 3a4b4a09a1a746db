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
from collections.abc import Iterator
from typing import Any

from bounded import run_bounded
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from minimal import CABLE, FABRIC, SWITCH, put

FUZZ = settings(max_examples=300, deadline=None, database=None, derandomize=False,
                suppress_health_check=list(HealthCheck), print_blob=True)


def _leaf_paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    items = data.items() if isinstance(data, dict) else enumerate(data) \
        if isinstance(data, list) else ()
    for key, value in items:
        yield from _leaf_paths(value, (*path, key))


HOSTILE_TEXT = ["", "x" * 5000, "{x}", "swp{", "{0}", "{cage:>200000000}", "{n:>99999999}",
                '=HYPERLINK("http://x","y")', "@SUM(1+1)", "0x0G", "99999999x1G", "1-1000000",
                "-5", "\u0000", "../../etc/passwd", "1x800G", "16x6400G", "17x1G"]
#: mostly the values that reach past the parser and size something: huge, 64-bit, negative
HOSTILE_INTS = st.one_of(
    st.sampled_from([10**8, 10**12, 2**62, 2**63 - 1, -2**63, 1025, 129, 0, -1]),
    st.sampled_from([10**8, 10**12, 2**62, -1]),
    st.integers(min_value=-3, max_value=70),
    st.integers(min_value=-2**63, max_value=2**63 - 1),
)
ANY_VALUE = st.one_of(
    HOSTILE_INTS,
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(), st.none(),
    st.sampled_from(HOSTILE_TEXT), st.text(max_size=12),
    st.lists(st.sampled_from(["0x0G", "2x400G", "99999x1G", "1x800G"]), max_size=3),
    st.dictionaries(st.sampled_from(["1", "*", "x", "2"]), st.sampled_from(HOSTILE_TEXT),
                    max_size=2),
)


def _value_like(current: Any) -> st.SearchStrategy[Any]:
    """Mostly a hostile value of the field's own type (that is what gets past the parser and
    reaches the code), sometimes anything."""
    if isinstance(current, bool):
        return ANY_VALUE
    if isinstance(current, int):
        return st.one_of(HOSTILE_INTS, HOSTILE_INTS, ANY_VALUE)
    if isinstance(current, float):
        return st.one_of(st.floats(min_value=-1e300, max_value=1e300), HOSTILE_INTS, ANY_VALUE)
    if isinstance(current, str):
        return st.one_of(st.sampled_from(HOSTILE_TEXT), ANY_VALUE)
    return ANY_VALUE


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _mutated(base: Any, paths: list[tuple[Any, ...]], data: st.DataObject) -> Any:
    for _ in range(data.draw(st.integers(min_value=1, max_value=3), label="changes")):
        numbers = [p for p in paths if type(_at(base, p)) in (int, float)] or paths
        path = data.draw(st.one_of(st.sampled_from(numbers), st.sampled_from(paths)),
                         label="path")
        base = put(base, path, data.draw(_value_like(_at(base, path)), label="value"))
        paths = list(_leaf_paths(base))
    return base


SPLICES = st.sampled_from([b"", b"[", b"{", b"]", b"}", b",", b'"', b"\xff", b"-1", b"1e999",
                           b"&a ", b"*a ", b"!!python/object:os.system ", b"\n  - ", b": "])


def _spliced(raw: bytes, data: st.DataObject) -> bytes:
    at = data.draw(st.integers(min_value=0, max_value=len(raw)), label="at")
    cut = data.draw(st.integers(min_value=0, max_value=6), label="cut")
    return raw[:at] + data.draw(SPLICES, label="insert") + raw[at + cut:]


def _checked(argv: list[str], env: dict[str, str] | None = None) -> str:
    code, out, err = run_bounded(argv, env)
    assert code in (0, 1, 2), err
    assert "Traceback" not in err and "internal error" not in err, err
    return out


FABRIC_PATHS = list(_leaf_paths(FABRIC))


@seed(14)
@FUZZ
@given(data=st.data())
def test_fuzzed_fabric_files_end_in_a_result_or_a_message(data, tmp_path_factory):
    base = _mutated(FABRIC, FABRIC_PATHS, data)
    raw = json.dumps(base).encode()
    if data.draw(st.booleans(), label="splice bytes"):
        raw = _spliced(raw, data)
    file = tmp_path_factory.mktemp("fuzz") / "f.fabric"
    file.write_bytes(raw)
    command = data.draw(st.sampled_from(["validate", "info"]), label="command")
    _checked([command, str(file)])


ENTRY_PATHS = {"device": list(_leaf_paths(SWITCH)), "cable": list(_leaf_paths(CABLE))}


@seed(14)
@FUZZ
@given(data=st.data())
def test_fuzzed_user_catalogs_load_their_good_entries_and_report_the_rest(
        data, tmp_path_factory):
    folder = tmp_path_factory.mktemp("catalog")
    kind = data.draw(st.sampled_from(["device", "cable"]), label="kind")
    entry = _mutated(SWITCH if kind == "device" else CABLE, ENTRY_PATHS[kind], data)
    good = put(SWITCH, ("id",), "acme-good")
    text = json.dumps({"format": "aicnet.catalog", "version": 1, "entries": [entry, good]},
                      default=str).encode()
    spliced = data.draw(st.booleans(), label="splice bytes")
    if spliced:
        text = _spliced(text, data)
    (folder / "mine.yaml").write_bytes(text)
    out = _checked(["catalog", "list"], {"AICNET_USER_CATALOG_DIR": str(folder)})
    assert "nvidia-qm9700" in out  # the built-in catalog always loads
    if not spliced:  # the file is well formed: its good entry loads whatever the other holds
        assert "acme-good" in out
