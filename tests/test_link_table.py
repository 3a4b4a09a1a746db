"""The document's link table reads as the dict it replaced: same ids in the same order, same
values, same columns, whatever was loaded as columns and whatever was put or removed since; a
copy goes its own way; a loaded link is one object however often it is asked for."""

from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aicnet_gui.model.fabric import Endpoint, Link
from aicnet_gui.model.link_table import FIELDS, LinkColumns, LinkTable, columns_from_rows


def row(i: int, **extra) -> dict:
    """A link as a file holds it (JSON values only)."""
    return {"id": f"l{i}", "a": [f"s{i}", "p1"], "b": [f"w{i % 3}", f"{i}/1"], **extra}


LOADED = [row(0, cable="c1", rail=1), row(1), row(2, length_m=7.5, colour="blue"),
          row(3, plane="1", pinned=True, notes="spare"), row(4, patch={"mated_pairs": 4}),
          row(5, assembly="asm-1", cable="c2")]


def loaded_table(rows=LOADED, piece=2) -> LinkTable:
    pieces = iter([rows[i:i + piece] for i in range(0, len(rows), piece)])
    return LinkTable(LinkColumns.validated(columns_from_rows(pieces)))


def as_link(data: dict) -> Link:
    return Link.model_validate(data)


def test_loaded_links_are_the_links_pydantic_reads():
    table = loaded_table()
    assert list(table) == [r["id"] for r in LOADED]
    assert table.values() == [as_link(r) for r in LOADED]
    assert isinstance(table["l0"].a, Endpoint) and table["l0"].a.device == "s0"
    assert table["l4"].patch.mated_pairs == 4
    assert table["l1"] is table["l1"] and table.copy()["l1"] is table["l1"]


def test_columns_and_tokens_follow_the_values():
    table = loaded_table()
    table.put(table["l2"].model_copy(update={"rail": 6}))
    table.remove("l3")
    table.put(as_link(row(9, cable="c9")))
    for name in FIELDS:
        assert table.column(name) == [getattr(link, name) for link in table.values()], name
    tokens = table.tokens()
    assert table.resolve(tokens) == table.values()
    assert tokens[0] is table.tokens()[0]  # a link as loaded: the same token every time
    assert tokens[2] is table["l2"]  # a changed one: its Link


def test_bad_columns_are_refused_with_pydantics_reason():
    with pytest.raises(ValueError, match="unknown link field 'colur'"):
        columns_from_rows(iter([[row(0, colur="red")]]))
    with pytest.raises(ValueError, match="without .b."):
        columns_from_rows(iter([[{"id": "x", "a": ["d", "p"]}]]))
    for bad in ({"rail": 500}, {"length_m": 0}, {"a": ["dev", ""]}, {"cable": "x" * 200},
                {"pinned": "maybe"}, {"patch": {"mated_pairs": -1}}):
        raw = columns_from_rows(iter([[row(0), {**row(1), **bad}]]))
        with pytest.raises(ValueError):  # pydantic's ValidationError is a ValueError
            LinkColumns.validated(raw)


def test_a_removed_loaded_link_put_back_as_it_was_takes_its_place_again():
    table = loaded_table()
    before = table.tokens()
    kept = table["l2"]
    table.remove("l2")
    assert "l2" not in table and len(table) == len(LOADED) - 1
    table.put(kept)  # an undo
    assert list(table) == [r["id"] for r in LOADED]
    # every token as before: a save reuses every line it read
    assert all(map(operator.is_, table.tokens(), before))
    # a different link under that id is a new link: it goes last, as in a dict
    table.remove("l2")
    table.put(as_link(row(2, rail=3)))
    assert list(table)[-1] == "l2"


operations = st.lists(st.tuples(st.sampled_from(["put", "change", "remove", "copy"]),
                                st.integers(0, 9), st.integers(0, 5)), max_size=40)


@settings(max_examples=200, deadline=None)
@given(operations)
def test_any_edits_read_as_a_dict(ops):
    """Random puts, changes and removes (new links, new values, ids removed and used again)
    leave the table reading as a dict that had the same edits."""
    table = loaded_table()
    mirror = {r["id"]: as_link(r) for r in LOADED}
    copies = []
    for op, i, rail in ops:
        link_id = f"l{i}"
        if op == "put" and link_id not in mirror:
            link = as_link(row(i, rail=rail))
            table.put(link)
            mirror[link_id] = link
        elif op == "change" and link_id in mirror:
            link = table[link_id].model_copy(update={"rail": rail})
            table.put(link)
            mirror[link_id] = link
        elif op == "remove" and link_id in mirror:
            table.remove(link_id)
            del mirror[link_id]
        elif op == "copy":
            copies.append((table.copy(), dict(mirror)))
    assert list(table) == list(mirror)
    assert table == mirror and len(table) == len(mirror)
    assert table.values() == list(mirror.values())
    assert table.column("rail") == [link.rail for link in mirror.values()]
    assert table.resolve(table.tokens()) == list(mirror.values())
    some = sorted(mirror)[::2]
    assert table.pick(some) == [mirror[i] for i in some]
    for i in range(12):
        assert (f"l{i}" in table) == (f"l{i}" in mirror)
        assert table.get(f"l{i}") == mirror.get(f"l{i}")
    assert table.isdisjoint({f"l{i}" for i in range(10, 12)})
    assert table.isdisjoint(set(mirror)) == (not mirror)
    for copy, then in copies:  # a copy kept what the table held when it was made
        assert list(copy) == list(then) and copy == then


