"""The NVIDIA UFM Cable Validation Tool (CVT) 1.7+ P2P workbook: a Nodes sheet and a Links sheet.

The Links sheet has the columns CVT 1.7.1 documents (NVIDIA UFM Cable Validation Tool v1.7.1,
Topology Files > P2P File, docs.nvidia.com/networking/display/cablevalidationtool171/p2p+file,
"The Links sheet ..."; page 15 of the v1.7.1 PDF): `A-Node, A-Port, Z-Node, Z-Port, Protocol`
(mandatory; protocol `ib`, `ethernet` or `nvlink`) and the optional `Shuffle-ID, A-Connector,
A-MPO-Connector, Z-Connector, Z-MPO-Connector, A-Module-PN, Z-Module-PN, Source-Ref`.  A host's
port is "the custom NIC name if available or the default NIC name" (`ip address show`): the
server port's Linux netdev name (`ibp220s0` on InfiniBand, `enp220s0np0` when its link runs
Ethernet; model/port_names_os.py), its design name where the catalog knows none; a switch
port is named as the cable plan names it (its OS's name with `--port-names os`).  aicnet fills the module part numbers (the optic in the cage, or the DAC/AOC
itself, of its ordered length, where the cable ends are integrated) and `Source-Ref`, the line
of the link in aicnet's cable schedule CSV (`--csv`; line 1 is the header); the four shuffle-cable columns stay empty, as
aicnet designs no shuffle cables.  CVT reads column names case-insensitively, in any order.

The Nodes sheet lists every node a link names ("must exist in the Nodes sheet").  Its column
names are not in the CVT documentation aicnet's authors could read; aicnet writes `Node`,
`Type` (Host / Switch, as in the older P2P sheet), `Rack`, `U` and `Model`: check them
against your CVT version's sample workbook.  The P2P file of CVT 1.4-1.6 (`export_p2p`,
cvt_p2p.py) stays available for older CVT.

Every cell goes through `xlsx_cells.CellWriter`: a text is a string cell (`write_string`),
never a formula, so a device named `=cmd|' /C calc'!A0` is that text in the workbook, and CVT
reads the exact node name (Excel's quote-prefix style marks it as text; no `'` is put into the
cell, which would change the name it matches).  Written with XlsxWriter: write-only, no dependencies, and `constant_memory` mode streams rows
to disk, so a 100k-link workbook does not sit in memory; the tests read the workbook back with
openpyxl, a separate implementation of the format.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import xlsxwriter
import xlsxwriter.exceptions
import xlsxwriter.format
import xlsxwriter.worksheet

from ..fileio.atomic import atomic_output
from ..model.document import FabricDocument
from ..model.fabric import FabricTechnology
from ..model.port_names_os import PortNamer
from .bom_lines import cable_part_numbers
from .cables import CablePlan, CableRow, End, build_plan
from .xlsx_cells import CellWriter

LINKS_HEADER: tuple[str, ...] = (
    "A-Node", "A-Port", "Z-Node", "Z-Port", "Protocol", "Shuffle-ID", "A-Connector",
    "A-MPO-Connector", "Z-Connector", "Z-MPO-Connector", "A-Module-PN", "Z-Module-PN",
    "Source-Ref",
)
NODES_HEADER: tuple[str, ...] = ("Node", "Type", "Rack", "U", "Model")
PROTOCOLS = {FabricTechnology.INFINIBAND: "ib", FabricTechnology.ROCEV2: "ethernet",
             FabricTechnology.ETHERNET: "ethernet"}


def _module_pn(end: End, row: CableRow) -> str:
    if end.optic_part is not None and end.optic_part.part_numbers:
        return end.optic_part.part_numbers[0]
    if end.optic == "integrated" and row.part is not None:
        first = cable_part_numbers(row.part, row.ordered_m).split(", ")[0]
        return "" if "(" in first else first  # no part number for that length: left empty
    return ""


def node_type(end: End) -> str:
    """CVT's node type: `Host` for a server, `Switch` for any switch."""
    return "Host" if end.dev.tier == 0 else "Switch"


def host_port(namer: PortNamer, end: End) -> str:
    """A server end's port as CVT 1.7.1 wants it (its netdev name); any other end as the plan
    names it."""
    if end.dev.tier != 0:
        return end.port
    return namer.name(end.dev.id, end.design_port or end.port, "linux-netdev")


def export_cvt_xlsx(doc: FabricDocument, out_path: str | os.PathLike[str],
                    plan: CablePlan | None = None, profile: str | None = None) -> int:
    """Write the CVT 1.7+ workbook; return the number of links."""
    plan = plan if plan is not None else build_plan(doc, profile)
    protocol = PROTOCOLS[FabricTechnology(doc.settings.technology)]
    save_workbook(out_path, lambda workbook: _write_workbook(workbook, doc, plan, protocol))
    return len(plan.rows)


def save_workbook(out_path: str | os.PathLike[str],
                  fill: Callable[[xlsxwriter.Workbook], None]) -> None:
    """Write a workbook atomically (the old file, or none, until it is whole): `fill` adds the
    sheets; XlsxWriter's `constant_memory` mode streams rows to disk."""
    with atomic_output(Path(out_path)) as handle:
        workbook = xlsxwriter.Workbook(handle, {"constant_memory": True})
        fill(workbook)
        try:
            workbook.close()
        except xlsxwriter.exceptions.FileCreateError as exc:
            cause = exc.args[0] if exc.args and isinstance(exc.args[0], OSError) else None
            raise OSError(getattr(cause, "errno", None),
                          getattr(cause, "strerror", None) or str(exc)) from None


def _write_workbook(workbook: xlsxwriter.Workbook, doc: FabricDocument, plan: CablePlan,
                    protocol: str) -> None:
    bold = workbook.add_format({"bold": True})
    cells = CellWriter(workbook)  # every text a string cell, never a formula (xlsx_cells.py)
    nodes_sheet = workbook.add_worksheet("Nodes")
    links_sheet = workbook.add_worksheet("Links")
    cells.write_cells(links_sheet, 0, LINKS_HEADER, bold)
    nodes: dict[str, End] = {}
    namer = PortNamer(doc)
    write_cell = cells.write_cell
    for line, row in enumerate(plan.rows, start=1):
        # the filled cells only (the shuffle columns stay empty)
        write_cell(links_sheet, line, 0, row.a.device)
        write_cell(links_sheet, line, 1, host_port(namer, row.a))
        write_cell(links_sheet, line, 2, row.b.device)
        write_cell(links_sheet, line, 3, host_port(namer, row.b))
        write_cell(links_sheet, line, 4, protocol)
        for column, end in ((10, row.a), (11, row.b)):
            write_cell(links_sheet, line, column, _module_pn(end, row))
        write_cell(links_sheet, line, 12, line + 1)
        for end in (row.a, row.b):
            nodes.setdefault(end.device, end)
    cells.write_cells(nodes_sheet, 0, NODES_HEADER, bold)
    for line, (name, end) in enumerate(sorted(nodes.items()), start=1):
        model = doc.device_model(end.dev.id)
        cells.write_cells(nodes_sheet, line, (
            name, node_type(end), end.rack, end.dev.ru if end.dev.ru else "",
            f"{model.vendor} {model.model}"))
    links_sheet.freeze_panes(1, 0)
    nodes_sheet.freeze_panes(1, 0)
