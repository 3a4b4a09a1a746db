"""The diff's link matching (change/diff.py `_Matcher`, ebc6fad) on random small revision pairs:
links added, removed, changed, given new ids, their ends moved (one or both), written the other
way round, devices renamed, the file's order changed.  Checked against the `_match` it replaced
(copied below from ebc6fad^, unchanged) and against a brute-force matcher written from the
module docstring's five rules over every link (no rows kept as the same beforehand)."""

from __future__ import annotations

import copy
import json
from collections import defaultdict
from functools import cache
from itertools import compress
from operator import not_
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from aicnet_gui.catalog.loader import builtin_catalog
from aicnet_gui.change.diff import (
    LINK_FIELDS,
    Retermination,
    _ends,
    _links_at,
    _match,
    _Matched,
    _moved_ends,
    _same_rows,
    _SameRows,
    match_devices,
)
from aicnet_gui.fileio import load_fabric
from aicnet_gui.fileio.fabric_file import loads_fabric
from aicnet_gui.model.document import FabricDocument
from aicnet_gui.model.fabric import Link
from tests.doc_edits import update_link

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "small-hgx.fabric"


# ------------------------------------------------------------ the old code (ebc6fad^), as it was
def _match_before(old: FabricDocument, new: FabricDocument, device_map: dict[str, str],
                  rows: _SameRows) -> _Matched:
    mapping: dict[str, str] = {}
    retermed: list[Retermination] = []
    changed: list[tuple[Link, Link]] = []
    old_ids = rows.old_ids
    left_rows = list(compress(range(len(old_ids)), map(not_, rows.same)))
    left_ids = list(map(old_ids.__getitem__, left_rows))
    left_old = dict(zip(left_ids, _links_at(old, left_ids, left_rows), strict=True))
    old_row = dict(zip(left_ids, left_rows, strict=True))
    new_rows = list(compress(range(len(rows.new_ids)), map(not_, rows.new_same)))
    left_ids = list(map(rows.new_ids.__getitem__, new_rows))
    left_new = dict(zip(left_ids, _links_at(new, left_ids, new_rows), strict=True))

    def keep(old_link: Link, new_link: Link, moved: bool) -> None:
        mapping[old_link.id] = new_link.id
        changed.append((old_link, new_link))
        del left_old[old_link.id]
        del left_new[new_link.id]
        if moved:
            retermed.append(Retermination(old_link, new_link,
                                          _moved_ends(old_link, new_link, device_map)))

    for link_id in [i for i in left_old if i in left_new]:
        if _ends(left_old[link_id], device_map) == _ends(left_new[link_id]):
            keep(left_old[link_id], left_new[link_id], False)
    if len(left_rows) < len(old_ids):
        kept = list(rows.same)
        for link_id in mapping:
            kept[old_row[link_id]] = True
        ids = list(compress(old_ids, kept))
        mapping = dict(zip(ids, ids, strict=True))
    by_ends = {_ends(lk): lk for lk in left_new.values()}
    for link in list(left_old.values()):
        target = by_ends.get(_ends(link, device_map))
        if target is not None and target.id in left_new:
            keep(link, target, False)
    for link_id in [i for i in left_old if i in left_new]:
        if len(_ends(left_old[link_id], device_map) & _ends(left_new[link_id])) == 1:
            keep(left_old[link_id], left_new[link_id], True)
    old_at: dict[tuple[str, str], list[Link]] = defaultdict(list)
    new_at: dict[tuple[str, str], list[Link]] = defaultdict(list)
    for link in left_old.values():
        for end in _ends(link, device_map):
            old_at[end].append(link)
    for link in left_new.values():
        for end in _ends(link):
            new_at[end].append(link)
    for end in sorted(set(old_at) & set(new_at)):
        olds, news = old_at[end], new_at[end]
        if len(olds) == 1 and len(news) == 1:
            a, b = olds[0], news[0]
            if a.id in left_old and b.id in left_new and a.cable == b.cable:
                keep(a, b, True)
    for link_id in [i for i in left_old if i in left_new]:
        a, b = left_old[link_id], left_new[link_id]
        pair = {device_map.get(a.a.device), device_map.get(a.b.device)}
        if pair == {b.a.device, b.b.device} and a.cable == b.cable:
            keep(a, b, True)
    return _Matched(mapping, retermed, list(left_old.values()), list(left_new.values()), changed)


