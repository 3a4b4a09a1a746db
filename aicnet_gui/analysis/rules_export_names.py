"""SLURM-NAME: a device whose name the Slurm topology export cannot write as one name.

slurmctld reads `topology.conf` / `topology.yaml` as root, and a node or switch name there is
one token of its line parser and of its hostlist syntax: whitespace ends it, `#` starts a
comment, a backslash escapes, a double quote starts a quoted value, a comma separates names,
brackets are number ranges, and a name is at most 64 bytes (`model/text_safety.py`
`slurm_name_problem`, read from Slurm's `parse_config.c`, `hostlist.c`).  Quoting cannot help,
because the same name is also written inside hostlists.  `aicnet export --slurm` refuses such a
design (report/slurm.py); this rule says so while the design is drawn (for the servers and fabric
switches the export writes; management switches are not in it), naming the device and the
character, so the name is fixed before the export is asked for.  Control characters never get
this far: names refuse them on load and on every edit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..model.text_safety import SLURM_MAX_NAME, slurm_name_problem
from .findings import WARNING, Finding, Fix
from .state import Rule, State

#: a name that is certainly safe (ASCII, no character with a meaning to Slurm): the quick test
#: that lets a 100,000-device fabric skip the character walk
_PLAINLY_SAFE = re.compile(r"[A-Za-z0-9_.:@+/~-]{1," + str(SLURM_MAX_NAME) + "}")


def slurm_name_check(state: State, row: int) -> Iterable[Finding]:
    name = state.name(row)
    if state.store.d["mgmt"][row] or _PLAINLY_SAFE.fullmatch(name):
        return
    problem = slurm_name_problem(name)
    if problem is None:
        return
    yield Finding(
        "SLURM-NAME", WARNING,
        f"{name!r} cannot be written into Slurm's topology files ({problem}): "
        "`aicnet export --slurm` refuses the design until it is renamed",
        (state.dev_id(row),),
        Fix(f"rename {name!r} with letters, digits, '-', '_' or '.' only, at most "
            f"{SLURM_MAX_NAME} bytes"))


def slurm_name_candidates(state: State) -> Iterable[int]:
    store = state.store
    rows = store.device_rows()
    rows = rows[~store.d["mgmt"][rows]].tolist()  # management switches are not in Slurm's files
    return [row for row in rows if not _PLAINLY_SAFE.fullmatch(state.name(row))]


RULES = [Rule("slurm-name", "device", slurm_name_check, slurm_name_candidates, ("SLURM-NAME",))]
