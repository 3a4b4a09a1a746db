"""The readers that take an opened file's ends as numbers (`FabricDocument.loaded_ends`) read
what they read from the ends' names: the analysis store's device rows and endpoints, and the
Topology scene's cable ends, on an opened generated design with cage modes (breakout ports);
and the numbers are given up at the first edit."""

from __future__ import annotations

import numpy as np
import pytest

from aicnet_gui.analysis.state import State
from aicnet_gui.fileio.fabric_file import dumps_fabric, loads_fabric
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import RemoveLink


@pytest.fixture(scope="module")
def opened(catalog) -> FabricDocument:
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=2, leaf="nvidia-sn5600", server="nvidia-dgx-b300",
                                      planes=2))
    opened = loads_fabric(dumps_fabric(doc), catalog, "plan.fabric")
    assert opened.loaded_ends() is not None
    return opened


def _without_numbers(doc: FabricDocument, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doc, "loaded_ends", lambda: None)


def _store_ends(doc: FabricDocument) -> dict[str, list]:
    store = State.load(doc, []).store
    return {name: store.l[name][:store.n_links].tolist()
            for name in ("a", "b", "a_ep", "b_ep", "a_opt", "b_opt")}


def test_the_store_reads_the_same_ends_from_the_numbers(opened, monkeypatch):
    fast = _store_ends(opened)
    _without_numbers(opened, monkeypatch)
    assert fast == _store_ends(opened)
    assert min(fast["a_ep"] + fast["b_ep"]) >= 0


def test_the_scene_reads_the_same_cable_ends_from_the_numbers(opened, monkeypatch):
    from aicnet_gui.gui.canvas.scene_data import topology_data

    fast = topology_data(opened)
    _without_numbers(opened, monkeypatch)
    slow = topology_data(opened)
    for name in ("coords", "dev_a", "dev_b", "pens", "speed_pens", "rails", "link_planes"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name
    assert fast.link_ids == slow.link_ids and len(fast.link_ids) == len(opened.links)
    used = [fast.used_of(row) for row in range(len(fast))]
    assert used == [slow.used_of(row) for row in range(len(slow))]
    assert sum(map(len, used)) == 2 * len(opened.links)  # every cable end's port, once


def test_the_device_index_is_the_same_made_from_the_numbers(catalog, opened, monkeypatch):
    """The device -> port -> link index made from the ends as numbers: the same dicts, their
    keys in the same order, as entering every end in link order; an edited copy, whose numbers
    are gone, makes it the other way and still agrees after the edit."""
    fast = opened.snapshot()
    fast.build_device_index()
    slow = opened.snapshot()
    _without_numbers(slow, monkeypatch)
    slow.build_device_index()
    assert list(fast._ends) == list(slow._ends) == list(opened.devices)
    assert all(list(fast._ends[d].items()) == list(slow._ends[d].items()) for d in slow._ends)
    assert sum(map(len, fast._ends.values())) == 2 * len(opened.links)
    made = opened.snapshot()._index_of_loaded_ends()  # the way `fast` made its index
    assert made is not None and list(made.items()) == list(slow._ends.items())
    for device_id in list(opened.devices)[::7]:
        assert fast.link_ids_of(device_id) == slow.link_ids_of(device_id)
    edited = opened.snapshot()
    first = next(iter(edited.links))
    edited.apply([RemoveLink(first)])
    assert edited.loaded_ends() is None
    ends = (opened.links[first].a.device, opened.links[first].b.device)
    assert all(first not in edited.link_ids_of(d) for d in ends)
    assert all(edited.link_ids_of(d) == slow.link_ids_of(d) - {first} for d in ends)


def test_an_edit_gives_the_numbers_up(catalog, opened):
    doc = opened.snapshot()
    assert doc.loaded_ends() is opened.loaded_ends()  # a copy holds the same links
    doc.apply([RemoveLink(next(iter(doc.links)))])
    assert doc.loaded_ends() is None
    assert opened.loaded_ends() is not None
