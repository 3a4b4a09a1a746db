"""A child process's result as bytes and back (forked.py, spawned.py): marshal where the value
is made of Python's own types only, else pickle.

The halves of a big file's links come back as columns of strings, tuples and numbers (1.2M
links: ~530k rows a child).  pickle.dumps of them took 0.33-0.45 s, most of the child's share
after its parsing (its memo keeps every string and tuple in a dict); marshal writes the same
columns in 0.06-0.09 s, with the strings shared as they were (its references) and read back as
fast.  marshal refuses anything else (a dataclass, an enum, a subclass of str): such a result
goes by pickle.  Both ends run the same interpreter (a fork, or a child of `sys.executable`),
so marshal's format, which only holds within one Python version, is the same on both.

Every layer may import this module (it imports nothing of aicnet's).
"""

from __future__ import annotations

import marshal
import pickle
from typing import Any

_MARSHAL = b"M"
_PICKLE = b"P"


def dump_result(value: Any) -> bytes:
    """`value` as bytes for `load_result`; raises as pickle does for a value that cannot go."""
    try:
        return _MARSHAL + marshal.dumps(value)
    except ValueError:  # an object marshal does not write
        return _PICKLE + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def load_result(data: bytes) -> Any:
    """The value `dump_result` wrote (from our own child only: neither format is safe to read
    from anyone else); raises ValueError for bytes it did not write."""
    kind, body = data[:1], memoryview(data)[1:]
    if kind == _MARSHAL:
        return marshal.loads(body)
    if kind == _PICKLE:
        return pickle.loads(body)  # noqa: S301 - our child's
    raise ValueError("not a child's result")
