"""The P2P file of NVIDIA's UFM Cable Validation Tool 1.4 to 1.6, for CVT versions older than the
Nodes/Links workbook of 1.7 (cvt_xlsx.py).

NVIDIA UFM Cable Validation Tool v1.4.0, v1.5.0 and v1.6.0, Topology Files > P2P File
(docs.nvidia.com/networking/display/cablevalidationtool150/p2p+file and the 1.4.0, 1.6.0 pages
of the same title) define it as "an Excel file that details the physical link connections
within the fabric.  It may consist of multiple sheets, each containing the following columns":
`A-Node Name, A-Type, A-Port, Z-Node Name, Z-Type, Z-Port`, the type `Host` or `Switch`
("applicable for Ethernet"); the tool "relies on the header names".  Their examples add the
rack and unit of each end (`A-Rack, A-U ... Z-Rack, Z-RU`); aicnet writes them as `A-Rack, A-U,
Z-Rack, Z-U`, after the six columns.  Ports, as the pages give them:

* InfiniBand: an HCA port is a number, mapped by default "1 -> mlx5_0 P1, 2 -> mlx5_1 P1, and so
  on" (the HCA mapping file of Optional Files): aicnet writes N + 1 for a port whose RDMA
  device is `mlx5_N`; a switch port "a single number or a split port (e.g., 1/2)";
* NVOS (XDR): switch ports `sw<port>p<split>`; HCA ports as InfiniBand;
* Ethernet: switch ports `swp<port>s<split>`, host ports `rail<port_number>` (the same port
  number).

Switch ports are written as the cable plan names them (the OS's names with `--port-names os`:
Cumulus `swp3s0`, NVOS `sw3p1`).  A server port whose RDMA device the catalog does not know
keeps its design name.

`export_p2p_xlsx` writes the Excel file the pages describe (one sheet, `P2P`); csv_exports'
`export_p2p` writes it for `OUT.xlsx` and the same rows as CSV for any other name, as aicnet
wrote it before.  Every workbook cell goes through xlsx_cells.CellWriter (a string, never a
formula).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import xlsxwriter

from ..model.document import FabricDocument
from ..model.fabric import FabricTechnology
from ..model.port_names_os import PortNamer
from .cables import CablePlan, CableRow, End, build_plan
from .cvt_xlsx import node_type, save_workbook
from .xlsx_cells import CellWriter

P2P_HEADER: tuple[str, ...] = (
    "A-Node Name", "A-Type", "A-Port", "Z-Node Name", "Z-Type", "Z-Port",
    "A-Rack", "A-U", "Z-Rack", "Z-U",
)
SHEET = "P2P"
_MLX5 = re.compile(r"^mlx5_(\d+)$")


def hca_port(namer: PortNamer, end: End, ethernet: bool) -> str:
    """A server port as the P2P file numbers it: mlx5_N -> N + 1 (`rail<N+1>` on Ethernet);
    its design name when its RDMA device is not known."""
    rdma = namer.name(end.dev.id, end.design_port or end.port, "linux-rdma")
    match = _MLX5.match(rdma)
    if match is None:
        return end.port
    number = int(match.group(1)) + 1
    return f"rail{number}" if ethernet else str(number)


def _ru(end: End) -> int | str:
    return end.dev.ru if end.dev.ru is not None else ""  # its lowest unit (model/rack_units.py)


def p2p_rows(doc: FabricDocument, plan: CablePlan) -> Iterator[list[object]]:
    """The P2P rows of a cable plan (columns of `P2P_HEADER`)."""
    namer = PortNamer(doc)
    ethernet = FabricTechnology(doc.settings.technology) != FabricTechnology.INFINIBAND

    def port(end: End) -> str:
        return hca_port(namer, end, ethernet) if end.dev.tier == 0 else end.port

    row: CableRow
    for row in plan.rows:
        yield [row.a.device, node_type(row.a), port(row.a), row.b.device, node_type(row.b),
               port(row.b), row.a.rack, _ru(row.a), row.b.rack, _ru(row.b)]


def export_p2p_xlsx(doc: FabricDocument, out_path: str | os.PathLike[str],
                    plan: CablePlan | None = None, profile: str | None = None) -> int:
    """The CVT 1.4-1.6 P2P Excel file; returns the number of links."""
    plan = plan if plan is not None else build_plan(doc, profile)
    rows = p2p_rows(doc, plan)

    def fill(workbook: xlsxwriter.Workbook) -> None:
        sheet = workbook.add_worksheet(SHEET)
        writer = CellWriter(workbook)
        writer.write_cells(sheet, 0, P2P_HEADER, workbook.add_format({"bold": True}))
        for line, cells in enumerate(rows, start=1):
            writer.write_cells(sheet, line, cells)
        sheet.freeze_panes(1, 0)

    save_workbook(out_path, fill)
    return len(plan.rows)
