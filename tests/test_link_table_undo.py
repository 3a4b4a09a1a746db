"""The link table under edits and their undos (a loaded link replaced in place, removed, put
back), against an independent model of the same edits: a dict of id -> Link kept in parallel,
with the one rule the table adds to a dict's order (a loaded link put back as the very object
that was loaded takes its loaded place again).  Checked after every step: ids in order, values,
tokens(), as_loaded() and loaded_order() (whose id -> row map the link layer shares)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from aicnet_gui.model.fabric import Link
from aicnet_gui.model.link_table import LinkColumns, LinkTable, columns_from_rows

N = 6


def _row(i: int) -> dict:
    return {"id": f"l{i}", "a": [f"s{i}", "p1"], "b": [f"w{i % 3}", f"{i}/1"], "rail": i}


def _loaded(made: list[bool]) -> tuple[LinkTable, list[Link | None]]:
    rows = [_row(i) for i in range(N)]
    table = LinkTable(LinkColumns.validated(columns_from_rows(iter([rows[:3], rows[3:]]))))
    # the loaded objects of the rows asked for (a row never asked for has none yet)
    return table, [table[f"l{i}"] if made[i] else None for i in range(N)]


class Oracle:
    """id -> Link as a dict, each id either on its loaded slot (row) or in the tail."""

    def __init__(self, table: LinkTable, loaded: list[Link | None]) -> None:
        self.loaded = loaded  # row -> the loaded object, once made
        self.ids = list(table)  # the loaded ids, as read (the row of each is its index)
        self.value: dict[str, Link] = {i: table[i] for i in self.ids}
        for r, link in enumerate(loaded):  # asking made them all now: keep the first ones
            if link is None:
                self.loaded[r] = self.value[self.ids[r]]
        self.slot: dict[str, int | None] = {i: r for r, i in enumerate(self.ids)}
        self.tail: list[str] = []

    def put(self, link: Link) -> None:
        if link.id in self.value:  # a new value: its place kept
            self.value[link.id] = link
            return
        row = self.ids.index(link.id) if link.id in self.ids else None
        if row is not None and self.loaded[row] is link:
            self.slot[link.id] = row  # an undo: back on its row
        else:
            self.slot[link.id] = None
            self.tail.append(link.id)
        self.value[link.id] = link

    def remove(self, link_id: str) -> None:
        del self.value[link_id]
        if self.slot.pop(link_id) is None:
            self.tail.remove(link_id)

    def order(self) -> list[str]:
        on_rows = sorted((r, i) for i, r in self.slot.items() if r is not None)
        return [i for _r, i in on_rows] + self.tail

    def as_loaded(self) -> bool:
        return not self.tail and all(self.slot.get(i) == r and self.value[i] is self.loaded[r]
                                     for r, i in enumerate(self.ids))


def check(table: LinkTable, oracle: Oracle) -> None:
    order = oracle.order()
    assert list(table) == order
    assert len(table) == len(order)
    assert table.values() == [oracle.value[i] for i in order]
    assert all(a is oracle.value[i] for a, i in zip(table.values(), order, strict=True))
    assert dict(table.items()) == oracle.value
    for i in [*oracle.ids, "l9", "l10"]:
        assert (i in table) == (i in oracle.value)
        assert table.get(i) is oracle.value.get(i)
    tokens = table.tokens()
    assert len(tokens) == len(order)
    for token, i in zip(tokens, order, strict=True):
        row = oracle.slot[i]
        if row is not None and oracle.value[i] is oracle.loaded[row]:
            assert token is table._base.ids[row]  # the id as read: a save reuses its line
        else:
            assert token is oracle.value[i]
    assert table.resolve(tokens) == [oracle.value[i] for i in order]
    as_loaded = oracle.as_loaded()
    assert (table.as_loaded() is not None) == as_loaded
    rows = _shared_rows(table)
    assert (rows is not None) == as_loaded
    if rows is not None:  # the map is right for the links as they are now
        assert dict(rows) == {i: r for r, i in enumerate(order)}
        assert table.as_loaded().ids == order


ops = st.lists(st.tuples(st.sampled_from(["change", "same", "remove", "add", "restore", "undo",
                                          "copy"]),
                         st.integers(0, N + 1), st.integers(0, 50)), max_size=30)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.booleans(), min_size=N, max_size=N), ops)
def test_replace_remove_and_undo_read_as_the_model_says(made, steps):
    table, loaded = _loaded(made)
    oracle = Oracle(table, loaded)
    check(table, oracle)
    undo: list[tuple[str, Link | None]] = []  # (id, its value before the step, None: absent)
    copies = []
    for op, i, rail in steps:
        link_id = f"l{i}"
        before = oracle.value.get(link_id)
        if op == "change" and before is not None:  # a new value of a link
            new = before.model_copy(update={"rail": rail})
        elif op == "same" and before is not None:  # an equal value, another object
            new = before.model_copy()
        elif op == "add" and before is None:  # a new link, maybe under a removed one's id
            new = Link.model_validate({**_row(i), "rail": rail})
        elif op == "restore" and i < N and (before is None or oracle.slot[link_id] is not None):
            new = oracle.loaded[i]  # the loaded object put back (as an undo of several steps)
        elif op == "remove" and before is not None:
            table.remove(link_id)
            oracle.remove(link_id)
            undo.append((link_id, before))
            check(table, oracle)
            continue
        elif op == "undo" and undo:
            _undo_one(table, oracle, *undo.pop())
            check(table, oracle)
            continue
        elif op == "copy":
            copies.append((table.copy(), oracle.order(), dict(oracle.value)))
            continue
        else:
            continue
        table.put(new)
        oracle.put(new)
        undo.append((link_id, before))
        check(table, oracle)
    while undo:  # undo everything, each step checked
        _undo_one(table, oracle, *undo.pop())
        check(table, oracle)
    assert dict(table.items()) == {f"l{i}": oracle.loaded[i] for i in range(N)}
    if oracle.as_loaded():
        assert _shared_rows(table) is table._base.row
    for copy, order, values in copies:
        assert list(copy) == order and dict(copy.items()) == values


def test_a_link_replaced_then_undone_gives_back_the_shared_row_map():
    table, loaded = _loaded([True] * N)
    rows = _shared_rows(table)
    assert rows is not None and rows["l3"] == 3
    table.put(loaded[3].model_copy(update={"rail": 40}))  # replaced in place
    assert _shared_rows(table) is None and table.as_loaded() is None
    assert list(table) == [f"l{i}" for i in range(N)]  # its place kept
    table.remove("l3")
    assert _shared_rows(table) is None
    table.put(loaded[3])  # the undo of both
    assert _shared_rows(table) is rows and table.as_loaded() is not None
    assert [rows[i] for i in table] == list(range(N))


def test_an_edited_link_removed_and_both_undone_holds_the_loaded_link_last():
    # edit, delete, undo, undo: the undo of the delete puts the edited value back, a link
    # that is not the loaded object, so it goes last (as in a dict); the undo of the edit then
    # gives it its loaded value where it now is.  The same links, but not as loaded: no shared
    # row map, no reuse of its line by a save, and a save writes it last
    table, loaded = _loaded([True] * N)
    edited = loaded[0].model_copy(update={"rail": 9})
    table.put(edited)
    table.remove("l0")
    table.put(edited)
    table.put(loaded[0])
    assert dict(table.items()) == {f"l{i}": loaded[i] for i in range(N)}
    assert list(table) == ["l1", "l2", "l3", "l4", "l5", "l0"]
    assert _shared_rows(table) is None and table.as_loaded() is None


def _shared_rows(table):  # noqa: ANN001, ANN202
    """The id -> row map the link layer shares (`LinkTable.loaded_order`), None when none."""
    order = table.loaded_order()
    return None if order is None else order.row


def _undo_one(table, oracle, link_id, value) -> None:  # noqa: ANN001
    """Undo one step on both: the link as it was before it (None: it was not there)."""
    if value is None:
        table.remove(link_id)
        oracle.remove(link_id)
    else:
        table.put(value)
        oracle.put(value)
