"""Indented JSON written in pieces: a document whose biggest members (`Streamed`) come as chunks
and are serialised and written one chunk at a time, byte for byte what orjson writes of the
whole document.

`aicnet validate --json` of 1.2M links held the per-link reach table as 1.2M dicts and the
~320 MB of JSON at once (~2.0 GB at its peak, against 1.2 GB without --json): written in
chunks, the table is never whole in memory, as Python objects or as bytes.

How: the document is serialised with a placeholder string for each `Streamed` member; the
output is written up to a placeholder, then the member's chunks, each serialised on its own
and indented to the placeholder's depth (in JSON a newline inside a string is always escaped,
so every newline orjson writes is a line break of the layout, safe to indent), then the rest.

Every layer may import this module (it imports nothing of aicnet's).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Any

import orjson

#: the layout `aicnet ... --json` prints (cli/common.py print_json)
INDENTED = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS


class Streamed:
    """A JSON object (`dict` chunks) or array (`list` chunks) made of the chunks an iterable
    gives, in order; the chunks are read once, when the document is written."""

    __slots__ = ("chunks", "kind")

    def __init__(self, kind: type[dict] | type[list], chunks: Iterable[dict | list]) -> None:
        if kind not in (dict, list):
            raise TypeError("a streamed member is a dict or a list")
        self.kind = kind
        self.chunks = chunks


def write_json(data: Any, write: Callable[[bytes], Any], option: int = INDENTED) -> None:
    """`data` as orjson writes it with `option` (which must hold OPT_INDENT_2, and not
    OPT_SORT_KEYS: a member's keys would be sorted a chunk at a time), given to `write` in
    pieces: each `Streamed` member a chunk at a time."""
    if not option & orjson.OPT_INDENT_2 or option & orjson.OPT_SORT_KEYS:
        raise ValueError("streamed JSON is written indented (OPT_INDENT_2), its keys unsorted")
    members: list[Streamed] = []
    token = secrets.token_hex(8)

    def placeholder(value: Any) -> str:
        if not isinstance(value, Streamed):
            raise TypeError(f"Type is not JSON serializable: {type(value).__name__}")
        members.append(value)
        return f"aicnet-streamed-{token}-{len(members) - 1}"

    raw = orjson.dumps(data, option=option, default=placeholder)
    at = 0
    for index, member in enumerate(members):
        mark = orjson.dumps(f"aicnet-streamed-{token}-{index}")
        start = raw.index(mark, at)
        line = raw.rfind(b"\n", 0, start) + 1
        indent = len(raw[line:start]) - len(raw[line:start].lstrip(b" "))
        write(raw[at:start])
        _write_member(member, indent, write, option)
        at = start + len(mark)
    write(raw[at:])


def _write_member(member: Streamed, indent: int, write: Callable[[bytes], Any],
                  option: int) -> None:
    """The member's chunks as one indented object or array, its closing bracket at `indent`."""
    opening, closing = (b"{", b"}") if member.kind is dict else (b"[", b"]")
    pad = b"\n" + b" " * indent
    first = True
    for chunk in member.chunks:
        if not isinstance(chunk, member.kind):
            raise TypeError(f"a streamed {member.kind.__name__}'s chunk is a "
                            f"{type(chunk).__name__}")
        if not chunk:
            continue
        body = orjson.dumps(chunk, option=option & ~orjson.OPT_APPEND_NEWLINE)  # b'{\n  "a": 1\n}'
        inner = body[1:-2].replace(b"\n", pad)  # each line of the body one level deeper
        write((opening if first else b",") + inner)
        first = False
    write(opening + closing if first else pad + closing)

