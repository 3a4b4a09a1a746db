"""The fabric as a draw.io (diagrams.net) file, the diagram format many architects paste into
their documents: one page per view of aicnet.

* **Topology**: the same diagram as the PDF's topology page (`topology.build_diagram`): tiers as
  rows (core on top, servers at the bottom), devices shown one by one or grouped by SU, pod or
  rack when a tier is large, and all links between two boxes bundled into one edge whose width
  grows with the link count and whose label reads `count x speed`, in the PDF's colours.
* **Floor**: the racks where the floor view puts them (row and position, or x/y in metres),
  each a container holding its devices at their rack units.

Texts go through ElementTree's escaping and `xml_text` (model/text_safety.py: what XML 1.0
cannot hold at all is replaced).  The file is uncompressed `mxfile` XML (`<diagram><mxGraphModel><root><mxCell ...>`), which
draw.io opens and saves as it is; cells are plain shapes with `value`, `style` and
`mxGeometry`, edges name their `source` and `target` cells.
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from collections import defaultdict

from ..model.document import FabricDocument
from ..model.floor import rack_floor_xy
from ..model.rack_units import ru_text
from ..model.text_safety import xml_text
from .outfile import write_bytes
from .topology_diagram import (
    OTHER_COLOUR,
    PAIR_COLOUR,
    TIER_FILL,
    TIER_TITLES,
    _natural,
    _speed_text,
    build_diagram,
)

BOX_W, BOX_H, ROW_H, SLOT_W = 160, 60, 190, 190
RU_PX, RACK_W, RACK_GAP, ROW_GAP = 14, 150, 10, 80


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)


class _Page:
    """One `<diagram>` page and its cells."""

    def __init__(self, mxfile: ET.Element, page_id: str, name: str) -> None:
        diagram = ET.SubElement(mxfile, "diagram", id=page_id, name=name)
        model = ET.SubElement(diagram, "mxGraphModel", grid="1", gridSize="10", guides="1",
                              tooltips="1", connect="1", arrows="0", fold="1", page="0",
                              pageScale="1", math="0", shadow="0")
        self.root = ET.SubElement(model, "root")
        ET.SubElement(self.root, "mxCell", id="0")
        ET.SubElement(self.root, "mxCell", id="1", parent="0")
        self.prefix = page_id

    def vertex(self, cell_id: str, value: str, style: str, x: float, y: float, w: float,
               h: float, parent: str = "1") -> str:
        cell = ET.SubElement(self.root, "mxCell", id=f"{self.prefix}-{cell_id}",
                             value=xml_text(value), style=style, vertex="1", parent=parent)
        ET.SubElement(cell, "mxGeometry", {"x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}",
                                           "height": f"{h:g}", "as": "geometry"})
        return cell.get("id", "")

    def edge(self, cell_id: str, value: str, style: str, source: str, target: str) -> None:
        cell = ET.SubElement(self.root, "mxCell", id=f"{self.prefix}-{cell_id}",
                             value=xml_text(value), style=style, edge="1", parent="1",
                             source=source, target=target)
        ET.SubElement(cell, "mxGeometry", {"relative": "1", "as": "geometry"})


def _topology_page(page: _Page, doc: FabricDocument) -> None:
    diagram = build_diagram(doc)
    tiers = sorted({n.tier for n in diagram.nodes.values()}, reverse=True)
    cell_of: dict[str, str] = {}
    widest = max((sum(1 for n in diagram.nodes.values() if n.tier == t) for t in tiers), default=1)
    for row, tier in enumerate(tiers):
        nodes = sorted((n for n in diagram.nodes.values() if n.tier == tier),
                       key=lambda n: _natural(n.title))
        offset = (widest - len(nodes)) * SLOT_W / 2
        y = row * ROW_H
        how = diagram.grouping.get(tier, "device")
        label = TIER_TITLES.get(tier, f"tier {tier}")
        page.vertex(f"tier{tier}", f"{label} ({'each device' if how == 'device' else 'by ' + how})",
                    "text;html=0;align=right;verticalAlign=middle;fontStyle=1;", -190, y, 170,
                    BOX_H)
        fill = _hex(TIER_FILL.get(tier, (0.9, 0.9, 0.9)))
        for i, node in enumerate(nodes):
            models = ", ".join(f"{n}x {m}" if n > 1 else m for m, n in node.models.most_common(2))
            count = len(node.members)
            value = f"{node.title}\n{count} devices\n{models}" if count > 1 \
                else f"{node.title}\n{models}"
            cell_of[node.key] = page.vertex(
                f"n{len(cell_of)}", value,
                f"rounded=1;whiteSpace=wrap;html=0;fillColor={fill};strokeColor=#4d4d4d;",
                offset + i * SLOT_W, y, BOX_W, BOX_H)
    max_links = max((b.links for b in diagram.bundles), default=1)
    for index, bundle in enumerate(sorted(diagram.bundles, key=lambda b: (b.a, b.b))):
        a, b = diagram.nodes[bundle.a], diagram.nodes[bundle.b]
        colour = _hex(PAIR_COLOUR.get((min(a.tier, b.tier), max(a.tier, b.tier)), OTHER_COLOUR))
        width = 0.5 + 3.5 * math.log1p(bundle.links) / math.log1p(max_links)
        curved = "curved=1;" if a.tier == b.tier else ""
        page.edge(f"b{index}", _speed_text(bundle),
                  f"endArrow=none;html=0;{curved}strokeColor={colour};strokeWidth={width:.1f};"
                  "labelBackgroundColor=#ffffff;fontSize=9;",
                  cell_of[bundle.a], cell_of[bundle.b])


def _floor_page(page: _Page, doc: FabricDocument) -> None:
    params = doc.settings.lengths
    in_rack: dict[str, list] = defaultdict(list)
    for device in doc.devices.values():
        if device.rack in doc.racks and device.ru is not None:
            in_rack[device.rack].append(device)
    tallest = max((r.height_ru for r in doc.racks.values()), default=42) * RU_PX + 20
    x_scale = (RACK_W + RACK_GAP) / params.rack_width_m  # racks side by side, a gap between
    y_scale = (tallest + ROW_GAP) / params.row_pitch_m  # one row of racks per row pitch
    racks = sorted(doc.racks.values(), key=lambda r: (r.row, r.position, r.name))
    for index, rack in enumerate(racks):
        x_m, y_m = rack_floor_xy(rack, params)
        parent = page.vertex(
            f"r{index}", rack.name,
            "swimlane;startSize=20;html=0;fillColor=#f5f5f5;strokeColor=#666666;container=1;",
            x_m * x_scale, y_m * y_scale, RACK_W, rack.height_ru * RU_PX + 20)
        for device in sorted(in_rack[rack.id], key=lambda d: -(d.ru or 0)):
            model = doc.device_model(device)
            units = max(model.height_ru, 1)
            top_ru = device.ru + units - 1
            fill = _hex(TIER_FILL.get(doc.tier_of(device), (0.9, 0.9, 0.9)))
            page.vertex(f"d-{device.id}", f"{device.name} ({ru_text(device.ru)})",
                        f"rounded=0;whiteSpace=wrap;html=0;fontSize=9;fillColor={fill};",
                        4, 20 + (rack.height_ru - top_ru) * RU_PX, RACK_W - 8, units * RU_PX,
                        parent=parent)


def drawio_xml(doc: FabricDocument) -> bytes:
    """The draw.io file of `doc` (UTF-8 XML)."""
    mxfile = ET.Element("mxfile", host="aicnet", type="device")
    _topology_page(_Page(mxfile, "topology", "Topology"), doc)
    _floor_page(_Page(mxfile, "floor", "Floor"), doc)
    ET.indent(mxfile)
    return ET.tostring(mxfile, encoding="utf-8", xml_declaration=True)


def export_drawio(doc: FabricDocument, out_path: str | os.PathLike[str]) -> int:
    """Write the draw.io file; return the number of pages."""
    write_bytes(out_path, drawio_xml(doc))
    return 2
