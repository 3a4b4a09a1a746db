"""The value mutations and byte splices of the hostile-input fuzz tests (hypothesis
strategies): a hostile value of a field's own type most of the time (that is what gets past a
parser and reaches the code), sometimes anything, and bytes inserted into or cut from a file."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bounded import run_bounded
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from minimal import put

FUZZ = settings(max_examples=300, deadline=None, database=None, derandomize=False,
                suppress_health_check=list(HealthCheck), print_blob=True)


def leaf_paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    items = data.items() if isinstance(data, dict) else enumerate(data) \
        if isinstance(data, list) else ()
    for key, value in items:
        yield from leaf_paths(value, (*path, key))


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


def mutated(base: Any, paths: list[tuple[Any, ...]], data: st.DataObject) -> Any:
    for _ in range(data.draw(st.integers(min_value=1, max_value=3), label="changes")):
        numbers = [p for p in paths if type(_at(base, p)) in (int, float)] or paths
        path = data.draw(st.one_of(st.sampled_from(numbers), st.sampled_from(paths)),
                         label="path")
        base = put(base, path, data.draw(_value_like(_at(base, path)), label="value"))
        paths = list(leaf_paths(base))
    return base


SPLICES = st.sampled_from([b"", b"[", b"{", b"]", b"}", b",", b'"', b"\xff", b"-1", b"1e999",
                           b"&a ", b"*a ", b"!!python/object:os.system ", b"\n  - ", b": "])


def spliced(raw: bytes, data: st.DataObject) -> bytes:
    at = data.draw(st.integers(min_value=0, max_value=len(raw)), label="at")
    cut = data.draw(st.integers(min_value=0, max_value=6), label="cut")
    return raw[:at] + data.draw(SPLICES, label="insert") + raw[at + cut:]


def checked(argv: list[str], env: dict[str, str] | None = None) -> str:
    code, out, err = run_bounded(argv, env)
    assert code in (0, 1, 2), err
    assert "Traceback" not in err and "internal error" not in err, err
    return out