# ------------------------------------------------------------ a brute-force matcher
def brute_force(old: list[Link], new: list[Link], device_map: dict[str, str]):
    """(old id -> new id, {(old id, new id) re-terminated}, removed ids, added ids) by the five
    rules of change/diff.py's docstring, each over every link the earlier ones left."""
    def mapped(end) -> tuple[str, str]:
        return (device_map.get(end.device, "\x00" + end.device), end.port)

    def old_ends(link: Link) -> frozenset:
        return frozenset((mapped(link.a), mapped(link.b)))

    def new_ends(link: Link) -> frozenset:
        return frozenset((tuple(link.a), tuple(link.b)))

    left_old = {lk.id: lk for lk in old}
    left_new = {lk.id: lk for lk in new}
    pairs: dict[str, str] = {}
    moved: set[tuple[str, str]] = set()

    def keep(a: Link, b: Link, retermed: bool) -> None:
        pairs[a.id] = b.id
        del left_old[a.id], left_new[b.id]
        if retermed:
            moved.add((a.id, b.id))

    for a in list(left_old.values()):  # 1. same id, same two ends
        b = left_new.get(a.id)
        if b is not None and old_ends(a) == new_ends(b):
            keep(a, b, False)
    for a in list(left_old.values()):  # 2. same two ends, another id
        for b in list(left_new.values()):
            if old_ends(a) == new_ends(b):
                keep(a, b, False)
                break
    for a in list(left_old.values()):  # 3. same id, one end in common
        b = left_new.get(a.id)
        if b is not None and len(old_ends(a) & new_ends(b)) == 1:
            keep(a, b, True)
    olds_at = {e: [a for a in left_old.values() if e in old_ends(a)]  # 4. asked once, at start
               for a in left_old.values() for e in old_ends(a)}
    news_at = {e: [b for b in left_new.values() if e in new_ends(b)]
               for b in left_new.values() for e in new_ends(b)}
    for end in sorted(olds_at.keys() & news_at.keys()):
        if len(olds_at[end]) == len(news_at[end]) == 1:
            a, b = olds_at[end][0], news_at[end][0]
            if a.id in left_old and b.id in left_new and a.cable == b.cable:
                keep(a, b, True)
    for a in list(left_old.values()):  # 5. same id, same two devices, same part
        b = left_new.get(a.id)
        if b is not None and a.cable == b.cable and \
                {device_map.get(a.a.device), device_map.get(a.b.device)} == {b.a.device, b.b.device}:
            keep(a, b, True)
    return pairs, moved, list(left_old), list(left_new)


# ------------------------------------------------------------ random revision pairs
@cache
def _base() -> tuple[dict, dict[str, list[str]], list[str]]:
    """small-hgx as JSON (no workloads), every port of each device, the cable parts it uses."""
    doc = load_fabric(EXAMPLE, builtin_catalog())
    data = json.loads(EXAMPLE.read_text())
    data["workloads"] = []
    ports = defaultdict(set)
    for link in doc.links.values():
        for end in (link.a, link.b):
            ports[end.device].add(end.port)
    for device in doc.devices:
        ports[device].update(doc.free_ports(device))
    cables = sorted({lk["cable"] for lk in data["links"] if lk.get("cable")})
    return data, {d: sorted(p) for d, p in ports.items()}, cables


OPS = ("remove", "part", "length", "new_id", "move_one", "move_one_device", "move_both",
       "new_id_move_one",
       "other_way", "add", "rename_device", "reverse", "old_part")


