"""One summary: `aicnet info` and the status bar's cached counts give the same numbers."""

from aicnet_gui.editing.counts import _CACHE, counts
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.summary import summarize


def test_status_bar_counts_are_the_summary_of_the_fabric(catalog):
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, leaf="nvidia-qm9700"))
    _CACHE.clear()
    summary, quick = summarize(doc), counts(doc)
    assert (quick.devices, quick.links, quick.racks, quick.workloads, quick.gpus) == (
        summary.devices, summary.links, summary.racks, summary.workloads, summary.gpus)
    assert quick.devices_by_role == summary.devices_by_role
    assert list(quick.links_by_tier.items()) == list(summary.links_by_tier.items())
    assert list(summary.links_by_tier) == ["server-leaf", "leaf-spine"]  # from the servers up
    assert summary.gpus == 32 * 8 and sum(summary.devices_by_model.values()) == summary.devices
