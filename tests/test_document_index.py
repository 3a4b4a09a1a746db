"""The document's device -> port -> link index answers as the links say, whether it was made
before the edits (kept up to date by each), only begun (the editor makes it a part at a time),
or after them (made from the links then), on a design built in memory and on the same design
opened from its file (links as columns)."""

from __future__ import annotations

import random

import pytest

from aicnet_gui.fileio.fabric_file import dumps_fabric, loads_fabric
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.document import FabricDocument, ModelError
from aicnet_gui.model.edits import (
    AddDevice,
    AddLink,
    AddRack,
    AddWorkload,
    RemoveDevice,
    RemoveLink,
    UpdateLink,
)


def by_brute_force(doc: FabricDocument) -> dict[tuple[str, str], str]:
    ends = {}
    for link in doc.links.values():
        ends[tuple(link.a)] = link.id
        ends[tuple(link.b)] = link.id
    return ends


def assert_index_answers(doc: FabricDocument) -> None:
    ends = by_brute_force(doc)
    for device_id in doc.devices:
        ports = doc.ports(device_id)
        assert doc.free_ports(device_id) == [p for p in ports if (device_id, p) not in ends]
        assert doc.link_ids_of(device_id) == {i for (d, _p), i in ends.items() if d == device_id}
        assert set(doc.linked_ports(device_id)) == {p for (d, p) in ends if d == device_id}
        assert doc.links_of(device_id) == sorted((doc.links[i] for i in doc.link_ids_of(device_id)),
                                                 key=lambda lk: lk.id)
        for port in ports:
            link = doc.link_at(device_id, port)
            assert (link.id if link else None) == ends.get((device_id, port))


@pytest.fixture(scope="module")
def generated(catalog) -> bytes:
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, leaf="nvidia-qm9700"))
    return dumps_fabric(doc)


@pytest.mark.parametrize("opened", [False, "opened", "opened, index as asked"],
                         ids=["built", "opened", "opened-lazy"])
@pytest.mark.parametrize("index_first", [None, 50, 10**9], ids=["index-after", "index-in-part",
                                                                  "index-before"])
def test_edits_keep_the_end_index_true(generated, catalog, opened, index_first, monkeypatch):
    """The index answers as the links say after random edits: made from the links, from an
    opened file's ends as numbers whole, or a device at a time (`LoadedIndex`, which a file
    this small gets only with LAZY_FROM_LINKS lowered)."""
    from aicnet_gui.model import device_index

    lazy = opened == "opened, index as asked"
    if lazy:
        monkeypatch.setattr(device_index, "LAZY_FROM_LINKS", 0)
    doc = loads_fabric(generated, catalog)
    if not opened:  # the same design with its links as objects
        built = FabricDocument(catalog)
        built.apply([AddRack(r) for r in doc.racks.values()])
        built.apply([AddDevice(d) for d in doc.devices.values()])
        built.apply([AddLink(lk) for lk in doc.links.values()])
        built.apply([AddWorkload(w) for w in doc.workloads.values()])
        doc = built
    if index_first is not None:  # made before the edits, whole or only its first ends (an
        # index made as asked answers every device at once: model/device_index.py)
        assert doc.build_device_index(index_first) == (lazy or index_first > 2 * len(doc.links))
    assert isinstance(doc._ends, device_index.LoadedIndex) == (lazy and index_first is not None)
    rng = random.Random(7)
    undo = []
    for _step in range(60):
        link_ids = list(doc.links)
        choice = rng.random()
        if choice < 0.3 and link_ids:
            undo.append(doc.apply([RemoveLink(rng.choice(link_ids))]).inverse)
        elif choice < 0.55 and link_ids:
            link = doc.links[rng.choice(link_ids)]
            free = doc.free_ports(link.b.device)
            if free:  # move its far end to a free port of the same switch
                undo.append(doc.apply([UpdateLink(link.id, {"b": (link.b.device, free[0])})]).inverse)
        elif choice < 0.65:
            server = rng.choice([d for d in doc.devices if d.startswith("gpu")])
            undo.append(doc.apply([RemoveDevice(server)]).inverse)
        elif undo:
            doc.apply(undo.pop())
    assert_index_answers(doc)
    # a port in use is refused, with the link that holds it
    link = doc.links[next(iter(doc.links))]
    other = next(lk for lk in doc.links.values() if lk.a.device != link.a.device)
    with pytest.raises(ModelError, match="already carries"):
        doc.apply([UpdateLink(other.id, {"a": link.a})])
    assert_index_answers(doc)
