"""Keep numpy from asking Linux for transparent huge pages (aicnet's one memory-page setting).

numpy marks every array of 4 MB or more `madvise(MADV_HUGEPAGE)`.  Where the kernel's
`transparent_hugepage/defrag` is `madvise` (Debian's default, and this project's machines), a
page fault in such an array is served a whole 2 MB page, compacting or reclaiming memory
synchronously when none is free, and the advice stays on the heap after numpy frees the array
(numpy issue #31590).  aicnet makes and drops many arrays of 1.2M rows: on its benchmark
machine (2 cores, KVM, memory returned to the host when freed) `aicnet validate` of the
1.2M-link design took 9.0-10.5 s with the advice and 5.7-5.8 s without it (4 runs each,
alternated; `benchmarks/big_outputs.py`, README); at 308k links the two are the same.

The advice is read from `NUMPY_MADVISE_HUGEPAGE` when numpy is imported, so the package sets
that variable before anything of aicnet's imports numpy (and tells an already imported numpy
directly).  A value the user set is kept: `NUMPY_MADVISE_HUGEPAGE=1 aicnet ...` brings the
advice back.  Child processes (the QR workers, the comparison host) inherit the setting.

Imports nothing but `os` and `sys` (the CLI's start-up stays light).
"""

from __future__ import annotations

import os
import sys

VARIABLE = "NUMPY_MADVISE_HUGEPAGE"
_set_here = False  # whether `prefer_small_pages` set the variable (not the user)


def prefer_small_pages() -> bool:
    """Turn numpy's huge-page advice off unless `NUMPY_MADVISE_HUGEPAGE` is set; True when
    aicnet turned it off (False: the user's setting is kept)."""
    global _set_here
    if VARIABLE in os.environ:
        return False
    os.environ[VARIABLE] = "0"
    _set_here = True
    numpy = sys.modules.get("numpy")
    if numpy is not None:  # imported before aicnet: numpy read the variable already
        core = getattr(numpy, "_core", None) or getattr(numpy, "core", None)
        setter = getattr(getattr(core, "multiarray", None), "_set_madvise_hugepage", None)
        if setter is not None:
            setter(False)
    return True


def users_environment(environment: dict[str, str]) -> dict[str, str]:
    """`environment` without the setting aicnet made here (the user's own is kept): what
    another program, or another version of aicnet measured beside this one, is to run with."""
    if _set_here:
        environment = {k: v for k, v in environment.items() if k != VARIABLE}
    return environment
