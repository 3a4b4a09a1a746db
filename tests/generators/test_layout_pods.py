"""The topology layout keeps each pod's SUs together, so a pod is a box of its own at fit zoom."""

from __future__ import annotations

from collections import defaultdict

import pytest

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument


def _pod_boxes(doc: FabricDocument) -> dict[str, tuple[float, float, float, float]]:
    """(left, top, right, bottom) of the servers and leaves of each pod, as placed."""
    boxes: dict[str, list[float]] = defaultdict(lambda: [float("inf"), float("inf"), -float("inf"),
                                                         -float("inf")])
    for device in doc.devices.values():
        pod = device.tags.get("pod")
        if pod is None or doc.tier_of(device.id) > 1:
            continue
        x, y = device.position
        box = boxes[pod]
        box[0], box[1] = min(box[0], x), min(box[1], y)
        box[2], box[3] = max(box[2], x + 1), max(box[3], y + 1)
    return {pod: tuple(box) for pod, box in boxes.items()}  # type: ignore[misc]


@pytest.mark.parametrize("params", [
    RailOptimizedParams(sus=16),  # pods of 4 SUs: used to share rows of 3
    RailOptimizedParams(sus=32),  # pods of 4, two per row
    RailOptimizedParams(sus=63, server="nvidia-dgx-b300", leaf="nvidia-q3400-ra", tiers="3",
                        sus_per_pod=9),  # pods of 9 SUs of 72, wider than a row
], ids=["16-su", "32-su", "b300-xdr-pods-of-9"])
def test_no_pod_reaches_into_another(params):
    doc = FabricDocument(builtin_catalog())
    generate(doc, params)
    boxes = _pod_boxes(doc)
    assert len(boxes) >= 3
    overlapping = [(p, q) for p, a in boxes.items() for q, b in boxes.items()
                   if p < q and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
    assert overlapping == []


def _rows(pods: list[str | None]) -> list[list[int]]:
    from aicnet_gui.generators import canvas_layout

    blocks = [(1000.0, {}, {}, 100.0, 400.0, 1000.0, 1000.0) for _ in pods]
    return canvas_layout._block_rows(blocks, pods)


@pytest.mark.parametrize("pods", [
    [f"p{i // 4}" for i in range(16)] + [None] * 24,  # a generated design plus racks added by hand
    ["big"] * 30 + [None] * 10,
    [f"p{i // 2}" for i in range(16)] + ["big"] * 12,
    [f"p{i // 9}" for i in range(61)],  # pods of 9, the last one of 7
], ids=["pods-then-loose-racks", "one-wide-pod", "small-pods-and-a-wide-one", "pods-of-9"])
def test_rows_keep_pods_whole_and_stay_compact(pods):
    rows = _rows(pods)
    assert sorted(i for row in rows for i in row) == list(range(len(pods)))
    for pod in {p for p in pods if p is not None}:
        spans = [row for row in rows if any(pods[i] == pod for i in row)]
        if len(spans) > 1:  # a pod over several rows has those rows to itself
            assert all(pods[i] == pod for row in spans for i in row)
        positions = [rows.index(row) for row in spans]
        assert positions == list(range(positions[0], positions[0] + len(positions)))
    widths = {len(row) for row in rows[:-1]}
    # rows are filled: never more rows than twice what the blocks need at the widest row
    assert len(rows) <= 2 * -(-len(pods) // max(widths | {1}))