def revisions(picked: list[int], ops: list[tuple[str, int, int]]) -> tuple[dict, dict]:
    data, base_ports, cables = _base()
    ports = dict(base_ports)  # device id -> its ports, in the new revision
    old = copy.deepcopy(data)
    old["links"] = [copy.deepcopy(data["links"][i]) for i in picked]
    new = copy.deepcopy(old)
    devices = sorted(ports)
    count = 0

    def used() -> set[tuple[str, str]]:
        return {tuple(lk[e]) for lk in new["links"] for e in ("a", "b")}

    def free_port(device: str, k: int) -> str | None:
        taken = used()
        free = [p for p in ports[device] if (device, p) not in taken]
        return free[k % len(free)] if free else None

    for op, i, k in ops:
        links = new["links"]
        if op == "add":
            a_dev, b_dev = devices[i % len(devices)], devices[k % len(devices)]
            a_port = free_port(a_dev, k)
            if a_port is None:
                continue
            new["links"].append({"id": f"n{count}", "a": [a_dev, a_port], "b": [b_dev, "?"],
                                 "cable": cables[k % len(cables)]})
            b_port = free_port(b_dev, i)
            if b_port is None or (a_dev, a_port) == (b_dev, b_port):
                new["links"].pop()
                continue
            new["links"][-1]["b"] = [b_dev, b_port]
            count += 1
            continue
        if op == "old_part":
            if old["links"]:
                old["links"][i % len(old["links"])]["cable"] = cables[k % len(cables)]
            continue
        if op == "reverse":
            links.reverse()
            continue
        if op == "rename_device":  # the same device (by name) under another id
            device = devices[i % len(devices)]
            renamed = device + "-r"
            if renamed in ports:
                continue
            for d in new["devices"]:
                if d["id"] == device:
                    d["id"] = renamed
            for lk in links:
                for e in ("a", "b"):
                    if lk[e][0] == device:
                        lk[e] = [renamed, lk[e][1]]
            ports[renamed] = ports.pop(device)
            devices = sorted(ports)
            continue
        if not links:
            continue
        link = links[i % len(links)]
        if op == "remove":
            links.remove(link)
        elif op == "part":
            link["cable"] = cables[k % len(cables)]
        elif op == "length":
            link["length_m"] = 1.0 + k
        elif op == "new_id":
            link["id"] = f"r{count}"
            count += 1
        elif op == "other_way":
            link["a"], link["b"] = link["b"], link["a"]
        elif op in ("move_one", "move_one_device", "new_id_move_one"):
            if op == "new_id_move_one":
                link["id"] = f"r{count}"
                count += 1
            end = "a" if k % 2 else "b"
            device = link[end][0] if op == "move_one" else devices[k % len(devices)]
            port = free_port(device, k)
            if port is not None and [device, port] != link["b" if end == "a" else "a"]:
                link[end] = [device, port]
        elif op == "move_both":
            a_port, b_port = free_port(link["a"][0], k), free_port(link["b"][0], k + 1)
            if a_port is not None and b_port is not None and \
                    (link["a"][0], a_port) != (link["b"][0], b_port):
                link["a"], link["b"] = [link["a"][0], a_port], [link["b"][0], b_port]
    return old, new


def _doc(data: dict, as_loaded: bool) -> FabricDocument:
    doc = loads_fabric(json.dumps(data).encode(), builtin_catalog())
    if not as_loaded and doc.links:  # a note (no field the diff compares): picked by id
        update_link(doc, next(iter(doc.links)), notes="edited")
    return doc


def _ids(pairs: list[tuple[Link, Link]]) -> list[tuple[str, str]]:
    return [(a.id, b.id) for a, b in pairs]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 63), min_size=0, max_size=12, unique=True),
       st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 63), st.integers(0, 200)),
                max_size=10),
       st.booleans(), st.booleans())
def test_the_matcher_pairs_links_as_before_and_as_the_rules_say(picked, ops, old_loaded,
                                                                 new_loaded):
    old_data, new_data = revisions(picked, ops)
    old, new = _doc(old_data, old_loaded), _doc(new_data, new_loaded)
    device_map = match_devices(old, new)
    now = _match(old, new, device_map, _same_rows(old, new, device_map))
    before = _match_before(old, new, device_map, _same_rows(old, new, device_map))
    assert list(now.mapping.items()) == list(before.mapping.items())
    assert now.retermed == before.retermed
    assert _ids(now.changed) == _ids(before.changed) and now.changed == before.changed
    assert now.removed == before.removed and now.added == before.added

    for what, n in (("re-terminated", len(now.retermed)), ("removed", len(now.removed)),
                    ("added", len(now.added)), ("changed", len(now.changed)),
                    ("new id", sum(a != b for a, b in now.mapping.items())),
                    ("device renamed", sum(a != b for a, b in device_map.items())),
                    ("rule 4", sum(r.old.id != r.new.id for r in now.retermed)),
                    ("rule 5", sum(len(r.moved) == 2 for r in now.retermed))):
        event(f"{what}: {'some' if n else 'none'}")
    pairs, moved, removed, added = brute_force(list(old.links.values()),
                                               list(new.links.values()), device_map)
    assert now.mapping == pairs
    assert {(r.old.id, r.new.id) for r in now.retermed} == moved
    assert [lk.id for lk in now.removed] == removed
    assert [lk.id for lk in now.added] == added
    rows = _same_rows(old, new, device_map)
    same = set(compress(rows.old_ids, rows.same))
    assert set(_ids(now.changed)) == {(a, b) for a, b in pairs.items() if a not in same}
    for a, b in pairs.items():  # "the same" is what rule 1 keeps with every compared field equal
        if a in same:
            assert a == b
            old_link, new_link = old.links[a], new.links[b]
            assert all(getattr(old_link, f) == getattr(new_link, f) for f in LINK_FIELDS)
