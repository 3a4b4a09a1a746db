"""Timings of the files other tools read (issue 18), on the 4,096-server rail-optimized fabric
(128 SUs, ~98k links) and on superpod-1su.

    .venv/bin/python benchmarks/bench_interchange.py

NetBox 4.5 import, CVT 1.7 workbook, Slurm topology, draw.io diagram, and the JSON Schemas.
Each export gets the cable plan built once (as `aicnet export` does).  Prints one line per
measurement; no assertions.
"""

from __future__ import annotations

import gc
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aicnet_gui.catalog.loader import builtin_catalog  # noqa: E402
from aicnet_gui.fileio import load_fabric  # noqa: E402
from aicnet_gui.fileio.schemas import json_schema  # noqa: E402
from aicnet_gui.generators import RailOptimizedParams, generate  # noqa: E402
from aicnet_gui.model.document import FabricDocument  # noqa: E402
from aicnet_gui.report import build_plan, export_netbox  # noqa: E402
from aicnet_gui.report.cvt_xlsx import export_cvt_xlsx  # noqa: E402
from aicnet_gui.report.drawio import export_drawio  # noqa: E402
from aicnet_gui.report.slurm import export_slurm  # noqa: E402


def timed(what: str, run) -> None:  # noqa: ANN001
    gc.collect()
    start = time.perf_counter()
    run()
    print(f"{what:<56} {time.perf_counter() - start:7.2f} s", flush=True)


def exports(name: str, doc: FabricDocument, out: Path) -> None:
    plans = []
    timed(f"{name}: cable plan of {len(doc.links)} links", lambda: plans.append(build_plan(doc)))
    plan = plans[0]
    timed(f"{name}: NetBox 4.5 import (CSVs + device types)",
          lambda: export_netbox(doc, out / f"{name}-netbox", plan=plan))
    timed(f"{name}: CVT 1.7 workbook", lambda: export_cvt_xlsx(doc, out / f"{name}.xlsx", plan=plan))
    timed(f"{name}: Slurm topology.conf + topology.yaml",
          lambda: export_slurm(doc, out / f"{name}-slurm"))
    timed(f"{name}: draw.io diagram", lambda: export_drawio(doc, out / f"{name}.drawio"))


def main() -> None:
    catalog = builtin_catalog()
    timed("JSON Schemas of .fabric and catalog files",
          lambda: (json_schema("fabric"), json_schema("catalog")))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        exports("superpod-1su", load_fabric(ROOT / "examples" / "superpod-1su.fabric", catalog),
                out)
        doc = FabricDocument(catalog)
        generate(doc, RailOptimizedParams(sus=128))
        exports("128 SU", doc, out)


if __name__ == "__main__":
    main()
