"""The acceptance sheet as an export: what `all_reduce_perf` and `alltoall_perf` of nccl-tests
should show on a correct cluster, per workload, message size and job size (traffic/acceptance.py
computes it; this is its entry in the export registry, `aicnet export --acceptance-csv`)."""

from __future__ import annotations

import os

from ..model.document import FabricDocument
from ..traffic.acceptance import export_acceptance_csv


def export_acceptance(doc: FabricDocument, out_path: str | os.PathLike[str]) -> int:
    """Write the acceptance sheet of every workload of `doc` as CSV; the rows written."""
    return export_acceptance_csv(doc, out_path)