def test_an_opened_design_edits_and_saves_like_the_design_it_was(catalog):
    """The same edits on a generated design and on that design saved and opened again (its
    links as columns) leave equal documents, and each saves what it holds."""
    from aicnet_gui.fileio.fabric_file import dumps_fabric, loads_fabric
    from aicnet_gui.generators import RailOptimizedParams, generate
    from aicnet_gui.model.document import FabricDocument
    from aicnet_gui.model.edits import RemoveDevice, UpdateLink

    built = FabricDocument(catalog)
    generate(built, RailOptimizedParams(sus=1, leaf="nvidia-qm9700"))
    opened = loads_fabric(dumps_fabric(built), catalog)
    assert opened.links == built.links and list(opened.links) == list(built.links)
    first, last = next(iter(built.links)), list(built.links)[-1]
    server = built.links[first].a.device
    for doc in (built, opened):
        snapshot = doc.snapshot()
        doc.apply([UpdateLink(last, {"length_m": 42.0})])
        removed = doc.apply([RemoveDevice(server)])
        assert first not in doc.links and first in snapshot.links
        doc.apply(removed.inverse)  # the server and its 8 links back
        assert doc.link_at(server, snapshot.links[first].a.port) == snapshot.links[first]
    assert opened.links == built.links and opened.devices == built.devices
    assert opened.links[last].length_m == 42.0
    assert loads_fabric(dumps_fabric(opened), catalog).links == built.links
    # an undone removal puts the opened design's links back where they were in the file
    assert list(opened.links) == list(snapshot.links)


def test_ids_with_a_field_set_follow_every_edit():
    table = loaded_table()
    assert table.ids_with("patch") == ["l4"] and table.ids_with("assembly") == ["l5"]
    assert table.ids_with("length_m") == ["l2"]
    table.put(table["l1"].model_copy(update={"length_m": 3.0}))
    table.put(as_link(row(8, length_m=9.0)))
    table.remove("l2")
    assert table.ids_with("length_m") == ["l1", "l8"]
    assert loaded_table([row(0), row(1)]).ids_with("patch") == []


def test_membership_answers_the_same_before_and_after_the_id_index_is_made():
    """The first questions scan the ids instead of making the id -> row index (a load asks a
    few); the answers are the index's, and a removed link is not in the table either way."""
    from aicnet_gui.model.link_table import SCANS_BEFORE_ROW

    table = loaded_table()
    asked = ["l0", "l5", "nope", "l3", 7, "l0"]
    answers = [i in table for i in asked]
    assert answers == [True, True, False, True, False, True]
    assert table._base._row is None  # not made for these
    for _ in range(SCANS_BEFORE_ROW):
        assert "l1" in table
    assert table._base._row is not None and [i in table for i in asked] == answers
    fresh = loaded_table()
    fresh.remove("l2")
    assert "l2" not in fresh and "l1" in fresh and "nope" not in fresh


def test_the_id_index_made_in_parts_is_the_one_made_at_once():
    """The editor makes the loaded links' id -> row map a part per event-loop turn; any
    question meanwhile completes it; a table edited since loading shares no map."""
    columns = loaded_table()._base
    parts = [columns.build_row(4), columns.build_row(4)]
    assert parts == [False, True] and columns.build_row(4)
    assert columns.row == {r["id"]: i for i, r in enumerate(LOADED)}
    halfway = loaded_table()._base
    assert not halfway.build_row(1)
    assert halfway.row == columns.row  # asked before the parts were done
    duplicated = LinkColumns.validated(columns_from_rows(iter([[row(0), row(1), row(0)]])))
    with pytest.raises(ValueError, match="not unique"):
        duplicated.build_row(2)
        duplicated.build_row(2)
    table = loaded_table()
    assert table.loaded_order() is table._base
    table.remove("l2")
    assert table.loaded_order() is None
    changed = loaded_table()
    changed.put(as_link(row(1, notes="changed")))
    assert changed.loaded_order() is None
