"""The NVIDIA UFM Cable Validation Tool (CVT) 1.7+ P2P workbook: a Nodes sheet and a Links sheet.

The Links sheet has the columns CVT 1.7.1 documents (docs.nvidia.com/networking/display/
cablevalidationtool171/p2p+file, "The Links sheet ..."): `A-Node, A-Port, Z-Node, Z-Port,
Protocol` (mandatory; protocol `ib`, `ethernet` or `nvlink`) and the optional `Shuffle-ID,
A-Connector, A-MPO-Connector, Z-Connector, Z-MPO-Connector, A-Module-PN, Z-Module-PN,
Source-Ref`.  aicnet fills the module part numbers (the optic in the cage, or the DAC/AOC
itself, of its ordered length, where the cable ends are integrated) and `Source-Ref`, the line
of the link in aicnet's cable schedule CSV (`--csv`; line 1 is the header); the four shuffle-cable columns stay empty, as
aicnet designs no shuffle cables.  CVT reads column names case-insensitively, in any order.

The Nodes sheet lists every node a link names ("must exist in the Nodes sheet").  Its column
names are not in the CVT documentation aicnet's authors could read; aicnet writes `Node`,
`Type` (Host / Switch, as in the older P2P sheet), `Rack`, `U` and `Model`: check them
against your CVT version's sample workbook.  The older one-sheet P2P CSV (`export_p2p`) stays
available for CVT before 1.7.

Written with XlsxWriter: write-only, no dependencies, and `constant_memory` mode streams rows
to disk, so a 100k-link workbook does not sit in memory; the tests read the workbook back with
openpyxl, a separate implementation of the format.
"""

from __future__ import annotations

import os
from pathlib import Path

import xlsxwriter
import xlsxwriter.exceptions

from ..fileio.atomic import atomic_output
from ..model.document import FabricDocument
from ..model.fabric import FabricTechnology
from .bom import cable_part_numbers
from .cables import CablePlan, CableRow, End, build_plan

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


def _node_type(end: End) -> str:
    return "Host" if end.dev.tier == 0 else "Switch"


def export_cvt_xlsx(doc: FabricDocument, out_path: str | os.PathLike[str],
                    plan: CablePlan | None = None, profile: str | None = None) -> int:
    """Write the CVT 1.7+ workbook; return the number of links."""
    plan = plan if plan is not None else build_plan(doc, profile)
    protocol = PROTOCOLS[FabricTechnology(doc.settings.technology)]
    with atomic_output(Path(out_path)) as handle:  # the old file, or none, until it is whole
        _write_workbook(xlsxwriter.Workbook(handle, {"constant_memory": True}), doc, plan, protocol)
    return len(plan.rows)


def _write_workbook(workbook: xlsxwriter.Workbook, doc: FabricDocument, plan: CablePlan,
                    protocol: str) -> None:
    bold = workbook.add_format({"bold": True})
    nodes_sheet = workbook.add_worksheet("Nodes")
    links_sheet = workbook.add_worksheet("Links")
    links_sheet.write_row(0, 0, LINKS_HEADER, bold)
    nodes: dict[str, End] = {}
    text, number = links_sheet.write_string, links_sheet.write_number
    for line, row in enumerate(plan.rows, start=1):
        # typed writes of the filled cells only (the shuffle columns stay empty): 7.3 s
        # instead of 8.9 s with write_row for the 98,304 links of a 128-SU fabric
        text(line, 0, row.a.device)
        text(line, 1, row.a.port)
        text(line, 2, row.b.device)
        text(line, 3, row.b.port)
        text(line, 4, protocol)
        for column, end in ((10, row.a), (11, row.b)):
            part = _module_pn(end, row)
            if part:
                text(line, column, part)
        number(line, 12, line + 1)
        for end in (row.a, row.b):
            nodes.setdefault(end.device, end)
    nodes_sheet.write_row(0, 0, NODES_HEADER, bold)
    for line, (name, end) in enumerate(sorted(nodes.items()), start=1):
        model = doc.device_model(end.dev.id)
        nodes_sheet.write_row(line, 0, (
            name, _node_type(end), end.rack, end.dev.ru if end.dev.ru else "",
            f"{model.vendor} {model.model}"))
    links_sheet.freeze_panes(1, 0)
    nodes_sheet.freeze_panes(1, 0)
    try:
        workbook.close()
    except xlsxwriter.exceptions.FileCreateError as exc:
        cause = exc.args[0] if exc.args and isinstance(exc.args[0], OSError) else None
        raise OSError(getattr(cause, "errno", None),
                      getattr(cause, "strerror", None) or str(exc)) from None
