"""The topology diagram: tiers as rows, devices grouped (by SU, pod or rack; in a
multi-plane fabric switches also by plane), links bundled.

Every tier (servers at the bottom, then leaf, spine, core) is one row of boxes.  A tier with few
devices shows each device; a bigger tier groups them by their `su` tag (a leaf that serves
several SUs by its `sus` run: `SUs 3–4`), else `pod`, else rack, and merges neighbouring groups
when there are still too many for one row: within each plane, and the servers along the leaf
boxes' runs of SUs, so that a server box sits under the leaf boxes it is cabled to.  All links
between two boxes become one line whose width grows with the link count and whose label says
`count x speed`.  Vector drawing straight on the canvas; the legend explains colours and widths.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..generators.canvas_layout import sus_span
from ..model.document import FabricDocument
from ..model.wording import counted
from .pdfpage import Box, PdfWriter
from .pdftext import FastText

MAX_NODES = 12
TIER_TITLES = {0: "Servers / storage", 1: "Leaf", 2: "Spine", 3: "Core"}
TIER_FILL = {
    0: (0.87, 0.93, 0.87),
    1: (0.85, 0.89, 0.97),
    2: (0.96, 0.90, 0.82),
    3: (0.92, 0.86, 0.95),
}
PAIR_COLOUR = {
    (0, 1): (0.16, 0.45, 0.75),
    (1, 2): (0.85, 0.45, 0.10),
    (2, 3): (0.55, 0.25, 0.65),
    (0, 0): (0.4, 0.4, 0.4),
    (1, 1): (0.4, 0.4, 0.4),
    (2, 2): (0.4, 0.4, 0.4),
}
OTHER_COLOUR = (0.45, 0.45, 0.45)


def _natural(text: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def _box_order(title: str) -> list:
    """Boxes in natural order, a leaf group of SUs (`SUs 3–4`) among the single SUs."""
    return _natural(title.replace("SUs ", "SU ", 1))


def _su_span(tags: dict[str, str]) -> str | None:
    """The title of a leaf that serves several SUs (tag `sus` = "3-4", as the generators
    write it): `SUs 3–4`; None without a well-formed tag."""
    first, last = sus_span(tags.get("sus"))
    if first is None:
        return None
    return f"SU {first}" if first == last else f"SUs {first}–{last}"


@dataclass
class Node:
    key: str
    tier: int
    title: str
    members: list[str] = field(default_factory=list)
    models: Counter[str] = field(default_factory=Counter)
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0


@dataclass
class Bundle:
    a: str
    b: str
    links: int = 0
    speeds: Counter[int] = field(default_factory=Counter)


@dataclass
class Diagram:
    nodes: dict[str, Node]
    bundles: list[Bundle]
    grouping: dict[int, str]


_GROUP_TITLE = re.compile(r"^SUs? (\d+)(?:–(\d+))?(.*)$")


def _range_title(first: str, last: str) -> str:
    """`SU 1` and `SU 11` -> `SUs 1–11` (as the canvas titles a run of SUs), leaf groups
    `SUs 1–2` and `SUs 7–8` -> `SUs 1–8` (with the same plane after); `rack 1` and `rack 9` ->
    `rack 1…9`; otherwise `first … last`."""
    a, b = _GROUP_TITLE.match(first), _GROUP_TITLE.match(last)
    if a and b and a.group(3) == b.group(3):
        return f"SUs {a.group(1)}–{b.group(2) or b.group(1)}{a.group(3)}"
    a, b = re.match(r"^(.*?)(\d+)$", first), re.match(r"^(.*?)(\d+)$", last)
    if a and b and a.group(1) == b.group(1):
        return f"{a.group(1)}{a.group(2)}…{b.group(2)}"
    return f"{first} … {last}"


def _group_key(doc: FabricDocument, device_id: str, how: str) -> str:
    """The box a device is drawn in; a switch of a multi-plane fabric is grouped within its
    plane (`SU 1 plane 2`), so that the drawing shows each plane as its own fat tree."""
    device = doc.devices[device_id]
    if how == "device":
        return device.name
    plane = f" plane {device.plane}" if device.plane else ""
    if how == "su" and not device.tags.get("su"):
        span = _su_span(device.tags)
        if span is not None:
            return span + plane
    if how in ("su", "pod"):
        value = device.tags.get(how)
        return (f"{how.upper()} {value}" if value else "untagged") + plane
    rack = doc.racks.get(device.rack) if device.rack else None
    return (f"rack {rack.name}" if rack else "no rack") + plane


def _tagged(tags: dict[str, str], tag: str) -> bool:
    """Whether a device can be boxed by `tag`; by SU also a leaf that serves several."""
    return bool(tags.get(tag)) or (tag == "su" and _su_span(tags) is not None)


def _boxes(doc: FabricDocument, members: list[str],
           leaf_boxes: dict[str, list[str]] | None) -> tuple[str, dict[str, list[str]]]:
    """How a tier is boxed and its boxes (title -> devices), in order; too many boxes are
    merged into runs, a tier boxed by SU along the runs of SUs of `leaf_boxes` (the leaf
    tier's boxes by SU) where every box falls inside one of them."""
    if len(members) <= MAX_NODES:
        how = "device"
    else:
        how = "rack"
        for tag in ("su", "pod"):
            tagged = sum(1 for m in members if _tagged(doc.devices[m].tags, tag))
            if tagged >= 0.8 * len(members):
                how = tag
                break
    groups: dict[str, list[str]] = defaultdict(list)
    for device_id in members:
        groups[_group_key(doc, device_id, how)].append(device_id)
    names = sorted(groups, key=_box_order)
    if len(names) <= MAX_NODES:
        return how, {name: groups[name] for name in names}
    runs = _runs_along(names, leaf_boxes) if how == "su" and leaf_boxes else None
    if runs is None:
        runs = _runs_per_plane(names)
    merged: dict[str, list[str]] = {}
    for chunk in runs:
        title = chunk[0] if len(chunk) == 1 else _range_title(chunk[0], chunk[-1])
        merged[title] = [m for name in chunk for m in groups[name]]
    return how, {title: merged[title] for title in sorted(merged, key=_box_order)}


def _runs_per_plane(names: list[str]) -> list[list[str]]:
    """`names` cut into at most `MAX_NODES` runs of neighbours; in a multi-plane fabric each
    plane's boxes (`… plane 2`) are cut apart, so that no run mixes planes."""
    planes: dict[str, list[str]] = {}
    for name in names:
        head, sep, plane = name.rpartition(" plane ")
        planes.setdefault(plane if sep and head else "", []).append(name)
    per_plane = MAX_NODES // len(planes)
    if len(planes) == 1 or per_plane == 0:
        per = math.ceil(len(names) / MAX_NODES)
        return [names[i:i + per] for i in range(0, len(names), per)]
    runs: list[list[str]] = []
    for members in planes.values():
        per = math.ceil(len(members) / per_plane)
        runs += [members[i:i + per] for i in range(0, len(members), per)]
    return runs


def _su_numbers(title: str) -> range | None:
    """The SUs a box title names (`SU 3`, `SUs 3–4`, with a plane after), or None."""
    match = _GROUP_TITLE.match(title)
    if match is None:
        return None
    first = int(match.group(1))
    return range(first, int(match.group(2) or first) + 1)


def _runs_along(names: list[str], leaf_boxes: dict[str, list[str]]) -> list[list[str]] | None:
    """`names` (SU boxes in order) cut where the leaf boxes' runs of SUs end, so that a server
    box sits under one leaf box; None when a name is not an SU or crosses a run, or when the
    runs still make too many boxes."""
    run_of: dict[int, int] = {}
    for title in leaf_boxes:
        numbers = _su_numbers(title)
        if numbers is None:
            return None
        for su in numbers:
            run_of[su] = numbers.start
    runs: dict[int, list[str]] = {}
    for name in names:
        numbers = _su_numbers(name)
        starts = {run_of.get(su) for su in numbers} if numbers is not None else {None}
        if len(starts) != 1 or None in starts:
            return None
        runs.setdefault(starts.pop(), []).append(name)
    return list(runs.values()) if len(runs) <= MAX_NODES else None


def build_diagram(doc: FabricDocument) -> Diagram:
    """Nodes per tier (devices or groups) and the bundled links between them."""
    by_tier: dict[int, list[str]] = defaultdict(list)
    for device_id in doc.devices:
        by_tier[doc.tier_of(device_id)].append(device_id)
    node_of: dict[str, str] = {}
    nodes: dict[str, Node] = {}
    grouping: dict[int, str] = {}
    boxes: dict[int, dict[str, list[str]]] = {}
    # the leaves first: servers boxed by SU follow their leaf boxes' runs of SUs
    for tier in sorted(by_tier, key=lambda t: (t != 1, t)):
        grouping[tier], boxes[tier] = _boxes(doc, by_tier[tier],
                                             boxes.get(1) if grouping.get(1) == "su" else None)
    for tier in sorted(boxes):
        for name, members in boxes[tier].items():
            key = f"{tier}:{name}"
            node = nodes[key] = Node(key, tier, name)
            for device_id in members:
                node.members.append(device_id)
                node.models[doc.device_model(device_id).model] += 1
                node_of[device_id] = key
    bundles: dict[tuple[str, str], Bundle] = {}
    for link in doc.links.values():
        a, b = node_of[link.a.device], node_of[link.b.device]
        if nodes[a].tier > nodes[b].tier or (nodes[a].tier == nodes[b].tier and a > b):
            a, b = b, a
        bundle = bundles.get((a, b))
        if bundle is None:
            bundle = bundles[(a, b)] = Bundle(a, b)
        bundle.links += 1
        port = doc.port(link.a.device, link.a.port)
        bundle.speeds[port.speed_gbps if port else 0] += 1
    return Diagram(nodes, list(bundles.values()), grouping)


def _speed_text(bundle: Bundle) -> str:
    parts = [f"{n}x{s}G" if s else f"{n}" for s, n in sorted(bundle.speeds.items(), reverse=True)]
    return ", ".join(parts)


UNIFORM_MIN = 8
"""From this many lines between two tiers that all read the same (`18x800G`), the label is
printed once in the legend instead of on every line, where identical labels pile up."""


def uniform_labels(diagram: Diagram) -> dict[tuple[int, int], str]:
    """(tier, tier) -> the one label all of that pair's lines carry, for pairs of at least
    `UNIFORM_MIN` lines (a leaf-spine mesh where every leaf has 18x800G to every spine)."""
    texts: dict[tuple[int, int], set[str]] = {}
    lines: Counter[tuple[int, int]] = Counter()
    for bundle in diagram.bundles:
        a, b = diagram.nodes[bundle.a], diagram.nodes[bundle.b]
        if a.tier == b.tier:
            continue
        pair = (min(a.tier, b.tier), max(a.tier, b.tier))
        texts.setdefault(pair, set()).add(_speed_text(bundle))
        lines[pair] += 1
    return {pair: next(iter(t)) for pair, t in texts.items()
            if len(t) == 1 and lines[pair] >= UNIFORM_MIN}


def draw_topology(writer: PdfWriter, doc: FabricDocument, size: tuple[float, float]) -> None:
    """One landscape page with the diagram and its legend."""
    page = (max(size), min(size))
    box = writer.begin_page(page, "Topology")
    writer.bookmark("Topology", 0)
    diagram = build_diagram(doc)
    bold = writer.text(writer.fonts.bold)
    regular = writer.text()
    cond = writer.text(writer.fonts.cond)
    bold.text(box.left, box.top - 14, "Topology", 15)
    if not diagram.nodes:
        regular.text(box.left, box.top - 40, "The fabric has no devices yet.", 10)
        writer.end_page()
        return
    legend_w = 170.0
    area = Box(box.left + 70, box.bottom + 10, box.right - legend_w - 16, box.top - 30)
    row_h = _place_rows(doc, diagram, area, box.left, (bold, regular))
    # bundles under the boxes
    max_links = max((b.links for b in diagram.bundles), default=1)
    label_bundles = len(diagram.bundles) <= 48
    uniform = uniform_labels(diagram)
    _draw_bundles(writer, diagram, row_h, max_links, label_bundles, uniform)
    _draw_boxes(writer, diagram, bold, cond)  # boxes on top
    _legend(writer, Box(box.right - legend_w, box.bottom + 10, box.right, box.top - 30), diagram,
            doc, max_links, label_bundles, uniform)
    writer.end_page()


def _place_rows(doc: FabricDocument, diagram: Diagram, area: Box, left: float,
                fonts: tuple[FastText, FastText]) -> float:
    """Give every node its box, a row per tier in `area`, and write each row's tier and
    grouping at `left`; returns the height of a row."""
    bold, regular = fonts
    tiers = sorted({n.tier for n in diagram.nodes.values()})
    row_h = area.height / len(tiers)
    box_h = min(46.0, row_h * 0.42)
    for index, tier in enumerate(tiers):
        row_nodes = sorted((n for n in diagram.nodes.values() if n.tier == tier),
                           key=lambda n: _natural(n.title))
        centre_y = area.bottom + row_h * index + row_h / 2
        slot = area.width / len(row_nodes)
        width = min(slot * 0.86, 150.0)
        for i, node in enumerate(row_nodes):
            node.w, node.h = width, box_h
            node.x = area.left + slot * i + (slot - width) / 2
            node.y = centre_y - box_h / 2
        how = diagram.grouping.get(tier, "device")
        label = TIER_TITLES.get(tier, f"tier {tier}")
        bold.text(left, centre_y + 2, label, 8.5, width=66)
        sub = {"device": "each device", "su": "by SU", "pod": "by pod", "rack": "by rack"}[how]
        if how == "su" and any(n.title.startswith("SUs ") for n in row_nodes):
            sub = "by SU group"
        if how != "device" and any(doc.devices[m].plane for n in row_nodes for m in n.members):
            sub += ", plane"
        regular.text(left, centre_y - 8, f"({sub})", 7, width=66, rgb=(0.35, 0.35, 0.35))
    return row_h


def _draw_bundles(writer: PdfWriter, diagram: Diagram, row_h: float, max_links: int,
                  label_bundles: bool, uniform: dict[tuple[int, int], str]) -> None:
    """The bundles as lines (an arc within a tier), as wide as their link count, with their
    speed labels where they do not overlap (none for the pairs the legend labels)."""
    canvas = writer.canvas
    cond = writer.text(writer.fonts.cond)
    labels = []
    for bundle in sorted(diagram.bundles, key=lambda b: b.links):
        a, b = diagram.nodes[bundle.a], diagram.nodes[bundle.b]
        pair = (min(a.tier, b.tier), max(a.tier, b.tier))
        colour = PAIR_COLOUR.get(pair, OTHER_COLOUR)
        width = 0.5 + 3.5 * math.log1p(bundle.links) / math.log1p(max_links)
        canvas.setStrokeColorRGB(*colour)
        canvas.setLineWidth(width)
        if a.tier == b.tier:
            x1, x2 = a.x + a.w / 2, b.x + b.w / 2
            y = a.y + a.h
            path = canvas.beginPath()
            path.moveTo(x1, y)
            path.curveTo(x1, y + row_h * 0.3, x2, y + row_h * 0.3, x2, y)
            canvas.drawPath(path, stroke=1, fill=0)
            mx, my = (x1 + x2) / 2, y + row_h * 0.22
        else:
            x1, y1 = a.x + a.w / 2, a.y + a.h
            x2, y2 = b.x + b.w / 2, b.y
            canvas.line(x1, y1, x2, y2)
            if pair in uniform:
                continue  # the legend gives the label every line of this pair shares
            mx, my = _free_spot(cond, labels, _speed_text(bundle), x1, y1, x2, y2)
        if label_bundles:
            labels.append((mx, my, _speed_text(bundle)))
    for mx, my, text in labels:
        w = cond.width(text, 6.5) + 4
        canvas.setFillColorRGB(1, 1, 1)
        canvas.rect(mx - w / 2, my - 3, w, 9, stroke=0, fill=1)
        cond.text(mx, my - 0.5, text, 6.5, align="center")


def _draw_boxes(writer: PdfWriter, diagram: Diagram, bold: FastText, cond: FastText) -> None:
    """Every node's box: its title, its device count or model, and the models in a group."""
    canvas = writer.canvas
    canvas.setLineWidth(0.6)
    for node in diagram.nodes.values():
        canvas.setFillColorRGB(*TIER_FILL.get(node.tier, (0.9, 0.9, 0.9)))
        canvas.setStrokeColorRGB(0.3, 0.3, 0.3)
        canvas.roundRect(node.x, node.y, node.w, node.h, 4, stroke=1, fill=1)
        models = ", ".join(f"{n}x {m}" if n > 1 else m for m, n in node.models.most_common(2))
        count = len(node.members)
        size = min(8.0, max(5.5, node.h / 5.2))
        title, second = node.title, f"{count} devices" if count > 1 else models
        head, sep, plane = title.rpartition(" plane ")
        if sep and head and bold.fit(title, size, node.w - 6)[0] != title:
            # too narrow for `SUs 1–6 plane 1`: the plane takes the second line (the models'
            # line below counts the devices), not cut off
            title, second = head, f"plane {plane}"
        lines = [title, second]
        if count > 1 or second != models:
            lines.append(models)
        top = node.y + node.h / 2 + (len(lines) - 1) * size * 0.6 - size * 0.3
        for i, line in enumerate(lines):
            font = bold if i == 0 else cond
            font.text(node.x + node.w / 2, top - i * size * 1.15, line,
                      size if i == 0 else size - 0.8, width=node.w - 6, align="center")


def _free_spot(font: FastText, placed: list[tuple[float, float, str]], text: str,
               x1: float, y1: float, x2: float, y2: float) -> tuple[float, float]:
    """A point on the line whose label does not overlap the labels placed so far."""
    width = font.width(text, 6.5) + 6
    spots = [(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t) for t in (0.5, 0.36, 0.64, 0.26, 0.74)]
    for mx, my in spots:
        if all(abs(mx - px) > (width + font.width(pt, 6.5) + 6) / 2 + 10 or abs(my - py) > 10
               for px, py, pt in placed):
            return mx, my
    return spots[0]


def _legend(writer: PdfWriter, box: Box, diagram: Diagram, doc: FabricDocument,
            max_links: int, labelled: bool,
            uniform: dict[tuple[int, int], str] | None = None) -> None:
    canvas = writer.canvas
    bold = writer.text(writer.fonts.bold)
    regular = writer.text(writer.fonts.cond)
    canvas.setStrokeColorRGB(0.5, 0.5, 0.5)
    canvas.setLineWidth(0.5)
    canvas.rect(box.left, box.bottom, box.width, box.height, stroke=1, fill=0)
    y = box.top - 14
    x = box.left + 8
    bold.text(x, y, "Legend", 10)
    y -= 16
    bold.text(x, y, "Links", 8)
    y -= 12
    pairs = Counter()
    for bundle in diagram.bundles:
        a, b = diagram.nodes[bundle.a], diagram.nodes[bundle.b]
        pairs[(min(a.tier, b.tier), max(a.tier, b.tier))] += bundle.links
    names = {0: "server", 1: "leaf", 2: "spine", 3: "core"}
    for pair, count in sorted(pairs.items()):
        canvas.setStrokeColorRGB(*PAIR_COLOUR.get(pair, OTHER_COLOUR))
        canvas.setLineWidth(2.5)
        canvas.line(x, y + 2.5, x + 22, y + 2.5)
        regular.text(x + 28, y, f"{names[pair[0]]}-{names[pair[1]]}: {count} links", 7.5,
                     width=box.width - 40)
        y -= 12
        if uniform and pair in uniform:
            regular.text(x + 28, y, f"each line: {uniform[pair]}", 7.5, width=box.width - 40)
            y -= 12
    y -= 6
    bold.text(x, y, "Line width", 8)
    y -= 12
    for links in sorted({1, max(1, max_links // 10), max_links}):
        width = 0.5 + 3.5 * math.log1p(links) / math.log1p(max_links)
        canvas.setStrokeColorRGB(0.3, 0.3, 0.3)
        canvas.setLineWidth(width)
        canvas.line(x, y + 2.5, x + 22, y + 2.5)
        regular.text(x + 28, y, f"{counted(links, 'link')} in the bundle", 7.5)
        y -= 12
    y -= 6
    bold.text(x, y, "Boxes", 8)
    y -= 12
    for tier in sorted({n.tier for n in diagram.nodes.values()}):
        canvas.setFillColorRGB(*TIER_FILL.get(tier, (0.9, 0.9, 0.9)))
        canvas.setStrokeColorRGB(0.3, 0.3, 0.3)
        canvas.setLineWidth(0.5)
        canvas.rect(x, y - 1, 14, 8, stroke=1, fill=1)
        regular.text(x + 20, y, TIER_TITLES.get(tier, str(tier)), 7.5)
        y -= 12
    y -= 6
    notes = [
        "Each line bundles all links",
        "between two boxes; its label",
        "reads count x port speed." if labelled else "counts are in the legend above.",
        "A box is one device, or a group",
        "of devices (SU, pod or rack).",
        f"{len(doc.devices)} devices, {len(doc.links)} links.",
    ]
    regular.column(x, y, notes, 7.2, 9.5, width=box.width - 16, rgb=(0.3, 0.3, 0.3))
