"""The bulk end check of an opened file's links (model/end_check.py) says what a set of the
end tuples and a look-up of each end in its device's table say, on random designs with shared
tables, missing devices, missing ports and ports used twice; and a file whose links break it
is still refused at the offending link."""

from __future__ import annotations

import json
import random

import pytest

from aicnet_gui.fileio import FabricFileError
from aicnet_gui.fileio.fabric_file import dumps_fabric, loads_fabric
from aicnet_gui.generators import RailOptimizedParams, generate
from aicnet_gui.model.end_check import resolve_ends
from tests.test_pieces import dumps_like_aicnet


def _oracle(tables: dict[str, dict[str, object]], *columns: list[tuple[str, str]]) -> bool:
    ends = [end for column in columns for end in column]
    if len(set(ends)) != len(ends):
        return False
    return all(device in tables and port in tables[device] for device, port in ends)


def _random_case(rng: random.Random) -> tuple[dict[str, dict[str, object]], list, list]:
    shared = [{f"p{i}": object() for i in range(rng.randint(0, 6))} for _ in range(3)]
    tables = {f"d{i}": rng.choice(shared) if rng.random() < 0.8
              else {f"q{j}": object() for j in range(rng.randint(0, 4))}
              for i in range(rng.randint(0, 8))}
    devices = [*tables, "ghost"]
    names = ["p0", "p1", "p2", "p3", "p4", "p5", "q0", "q1", "q2", "zz"]

    def end() -> tuple[str, str]:
        device = rng.choice(devices)
        ports = list(tables.get(device, ()))
        if ports and rng.random() < 0.9:  # mostly a port the device has
            return device, rng.choice(ports)
        return device, rng.choice(names)

    def column() -> list[tuple[str, str]]:
        return [end() for _ in range(rng.randint(0, 4))]

    return tables, column(), column()


def test_the_check_agrees_with_sets_and_look_ups_on_random_designs():
    rng = random.Random(38)
    verdicts = []
    for _ in range(4000):
        tables, a, b = _random_case(rng)
        expected = _oracle(tables, a, b)
        assert (resolve_ends(tables, a, b) is not None) is expected, (tables, a, b)
        verdicts.append(expected)
    assert 200 < sum(verdicts) < 3800  # both answers were put to it


def test_values_at_the_ends_are_the_maps_read_at_each_end():
    """A reader's own per-device maps (shared, as the store's endpoint maps and the scene's
    port rows are) read at every end, as a dict look-up per end reads them."""
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        tables, a, b = _random_case(rng)
        resolved = resolve_ends(tables, a, b)
        if resolved is None:
            continue
        shared = [{name: rng.randint(0, 99) for name in ("p0", "p1", "p2", "p3", "q0", "q1")
                   if rng.random() < 0.7} for _ in range(3)]
        per_device = [rng.choice(shared) for _ in resolved.device_ids]
        maps = dict(zip(resolved.device_ids, per_device, strict=True))
        got_a, got_b = resolved.values_at_ends(per_device, -7)
        assert got_a.tolist() == [maps[device].get(port, -7) for device, port in a]
        assert got_b.tolist() == [maps[device].get(port, -7) for device, port in b]
        checked += len(a) + len(b)
    assert checked > 1000


def test_a_port_an_a_end_and_a_b_end_share_is_caught():
    table = {"p1": object(), "p2": object()}
    tables = {"s1": table, "s2": table}
    assert resolve_ends(tables, [("s1", "p1")], [("s2", "p1")]) is not None
    assert resolve_ends(tables, [("s1", "p1")], [("s1", "p1")]) is None
    assert resolve_ends(tables, [("s1", "p1"), ("s1", "p1")], []) is None


@pytest.fixture(scope="module")
def raw(catalog) -> bytes:
    from aicnet_gui.model.document import FabricDocument

    doc = FabricDocument(catalog)
    generate(doc, RailOptimizedParams(sus=1, leaf="nvidia-qm9700"))
    return dumps_fabric(doc)


def _dumped(raw: bytes, data: dict) -> bytes:
    return dumps_like_aicnet(raw, data["links"])


def test_a_file_whose_two_links_share_a_port_names_the_second_link(raw, catalog):
    links = json.loads(raw)["links"]
    links[20]["b"] = links[7]["a"]
    with pytest.raises(FabricFileError) as info:
        loads_fabric(_dumped(raw, {"links": links}), catalog, "plan.fabric")
    assert info.value.json_path == "$.links[20]"
    assert links[7]["a"][1] in str(info.value)


def test_a_file_whose_link_ends_on_no_device_names_that_link(raw, catalog):
    links = json.loads(raw)["links"]
    links[300]["a"] = ["no-such-server", links[300]["a"][1]]
    with pytest.raises(FabricFileError, match="no-such-server") as info:
        loads_fabric(_dumped(raw, {"links": links}), catalog, "plan.fabric")
    assert info.value.json_path == "$.links[300]"
