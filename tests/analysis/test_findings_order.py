"""Findings are listed by (severity, code, objects, message): the one-string sort key a finding
carries must order exactly as that tuple, whatever characters the names hold."""

from __future__ import annotations

import random
from dataclasses import replace

from aicnet_gui.analysis.findings import ERROR, INFO, WARNING, Finding, Fix

TEXTS = ["", "a", "b", "B", "\x00", "\x01", "\x02", "ab", "a\x00", "a\x01b", "\x01\x01", "é", "→"]


def test_sort_key_orders_as_the_tuple_for_any_text():
    rng = random.Random(7)
    findings = [
        Finding(rng.choice(TEXTS), rng.choice([ERROR, WARNING, INFO]), rng.choice(TEXTS),
                tuple(rng.choice(TEXTS) for _ in range(rng.randint(0, 3))))
        for _ in range(5000)
    ]
    by_tuple = sorted(findings, key=lambda f: (f.severity.rank, f.code, f.objects, f.message))
    by_key = sorted(findings, key=Finding.sort_key)
    assert [f.sort_key() for f in by_tuple] == [f.sort_key() for f in by_key]
    distinct = {(f.severity, f.code, f.objects, f.message) for f in findings}
    assert len({f.sort_key() for f in findings}) == len(distinct)


def test_the_key_follows_a_replaced_finding_and_is_not_part_of_equality():
    first = Finding("CABLE-UNSET", WARNING, "x", ("c1",))
    worse = replace(first, severity=ERROR, fix=Fix("do it"))
    assert worse.sort_key() < first.sort_key()
    assert replace(first, fix=Fix("other")).sort_key() == first.sort_key()
    assert first == Finding("CABLE-UNSET", WARNING, "x", ("c1",)) and "_sort" not in repr(first)
