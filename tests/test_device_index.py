"""The device -> port -> link index an opened file makes a device at a time from its ends as
numbers (model/device_index.py `LoadedIndex`) answers as the index made from the links: through
random edits (links removed and put back, devices removed and put back, their undo) and
questions about random devices, and as a whole afterwards, its keys in the same order; it is
made whole after `LAZY_DEVICES` devices or at the first look at it as a whole."""

from __future__ import annotations

import random

import pytest

from aicnet_gui.fileio.fabric_file import dumps_fabric, loads_fabric
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model import device_index
from aicnet_gui.model.device_index import LoadedIndex
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.edits import AddDevice, RemoveDevice, RemoveLink


@pytest.fixture(autouse=True)
def _as_asked_at_any_size(monkeypatch):  # noqa: ANN001, ANN202
    """This small design gets the index made as asked (from LAZY_FROM_LINKS links otherwise)."""
    monkeypatch.setattr(device_index, "LAZY_FROM_LINKS", 0)


@pytest.fixture(scope="module")
def raw(catalog) -> bytes:
    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=2, leaf="nvidia-sn5600", server="nvidia-dgx-b300",
                                      planes=2))
    return dumps_fabric(doc)


def _opened(raw: bytes, catalog, numbers: bool, monkeypatch=None) -> FabricDocument:  # noqa: ANN001
    doc = loads_fabric(raw, catalog, "plan.fabric")
    assert doc.loaded_ends() is not None
    if not numbers:
        monkeypatch.setattr(doc, "loaded_ends", lambda: None)
    return doc


def _answers(doc: FabricDocument, device_id: str) -> tuple:
    return (sorted(doc.link_ids_of(device_id)), list(doc.linked_ports(device_id)),
            doc.free_ports(device_id)[:5])


@pytest.mark.parametrize("lazy_devices", [100, 100_000], ids=["made whole midway", "lazy"])
@pytest.mark.parametrize("seed", range(4))
def test_the_index_made_as_asked_answers_as_the_one_made_from_the_links(raw, catalog, seed,
                                                                       lazy_devices, monkeypatch):
    monkeypatch.setattr(device_index, "LAZY_DEVICES", lazy_devices)
    rng = random.Random(seed)
    lazy = _opened(raw, catalog, numbers=True)
    whole = _opened(raw, catalog, numbers=False, monkeypatch=monkeypatch)
    devices = list(lazy.devices)
    undo: list = []
    for _step in range(60):
        for device_id in rng.sample(devices, 3):
            if device_id in lazy.devices:
                assert _answers(lazy, device_id) == _answers(whole, device_id), device_id
        kind = rng.random()
        if kind < 0.4 and lazy.links:
            link_id = rng.choice(list(lazy.links))
            ops = [RemoveLink(link_id)]
        elif kind < 0.6:
            device_id = rng.choice([d for d in devices if d in lazy.devices])
            ops = [RemoveDevice(device_id)]
        elif kind < 0.7:
            model = lazy.devices[devices[0]]
            ops = [AddDevice(model.model_copy(update={"id": f"new-{_step}", "name": f"new-{_step}",
                                                      "rack": None, "ru": None}))]
        elif undo:
            ops = undo.pop()
        else:
            continue
        undo.append(lazy.apply(ops).inverse)
        whole.apply(ops)
    assert isinstance(lazy._ends, LoadedIndex)
    lazy.build_device_index()
    whole.build_device_index()
    assert not lazy._ends.lazy()
    assert list(lazy._ends.items()) == list(whole._ends.items())
    assert list(lazy._ends) == list(lazy.devices)  # the document's order of devices


def test_the_index_is_made_whole_after_so_many_devices(raw, catalog, monkeypatch):
    monkeypatch.setattr(device_index, "LAZY_DEVICES", 4)
    doc = _opened(raw, catalog, numbers=True)
    reference = _opened(raw, catalog, numbers=True)._index_of_loaded_ends()
    devices = list(doc.devices)
    for device_id in devices[:4]:
        doc.link_ids_of(device_id)
    assert doc._ends.lazy() and dict.__len__(doc._ends) == 4
    doc.link_ids_of(devices[10])
    assert not doc._ends.lazy() and dict.__len__(doc._ends) == len(devices)
    assert list(doc._ends.items()) == list(reference.items())


def test_a_look_at_the_whole_makes_it_whole_and_a_copy_has_its_own(raw, catalog):
    doc = _opened(raw, catalog, numbers=True)
    first = next(iter(doc.links))
    server = doc.links[first].a.device
    assert first in doc.link_ids_of(server) and doc._ends.lazy()
    copy = doc.snapshot()
    copy.apply([RemoveLink(first)])
    assert first not in copy.link_ids_of(server) and first in doc.link_ids_of(server)
    assert doc._ends.lazy()
    assert server in doc._ends and not doc._ends.lazy()  # membership reads the whole
    assert len(doc._ends) == len(doc.devices)


def test_the_editor_gets_the_index_at_once_after_its_first_frame(raw, catalog, monkeypatch):
    """`build_device_index` with a budget (the editor's slices after its first frame) gives
    an opened file the index made as asked: nothing to enter in parts; a file under
    LAZY_FROM_LINKS links gets a plain dict, made whole when first asked for."""
    doc = _opened(raw, catalog, numbers=True)
    assert doc.build_device_index(100) and isinstance(doc._ends, LoadedIndex)
    assert doc._ends.lazy() and dict.__len__(doc._ends) == 0
    monkeypatch.setattr(device_index, "LAZY_FROM_LINKS", len(doc.links) + 1)
    small = _opened(raw, catalog, numbers=True)
    assert small.link_ids_of(next(iter(small.devices))) and type(small._ends) is dict
