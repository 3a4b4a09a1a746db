"""The one place aicnet steers Python's cyclic garbage collector.

aicnet builds and keeps large object graphs without reference cycles (a 4,096-server design is
~1M pydantic objects; its analysis and canvas hold as many again).  The collector's generation
passes then cost time and find nothing (performance.md §9.4), so:

- `gc_held()` pauses it while many containers are made (a load, a full analysis, a save);
- `gc_paused()` does that and then freezes what was built, for a bulk build that lives on;
- `freeze_survivors()` moves everything alive now out of later collections: called after a
  long-lived structure (a document, its canvas items, an analyzer's state) is complete.  Frozen
  objects without cycles are still freed by reference counting when they are replaced.

Every layer may import this module (it imports nothing of aicnet's).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_held() -> Iterator[None]:
    """Pause the cyclic GC while many containers are made (nothing is frozen)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC for a bulk build, then freeze what was built."""
    with gc_held():
        try:
            yield
        finally:
            gc.freeze()


def freeze_survivors() -> None:
    """Keep every object alive now out of later collections (see the module docstring)."""
    gc.freeze()
