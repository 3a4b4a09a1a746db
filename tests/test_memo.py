"""The one identity memo: a hit only for the very object, a tag keeps values apart, bounded."""

from aicnet_gui.model.memo import IdentityMemo


def test_hit_only_for_the_same_object_not_an_equal_one() -> None:
    memo: IdentityMemo[str] = IdentityMemo(10)
    table = {1: "a"}
    memo.put(table, "derived")
    assert memo.get(table) == "derived"
    assert memo.get({1: "a"}) is None  # equal but another object


def test_tag_files_one_object_under_several_keys() -> None:
    memo: IdentityMemo[int] = IdentityMemo(10)
    table: dict[int, str] = {}
    memo.put(table, 1, "model-a")
    memo.put(table, 2, "model-b")
    assert memo.get(table, "model-a") == 1
    assert memo.get(table, "model-b") == 2
    assert memo.get(table) is None


def test_entry_keeps_its_object_alive_so_the_id_is_never_reused() -> None:
    memo: IdentityMemo[str] = IdentityMemo(10)
    memo.put([1, 2], "list")  # no other reference: the memo's own keeps the id taken
    for _ in range(1000):
        assert memo.get([1, 2]) is None


def test_a_full_memo_starts_over_and_an_unbounded_one_keeps_all() -> None:
    bounded: IdentityMemo[int] = IdentityMemo(3)
    keys = [object() for _ in range(4)]
    for i, key in enumerate(keys):
        bounded.put(key, i)
    assert len(bounded) == 1
    assert bounded.get(keys[3]) == 3 and bounded.get(keys[0]) is None
    registry: IdentityMemo[int] = IdentityMemo(None)
    for i, key in enumerate(keys):
        registry.put(key, i)
    assert [registry.get(key) for key in keys] == [0, 1, 2, 3]
