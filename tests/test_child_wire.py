"""aicnet_gui/child_wire.py: a child's result comes back equal, of the same types, with its
strings shared as they were, whichever of marshal or pickle carried it; bytes it did not write
are refused."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pytest

from aicnet_gui.child_wire import dump_result, load_result


class Speed(enum.IntEnum):
    NDR = 400


@dataclass(frozen=True)
class Part:
    name: str
    count: int


def _columns() -> dict[str, list | None]:
    device = "gpu-00001"  # one object at many ends, as pydantic's string cache gives it
    return {
        "id": [f"link-{i}" for i in range(1000)],
        "a": [(device, f"p{i}") for i in range(1000)],
        "rail": [i % 8 + 1 if i % 3 else None for i in range(1000)],
        "length_m": [float(i) / 4 for i in range(1000)],
        "pinned": [bool(i % 2) for i in range(1000)],
        "notes": None,
    }


def test_link_columns_come_back_equal_with_their_types_and_shared_strings():
    columns = _columns()
    data = dump_result(columns)
    assert data[:1] == b"M"  # Python's own types: marshal
    back = load_result(data)
    assert back == columns
    assert [type(v) for v in back["pinned"][:2]] == [bool, bool]  # True is not 1
    assert type(back["length_m"][4]) is float and type(back["rail"][1]) is int
    assert all(type(end) is tuple for end in back["a"])
    assert back["a"][0][0] is back["a"][999][0]  # one device string, not 1000


@pytest.mark.parametrize("value", [Speed.NDR, [Part("osfp", 2)], {"parts": (Part("dac", 1),)}])
def test_what_marshal_refuses_goes_by_pickle_as_it_is(value):
    data = dump_result(value)
    assert data[:1] == b"P"
    back = load_result(data)
    assert back == value and type(back) is type(value)


def test_bytes_it_did_not_write_are_refused():
    with pytest.raises(ValueError, match="not a child's result"):
        load_result(b"\x80\x05N.")  # a bare pickle, without the kind byte
